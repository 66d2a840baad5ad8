"""The sweep report: ``report.html`` (and ``report.pdf``) from ``sweep.json`` alone.

Plots are drawn by matplotlib as SVG (:mod:`cardgen.simulation.report_plots`)
and embedded as data URIs, so the report is one file that opens without a
network, in a browser or a PDF viewer; the PDF is the same HTML through
WeasyPrint, which may fetch nothing but those data URIs and cardgen's own
fonts.  Contents:

* the summary, sentence by sentence from ``findings``
  (:mod:`cardgen.simulation.findings`), each about one named cell: a seat
  against its fair share net of draws, or "no detectable seat advantage at N
  games (it would detect X points)"; a bot against another; an option value
  against the game's default; the cells outside, or undecided about, the
  limits of their own player count; the invariants;
* a table of every cell, and a skill table per mixed-bot cell (the first
  bot's results seat by seat);
* per option, each measure against the player count, one line per value (the
  default solid), one row per bot and setting of the other options;
* per cell, game length in turns with its spread, the choices and lead
  changes of the checked games, each seat's win rate with its 95 % interval,
  draws, the winner's margin over the runner-up, balance against what a fair
  game shows at that many games, the limits and the engine's own counters.
"""

from __future__ import annotations

import base64
import html
import io
import logging
import math
import re
from pathlib import Path
from typing import Any, Mapping

from cardgen.cards.fonts import FONT_DIR



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
    from cardgen.simulation.report_plots import cell_figure, option_figure

    return ([cell_figure(cell) for cell in document["cells"]]
            + [option_figure(document, name) for name, _ in _varied(document)])


def report_html(document: Mapping[str, Any], plots: list[bytes] | None = None) -> str:
    """The report page; ``plots`` as :func:`draw_plots` gives them (drawn, with their font, if not given)."""
    import jinja2

    if plots is None:
        plots = with_font(draw_plots(document))
    uris = [_data_uri(svg) for svg in plots]
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    cells = [dict(cell, plot=uri, failed=[c for c in cell["limits"] if c["verdict"] == "outside"],
                  checked=[c for c in cell["limits"] if c["name"] != "violations"],
                  counters=_counters(cell))
             for cell, uri in zip(document["cells"], uris)]
    options = [{"name": name, "values": values, "plot": uri}
               for (name, values), uri in zip(_varied(document), uris[len(document["cells"]):])]
    return environment.from_string(TEMPLATE).render(
        doc=document, cells=cells, options=options, summary=summary_sections(document), pct=_pct,
        number=_number, interval=_interval, measured=_measured, skill=_skill_rows(document),
    )


def _counters(cell: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The engine's own counters: name, total, per game (zeros kept: a count that never
    happened is news too)."""
    return [(name.replace("_", " "), f"{total:,}", f"{cell['events_per_game'][name]:.2f}")
            for name, total in cell["events"].items()]


def _skill_rows(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One table per mixed cell: the first bot's results seat by seat, then all seats pooled."""
    tables = []
    for cell in document["cells"]:
        if "lead_seats" not in cell:
            continue
        finding = next(f for f in document["findings"] if f["cell"] == cell["cell"] and f["measure"] == "skill_win_rate")
        claims = sum(1 for f in document["findings"] if f["p_value"] is not None)
        tables.append({"cell": cell, "finding": finding, "rows": cell["lead_seats"], "p": _p(finding, claims)})
    return tables


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
    """The report's conclusions, made from ``findings``: each about one cell, named."""
    return [sentence for _, sentences in summary_sections(document) for sentence in sentences]


