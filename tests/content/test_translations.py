"""Translations from locale/<lang>.po as the content loader reads them for the cards."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardgen.content import load_games
from cardgen.i18n.texts import Texts

MINI = Path(__file__).resolve().parents[1] / "data" / "mini"


def test_a_translation_of_an_older_source_text_is_not_printed(tmp_path):
    """Cards (Game.text) agree with the rulebook and the i18n status: a PO entry whose msgid is
    not the current source text is stale, and the source is used until it is translated again."""
    folder = tmp_path / "content"
    shutil.copytree(MINI, folder / "mini")
    (folder / "mini" / "locale").mkdir()
    (folder / "mini" / "locale" / "en.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "card.one.name"\nmsgid "Один прежний"\nmsgstr "One (old)"\n\n'
        'msgctxt "card.swap.name"\nmsgid "Обмен"\nmsgstr "Swap"\n', "utf-8")
    game = load_games(folder, ["mini"])[0]
    assert game.text("card.one.name", "en") == "Один"
    assert game.text("card.swap.name", "en") == "Swap"
    assert Texts(game, "en").raw("card.one.name") == ("Один", "ru")
    assert game.text_origin("card.swap.name", "en").line == 10
