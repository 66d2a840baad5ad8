"""Playability limits: the content's ``limits:`` section against a summary.

``check_limits`` compares each declared limit with the measured figure and
returns one :class:`LimitCheck` per limit; ``limit_errors`` turns the failed
ones into content errors that point at the limit in ``game.yaml`` and say the
measured value.  ``measure`` runs the simulation the limits ask for (their
games, seed, players and bot).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from cardgen.content.model import Limits
from cardgen.engines.base import Engine
from cardgen.errors import ContentError, Locator
from cardgen.simulation.invariants import CheckPolicy
from cardgen.simulation.runner import Progress, run_games
from cardgen.simulation.statistics import RunInfo, summarize


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
) -> dict[str, Any]:
    """Simulate as the limits say and summarise."""
    players = limits.players or engine.game.meta.players.min
    records = run_games(engine, limits.games, limits.seed, players, limits.bot, jobs, policy, progress)
    info = RunInfo(engine.game.id, limits.games, limits.seed, players, limits.bot, engine.options, engine.event_names)
    return summarize(info, records)


def check_limits(limits: Limits, summary: Mapping[str, Any]) -> list[LimitCheck]:
    """Every declared limit with its measured value; violations always count."""
    checks = [
        LimitCheck("violations", summary["violations"], "= 0", summary["violations"] == 0),
        _at_least("completion_rate_min", summary["completion_rate"], limits.completion_rate_min),
        _at_most("turns_max", summary["turns"]["max"], limits.turns_max),
    ]
    if limits.turns_p95_max is not None:
        checks.append(_at_most("turns_p95_max", summary["turns"]["p95"], limits.turns_p95_max))
    if limits.first_player_win_rate is not None:
        low, high = limits.first_player_win_rate
        rate = summary["first_player_win_rate"]
        checks.append(
            LimitCheck("first_player_win_rate", rate, f"in [{_show(low)}, {_show(high)}]", low <= rate <= high)
        )
    if limits.balance_min is not None:
        checks.append(_at_least("balance_min", summary["balance"], limits.balance_min))
    if limits.draw_rate_max is not None:
        checks.append(_at_most("draw_rate_max", summary["draw_rate"], limits.draw_rate_max))
    return checks


def limit_errors(game_yaml: Any, checks: list[LimitCheck]) -> list[ContentError]:
    """A content error for each failed limit, located at ``limits.<name>``."""
    return [
        ContentError(
            f"playability limit {check.name} failed: measured {_show(check.measured)}, required {check.required}",
            Locator(file=game_yaml, field=f"limits.{check.name}"),
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
