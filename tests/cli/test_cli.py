"""The command line's contract: exit codes, --debug, lazy commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import COMMANDS, cli

DATA = Path(__file__).resolve().parents[1] / "data"


def test_every_registered_command_imports_and_has_help():
    runner = CliRunner()
    for name in COMMANDS:
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Usage: " in result.output


def test_python_dash_m_runs_the_cli():
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "--content", str(DATA), "validate", "mini"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "mini: " in done.stdout


def test_missing_content_folder_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["--content", str(tmp_path / "none"), "validate"])
    assert result.exit_code == 2
    assert "no games found" in result.output


def test_debug_shows_the_exception_instead_of_the_plain_message(tmp_path):
    content = tmp_path / "content"
    (content / "mini").mkdir(parents=True)
    (content / "mini" / "game.yaml").write_text("id: [\n", "utf-8")
    plain = CliRunner().invoke(cli, ["--content", str(content), "validate"])
    assert plain.exit_code == 1 and "YAML syntax error" in plain.output
    debug = CliRunner().invoke(cli, ["--content", str(content), "--debug", "validate"])
    assert debug.exit_code == 1
    assert type(debug.exception).__name__ == "ContentErrors"
