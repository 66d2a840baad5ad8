"""head-game: every figure the clarifications quote from simulation or the footballer base,
recomputed (issue 26).

The answer index and the base figures take a second; the action layouts play 300 games of
the points format per layout and player count, as the rationale 'action-split' says.
"""

from __future__ import annotations

import sys
from collections import Counter
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quotedfigures import Quoted, assert_quoted, play, with_cards, with_settings  # noqa: E402

from cardgen.content import load_game  # noqa: E402
from cardgen.engines.footballers import (  # noqa: E402
    FACTS,
    AnswerIndex,
    coverage_report,
    deck_weights,
    fact_value,
)
from cardgen.engines.head_game import HeadGameEngine  # noqa: E402

CONTENT = Path(__file__).resolve().parents[2] / "content" / "head-game"
GAMES, SEED = 300, 1
#: Block, Fergie Time, Transfer, Yellow, Red: the chosen layout first, then the two compared.
LAYOUTS = {"3/2/2/1/1": (3, 2, 2, 1, 1), "2/2/2/2/1": (2, 2, 2, 2, 1), "2/3/2/1/1": (2, 3, 2, 1, 1)}
ACTIONS = ("block", "fergie-time", "transfer", "yellow", "red")


def action_layout(game, copies):
    counts = dict(zip(ACTIONS, copies))
    return with_cards(game, [card.model_copy(update={"copies": counts[card.attrs["action"]]})
                             if card.group == "action" else card for card in game.cards])


def table_figures(states) -> tuple[float, float, float]:
    """Turns per round, share of right answers among answers, share of rounds cut by turn_limit."""
    events = Counter()
    for state in states:
        events.update(state.events)
    answers = events["answers_right"] + events["answers_wrong"] + events["answers_none"]
    return (events["turns"] / events["rounds"], events["answers_right"] / answers,
            events["turn_limit_reached"] / events["rounds"])


def no_answer_share(index, weights, fact) -> float:
    """Share of the fact's geography x position pitches, weighted by the deck, with no answer."""
    total = empty = 0
    for key, count in index.counts().items():
        if key.fact != fact:
            continue
        weight = weights["geo"][key.geo] * weights["position"][key.position]
        total += weight
        empty += weight * (count == 0)
    return empty / total


def dealt_no_answer(index, weights, fact_cards) -> float:
    return coverage_report(index, {**weights, "fact": Counter(fact_cards)})["dealt_share"]["0"]


