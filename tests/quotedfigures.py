"""Figures a game's texts quote from simulation or from the footballer base, held to a rerun.

A rationale that says "prizes change the winner in 17 % of games" must say what the engine
measures today.  Each ``tests/content/test_quoted_figures_<game>.py`` recomputes its game's
figures (the seeds and game counts the text states) and calls :func:`check`, which asserts
that every language prints each figure as it rounds to the precision printed, and that the
texts checked hold no other percentage or decimal number than the registered figures and
the literals named with a reason (a setting quoted, say).  When a rule or the base changes,
the failure lists each figure as it is now, in every language, to paste into the texts.

Games are played without the invariant checks (``play``): the engines' own tests hold the
invariants, and these reruns stay four times faster.  Seeds are derived as ``cardgen
simulate`` derives them, so ``cardgen simulate GAME --games N --seed S`` shows the same games.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from cardgen.content.loader import Game
from cardgen.engines.base import Engine, GameState
from cardgen.simulation.runner import derive_seed, game_seed

LANGUAGES = ("ru", "en", "de")

#: "17 %", "9,4 %", "9.4 %": a percentage as the texts print one.
_PERCENT = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s%")
#: "25,4", "0.689": a decimal number that is not part of a date (30.06.2025) or a version.
_DECIMAL = re.compile(r"(?<![\d.,])(\d+[.,]\d+)(?![\d.,]*\d)")


@dataclass(frozen=True)
class Figure:
    """One number a text quotes: where, what it measures, its value now, how it is printed."""

    key: str
    what: str
    value: float
    decimals: int = 0
    percent: bool = False  # value is a share (0.171) printed as "17 %"

    def printed(self, language: str) -> str:
        number = self.value * 100 if self.percent else self.value
        text = f"{number:.{self.decimals}f}"
        if language != "en":
            text = text.replace(".", ",")
        return f"{text} %" if self.percent else text


@dataclass
class Quoted:
    """The figures of one game, and the literals its texts may print besides."""

    game: Game
    figures: list[Figure] = field(default_factory=list)
    literals: dict[str, str] = field(default_factory=dict)  # "30 %" -> why it is no measured figure

    def add(self, key: str, what: str, value: float, decimals: int = 0, percent: bool = False) -> float:
        self.figures.append(Figure(key, what, value, decimals, percent))
        return value

    def problems(self, languages: Sequence[str] = LANGUAGES) -> list[str]:
        problems: list[str] = []
        keys = sorted({figure.key for figure in self.figures})
        for language in languages:
            for key in keys:
                text = self.game.text(key, language)
                mine = [f for f in self.figures if f.key == key]
                for figure in mine:
                    if not _contains_number(text, figure.printed(language)):
                        problems.append(f"{key} [{language}]: {figure.what} is {figure.printed(language)} now "
                                        f"({figure.value!r}), the text does not say so")
                allowed = {f.printed(language) for f in mine} | set(_literals(self.literals, language))
                allowed_numbers = {a.removesuffix(" %") for a in allowed}
                for match in _PERCENT.finditer(text):
                    if match.group(0) not in allowed:
                        problems.append(f"{key} [{language}]: '{match.group(0)}' is no figure this test "
                                        "recomputes (register it, or name it as a literal with why)")
                for match in _DECIMAL.finditer(text):
                    if match.group(1) not in allowed_numbers and match.group(1) + " %" not in allowed:
                        problems.append(f"{key} [{language}]: '{match.group(1)}' is no figure this test "
                                        "recomputes (register it, or name it as a literal with why)")
        return problems

    def table(self) -> str:
        """Every figure as it is now, for the failure message."""
        return "\n".join(f"  {f.key}: {f.what} = " + " | ".join(f.printed(l) for l in LANGUAGES)
                         for f in self.figures)


def _literals(literals: dict[str, str], language: str) -> Iterable[str]:
    """The literals (written with a decimal comma) as ``language`` prints them."""
    for literal in literals:
        yield literal.replace(",", ".") if language == "en" else literal


def _contains_number(text: str, printed: str) -> bool:
    """``printed`` stands in ``text`` as a number of its own (not "117" inside "1170")."""
    return re.search(r"(?<![\d.,])" + re.escape(printed) + r"(?![\d]|[.,]\d)", text) is not None


def assert_quoted(quoted: Quoted) -> None:
    problems = quoted.problems()
    assert not problems, "\n".join(problems) + "\n\nthe figures now:\n" + quoted.table()


# -- playing games -------------------------------------------------------------------------


def with_settings(game: Game, **settings: object) -> Game:
    meta = game.meta.model_copy(update={"settings": {**game.meta.settings, **settings}})
    return replace(game, meta=meta)


def with_cards(game: Game, cards: list) -> Game:
    return replace(game, cards=cards)


def play(engine: Engine, players: int, games: int, seed: int,
         bots: str | Sequence[str] = "greedy") -> list[GameState]:
    """The final states of ``games`` games, seeded as ``cardgen simulate`` seeds them;
    ``bots`` is one bot for every seat or one per seat."""
    table = engine.bots()
    per_seat: Sequence[str] = [bots] * players if isinstance(bots, str) else bots
    choose: list[Callable] = [table[name] for name in per_seat]
    finals = []
    for index in range(games):
        seed_i = game_seed(seed, index)
        state = engine.new_game(players, seed_i)
        rng = random.Random(derive_seed(seed_i, "bot"))
        while not state.is_over():
            state.apply(choose[state.current_player()](state, rng))
        finals.append(state)
    return finals


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values)
