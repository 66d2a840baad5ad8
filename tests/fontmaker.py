"""Fonts of our own for tests, made by code with fontTools' FontBuilder.

"Boxer" covers printable ASCII and nothing else (no Cyrillic, no CJK): every glyph is a
rectangle outline whose stroke is thin (regular) or thick (bold), with a small square
placed by the character's code, so glyphs differ and a render shows which face drew them.
"""

from __future__ import annotations

from pathlib import Path

ASCII = [chr(code) for code in range(0x21, 0x7F)]
UNITS = 1000


def _glyph(code: int, stroke: int, width: int):
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    pen = TTGlyphPen(None)

    def rect(x0: int, y0: int, x1: int, y1: int, clockwise: bool = True) -> None:
        points = [(x0, y0), (x0, y1), (x1, y1), (x1, y0)] if clockwise else [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        pen.moveTo(points[0])
        for point in points[1:]:
            pen.lineTo(point)
        pen.closePath()

    left, right, bottom, top = 60, width - 60, 0, 700
    rect(left, bottom, right, top)  # outer contour
    rect(left + stroke, bottom + stroke, right - stroke, top - stroke, clockwise=False)  # the hole
    size = 90
    x = left + stroke + 10 + (code % 3) * (right - left - 2 * stroke - size - 20) // 2
    y = bottom + stroke + 10 + ((code // 3) % 4) * (top - bottom - 2 * stroke - size - 20) // 3
    rect(x, y, x + size, y + size)
    return pen.glyph()


def build_font(family: str = "Boxer", style: str = "Regular", *, stroke: int | None = None,
               chars: list[str] | None = None) -> bytes:
    """A TrueType font (bytes) with a glyph for each of ``chars`` (printable ASCII)."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = ASCII if chars is None else chars
    stroke = stroke if stroke is not None else (120 if "Bold" in style else 50)
    width = 600
    names = [".notdef", "space"] + [f"u{ord(ch):04X}" for ch in chars]
    builder = FontBuilder(UNITS, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({0x20: "space", **{ord(ch): f"u{ord(ch):04X}" for ch in chars}})
    empty = TTGlyphPen(None).glyph()
    glyphs = {".notdef": _glyph(0, 20, width), "space": empty}
    glyphs.update({f"u{ord(ch):04X}": _glyph(ord(ch), stroke, width) for ch in chars})
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (width if name != "space" else 300, 60) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    postscript = f"{family}-{style}".replace(" ", "")
    builder.setupNameTable({"familyName": family, "styleName": style, "psName": postscript,
                            "uniqueFontIdentifier": f"cardgen-tests:{postscript}",
                            "fullName": f"{family} {style}", "version": "Version 1.000"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200,
                     sCapHeight=700, sxHeight=500, fsType=0,
                     usWeightClass=700 if "Bold" in style else 400,
                     fsSelection=(0x20 if "Bold" in style else 0x40))
    builder.setupPost()
    builder.setupHead(unitsPerEm=UNITS, created=3786825600, modified=3786825600, macStyle=1 if "Bold" in style else 0)
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def write_fonts(folder: Path, family: str = "Boxer") -> dict[str, Path]:
    """Regular and bold faces of ``family`` written into ``folder``; style -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for style in ("Regular", "Bold"):
        path = folder / f"{family}-{style}.ttf"
        path.write_bytes(build_font(family, style))
        paths[style.lower()] = path
    return paths
