"""Print shops as data, CMYK PDF/X shop files, checked by qpdf, Ghostscript and poppler."""

from __future__ import annotations

import io
import json
import re
import subprocess
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.errors import RenderError
from cardgen.color.cmyk import CmykConverter, cmyk_canvas_class
from cardgen.cards.pdf import finish, new_canvas
from cardgen.printing.preflight import preflight_bytes
from cardgen.printing.printers import printer, printers
from cardgen.printing.shop import render_printer_pdfs, render_shop_pdf

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"


@pytest.fixture(scope="module")
def quiz_files(quiz):
    return {name: render_printer_pdfs(quiz, "en", printer(name)) for name in ("eu-pdfx4", "drivethrucards")}


def test_every_printer_the_issue_names_is_a_full_record():
    found = printers()
    assert {"tgc", "mpc", "drivethrucards", "printerstudio", "eu-pdfx4"} <= set(found)
    dtc, eu = found["drivethrucards"], found["eu-pdfx4"]
    assert (dtc.files, dtc.color, dtc.pdfx, dtc.order, dtc.tac) == ("pdf-per-deck", "cmyk", "x-1a", "back-face", 240)
    assert (eu.files, eu.color, eu.pdfx, eu.bleed_mm, eu.tac) == ("pdf", "cmyk", "x-4", 3.0, 300)
    assert found["tgc"].pixels(63.5, 88.9) == (825, 1125)


@pytest.mark.parametrize("field, value, message", [
    ("tac", 900, "'tac' is 900; expected 150 to 400"),
    ("pdfx", "x-3", "'pdfx' is 'x-3'; expected one of: none, x-1a, x-4"),
    ("bleed_mm", "3mm", "'bleed_mm' must be a number"),
    ("bpc", "yes", "'bpc' must be true or false, got 'yes'"),
    ("black_chroma", 50, "'black_chroma' is 50; expected 0 to 30"),
    ("intent", "saturation", "'intent' is 'saturation'; expected one of: relative, perceptual"),
    ("sizes", {"poker": [63.5]}, "size 'poker' must be [width, height] in mm, 20 to 300"),
    ("condition", "", "'condition' must be the name of an output condition"),
])
def test_a_bad_printer_record_is_a_clear_error(tmp_path, field, value, message):
    import yaml

    data = yaml.safe_load((Path(__file__).resolve().parents[2] / "templates" / "cards" / "printers.yaml").read_text("utf-8"))
    data["printers"]["eu-pdfx4"][field] = value
    (tmp_path / "printers.yaml").write_text(yaml.safe_dump(data), "utf-8")
    with pytest.raises(RenderError) as caught:
        printers(tmp_path)
    assert message in str(caught.value) and "printers.eu-pdfx4" in str(caught.value)


def test_a_record_without_the_optional_fields_keeps_the_old_meaning(tmp_path):
    import yaml

    data = yaml.safe_load((Path(__file__).resolve().parents[2] / "templates" / "cards" / "printers.yaml").read_text("utf-8"))
    for key in ("sizes", "condition", "intent", "bpc", "black_chroma", "black_lightness"):
        data["printers"]["eu-pdfx4"].pop(key, None)
    (tmp_path / "printers.yaml").write_text(yaml.safe_dump(data), "utf-8")
    eu = printers(tmp_path)["eu-pdfx4"]
    assert (eu.sizes, eu.condition, eu.intent, eu.bpc, eu.black_chroma, eu.black_lightness) == (
        None, "FOGRA39", "relative", True, 10.0, 27.0)
    bundled = printer("drivethrucards")
    assert (bundled.condition, bundled.bpc, "poker" in bundled.sizes) == ("CGATS TR 005", False, True)


def test_cmyk_separations_black_text_on_k_and_ink_within_the_limit():
    conv = CmykConverter(240)
    assert conv.black_only((0, 0, 0)) == (0, 0, 0, 1.0)
    assert conv.black_only((0.8, 0.1, 0.1)) is None  # a colour keeps its separation
    for rgb in [(0, 0, 0), (0.1, 0.2, 0.1), (0.18, 0.49, 0.2), (0.6, 0.1, 0.5)]:
        assert sum(conv.area(rgb)) <= 2.4 + 1e-9
    c, m, y, k = conv.area((1, 0, 0))  # sRGB red: magenta and yellow, no cyan or black
    assert m > 0.8 and y > 0.8 and c < 0.05 and k < 0.05


