"""The only way a rulebook reads anything: a WeasyPrint URL fetcher with a fence.

It serves ``file:`` URLs of regular files of at most :data:`MAX_BYTES` under a few
folders (``content/``, ``templates/`` and the vendored fonts; a game's own font file is
read capped and checked as the cards read it), the game's own pictures through the
private ``cardgen-art:`` scheme (paths inside the game folder), card pictures through
the private ``cardgen-card:`` scheme, and inline ``data:`` URLs.  Everything else (other
files, ``http:``, ``ftp:``, a symlink leading out of the fence, a FIFO, a file too big)
is refused and remembered, and the build fails on it afterwards: WeasyPrint itself only
logs a failed fetch and goes on.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from cardgen.content.figures import ART_SCHEME
from cardgen.content.safefile import UnsafeFile, read_capped
from cardgen.errors import RenderError
from cardgen.cards.fonts import FONT_DIR

CARD_SCHEME = "cardgen-card"
#: The most one file may hold (a font of the publisher's, a picture of the game's); each is a regular file.
MAX_BYTES = 64 * 1024 * 1024
FONT_SUFFIXES = {".ttf", ".otf"}


class FencedFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that loads only allowed files; a refusal stops the render."""

    def __init__(self, roots: list[Path], card_image: Callable[[str], bytes | None] | None = None,
                 art_root: Path | None = None):
        super().__init__(fail_on_errors=True, allowed_protocols={"file", "data", CARD_SCHEME, ART_SCHEME},
                         allow_redirects=False)
        self.roots = [root.resolve() for root in roots]
        self.card_image = card_image
        self.art_root = art_root.resolve() if art_root is not None else None
        self.refused: list[str] = []
        self.loaded: list[str] = []

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme == "data":
            return super().fetch(url, headers)
        if parts.scheme == CARD_SCHEME:
            ref = parts.path + (f"?{parts.query}" if parts.query else "")
            data = self.card_image(ref) if self.card_image else None
            if data is None:
                self._refuse(url, "no picture for this card")
            return URLFetcherResponse(url, data, {"Content-Type": "image/png"})
        if parts.scheme == ART_SCHEME and self.art_root is not None:
            return self._file(url, self.art_root / unquote(parts.path), [self.art_root], "outside the game folder")
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            self._refuse(url, "only files of the project are loaded")
        return self._file(url, Path(unquote(parts.path)), self.roots, "outside content/, templates/ and the fonts")

    def _file(self, url: str, path: Path, roots: list[Path], outside: str) -> URLFetcherResponse:
        """A regular file of at most MAX_BYTES under one of ``roots``, every symlink followed."""
        try:
            resolved = path.resolve(strict=True)
        except (OSError, RuntimeError, ValueError):
            self._refuse(url, "no such file")
        if not any(resolved.is_relative_to(root) for root in roots):
            self._refuse(url, outside)
        if resolved.suffix.lower() in FONT_SUFFIXES and not resolved.is_relative_to(FONT_DIR.resolve()):
            data = self._font(url, resolved)  # a game's own font: read and checked as the cards read it
        else:
            try:
                data = read_capped(resolved, MAX_BYTES)
            except UnsafeFile as exc:
                self._refuse(url, str(exc))
        mime, _ = mimetypes.guess_type(resolved.name)
        self.loaded.append(str(resolved))
        # a file: URL answers with the file's own place (relative URLs in it resolve from there);
        # a cardgen-art: URL stays as it is, free of the folder's place on disk
        answer = resolved.as_uri() if urlsplit(url).scheme == "file" else url
        return URLFetcherResponse(answer, data, {"Content-Type": mime or "application/octet-stream"})

    def _font(self, url: str, path: Path) -> bytes:
        """A font file: regular, capped, and one reportlab could embed too (else refused)."""
        from cardgen.content.fontfiles import FontFileError, font_coverage, read_font

        try:
            data = read_font(path, path.parent)
            font_coverage(data)
        except FontFileError as exc:
            self._refuse(url, str(exc))
        return data

    def _refuse(self, url: str, why: str):
        self.refused.append(f"{url} ({why})")
        raise RenderError(f"refused to load {url}: {why}")

    def check(self) -> None:
        """Raise if anything was refused during the render."""
        if self.refused:
            raise RenderError("the rulebook tried to load what it may not: " + "; ".join(self.refused))
