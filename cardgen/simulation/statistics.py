"""From game records to the figures ``cardgen simulate`` reports.

The summary is plain data (written as JSON by ``--json``).  Rates count the
completed games; a shared win of ``k`` seats gives each ``1/k`` of a win, so
that the seats' win rates and the draw rate add up to one.  Balance follows
Ludii: one minus the largest gap between two seats' win rates.  Every float
is rounded so that the JSON is the same on every machine and for any
``--jobs``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from cardgen.simulation.runner import GameRecord

Z_95 = 1.959963984540054
DIGITS = 6
VIOLATION_EXAMPLES = 10


@dataclass(frozen=True)
class RunInfo:
    """What was simulated, echoed into the summary."""

    game: str
    games: int
    seed: int
    players: int
    bot: str
    options: Mapping[str, Any]
    event_names: Sequence[str] = ()  # reported even when they never happened


def summarize(info: RunInfo, records: Sequence[GameRecord]) -> dict[str, Any]:
    done = [record for record in records if record.completed]
    wins = _win_credit(done, info.players)
    draws = sum(1 for record in done if record.draw)
    rates = [_rate(w, len(done)) for w in wins]
    first_low, first_high = wilson_interval(wins[0] if wins else 0.0, len(done))
    events = _event_totals(done)
    for name in info.event_names:
        events.setdefault(name, 0)
    return {
        "game": info.game,
        "games": info.games,
        "seed": info.seed,
        "players": info.players,
        "bot": info.bot,
        "options": {name: info.options[name] for name in sorted(info.options)},
        "completed": len(done),
        "completion_rate": _round(_rate(len(done), len(records))),
        "violations": len(records) - len(done),
        "violation_examples": [r.violation for r in records if r.violation][:VIOLATION_EXAMPLES],
        "turns": turn_stats([record.turns for record in done]),
        "wins": [_round(w) for w in wins],
        "win_rates": [_round(r) for r in rates],
        "shared_wins": sum(1 for record in done if len(record.winners) > 1),
        "draws": draws,
        "draw_rate": _round(_rate(draws, len(done))),
        "first_player_win_rate": _round(rates[0] if rates else 0.0),
        "first_player_win_rate_ci95": [_round(first_low), _round(first_high)],
        "balance": _round(1.0 - (max(rates) - min(rates))) if rates else 0.0,
        "scores_mean": [_round(s) for s in _mean_scores(done, info.players)],
        "events": dict(sorted(events.items())),
        "events_per_game": {k: _round(_rate(v, len(done))) for k, v in sorted(events.items())},
    }


def turn_stats(turns: Sequence[int]) -> dict[str, float]:
    """Mean, median, 95th percentile (nearest rank) and extremes of game lengths."""
    if not turns:
        return {"mean": 0.0, "p50": 0, "p95": 0, "min": 0, "max": 0}
    ordered = sorted(turns)
    return {
        "mean": _round(sum(ordered) / len(ordered)),
        "p50": percentile(ordered, 50),
        "p95": percentile(ordered, 95),
        "min": ordered[0],
        "max": ordered[-1],
    }


def percentile(ordered: Sequence[int], percent: float) -> int:
    """Nearest-rank percentile of sorted values."""
    rank = max(1, math.ceil(percent / 100 * len(ordered)))
    return ordered[rank - 1]


def value_at_rank(histogram: Sequence[tuple[int, int]], rank: int) -> int:
    """The value of the ``rank``-th game (1-based) in a histogram of ``(value, games)`` pairs sorted
    by value; the last value when ``rank`` is beyond the games counted."""
    seen = 0
    for value, count in histogram:
        seen += count
        if seen >= rank:
            return value
    return histogram[-1][0]


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


def _win_credit(records: Sequence[GameRecord], players: int) -> list[float]:
    credit = [0.0] * players
    for record in records:
        for seat in record.winners:
            credit[seat] += 1.0 / len(record.winners)
    return credit


def _mean_scores(records: Sequence[GameRecord], players: int) -> list[float]:
    totals = [0.0] * players
    for record in records:
        for seat, score in enumerate(record.scores):
            totals[seat] += score
    return [_rate(total, len(records)) for total in totals]


def _event_totals(records: Sequence[GameRecord]) -> Counter[str]:
    totals: Counter[str] = Counter()
    for record in records:
        totals.update(record.events)
    return totals


def _rate(part: float, whole: int) -> float:
    return part / whole if whole else 0.0


def _round(value: float) -> float:
    return round(value, DIGITS)