def summary_sections(document: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The conclusions by subject: seats, skill, options, limits and invariants (empty ones left out)."""
    cells = document["cells"]
    findings = document["findings"]
    claims = sum(1 for f in findings if f["p_value"] is not None)
    seats, skill = [], []
    for cell in cells:
        if not cell["completed"]:
            seats.append(f"{cell['label']}: no game completed.")
        elif "lead_seats" in cell:
            skill.append(_skill_sentence(cell, findings, claims))
        else:
            seats.append(_seat_sentence(cell, findings, claims))
    checks = _limit_sentences(document)
    broken = sum(cell["violations"] for cell in cells)
    checked = sum(cell["checked_games"] for cell in cells)
    checks.append(
        f"{broken} game(s) broke an invariant." if broken else
        f"No game broke an invariant ({checked:,} games checked after every turn, the rest played to their end)."
    )
    sections = [("Seats", seats), ("Skill", skill), ("Rule options", _option_sentences(document, claims)),
                ("Limits and invariants", checks)]
    return [(title, sentences) for title, sentences in sections if sentences]


def _seat_sentence(cell: Mapping[str, Any], findings: list, claims: int) -> str:
    seats = [f for f in findings if f["cell"] == cell["cell"] and f["measure"] == "win_rate"]
    fair = _fair(cell)
    shown = f"seat 1 wins {_pct(cell['win_rates'][0])}, seat {len(cell['win_rates'])} {_pct(cell['win_rates'][-1])}"
    significant = [f for f in seats if f["significant"]]
    if not significant:
        size = max((f["detectable"] for f in seats), default=0.0)
        return (f"{cell['label']}: no detectable seat advantage at {_count(cell['completed'])} games "
                f"(it would detect {_points(size)} points, a seat that far from its fair share showing 4 times "
                f"in 5); {shown}, {fair}.")
    parts = [f"seat {f['seat']} wins {_pct(f['estimate'])} ({_interval(f['ci95'])}), {_points(abs(f['estimate'] - f['expected']))} "
             f"points {'more' if f['estimate'] > f['expected'] else 'less'} than its fair share ({_p(f, claims)})"
             for f in significant]
    return f"{cell['label']}: " + "; ".join(parts) + f"; {fair}."


def _skill_sentence(cell: Mapping[str, Any], findings: list, claims: int) -> str:
    finding = next(f for f in findings if f["cell"] == cell["cell"] and f["measure"] == "skill_win_rate")
    lead, other = finding["bot"], finding["against"]
    head = (f"{cell['label']} ({lead}'s seat turning game by game): {lead} wins {_pct(finding['estimate'])} "
            f"({_interval(finding['ci95'])}) against {other}, {_fair(cell)}")
    if finding["significant"]:
        gap = finding["estimate"] - finding["expected"]
        return (head + f": {_points(abs(gap))} points {'more' if gap > 0 else 'less'} ({_p(finding, claims)}).")
    return head + (f": no detectable edge at {_count(cell['completed'])} games (it would detect "
                   f"{_points(finding['detectable'])} points, 4 times in 5).")


def _option_sentences(document: Mapping[str, Any], claims: int) -> list[str]:
    sentences = []
    cells = {cell["cell"]: cell for cell in document["cells"]}
    grouped: dict[int, list] = {}
    for finding in document["findings"]:
        if "option" in finding:
            grouped.setdefault(finding["cell"], []).append(finding)
    for cell_index, group in grouped.items():
        first = group[0]
        base = cells[first["baseline_cell"]]
        said, quiet = [], []
        for finding in group:
            if finding["measure"] == "turns_mean":
                text = (f"games {_relative(finding['estimate'], finding['expected'])}: {_number(finding['estimate'])} "
                        f"turns against {_number(finding['expected'])}")
                name = "game length"
            elif finding["measure"] == "first_player_win_rate":
                text = f"seat 1 wins {_pct(finding['estimate'])} against {_pct(finding['expected'])}"
                name = "seat 1's win rate"
            else:
                text = f"draws {_pct(finding['estimate'])} against {_pct(finding['expected'])}"
                name = "draws"
            if finding["significant"]:
                said.append(f"{text} ({_p(finding, claims)})")
            else:
                quiet.append(name)
        where = ", ".join(part for part in base["label"].split(", ") if not part.startswith(first["option"].split("=")[0] + "="))
        name, base_value = first["baseline"].split("=", 1)
        default = document["default_options"].get(name)
        against = (f"the default {base_value}" if base_value == default else
                   f"{base_value} (the first value swept; the default, {default}, was not)")
        sentence = f"{first['option']} against {against} ({where}): "
        sentence += "; ".join(said) if said else "no detectable change"
        if said and quiet:
            sentence += "; no detectable change in " + " or ".join(quiet)
        sentences.append(sentence + ".")
    return sentences


def _limit_sentences(document: Mapping[str, Any]) -> list[str]:
    limits = document["limits"]
    game = document["game"]
    if limits is None:
        return [f"{game} declares no playability limits, so no cell is checked against any."]
    cells = document["cells"]
    counts = sorted({document["limits_base_players"], *map(int, limits.get("by_players") or {})})
    checked = [c for c in cells if len(c["limits"]) > 1]
    sentences = [f"The game's limits hold for bot {limits['bot']} at {_and([str(n) for n in counts])} players; "
                 f"{len(checked)} of {len(cells)} cells {'is' if len(checked) == 1 else 'are'} checked against them."]
    outside = [c for c in cells if c["limits_verdict"] == "outside"]
    undecided = [c for c in cells if c["limits_verdict"] == "undecided"]
    for cell in outside:
        wrong = [c for c in cell["limits"] if c["verdict"] == "outside"]
        sentences.append(f"{cell['label']} is outside its limits: " + "; ".join(
            f"{c['name']} {_measured(c)} ({_interval(c['ci95'], c['name'])}), required {c['required']}" for c in wrong) + ".")
    for cell in undecided:
        open_ = [c for c in cell["limits"] if c["verdict"] == "undecided"]
        sentences.append(f"{cell['label']}: undecided at {_count(cell['games'])} games for " + "; ".join(
            f"{c['name']} {_measured(c)} ({_interval(c['ci95'], c['name'])}), required {c['required']}" for c in open_) + ".")
    if checked and not outside and not undecided:
        sentences.append("Every checked cell is inside its limits.")
    return sentences


def _fair(cell: Mapping[str, Any]) -> str:
    if cell["draws"]:
        return f"a fair share {_pct(cell['fair_share'])} ({_pct(cell['draw_rate'])} of games drawn)"
    return f"a fair share {_pct(cell['fair_share'])}"


def _p(finding: Mapping[str, Any], claims: int) -> str:
    shown = _p_text(finding["p_adjusted"])
    return f"{shown} after correcting for {claims} claims" if claims > 1 else shown


def _p_text(p: float) -> str:
    """Two significant digits, cut rather than rounded: 0.0498 is "0.049", never a "0.05" that
    reads as not significant."""
    if p < 0.0001:
        return "p < 0.0001"
    digits = 1 - math.floor(math.log10(p))
    return f"p = {math.floor(p * 10 ** digits + 1e-9) / 10 ** digits:.{digits}f}"  # 1e-9: 0.0012 is 11.99.. ten-thousandths


def _points(value: float) -> str:
    return f"{value * 100:.1f}"


def _count(value: int) -> str:
    return f"{value:,}"


def _relative(value: float, base: float) -> str:
    if not base:
        return "as long"
    change = (value - base) / base
    return f"{abs(change):.0%} {'longer' if change >= 0 else 'shorter'}"


def _interval(pair: Any, name: str = "rate") -> str:
    low, high = pair
    if name.startswith("turns"):
        return f"{_number(low)}\u2013{_number(high)}"
    if name == "balance_min":
        return f"{low:.3f}\u2013{high:.3f}"
    return f"{low * 100:.1f}\u2013{high * 100:.1f}\u00a0%"


def _measured(check: Mapping[str, Any]) -> str:
    return _number(check["measured"]) if check["name"].startswith("turns") else (
        f"{check['measured']:.3f}" if check["name"] == "balance_min" else _pct(check["measured"]))


def _number(value: float) -> str:
    """As people write them: whole numbers whole, others to one decimal."""
    return f"{value:,.0f}" if float(value).is_integer() or abs(value) >= 100 else f"{value:,.1f}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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
.outside { color: #b71c1c; font-weight: bold; } .ok { color: #2e7d32; } .undecided { color: #ef6c00; } .none { color: #777; }
table.columns { width: 100%; margin: 4px 0; } table.columns > tbody > tr > td, table.columns > tr > td { border: none; vertical-align: top; padding: 0; }
td.main { width: 70%; padding-right: 12px !important; } .facts-table { width: 100%; font-size: 8.5pt; }
.facts-table th { text-align: left; vertical-align: top; white-space: nowrap; } .facts-table td { text-align: left; }
.counters { font-size: 7.5pt; } .counters td, .counters th { padding: 1px 4px; }
.cell, .option { page-break-inside: avoid; break-inside: avoid; } img { width: 100%; }
</style></head><body>
<h1>Sweep of {{ doc.game }}</h1>
<p class="facts">{{ doc.cells|length }} cells &times; {% if doc.precision %}as many games as needed for &plusmn;{{ "%g"|format(doc.precision * 100) }} points (at most {{ "{:,}".format(doc.games_per_cell) }}){% else %}{{ "{:,}".format(doc.games_per_cell) }} games{% endif %}, master seed {{ doc.seed }};
players {{ doc.grid.players|join(", ") }}; bots {{ doc.grid.bots|join(", ") }}{% for name, values in doc.grid.options.items() %};
{{ name }} = {% for value in values %}{{ value }}{% if value == doc.baselines[name] %} (default){% endif %}{% if not loop.last %} / {% endif %}{% endfor %}{% endfor %}. Other rule options at their defaults. Invariants checked on {{ doc.checks.sample }}
({{ doc.checks.checked_games_per_cell }} per cell). A seat's fair share counts only the games somebody won: with draws it is less than one over the number of players.
Every claim below is tested, and the tests are corrected together (Holm) so that all of them at once err less than 5&nbsp;% of the time.</p>
<h2>Summary</h2>
{% for title, sentences in summary %}<h3>{{ title }}</h3>
<ul class="summary">{% for sentence in sentences %}<li>{{ sentence }}</li>{% endfor %}</ul>
{% endfor %}
<h2>All cells</h2>
<table><tr><th>cell</th><th>games</th><th>length (turns)</th><th>seat 1</th><th>last seat</th><th>fair share</th><th>draws</th><th>balance</th><th>limits</th></tr>
{% for cell in cells %}<tr><td>{{ cell.label }}</td><td>{{ "{:,}".format(cell.completed) }}</td><td>{{ number(cell.turns.mean) }} &plusmn; {{ number(cell.turns.sd) }}</td>
<td>{{ pct(cell.win_rates[0]) }} ({{ interval(cell.win_rates_ci95[0]) }})</td><td>{{ pct(cell.win_rates[-1]) }} ({{ interval(cell.win_rates_ci95[-1]) }})</td><td>{{ pct(cell.fair_share) }}</td><td>{{ pct(cell.draw_rate) }}</td><td>{{ "%.2f"|format(cell.balance) }}{% if cell.balance_if_fair %}<br><span class="none">fair: {{ "%.2f"|format(cell.balance_if_fair.low5) }}&ndash;1</span>{% endif %}</td>
<td>{% if cell.failed %}<span class="outside">outside: {{ cell.failed|map(attribute="name")|join(", ") }}</span>{% elif cell.limits_verdict == "undecided" %}<span class="undecided">undecided</span>{% elif cell.checked %}<span class="ok">inside</span>{% else %}<span class="none">not checked</span>{% endif %}</td></tr>
{% endfor %}</table>
{% for table in skill %}<div class="skill"><h3>Skill: {{ table.finding.bot }} against {{ table.finding.against }}, {{ table.cell.players }} players{% for name, value in table.cell.varied.items() %}, {{ name }}={{ value }}{% endfor %}</h3>
<table><tr><th>{{ table.finding.bot }}'s seat</th><th>games</th><th>{{ table.finding.bot }} wins</th><th>95&nbsp;% interval</th><th>draws</th></tr>
{% for row in table.rows %}<tr><td>seat {{ row.seat }}</td><td>{{ "{:,}".format(row.games) }}</td><td>{{ pct(row.win_rate) }}</td><td>{{ interval(row.win_rate_ci95) }}</td><td>{{ row.draws }}</td></tr>
{% endfor %}<tr><th>every seat</th><th>{{ "{:,}".format(table.cell.completed) }}</th><th>{{ pct(table.finding.estimate) }}</th><th>{{ interval(table.finding.ci95) }}</th><th>{{ table.cell.draws }}</th></tr></table>
<p>A fair share is {{ pct(table.finding.expected) }}; {% if table.finding.significant %}{{ table.finding.bot }} wins {{ "%.1f"|format((table.finding.estimate - table.finding.expected) * 100) }} points {{ "more" if table.finding.estimate > table.finding.expected else "less" }} often ({{ table.p }}){% else %}no detectable edge at {{ "{:,}".format(table.cell.completed) }} games{% endif %}.</p></div>
{% endfor %}
{% for option in options %}<div class="option"><h2>Option {{ option.name }}</h2>
<p>Each measure against the player count, one line per value of {{ option.name }} (the default, {{ doc.baselines[option.name] }}, drawn solid, the others dashed); one panel row per bot{% if doc.grid.options|length > 1 %} and setting of the other options{% endif %}, never averaged. Rates on 0&ndash;100&nbsp;% axes, bars with 95&nbsp;% intervals.</p>
<img alt="how {{ option.name }} moves each measure" src="{{ option.plot }}"></div>
{% endfor %}
<h2>Cells</h2>
{% for cell in cells %}<div class="cell"><h3>{{ cell.label }}{% if cell.failed %} <span class="outside">&mdash; outside the limits</span>{% endif %}</h3>
<table class="columns"><tr><td class="main"><table class="facts-table">
<tr><th>games</th><td>{{ "{:,}".format(cell.completed) }} of {{ "{:,}".format(cell.games) }} completed ({{ pct(cell.completion_rate) }}), {{ cell.violations }} violation(s)</td></tr>
<tr><th>length</th><td>{{ number(cell.turns.mean) }} turns on average (standard deviation {{ number(cell.turns.sd) }}); half the games take {{ cell.turns.p25 }}&ndash;{{ cell.turns.p75 }} turns, 90&nbsp;% take {{ cell.turns.p5 }}&ndash;{{ cell.turns.p95 }}; shortest {{ cell.turns.min }}, longest {{ cell.turns.max }}</td></tr>
{% if cell.choices.games_counted %}<tr><th>choices</th><td>{{ pct(cell.choices.decision_share) }} of turns offer more than one legal move; {{ number(cell.choices.branching_mean) }} legal moves per turn on average (the {{ cell.choices.games_counted }} checked games)</td></tr>{% endif %}
{% if cell.drama.games_counted %}<tr><th>lead</th><td>changes hands {{ number(cell.drama.lead_changes_mean) }} times a game on average{% if cell.drama.winner_games %}; the eventual winner is not alone in the lead after {{ pct(cell.drama.winner_behind_share) }} of the turns{% endif %} (the checked games)</td></tr>{% endif %}
<tr><th>results</th><td>{% for rate in cell.win_rates %}seat {{ loop.index }} wins {{ pct(rate) }} ({{ interval(cell.win_rates_ci95[loop.index0]) }}){% if not loop.last %}, {% endif %}{% endfor %}; a fair share is {{ pct(cell.fair_share) }}; draws {{ "{:,}".format(cell.draws) }} ({{ pct(cell.draw_rate) }}), shared wins {{ "{:,}".format(cell.shared_wins) }}</td></tr>
<tr><th>margin</th><td>the winner is {{ number(cell.margin_mean) }} ahead of the runner-up on average, in the game's own score (0 for a shared win or a draw)</td></tr>
<tr><th>balance</th><td>{{ "%.3f"|format(cell.balance) }}{% if cell.balance_if_fair %}; a perfectly fair game shows {{ "%.3f"|format(cell.balance_if_fair.expected) }} at this many games from noise alone, and falls below {{ "%.3f"|format(cell.balance_if_fair.low5) }} one time in 20{% endif %}</td></tr>
{% for check in cell.checked %}<tr><th>{% if loop.first %}limits{% endif %}</th><td class="{{ 'outside' if check.verdict == 'outside' else 'undecided' if check.verdict == 'undecided' else 'ok' }}">{{ check.name }}: {{ measured(check) }} ({{ interval(check.ci95, check.name) }}), required {{ check.required }}: {{ check.verdict }}</td></tr>{% endfor %}
{% for message in cell.violation_examples %}<tr><th>{% if loop.first %}violations{% endif %}</th><td class="outside">{{ message }}</td></tr>{% endfor %}
</table>
</td>{% if cell.counters %}<td class="side"><table class="counters"><tr><th>the engine counts</th><th>in all</th><th>per game</th></tr>{% for name, total, per in cell.counters %}<tr><td>{{ name }}</td><td>{{ total }}</td><td>{{ per }}</td></tr>{% endfor %}</table></td>{% endif %}</tr></table>
<img alt="{{ cell.label }}: game lengths, win rates by seat, margins" src="{{ cell.plot }}"></div>
{% endfor %}
</body></html>
"""
