"""``cardgen upgrade``: a game of an earlier content format rewritten as text, comments and
order kept, idempotent, nothing written on a dry run (cardgen.project.upgrade)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.content.model import CONTENT_FORMAT
from cardgen.errors import ContentError
from cardgen.project.upgrade import plan_upgrade

DATA = Path(__file__).parents[1] / "data"
FORMAT_1 = DATA / "formats" / "1"  # last month's mini game: no format key, limits without an engine


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def games(tmp_path) -> Path:
    return Path(shutil.copytree(FORMAT_1, tmp_path / "games"))


def snapshot(folder: Path) -> dict[Path, tuple[bytes, int]]:
    return {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in folder.rglob("*") if path.is_file()}


def test_a_dry_run_shows_the_changes_and_writes_nothing(games):
    before = snapshot(games)
    result = run("upgrade", "--content", str(games), "--dry-run")  # as the issue writes it
    assert result.exit_code == 0, result.output
    assert "mini: content format 1 -> 2; would rewrite games/mini/game.yaml" in result.stdout
    assert "+format: 2\n" in result.stdout
    assert "+# limits:\n" in result.stdout
    assert result.stdout.rstrip().endswith("dry run: nothing was written")
    assert snapshot(games) == before


def test_upgrade_is_idempotent(games):
    assert run("--content", str(games), "upgrade").exit_code == 0
    once = snapshot(games)
    result = run("--content", str(games), "upgrade")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"mini: already in content format {CONTENT_FORMAT}\n"
    assert snapshot(games) == once


def test_the_data_is_the_same_but_for_the_format_and_the_limits_commented_out(games):
    game_yaml = games / "mini" / "game.yaml"
    before = yaml.safe_load(game_yaml.read_text("utf-8"))
    assert run("--content", str(games), "upgrade").exit_code == 0
    after = yaml.safe_load(game_yaml.read_text("utf-8"))
    assert list(after) == ["format", *[key for key in before if key != "limits"]]  # order kept
    assert after == {"format": CONTENT_FORMAT, **{k: v for k, v in before.items() if k != "limits"}}


def test_an_explicit_format_1_is_replaced_in_place_keeping_its_comment(games):
    game_yaml = games / "mini" / "game.yaml"
    text = game_yaml.read_text("utf-8").replace("id: mini\n", "id: mini\nformat: 1    # the first one\n")
    game_yaml.write_text(text, "utf-8")
    assert run("--content", str(games), "upgrade").exit_code == 0
    lines = game_yaml.read_text("utf-8").splitlines()
    assert "format: 2    # the first one" in lines and lines.count("format: 2    # the first one") == 1
    assert not any(line.startswith("format:") and "#" not in line for line in lines)


def test_windows_line_ends_stay_and_a_last_block_without_a_final_newline_is_commented(games):
    game_yaml = games / "mini" / "game.yaml"
    text = game_yaml.read_text("utf-8").rstrip("\n")  # the limits block is last: its last line has no newline
    game_yaml.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert run("--content", str(games), "upgrade").exit_code == 0
    data = game_yaml.read_bytes()
    assert b"\nformat: 2\r\n" in data and b"#   turns_max: 500\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")
    assert run("--content", str(games), "validate").exit_code == 0


def test_what_only_the_author_can_put_right_is_listed_and_nothing_is_written(games):
    text = games / "mini" / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8").replace("rules.setup.2:", "rules.setup.3:"), "utf-8")
    before = snapshot(games)
    result = run("--content", str(games), "upgrade")
    assert result.exit_code == 1
    assert "mini: content format 1; not rewritten, put these right first:" in result.stderr
    line = next(n for n, l in enumerate(text.read_text("utf-8").splitlines(), 1) if "rules.setup.3" in l)
    assert f"games/mini/text/ru.yaml:{line}:3 (field messages.rules.setup.3): 'rules.setup.2' is missing" in result.stderr
    assert snapshot(games) == before


def test_a_game_that_does_not_validate_is_not_upgraded(games):
    game_yaml = games / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8").replace("total_cards: 6", "total_cards: 7"), "utf-8")
    before = snapshot(games)
    result = run("--content", str(games), "upgrade")
    assert result.exit_code == 1
    assert "total_cards is 7 but the cards add up to 6" in result.stderr
    assert snapshot(games) == before


def test_a_flow_mapping_game_yaml_is_a_clear_error(games):
    game_yaml = games / "mini" / "game.yaml"
    data = yaml.safe_load(game_yaml.read_text("utf-8"))
    del data["limits"]
    game_yaml.write_text(yaml.safe_dump(data, default_flow_style=True, allow_unicode=True), "utf-8")
    with pytest.raises(ContentError, match="not a block mapping of one key per line; write 'format: 2'"):
        plan_upgrade(games)


def test_the_bundled_games_need_no_upgrade():
    assert [(u.game, u.current, u.changes) for u in plan_upgrade(Path(__file__).parents[2] / "content")] == [
        (name, True, []) for name in ("card-football", "head-game", "himmel", "klepka")]


def test_upgrade_writes_through_an_atomic_rename(games, monkeypatch):
    """A rewrite goes to a temporary file renamed over game.yaml: never half a file."""
    renamed = []
    real = os.replace

    def spy(source, target, *args, **kwargs):
        renamed.append(Path(target).name)
        return real(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "replace", spy)
    assert run("--content", str(games), "upgrade").exit_code == 0
    assert "game.yaml" in renamed
