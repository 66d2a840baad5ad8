"""Labels of cards without a name (cardgen.i18n.labels): a declared message, else the kind's
or group's name and the card's number, in the build language; the same on faces and in the
rulebook, and never the card's id."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.content import load_games
from cardgen.i18n.labels import card_label, game_lookup, texts_lookup
from cardgen.i18n.texts import Texts
from cardgen.cards.card import CardRenderer
from cardgen.rulebook.book import card_groups

GAME = """\
id: tiny
title: game.title
players: {min: 2, max: 4}
source_language: en
languages: [en, de]
card_size: {width_mm: 63.5, height_mm: 88.9}
total_cards: 13
backs:
  - {id: main, name: back.main, color: "#123456"}
groups:
  - {id: number, name: group.number, color: "#aa0000", cards: 4}
  - {id: gem, name: group.gem, label: group.gem.label, color: "#00aa00", cards: 2}
  - id: action
    name: group.action
    label: group.action.label
    color: "#0000aa"
    cards: 6
    kinds:
      - {id: swap, name: kind.swap, label: kind.swap.label, cards: 2}
      - {id: skip, name: kind.skip, cards: 2}
      - {id: stop, name: kind.stop, cards: 2}
  - id: extra
    name: group.extra
    color: "#aaaa00"
    cards: 1
    kinds:
      - {id: bonus, name: kind.bonus, cards: 1}
attributes:
  value: {type: integer, minimum: 1, maximum: 9}
"""

CARDS = """\
cards:
  - {id: number-0, group: number, back: main, text: {name: card.zero.name}}
  - {id: number-1, group: number, back: main}
  - {id: number-2, group: number, back: main, copies: 2}
  - {id: gem-5, group: gem, back: main, attrs: {value: 5}}
  - {id: gem-7, group: gem, back: main, attrs: {value: 7}}
  - {id: swap-a, group: action, kind: swap, back: main}
  - {id: skip-a, group: action, kind: skip, back: main}
  - {id: swap-b, group: action, kind: swap, back: main}
  - {id: skip-b, group: action, kind: skip, back: main}
  - {id: stop-a, group: action, kind: stop, back: main, copies: 2}
  - {id: bonus-1, group: extra, kind: bonus, back: main}
"""

TEXT = """\
language: en
messages:
  game.title: "Tiny"
  back.main: "Back"
  group.number: "Number"
  group.gem: "Gems"
  group.gem.label: "Gem worth {value}"
  group.action: "Actions"
  group.action.label: "Action {n}"
  kind.swap: "Swaps"
  kind.swap.label: "Swap {n}"
  kind.skip: "Skips"
  kind.stop: "Stops"
  group.extra: "Extras"
  kind.bonus: "Bonus"
  card.zero.name: "Zero"
"""

#: German for everything but group.action.label, which falls back to the English source.
GERMAN = {
    "game.title": ("Tiny", "Winzig"),
    "back.main": ("Back", "Rücken"),
    "group.number": ("Number", "Zahl"),
    "group.gem": ("Gems", "Edelsteine"),
    "group.gem.label": ("Gem worth {value}", "Edelstein zu {value}"),
    "kind.swap.label": ("Swap {n}", "Tausch {n}"),
    "kind.bonus": ("Bonus", "Prämie"),
    "card.zero.name": ("Zero", "Null"),
}

EXPECTED = {
    "en": {"number-0": "Zero", "number-1": "Number 1", "number-2": "Number 2", "gem-5": "Gem worth 5",
           "gem-7": "Gem worth 7", "swap-a": "Swap 1", "swap-b": "Swap 2", "skip-a": "Action 1",
           "skip-b": "Action 2", "stop-a": "Action 3", "bonus-1": "Bonus"},
    "de": {"number-0": "Null", "number-1": "Zahl 1", "number-2": "Zahl 2", "gem-5": "Edelstein zu 5",
           "gem-7": "Edelstein zu 7", "swap-a": "Tausch 1", "swap-b": "Tausch 2", "skip-a": "Action 1",
           "skip-b": "Action 2", "stop-a": "Action 3", "bonus-1": "Prämie"},
}


def _po(entries: dict[str, tuple[str, str]]) -> str:
    head = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n'
    body = "".join(f'\nmsgctxt "{key}"\nmsgid "{source}"\nmsgstr "{text}"\n'
                   for key, (source, text) in entries.items())
    return head + body


def _write(root: Path, game: str = GAME, text: str = TEXT) -> Path:
    folder = root / "content" / "tiny"
    (folder / "text").mkdir(parents=True)
    (folder / "locale").mkdir()
    (folder / "game.yaml").write_text(game, "utf-8")
    (folder / "cards.yaml").write_text(CARDS, "utf-8")
    (folder / "text" / "en.yaml").write_text(text, "utf-8")
    (folder / "locale" / "de.po").write_text(_po(GERMAN), "utf-8")
    return root / "content"


@pytest.fixture
def tiny(tmp_path):
    return load_games(_write(tmp_path), ["tiny"])[0]


@pytest.mark.parametrize("language", ["en", "de"])
def test_label_is_the_declared_message_else_the_kind_or_group_name_and_number(tiny, language):
    labels = {card.id: card_label(tiny, card, game_lookup(tiny, language)).text for card in tiny.cards}
    assert labels == EXPECTED[language]


def test_texts_lookup_gives_the_same_labels_and_says_which_fell_back(tiny):
    texts = Texts(tiny, "de")
    labels = {card.id: card_label(tiny, card, texts_lookup(texts)) for card in tiny.cards}
    assert {card_id: label.text for card_id, label in labels.items()} == EXPECTED["de"]
    assert labels["skip-a"].language == "en" and labels["swap-a"].language == "de"
    assert [(w.kind, w.key) for w in texts.warnings] == [("missing", "group.action.label")]


@pytest.mark.parametrize("language", ["en", "de"])
def test_rulebook_shows_labels_under_the_card_pictures(tiny, language):
    shown = {card.id: str(card.name)
             for group in card_groups(tiny, Texts(tiny, language), lambda card_id: None)
             for kind in group.kinds for card in kind.examples}
    expected = dict(EXPECTED[language])
    if language == "de":  # the fallback text is marked with its own language, as Texts.markup marks it
        for card_id in ("skip-a", "skip-b", "stop-a"):
            expected[card_id] = f'<span lang="en">{expected[card_id]}</span>'
    assert shown == expected
    assert not set(shown.values()) & {card.id for card in tiny.cards}


@pytest.mark.parametrize("language", ["en", "de"])
def test_default_layout_prints_the_label_on_a_face_without_a_name(tiny, language):
    renderer = CardRenderer(tiny, language)
    for card in tiny.cards:
        printed = [line for op in renderer.face(card).ops if op[0] == "text" for line in op[2]]
        assert EXPECTED[language][card.id] in " ".join(printed), (card.id, printed)
        assert card.id not in printed


def test_label_markup_is_escaped(tmp_path):
    content = _write(tmp_path, text=TEXT.replace('"Gem worth {value}"', '"<b>Gem</b> & {value}"'))
    game = load_games(content, ["tiny"])[0]
    shown = {card.id: str(card.name) for group in card_groups(game, Texts(game, "en"), lambda card_id: None)
             for kind in group.kinds for card in kind.examples}
    assert shown["gem-5"] == "&lt;b&gt;Gem&lt;/b&gt; &amp; 5"
