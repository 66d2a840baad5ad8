"""Every card of the four games plans in every language; text fit, safe zone and layout errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.errors import RenderError, TextOverflowError
from cardgen.cards.card import CardRenderer, hex_color
from cardgen.cards.text import fit_text
from cardgen.cards import fonts


@pytest.mark.parametrize("game_id", ["head-game", "card-football", "himmel", "klepka"])
def test_every_face_and_back_plans_in_every_language(games, game_id):
    game = games[game_id]
    for lang in game.meta.languages:
        renderer = CardRenderer(game, lang)
        plans = {renderer.face(card).key for card in game.cards}
        backs = {renderer.back(back.id).key for back in game.meta.backs}
        # distinct designs draw distinct pictures; each back design is distinct from the others
        assert len(backs) == len(game.meta.backs)
        assert len(plans) == len(game.cards), f"{game_id}: two card designs draw the same picture"


def test_card_football_save_back_differs_from_main(games):
    renderer = CardRenderer(games["card-football"], "ru")
    assert renderer.back("save").key != renderer.back("main").key
    assert renderer.back("save").ops != renderer.back("main").ops


def test_fonts_cover_cyrillic_diacritics_and_suits():
    from reportlab.pdfbase import pdfmetrics

    for style in fonts.STYLES:
        name = fonts.font_name(style)
        face = pdfmetrics.getFont(name).face
        for ch in "ЖжЁёÄäÖößÉéçñ♠♥♦♣≤":
            assert ord(ch) in face.charToGlyph, f"{name} lacks {ch!r}"
    assert (fonts.FONT_DIR / "LICENSE-DejaVu.txt").is_file()


def test_text_shrinks_to_fit_then_fails_with_card_field_language_and_mm():
    fonts.register_fonts()
    fitted = fit_text("Полузащитник", "DejaVuSans-Bold", 100, 30, size=20, min_size=8)
    assert 8 <= fitted.size < 20
    with pytest.raises(TextOverflowError) as caught:
        from cardgen.errors import Locator

        fit_text("Очень длинное название карты", "DejaVuSans-Bold", 40, 12, size=12, min_size=10, max_lines=1,
                 locator=Locator(card="c1", field="name", language="de"))
    message = str(caught.value)
    assert "card c1" in message and "field name" in message and "language de" in message
    assert "mm too wide" in message


DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"


@pytest.fixture
def quiz_copy(tmp_path):
    target = tmp_path / "decks"
    shutil.copytree(DECKS, target)
    return target


def _load(content: Path):
    from cardgen.content import load_games

    return load_games(content, ["quiz"])[0]


def test_overflow_in_a_layout_names_card_field_language(quiz_copy):
    layout = quiz_copy / "quiz" / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace("size: 8, min_size: 6", "size: 8, min_size: 8"), "utf-8")
    text = quiz_copy / "quiz" / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8").replace(
        "Назови двух вратарей сборной Италии.",
        "Назови двух вратарей сборной Италии, которые выигрывали чемпионат мира, чемпионат Европы и "
        "Лигу чемпионов, а потом стали тренерами в Серии А и выиграли её тоже."), "utf-8")
    game = _load(quiz_copy)
    renderer = CardRenderer(game, "ru")
    with pytest.raises(TextOverflowError) as caught:
        renderer.face(game.card("q-italy"))
    assert caught.value.locator.card == "q-italy"
    assert caught.value.locator.field == "rule"
    assert caught.value.locator.language == "ru"
    assert "mm too tall" in str(caught.value)


def test_text_box_outside_the_safe_zone_is_refused(quiz_copy):
    layout = quiz_copy / "quiz" / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace("box: [4, 4, 36.45, 7]", "box: [1, 4, 36.45, 7]"), "utf-8")
    renderer = CardRenderer(_load(quiz_copy), "ru")
    with pytest.raises(RenderError, match="safe zone"):
        renderer.face(renderer.game.card("q-france"))


def test_a_text_field_the_layout_forgets_is_an_error(quiz_copy):
    layout = quiz_copy / "quiz" / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace(
        '      - {type: text, text: "{field.rule}", box: [4, 35, 36.45, 18], size: 8, min_size: 6, color: ink}\n', ""),
        "utf-8")
    renderer = CardRenderer(_load(quiz_copy), "ru")
    with pytest.raises(RenderError, match="rule"):
        renderer.face(renderer.game.card("q-france"))


def test_unknown_drawing_is_named(quiz_copy):
    layout = quiz_copy / "quiz" / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace("draw: star", "draw: no-such-thing"), "utf-8")
    game = _load(quiz_copy)
    from cardgen.cards.pdf import finish, new_canvas

    renderer = CardRenderer(game, "ru")
    c = new_canvas((200, 200), "t")
    with pytest.raises(RenderError, match="no-such-thing"):
        renderer.place(c, renderer.face(game.card("bonus-double")), 0, 0)
    del finish


def test_colour_expressions():
    assert hex_color("#FFFFFF", {}) == "#ffffff"
    assert hex_color("tint(#000000, 0.5)", {}) == "#808080"
    assert hex_color("shade(ink, 1)", {"ink": "#123456"}) == "#000000"
    assert hex_color("none", {}) is None
    with pytest.raises(RenderError):
        hex_color("blue-ish", {})


def test_english_falls_back_to_russian_text(quiz):
    renderer = CardRenderer(quiz, "en")
    texts = [op for op in renderer.face(quiz.card("q-brazil")).ops if op[0] == "text"]
    assert any("Бразилия" in " ".join(op[2]) for op in texts)
    texts = [op for op in renderer.face(quiz.card("q-france")).ops if op[0] == "text"]
    assert any("France" in " ".join(op[2]) for op in texts)


def test_svg_art_files_draw_through_the_default_layout(tmp_path):
    from cardgen.content import load_games
    from cardgen.cards import card_png
    from cardgen.cards.svgart import load_svg

    mini = load_games(Path(__file__).resolve().parents[1] / "data", ["mini"])[0]
    assert card_png(mini, "two", "ru", dpi=40).startswith(b"\x89PNG")  # art/two.svg, default layout
    assert card_png(mini, "two", "ru", dpi=40, side="back").startswith(b"\x89PNG")  # art/back.svg
    art = tmp_path / "art.svg"
    art.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="10 10 100 50">'
        '<g transform="translate(5,5) rotate(30 50 25)" style="fill:#f00;stroke:navy;stroke-width:2">'
        '<rect x="10" y="10" width="20" height="10" rx="2"/><circle cx="60" cy="30" r="8" fill="none"/>'
        '<path d="M 10 40 l 10 0 q 5 -5 10 0 c 2 2 4 2 6 0 h 5 v 5 z"/><polyline points="0,0 5,5 10,0"/></g>'
        '<ellipse cx="80" cy="20" rx="5" ry="3" transform="scale(1.5)"/></svg>', "utf-8")
    symbol = load_svg(art)
    assert symbol.viewbox == (100.0, 50.0)
    from reportlab.lib.colors import HexColor

    from cardgen.cards.pdf import finish, new_canvas
    from cardgen.cards.shapes import ShapePainter

    c = new_canvas((200, 100), "svg")
    ShapePainter(c, HexColor, load_svg, fonts.font_name).draw_symbol(symbol, 0, 0, 200, 100, {})
    c.showPage()
    assert finish(c).startswith(b"%PDF")
    bad = tmp_path / "bad.svg"
    bad.write_text('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0 A 5 5 0 0 1 10 10"/></svg>', "utf-8")
    with pytest.raises(RenderError, match="not supported"):
        load_svg(bad)
