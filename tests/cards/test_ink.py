"""Ink modes of the print-and-play sheets: full colour unchanged, ink-saver pale, greyscale grey."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageStat

from cardgen.errors import RenderError
from cardgen.color.ink import (INK_MODES, Greyscale, InkSaver, canvas_class, ink_suffix, luma, path_bbox_area,
                                policy)
from cardgen.printing.pnp import PnpOptions, render_pnp

from pdfcheck import fonts_of, reader

GAMES = ("head-game", "card-football", "himmel", "klepka")
DPI = 24  # coarse pixels are enough to weigh ink


def _pages(data: bytes, first: int = 0):
    pdf = pdfium.PdfDocument(data)
    for index in range(first, len(pdf)):
        yield pdf[index].render(scale=DPI / 72).to_pil().convert("RGB")


def coverage(data: bytes) -> float:
    """Mean darkness (0 white .. 1 black) of the card sheets, the instruction pages left out."""
    values = [1 - sum(ImageStat.Stat(image).mean) / 3 / 255 for image in _pages(data, first=2)]
    return sum(values) / len(values)


@pytest.fixture(scope="module")
def sheets(games, quiz):
    """(game, ink) -> (bytes, pages, cards) of the A4 sheets in the game's first language."""
    every = dict(games, quiz=quiz)
    return {(game_id, ink): render_pnp(every[game_id], every[game_id].meta.languages[0], PnpOptions(ink=ink))
            for game_id in (*GAMES, "quiz") for ink in INK_MODES}


def test_full_colour_is_todays_canvas_and_output(games):
    from reportlab.pdfgen.canvas import Canvas

    assert canvas_class("full") is Canvas
    assert ink_suffix("full") == "" and ink_suffix("ink-saver") == "-ink-saver"
    game = games["himmel"]
    assert render_pnp(game, "ru", PnpOptions()) == render_pnp(game, "ru", PnpOptions(ink="full"))


def test_unknown_ink_mode_is_a_render_error(games):
    with pytest.raises(RenderError, match="unknown ink mode 'sepia'.*ink-saver"):
        render_pnp(games["klepka"], "ru", PnpOptions(ink="sepia"))


@pytest.mark.parametrize("game_id", [*GAMES, "quiz"])
def test_ink_saver_uses_far_less_ink_than_full_colour(sheets, game_id):
    # measured: 0.26 (himmel) .. 0.36 (card-football) of full colour's coverage
    full, saver = coverage(sheets[game_id, "full"][0]), coverage(sheets[game_id, "ink-saver"][0])
    assert saver <= 0.45 * full, (game_id, full, saver)


@pytest.mark.parametrize("game_id", [*GAMES, "quiz"])
def test_greyscale_pages_have_no_coloured_pixel(sheets, game_id):
    data = sheets[game_id, "greyscale"][0]
    for number, image in enumerate(_pages(data), 1):
        red, green, blue = image.split()
        for a, b in ((red, green), (green, blue)):
            assert ImageChops.difference(a, b).getextrema()[1] <= 2, (game_id, number)


@pytest.mark.parametrize("ink", ["ink-saver", "greyscale"])
def test_ink_modes_keep_pages_boxes_fonts_and_text(sheets, ink):
    data, pages, cards = sheets["head-game", ink]
    full_data, full_pages, full_cards = sheets["head-game", "full"]
    assert (pages, cards) == (full_pages, full_cards)
    pdf, full = reader(data), reader(full_data)
    assert [page.mediabox for page in pdf.pages] == [page.mediabox for page in full.pages]
    used = fonts_of(pdf)
    assert used and all(embedded for _, embedded in used)
    instructions = pdf.pages[0].extract_text()
    assert "Игра головой" in instructions
    assert "Франция" in pdf.pages[2].extract_text()
    assert ink in str(pdf.metadata["/Title"])
    # the instruction page says which version this is (and the full-colour one does not)
    word = {"ink-saver": "чернил", "greyscale": "серого"}[ink]
    assert word in instructions and word not in full.pages[0].extract_text()


def test_ink_modes_are_deterministic(games):
    game = games["card-football"]
    for ink in ("ink-saver", "greyscale"):
        assert render_pnp(game, "ru", PnpOptions(ink=ink)) == render_pnp(game, "ru", PnpOptions(ink=ink))


def test_ink_saver_fold_and_letter_layouts(games):
    game = games["himmel"]
    fold, pages, cards = render_pnp(game, "de", PnpOptions(paper="letter", fold=True, ink="ink-saver"))
    assert cards == 87 and len(reader(fold).pages) == pages
    full, _, _ = render_pnp(game, "de", PnpOptions(paper="letter", fold=True))
    assert coverage(fold) <= 0.45 * coverage(full)


def test_ink_saver_colours_by_use_and_size():
    saver = InkSaver()
    blue = (0.12, 0.31, 0.66)
    # a card background fades to a pale tint and keeps its shape as an outline in its own colour
    pale, outline = saver.fill(blue, 6000.0, back=False)
    assert luma(pale) > 0.8 and outline == blue
    # a pip keeps its colour; on a back everything is pale and small shapes get no outline
    assert saver.fill((0.1, 0.1, 0.1), 50.0, back=False) == ((0.1, 0.1, 0.1), None)
    pale, outline = saver.fill((0.1, 0.1, 0.1), 50.0, back=True)
    assert luma(pale) > 0.8 and outline is None
    # white text (on a band that is now pale) turns dark; dark text and lines stay as they are
    assert luma(saver.text((1.0, 1.0, 1.0), back=False)) < 0.3
    assert saver.text((0.15, 0.2, 0.22), back=False) == (0.15, 0.2, 0.22)
    assert saver.stroke((0.0, 0.0, 0.0), back=False) == (0.0, 0.0, 0.0)
    assert luma(saver.stroke((1.0, 1.0, 1.0), back=False)) < 0.7


def test_greyscale_is_luminance_and_text_darker():
    grey = Greyscale()
    red = (0.78, 0.16, 0.16)
    (r, g, b), outline = grey.fill(red, 6000.0, back=False)
    assert r == g == b == pytest.approx(luma(red)) and outline is None
    assert grey.text(red, back=False)[0] < luma(red)
    assert grey.text((1.0, 1.0, 1.0), back=True) == pytest.approx((1.0, 1.0, 1.0))  # white on dark grey stays
    assert policy("full").fill(red, 6000.0, back=False) == (red, None)


def test_path_area_is_its_bounding_box():
    assert path_bbox_area("n 10 20 m 30 20 l 30 60 l h f") == 800
    assert path_bbox_area("n 0 0 m 10 0 5 40 0 10 c f") == 400
    assert path_bbox_area("n 5 5 20 10 re f") == 200
    assert path_bbox_area("") == 0
