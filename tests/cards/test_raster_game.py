"""A 54-card game of raster art, made by code (issue 23's acceptance for images).

Every face carries its own illustration (JPEG and PNG; one CMYK JPEG tagged with the
FOGRA39 profile, one Adobe RGB PNG, one 16-bit TIFF), the back is a full-bleed raster.
It builds the default card files, ``--printer eu-pdfx4``, ``--printer drivethrucards`` and
``--tabletop tts``; every shop PDF passes preflight and ``qpdf --check``; the CMYK JPEG's
pixels are found unchanged in the PDF/X file; the back is stored once per PDF; a 72-ppi
image is a validate warning naming the card and a preflight finding.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image

import imagemaker as make
from cardgen.cli import cli

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "data" / "mini"
CARDS = 54
CMYK_CARD, ADOBE_CARD, TIFF_CARD = 7, 13, 21
FACE_PX = (720, 580)  # 55.5 x 45 mm at 300 ppi is 656 x 532
BACK_PX = (860, 1160)  # 71.5 x 96.9 mm (trim plus 4 mm) at 300 ppi is 845 x 1145

LAYOUT = """include: [common.yaml]
faces:
  - match: {}
    elements:
      - {type: fill, fill: "#fdfaf2"}
      - {type: image, src: "{card.art}", box: [4, 4, 55.5, 45]}
      - {type: rect, box: [4, 4, 55.5, 45], stroke: "#263238", width: 0.4}
      - {type: text, text: "{field.name}", box: [5, 54, 53.5, 12], size: 14, min_size: 8, font: bold}
      - {type: text, text: "{card.label}", box: [5, 74, 53.5, 8], size: 8, color: "#555555"}
backs:
  - match: {}
    elements:
      - {type: image, src: "{back.art}", bleed: true}
      - {type: text, text: "{game.title}", box: [8, 40, 47.5, 10], size: 16, font: bold, color: "#ffffff"}