def test_cmyk_canvas_small_dark_text_and_thin_lines_on_black_widened_to_the_minimum():
    from reportlab.lib.colors import HexColor

    from cardgen.cards import fonts

    c = new_canvas((200, 200), "k", canvas_cls=cmyk_canvas_class(300, 0.25))
    c.setFillColor(HexColor("#263238"))  # the layouts' near-black, slightly blue
    c.setFont(fonts.DEFAULT_FONT, 8)
    c.drawString(10, 10, "small")
    c.setFont(fonts.DEFAULT_FONT, 30)
    c.drawString(10, 50, "headline")
    c.setStrokeColor(HexColor("#263238"))
    c.setLineWidth(0.05)
    c.line(10, 100, 150, 100)
    c.showPage()
    with pikepdf.open(io.BytesIO(finish(c))) as pdf:
        ops = [(str(op), [float(v) for v in operands if isinstance(v, (int, float, Decimal))])
               for operands, op in pikepdf.parse_content_stream(pdf.pages[0])]
    fills = [values for op, values in ops if op == "k"]
    assert fills[0] == [0, 0, 0, 1]  # 8 pt text: 100 % K
    assert fills[1][0] > 0.3 and sum(fills[1]) > 1.5  # 30 pt headline: a rich black from the profile
    assert [values for op, values in ops if op == "K"] == [[0, 0, 0, 1]]
    assert [values for op, values in ops if op == "w"][-1] == [0.25]


def test_cmyk_canvas_turns_an_rgb_image_into_a_cmyk_one():
    from PIL import Image

    c = new_canvas((200, 200), "img", canvas_cls=cmyk_canvas_class(300, 0.25))
    c.drawImage(Image.new("RGB", (900, 900), (200, 30, 40)), 0, 0, 200, 200)
    c.showPage()
    with pikepdf.open(io.BytesIO(finish(c))) as pdf:
        images = [x for x in pdf.pages[0].Resources.XObject.values() if x.Subtype == "/Image"]
        assert [str(x.ColorSpace) for x in images] == ["/DeviceCMYK"]


def test_shop_pdfs_are_pdfx_with_boxes_and_cmyk_only(quiz, quiz_files):
    (deck, data, pages, cards), = quiz_files["eu-pdfx4"]
    assert deck is None and pages == 2 * cards == 2 * len(quiz.physical_cards())
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert pdf.pdf_version == "1.6" and str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"
        intent = pdf.Root.OutputIntents[0]
        assert intent.S == "/GTS_PDFX" and intent.DestOutputProfile.N == 4
        assert b"<pdfxid:GTS_PDFXVersion>PDF/X-4<" in pdf.Root.Metadata.read_bytes()
        xmp = pdf.open_metadata()  # Info and XMP agree, as PDF/X asks
        assert xmp["dc:title"] == str(pdf.docinfo.Title) and xmp["pdf:Producer"] == str(pdf.docinfo.Producer)
        assert xmp["xmp:CreateDate"].startswith(str(pdf.docinfo.CreationDate)[2:6])
        for page in pdf.pages:
            trim, bleed = [float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]
            assert trim[0] - bleed[0] == pytest.approx(3.0 * 72 / 25.4, abs=0.01)
            ops = {str(op) for _, op in pikepdf.parse_content_stream(page)}
            assert not ops & {"rg", "RG", "sc", "scn"}
    for deck, data, _, _ in quiz_files["drivethrucards"]:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert pdf.pdf_version == "1.4" and str(pdf.docinfo.GTS_PDFXConformance) == "PDF/X-1a:2003"
            assert str(pdf.docinfo.Trapped) == "/False" and "/ID" in pdf.trailer


def test_drivethrucards_one_pdf_per_deck_backs_first(quiz, quiz_files):
    files = quiz_files["drivethrucards"]
    assert [deck for deck, *_ in files] == ["blue", "gold"]
    assert sum(cards for *_, cards in files) == len(quiz.physical_cards())
    for deck, data, pages, cards in files:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            contents = [page.Contents.read_bytes() for page in pdf.pages]
        assert len(contents) == pages == 2 * cards
        assert len(set(contents[0::2])) == 1  # back 1, front 1, back 2 ...: every odd page the deck's back
        assert set(contents[0::2]).isdisjoint(contents[1::2])  # and no even page is a back


