"""Read the PDFs and PNGs back: pages, cards, boxes, fonts, text, pixel sizes and dpi."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cardgen.printing.pnp import PAPERS, PnpOptions, best_grid, render_pnp
from cardgen.printing.printers import printer
from cardgen.printing.shop import render_pngs, render_shop_pdf
from cardgen.cards.text import PT_PER_MM

from pdfcheck import box, fonts_of, inside, reader


@pytest.fixture(scope="module")
def head_pnp(games):
    return render_pnp(games["head-game"], "ru", PnpOptions(paper="a4"))


def test_head_game_pnp_pages_fonts_text(head_pnp):
    data, pages, cards = head_pnp
    assert cards == 90
    pdf = reader(data)
    # instructions + their back, then 10 sheets of 9 cards: fronts and backs
    assert pages == len(pdf.pages) == 2 + 2 * 10
    w, h = (float(v) for v in pdf.pages[0].mediabox[2:])
    assert (round(w / PT_PER_MM, 1), round(h / PT_PER_MM, 1)) == (210.0, 297.0)
    used = fonts_of(pdf)
    assert used and all(embedded for _, embedded in used), used
    assert not any("Helvetica" in name for name, _ in used)
    assert "Helvetica" not in data.decode("latin-1")
    first = pdf.pages[0].extract_text()
    assert "Игра головой" in first and "100" in first and "50" in first
    assert "Франция" in pdf.pages[2].extract_text()
    assert len(data) < 300_000


def test_pnp_letter_and_grids(games):
    assert best_grid(63.5, 88.9, *PAPERS["a4"]).per_page == 9
    assert best_grid(63.5, 88.9, *PAPERS["letter"]).per_page == 9
    grid = best_grid(70, 70, *PAPERS["letter"])
    assert grid.per_page >= 6
    data, pages, cards = render_pnp(games["klepka"], "ru", PnpOptions(paper="letter"))
    pdf = reader(data)
    w, h = (float(v) for v in pdf.pages[0].mediabox[2:])
    assert (round(w / PT_PER_MM, 1), round(h / PT_PER_MM, 1)) == (215.9, 279.4)
    assert cards == 100 and pages == len(pdf.pages) == 2 + 2 * -(-100 // grid.per_page)


def test_fold_and_short_edge_variants(games):
    game = games["himmel"]
    data, pages, cards = render_pnp(game, "de", PnpOptions(paper="a4", fold=True))
    assert cards == 87 and len(reader(data).pages) == pages
    short, _, _ = render_pnp(game, "de", PnpOptions(paper="a4", duplex="short"))
    long, _, _ = render_pnp(game, "de", PnpOptions(paper="a4"))
    assert short != long


def test_backs_land_behind_fronts():
    from cardgen.printing.pnp import back_cell, best_grid, _cell

    pw, ph = PAPERS["a4"]
    grid = best_grid(63.5, 88.9, pw, ph)
    for i in range(grid.per_page):
        _, _, fx, fy = _cell(grid, i, pw, ph)
        bx, by, *_ = back_cell(grid, i, pw, ph, "long")
        assert bx == pytest.approx(pw - fx - grid.cell_w) and by == pytest.approx(fy)
        bx, by, *_ = back_cell(grid, i, pw, ph, "short")
        assert bx == pytest.approx(fx) and by == pytest.approx(ph - fy - grid.cell_h)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(63.5, 88.9), (70, 70), (44.45, 63.5)])
def test_cut_marks_stay_in_the_margins(paper, size):
    from cardgen.printing.pnp import _origin, cut_mark_lines

    pw, ph = PAPERS[paper]
    grid = best_grid(*size, pw, ph)
    gx, gy = _origin(grid, pw, ph)
    gw, gh = grid.cols * grid.cell_w, grid.rows * grid.cell_h
    lines = cut_mark_lines(grid, pw, ph)
    assert len(lines) == 2 * (grid.cols + 1) + 2 * (grid.rows + 1)
    for x1, y1, x2, y2 in lines:
        for x, y in ((x1, y1), (x2, y2)):
            assert 0 < x < pw and 0 < y < ph
            assert not (gx - 0.5 < x < gx + gw + 0.5 and gy - 0.5 < y < gy + gh + 0.5), (x, y)
    assert min(gx, gy, pw - gx - gw, ph - gy - gh) >= 6.0  # printable margins


def test_shop_pdf_boxes_and_bleed(games):
    data, pages, cards = render_shop_pdf(games["klepka"], "ru")
    pdf = reader(data)
    assert cards == 100 and pages == len(pdf.pages) == 200
    for page in pdf.pages[:6]:
        media = box(page, "/MediaBox")
        bleed = box(page, "/BleedBox")
        trim = box(page, "/TrimBox")
        assert "/ArtBox" not in page
        assert inside(trim, bleed) and inside(bleed, media)
        assert (trim[2] - trim[0]) / PT_PER_MM == pytest.approx(70, abs=0.01)
        assert (trim[0] - bleed[0]) / PT_PER_MM == pytest.approx(3, abs=0.01)
        assert (bleed[3] - trim[3]) / PT_PER_MM == pytest.approx(3, abs=0.01)
    assert all(embedded for _, embedded in fonts_of(pdf))
    assert not any("Helvetica" in name for name, _ in fonts_of(pdf))
    assert "Стенкин" in pdf.pages[0].extract_text()


@pytest.mark.parametrize("game_id, profile_id, size", [
    ("head-game", "tgc", (825, 1125)),
    ("card-football", "mpc", (822, 1122)),
    ("klepka", "tgc", (902, 902)),
])
def test_pngs_size_and_dpi(games, game_id, profile_id, size):
    game = games[game_id]
    prof = printer(profile_id)
    if game.meta.card_size.width_mm == 63.5:
        assert size in prof.expect.values()
    images, pixels, dpi = render_pngs(game, "ru", profile_id, part=0, parts=12)
    assert pixels == size and dpi == 300
    assert images
    for stem, png, _ in images[:3]:
        image = Image.open(io.BytesIO(png))
        assert image.size == size
        assert round(image.info["dpi"][0]) == 300 and round(image.info["dpi"][1]) == 300


def test_png_names_follow_deck_order(quiz):
    images, _, _ = render_pngs(quiz, "ru")
    stems = [stem for stem, _, _ in images]
    assert stems[:5] == ["001-q-france-1", "002-q-france-2", "003-q-france-3", "004-q-france-4", "005-q-brazil-1"]
    assert stems[-2:] == ["back-blue", "back-gold"]
    assert sum(count for _, _, count in images) == 14


def test_public_api_for_one_card(games):
    from cardgen.cards import card_pdf, card_png, card_pngs

    game = games["head-game"]
    png = card_png(game, "fact-captain", "de", dpi=100)
    image = Image.open(io.BytesIO(png))
    assert image.size == (250, 350) and round(image.info["dpi"][0]) == 100
    back = Image.open(io.BytesIO(card_png(game, "fact-captain", "ru", side="back", dpi=50, bleed_mm=3)))
    assert back.size == (137, 187)
    both = card_pngs(game, ["country-france", "action-red"], "ru", dpi=30)
    assert set(both) == {"country-france", "action-red"}
    pdf = reader(card_pdf(game, "country-brazil", "ru", bleed_mm=3))
    trim, bleed = box(pdf.pages[0], "/TrimBox"), box(pdf.pages[0], "/BleedBox")
    assert inside(trim, bleed) and "Бразилия" in pdf.pages[0].extract_text()
