"""Content formats as the loader reads them: the format a game.yaml names, the warnings an
earlier one gets, the error a newer one is (cardgen.content.formats)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.content import load_game, load_games
from cardgen.content.model import CONTENT_FORMAT
from cardgen.errors import ContentErrors, NewerRule

MINI = Path(__file__).resolve().parents[1] / "data" / "mini"


def game_with(tmp_path: Path, edit) -> Path:
    """A copy of tests/data/mini in format 1 (its 'format:' line, the last, dropped) whose
    game.yaml text ``edit`` rewrites."""
    game_dir = Path(shutil.copytree(MINI, tmp_path / "content" / "mini"))
    game_yaml = game_dir / "game.yaml"
    lines = game_yaml.read_text("utf-8").splitlines(keepends=True)
    assert lines[-1].startswith("format: 2")
    game_yaml.write_text(edit("".join(lines[:-1])), "utf-8")
    return game_dir


def load(game_dir: Path):
    return load_game(game_dir, display_root=game_dir.parents[1])


def test_a_game_yaml_without_format_is_format_1_and_says_what_changed(tmp_path):
    game = load(game_with(tmp_path, lambda text: text))
    assert game.format == 1
    [notice] = game.warnings
    text = str(notice)
    assert text.startswith("content/mini/game.yaml: written in content format 1 (no 'format:' key)")
    assert "limits:' need an 'engine:'" in text and "rules.goal" in text  # what changed
    assert "Run 'cardgen upgrade'" in text


def test_a_game_of_the_current_format_has_no_warning(tmp_path):
    game = load(game_with(tmp_path, lambda text: f"format: {CONTENT_FORMAT}\n{text}"))
    assert game.format == CONTENT_FORMAT and game.warnings == [] and game.accepted == []


def test_a_newer_format_is_one_error_naming_file_and_line(tmp_path):
    game_dir = game_with(tmp_path, lambda text: text.replace("id: mini\n", "id: mini\nformat: 7\nshiny: new-key\n"))
    with pytest.raises(ContentErrors) as failed:
        load(game_dir)
    # one error: the keys a newer cardgen added are not reported as unknown
    assert [str(e) for e in failed.value.errors] == [
        f"content/mini/game.yaml:3:9 (field format): written for a newer cardgen: format 7, this cardgen "
        f"reads up to {CONTENT_FORMAT}; install a newer cardgen (or keep a copy of the game written in an "
        "earlier format)"]


@pytest.mark.parametrize("value, expected", [("0", "expected at least 1"), ('"2"', "expected an integer")])
def test_a_format_that_is_no_format_is_a_schema_error(tmp_path, value, expected):
    game_dir = game_with(tmp_path, lambda text: f"format: {value}\n{text}")
    with pytest.raises(ContentErrors) as failed:
        load(game_dir)
    assert any(e.locator.line == 1 and e.locator.field == "format" for e in failed.value.errors), failed.value


LIMITS_WITHOUT_ENGINE = "limits: {games: 10}\n"


def test_a_rule_of_format_2_is_a_warning_for_format_1(tmp_path):
    game = load(game_with(tmp_path, lambda text: text + LIMITS_WITHOUT_ENGINE))
    [rule] = game.accepted
    assert isinstance(rule, NewerRule) and rule.since == 2 and rule.fix == "limits-without-engine"
    assert [str(w) for w in game.warnings[1:]] == [
        "content/mini/game.yaml:29:1 (field limits): limits: need an engine to play the game; remove "
        "'limits:' or name the game's engine in 'engine:' (an error from content format 2 on; this game is "
        "written in format 1: 'cardgen upgrade' does this for you)"]


def test_the_same_rule_is_an_error_for_format_2(tmp_path):
    game_dir = game_with(tmp_path, lambda text: "format: 2\n" + text + LIMITS_WITHOUT_ENGINE)
    with pytest.raises(ContentErrors) as failed:
        load(game_dir)
    assert [e.message for e in failed.value.errors] == [
        "limits: need an engine to play the game; remove 'limits:' or name the game's engine in 'engine:'"]


def test_other_errors_of_a_format_1_game_stay_errors(tmp_path):
    game_dir = game_with(tmp_path, lambda text: text.replace("total_cards: 6", "total_cards: 7") + LIMITS_WITHOUT_ENGINE)
    with pytest.raises(ContentErrors) as failed:
        load_games(game_dir.parent)
    assert [e.message for e in failed.value.errors] == [
        "total_cards is 7 but the cards add up to 6 (copies counted)"]


def test_the_bundled_games_are_in_the_current_format():
    content = Path(__file__).resolve().parents[2] / "content"
    assert {game.id: (game.format, game.warnings) for game in load_games(content)} == {
        name: (CONTENT_FORMAT, []) for name in ("card-football", "head-game", "himmel", "klepka")}


def test_an_explicit_format_1_is_named_at_its_line(tmp_path):
    game = load(game_with(tmp_path, lambda text: text.replace("id: mini\n", "id: mini\nformat: 1\n")))
    assert str(game.warnings[0]).startswith(
        "content/mini/game.yaml:3:9 (field format): written in content format 1 ('format: 1'); it still validates")
