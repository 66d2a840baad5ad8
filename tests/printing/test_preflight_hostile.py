"""Issue #28, item 7: ``cardgen preflight`` on hostile PDFs ends with findings naming the file
and page, never a traceback, a RecursionError or gigabytes of memory."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.printing.preflight import MAX_FORM_DEPTH, MAX_PAGE_PT, preflight
from cardgen.printing.printers import printer

SHOP = printer("eu-pdfx4")


def blank(path: Path, size: float = 200.0, pages: int = 2, **boxes) -> Path:
    """A PDF of blank pages ``size`` points square with trim and bleed boxes (``boxes`` replace them)."""
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=(size, size))
        page = pdf.pages[-1]
        page.obj.BleedBox = pikepdf.Array([0, 0, size, size])
        page.obj.TrimBox = pikepdf.Array([9, 9, size - 9, size - 9])
        for name, value in boxes.items():
            page.obj[f"/{name}"] = value
    pdf.save(path)
    return path


def nested_forms(path: Path, depth: int) -> Path:
    """A page placing a form that places a form ... ``depth`` deep."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    inner = None
    for level in range(depth):
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner)) if inner is not None else pikepdf.Dictionary()
        form = pikepdf.Stream(pdf, b"/F Do" if inner is not None else b"0 0 1 1 re f")
        form.Type, form.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
        form.BBox = pikepdf.Array([0, 0, 200, 200])
        form.Resources = resources
        inner = pdf.make_indirect(form)
    page = pdf.pages[0]
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner))
    page.obj.Contents = pdf.make_stream(b"/F Do")
    page.obj.BleedBox = pikepdf.Array([0, 0, 200, 200])
    page.obj.TrimBox = pikepdf.Array([9, 9, 191, 191])
    pdf.pages.append(pdf.pages[0])
    pdf.save(path)
    return path


def finding_of(report, check: str):
    found = [f for f in report.findings if f.check == check]
    assert found, report.findings
    return found[0]


def test_hostile_preflight_a_7000_pt_page_is_a_finding_not_gigabytes(tmp_path):
    """The issue: a 539-byte PDF with a 7000 pt page cost 2.2 GB in the ink render."""
    path = blank(tmp_path / "huge.pdf", 7000)
    assert path.stat().st_size < 2000
    script = textwrap.dedent(f"""
        import resource
        from pathlib import Path
        from cardgen.printing.preflight import preflight
        from cardgen.printing.printers import printer
        report = preflight(Path({str(path)!r}), printer("eu-pdfx4"))
        print(report.findings[0])
        # this process's own peak (VmHWM): ru_maxrss would start from the parent's size at the fork
        # (Linux keeps it across exec), which under a long test run is the whole of pytest
        own = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
        print(own + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    finding, peak_kib = done.stdout.strip().splitlines()
    assert "huge.pdf: page 1: pages: page size: 7000 x 7000 pt" in finding
    assert f"at most {MAX_PAGE_PT:g} pt a side" in finding
    assert int(peak_kib) < 400 * 1024  # KiB: the interpreter and pikepdf, no render


def test_hostile_preflight_a_14400_pt_page_is_a_finding_not_a_decompression_bomb(tmp_path):
    report = preflight(blank(tmp_path / "max.pdf", 14400), SHOP)
    assert "14400 x 14400 pt" in str(finding_of(report, "pages"))


def test_hostile_preflight_a_trimbox_that_is_a_name(tmp_path):
    report = preflight(blank(tmp_path / "foo.pdf", TrimBox=pikepdf.Name.Foo), SHOP)
    finding = finding_of(report, "boxes")
    assert str(finding) == "%s: page 1: boxes: TrimBox: not a rectangle of four numbers (limit [x0 y0 x1 y1])" % (
        tmp_path / "foo.pdf")


@pytest.mark.parametrize("box", [pikepdf.Array([0, 0, 1]), pikepdf.Array([0, 0, "a", 1]),
                                 pikepdf.Array([0, 0, pikepdf.Name.X, 1]), pikepdf.Dictionary(),
                                 pikepdf.Array([0, 0, pikepdf.Array([1]), 1])])
def test_hostile_preflight_other_boxes_that_are_not_rectangles(tmp_path, box):
    report = preflight(blank(tmp_path / "box.pdf", BleedBox=box), SHOP)
    assert "BleedBox" in finding_of(report, "boxes").element


def test_hostile_preflight_forms_nested_3000_deep(tmp_path):
    """The issue: a RecursionError traceback."""
    report = preflight(nested_forms(tmp_path / "deep.pdf", 3000), SHOP)
    finding = finding_of(report, "pdf")
    assert finding.page == 1 and f"nested deeper than {MAX_FORM_DEPTH}" in finding.measured


def test_hostile_preflight_forms_nested_within_the_bound_are_walked(tmp_path):
    report = preflight(nested_forms(tmp_path / "ok.pdf", 5), SHOP)
    assert not [f for f in report.findings if f.check == "pdf"]


@pytest.mark.parametrize("user", ["secret", ""])
def test_hostile_preflight_an_encrypted_file(tmp_path, user):
    """The issue: a PasswordError traceback (with a user password); without one, the file opens
    but a print shop takes no encrypted file either."""
    path = tmp_path / "locked.pdf"
    source = blank(tmp_path / "plain.pdf")
    with pikepdf.open(source) as pdf:
        pdf.save(path, encryption=pikepdf.Encryption(owner="owner", user=user))
    report = preflight(path, SHOP)
    assert "encrypted" in finding_of(report, "pdfx").measured


def test_hostile_preflight_too_many_pages_and_too_much_to_render(tmp_path, monkeypatch):
    from cardgen.printing import preflight as module

    monkeypatch.setattr(module, "MAX_PAGES", 3)
    report = preflight(blank(tmp_path / "many.pdf", pages=4), SHOP)
    assert "4 pages" in finding_of(report, "pages").measured
    monkeypatch.setattr(module, "MAX_PAGES", 5000)
    monkeypatch.setattr(module, "MAX_RENDER_PIXELS", 1_000_000)
    report = preflight(blank(tmp_path / "big.pdf", size=1900, pages=2), SHOP)
    assert "million pixels" in finding_of(report, "pages").measured


def test_hostile_preflight_cli_names_file_and_page_with_no_traceback(tmp_path):
    files = [blank(tmp_path / "huge.pdf", 7000), blank(tmp_path / "foo.pdf", TrimBox=pikepdf.Name.Foo),
             nested_forms(tmp_path / "deep.pdf", 3000)]
    result = CliRunner().invoke(cli, ["preflight", *map(str, files)])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for path in files:
        assert f"{path}: page 1:" in result.output
