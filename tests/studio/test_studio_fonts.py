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


def test_a_text_under_the_layouts_body_size_gets_the_shrunk_badge(tmp_path):
    import shutil

    from cardgen.i18n.po import read_catalog, render

    root = Path(__file__).resolve().parents[2]
    content = tmp_path / "content"
    shutil.copytree(root / "content" / "klepka", content / "klepka")
    path = content / "klepka" / "locale" / "pl.po"
    catalog = read_catalog(path)
    for message in catalog:
        if message.context == "card.prize-var.rule":  # about 330 characters: 7.5 pt in a box set at 9 pt
            message.string = ("Przed swoją turą obejrzyj dowolne dwie płytki, nikomu ich nie pokazując. " * 5)[:330]
    path.write_bytes(render(catalog))
    studio = Studio(content)
    studio.load()
    view = studio.games["klepka"]
    card = view.view("pl", "face", "prize-var")
    assert "shrunk" in card.badges and card.plan is not None
    assert any(note.startswith("shrunk: card 'prize-var' [pl] prints its 'rule' at 7.5 pt") for note in card.notes)
    assert "shrunk" not in view.view("en", "face", "prize-var").badges
    assert "shrunk" in BADGES and "body size" in BADGE_TITLES["shrunk"]


def test_a_name_shrunk_to_fit_within_the_layouts_range_gets_the_fitted_badge(tmp_path):
    """Issue 25: the studio tells a name printed smaller than its layout size (no warning: the
    layout allows it) from one printed at that size, and says at which size it printed."""
    import shutil

    from potools import set_translations

    root = Path(__file__).resolve().parents[2]
    content = tmp_path / "content"
    shutil.copytree(root / "content" / "klepka", content / "klepka")
    set_translations(content / "klepka" / "locale" / "pl.po", {"card.player-stenkin.name": "Bramkarz Murowski-Stenkiewicz"})
    studio = Studio(content)
    studio.load()
    view = studio.games["klepka"]
    card = view.view("pl", "face", "player-stenkin")
    assert card.badges == ("fitted",) and card.plan is not None
    assert card.notes == ("fitted: 'name' printed at 9.25 pt to fit (the layout's size 12 pt)",)
    assert "fitted" not in view.view("ru", "face", "player-stenkin").badges
    assert "fitted" in BADGES and "smaller" in BADGE_TITLES["fitted"]
