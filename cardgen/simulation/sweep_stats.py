"""Exact per-cell aggregates of a sweep, and the figures made from them.

A :class:`CellTally` folds game records in any order and ends with the same
state: counts are integers, game lengths and the winners' margins (over the
runner-up, read the engine's way by the worker) histograms, and
sums of scores and of shared-win credit are kept as fractions (a float is an
exact fraction), so no rounding happens until :func:`tally_summary` writes
the figures, rounded to six digits like ``cardgen simulate``'s summary.
Rates count completed games; a win shared by ``k`` seats gives each ``1/k``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any, Mapping, Sequence

from cardgen.simulation.statistics import VIOLATION_EXAMPLES, value_at_rank, wilson_interval

DIGITS = 6
MEASURES = ("turns_mean", "first_player_win_rate", "last_player_win_rate", "draw_rate", "completion_rate", "balance",
            "margin_mean")


class CellTally:
    """Everything a cell's figures need, summed exactly.

    ``mixed``: the cell seats one bot against another, the first one's seat turning game by
    game (game ``i``: seat ``i % players``); the tally then also counts, per seat of that bot,
    its games, its win credit and the draws.
    """

    def __init__(self, players: int, mixed: bool = False):
        self.players = players
        self.mixed = mixed
        self.games = 0
        self.completed = 0
        self.turns: Counter[int] = Counter()
        self.wins: list[Fraction | int] = [0] * players
        self.scores: list[Fraction | int] = [0] * players
        self.margins: Counter[float] = Counter()
        self.draws = 0
        self.shared_wins = 0
        self.events: Counter[str] = Counter()
        self.violations: list[tuple[int, str]] = []  # (game index, message), the lowest indices kept
        self.violation_count = 0
        self.sampled = 0  # checked games, whose choices were counted
        self.sampled_turns = 0
        self.decisions = 0
        self.branching = 0
        self.scored_games = 0  # checked games of an engine with a running score (GameState.standing)
        self.lead_changes = 0
        self.winner_games = 0  # of those, the ones with a sole winner
        self.behind = 0
        self.scored_turns = 0
        self.lead_games = [0] * players if mixed else []
        self.lead_wins: list[Fraction | int] = [0] * players if mixed else []
        self.lead_draws = [0] * players if mixed else []

    def add(self, records: Sequence[Sequence[Any]]) -> None:
        for index, turns, violation, winners, scores, draw, events, extra in records:
            self.games += 1
            if violation is not None:
                self.violation_count += 1
                self.violations = sorted([*self.violations, (index, violation)])[:VIOLATION_EXAMPLES]
                continue
            self.completed += 1
            self.turns[turns] += 1
            if len(winners) == 1:
                self.wins[winners[0]] += 1
            elif winners:
                self.shared_wins += 1
                for seat in winners:
                    self.wins[seat] += Fraction(1, len(winners))
            self.draws += bool(draw)
            for seat, score in enumerate(scores):
                self.scores[seat] += int(score) if float(score).is_integer() else Fraction(score)
            if len(scores) > 1:
                self.margins[extra["margin"]] += 1
            for name, count in events:
                self.events[name] += count
            if "decisions" in extra:
                self.sampled += 1
                self.sampled_turns += turns
                self.decisions += extra["decisions"]
                self.branching += extra["branching"]
            if "lead_changes" in extra:
                self.scored_games += 1
                self.lead_changes += extra["lead_changes"]
            if "behind" in extra:
                self.winner_games += 1
                self.behind += extra["behind"]
                self.scored_turns += extra["scored_turns"]
            if self.mixed:
                lead = index % self.players
                self.lead_games[lead] += 1
                self.lead_draws[lead] += bool(draw)
                if lead in winners:
                    self.lead_wins[lead] += Fraction(1, len(winners)) if len(winners) > 1 else 1

    def merge(self, other: "CellTally") -> None:
        """Fold in another tally of the same cell (a chunk's, made where the chunk was played):
        the state is the one :meth:`add` of both tallies' records gives, in any order."""
        if other.players != self.players or other.mixed != self.mixed:
            raise ValueError(f"cannot merge a {other.players}-player tally into a {self.players}-player one"
                             if other.players != self.players else "cannot merge a mixed-bot tally with another")
        self.games += other.games
        self.completed += other.completed
        self.turns.update(other.turns)
        self.wins = [mine + theirs for mine, theirs in zip(self.wins, other.wins)]
        self.scores = [mine + theirs for mine, theirs in zip(self.scores, other.scores)]
        self.margins.update(other.margins)
        self.draws += other.draws
        self.shared_wins += other.shared_wins
        self.events.update(other.events)
        # each tally keeps its lowest indices, so the lowest of both are among them
        self.violations = sorted([*self.violations, *other.violations])[:VIOLATION_EXAMPLES]
        self.violation_count += other.violation_count
        self.sampled += other.sampled
        self.sampled_turns += other.sampled_turns
        self.decisions += other.decisions
        self.branching += other.branching
        self.scored_games += other.scored_games
        self.lead_changes += other.lead_changes
        self.winner_games += other.winner_games
        self.behind += other.behind
        self.scored_turns += other.scored_turns
        self.lead_games = [mine + theirs for mine, theirs in zip(self.lead_games, other.lead_games)]
        self.lead_wins = [mine + theirs for mine, theirs in zip(self.lead_wins, other.lead_wins)]
        self.lead_draws = [mine + theirs for mine, theirs in zip(self.lead_draws, other.lead_draws)]


def tally_summary(tally: CellTally, event_names: Sequence[str] = ()) -> dict[str, Any]:
    """The cell's figures (the keys ``check_limits`` reads among them).

    A fair share counts only the games somebody won: with draws, every seat of a
    fair game wins ``(1 - draw rate) / players`` of the games.
    """
    done = tally.completed
    rates = [_ratio(w, done) for w in tally.wins]
    intervals = [wilson_interval(float(w), done) for w in tally.wins]
    lengths = sorted(tally.turns.items())
    margin_total = sum((Fraction(m) * n for m, n in tally.margins.items()), Fraction(0))
    events = Counter({name: 0 for name in event_names})
    events.update(tally.events)
    summary: dict[str, Any] = {
        "completed": done,
        "completion_rate": _round(_ratio(done, tally.games)),
        "violations": tally.violation_count,
        "violation_examples": [message for _, message in tally.violations],
        "turns": _turns(lengths, done),
        "turns_histogram": [[turns, count] for turns, count in lengths],
        "wins": [_round(float(w)) for w in tally.wins],
        "win_rates": [_round(r) for r in rates],
        "win_rates_ci95": [[_round(low), _round(high)] for low, high in intervals],
        "fair_share": _round(_ratio(done - tally.draws, done) / tally.players) if done else 0.0,
        "shared_wins": tally.shared_wins,
        "draws": tally.draws,
        "draw_rate": _round(_ratio(tally.draws, done)),
        "first_player_win_rate": _round(rates[0]) if rates else 0.0,
        "last_player_win_rate": _round(rates[-1]) if rates else 0.0,
        "balance": _round(1.0 - (max(rates) - min(rates))) if rates and done else 0.0,
        "scores_mean": [_round(_ratio(s, done)) for s in tally.scores],
        "margin_mean": _round(_ratio(margin_total, sum(tally.margins.values()))),
        "margin_histogram": [[_number(m), n] for m, n in sorted(tally.margins.items())],
        "choices": {
            "games_counted": tally.sampled,
            "decision_share": _round(_ratio(tally.decisions, tally.sampled_turns)),
            "branching_mean": _round(_ratio(tally.branching, tally.sampled_turns)),
        },
        "drama": {
            "games_counted": tally.scored_games,
            "lead_changes_mean": _round(_ratio(tally.lead_changes, tally.scored_games)),
            "winner_games": tally.winner_games,
            "winner_behind_share": _round(_ratio(tally.behind, tally.scored_turns)),
        },
        "events": dict(sorted(events.items())),
        "events_per_game": {k: _round(_ratio(v, done)) for k, v in sorted(events.items())},
    }
    summary["turns_mean"] = summary["turns"]["mean"]
    summary["balance_if_fair"] = balance_if_fair(tally.players, summary["fair_share"], done)
    if tally.mixed:
        summary["lead_seats"] = [
            {"seat": seat + 1, "games": games, "wins": _round(float(wins)), "draws": draws,
             "win_rate": _round(_ratio(wins, games)),
             "win_rate_ci95": [_round(v) for v in wilson_interval(float(wins), games)]}
            for seat, (games, wins, draws) in enumerate(zip(tally.lead_games, tally.lead_wins, tally.lead_draws))
        ]
    return summary


#: Expected range of k independent standard normals (d2 of quality control), and its 95th
#: percentile (the studentized range with infinite degrees of freedom), k = 2..10.
_RANGE_MEAN = {2: 1.128, 3: 1.693, 4: 2.059, 5: 2.326, 6: 2.534, 7: 2.704, 8: 2.847, 9: 2.970, 10: 3.078}
_RANGE_95 = {2: 2.772, 3: 3.314, 4: 3.633, 5: 3.858, 6: 4.030, 7: 4.170, 8: 4.286, 9: 4.387, 10: 4.474}


def balance_if_fair(players: int, fair: float, games: int) -> dict[str, float] | None:
    """What balance a perfectly fair game shows at this many games, from noise alone: its
    expected value and the value 5 % of such sweeps fall below.  Two seats' win rates differ by
    noise with variance ``2 p / n`` (p: a seat's fair share), as for independent normals of
    variance ``p / n``; the largest gap of ``players`` of them is their range (at 2,000 games a
    fair 4-player game shows 0.977, and 5 % of sweeps fall below 0.959)."""
    if players not in _RANGE_MEAN or not games or not fair:
        return None
    spread = (fair / games) ** 0.5
    return {"expected": _round(1 - _RANGE_MEAN[players] * spread), "low5": _round(1 - _RANGE_95[players] * spread)}


def effects(options: Sequence[tuple[str, Sequence[str]]], cells: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """For each varied option: per value, per setting of everything else (the bot, the other
    varied options) and per player count, the cell's own measures with their 95 % intervals.
    Nothing is averaged: each entry is one cell."""
    found: dict[str, Any] = {}
    for name, values in options:
        per_value: dict[str, Any] = {}
        for value in values:
            settings: dict[str, Any] = {}
            for cell in cells:
                if cell["varied"].get(name) != value:
                    continue
                others = [f"{n}={v}" for n, v in cell["varied"].items() if n != name]
                setting = ", ".join([f"bot {cell['bot']}", *others])
                settings.setdefault(setting, {})[str(cell["players"])] = _cell_measures(cell)
            per_value[value] = settings
        found[name] = per_value
    return found


def _cell_measures(cell: Mapping[str, Any]) -> dict[str, Any]:
    from cardgen.simulation.statistics import Z_95

    done = cell["completed"]
    half = Z_95 * cell["turns"]["sd"] / done ** 0.5 if done else 0.0
    first = wilson_interval(float(cell["wins"][0]) if cell["wins"] else 0.0, done)
    draws = wilson_interval(float(cell["draws"]), done)
    return {
        "cell": cell["cell"],
        **{m: cell[m] for m in MEASURES},
        "turns_mean_ci95": [_round(cell["turns_mean"] - half), _round(cell["turns_mean"] + half)],
        "first_player_win_rate_ci95": [_round(v) for v in first],
        "draw_rate_ci95": [_round(v) for v in draws],
        "fair_share": cell["fair_share"],
    }


def _turns(lengths: list[tuple[int, int]], total: int) -> dict[str, float]:
    if not total:
        return {"mean": 0.0, "sd": 0.0, "p5": 0, "p25": 0, "p50": 0, "p75": 0, "p95": 0, "min": 0, "max": 0}
    mean = Fraction(sum(t * n for t, n in lengths), total)
    variance = sum((t - mean) ** 2 * n for t, n in lengths) / (total - 1) if total > 1 else Fraction(0)
    return {
        "mean": _round(mean),
        "sd": _round(float(variance) ** 0.5),
        "p5": _nearest_rank(lengths, total, 5),
        "p25": _nearest_rank(lengths, total, 25),
        "p50": _nearest_rank(lengths, total, 50),
        "p75": _nearest_rank(lengths, total, 75),
        "p95": _nearest_rank(lengths, total, 95),
        "min": lengths[0][0],
        "max": lengths[-1][0],
    }


def _nearest_rank(lengths: list[tuple[int, int]], total: int, percent: int) -> int:
    """Nearest-rank percentile from a histogram (the same as statistics.percentile on the list)."""
    return value_at_rank(lengths, max(1, -(-percent * total // 100)))


def _ratio(part: Any, whole: int) -> float:
    return float(Fraction(part) / whole) if whole else 0.0


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _round(value: float) -> float:
    return round(float(value), DIGITS)
