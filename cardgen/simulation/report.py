"""The sweep report: ``report.html`` (and ``report.pdf``) from ``sweep.json`` alone.

Plots are drawn by matplotlib as SVG and embedded as data URIs, so the
report is one file that opens without a network, in a browser or a PDF
viewer; the PDF is the same HTML through WeasyPrint, which may fetch nothing
but those data URIs and cardgen's own fonts.  Contents:

* a plain-language summary: per player count how the first and the last seat
  fare against a fair share, the largest gap between two seats, how each
  option moves the game's length and the seats' chances, the cells outside
  the game's ``limits:``, and whether any game broke an invariant;
* per option, how each measure moves with its values at each player count;
* per cell, the game-length distribution, each seat's win rate with its 95 %
  interval, draws, completion, the gap between the top two scores (the score
  margin, in the game's own score) and the limits it fails.
"""

from __future__ import annotations

import base64
import html
import io
import logging
import re
from pathlib import Path
from typing import Any, Mapping

from cardgen.cards.fonts import FONT_DIR

MEASURE_NAMES = {
    "turns_mean": "mean game length (moves)",
    "first_player_win_rate": "first seat's win rate",
    "last_player_win_rate": "last seat's win rate",
    "draw_rate": "draw rate",
    "completion_rate": "completion rate",
    "balance": "balance (1 - largest seat gap)",
    "margin_mean": "mean gap between the top two scores",
}
COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#455a64"]


def write_report(document: Mapping[str, Any], out: Path, pdf: bool = True) -> list[Path]:
    """Write ``out/report.html`` (and ``out/report.pdf``); return the paths written."""
    from cardgen.fileio import write_bytes_atomic, write_text_atomic

    plots = draw_plots(document)
    html = report_html(document, with_font(plots))
    written = [write_text_atomic(out / "report.html", html.replace("/*FONTS*/", ""))]
    if pdf:  # WeasyPrint sets the plots' text in the report's own fonts
        written.append(write_bytes_atomic(out / "report.pdf", report_pdf(report_html(document, plots))))
    return written


def draw_plots(document: Mapping[str, Any]) -> list[bytes]:
    """The SVG plots: one per cell, then one per option with more than one value."""
    return ([cell_figure(cell) for cell in document["cells"]]
            + [option_figure(document, name) for name, _ in _varied(document)])


def report_html(document: Mapping[str, Any], plots: list[bytes] | None = None) -> str:
    """The report page; ``plots`` as :func:`draw_plots` gives them (drawn, with their font, if not given)."""
    import jinja2

    if plots is None:
        plots = with_font(draw_plots(document))
    uris = [_data_uri(svg) for svg in plots]
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    cells = [dict(cell, plot=uri, failed=[c for c in cell["limits"] if not c["ok"]])
             for cell, uri in zip(document["cells"], uris)]
    options = [{"name": name, "values": values, "plot": uri}
               for (name, values), uri in zip(_varied(document), uris[len(document["cells"]):])]
    return environment.from_string(TEMPLATE).render(
        doc=document, cells=cells, options=options, summary=summary_sentences(document), pct=_pct,
    )


