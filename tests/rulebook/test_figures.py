"""The game's own pictures in its rulebook: a cover picture from game.yaml and diagrams in the rules text,
fenced to the game folder, checked by validate at the line that names them, printed with their alt text."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from cardgen.content import load_games
from cardgen.content.figures import ImageProblem, checked_image
from cardgen.errors import CardgenError
from cardgen.rulebook.sections import check_rulebook_text

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "data" / "mini"
COVER_RGB = (0xd2, 0x3c, 0x8f)  # a colour no rulebook prints by itself
DIAGRAM_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <rect x="0" y="0" width="200" height="100" fill="#2a7fd4"/>
  <circle cx="100" cy="50" r="30" fill="#ffffff"/>
</svg>
"""


def _cover_png(path: Path, size=(600, 400)) -> None:
    """A cover made by code: a flat field with a white band, so its pixels are easy to find."""
    image = Image.new("RGB", size, COVER_RGB)
    for y in range(size[1] // 2 - 20, size[1] // 2 + 20):
        for x in range(size[0]):
            image.putpixel((x, y), (255, 255, 255))
    image.save(path, format="PNG")


def _game(tmp_path: Path, *, cover: str | None = "art/cover.png", intro: str | None = None,
          alt: str | None = "Стопка карт.", po: str | None = None):
    content = tmp_path / "content"
    folder = content / "mini"
    shutil.copytree(MINI, folder)
    _cover_png(folder / "art" / "cover.png")
    (folder / "art" / "diagram.svg").write_text(DIAGRAM_SVG, "utf-8")
    if cover is not None:
        with open(folder / "game.yaml", "a", encoding="utf-8") as out:
            out.write(f"rulebook:\n  cover: {cover}\n")
    text = (folder / "text" / "ru.yaml").read_text("utf-8")
    if alt is not None:
        text += f'  rules.cover.alt: "{alt}"\n'
    if intro is not None:
        text += f'  rules.intro: "{intro}"\n'
    (folder / "text" / "ru.yaml").write_text(text, "utf-8")
    if po is not None:
        (folder / "locale").mkdir(exist_ok=True)
        (folder / "locale" / "en.po").write_text(po, "utf-8")
    return load_games(content, ["mini"])[0]


def _line(path: Path, needle: str) -> int:
    text = path.read_text("utf-8")
    return text[:text.index(needle)].count("\n") + 1


def test_a_rulebook_prints_the_cover_and_a_diagram_of_the_game(tmp_path):
    from cardgen.rulebook import build_rulebook

    game = _game(tmp_path, intro="Так выглядит стол: ![Схема стола](art/diagram.svg) Играйте.")
    assert check_rulebook_text(game) == []
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    book = build_rulebook(game, "ru", "a4")
    with pikepdf.open(io.BytesIO(book.pdf)) as pdf:
        streams = [o for o in pdf.objects if isinstance(o, pikepdf.Stream)]
        images = [pikepdf.PdfImage(o) for o in streams if o.get("/Subtype") == "/Image"]
        # the cover: one raster XObject (stored once) of the PNG's own size and pixels
        covers = [i for i in images if (i.width, i.height) == (600, 400)]
        assert len(covers) == 1
        pixels = covers[0].as_pil_image().convert("RGB")
        assert pixels.getpixel((10, 10)) == COVER_RGB and pixels.getpixel((10, 200)) == (255, 255, 255)
        # the SVG diagram: WeasyPrint draws it as vector paths in its blue, on the page of the intro
        painted = [n for n, page in enumerate(pdf.pages, 1)
                   if b"0.164706 0.498039 0.831373 rg" in page.Contents.read_bytes()]
        assert len(painted) == 1 and painted[0] > 1, painted
    # both pictures on the pages: the cover colour on page 1, the diagram's blue on the intro's page
    page_png = _page_png(book.pdf, 1)
    assert _share(page_png, COVER_RGB) > 0.05
    assert _share(_page_png(book.pdf, painted[0]), (0x2a, 0x7f, 0xd4)) > 0.01
    (tmp_path / "cover.png").write_bytes(_png_bytes(page_png))
    assert book.pdf == build_rulebook(game, "ru", "a4").pdf  # deterministic
    # ... wherever the game folder lies: no path of this machine goes into the PDF
    shutil.copytree(tmp_path / "content", tmp_path / "elsewhere" / "content")
    moved = load_games(tmp_path / "elsewhere" / "content", ["mini"])[0]
    assert build_rulebook(moved, "ru", "a4").pdf == book.pdf


def _page_png(pdf: bytes, page: int) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page - 1].render(scale=40 / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def _png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _share(image: Image.Image, rgb: tuple[int, int, int]) -> float:
    colours = image.getcolors(maxcolors=1 << 20)
    near = sum(n for n, c in colours if sum(abs(a - b) for a, b in zip(c, rgb)) < 30)
    return near / (image.width * image.height)


def test_the_html_has_the_alt_texts_and_no_markdown_left(tmp_path):
    from cardgen.rulebook import render_html

    game = _game(tmp_path, intro="![Схема **стола**](art/diagram.svg)")
    html, _ = render_html(game, "ru", "a4")
    assert '<img class="figure" src="cardgen-art:art/diagram.svg" alt="Схема стола">' in html
    assert '<div class="cover-art"><img src="cardgen-art:art/cover.png" alt="Стопка карт.">' in html
    assert "![" not in html and 'class="fan"' not in html


def test_without_a_cover_the_cover_shows_the_cards(tmp_path):
    from cardgen.rulebook import render_html

    game = _game(tmp_path, cover=None, alt=None)
    assert check_rulebook_text(game) == []
    html, _ = render_html(game, "ru", "a4")
    assert 'class="fan"' in html and "cover-art" not in html


@pytest.mark.parametrize("name, message", [
    ("../outside.png", "lies outside the game folder"),
    ("art/missing.png", "no file 'art/missing.png' in the game folder"),
    ("art/notes.txt", "is not a picture the rulebook prints"),
    ("art/fake.png", "'art/fake.png' is not a PNG file"),
    ("art/broken.png", "'art/broken.png' cannot be read as PNG"),
    ("/etc/hostname", "is not a path relative to the game folder"),
    ("art/link.png", "lies outside the game folder"),
])
def test_a_picture_that_cannot_print_is_a_validate_error_at_its_line(tmp_path, name, message):
    game = _game(tmp_path, cover=None, alt=None, intro=f"Стол: ![Схема]({name})")
    folder = game.root
    (tmp_path / "content" / "outside.png").write_bytes((folder / "art" / "cover.png").read_bytes())
    (folder / "art" / "notes.txt").write_text("not a picture", "utf-8")
    (folder / "art" / "fake.png").write_text("<html>not a png</html>", "utf-8")
    cover = (folder / "art" / "cover.png").read_bytes()
    (folder / "art" / "broken.png").write_bytes(cover[:len(cover) // 2])  # truncated
    (folder / "art" / "link.png").symlink_to(tmp_path / "content" / "outside.png")
    error, = check_rulebook_text(game)
    assert message in error.message
    assert "rules.intro" in str(error.locator.field) or "rules.intro" in error.message
    assert error.locator.file.name == "ru.yaml"
    assert error.locator.line == _line(folder / "text" / "ru.yaml", "rules.intro")


def test_the_cover_is_checked_at_its_line_in_game_yaml(tmp_path):
    game = _game(tmp_path, cover="art/nothing.png")
    error, = check_rulebook_text(game)
    assert "rulebook cover picture no file 'art/nothing.png' in the game folder" in error.message
    assert error.locator.file.name == "game.yaml"
    assert error.locator.line == _line(game.root / "game.yaml", "cover: art/nothing.png")


def test_a_picture_needs_a_description(tmp_path):
    game = _game(tmp_path, alt=None, intro="![ ](art/diagram.svg)")
    errors = sorted(check_rulebook_text(game), key=lambda e: str(e.locator.file))
    assert len(errors) == 2, [str(e) for e in errors]
    cover, intro = errors
    assert cover.locator.file.name == "game.yaml" and "'rules.cover.alt'" in cover.message
    assert intro.locator.file.name == "ru.yaml" and "has no description" in intro.message
    assert intro.locator.line == _line(game.root / "text" / "ru.yaml", "rules.intro")
    # an empty description of the cover is named by its key
    game = _game(tmp_path / "again", alt="")
    error, = check_rulebook_text(game)
    assert "'rules.cover.alt' is empty" in error.message


def test_a_description_without_a_cover_prints_nowhere(tmp_path):
    error, = check_rulebook_text(_game(tmp_path, cover=None))
    assert "'rules.cover.alt' does not print" in error.message


def test_a_translation_is_checked_at_its_po_entry(tmp_path):
    po = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n\n'
          'msgctxt "rules.intro"\nmsgid "Стол: ![Схема](art/diagram.svg)"\nmsgstr "Table: ![Diagram](art/diagramm.svg)"\n')
    game = _game(tmp_path, cover=None, alt=None, intro="Стол: ![Схема](art/diagram.svg)", po=po)
    error, = check_rulebook_text(game)
    assert "translation of 'rules.intro': picture no file 'art/diagramm.svg'" in error.message
    assert error.locator.file.name == "en.po" and error.locator.language == "en"
    assert error.locator.line == _line(game.root / "locale" / "en.po", 'msgid "Стол')  # the entry's msgid


def test_a_heading_cannot_hold_a_picture(tmp_path):
    game = _game(tmp_path, cover=None, alt=None)
    text = game.root / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8") + '  rules.wild.title: "![Дикие](art/diagram.svg)"\n'
                    '  rules.wild.intro: "Дикие карты."\n', "utf-8")
    error, = check_rulebook_text(load_games(tmp_path / "content", ["mini"])[0])
    assert "a heading cannot hold a picture" in error.message


def test_the_build_refuses_what_validate_refuses(tmp_path):
    from cardgen.rulebook import render_html

    game = _game(tmp_path, cover=None, alt=None, intro="![Схема](../outside.png)")
    with pytest.raises(CardgenError) as caught:
        render_html(game, "ru", "a4")
    assert "lies outside the game folder" in caught.value.message
    assert caught.value.locator.line == _line(game.root / "text" / "ru.yaml", "rules.intro")


def test_checked_image_refuses_a_fifo_and_a_decompression_bomb(tmp_path):
    os.mkfifo(tmp_path / "pipe.png")
    with pytest.raises(ImageProblem, match="not a regular file"):
        checked_image(tmp_path, "pipe.png")
    bomb = tmp_path / "bomb.png"
    Image.new("1", (12_000, 12_000)).save(bomb, format="PNG")  # 144 Mpx in a few kilobytes
    with pytest.raises(ImageProblem, match="pixels"):
        checked_image(tmp_path, "bomb.png")
    assert bomb.stat().st_size < 100_000


def test_the_fetcher_serves_the_games_folder_and_refuses_a_fifo(tmp_path):
    from cardgen.errors import RenderError
    from cardgen.rulebook.fetcher import FencedFetcher

    (tmp_path / "a.svg").write_text(DIAGRAM_SVG, "utf-8")
    os.mkfifo(tmp_path / "pipe.svg")
    fetcher = FencedFetcher([tmp_path])
    assert fetcher.fetch((tmp_path / "a.svg").as_uri()).read() == DIAGRAM_SVG.encode()
    with pytest.raises(RenderError, match="not a regular file"):
        fetcher.fetch((tmp_path / "pipe.svg").as_uri())
    with pytest.raises(RenderError, match="outside content/"):
        fetcher.fetch(Path("/etc/hostname").as_uri())
    # the game's own pictures by a path inside its folder, and nothing outside it
    game = tmp_path / "game"
    (game / "art").mkdir(parents=True)
    (game / "art" / "a b.svg").write_text(DIAGRAM_SVG, "utf-8")
    (game / "art" / "out.svg").symlink_to(tmp_path / "a.svg")
    fetcher = FencedFetcher([], art_root=game)
    assert fetcher.fetch("cardgen-art:art/a%20b.svg").read() == DIAGRAM_SVG.encode()
    for url in ("cardgen-art:../a.svg", "cardgen-art:art/out.svg", "cardgen-art:art"):
        with pytest.raises(RenderError):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 3


def test_jpeg_and_webp_pictures_print_too(tmp_path):
    from cardgen.rulebook import build_rulebook

    game = _game(tmp_path, cover="art/cover.jpg", intro="![Схема](art/diagram.webp)")
    art = game.root / "art"
    Image.new("RGB", (320, 200), COVER_RGB).save(art / "cover.jpg", format="JPEG", quality=90)
    Image.new("RGB", (240, 120), (0x2a, 0x7f, 0xd4)).save(art / "diagram.webp", format="WEBP", lossless=True)
    assert check_rulebook_text(game) == []
    book = build_rulebook(game, "ru", "a5")
    with pikepdf.open(io.BytesIO(book.pdf)) as pdf:
        sizes = sorted((int(o.Width), int(o.Height)) for o in pdf.objects
                       if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image")
        jpeg = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Filter") == "/DCTDecode"]
    assert (240, 120) in sizes and (320, 200) in sizes
    assert len(jpeg) == 1  # the JPEG is embedded as it is, not decoded and re-encoded


def test_a_picture_of_another_type_than_its_name_says_is_refused(tmp_path):
    Image.new("RGB", (8, 8)).save(tmp_path / "png-really.jpg", format="PNG")
    with pytest.raises(ImageProblem, match="'png-really.jpg' is not a JPEG file"):
        checked_image(tmp_path, "png-really.jpg")
    (tmp_path / "doctype.svg").write_text('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg/>', "utf-8")
    with pytest.raises(ImageProblem, match="a DOCTYPE is not allowed"):
        checked_image(tmp_path, "doctype.svg")


def test_the_translator_is_told_how_to_handle_a_picture(tmp_path):
    from cardgen.i18n.catalog import game_domain

    game = _game(tmp_path, cover=None, alt=None, intro="Стол: ![Схема](art/diagram.svg)")
    messages = {m.key: m for m in game_domain(game, tmp_path).source_messages()}
    assert any("places a picture" in c for c in messages["rules.intro"].comments)
    assert not any("places a picture" in c for c in messages["rules.goal"].comments)


def test_the_build_refuses_a_cover_validate_refuses_at_its_game_yaml_line(tmp_path):
    from cardgen.rulebook import render_html

    game = _game(tmp_path, cover="art/notes.txt")
    (game.root / "art" / "notes.txt").write_text("not a picture", "utf-8")
    with pytest.raises(CardgenError) as caught:
        render_html(game, "ru", "a4")
    assert "rulebook cover: 'art/notes.txt' is not a picture the rulebook prints" in caught.value.message
    assert caught.value.locator.file.name == "game.yaml"
    assert caught.value.locator.line == _line(game.root / "game.yaml", "cover: art/notes.txt")


def test_validate_reports_every_bad_picture_in_one_run_with_file_and_line(tmp_path):
    from click.testing import CliRunner

    from cardgen.cli import cli

    game = _game(tmp_path, cover="../cover.png", intro="![Схема](art/nothing.svg) ![Ещё](art/cover.png)")
    (tmp_path / "content" / "cover.png").write_bytes((game.root / "art" / "cover.png").read_bytes())
    result = CliRunner().invoke(cli, ["--content", str(tmp_path / "content"), "validate", "mini"])
    assert result.exit_code == 1, result.output
    game_line = _line(game.root / "game.yaml", "cover: ../cover.png")
    text_line = _line(game.root / "text" / "ru.yaml", "rules.intro")
    assert f"game.yaml:{game_line}:" in result.output and "'../cover.png' lies outside the game folder" in result.output
    assert f"ru.yaml:{text_line}:" in result.output and "no file 'art/nothing.svg'" in result.output
    assert "Traceback" not in result.output and "art/cover.png" not in result.output  # the good picture passes
