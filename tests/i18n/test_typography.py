"""Typesetting rules a language's text carries: no-break spaces after one-letter words (pl, cs,
sk, ru), French narrow no-break spaces; the rulebook's HTML gets them, names are not hyphenated."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.i18n.typography import NARROW_NBSP, NBSP, quotes, tidy

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language, text, expected", [
    ("pl", "Połóż je w rzędach i w kolumnach, a potem z nich", "Połóż je w_rzędach i_w_kolumnach, a_potem z_nich"),
    ("pl", "U nas (w domu) gra", "U_nas (w_domu) gra"),
    ("cs", "Hraj s kartou k vítězství", "Hraj s_kartou k_vítězství"),
    ("ru", "Положите в ряд и с краю", "Положите в_ряд и_с_краю"),
    ("pl", "x-ray i u-bahn", "x-ray i_u-bahn"),  # a hyphenated word is not one letter
    ("en", "a card in a row", "a card in a row"),  # English has no such rule
])
def test_one_letter_words_are_bound_to_the_next(language, text, expected):
    assert tidy(text, language).replace(NBSP, "_") == expected


def test_french_spacing():
    text = tidy("Attention : le jeu! « Klepka » et 2:1 ?!", "fr")
    assert text == f"Attention{NARROW_NBSP}: le jeu{NARROW_NBSP}! «{NARROW_NBSP}Klepka{NARROW_NBSP}» et 2:1{NARROW_NBSP}?!"
    assert tidy("Start: now!", "en") == "Start: now!"


def test_the_rulebook_html_carries_them_and_names_are_not_hyphenated(tmp_path):
    import shutil

    from cardgen.content.loader import load_game
    from cardgen.i18n.texts import Texts

    shutil.copytree(ROOT / "content" / "klepka", tmp_path / "content" / "klepka")
    game = load_game(tmp_path / "content" / "klepka")
    html = str(Texts(game, "ru", tmp_path / "content").markup("rules.setup.1"))
    assert f"газоном с{NBSP}надписью" in html
    css = (ROOT / "templates" / "rulebook" / "rulebook.css").read_text("utf-8")
    assert ".ref, .card figcaption strong" in css and "hyphens: manual" in css


@pytest.mark.parametrize("text, expected", [
    ('Sag "im Kader" laut', "Sag „im Kader“ laut"),
    ("Sag «im Kader» laut", "Sag „im Kader“ laut"),
    ("«Karte „VAR“ zählt»", "„Karte ‚VAR‘ zählt“"),  # the Russian source's nesting
    ("Er sagt: \"Nimm 'Klepka' mit\" und geht's", "Er sagt: „Nimm ‚Klepka‘ mit“ und geht's"),
    ("“English” quotes", "„English“ quotes"),
    ("„Ballon d'Or“, „25 oder mehr“", "„Ballon d'Or“, „25 oder mehr“"),  # already German, apostrophe kept
])
def test_german_quotation_marks(text, expected):
    assert quotes(text, "de") == expected
    assert len(quotes(text, "de")) == len(text)


def test_other_languages_and_swiss_german_keep_their_quotes():
    for language in ("en", "pl", "ru", "de-CH"):
        assert quotes('«a» "b"', language) == '«a» "b"'


def test_a_german_quotation_around_a_card_name_prints_german_marks(tmp_path):
    import shutil

    from cardgen.content.loader import load_game
    from cardgen.i18n.texts import Texts
    from potools import set_translations

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "klepka", content / "klepka")
    set_translations(content / "klepka" / "locale" / "de.po",
                     {"rules.goal": 'Sammelt Paare; „VAR“ heißt "{card:prize-var}" und «Joker» bleibt.'})
    game = load_game(content / "klepka")
    texts = Texts(game, "de", content)
    name = texts.plain("card.prize-var.name")
    assert texts.plain("rules.goal") == f"Sammelt Paare; „VAR“ heißt „{name}“ und „Joker“ bleibt."
    assert f"„<span class=\"ref ref-card\">{name}</span>“" in str(texts.markup("rules.goal"))
