"""The sweep report's plots, drawn for a designer to read at a glance.

Rules every plot keeps: a rate sits on a 0-100 % axis (never a zoom that makes
noise look like a slope); a count has whole-number ticks; every axis says what
it measures and in what unit ("turns" for game length, the one word the CLI
uses too); a legend or a note never sits on the data; a measure taken at one
player count is a bar with its 95 % interval, not a lone dot; an option's
default value is drawn solid and named "(default)".
"""

from __future__ import annotations

import io
from typing import Any, Mapping, Sequence

COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#455a64"]
GREY = "#555555"

#: The option plot's panels: measure, title, whether it is a rate, its interval's key.
OPTION_PANELS = (
    ("turns_mean", "game length (turns, mean)", False, "turns_mean_ci95"),
    ("first_player_win_rate", "seat 1's win rate", True, "first_player_win_rate_ci95"),
    ("draw_rate", "draw rate", True, "draw_rate_ci95"),
    ("balance", "balance (1 - largest seat gap)", True, None),
    ("completion_rate", "games completed", True, None),
    ("margin_mean", "winner's margin (mean, in the game's score)", False, None),
)


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "cardgen-sweep", "svg.fonttype": "none", "font.size": 9,
                         "font.family": "DejaVu Sans",
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def cell_figure(cell: Mapping[str, Any]) -> bytes:
    """Game lengths (histogram), win rates by seat with 95 % intervals, and the winner's margin."""
    plt = pyplot()
    figure, (lengths, seats, margins) = plt.subplots(1, 3, figsize=(10, 2.9), gridspec_kw={"width_ratios": [3, 2, 2]})
    _lengths(lengths, cell)
    if "lead_seats" in cell:
        _lead_seats(seats, cell)
    else:
        _seats(seats, cell)
    _margins(margins, cell)
    figure.tight_layout()
    return svg(figure)


