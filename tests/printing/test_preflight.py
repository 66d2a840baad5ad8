"""Preflight against deliberately broken PDFs: each fault found, named and measured; a clean file passes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from PIL import Image
from reportlab.lib.utils import ImageReader

from cardgen.cli import cli
from cardgen.cards import fonts
from cardgen.color.cmyk import OUTPUT_CONDITION, profile_for
from cardgen.cards.pdf import finish, new_canvas
from cardgen.printing.pdfx import make_pdfx
from cardgen.printing.preflight import preflight_bytes
from cardgen.printing.printers import printer
from cardgen.cards.text import PT_PER_MM

SHOP = printer("eu-pdfx4")
TRIM = (63.5 * PT_PER_MM, 88.9 * PT_PER_MM)


def one_card(bleed_mm: float = 3.0, fault=None) -> bytes:
    """A PDF/X-4 card of plain reportlab drawing in CMYK, with ``fault(canvas, bleed)`` drawn on it."""
    bleed = bleed_mm * PT_PER_MM
    w, h = TRIM[0] + 2 * bleed, TRIM[1] + 2 * bleed
    c = new_canvas((w, h), "broken")
    for _ in range(2):  # face and back
        c.setBleedBox((0, 0, w, h))
        c.setTrimBox((bleed, bleed, w - bleed, h - bleed))
        c.setFillColorCMYK(0.1, 0.5, 0.8, 0.1)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.saveState()
        c.setFillColorCMYK(0, 0, 0, 1)
        c.setFillOverprint(True)  # black-only text overprints, as prepress asks
        c.setOverprintMask(1)
        c.setFont(fonts.DEFAULT_FONT, 9)
        c.drawString(w / 2 - 20, h / 2, "Safe text")
        c.restoreState()
        c.setStrokeColorCMYK(0, 0, 0, 1)
        c.setLineWidth(0.5)
        c.line(w / 3, h / 3, w / 2, h / 3)
        if fault:
            fault(c, bleed)
            fault = None
        c.showPage()
    return make_pdfx(finish(c), "x-4", profile_for(300), OUTPUT_CONDITION)


def rgb_image(c, bleed):
    c.drawImage(ImageReader(
        Image.new("RGB", (600, 600), (20, 200, 60))), bleed + 20, bleed + 20, 72, 72)


def low_res_image(c, bleed):
    c.drawImage(ImageReader(
        Image.new("CMYK", (100, 100), (0, 200, 0, 0))), bleed + 20, bleed + 20, 72, 72)


def unembedded_font(c, bleed):
    c.setFont("Helvetica", 9)
    c.drawString(bleed + 30, bleed + 60, "Helvetica")


def hairline(c, bleed):
    c.setLineWidth(0.1)
    c.line(bleed + 20, bleed + 100, bleed + 120, bleed + 100)


def text_in_bleed(c, bleed):
    c.setFont(fonts.DEFAULT_FONT, 8)
    c.drawString(1.0, 120, "Bleedword")


def rich_black_area(c, bleed):
    c.setFillColorCMYK(1, 1, 1, 1)
    c.rect(bleed + 10, bleed + 10, 60, 60, stroke=0, fill=1)


def rgb_fill(c, bleed):
    c.setFillColorRGB(0.9, 0.1, 0.1)
    c.rect(bleed + 10, bleed + 10, 30, 30, stroke=0, fill=1)


def test_a_clean_card_passes():
    report = preflight_bytes(one_card(), SHOP, "clean.pdf")
    assert report.ok, [str(f) for f in report.findings]
    assert report.pages == 2 and len(report.ink) == 2 and max(report.max_tac) <= 300


@pytest.mark.parametrize("fault, bleed, check, element, measured", [
    (rgb_image, 3.0, "color", "image", "DeviceRGB"),
    (rgb_fill, 3.0, "color", "RGB fill colour", "0.9 0.1 0.1"),
    (low_res_image, 3.0, "image", "image", "100 ppi"),
    (unembedded_font, 3.0, "font", "Helvetica", "not embedded"),
    (None, 1.0, "boxes", "bleed", "1.00 mm"),
    (hairline, 3.0, "line", "thinnest", "0.100 pt"),
    (text_in_bleed, 3.0, "safe-zone", "text 'Bleedword'", "in the bleed"),
    (rich_black_area, 3.0, "ink", "total ink coverage", "400 %"),
])
def test_each_fault_is_named_on_its_page_with_its_measure(fault, bleed, check, element, measured):
    report = preflight_bytes(one_card(bleed, fault), SHOP, "broken.pdf")
    found = [f for f in report.findings if f.check == check]
    assert found, [str(f) for f in report.findings]
    first = found[0]
    assert first.file == "broken.pdf" and first.page == 1
    assert element in first.element and measured in first.measured, str(first)
    if fault is not None:  # the fault is on the face only: the back passes
        assert all(f.page in (1, None) for f in report.findings), [str(f) for f in report.findings]


def test_transparency_and_pdfx_keys_are_checked_for_x1a():
    def see_through(c, bleed):
        c.setFillAlpha(0.5)
        c.setFillColorCMYK(0, 1, 0, 0)
        c.rect(bleed + 10, bleed + 10, 30, 30, stroke=0, fill=1)

    report = preflight_bytes(one_card(3.2, see_through), printer("drivethrucards"), "x.pdf", deck=False)
    checks = {(f.check, f.element, f.measured) for f in report.findings}
    assert any(c == "transparency" and m == "ca 0.5" for c, _, m in checks), checks
    assert ("pdfx", "Info GTS_PDFXVersion", "'PDF/X-4'") in checks  # an X-4 file sent to an X-1a printer


def test_cli_exit_code_and_json(tmp_path):
    good, bad = tmp_path / "good.pdf", tmp_path / "bad.pdf"
    good.write_bytes(one_card())
    bad.write_bytes(one_card(3.0, hairline))
    result = CliRunner().invoke(cli, ["preflight", str(good)])
    assert result.exit_code == 0 and "good.pdf: 2 pages for eu-pdfx4" in result.output
    result = CliRunner().invoke(cli, ["preflight", str(good), str(bad), "--json"])
    assert result.exit_code == 1
    reports = json.loads(result.output)
    assert [r["ok"] for r in reports] == [True, False]
    assert reports[1]["findings"][0]["check"] == "line" and reports[1]["findings"][0]["page"] == 1
    result = CliRunner().invoke(cli, ["preflight", str(bad), "--pages", "4"])
    assert result.exit_code == 1 and "page count: 2 pages (limit 4)" in result.output


def test_a_checking_tool_that_does_not_end_is_a_failed_run_not_a_traceback():
    from cardgen.printing.preflight import _run

    result = _run(["sleep", "5"], timeout=0.2)
    assert result.returncode != 0 and b"no end within 0.2 s" in result.stderr


def test_a_missing_file_is_named_missing(tmp_path):
    from cardgen.errors import RenderError
    from cardgen.printing.preflight import preflight

    with pytest.raises(RenderError, match="does not exist"):
        preflight(tmp_path / "gone.pdf", printer("eu-pdfx4"))
    with pytest.raises(RenderError, match="not a regular file"):
        preflight(tmp_path, printer("eu-pdfx4"))


def test_without_printer_the_rules_are_named_and_an_rgb_file_gets_one_line(quiz, tmp_path):
    from cardgen.printing.shop import render_shop_pdf

    rgb = tmp_path / "rgb-shop.pdf"
    rgb.write_bytes(render_shop_pdf(quiz, "en")[0])
    result = CliRunner().invoke(cli, ["preflight", str(rgb)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1
    assert lines[0].startswith("no --printer: checking against eu-pdfx4 (") and "PDF/X-4, CMYK FOGRA39" in lines[0]
    assert len(lines) == 3, lines  # the rules, one finding, the summary
    assert "an RGB file (no PDF/X output intent)" in lines[1] and "--printer tgc" in lines[1]
    assert lines[2].endswith("1 failure(s)")
    result = CliRunner().invoke(cli, ["preflight", str(rgb), "--printer", "tgc"])  # RGB rules: no colour finding
    assert ": color: " not in result.output and "no --printer" not in result.output
    assert "28 pages for tgc" in result.output
