"""The studio badges a card whose text holds characters no face of its font has."""

from __future__ import annotations

import sys
from pathlib import Path

from cardgen.studio.pages import BADGE_TITLES, BADGES
from cardgen.studio.state import Studio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fontmaker import make_game  # noqa: E402


def test_a_card_with_characters_no_face_has_gets_the_glyphs_badge(tmp_path):
    content = make_game(tmp_path, {"card.one.name": "日本 One"})
    studio = Studio(content)
    studio.load()
    view = studio.games["mini"]
    one = view.view("ru", "face", "one")
    assert "glyphs" in one.badges and one.plan is not None  # drawn all the same, with the warning shown
    assert any("U+65E5" in note for note in one.notes), one.notes
    assert "glyphs" not in view.view("ru", "face", "swap").badges  # Cyrillic falls back to DejaVu
    assert "glyphs" in BADGES and "empty boxes" in BADGE_TITLES["glyphs"]
