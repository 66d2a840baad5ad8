"""The rulebook set in the game's own typeface: @font-face from the game's files, embedded subset,
falling back to cardgen's DejaVu for characters the face lacks; nothing changes for other games."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from cardgen.errors import RenderError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fontmaker import make_game  # noqa: E402


def embedded_fonts(pdf: bytes) -> dict[str, str]:
    """Base font name (subset tag dropped) -> PostScript name inside its embedded font program."""
    from fontTools.ttLib import TTFont
    from pypdf import PdfReader

    found = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in (page["/Resources"].get("/Font") or {}).values():
            font = ref.get_object()
            tag, _, name = str(font["/BaseFont"]).lstrip("/").partition("+")
            assert len(tag) == 6 and tag.isupper(), f"{font['/BaseFont']} is not a subset"
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            program = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))
            found[name] = program["name"].getDebugName(6)
    return found


def test_the_rulebook_is_set_in_the_game_typeface(tmp_path):
    from cardgen.content import load_games
    from cardgen.rulebook.book import build_rulebook

    content = make_game(tmp_path)
    game = load_games(content, ["mini"])[0]
    book = build_rulebook(game, "ru", "a4", content_dir=content)
    found = embedded_fonts(book.pdf)
    assert found.get("cardgen-game-boxer") == "Boxer-Regular", found  # the running text's Latin
    assert found.get("cardgen-game-boxer-Bold") == "Boxer-Bold", found  # headings
    assert found.get("CardgenSans") == "DejaVuSans", found  # the Cyrillic text falls back to DejaVu


def test_a_game_without_rulebook_fonts_keeps_cardgens(tmp_path):
    from cardgen.content import load_games
    from cardgen.rulebook.book import render_html

    content = make_game(tmp_path, fonts_yaml="\nfonts:\n  boxer: {regular: fonts/Boxer-Regular.ttf}\n")
    html, _ = render_html(load_games(content, ["mini"])[0], "ru", content_dir=content)
    assert "cardgen-game" not in html and "Boxer-Regular.ttf" not in html
    assert "font-family: CardgenSans" in html


def test_a_font_file_broken_after_validation_is_refused_by_the_rulebook(tmp_path):
    from cardgen.content import load_games
    from cardgen.rulebook.book import build_rulebook

    content = make_game(tmp_path)
    game = load_games(content, ["mini"])[0]
    (game.root / "fonts" / "Boxer-Regular.ttf").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    with pytest.raises(RenderError, match="Boxer-Regular.ttf.*not a TrueType or OpenType font"):
        build_rulebook(game, "ru", "a4", content_dir=content)


def test_characters_no_face_of_the_rulebook_has_warn_and_fail_when_strict(tmp_path):
    from cardgen.content import load_games
    from cardgen.errors import MissingGlyphError
    from cardgen.cards.fonts import glyph_log
    from cardgen.rulebook import fonts
    from cardgen.rulebook.book import render_html

    content = make_game(tmp_path, {"card.one.name": "日本 One"})
    game = load_games(content, ["mini"])[0]
    html, _ = render_html(game, "ru", content_dir=content)
    problem = fonts.glyph_problem(game, html, "ru")
    assert problem is not None and "U+65E5 CJK UNIFIED IDEOGRAPH-65E5" in problem.message
    assert "the rulebook of 'mini'" in problem.message and "日本 One" in problem.message
    assert "fonts/Boxer-Regular.ttf" in problem.message and problem.locator.language == "ru"
    # the Cyrillic of the same rulebook has a face (DejaVu, the fallback): not named
    assert "CYRILLIC" not in problem.message

    from cardgen.rulebook.book import build_rulebook

    with glyph_log() as log:  # as a build job without --strict: a warning, and the book is made
        assert build_rulebook(game, "ru", "a4", content_dir=content).pages > 1
    assert any("the rulebook of 'mini'" in message for message in log.messages())
    with pytest.raises(MissingGlyphError, match=r"U\+672C"):
        build_rulebook(game, "ru", "a4", content_dir=content, strict=True)


def test_a_rulebook_whose_every_character_has_a_face_has_no_problem(tmp_path):
    from cardgen.content import load_games
    from cardgen.rulebook import fonts
    from cardgen.rulebook.book import render_html

    content = make_game(tmp_path)
    game = load_games(content, ["mini"])[0]
    assert fonts.glyph_problem(game, render_html(game, "ru", content_dir=content)[0], "ru") is None
