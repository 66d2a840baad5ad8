"""Rules name cards by key; inflected forms come from the catalogue; unknown keys fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.content import load_games
from cardgen.errors import I18nError
from cardgen.i18n import Texts
from cardgen.i18n.refs import parse_forms, resolve

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def head_game():
    return load_games(ROOT / "content", ["head-game"])[0]


def _lookup(messages):
    return lambda key: (messages.get(key), "ru")


def test_forms_give_the_inflected_name(head_game):
    texts = Texts(head_game, "ru")
    assert "кроме «Блока»" in texts.plain("rules.cards.action")
    assert "закрой «Блоком»" in texts.plain("rules.card.action-block")
    de = Texts(head_game, "de")
    assert "mit dem Block" in de.plain("rules.card.action-block")
    assert "eine Gelbe Karte" in de.plain("rules.quick.7")
    assert "a Yellow Card" in Texts(head_game, "en").plain("rules.quick.7")


def test_names_come_from_the_card_text(head_game):
    assert head_game.text("card.action-transfer.name", "en") in Texts(head_game, "en").plain("rules.quick.6")
    assert "30 Sekunden" in Texts(head_game, "de").plain("rules.intro.1")  # {setting:answer_seconds}


def test_an_unknown_card_fails(head_game):
    messages = head_game.messages["ru"]
    with pytest.raises(I18nError, match="unknown card 'action-nope'"):
        resolve("Сыграй {card:action-nope}", head_game, "ru", _lookup(messages))
    with pytest.raises(I18nError, match="unknown setting"):
        resolve("{setting:no_such}", head_game, "ru", _lookup(messages))
    with pytest.raises(I18nError, match="malformed reference"):
        resolve("Сыграй {card action-block}", head_game, "ru", _lookup(messages))


def test_a_missing_form_fails_in_the_source_and_warns_in_a_translation(head_game):
    messages = head_game.messages["ru"]
    with pytest.raises(I18nError, match="no 'dat' form"):
        resolve("{card:action-block|dat}", head_game, "ru", _lookup(messages))
    warnings: list[str] = []
    de = {"card.action-block.name": "Block", "card.action-block.name.forms": "acc: den Block"}
    pieces = resolve("mit {card:action-block|dat}", head_game, "de",
                     lambda key: (de.get(key), "de"), warn=warnings.append)
    assert "".join(p.text for p in pieces) == "mit Block"
    assert warnings and "no 'dat' form" in warnings[0]
    with pytest.raises(I18nError):
        resolve("mit {card:action-block|dat}", head_game, "de", lambda key: (de.get(key), "de"), strict=True)


def test_parse_forms():
    assert parse_forms("acc: den Block; dat: dem Block") == {"acc": "den Block", "dat": "dem Block"}
    with pytest.raises(ValueError):
        parse_forms("den Block")


def test_markup_escapes_and_tags_fallback_language(head_game, tmp_path):
    texts = Texts(head_game, "ru")
    html = texts.markup("rules.quick.1")
    assert "<strong>" in html and "<script" not in html
    assert '<span class="ref ref-card">' in texts.markup("rules.cards.action")
