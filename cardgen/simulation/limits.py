"""Playability limits: the content's ``limits:`` section against a summary.

``check_limits`` compares each declared limit with the measured figure and
returns one :class:`LimitCheck` per limit; ``limit_errors`` turns the failed
ones into content errors that point at the limit in ``game.yaml`` and say the
measured value.  ``measure`` runs the simulation the limits ask for (their
games, seed, players and bot).

A sweep asks more of a limit (:func:`cell_limit_checks`): it checks a cell
only against the limits of the cell's own player count (the top of
``limits:`` holds at ``players``, ``by_players`` at the others) and bot, and
says "outside" only when the measure's 95 % interval lies beyond the limit,
"inside" when it lies within, and "undecided" when the games played cannot
tell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from cardgen.content.model import Limits
from cardgen.engines.base import Engine
from cardgen.errors import ContentError, Locator
from cardgen.simulation.invariants import CheckPolicy
from cardgen.simulation.runner import Progress, run_games
from cardgen.simulation.significance import beyond_bound
from cardgen.simulation.statistics import Z_95, RunInfo, summarize, value_at_rank, wilson_interval

BOUND_NAMES = ("completion_rate_min", "turns_max", "turns_p95_max", "first_player_win_rate", "balance_min",
               "draw_rate_max")


@dataclass(frozen=True)
class LimitCheck:
    name: str  # the field in ``limits:``
    measured: float
    required: str  # the limit, as text: ">= 0.99", "in [0.40, 0.60]"
    ok: bool

    def __str__(self) -> str:
        verdict = "ok" if self.ok else "FAILED"
        return f"{self.name}: measured {_show(self.measured)}, required {self.required} ({verdict})"


def measure(
    engine: Engine,
    limits: Limits,
    jobs: int = 1,
    policy: CheckPolicy = CheckPolicy(),
    progress: Progress | None = None,
    players: int | None = None,
) -> dict[str, Any]:
    """Simulate as the limits say (at ``players``, default the limits' own count) and summarise."""
    players = players or base_players(engine, limits)
    records = run_games(engine, limits.games, limits.seed, players, limits.bot, jobs, policy, progress)
    info = RunInfo(engine.game.id, limits.games, limits.seed, players, limits.bot, engine.options, engine.event_names)
    return summarize(info, records)


def base_players(engine: Engine, limits: Limits) -> int:
    """The player count the top of ``limits:`` holds at."""
    return limits.players or engine.game.meta.players.min


def checked_player_counts(limits: Limits, base: int) -> list[int]:
    """The counts ``validate --simulate`` plays: the base count, then each ``by_players`` count."""
    return [base, *sorted(int(count) for count in limits.by_players if int(count) != base)]


def check_limits(limits: Limits, summary: Mapping[str, Any], base: int | None = None) -> list[LimitCheck]:
    """Every limit that holds at the summary's player count, with its measured value (the top of
    ``limits:`` at the base count, ``by_players`` over it at its own count); violations always count."""
    players = summary["players"]
    bounds = bounds_for(limits, players, base if base is not None else players)
    checks = [LimitCheck("violations", summary["violations"], "= 0", summary["violations"] == 0)]
    if "completion_rate_min" in bounds:
        checks.append(_at_least("completion_rate_min", summary["completion_rate"], bounds["completion_rate_min"]))
    if "turns_max" in bounds:
        checks.append(_at_most("turns_max", summary["turns"]["max"], bounds["turns_max"]))
    if "turns_p95_max" in bounds:
        checks.append(_at_most("turns_p95_max", summary["turns"]["p95"], bounds["turns_p95_max"]))
    if "first_player_win_rate" in bounds:
        low, high = bounds["first_player_win_rate"]
        rate = summary["first_player_win_rate"]
        checks.append(
            LimitCheck("first_player_win_rate", rate, f"in [{_show(low)}, {_show(high)}]", low <= rate <= high)
        )
    if "balance_min" in bounds:
        checks.append(_at_least("balance_min", summary["balance"], bounds["balance_min"]))
    if "draw_rate_max" in bounds:
        checks.append(_at_most("draw_rate_max", summary["draw_rate"], bounds["draw_rate_max"]))
    return checks


def limit_errors(game_yaml: Any, checks: list[LimitCheck], players: int | None = None,
                 limits: Limits | None = None) -> list[ContentError]:
    """A content error for each failed limit, located at ``limits.<name>``, or at
    ``limits.by_players.<N>.<name>`` when that count's entry declares it."""
    def field(name: str) -> str:
        entry = limits.by_players.get(str(players)) if limits is not None and players is not None else None
        if entry is not None and getattr(entry, name, None) is not None:
            return f"limits.by_players.{players}.{name}"
        return f"limits.{name}"

    at = f" at {players} players" if players is not None else ""
    return [
        ContentError(
            f"playability limit {check.name} failed{at}: measured {_show(check.measured)}, "
            f"required {check.required}",
            Locator(file=game_yaml, field=field(check.name)),
        )
        for check in checks
        if not check.ok
    ]


def _at_least(name: str, measured: float, bound: float) -> LimitCheck:
    return LimitCheck(name, measured, f">= {_show(bound)}", measured >= bound)


def _at_most(name: str, measured: float, bound: float) -> LimitCheck:
    return LimitCheck(name, measured, f"<= {_show(bound)}", measured <= bound)


def _show(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.4g}"


# -- a sweep's cells ---------------------------------------------------------------------------------


def bounds_for(limits: Limits, players: int, base_players: int) -> dict[str, Any]:
    """The limits that hold at ``players``: the top of ``limits:`` at its ``players`` (default
    ``base_players``, the game's minimum), with that count's ``by_players`` entry over them;
    at another count only its ``by_players`` entry; none elsewhere."""
    found: dict[str, Any] = {}
    if players == (limits.players or base_players):
        found = {name: getattr(limits, name) for name in BOUND_NAMES if getattr(limits, name) is not None}
    extra = limits.by_players.get(str(players))
    if extra is not None:
        found.update({name: getattr(extra, name) for name in BOUND_NAMES if getattr(extra, name) is not None})
    return found


def cell_limit_checks(limits: Limits | None, cell: Mapping[str, Any], base_players: int) -> list[dict[str, Any]]:
    """Each limit that applies to the cell, with the measure, its 95 % interval, the verdict
    (inside / outside / undecided) and, for a rate, the one-sided p-value that it is not beyond
    the limit it looks beyond (the report's corrections use it).  The violations count in
    every cell: a game that broke an invariant is outside any limit."""
    games, done = cell["games"], cell["completed"]
    checks = [_check("violations", cell["violations"], "= 0", (cell["violations"],) * 2,
                     "outside" if cell["violations"] else "inside", None)]
    if limits is None or cell["bot"] != limits.bot:
        return checks
    for name, bound in bounds_for(limits, cell["players"], base_players).items():
        if name == "completion_rate_min":
            checks.append(_rate_check(name, done, games, None, bound))
        elif name == "draw_rate_max":
            checks.append(_rate_check(name, cell["draws"], done, bound, None))
        elif name == "first_player_win_rate":
            checks.append(_rate_check(name, cell["wins"][0] if cell["wins"] else 0.0, done, bound[1], bound[0]))
        elif name == "turns_max":
            longest = cell["turns"]["max"]
            checks.append(_check(name, longest, f"<= {_show(bound)}", (longest, longest),
                                 "outside" if longest > bound else "inside", None))
        elif name == "turns_p95_max":
            checks.append(_p95_check(cell, bound))
        elif name == "balance_min":
            checks.append(_balance_check(cell, bound))
    return checks


def _check(name: str, measured: float, required: str, interval: tuple, verdict: str, p_value: float | None
           ) -> dict[str, Any]:
    return {"name": name, "measured": measured, "required": required,
            "ci95": [round(float(v), 6) for v in interval], "verdict": verdict,
            "p_value": None if p_value is None else float(f"{p_value:.6g}"), "ok": verdict != "outside"}


def _rate_check(name: str, part: float, whole: int, high: float | None, low: float | None) -> dict[str, Any]:
    rate = part / whole if whole else 0.0
    interval = wilson_interval(float(part), whole)
    required = (f"in [{_show(low)}, {_show(high)}]" if low is not None and high is not None
                else f">= {_show(low)}" if low is not None else f"<= {_show(high)}")
    if low is not None and low >= 1:  # "every game": one game short is outside, no interval needed
        return _check(name, round(rate, 6), required, interval, "inside" if part >= whole else "outside", None)
    if high is not None and high <= 0:
        return _check(name, round(rate, 6), required, interval, "inside" if part <= 0 else "outside", None)
    above = high is not None and (low is None or rate > (low + high) / 2)
    bound = high if above else low
    p_value = beyond_bound(float(part), whole, float(bound), above)
    if (high is not None and interval[0] > high) or (low is not None and interval[1] < low):
        verdict = "outside"
    elif (high is None or interval[1] <= high) and (low is None or interval[0] >= low):
        verdict = "inside"
    else:
        verdict = "undecided"
    return _check(name, round(rate, 6), required, interval, verdict, p_value)


def _p95_check(cell: Mapping[str, Any], bound: float) -> dict[str, Any]:
    """The 95th percentile's interval from the order statistics around its rank (binomial ranks)."""
    histogram, done = cell["turns_histogram"], cell["completed"]
    p95 = cell["turns"]["p95"]
    if not done:
        return _check("turns_p95_max", p95, f"<= {_show(bound)}", (0, 0), "undecided", None)
    spread = Z_95 * math.sqrt(done * 0.95 * 0.05)
    low_rank = max(1, math.floor(done * 0.95 - spread))
    high_rank = min(done, math.ceil(done * 0.95 + spread) + 1)
    interval = (value_at_rank(histogram, low_rank), value_at_rank(histogram, high_rank))
    within = sum(count for turns, count in histogram if turns <= bound)
    p_value = beyond_bound(float(within), done, 0.95, above=False)
    verdict = "outside" if interval[0] > bound else "inside" if interval[1] <= bound else "undecided"
    return _check("turns_p95_max", p95, f"<= {_show(bound)}", interval, verdict, p_value)


def _balance_check(cell: Mapping[str, Any], bound: float) -> dict[str, Any]:
    """Balance's interval from the seats' own: at worst the best seat's top against the worst
    seat's bottom, at best the two pulled together (a conservative interval, so no p-value)."""
    rates, intervals = cell["win_rates"], cell["win_rates_ci95"]
    best, worst = rates.index(max(rates)), rates.index(min(rates))
    low = 1 - (intervals[best][1] - intervals[worst][0])
    high = 1 - max(0.0, intervals[best][0] - intervals[worst][1])
    verdict = "outside" if high < bound else "inside" if low >= bound else "undecided"
    return _check("balance_min", cell["balance"], f">= {_show(bound)}", (max(0.0, low), min(1.0, high)), verdict,
                  None)
