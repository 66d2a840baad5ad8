"""Pictures of the game's own in the rulebook: the cover art ``game.yaml`` names and diagrams in the text.

A rulebook text places a picture with Markdown's image syntax, ``![a short description](art/diagram.svg)``,
and ``game.yaml`` may name a cover picture (``rulebook: {cover: art/cover.png}``, described by the text
``rules.cover.alt``).  Every such file is the game's art: relative to the game folder and never outside
it (no absolute path, no '..', no symlink leading out), a regular file of at most :data:`MAX_BYTES`, of a
type WeasyPrint draws itself (:data:`TYPES`) whose bytes are what its name says.  A raster file is opened
as card art is (:mod:`cardgen.content.images`: its size, a decompression bomb, a truncated file); an SVG file may hold no DOCTYPE (no entity
expansion).  :func:`checked_image` makes every check, for ``cardgen validate`` (each problem at the file
and line that names the picture, see :mod:`cardgen.rulebook.sections`) and for the build alike, which
draws nothing it has not checked.

This module imports neither WeasyPrint nor Pillow until a raster file is checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardgen.content.safefile import UnsafeFile, check_name, inside, read_capped

#: Suffix -> what the file must be (WeasyPrint decodes all of them itself).
TYPES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".svg": "SVG"}
MAX_BYTES = 32 * 1024 * 1024
#: Pixels of one rulebook picture; Pillow's own bomb limit is higher, and a rulebook needs far fewer.
MAX_PIXELS = 60_000_000
#: ``![alt](path)``: the alt text has no ']' and no line break, the path no ')' and no line break.
MARKDOWN_IMAGE = re.compile(r"!\[(?P<alt>[^\]\n]*)\]\((?P<path>[^)\n]*)\)")
_MAGIC = {"PNG": (b"\x89PNG\r\n\x1a\n",), "JPEG": (b"\xff\xd8\xff",)}


#: The URL scheme of a game's own picture in the rulebook's HTML: ``cardgen-art:art/cover.png``, the path
#: relative to the game folder. WeasyPrint names a picture in the PDF by a hash of its URL, so a URL
#: without the folder's place on disk keeps the PDF the same wherever the game folder lies.
ART_SCHEME = "cardgen-art"


def art_url(game_root: Path, path: Path) -> str:
    """The rulebook's URL of ``path``, a file :func:`checked_image` returned for this game folder."""
    from urllib.parse import quote

    return f"{ART_SCHEME}:{quote(path.relative_to(game_root.resolve()).as_posix())}"


class ImageProblem(Exception):
    """A picture the rulebook cannot print; ``str()`` says why, for an error message."""


@dataclass(frozen=True)
class MarkdownImage:
    alt: str
    path: str
    start: int
    end: int


def markdown_images(text: str) -> list[MarkdownImage]:
    """Every ``![alt](path)`` of ``text``, in order."""
    return [MarkdownImage(m["alt"].strip(), m["path"].strip(), m.start(), m.end())
            for m in MARKDOWN_IMAGE.finditer(text)]


def without_images(text: str) -> str:
    """``text`` with each picture replaced by its alt text (for plain text)."""
    return MARKDOWN_IMAGE.sub(lambda m: m["alt"].strip(), text)


def checked_image(game_root: Path, name: str) -> Path:
    """The file ``name`` (relative to the game folder) names, once it passed every check.

    Raises :class:`ImageProblem` saying what is wrong with it.
    """
    try:
        check_name(name)
    except UnsafeFile as exc:
        raise ImageProblem(f"'{_shown(name)}' cannot name a file: {exc}") from None
    if not name:
        raise ImageProblem("no file named between the parentheses")
    if Path(name).is_absolute() or "://" in name or name.startswith("data:"):
        raise ImageProblem(f"'{name}' is not a path relative to the game folder (like art/diagram.svg)")
    path = game_root.resolve() / name
    if not inside(game_root / name, game_root):
        raise ImageProblem(f"'{name}' lies outside the game folder")
    kind = TYPES.get(path.suffix.lower())
    if kind is None:
        raise ImageProblem(f"'{name}' is not a picture the rulebook prints (expected a file ending in "
                           f"{', '.join(TYPES)})")
    resolved = path.resolve()
    try:
        stat = resolved.stat()
    except OSError:
        raise ImageProblem(f"no file '{name}' in the game folder") from None
    _check_file(resolved, kind, stat.st_mtime_ns, stat.st_size, name)
    return resolved


@lru_cache(maxsize=256)
def _check_file(path: Path, kind: str, mtime_ns: int, size: int, name: str) -> None:
    """The checks that read the file, once per file and version in a process."""
    try:
        data = read_capped(path, MAX_BYTES)
    except UnsafeFile as exc:
        raise ImageProblem(f"'{name}': {exc}") from None
    if kind == "SVG":
        head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
        if not head.startswith(b"<") or b"<svg" not in data[:65536]:
            raise ImageProblem(f"'{name}' is not an SVG file (no <svg> element at its start)")
        if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
            raise ImageProblem(f"'{name}': a DOCTYPE is not allowed in an SVG file (no entities; write the SVG out)")
        return
    if kind == "WEBP":
        good = data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    else:
        good = data.startswith(_MAGIC[kind])
    if not good:
        raise ImageProblem(f"'{name}' is not a {kind} file (its first bytes say otherwise)")
    _decode(path, kind, name)


def _decode(path: Path, kind: str, name: str) -> None:
    """Open the picture as the cards open theirs (:mod:`cardgen.content.images`: bombs, damaged or
    truncated files, every pixel decoded, remembered by its bytes), within a rulebook's pixel cap."""
    from cardgen.content.images import RasterError, probe, verify

    try:
        header = probe(path)  # the header only: the cap holds before anything is decoded
        width, height = header.width, header.height
        if width * height > MAX_PIXELS:
            raise ImageProblem(f"'{name}' is {width:,} x {height:,} pixels; a rulebook picture has at most "
                               f"{MAX_PIXELS:,}")
        verify(path)
    except RasterError as exc:
        raise ImageProblem(f"'{name}' cannot be read as {kind}: {exc.reason}") from None


def _shown(name: str) -> str:
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in name[:60])
    return text + ("..." if len(name) > 60 else "")


__all__ = ["ART_SCHEME", "ImageProblem", "MARKDOWN_IMAGE", "MAX_BYTES", "MarkdownImage", "TYPES", "art_url", "checked_image",
           "markdown_images", "without_images"]
