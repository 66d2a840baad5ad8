"""No percentage in print that no test recomputes (issue 26).

The quoted-figures tests (``test_quoted_figures_<game>.py``) each recompute the figures of
some texts; this fast check makes sure no other text of the bundled games prints a share,
so a new "about 46 % of games" cannot slip into a rulebook without a computation behind it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content import load_game

CONTENT = Path(__file__).resolve().parents[2] / "content"
PERCENT = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)?\s?%")
#: game -> the texts whose figures a quoted-figures test recomputes
RECOMPUTED = {
    "head-game": {"clar.fact-split.r", "clar.action-split.r", "clar.action-pile.r", "clar.answer-model.r",
                  "clar.five-clubs.r", "clar.age-date.r"},
    "card-football": {"clar.kick-off.r", "clar.extra-time.r"},
    "himmel": set(),
    "klepka": {"clar.composition.r"},
}


@pytest.mark.parametrize("game_id", sorted(RECOMPUTED))
def test_every_printed_percentage_stands_in_a_text_whose_figures_are_recomputed(game_id):
    game = load_game(CONTENT / game_id)
    stray = [(key, language, found)
             for language in game.meta.languages
             for key in sorted(game.messages[game.meta.source_language])
             if key not in RECOMPUTED[game_id]
             for found in PERCENT.findall(game.text(key, language))]
    assert not stray, f"percentages no test recomputes: {stray}"
    for key in RECOMPUTED[game_id]:
        assert key in game.messages[game.meta.source_language], key