def _lengths(axis: Any, cell: Mapping[str, Any]) -> None:
    histogram = cell["turns_histogram"]
    if histogram:
        axis.bar([t for t, _ in histogram], [n for _, n in histogram], width=1.0, color=COLOURS[0])
        p95 = cell["turns"]["p95"]
        axis.axvline(p95, color=COLOURS[1], linestyle="--", linewidth=1)
        # named above the plot area, where no bar reaches
        axis.annotate(f"95 % of games: {p95} turns or fewer", xy=(p95, 1.0), xycoords=("data", "axes fraction"),
                      xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=8,
                      color=COLOURS[1])
        shortest, longest = histogram[0][0], histogram[-1][0]
        pad = max(2, (longest - shortest) // 20)  # a game length of one value still gets whole ticks around it
        axis.set_xlim(shortest - pad, longest + pad)
    axis.set_xlabel("game length (turns)")
    axis.set_ylabel("games")
    _whole_ticks(axis.xaxis)
    _whole_ticks(axis.yaxis)


def _seats(axis: Any, cell: Mapping[str, Any]) -> None:
    rates, intervals = cell["win_rates"], cell["win_rates_ci95"]
    positions = list(range(1, len(rates) + 1))
    axis.bar(positions, rates, yerr=_errors(rates, intervals), capsize=3, color=COLOURS[2], width=0.6)
    _fair_line(axis, cell["fair_share"])
    axis.set_xticks(positions)
    axis.set_xlabel(f"seat (dotted: fair share {cell['fair_share'] * 100:.1f} %;\nbars: 95 % intervals)")
    _rate_axis(axis, "win rate")


def _lead_seats(axis: Any, cell: Mapping[str, Any]) -> None:
    lead, other = cell["bot"].split("+", 1)
    rows = cell["lead_seats"]
    rates = [row["win_rate"] for row in rows]
    positions = list(range(1, len(rows) + 1))
    axis.bar(positions, rates, yerr=_errors(rates, [row["win_rate_ci95"] for row in rows]), capsize=3,
             color=COLOURS[4], width=0.6)
    _fair_line(axis, cell["fair_share"])
    axis.set_xticks(positions)
    axis.set_xlabel(f"{lead}'s seat, against {other} (dotted:\nfair share {cell['fair_share'] * 100:.1f} %; bars: 95 % intervals)")
    _rate_axis(axis, f"{lead}'s win rate")


def _margins(axis: Any, cell: Mapping[str, Any]) -> None:
    margin = cell["margin_histogram"]
    if margin:
        axis.bar([float(m) for m, _ in margin], [n for _, n in margin], width=0.8, color=COLOURS[3])
    axis.set_xlabel("winner's margin over the runner-up\n(game's score; 0: shared win or draw)")
    axis.set_ylabel("games")
    _whole_ticks(axis.yaxis)
    if all(float(m).is_integer() for m, _ in margin):
        _whole_ticks(axis.xaxis)


def option_figure(document: Mapping[str, Any], name: str) -> bytes:
    """Per setting of everything else (bot, other options) two rows of three panels, one per
    measure: each value of ``name`` against the player count, lines with 95 % intervals, or
    bars where the sweep has one player count."""
    plt = pyplot()
    effects = document["effects"][name]
    values = list(effects)
    baseline = document["baselines"][name]
    settings = list(dict.fromkeys(setting for value in values for setting in effects[value]))
    players = document["grid"]["players"]
    columns = 3
    rows_per_setting = -(-len(OPTION_PANELS) // columns)
    height = (2.2 * rows_per_setting + (0.3 if len(settings) > 1 else 0)) * len(settings) + 0.7
    figure, axes = plt.subplots(rows_per_setting * len(settings), columns, figsize=(10, height), squeeze=False)
    for number, setting in enumerate(settings):
        for index, (measure, title, is_rate, interval_key) in enumerate(OPTION_PANELS):
            axis = axes[number * rows_per_setting + index // columns][index % columns]
            _option_panel(axis, effects, values, baseline, setting, players, measure, interval_key)
            axis.set_title(title, fontsize=8)
            if len(settings) > 1 and index == 1:  # the setting over its group's middle panel
                axis.annotate(setting, xy=(0.5, 1.16), xycoords="axes fraction", ha="center", va="bottom",
                              fontsize=9, fontweight="bold")
            if is_rate:
                _rate_axis(axis, "")
            if len(players) > 1:
                axis.set_xticks(players)
                axis.set_xlabel("players")
            else:
                axis.set_xticks(range(len(values)))
                axis.set_xticklabels([_value_label(v, baseline) for v in values], fontsize=7)
                axis.set_xlabel(f"{name} ({players[0]} players)")
            if measure == "turns_mean":
                axis.set_ylabel("turns")
    handles = [plt.Line2D([], [], color=COLOURS[i % len(COLOURS)], linestyle="-" if v == baseline else "--",
                          marker="o") for i, v in enumerate(values)]
    # below every panel: a legend inside one would sit on its lines
    figure.legend(handles, [_value_label(v, baseline) for v in values], title=name, loc="lower center",
                  ncol=len(values), frameon=False, fontsize=8)
    figure.tight_layout(rect=(0, 0.75 / height, 1, 1))
    return svg(figure)


def _option_panel(axis: Any, effects: Mapping[str, Any], values: Sequence[str], baseline: str, setting: str,
                  players: Sequence[int], measure: str, interval_key: str | None) -> None:
    for i, value in enumerate(values):
        by_players = effects[value].get(setting, {})
        xs = [int(p) for p in by_players]
        ys = [by_players[p][measure] for p in by_players]
        errors = None
        if interval_key:
            errors = _errors(ys, [by_players[p][interval_key] for p in by_players])
        colour = COLOURS[i % len(COLOURS)]
        if len(players) > 1:
            axis.errorbar(xs, ys, yerr=errors, marker="o", markersize=3, capsize=2, color=colour,
                          linestyle="-" if value == baseline else "--", linewidth=1.6 if value == baseline else 1)
        elif ys:
            axis.bar([i], ys, yerr=errors, capsize=3, color=colour, width=0.6,
                     hatch=None if value == baseline else "//", edgecolor="white")


def _value_label(value: str, baseline: str) -> str:
    return f"{value} (default)" if value == baseline else value


def _errors(values: Sequence[float], intervals: Sequence[Sequence[float]]) -> list[list[float]]:
    return [[max(0.0, v - low) for v, (low, _) in zip(values, intervals)],
            [max(0.0, high - v) for v, (_, high) in zip(values, intervals)]]


def _fair_line(axis: Any, fair: float) -> None:
    # named in the axis label: a note on the line would sit on the bars that reach it
    axis.axhline(fair, color=GREY, linestyle=":", linewidth=1.2)


def _rate_axis(axis: Any, label: str) -> None:
    from matplotlib.ticker import FuncFormatter, MultipleLocator

    axis.set_ylim(0, 1)
    axis.yaxis.set_major_locator(MultipleLocator(0.25))
    axis.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v * 100:.0f} %"))
    if label:
        axis.set_ylabel(label)


def _whole_ticks(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def svg(figure: Any) -> bytes:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "cardgen"})
    plt.close(figure)
    return buffer.getvalue()