@pytest.mark.parametrize("name", ["eu-pdfx4", "drivethrucards"])
def test_qpdf_ghostscript_and_preflight_accept_every_shop_pdf(quiz_files, tmp_path, name):
    for deck, data, pages, _ in quiz_files[name]:
        path = tmp_path / f"{name}-{deck}.pdf"
        path.write_bytes(data)
        check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert check.returncode == 0 and "No syntax or stream encoding errors" in check.stdout, check.stdout
        gs = subprocess.run(["gs", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR", "-sDEVICE=ink_cov",
                             "-o", "-", str(path)], capture_output=True, text=True)
        assert gs.returncode == 0 and gs.stderr == "", gs.stderr
        coverage = re.findall(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+) CMYK OK", gs.stdout, re.M)
        assert len(coverage) == pages
        report = preflight_bytes(data, printer(name), path.name, expected_pages=pages)
        assert report.ok, [str(f) for f in report.findings]
        assert 0 < max(report.max_tac) <= printer(name).tac + 1


def test_the_rgb_shop_pdf_opens_cleanly_in_qpdf_and_ghostscript(quiz, tmp_path):
    path = tmp_path / "rgb.pdf"
    path.write_bytes(render_shop_pdf(quiz, "en")[0])
    assert subprocess.run(["qpdf", "--check", str(path)], capture_output=True).returncode == 0
    gs = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", str(path)],
                        capture_output=True, text=True)
    assert gs.returncode == 0 and gs.stderr == "" and gs.stdout == ""


def test_a_bundled_game_passes_the_european_preflight(games):
    (_, data, pages, cards), = render_printer_pdfs(games["head-game"], "ru", printer("eu-pdfx4"))
    report = preflight_bytes(data, printer("eu-pdfx4"), "head-game-ru.pdf", expected_pages=pages)
    assert report.ok, [str(f) for f in report.findings][:10]
    assert pages == 2 * cards == 180 and len(report.ink) == pages
    assert 250 < max(report.max_tac) <= 301  # its darkest greens come close to the limit, none beyond


def test_same_sources_same_bytes(quiz, quiz_files):
    again = render_printer_pdfs(quiz, "en", printer("drivethrucards"))
    assert [d for _, d, _, _ in again] == [d for _, d, _, _ in quiz_files["drivethrucards"]]


def test_build_with_printers_writes_what_each_asks_and_names_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    runs = []
    for out in (tmp_path / "a", tmp_path / "b"):
        result = CliRunner().invoke(cli, ["--content", str(DECKS), "build", "quiz", "--lang", "en", "--paper", "a4",
                                          "--only", "cards", "--printer", "drivethrucards", "--printer", "mpc",
                                          "--out", str(out), "-j", "1"])
        assert result.exit_code == 0, result.output
        runs.append(json.loads((out / "manifest.json").read_text("utf-8"))["files"])
    shop = [f for f in runs[0] if f["kind"].startswith("shop-")]
    assert {f["printer"] for f in shop} == {"drivethrucards", "mpc"}
    pdfs = sorted(f["path"] for f in shop if f["kind"] == "shop-pdf")
    assert pdfs == ["quiz/en/quiz-en-shop-drivethrucards-blue.pdf", "quiz/en/quiz-en-shop-drivethrucards-gold.pdf"]
    assert all(f["pdfx"] == "x-1a" and f["max_tac"] <= 241 for f in shop if f["kind"] == "shop-pdf")
    assert all("/png-mpc/" in f["path"] for f in shop if f["kind"] == "shop-png")
    assert {f["path"]: f["sha256"] for f in runs[0]} == {f["path"]: f["sha256"] for f in runs[1]}


