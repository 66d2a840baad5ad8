"""Black by neutrality and overprint: which colours print on K alone, and that 100 % K text and
thin lines overprint while everything else knocks out (read back from the PDF's graphics state)."""

from __future__ import annotations

import io
from decimal import Decimal

import pikepdf
import pytest
from reportlab.lib.colors import HexColor

from cardgen.cards import fonts
from cardgen.cards.pdf import finish, new_canvas
from cardgen.color.cmyk import CmykConverter, chroma, cmyk_canvas_class, lab

K100 = (0.0, 0.0, 0.0, 1.0)


def _rgb(hex_colour: str):
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


@pytest.mark.parametrize("colour, black", [
    ("#000000", True), ("#1a1a1a", True), ("#212121", True),
    ("#263238", True),  # the layouts' text colour: dark blue-grey, chroma 6.4
    ("#621982", False),  # purple (Himmel's "Richtungswechsel"): luma 0.23, chroma 65
    ("#4a148c", False), ("#1a237e", False), ("#0d1b2a", False), ("#102040", False),  # dark blues
    ("#3b2a1a", False), ("#3e2723", False), ("#4e342e", False),  # browns (klepka's hair)
    ("#37474f", False),  # a blue-grey just lighter than black's limit
])
def test_black_is_dark_and_neutral_not_just_dark(colour, black):
    converter = CmykConverter(240)
    assert (converter.black_only(_rgb(colour)) == K100) is black, (colour, lab(_rgb(colour)))


def test_the_thresholds_come_from_the_printer():
    purple = _rgb("#621982")
    assert chroma(purple) > 60
    assert CmykConverter(240, black_chroma=70, black_lightness=30).black_only(purple) == K100
    assert CmykConverter(240, black_chroma=10, black_lightness=30).black_only(purple) is None
    assert CmykConverter(240, black_lightness=10).black_only(_rgb("#263238")) is None  # L* 20 is not black there


def _operations(data: bytes):
    """Every operation of the first page and the forms it places, with the graphics state in force:
    (operator, operands, fill CMYK, stroke CMYK, OP, op, OPM)."""
    out = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        def walk(holder, resources, state):
            stack = []
            for operands, op in pikepdf.parse_content_stream(holder):
                op = str(op)
                values = [float(v) for v in operands if isinstance(v, (int, float, Decimal))]
                if op == "q":
                    stack.append(dict(state))
                elif op == "Q":
                    state = stack.pop()
                elif op == "k":
                    state["fill"] = tuple(values)
                elif op == "K":
                    state["stroke"] = tuple(values)
                elif op == "gs":
                    graphics = resources.ExtGState[str(operands[0])]
                    if "/OP" in graphics:
                        state["OP"] = state["op"] = bool(graphics.OP)
                    if "/op" in graphics:
                        state["op"] = bool(graphics["/op"])
                    if "/OPM" in graphics:
                        state["OPM"] = int(graphics.OPM)
                elif op == "Do":
                    form = resources.XObject[str(operands[0])]
                    walk(form, form.get("/Resources", resources), dict(state))
                out.append((op, values, state.get("fill"), state.get("stroke"), state["OP"], state["op"], state["OPM"]))

        page = pdf.pages[0]
        walk(page, page.Resources, {"OP": False, "op": False, "OPM": 0})
    return out


def test_k_text_and_thin_k_lines_overprint_rich_black_areas_and_colours_knock_out():
    c = new_canvas((300, 300), "k", canvas_cls=cmyk_canvas_class(300, 0.25))
    c.beginForm("card")
    c.setFillColor(HexColor("#c62828"))
    c.rect(0, 0, 300, 300, stroke=0, fill=1)  # a red background
    c.setFillColor(HexColor("#263238"))
    c.setFont(fonts.DEFAULT_FONT, 8)
    c.drawString(10, 10, "small black")  # 100 % K, overprints
    c.setFillColor(HexColor("#621982"))
    c.drawString(10, 30, "small purple")  # a colour: knocks out
    c.setFillColor(HexColor("#000000"))
    c.rect(100, 100, 120, 120, stroke=0, fill=1)  # a large black area: rich, knocks out
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.6)
    c.line(10, 60, 200, 60)  # a thin black line: 100 % K, overprints
    c.setLineWidth(3)
    c.line(10, 80, 200, 80)  # a thick one: rich black, knocks out
    c.endForm()
    c.doForm("card")
    c.showPage()
    ops = _operations(finish(c))
    texts = [o for o in ops if o[0] == "Tj"]
    assert [(t[2], t[5], t[6]) for t in texts][0] == (K100, True, 1)  # black text: K only, op true, OPM 1
    purple = texts[1]
    assert purple[2] != K100 and sum(purple[2][:3]) > 1 and purple[5] is False
    fills = [o for o in ops if o[0] in ("f", "f*")]
    assert fills[0][2] != K100 and fills[0][5] is False  # red background
    assert sum(fills[1][2]) > 2.5 and fills[1][5] is False  # large black: rich (over 250 %), no overprint
    strokes = [o for o in ops if o[0] == "S"]
    assert strokes[0][3] == K100 and strokes[0][4] is True and strokes[0][6] == 1  # thin line overprints
    assert strokes[1][3] != K100 and strokes[1][4] is False  # thick line: rich, knocks out

