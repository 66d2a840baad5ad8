"""The build reports the smallest size card text is fitted at, per game and language."""

from __future__ import annotations

from cardgen.build import Artefact, smallest_text_summary
from cardgen.build.cards import smallest_text


def test_smallest_fitted_text_of_a_game(games):
    found = smallest_text(games["head-game"], "en", None)
    # the rule texts of the fact cards are fitted under their 8.5 pt size on the longest rules
    assert found["smallest_pt"] <= 8.5 and found["smallest_pt"] >= 8
    assert found["smallest_card"] in {card.id for card in games["head-game"].cards}


def test_summary_takes_the_smallest_per_game_and_language():
    def pnp(game, lang, size, card):
        return Artefact(game, "pnp", lang, "a4", f"{game}/{lang}/x.pdf", 1, 1, "0" * 64,
                        (("smallest_card", card), ("smallest_pt", size)))

    artefacts = [pnp("a", "en", 9.0, "c1"), pnp("a", "en", 8.5, "c2"), pnp("a", "de", 10, "c3"),
                 Artefact("a", "rulebook", "en", "a4", "a/en/r.pdf", 1, 0, "0" * 64)]
    assert smallest_text_summary(artefacts) == [("a", "de", 10, "c3"), ("a", "en", 8.5, "c2")]
