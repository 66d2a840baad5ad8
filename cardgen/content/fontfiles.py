"""A game's own font files, read and checked like any other content file.

A face named in ``game.yaml`` (``fonts:``) is read through :func:`~cardgen.content.safefile.read_capped`
(a regular file inside the game folder, at most :data:`MAX_FONT_BYTES`) and parsed with fontTools
before anything is drawn with it, so a PNG renamed ``.ttf``, a truncated file or a font whose
outlines reportlab cannot embed is a content error at the line that names it, not a traceback
while a PDF is written.

reportlab embeds TrueType outlines (``glyf``) only.  An OpenType font with PostScript (CFF)
outlines is converted once (:func:`truetype`, kept in cardgen's cache): each cubic curve becomes
quadratic ones within 1 font unit (fontTools' cu2qu, as its ``otf2ttf`` does), hinting is dropped
(the cards are print, not screen text).  The rulebook uses the file as it is (WeasyPrint reads CFF).
A variable CFF2 font, a web font (WOFF) or a collection (.ttc) is refused with a sentence saying so.
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


def truetype(data: bytes) -> bytes:
    """The font reportlab embeds: ``data`` itself, or its CFF outlines converted to TrueType
    (kept between runs); :class:`FontFileError` when it is no usable font."""
    from cardgen.content import memo

    font_coverage(data)
    if data[:4] != b"OTTO":
        return data
    return memo.cached("font-truetype", [data], lambda: _converted(data))


def check_font(data: bytes) -> frozenset[int]:
    """The code points ``data`` (a font file's bytes) has glyphs for; :class:`FontFileError`
    when it is no font reportlab can embed (after converting CFF outlines)."""
    if data[:4] == b"wOFF" or data[:4] == b"wOF2":
        raise FontFileError("a web font (WOFF); give the .ttf or .otf file it was made from")
    if data[:4] == b"ttcf":
        raise FontFileError("a font collection (.ttc); give one font of it as a .ttf file")
    if data[:4] not in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        raise FontFileError("not a TrueType or OpenType font file (it does not start as one)")
    return _checked(_converted(data) if data[:4] == b"OTTO" else data)


def _checked(data: bytes) -> frozenset[int]:
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)
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


def _converted(data: bytes) -> bytes:
    """An OpenType font with CFF outlines as a TrueType font (quadratic outlines, no hinting)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, TTLibError, newTable

    try:
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)
        if "CFF2" in font:
            raise FontFileError("a variable OpenType font (CFF2 outlines); give a static instance of it "
                                "as a .ttf file")
        if "CFF " not in font:
            raise FontFileError("an OpenType font without outlines (no CFF or glyf table)")
        order = font.getGlyphOrder()
        glyphs = font.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder = order
        glyf.glyphs = {}
        for name in order:
            pen = TTGlyphPen(glyphs)
            glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
            glyf.glyphs[name] = pen.glyph()
        for tag in ("CFF ", "VORG"):
            if tag in font:
                del font[tag]
        font["glyf"] = glyf
        font["loca"] = newTable("loca")
        maxp = font["maxp"]
        maxp.tableVersion = 0x00010000
        for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                      "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth"):
            setattr(maxp, field, 1 if field == "maxZones" else 0)
        font["head"].glyphDataFormat = 0
        post = font["post"]
        post.formatType, post.extraNames, post.mapping = 2.0, [], {}
        post.glyphOrder = order
        font.sfntVersion = "\x00\x01\x00\x00"
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()
    except FontFileError:
        raise
    except TTLibError as exc:
        raise FontFileError(f"not a usable font: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - fontTools raises anything on a damaged file
        raise FontFileError(f"a damaged font file ({type(exc).__name__}: {str(exc)[:120]})") from None


__all__ = ["MAX_FONT_BYTES", "FontFileError", "check_font", "font_coverage", "read_font", "truetype"]