def _varied(document: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    return [(name, values) for name, values in document["grid"]["options"].items() if len(values) > 1]


def report_pdf(html: str) -> bytes:
    """The report through WeasyPrint, with cardgen's DejaVu fonts; ``html`` from :func:`report_html`."""
    from weasyprint import HTML

    from cardgen.rulebook.fetcher import FencedFetcher

    fonts = FONT_DIR.as_uri() + "/"
    fetcher = FencedFetcher([FONT_DIR])  # the plots are data URIs; nothing else may load

    faces = "".join(f'@font-face {{ font-family: "DejaVu Sans"; font-weight: {weight}; src: url("{fonts}{name}"); }}'
                    for weight, name in (("normal", "DejaVuSans.ttf"), ("bold", "DejaVuSans-Bold.ttf")))
    pdf = HTML(string=html.replace("/*FONTS*/", faces), url_fetcher=fetcher).write_pdf()
    fetcher.check()
    return pdf


# -- the summary -------------------------------------------------------------------------------------


def summary_sentences(document: Mapping[str, Any]) -> list[str]:
    cells = document["cells"]
    game = document["game"]
    sentences = []
    for players in document["grid"]["players"]:
        group = [cell for cell in cells if cell["players"] == players and cell["completed"]]
        if not group:
            continue
        fair = 1 / players
        first = sum(c["first_player_win_rate"] for c in group) / len(group)
        last = sum(c["last_player_win_rate"] for c in group) / len(group)
        relative = (first - last) / last if last else 0.0
        more_or_less = "more" if relative > 0 else "less"
        sentences.append(
            f"With {players} players {game}'s first seat wins {_pct(first)} of games and the last seat "
            f"{_pct(last)} (a fair share is {_pct(fair)}): the first seat wins {abs(relative):.0%} "
            f"{more_or_less} often than the last" + (f", over the {len(group)} cells." if len(group) > 1 else ".")
        )
    widest = max((c for c in cells if c["completed"]), key=lambda c: (1 - c["balance"], -c["cell"]), default=None)
    if widest is not None and len(widest["win_rates"]) > 1:
        rates = widest["win_rates"]
        best, worst = rates.index(max(rates)), rates.index(min(rates))
        sentences.append(
            f"The largest gap between two seats is in the cell {widest['label']}: seat {best + 1} wins "
            f"{_pct(rates[best])}, seat {worst + 1} {_pct(rates[worst])} (balance {widest['balance']:.2f})."
        )
    for name, values in document["grid"]["options"].items():
        if len(values) < 2:
            continue
        base = document["effects"][name][values[0]]["all"]
        for value in values[1:]:
            other = document["effects"][name][value]["all"]
            length = (other["turns_mean"] - base["turns_mean"]) / base["turns_mean"] if base["turns_mean"] else 0.0
            seat = other["first_player_win_rate"] - base["first_player_win_rate"]
            sentences.append(
                f"{name}={value} instead of {values[0]}: games are {abs(length):.0%} "
                f"{'longer' if length >= 0 else 'shorter'} ({other['turns_mean']:.1f} moves against "
                f"{base['turns_mean']:.1f}), the first seat wins {abs(seat) * 100:.1f} points "
                f"{'more' if seat >= 0 else 'less'} often, balance {other['balance']:.2f} against {base['balance']:.2f}"
                f", draws {_pct(other['draw_rate'])} against {_pct(base['draw_rate'])}."
            )
    outside = [cell for cell in cells if not cell["within_limits"]]
    if document["limits"] is None:
        sentences.append(f"{game} declares no playability limits, so no cell is flagged.")
    elif outside:
        sentences.append(
            f"{len(outside)} of {len(cells)} cells fall outside the game's limits: "
            + "; ".join(f"{c['label']} ({', '.join(l['name'] for l in c['limits'] if not l['ok'])})" for c in outside)
            + "."
        )
    else:
        sentences.append("Every cell is within the game's limits.")
    broken = sum(cell["violations"] for cell in cells)
    checked = document["checks"]["checked_games_per_cell"] * len(cells)
    sentences.append(
        f"{broken} game(s) broke an invariant." if broken else
        f"No game broke an invariant ({checked} games checked after every move, the rest played to their end)."
    )
    return sentences


# -- the plots -----------------------------------------------------------------------------------------


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "cardgen-sweep", "svg.fonttype": "none", "font.size": 9,
                         "font.family": "DejaVu Sans",
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def cell_figure(cell: Mapping[str, Any]) -> bytes:
    """Game lengths (histogram), seat win rates with 95 % intervals, and score margins."""
    plt = _pyplot()
    figure, (lengths, seats, margins) = plt.subplots(1, 3, figsize=(10, 2.6), gridspec_kw={"width_ratios": [3, 2, 2]})
    histogram = cell["turns_histogram"]
    if histogram:
        lengths.bar([t for t, _ in histogram], [n for _, n in histogram], width=1.0, color=COLOURS[0])
        lengths.axvline(cell["turns"]["p95"], color=COLOURS[1], linestyle="--", linewidth=1, label="95th percentile")
        lengths.legend(frameon=False, loc="upper right")
    lengths.set_title("game length (moves)")
    lengths.set_ylabel("games")
    players = len(cell["win_rates"])
    positions = range(1, players + 1)
    errors = [[rate - low for rate, (low, _) in zip(cell["win_rates"], cell["win_rates_ci95"])],
              [high - rate for rate, (_, high) in zip(cell["win_rates"], cell["win_rates_ci95"])]]
    seats.bar(positions, cell["win_rates"], yerr=errors, capsize=3, color=COLOURS[2])
    seats.axhline(1 / players if players else 0, color="#555555", linestyle=":", linewidth=1)
    seats.set_xticks(list(positions))
    seats.set_title("win rate by seat (95 % interval)")
    # named under the axis: a legend inside the plot sits on the bars, which fill it
    seats.set_xlabel("seat (dotted line: a fair share)")
    margin = cell["margin_histogram"]
    if margin:
        margins.bar([float(m) for m, _ in margin], [n for _, n in margin], width=0.8, color=COLOURS[3])
    margins.set_title("gap between the top two scores")
    figure.tight_layout()
    return _svg(figure)


def option_figure(document: Mapping[str, Any], name: str) -> bytes:
    """One panel per measure: its value against the player count, one line per option value."""
    plt = _pyplot()
    measures = list(MEASURE_NAMES)
    figure, axes = plt.subplots(2, 4, figsize=(10, 4.6))
    for axis, measure in zip(axes.flat, measures):
        for colour, (value, effect) in zip(COLOURS, document["effects"][name].items()):
            by_players = effect["by_players"]
            xs = [int(p) for p in by_players]
            axis.plot(xs, [by_players[p][measure] for p in by_players], marker="o", color=colour, label=value)
        axis.set_title(MEASURE_NAMES[measure], fontsize=8)
        axis.set_xticks(document["grid"]["players"])
    legend_axis = axes.flat[len(measures)]
    legend_axis.axis("off")
    legend_axis.legend(*axes.flat[0].get_legend_handles_labels(), title=name, frameon=False, loc="center")
    axes.flat[4].set_xlabel("players")
    figure.tight_layout()
    return _svg(figure)


def _svg(figure: Any) -> bytes:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "cardgen"})
    plt.close(figure)
    return buffer.getvalue()


