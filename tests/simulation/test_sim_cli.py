"""``cardgen simulate`` and ``cardgen validate --simulate`` from the outside."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli

CONTENT = Path(__file__).resolve().parents[2] / "content"


def run(*args: str):
    return CliRunner().invoke(cli, ["--content", str(CONTENT), *args])


def test_simulate_writes_the_json_fields(tmp_path):
    out = tmp_path / "cf.json"
    result = run("simulate", "card-football", "--games", "60", "--seed", "3", "--json", str(out))
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text("utf-8"))
    for key in ("game", "games", "seed", "completed", "violations", "turns", "wins", "draws",
                "first_player_win_rate", "first_player_win_rate_ci95", "balance", "events"):
        assert key in summary
    assert summary["game"] == "card-football" and summary["games"] == 60 and summary["violations"] == 0
    assert {"goals", "shots_saved", "penalties", "sent_off_suits", "extra_time"} <= set(summary["events"])
    assert "first player win rate" in result.output
    assert "\r" not in result.output  # no progress bar when the output is not a terminal


def test_simulate_json_is_the_same_for_any_jobs(tmp_path):
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"h{jobs}.json"
        result = run("simulate", "himmel", "--games", "250", "--players", "4", "--bot", "greedy",
                     "--jobs", jobs, "--json", str(out))
        assert result.exit_code == 0, result.output
        files.append(out.read_bytes())
    assert files[0] == files[1]


def test_simulate_options_and_their_errors():
    result = run("simulate", "himmel", "--games", "20", "--players", "3", "--option", "take-when=only-when-stuck",
                 "--option", "specials-count=false")
    assert result.exit_code == 0, result.output
    assert run("simulate", "himmel", "--games", "5", "--option", "colour=red").exit_code == 1
    assert run("simulate", "himmel", "--games", "5", "--option", "refill=lots").exit_code == 1
    assert run("simulate", "himmel", "--games", "5", "--option", "refill").exit_code == 2
    assert run("simulate", "himmel", "--games", "5", "--bot", "clever").exit_code == 1
    assert run("simulate", "himmel", "--games", "5", "--players", "2").exit_code == 1
    assert run("simulate", "chess", "--games", "5").exit_code == 2


def test_simulate_exits_1_on_a_violation(monkeypatch):
    from cardgen.engines import himmel

    played = himmel.HimmelState._play

    def losing_a_card(self, move, legal):  # a broken engine: one card vanishes from the deck each move
        played(self, move, legal)
        if self.deck:
            self.deck.pop()

    monkeypatch.setattr(himmel.HimmelState, "_play", losing_a_card)
    result = run("simulate", "himmel", "--games", "3", "--players", "3")
    assert result.exit_code == 1
    assert "violation:" in result.output and "seed" in result.output and "move 1" in result.output


@pytest.fixture
def strict_content(tmp_path):
    """A copy of the himmel content whose limits cannot be met."""
    content = tmp_path / "content"
    shutil.copytree(CONTENT / "himmel", content / "himmel")
    game_yaml = content / "himmel" / "game.yaml"
    text = game_yaml.read_text("utf-8")
    text = text.replace("  games: 1000\n", "  games: 40\n").replace("turns_max: 150", "turns_max: 30")
    game_yaml.write_text(text, "utf-8")
    return content


def test_validate_simulate_reports_a_failed_limit_with_its_measured_value(strict_content):
    result = CliRunner().invoke(cli, ["--content", str(strict_content), "validate", "--simulate"])
    assert result.exit_code == 1
    assert "playability limit turns_max failed: measured" in result.output
    assert "required <= 30" in result.output and "limits.turns_max" in result.output


def test_validate_simulate_checks_each_player_count_of_by_players(strict_content):
    """limits.by_players is checked by validate --simulate at its own count: a 6-player band that
    cannot hold fails there and is reported at its own field; the count's table is printed."""
    game_yaml = strict_content / "himmel" / "game.yaml"
    text = game_yaml.read_text("utf-8").replace("turns_max: 30", "turns_max: 150")
    per_count = ("  balance_min: 0.5\n  by_players:\n    6: {first_player_win_rate: [0.9, 1.0]}\n"
                 "    3: {turns_max: 1000}\n")
    game_yaml.write_text(text.replace("  balance_min: 0.85\n", per_count, 1), "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(strict_content), "validate", "--simulate"])
    assert result.exit_code == 1, result.output
    assert [line for line in result.output.splitlines() if "games, seed" in line] == [
        "himmel: 40 games, seed 1, 4 players, bot greedy", "himmel: 40 games, seed 1, 3 players, bot greedy",
        "himmel: 40 games, seed 1, 6 players, bot greedy"]
    assert "playability limit first_player_win_rate failed at 6 players: measured" in result.output
    assert "(field limits.by_players.6.first_player_win_rate)" in result.output
    assert "failed at 4 players" not in result.output and "failed at 3 players" not in result.output


def test_validate_simulate_passes_on_the_real_limits_with_fewer_games(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT / "card-football", content / "card-football")
    game_yaml = content / "card-football" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8").replace("  games: 1000\n", "  games: 200\n"), "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "--simulate"])
    assert result.exit_code == 0, result.output
    assert "first_player_win_rate" in result.output


def test_validate_simulate_skips_a_game_without_an_engine():
    data = Path(__file__).resolve().parents[1] / "data"
    result = CliRunner().invoke(cli, ["--content", str(data), "validate", "mini", "--simulate"])
    assert result.exit_code == 0, result.output
    assert "mini: no engine, playability not simulated" in result.output
