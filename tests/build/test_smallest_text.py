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


def test_a_text_under_the_layouts_body_size_is_noted_for_the_warning(tmp_path):
    import copy
    from pathlib import Path

    from cardgen.build import shrunk_summary
    from cardgen.content.loader import load_game

    game = copy.copy(load_game(Path(__file__).resolve().parents[2] / "content" / "klepka"))
    key = game.card("prize-var").text["rule"]
    assert "shrunk" not in smallest_text(game, "pl", None)  # the bundled Polish fits at its size
    # about 330 characters: over the 8 pt body size of the 60 x 28 mm box, within its 6 pt minimum
    long = ("Przed swoją turą obejrzyj dowolne dwie płytki, nikomu ich nie pokazując. " * 5)[:330]
    game.messages = {**game.messages, "pl": {**game.messages["pl"], key: long}}
    found = smallest_text(game, "pl", None)
    assert found["smallest_card"] == "prize-var" and found["smallest_pt"] < 8
    (message,) = found["shrunk"]
    assert message.startswith("card 'prize-var' [pl] prints its 'rule' at ")
    assert "under the layout's body size 8 pt: 330 characters, the box holds about" in message
    artefact = Artefact("klepka", "pnp", "pl", "a4", "klepka/pl/x.pdf", 1, 1, "0" * 64,
                        tuple(sorted(found.items())))
    assert shrunk_summary([artefact, artefact]) == [message]
