"""A game's own font files, read and checked like any other content file.

A face named in ``game.yaml`` (``fonts:``) is read through :func:`~cardgen.content.safefile.read_capped`
(a regular file inside the game folder, at most :data:`MAX_FONT_BYTES`) and parsed with fontTools
before anything is drawn with it, so a PNG renamed ``.ttf``, a truncated file or a font whose
outlines reportlab cannot embed is a content error at the line that names it, not a traceback
while a PDF is written.

reportlab embeds TrueType outlines (``glyf``) only; an OpenType font with PostScript (CFF)
outlines is refused with a sentence that says so and how to convert it.
"""

from __future__ import annotations

import io
from pathlib import Path

from cardgen.content.safefile import UnsafeFile, read_capped

#: A family of four faces of a large CJK font stays under this; a font is embedded subset.
MAX_FONT_BYTES = 32 * 1024 * 1024
#: The tables a face must have for reportlab to measure and embed it.
REQUIRED_TABLES = ("head", "hhea", "hmtx", "maxp", "cmap", "name", "post", "loca", "glyf")


class FontFileError(Exception):
    """A font file that cannot be used; ``str()`` says why, for a content or render error."""


def read_font(path: Path, root: Path) -> bytes:
    """The bytes of a font file of the game folder ``root`` (regular, capped, fenced)."""
    try:
        return read_capped(path, MAX_FONT_BYTES, root=root)
    except UnsafeFile as exc:
        raise FontFileError(str(exc)) from None


def font_coverage(data: bytes) -> frozenset[int]:
    """:func:`check_font`, kept between runs (cardgen's cache, keyed by the file's bytes)."""
    from cardgen.content import memo

    return memo.cached("font-check", [data], lambda: check_font(data))


def check_font(data: bytes) -> frozenset[int]:
    """The code points ``data`` (a font file's bytes) has glyphs for; :class:`FontFileError`
    when it is no TrueType font reportlab can embed."""
    from fontTools.ttLib import TTFont, TTLibError

    if data[:4] == b"wOFF" or data[:4] == b"wOF2":
        raise FontFileError("a web font (WOFF); give the .ttf file it was made from")
    if data[:4] == b"ttcf":
        raise FontFileError("a font collection (.ttc); give one font of it as a .ttf file")
    if data[:4] not in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        raise FontFileError("not a TrueType or OpenType font file (it does not start as one)")
    try:
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)
        if "CFF " in font or "CFF2" in font:
            raise FontFileError(
                "an OpenType font with PostScript (CFF) outlines, which reportlab cannot embed in a PDF; "
                "use the font's TrueType (.ttf) version, or convert it (fontTools' otf2ttf)")
        missing = [tag for tag in REQUIRED_TABLES if tag not in font]
        if missing:
            raise FontFileError(f"the font has no {', '.join(missing)} table(s)")
        cmap = font["cmap"].getBestCmap()
        if not cmap:
            raise FontFileError("the font maps no Unicode character to a glyph (no Unicode cmap)")
        glyf = font["glyf"]
        for name in sorted(set(cmap.values())):  # every glyph text is drawn with decodes
            glyf[name].getCoordinates(glyf)
        return frozenset(cmap)
    except FontFileError:
        raise
    except TTLibError as exc:
        raise FontFileError(f"not a usable font: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - fontTools raises anything on a damaged file
        raise FontFileError(f"a damaged font file ({type(exc).__name__}: {str(exc)[:120]})") from None


__all__ = ["MAX_FONT_BYTES", "FontFileError", "check_font", "font_coverage", "read_font"]
