"""The claims a sweep report makes, each with its estimate, interval and test.

A claim is about one cell (never an average over cells):

* **seat**: a seat's win rate against its fair share.  The fair share counts
  only games somebody won (a shared win of ``k`` seats gives each ``1/k``), so
  in a fair game with 17 % draws every one of two seats wins 41.5 %.  The test
  asks whether the seat's share of the won games is ``1 / players``;
* **skill**: in a cell seating one bot against another (``greedy+random``,
  the first bot's seat turning game by game), that bot's win rate against the
  same fair share;
* **option**: a cell with a rule option at another value against the cell that
  differs from it only by having the game's default value there (the first
  value swept when the default was not), on game length, the first seat's win
  rate and the draw rate;
* **limit**: a rate limit of the game (``limits:``) that the cell's figure lies
  beyond.

All claims of a report form one family: the p-values are adjusted by Holm's
method over all of them, and a claim is ``significant`` when its adjusted
p-value is below 0.05.  So a report of forty claims about a fair game says
"no detectable advantage" everywhere 95 times in 100.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardgen.simulation.significance import (
    ALPHA, binomial_test, detectable, difference_interval, holm, two_means, two_proportions,
)
from cardgen.simulation.statistics import Z_95, wilson_interval

DIGITS = 6
OPTION_MEASURES = ("turns_mean", "first_player_win_rate", "draw_rate")


def build_findings(cells: Sequence[Mapping[str, Any]], varied: Sequence[tuple[str, Sequence[str]]],
                   baselines: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every claim of the report, in cell order, with Holm-adjusted p-values; ``baselines`` maps
    each varied option to the value the others are compared with."""
    found: list[dict[str, Any]] = []
    for cell in cells:
        if not cell["completed"]:
            continue
        if "lead_seats" in cell:
            found.append(_skill(cell))
        else:
            found.extend(_seats(cell))
    found.extend(_options(cells, varied, baselines))
    for cell in cells:
        found.extend(_limits(cell))
    tested = [f for f in found if f["p_value"] is not None]
    for finding, adjusted in zip(tested, holm([f["p_value"] for f in tested])):
        finding["p_adjusted"] = _p(adjusted)
        finding["significant"] = adjusted < ALPHA
    for finding in found:
        finding.setdefault("p_adjusted", None)
        finding.setdefault("significant", finding.get("verdict") == "outside")
    claims = len(tested)
    for finding in found:  # what a test of this size would have found, at the first Holm step
        if finding["measure"] in ("win_rate", "skill_win_rate"):
            finding["detectable"] = _round(_detectable(finding, claims))
    return found


def _seats(cell: Mapping[str, Any]) -> list[dict[str, Any]]:
    players, done = cell["players"], cell["completed"]
    decided = done - cell["draws"]
    return [
        {"cell": cell["cell"], "label": cell["label"], "players": players, "measure": "win_rate", "seat": seat + 1,
         "estimate": rate, "expected": cell["fair_share"], "ci95": cell["win_rates_ci95"][seat], "games": done,
         "decided": decided, "p_value": _p(binomial_test(cell["wins"][seat], decided, 1 / players))}
        for seat, rate in enumerate(cell["win_rates"])
    ]


def _skill(cell: Mapping[str, Any]) -> dict[str, Any]:
    done, players = cell["completed"], cell["players"]
    lead, other = cell["bot"].split("+")[:2]
    wins = sum(row["wins"] for row in cell["lead_seats"])
    draws = cell["draws"]
    return {"cell": cell["cell"], "label": cell["label"], "players": players, "measure": "skill_win_rate",
            "bot": lead, "against": other, "estimate": _round(wins / done), "expected": cell["fair_share"],
            "ci95": [_round(v) for v in wilson_interval(wins, done)], "games": done, "decided": done - draws,
            "p_value": _p(binomial_test(round(wins, 6), done - draws, 1 / players))}


def _options(cells: Sequence[Mapping[str, Any]], varied: Sequence[tuple[str, Sequence[str]]],
             baselines: Mapping[str, str]) -> list[dict[str, Any]]:
    found = []
    by_setting = {(c["players"], c["bot"], tuple(sorted(c["varied"].items()))): c for c in cells}
    for name, values in varied:
        base_value = baselines[name]
        for cell in cells:
            value = cell["varied"].get(name)
            if value is None or value == base_value or not cell["completed"]:
                continue
            setting = tuple(sorted({**cell["varied"], name: base_value}.items()))
            base = by_setting.get((cell["players"], cell["bot"], setting))
            if base is None or not base["completed"]:
                continue
            for measure in OPTION_MEASURES:
                found.append(_option_claim(cell, base, name, value, base_value, measure))
    return found


def _option_claim(cell: Mapping[str, Any], base: Mapping[str, Any], name: str, value: str, base_value: str,
                  measure: str) -> dict[str, Any]:
    n1, n0 = cell["completed"], base["completed"]
    if measure == "turns_mean":
        m1, s1 = cell["turns"]["mean"], cell["turns"]["sd"]
        m0, s0 = base["turns"]["mean"], base["turns"]["sd"]
        p_value, (low, high) = two_means(m1, s1 * s1, n1, m0, s0 * s0, n0)
        half = Z_95 * s1 / n1 ** 0.5
        estimate, expected, interval = m1, m0, (m1 - half, m1 + half)
    else:
        x1, x0 = _count(cell, measure), _count(base, measure)
        p_value = two_proportions(x1, n1, x0, n0)
        low, high = difference_interval(x1, n1, x0, n0)
        estimate, expected, interval = cell[measure], base[measure], wilson_interval(x1, n1)
    return {"cell": cell["cell"], "label": cell["label"], "players": cell["players"], "measure": measure,
            "option": f"{name}={value}", "baseline": f"{name}={base_value}", "baseline_cell": base["cell"],
            "estimate": estimate, "expected": expected, "ci95": [_round(v) for v in interval],
            "difference": _round(estimate - expected), "difference_ci95": [_round(low), _round(high)],
            "games": n1, "p_value": _p(p_value)}


def _count(cell: Mapping[str, Any], measure: str) -> float:
    return float(cell["draws"]) if measure == "draw_rate" else float(cell["wins"][0])


def _limits(cell: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"cell": cell["cell"], "label": cell["label"], "players": cell["players"], "measure": f"limit:{check['name']}",
         "estimate": check["measured"], "expected": check["required"], "ci95": check["ci95"],
         "verdict": check["verdict"], "games": cell["games"], "p_value": check["p_value"]}
        for check in cell["limits"] if check["name"] != "violations" and check["verdict"] != "inside"
    ]


def _detectable(finding: Mapping[str, Any], claims: int) -> float:
    """In points of the seat's win rate over all completed games."""
    games, decided, players = finding["games"], finding["decided"], finding["players"]
    return detectable(decided, 1 / players, claims) * decided / games if games else float("inf")


def cell_verdict(findings: Sequence[Mapping[str, Any]], cell: int) -> dict[str, Any]:
    """The cell's seat claims summed up for a sentence: the significant ones, and the smallest gap
    the cell's games would have shown."""
    seats = [f for f in findings if f["cell"] == cell and f["measure"] == "win_rate"]
    return {"significant": [f for f in seats if f["significant"]],
            "detectable": max((f["detectable"] for f in seats), default=None)}


def _p(value: float) -> float:
    """Six significant digits: a p-value of 1e-12 stays 1e-12 rather than becoming 0."""
    return float(f"{value:.6g}")


def _round(value: float) -> float:
    return round(float(value), DIGITS)
