"""Running the CLI on a content folder, for the hostile-input tests.

``run`` invokes the CLI in-process and fails the test on any exception but the CLI's own exit;
``clean_error`` asserts that a run ended the way a content mistake must: exit 1, ``error:`` lines
naming what is expected, no traceback.  ``MINI`` is the small valid game the tests copy and break.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import cli

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "data" / "mini"


def run(content: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--content", str(content), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def clean_error(code: int, output: str, *expected: str) -> list[str]:
    assert code == 1, output
    assert "Traceback" not in output, output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert errors, output
    for text in expected:
        assert any(text in line for line in errors), f"{text!r} not in:\n{output}"
    return errors
