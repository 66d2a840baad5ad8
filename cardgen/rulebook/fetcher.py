"""The only way a rulebook reads anything: a WeasyPrint URL fetcher with a fence.

It serves ``file:`` URLs under a few folders of the project (``content/``,
``templates/`` and the vendored fonts; a game's own font file is read capped and
checked as the cards read it), card pictures through the private
``cardgen-card:`` scheme, and inline ``data:`` URLs.  Everything else (other
files, ``http:``, ``ftp:``, a symlink leading out of the fence) is refused
and remembered, and the build fails on it afterwards: WeasyPrint itself only
logs a failed fetch and goes on.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from cardgen.errors import RenderError
from cardgen.render.fonts import FONT_DIR

CARD_SCHEME = "cardgen-card"
FONT_SUFFIXES = {".ttf", ".otf"}


class FencedFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that loads only allowed files; a refusal stops the render."""

    def __init__(self, roots: list[Path], card_image: Callable[[str], bytes | None] | None = None):
        super().__init__(fail_on_errors=True, allowed_protocols={"file", "data", CARD_SCHEME},
                         allow_redirects=False)
        self.roots = [root.resolve() for root in roots]
        self.card_image = card_image
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
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            self._refuse(url, "only files of the project are loaded")
        path = Path(unquote(parts.path))
        try:
            resolved = path.resolve(strict=True)
        except (OSError, RuntimeError):
            self._refuse(url, "no such file")
        if not any(resolved.is_relative_to(root) for root in self.roots) or not resolved.is_file():
            self._refuse(url, "outside content/, templates/ and the fonts")
        mime, _ = mimetypes.guess_type(resolved.name)
        if resolved.suffix.lower() in FONT_SUFFIXES and not resolved.is_relative_to(FONT_DIR.resolve()):
            # a game's own font: read and checked as the cards read it
            data = self._font(url, resolved)
        else:
            data = resolved.read_bytes()
        self.loaded.append(str(resolved))
        return URLFetcherResponse(resolved.as_uri(), data, {"Content-Type": mime or "application/octet-stream"})

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
