"""Fonts of our own for tests, made by code with fontTools' FontBuilder.

"Boxer" covers printable ASCII and nothing else (no Cyrillic, no CJK): every glyph is a
rectangle outline whose stroke is thin (regular) or thick (bold), with a small square
placed by the character's code, so glyphs differ and a render shows which face drew them.  :func:`make_game` sets the test
game ``tests/data/mini`` in it (game.yaml ``fonts:``, a layout of its own).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ASCII = [chr(code) for code in range(0x21, 0x7F)]
UNITS = 1000


def _draw(pen, code: int, stroke: int, width: int) -> None:
    """A glyph: a rectangle outline, its hole, and a small square placed by ``code``."""

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


def build_font(family: str = "Boxer", style: str = "Regular", *, stroke: int | None = None,
               chars: list[str] | None = None, cff: bool = False) -> bytes:
    """A font (bytes) with a glyph for each of ``chars`` (printable ASCII): TrueType outlines,
    or with ``cff`` an OpenType font with PostScript (CFF) outlines."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = ASCII if chars is None else chars
    stroke = stroke if stroke is not None else (120 if "Bold" in style else 50)
    width = 600
    names = [".notdef", "space"] + [f"u{ord(ch):04X}" for ch in chars]
    codes = {".notdef": 0, "space": None, **{f"u{ord(ch):04X}": ord(ch) for ch in chars}}
    advance = {name: (width if name != "space" else 300) for name in names}
    postscript = f"{family}-{style}".replace(" ", "")
    builder = FontBuilder(UNITS, isTTF=not cff)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({0x20: "space", **{ord(ch): f"u{ord(ch):04X}" for ch in chars}})
    outlines = {}
    for name in names:
        pen = T2CharStringPen(advance[name], None) if cff else TTGlyphPen(None)
        if codes[name] is not None:
            _draw(pen, codes[name], stroke if name != ".notdef" else 20, width)
        outlines[name] = pen.getCharString() if cff else pen.glyph()
    if cff:
        builder.setupCFF(postscript, {"FullName": f"{family} {style}"}, outlines, {})
    else:
        builder.setupGlyf(outlines)
    builder.setupHorizontalMetrics({name: (advance[name], 60) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": style, "psName": postscript,
                            "uniqueFontIdentifier": f"cardgen-tests:{postscript}",
                            "fullName": f"{family} {style}", "version": "Version 1.000"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200,
                     sCapHeight=700, sxHeight=500, fsType=0,
                     usWeightClass=700 if "Bold" in style else 400,
                     fsSelection=(0x20 if "Bold" in style else 0x40))
    builder.setupPost()
    builder.setupHead(unitsPerEm=UNITS, created=3786825600, modified=3786825600,
                      macStyle=1 if "Bold" in style else 0)
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


MINI = Path(__file__).resolve().parent / "data" / "mini"

FONTS_YAML = """
fonts:
  boxer:
    regular: fonts/Boxer-Regular.ttf
    bold: fonts/Boxer-Bold.ttf
rulebook: {fonts: {body: boxer, headings: boxer}}
"""

LAYOUT = """
symbols:
  badge:
    - {circle: [50, 50, 45], fill: "#ffffff"}
    - {text: "{label}", at: [50, 50], size: 40, font: boxer-bold, fill: "#000000"}
faces:
  - match: {fields: name}
    elements:
      - {type: fill, fill: "{group.color}"}
      - {type: text, text: "{field.name}", font: boxer-bold, box: [5, 8, 53.5, 16], size: 16, min_size: 6}
      - {type: text, text: "{group.name}", font: regular, box: [5, 30, 53.5, 8], size: 9}
      - {type: draw, draw: badge, params: {label: "{card.id}"}, box: [16.75, 45, 30, 30]}
  - elements:
      - {type: fill, fill: "{group.color}"}
      - {type: text, text: "{card.id}", font: boxer, box: [5, 8, 53.5, 16], size: 16}
backs:
  - elements:
      - {type: fill, fill: "{back.color}"}
      - {type: text, text: "Boxer", font: boxer, box: [5, 40, 53.5, 10], size: 14, color: "#ffffff"}
"""


def make_game(root: Path, names: dict[str, str] | None = None, fonts_yaml: str = FONTS_YAML,
              layout: str = LAYOUT) -> Path:
    """The test game 'mini' in ``root``/content, set in the test face Boxer; ``names``: card name texts."""
    game = root / "content" / "mini"
    shutil.copytree(MINI, game)
    write_fonts(game / "fonts")
    (game / "game.yaml").write_text((game / "game.yaml").read_text("utf-8") + fonts_yaml, "utf-8")
    (game / "layout.yaml").write_text(layout, "utf-8")
    text = game / "text" / "ru.yaml"
    source = text.read_text("utf-8")
    for key, value in (names or {"card.one.name": "Boxer One", "card.swap.name": "Swap Обмен"}).items():
        source = re.sub(rf'(  {re.escape(key)}: )".*"', rf'\g<1>"{value}"', source)
    text.write_text(source, "utf-8")
    return root / "content"