def test_profile_naming_a_pdf_printer_is_refused(tmp_path):
    result = CliRunner().invoke(cli, ["--content", str(DECKS), "build", "quiz", "--profile", "eu-pdfx4",
                                      "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "use --printer eu-pdfx4" in result.output
    result = CliRunner().invoke(cli, ["--content", str(DECKS), "build", "quiz", "--printer", "nope",
                                      "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "unknown printer 'nope'" in result.output


def test_preflight_finds_faces_where_the_printer_wants_backs(quiz_files):
    (_, data, pages, _), = quiz_files["eu-pdfx4"]  # face, back, face, back ...
    report = preflight_bytes(data, printer("drivethrucards"), "faces-first.pdf", expected_pages=pages, deck=True)
    order = [f for f in report.findings if f.check == "pages"]
    assert [f.element for f in order] == ["page order"] and "odd pages" in order[0].measured


def test_preflight_reports_a_file_that_is_no_pdf(tmp_path):
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"not a pdf at all")
    result = CliRunner().invoke(cli, ["preflight", str(junk)])
    assert result.exit_code == 1 and "junk.pdf: file: pdf: file: cannot be read" in result.output


def test_a_content_folders_own_printer_is_known_to_build(tmp_path, monkeypatch):
    """A publisher's printers.yaml beside their content (templates/cards/) names shops the
    bundled file does not: `--printer` and `--profile` accept them."""
    import shutil

    root = Path(__file__).resolve().parents[2]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    content = tmp_path / "content"
    shutil.copytree(DECKS / "quiz", content / "quiz")
    shutil.copytree(root / "templates" / "cards", tmp_path / "templates" / "cards")
    records = tmp_path / "templates" / "cards" / "printers.yaml"
    text = records.read_text("utf-8")
    records.write_text(text.replace("printers:\n  tgc:", "printers:\n  local-shop:\n    name: Our town's printer\n"
                                    "    files: png-per-card\n    dpi: 300\n    bleed_mm: 3\n    safe_mm: 3\n"
                                    "    color: rgb\n    pdfx: none\n    order: face-back\n    tac: 300\n"
                                    "    min_line_pt: 0.25\n  tgc:", 1), "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(content), "build", "quiz", "--lang", "en", "--paper", "a4",
                                      "--only", "cards", "--printer", "local-shop", "--out", str(tmp_path / "o"),
                                      "-j", "1"])
    assert result.exit_code == 0, result.output
    files = json.loads((tmp_path / "o" / "manifest.json").read_text("utf-8"))["files"]
    assert {f["printer"] for f in files if f["kind"] == "shop-png"} == {"local-shop"}
    result = CliRunner().invoke(cli, ["--content", str(content), "build", "quiz", "--printer", "nope",
                                      "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "local-shop" in result.output  # the folder's own list


def _convert_many(converter, times: int) -> int:
    from PIL import Image

    image = Image.new("RGB", (4, 4), (200, 30, 40))
    failures = 0
    for _ in range(times):
        try:
            converter.image(image)
        except Exception:  # noqa: BLE001 - counted: any failure is the bug
            failures += 1
    return failures


def test_cmyk_conversion_holds_in_workers_forked_after_the_profile_was_read():
    """The build forks its workers after warming up: the CMYK profile must not be read from a file
    whose offset the workers share (littleCMS reads tags lazily; two readers at once failed with
    'Could not determine profile size' in about half of the conversions)."""
    import multiprocessing

    from cardgen.color.cmyk import CmykConverter

    converter = CmykConverter(300)
    assert _convert_many(converter, 1) == 0  # the profile read in this process, before the fork
    with multiprocessing.get_context("fork").Pool(2) as pool:
        failures = pool.starmap(_convert_many, [(converter, 300), (converter, 300)])
    assert failures == [0, 0]


def test_shop_pngs_embed_the_srgb_profile(quiz):
    from PIL import Image, ImageCms

    from cardgen.printing.shop import render_pngs

    images, (w, h), dpi = render_pngs(quiz, "en", "tgc")
    with Image.open(io.BytesIO(images[0][1])) as image:
        image.load()
        assert image.size == (w, h) and image.mode == "RGB"
        profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
        assert profile.profile.xcolor_space.strip() == "RGB" and "sRGB" in profile.profile.profile_description
    again, _, _ = render_pngs(quiz, "en", "tgc")
    assert [png for _, png, _ in again] == [png for _, png, _ in images]  # still byte-identical