_TEXT = re.compile(rb"<text[^>]*>([^<]*)</text>")
#: The family name of the font inside the HTML's plots.
PLOT_FONT = b"cardgen plot DejaVu Sans"


def with_font(svgs: list[bytes]) -> list[bytes]:
    """The plots with their text's font inside each of them, for a browser.

    The plots' words are SVG text, not a path per glyph: WeasyPrint draws the PDF in a third
    of the time, with the report's own DejaVu Sans.  A plot a browser shows as an image
    reaches no font but its own, so each carries DejaVu Sans cut down to the characters the
    plots use (about 22 kB as base64), less than the glyph paths it replaces.
    """
    characters = {html.unescape(match.decode("utf-8")) for svg in svgs for match in _TEXT.findall(svg)}
    face = (b"<defs><style>@font-face { font-family: '" + PLOT_FONT + b"'; src: url(data:font/ttf;base64,"
            + base64.b64encode(_font_subset("".join(sorted(characters)))) + b"); }</style></defs>")
    # a name of its own: the text takes this font, never one the viewer happens to have
    family = b"font-family: '" + PLOT_FONT + b"', 'DejaVu Sans', sans-serif"
    return [re.sub(rb"(<svg [^>]*>)", lambda m: m.group(1) + face, svg, count=1)
            .replace(b"font-family: 'DejaVu Sans'", family) for svg in svgs]