"""


def art_name(number: int) -> str:
    if number == CMYK_CARD:
        return f"art/face-{number:02d}-cmyk.jpg"
    if number == ADOBE_CARD:
        return f"art/face-{number:02d}-adobe.png"
    if number == TIFF_CARD:
        return f"art/face-{number:02d}-16bit.tif"
    return f"art/face-{number:02d}.{'jpg' if number % 2 else 'png'}"


def make_gallery(content: Path) -> Path:
    """The game folder ``content/gallery``: 54 cards, each its own raster illustration."""
    game = content / "gallery"
    shutil.copytree(MINI, game, ignore=shutil.ignore_patterns("art", "cards.yaml"))
    (game / "art").mkdir()
    text = (game / "text" / "ru.yaml").read_text("utf-8")
    text = text.replace('game.title: "Мини"', 'game.title: "Галерея"')
    cards = ["cards:"]
    for number in range(1, CARDS + 1):
        name = art_name(number)
        image = make.picture(*FACE_PX, seed=number)
        path = game / name
        if number == CMYK_CARD:
            path.write_bytes(make.encoded(make.picture(*FACE_PX, seed=number, mode="CMYK"), "JPEG", quality=90,
                                          icc_profile=make.FOGRA39.read_bytes()))
        elif number == ADOBE_CARD:
            path.write_bytes(make.encoded(image, "PNG", icc_profile=make.adobe_rgb()))
        elif number == TIFF_CARD:
            values = (np.asarray(image, dtype=np.uint32) * 257).astype(np.uint16)
            path.write_bytes(make.tiff16(values, deflate=True))
        elif name.endswith(".jpg"):
            path.write_bytes(make.encoded(image, "JPEG", quality=88))
        else:
            path.write_bytes(make.encoded(image, "PNG"))
        cards += [f"  - id: c{number:02d}", "    group: art", "    back: main", f"    art: {name}",
                  f"    text: {{name: card.c{number:02d}.name}}"]
        text += f'  card.c{number:02d}.name: "Картина {number}"\n'
    back = make.picture(*BACK_PX, seed=99)
    (game / "art" / "back.jpg").write_bytes(make.encoded(back, "JPEG", quality=90))
    (game / "cards.yaml").write_text("\n".join(cards) + "\n", "utf-8")
    (game / "text" / "ru.yaml").write_text(text, "utf-8")
    (game / "layout.yaml").write_text(LAYOUT, "utf-8")
    meta = (game / "game.yaml").read_text("utf-8")
    head, _, _ = meta.partition("groups:")
    head = head.replace("id: mini", "id: gallery").replace("languages: [ru, en]", "languages: [ru]")
    head = head.replace("total_cards: 6", f"total_cards: {CARDS}").replace("art/back.svg", "art/back.jpg")
    tail = meta[meta.index("rule_options:"):]
    (game / "game.yaml").write_text(head + f"groups:\n  - {{id: art, name: group.numbers, color: \"#aa0000\", "
                                    f"cards: {CARDS}}}\n" + tail, "utf-8")
    return game


@pytest.fixture(scope="module")
def gallery(tmp_path_factory) -> Path:
    content = tmp_path_factory.mktemp("raster-game") / "content"
    make_gallery(content)
    return content


@pytest.fixture(scope="module")
def built(gallery, tmp_path_factory) -> Path:
    """One folder holding the default card files and those of both CMYK printers."""
    runner = CliRunner()
    found = tmp_path_factory.mktemp("raster-files")
    for kind, extra in (("default", []), ("printers", ["--printer", "eu-pdfx4", "--printer", "drivethrucards"])):
        out = tmp_path_factory.mktemp(f"raster-{kind}")
        result = runner.invoke(cli, ["--content", str(gallery), "build", "gallery", "--only", "cards", "--paper", "a4",
                                     "-j", "1", "--out", str(out), *extra],
                               env={"SOURCE_DATE_EPOCH": "1700000000"})
        assert result.exit_code == 0, result.output
        shutil.copytree(out / "gallery" / "ru", found, dirs_exist_ok=True)
    return found


def _window(size: tuple[int, int], box_w: float, box_h: float) -> tuple[int, int, int, int]:
    """The pixels of a picture a cover box of box_w x box_h shows (as the renderer rounds them)."""
    from cardgen.cards.raster import Placement, visible

    x0, y0, x1, y1 = visible(size[0], size[1], box_w, box_h, Placement("cover"))[0]
    return round(x0), round(y0), round(x1), round(y1)


def _window_size(size: tuple[int, int], box_w: float, box_h: float) -> tuple[int, int]:
    x0, y0, x1, y1 = _window(size, box_w, box_h)
    return x1 - x0, y1 - y0


def _samples(image) -> np.ndarray:
    """The samples of an image object as ink or light amounts (a JPEG's decoded by Pillow, as Adobe's)."""
    if "/DCTDecode" in str(image.get("/Filter")):
        return np.asarray(Image.open(io.BytesIO(image.read_raw_bytes())))
    channels = 4 if str(image.ColorSpace) == "/DeviceCMYK" else 3
    return np.frombuffer(image.read_bytes(), np.uint8).reshape(int(image.Height), int(image.Width), channels)


def _image_objects(path: Path) -> tuple[pikepdf.Pdf, list]:
    pdf = pikepdf.open(path)
    return pdf, [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"
                 and not o.get("/ImageMask") and str(o.get("/ColorSpace")) != "/DeviceGray"]


def test_the_gallery_validates_without_warnings(gallery):
    result = CliRunner().invoke(cli, ["--content", str(gallery), "validate", "gallery"])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_every_file_is_made_and_every_shop_pdf_passes_preflight_and_qpdf(built):
    pdfs = sorted(built.glob("*.pdf"))
    names = {p.name for p in pdfs}
    assert {"gallery-ru-pnp-a4.pdf", "gallery-ru-shop.pdf", "gallery-ru-shop-eu-pdfx4.pdf",
            "gallery-ru-shop-drivethrucards-main.pdf"} <= names
    assert len(list((built / "png-tgc").glob("*.png"))) == CARDS + 1
    for printer in ("eu-pdfx4", "drivethrucards"):
        (pdf,) = [p for p in pdfs if printer in p.name]
        result = CliRunner().invoke(cli, ["preflight", str(pdf), "--printer", printer])
        assert result.exit_code == 0, result.output
    if shutil.which("qpdf"):
        for pdf in pdfs:
            done = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr


def test_every_face_has_its_own_image_and_the_back_is_stored_once(built):
    for name in ("gallery-ru-pnp-a4.pdf", "gallery-ru-shop.pdf", "gallery-ru-shop-eu-pdfx4.pdf",
                 "gallery-ru-shop-drivethrucards-main.pdf"):
        pdf, images = _image_objects(built / name)
        backs = [i for i in images if (int(i.Width), int(i.Height)) == _window_size(BACK_PX, 71.5, 96.9)]
        assert len(backs) == 1, (name, [(int(i.Width), int(i.Height)) for i in images])
        assert len(images) == CARDS + 1, name
        # the back is one object, drawn by one form, placed on every back page
        if "shop" in name:
            assert len(pdf.pages) == 2 * CARDS


def test_the_cmyk_jpegs_pixels_are_unchanged_in_the_pdfx_file(built, gallery):
    from cardgen.content.images import read_raster

    decoded = read_raster(gallery / "gallery" / art_name(CMYK_CARD))
    pdf, images = _image_objects(built / "gallery-ru-shop-eu-pdfx4.pdf")
    assert all(str(i.ColorSpace) == "/DeviceCMYK" for i in images)
    # the window of the picture the 55.5 x 45 mm box shows (cover, centred), at the file's own pixels
    x0, y0, x1, y1 = _window(FACE_PX, 55.5, 45)
    cropped = np.asarray(decoded.pixels)[y0:y1, x0:x1]
    wanted = [i for i in images if (int(i.Width), int(i.Height)) == (x1 - x0, y1 - y0)]
    assert wanted
    exact = [i for i in wanted if "/FlateDecode" in str(i.Filter)]  # JPEG faces are stored as JPEGs
    assert any(np.array_equal(_samples(i), cropped) for i in exact)


def test_x1a_has_no_soft_mask_and_the_tac_holds(built):
    pdf, images = _image_objects(built / "gallery-ru-shop-drivethrucards-main.pdf")
    assert not any("/SMask" in i for i in images)
    assert all(str(i.ColorSpace) == "/DeviceCMYK" for i in images)
    limit = 240 * 255 / 100
    for image in images:
        total = _samples(image).astype(int).sum(axis=2).max()
        lossy = "/DCTDecode" in str(image.Filter)
        assert total <= limit + (12 if lossy else 1), (total, lossy)  # a JPEG's losses: a few levels


def test_tabletop_sheets_carry_the_art(gallery, tmp_path):
    out = tmp_path / "tts"
    result = CliRunner().invoke(cli, ["--content", str(gallery), "build", "gallery", "--only", "tabletop",
                                      "--tabletop", "tts", "-j", "1", "--out", str(out)],
                                env={"SOURCE_DATE_EPOCH": "1700000000"})
    assert result.exit_code == 0, result.output
    sheets = sorted((out / "gallery" / "ru" / "tabletop").rglob("*.png"))
    assert sheets
    sheet = np.asarray(Image.open(sheets[0]).convert("RGB"), dtype=int)
    assert sheet.std() > 30  # pictures, not flat colour


def test_a_72_ppi_image_is_a_validate_warning_and_a_preflight_finding(gallery, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(gallery, content)
    low = content / "gallery" / art_name(30)
    make.picture(157, 128, seed=30).save(low)  # 55.5 mm at 72 ppi
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "gallery"])
    assert result.exit_code == 0, result.output
    assert "card c30" in result.output and "(157 x 128 px) is placed at 55.5 x 45.0 mm: 72 ppi" in result.output
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["--content", str(content), "build", "gallery", "--only", "cards", "-j", "1",
                                      "--printer", "eu-pdfx4", "--out", str(out)])
    assert result.exit_code == 1
    assert "preflight for eu-pdfx4 failed" in result.output and "72 ppi at 55.5 x 45.0 mm" in result.output


def test_a_changed_image_is_a_changed_card_plan(gallery, tmp_path):
    from cardgen.content import load_games
    from cardgen.cards.card import CardRenderer

    content = tmp_path / "content"
    shutil.copytree(gallery, content)
    game = load_games(content, ["gallery"])[0]
    before = CardRenderer(game, "ru").face(game.card("c02"))
    make.picture(*FACE_PX, seed=1000).save(content / "gallery" / art_name(2))
    after = CardRenderer(game, "ru").face(game.card("c02"))
    assert before.ops != after.ops and before.key != after.key
    assert CardRenderer(game, "ru").face(game.card("c03")).key == CardRenderer(game, "ru").face(game.card("c03")).key


def test_bleed_true_reaches_a_printers_bleed_larger_than_the_art_bleed(gallery):
    """A printer asking 6 mm of bleed gets the back's image to the edge of its page, not 4 mm of it."""
    from dataclasses import replace

    from cardgen.content import load_games
    from cardgen.printing.printers import printer
    from cardgen.printing.shop import render_printer_pdfs

    game = load_games(gallery, ["gallery"])[0]
    wide = replace(printer("eu-pdfx4"), id="wide", name="wide", color="rgb", pdfx="none", bleed_mm=6.0)
    ((_, data, pages, _),) = render_printer_pdfs(game, "ru", wide)
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(data)
    back = np.asarray(document[1].render(scale=2).to_pil().convert("RGB"), dtype=int)  # face-back order
    edge = 4  # pixels at 144 dpi: within the outer 1 mm of the 6 mm bleed
    strips = [back[:edge], back[-edge:], back[:, :edge], back[:, -edge:]]
    assert all((strip.sum(axis=-1) < 3 * 250).mean() > 0.99 for strip in strips)  # picture, not white paper
