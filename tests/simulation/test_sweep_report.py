"""The sweep report: summary sentences, one plot per cell and per option, limits flagged, a PDF."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from cardgen.content import load_game
from cardgen.engines import engine_for
from cardgen.simulation.report import report_html, summary_sentences, write_report
from cardgen.simulation.sweep import SweepPlan, content_fingerprint, run_sweep, sweep_document

ROOT = Path(__file__).resolve().parents[2]
HIMMEL = ROOT / "content" / "himmel"


@pytest.fixture(scope="module")
def document(tmp_path_factory):
    plan = SweepPlan(HIMMEL, "cardgen.engines.himmel:HimmelEngine", (3, 6), (("take-when", ("any-time", "only-when-stuck")),),
                     ("random",), games=200, seed=1)
    game = load_game(HIMMEL)
    engine = engine_for(game)
    content = content_fingerprint(HIMMEL, type(engine))
    result = run_sweep(plan, tmp_path_factory.mktemp("store"), content)
    return json.loads(json.dumps(sweep_document(result, game, engine.id, content, engine.options)))


def test_summary_speaks_plainly(document):
    sentences = summary_sentences(document)
    # one sentence per cell, named, made from the findings; nothing averaged over cells
    assert sentences[0].startswith("3 players, take-when=any-time, bot random: ")
    assert "a fair share 16.7\u00a0%" in sentences[2]
    quiet = [f for f in document["findings"] if f["measure"] == "win_rate" and f["cell"] == 0]
    if not any(f["significant"] for f in quiet):
        assert "no detectable seat advantage at 200 games (it would detect " in sentences[0]
    assert any(s.startswith("take-when=only-when-stuck against the default any-time (3 players, bot random): ")
               for s in sentences)
    assert "at 4 players" in " ".join(sentences) and "0 of 4 cells are checked" in " ".join(sentences)
    assert sentences[-1].startswith("No game broke an invariant (")


def test_html_has_every_plot_inline_and_flags_cells_outside_limits(document):
    document = json.loads(json.dumps(document))
    failed = {"name": "turns_max", "measured": 151, "required": "<= 150", "ci95": [151, 151], "verdict": "outside",
              "p_value": None, "ok": False}
    document["cells"][1]["limits"].append(failed)  # pretend one cell fails turns_max
    document["cells"][1]["within_limits"] = False
    document["cells"][1]["limits_verdict"] = "outside"
    html = report_html(document)
    plots = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert len(plots) == 4 + 1  # one per cell, one per option
    assert all(base64.b64decode(plot).lstrip().startswith(b"<?xml") for plot in plots)
    # words are text in a font of the plot's own (a browser shows an image with no other), which
    # holds every character they use
    import io

    from fontTools.ttLib import TTFont

    for plot in map(base64.b64decode, plots):
        words = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", plot.decode()))
        assert len(words) > 30 and "font-family: 'cardgen plot DejaVu Sans', 'DejaVu Sans', sans-serif" in plot.decode()
        font = TTFont(io.BytesIO(base64.b64decode(re.search(rb"data:font/ttf;base64,([^)]+)\)", plot).group(1))))
        assert set(words) - {" "} <= {chr(code) for code in font.getBestCmap()}
        assert "DejaVu" in font["name"].getDebugName(1) and "Bitstream" in font["name"].getDebugName(0)
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    outside = [cell for cell in document["cells"] if not cell["within_limits"]]
    assert html.count("outside the limits") == len(outside) and "outside: turns_max" in html
    assert "3 players, take-when=only-when-stuck, bot random is outside its limits: turns_max 151 (151\u2013151), " \
           "required &lt;= 150" in html
    assert "(default)" in html


def test_report_files_and_pdf(document, tmp_path):
    written = write_report(document, tmp_path)
    assert [p.name for p in written] == ["report.html", "report.pdf"]
    pdf = (tmp_path / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    import pypdfium2

    text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf))
    assert "Sweep of himmel" in text and "6 players, take-when=only-when-stuck, bot random" in text
    # the plots' words are text in the PDF too, set in the report's DejaVu Sans
    assert text.count("seat (dotted: fair share") == 4 and "winner's margin (mean, in the game's score)" in text
    assert text.count("game length (turns)") >= 4 and "game length (moves)" not in text
    assert b"@font-face" not in pdf
