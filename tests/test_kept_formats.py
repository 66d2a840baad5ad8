"""Every content format cardgen ever wrote keeps validating and building.

``tests/data/formats/<N>/`` holds a content folder written in format N and is never edited:
format 1 is last month's mini game (no ``format:`` key, no tagline, no quick reference, limits
without an engine, the content folder's own shared strings of that time), format 2 what
``cardgen new`` wrote when format 2 came.  A new format adds a folder here; none goes away.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli import cli
from cardgen.content.model import CONTENT_FORMAT

FORMATS_DIR = Path(__file__).parent / "data" / "formats"
KEPT = sorted(int(path.name) for path in FORMATS_DIR.iterdir() if path.name.isdigit())


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def kept_copy(number: int, tmp_path: Path) -> Path:
    """A copy of the kept folder of format ``number`` (builds and upgrades never touch the original)."""
    return Path(shutil.copytree(FORMATS_DIR / str(number), tmp_path / "games"))


def pdf_text(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages]


def test_a_folder_is_kept_for_every_format_up_to_the_current_one():
    assert KEPT == list(range(1, CONTENT_FORMAT + 1))


@pytest.mark.parametrize("number", KEPT)
def test_a_kept_folder_validates(number, tmp_path):
    games = kept_copy(number, tmp_path)
    result = run("--content", str(games), "validate")
    assert result.exit_code == 0, result.output
    assert "1 game(s) valid." in result.stdout
    if number < CONTENT_FORMAT:
        assert f"warning: games/mini/game.yaml: written in content format {number} (no 'format:' key)" in result.stderr
        assert "Run 'cardgen upgrade'" in result.stderr
        # the one rule of format 2 it breaks, with its line, as a warning
        assert "warning: games/mini/game.yaml:34:1 (field limits): limits: need an engine" in result.stderr
    else:
        assert not format_warnings(result.stderr), result.stderr


def format_warnings(stderr: str) -> list[str]:
    """The warnings of ``stderr`` but those about telling colours apart, contrast and type
    size (cardgen.cards.access): those judge a game's own colours, whatever its format."""
    return [line for line in stderr.splitlines() if line.startswith("warning:")
            and not any(what in line for what in ("colour vision:", "contrast:", "text size:"))]


@pytest.mark.parametrize("number", KEPT)
def test_a_kept_folder_builds_its_print_and_play_and_rulebook(number, tmp_path):
    games = kept_copy(number, tmp_path)
    game = next(path.name for path in games.iterdir() if (path / "game.yaml").is_file())
    source = {"mini": "ru", "lights": "en"}[game]
    out = tmp_path / "out"
    result = run("--content", str(games), "build", game, "--lang", source, "--paper", "a4", "--out", str(out))
    assert result.exit_code == 0, result.output
    pnp = out / game / source / f"{game}-{source}-pnp-a4.pdf"
    rulebook = out / game / source / f"{game}-{source}-rules-a4.pdf"
    assert len(PdfReader(pnp).pages) >= 2  # fronts and backs
    pages = pdf_text(rulebook)
    assert len(pages) >= 3
    if number < CONTENT_FORMAT:
        assert "warning: games/mini/game.yaml: written in content format 1" in result.stderr
        text = "\n".join(pages)
        assert "Сбросить все карты." in text  # its goal
        assert "Памятка" not in text  # no quick-reference page, no line for it in the contents
        assert "Перемешайте колоду." in text and "Шесть карт" in text  # setup, an option's choice
    else:
        assert "warning:" not in result.stderr
        assert "Quick reference" in pages[-1]  # written by new: the back page


def test_upgrade_rewrites_last_months_game_keeping_comments_then_it_validates_without_warning(tmp_path):
    games = kept_copy(1, tmp_path)
    game_yaml = games / "mini" / "game.yaml"
    before = game_yaml.read_text("utf-8")
    untouched = {path: path.read_bytes() for path in games.rglob("*") if path.is_file() and path != game_yaml}

    result = run("--content", str(games), "upgrade")
    assert result.exit_code == 0, result.output
    assert "mini: content format 1 -> 2; rewrote games/mini/game.yaml" in result.stdout
    assert "+format: 2" in result.stdout and "-limits:" in result.stdout  # the diff it shows

    after = game_yaml.read_text("utf-8")
    comments = [line for line in before.splitlines() if line.lstrip().startswith("#")]
    assert all(line in after.splitlines() for line in comments)  # every comment kept, word for word
    assert "#   games: 200           # a quick check" in after  # and the one inside the block it commented out
    assert after.splitlines()[5] == "format: 2"  # above the first key, after the header
    assert [line for line in after.splitlines() if line and not line.startswith(("#", "format:"))] == \
        [line for line in before.splitlines() if line and not line.startswith("#")
         and line not in ("limits:", "  games: 200           # a quick check", "  turns_max: 500")]
    assert {path: path.read_bytes() for path in untouched} == untouched  # only game.yaml is rewritten

    result = run("--content", str(games), "validate")
    assert result.exit_code == 0, result.output
    assert not format_warnings(result.stderr), result.stderr
