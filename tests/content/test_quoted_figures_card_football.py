"""card-football: the figures the clarifications quote from simulation, recomputed (issue 26)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quotedfigures import Quoted, assert_quoted, mean, play  # noqa: E402

from cardgen.content import load_game  # noqa: E402
from cardgen.engines.card_football import CardFootballEngine  # noqa: E402

CONTENT = Path(__file__).resolve().parents[2] / "content" / "card-football"
GAMES, SEED = 1000, 1


def compute() -> Quoted:
    game = load_game(CONTENT)
    quoted = Quoted(game)
    key = "clar.kick-off.r"
    states = play(CardFootballEngine(game), 2, GAMES, SEED)
    outcomes = [state.outcome() for state in states]
    quoted.add(key, "games", GAMES)
    for seat, name in ((0, "first"), (1, "second")):
        quoted.add(key, f"the {name} seat wins, share of games",
                   mean(o.winners == (seat,) for o in outcomes), 1, percent=True)
    quoted.add(key, "draws, share of games", mean(len(o.winners) != 1 for o in outcomes), 1, percent=True)
    key = "clar.extra-time.r"
    states = play(CardFootballEngine(game, {"result": "extra-time"}), 2, GAMES, SEED)
    periods = sum(s.events["extra_time_periods"] for s in states)
    matches = sum(s.events["extra_time"] for s in states)
    quoted.add(key, "games (result: extra-time)", GAMES)
    quoted.add(key, "matches that went to extra time", matches)
    quoted.add(key, "periods of extra time without a goal, share", (periods - matches) / periods, 1, percent=True)
    return quoted


def test_the_kick_off_and_extra_time_figures_are_what_the_engine_measures_now():
    assert_quoted(compute())


if __name__ == "__main__":
    print(compute().table())
