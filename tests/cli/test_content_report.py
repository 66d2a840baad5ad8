"""head-game's answer coverage reaches the simulate JSON and validate --simulate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import cli

CONTENT = Path(__file__).resolve().parents[2] / "content"


def test_simulate_json_carries_the_coverage_of_all_832_fields(tmp_path):
    out = tmp_path / "run.json"
    result = CliRunner().invoke(
        cli, ["--content", str(CONTENT), "simulate", "head-game", "--games", "3", "--seed", "7", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    coverage = json.loads(out.read_text("utf-8"))["content"]["coverage"]
    assert sum(coverage["fields"].values()) == 13 * 4 * 16
    assert set(coverage["fields"]) == {"0", "1-2", "3-9", "10+"}
    assert abs(sum(coverage["dealt_share"].values()) - 1) < 1e-3


def test_validate_simulate_prints_the_coverage_table(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT / "head-game", content / "head-game")
    game = content / "head-game" / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("  games: 1000\n", "  games: 20\n", 1), "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "--simulate", "head-game"])
    assert "coverage: fields (geography x position x fact) by number of answers" in result.output
    assert "head-game: 20 games" in result.output
