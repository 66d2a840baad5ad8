"""No page of a rulebook is left mostly empty before a section that would fit on it.

Measured as a reader sees it: where the text of each page ends (``pdftotext -bbox``), on the
rulebooks where the cards section used to start on a page of its own after a page filled to
14-38 %.  The table of contents is a page of its own, and the last page of text before the blank
pages of a booklet and the quick reference on the back ends where the rules end: those are not
held to it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardgen.content.loader import load_game
from cardgen.rulebook import build_rulebook

ROOT = Path(__file__).resolve().parents[2]
#: a page's text reaches at least this far down the page (the running head and number aside)
LEAST_FILL = 0.5

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")


def page_fill(pdf: bytes, tmp_path: Path) -> list[float]:
    """Per page: where its lowest word of body text ends, as a fraction of the page height
    (0 for a page with none); the running head and the page number are left out."""
    path = tmp_path / "book.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    fills = []
    for height, body in re.findall(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', out, re.S):
        height = float(height)
        bottoms = [float(bottom) for top, bottom in re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" '
                                                               r'xMax="[\d.]+" yMax="([\d.]+)">', body)
                   if 0.08 * height < float(top) < 0.90 * height]
        fills.append(max(bottoms, default=0.0) / height)
    return fills


@pytest.mark.parametrize("game_id, language, paper", [
    ("card-football", "de", "a4"),  # its page before the cards was 14 % full
    ("himmel", "en", "a4"),  # 27 %
    ("head-game", "en", "a5"),  # 11 %
])
def test_no_page_is_left_mostly_empty_before_a_section(game_id, language, paper, tmp_path):
    game = load_game(ROOT / "content" / game_id)
    fills = page_fill(build_rulebook(game, language, paper).pdf, tmp_path)
    last_text = max(number for number, fill in enumerate(fills[:-1]) if fill > 0)  # before blanks and the back
    assert len(fills) > 5
    # page 1 is the cover, page 2 the contents (a page of its own)
    short = {number + 1: f"{fill:.0%}" for number, fill in enumerate(fills) if 2 <= number < last_text
             and fill < LEAST_FILL}
    assert short == {}, f"{game_id} {language} {paper}: pages filled less than {LEAST_FILL:.0%}: {short}"


def test_the_measure_sees_a_mostly_empty_page(tmp_path):
    """The check can fail: a page break forced before the cards leaves such a page again."""
    game = load_game(ROOT / "content" / "card-football")
    templates = tmp_path / "rulebook"
    shutil.copytree(ROOT / "templates" / "rulebook", templates)
    css = templates / "rulebook.css"
    css.write_text(css.read_text("utf-8") + "\n#cards { break-before: page; }\n", "utf-8")
    fills = page_fill(build_rulebook(game, "de", "a4", templates_dir=templates).pdf, tmp_path)
    assert min(fills[2:-2]) < 0.2