def _font_subset(text: str) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(FONT_DIR / "DejaVuSans.ttf", recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs = ["*"]  # the licence and copyright stay with the font
    options.notdef_outline = True
    options.hinting = False  # a third of the bytes; browsers scale plots anyway
    options.drop_tables += ["FFTM"]  # FontForge's time stamps
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text + "0123456789.,-%")
    log = logging.getLogger("fontTools")
    level = log.level
    log.setLevel(logging.ERROR)  # its notes on tables it leaves out are not the user's business
    try:
        subsetter.subset(font)
    finally:
        log.setLevel(level)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def _data_uri(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def _pct(value: float) -> str:
    return f"{value * 100:.1f}\u00a0%"  # never broken across lines


TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Sweep of {{ doc.game }}</title>
<style>
/*FONTS*/
@page { size: A4; margin: 14mm 12mm; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 10pt; color: #212121; max-width: 1100px; margin: 0 auto; padding: 0 12px; }
h1 { font-size: 18pt; margin-bottom: 2px; } h2 { font-size: 13pt; margin-top: 22px; border-bottom: 1px solid #bbb; }
h3 { font-size: 11pt; margin: 14px 0 4px; }
.facts { color: #555; } .summary li { margin: 3px 0; }
table { border-collapse: collapse; font-size: 8.5pt; } td, th { padding: 2px 6px; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.outside { color: #b71c1c; font-weight: bold; } .ok { color: #2e7d32; }
.cell, .option { page-break-inside: avoid; break-inside: avoid; } img { width: 100%; }
</style></head><body>
<h1>Sweep of {{ doc.game }}</h1>
<p class="facts">{{ doc.cells|length }} cells &times; {{ doc.games_per_cell }} games, master seed {{ doc.seed }};
players {{ doc.grid.players|join(", ") }}; bots {{ doc.grid.bots|join(", ") }}{% for name, values in doc.grid.options.items() %};
{{ name }} = {{ values|join(" / ") }}{% endfor %}. Other rule options at their defaults. Invariants checked on {{ doc.checks.sample }}
({{ doc.checks.checked_games_per_cell }} per cell).{% if doc.limits %} Limits as declared in game.yaml (for {{ doc.limits.players or "the minimum" }} players, bot {{ doc.limits.bot }}), applied to every cell.{% endif %}</p>
<h2>Summary</h2>
<ul class="summary">{% for sentence in summary %}<li>{{ sentence }}</li>{% endfor %}</ul>
<h2>All cells</h2>
<table><tr><th>cell</th><th>completed</th><th>mean length</th><th>p95</th><th>seat 1</th><th>last seat</th><th>draws</th><th>balance</th><th>limits</th></tr>
{% for cell in cells %}<tr><td>{{ cell.label }}</td><td>{{ pct(cell.completion_rate) }}</td><td>{{ "%.1f"|format(cell.turns.mean) }}</td><td>{{ cell.turns.p95 }}</td>
<td>{{ pct(cell.first_player_win_rate) }}</td><td>{{ pct(cell.last_player_win_rate) }}</td><td>{{ pct(cell.draw_rate) }}</td><td>{{ "%.3f"|format(cell.balance) }}</td>
<td>{% if cell.failed %}<span class="outside">outside: {{ cell.failed|map(attribute="name")|join(", ") }}</span>{% else %}<span class="ok">ok</span>{% endif %}</td></tr>
{% endfor %}</table>
{% for option in options %}<div class="option"><h2>Option {{ option.name }}</h2>
<p>Each measure at each player count, one line per value ({{ option["values"]|join(", ") }}), averaged over the cells that share them.</p>
<img alt="how {{ option.name }} moves each measure" src="{{ option.plot }}"></div>
{% endfor %}
<h2>Cells</h2>
{% for cell in cells %}<div class="cell"><h3>{{ cell.label }}{% if cell.failed %} <span class="outside">&mdash; outside the limits</span>{% endif %}</h3>
<p>{{ cell.completed }} of {{ cell.games }} games completed ({{ pct(cell.completion_rate) }}), {{ cell.violations }} violation(s);
length mean {{ "%.1f"|format(cell.turns.mean) }}, median {{ cell.turns.p50 }}, 95th percentile {{ cell.turns.p95 }}, range {{ cell.turns.min }}&ndash;{{ cell.turns.max }};
draws {{ cell.draws }} ({{ pct(cell.draw_rate) }}), shared wins {{ cell.shared_wins }}; mean gap between the top two scores {{ cell.margin_mean }}; win rates
{% for rate in cell.win_rates %}seat {{ loop.index }} {{ pct(rate) }} ({{ pct(cell.win_rates_ci95[loop.index0][0]) }}&ndash;{{ pct(cell.win_rates_ci95[loop.index0][1]) }}){% if not loop.last %}, {% endif %}{% endfor %}.
{% for check in cell.failed %}<br><span class="outside">{{ check.name }}: measured {{ check.measured }}, required {{ check.required }}</span>{% endfor %}
{% for message in cell.violation_examples %}<br><span class="outside">violation: {{ message }}</span>{% endfor %}</p>
<img alt="{{ cell.label }}: game lengths, win rates by seat, margins" src="{{ cell.plot }}"></div>
{% endfor %}
</body></html>
"""
