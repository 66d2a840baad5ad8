"""Every case of the broken-content corpus gives its precise message and exit 1.

A case is a folder under tests/data/broken/ holding the files that replace
those of the valid game tests/data/mini, and expect.yaml listing the errors
one `cardgen validate` run must report (file, line, column, field, message).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = sorted(p for p in (DATA / "broken").iterdir() if p.is_dir())


def make_content(tmp_path: Path, case: Path | None = None) -> Path:
    content = tmp_path / "content"
    shutil.copytree(DATA / "mini", content / "mini")
    if case is not None:
        for source in case.rglob("*"):
            if source.is_file() and source.name != "expect.yaml":
                target = content / "mini" / source.relative_to(case)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
    return content


def run_validate(content: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["--content", str(content), "validate"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output.splitlines()


def expected_prefix(entry: dict) -> str:
    prefix = f"error: content/{entry['file']}"
    if "line" in entry:
        prefix += f":{entry['line']}"
        if "column" in entry:
            prefix += f":{entry['column']}"
    return prefix


def test_corpus_has_at_least_twenty_cases():
    assert len(CASES) >= 20


def test_the_unbroken_game_is_valid(tmp_path):
    code, lines = run_validate(make_content(tmp_path))
    assert code == 0, lines


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_case_reports_every_expected_error(case: Path, tmp_path: Path):
    expected = yaml.safe_load((case / "expect.yaml").read_text("utf-8"))["errors"]
    code, lines = run_validate(make_content(tmp_path, case))

    assert code == 1
    assert not any("Traceback" in line for line in lines)
    errors = [line for line in lines if line.startswith("error: ")]
    for entry in expected:
        prefix = expected_prefix(entry)
        field = f"field {entry['field']}" if "field" in entry else ""
        matching = [
            line
            for line in errors
            if line.startswith(prefix + (":" if "line" not in entry else ""))
            or line.startswith(prefix + " ")
            or line.startswith(prefix + ":")
        ]
        matching = [line for line in matching if field in line and entry["message"] in line]
        assert matching, f"expected {prefix} {field} ... {entry['message']!r} in:\n" + "\n".join(lines)


def test_a_ten_megabyte_file_is_refused_without_reading_it(tmp_path):
    content = make_content(tmp_path)
    big = content / "mini" / "cards.yaml"
    line = b"# padding " + b"x" * 90 + b"\n"
    big.write_bytes(line * (10_000_000 // len(line) + 1))
    code, lines = run_validate(content)
    assert code == 1
    assert any(
        line.startswith("error: content/mini/cards.yaml: file is 10.0 MB; a content file may be at most 2 MiB")
        for line in lines
    ), lines


def test_errors_of_several_games_are_reported_in_one_run(tmp_path):
    content = make_content(tmp_path)
    shutil.copytree(content / "mini", content / "other")
    game = content / "other" / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("id: mini", "id: other"), "utf-8")
    for name in ("mini", "other"):
        cards = content / name / "cards.yaml"
        cards.write_text(cards.read_text("utf-8").replace("copies: 3", "copies: 0"), "utf-8")
    code, lines = run_validate(content)
    assert code == 1
    assert any(line.startswith("error: content/mini/cards.yaml:9:13") for line in lines)
    assert any(line.startswith("error: content/other/cards.yaml:9:13") for line in lines)


def test_unknown_game_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["--content", str(make_content(tmp_path)), "validate", "nope"])
    assert result.exit_code == 2
    assert "unknown game 'nope'; available: mini" in result.output