def compute() -> Quoted:
    game = load_game(CONTENT)
    engine = HeadGameEngine(game)
    base = engine.base
    quoted = Quoted(game, literals={"0,4": "bot_knowledge of the failed trial: a setting",
                                    "0,5": "bot_recall of the failed trial: a setting"})
    day = base.as_of
    index = AnswerIndex(base, day)
    weights = deck_weights(game)
    report = coverage_report(index, weights)

    key = "clar.fact-split.r"
    quoted.add(key, "players in the base", len(base.players))
    cards = weights["fact"]
    shares = {fact: no_answer_share(index, weights, fact) for fact in FACTS}
    quoted.add(key, "largest no-answer share among the 3-card facts",
               max(shares[f] for f in FACTS if cards[f] == 3), percent=True)
    rare = {f: shares[f] for f in FACTS if cards[f] == 1}
    assert min(rare, key=rare.get) == "scored-in-final" and max(rare, key=rare.get) == "aged-25-or-under", \
        f"the rationale names the extremes among the 1-card facts; now {sorted(rare.items(), key=lambda i: i[1])}"
    quoted.add(key, "no-answer share of 'scored in a final'", rare["scored-in-final"], percent=True)
    quoted.add(key, "no-answer share of 'aged 25 or under'", rare["aged-25-or-under"], percent=True)
    dealt = report["dealt_share"]
    quoted.add(key, "pitches dealt with no answer", dealt["0"], 1, percent=True)
    quoted.add(key, "pitches dealt with no answer, every fact one card alike",
               dealt_no_answer(index, weights, dict.fromkeys(FACTS, 1)), 1, percent=True)
    quoted.add(key, "pitches dealt with 1-2 answers", dealt["1-2"], percent=True)
    quoted.add(key, "pitches dealt with 3 or more answers", dealt["3-9"] + dealt["10+"], percent=True)
    # the measure is linear in the card counts: with 1-3 cards a fact and 30 cards, the best
    # split of n threes gives them to the n facts with the fewest empty pitches
    ranked = sorted(FACTS, key=lambda f: (shares[f], f))
    for threes, twos, ones in ((4, 6, 6), (7, 0, 9)):
        split = {f: 3 if i < threes else 2 if i < threes + twos else 1 for i, f in enumerate(ranked)}
        assert sum(split.values()) == 30
        quoted.add(key, f"pitches dealt with no answer, best split {threes}/{twos}/{ones}",
                   dealt_no_answer(index, weights, split), 1, percent=True)
    fields = report["fields"]
    quoted.add(key, "fields (geography x position x fact)", sum(fields.values()))
    quoted.add(key, "fields with no answer", fields["0"])
    quoted.add(key, "share of fields with no answer", fields["0"] / sum(fields.values()), 1, percent=True)

    key = "clar.action-split.r"
    quoted.add(key, "pitches dealt with no answer", dealt["0"], 1, percent=True)
    quoted.add(key, "pitches dealt with 1-2 answers", dealt["1-2"], percent=True)
    quoted.add(key, "games per layout", GAMES)
    chosen = {}
    for name, copies in LAYOUTS.items():
        other = HeadGameEngine(action_layout(game, copies))
        two = table_figures(play(other, 2, GAMES, SEED))
        four = table_figures(play(other, 4, GAMES, SEED))
        quoted.add(key, f"{name}: turns a round, 2 players", two[0], 1)
        quoted.add(key, f"{name}: turns a round, 4 players", four[0], 1)
        quoted.add(key, f"{name}: share of right answers, 2 players", two[1], 3)
        chosen.setdefault("two", two)
        chosen.setdefault("four", four)

    key = "clar.action-pile.r"
    quoted.add(key, "games", GAMES)
    quoted.add(key, "turns a round, 2 players", chosen["two"][0], 1)
    quoted.add(key, "turns a round, 4 players", chosen["four"][0], 1)

    key = "clar.answer-model.r"
    quoted.add(key, "share of right answers, 2 players", chosen["two"][1], percent=True)
    quoted.add(key, "turns a round, 2 players", chosen["two"][0])
    weak = HeadGameEngine(with_settings(game, bot_knowledge=0.4, bot_recall=0.5))
    right, cut = table_figures(play(weak, 2, 100, SEED))[1:]
    quoted.add(key, "knowledge 0.4, recall 0.5: games", 100)
    quoted.add(key, "knowledge 0.4, recall 0.5: share of right answers", right, percent=True)
    quoted.add(key, "knowledge 0.4, recall 0.5: share of rounds cut by the turn limit", cut, percent=True)

    key = "clar.five-clubs.r"
    returns = loans = 0
    for player in base.players:
        clubs = player.clubs or []
        distinct = {spell.club for spell in clubs}
        returns += len(distinct) < 5 <= len(clubs)
        loans += len({spell.club for spell in clubs if not spell.loan}) < 5 <= len(distinct)
    quoted.add(key, "players with five spells only by coming back", returns)
    quoted.add(key, "players with five clubs only with loans", loans)

    key = "clar.age-date.r"
    later = date(2026, 12, 1)
    young_now = [p for p in base.players if fact_value(p, "aged-25-or-under", day)]
    young_later = [p for p in young_now if fact_value(p, "aged-25-or-under", later)]
    quoted.add(key, "'25 or under' players lost by 1 December 2026",
               1 - len(young_later) / len(young_now), percent=True)
    return quoted


def test_the_head_game_figures_are_what_the_engine_and_the_base_give_now():
    assert_quoted(compute())


if __name__ == "__main__":
    print(compute().table())
