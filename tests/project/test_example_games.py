"""cardgen examples: the bundled games listed, and copied into a content folder ready to build."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import resources
from cardgen.cli import cli
from cardgen.project.examples import ExampleError, copy_example, example_ids, examples, own_layout

ROOT = Path(__file__).resolve().parents[2]


def test_the_examples_are_the_bundled_games_with_their_card_counts():
    from cardgen.content import load_games

    listed = {example.id: example for example in examples()}
    assert sorted(listed) == sorted(path.parent.name for path in (ROOT / "content").glob("*/game.yaml"))
    for game in load_games(ROOT / "content"):
        assert listed[game.id].cards == sum(card.copies for card in game.cards)
        assert listed[game.id].designs == len(game.cards)
    assert listed["klepka"].title == "Klepka" and listed["klepka"].cards == 100  # its English title (en.po)


def test_cli_lists_them(tmp_path):
    result = CliRunner().invoke(cli, ["examples"])
    assert result.exit_code == 0, result.output
    for game_id in example_ids():
        assert f"\n{game_id} " in result.output
    assert "cardgen examples copy" in result.output


def test_a_copied_game_validates_and_draws_the_same_cards(tmp_path):
    from cardgen.content import load_game
    from cardgen.cards import card_png
    from cardgen.project.validation import validate_games

    content = tmp_path / "games"
    written = copy_example("klepka", content)
    game_dir = content / "klepka"
    assert game_dir / "layout.yaml" in written and content / "schema" / "cards.schema.json" in written
    # the copy's $schema lines resolve inside the content folder
    for name in ("game.yaml", "cards.yaml", "layout.yaml"):
        first = (game_dir / name).read_text("utf-8").splitlines()[0]
        schema = first.split("$schema=")[1]
        assert (game_dir / schema).resolve().is_file(), (name, schema)
    (copied,) = validate_games(content, ["klepka"])
    bundled = load_game(ROOT / "content" / "klepka", display_root=ROOT)
    card = next(card.id for card in bundled.cards if card.group == "footballer")
    assert card_png(copied, card, "de", dpi=60) == card_png(bundled, card, "de", dpi=60)
    assert card_png(copied, card, "de", dpi=60, side="back") == card_png(bundled, card, "de", dpi=60, side="back")


def test_copying_never_overwrites(tmp_path):
    content = tmp_path / "games"
    (content / "klepka").mkdir(parents=True)
    (content / "klepka" / "mine.txt").write_text("mine", "utf-8")
    with pytest.raises(ExampleError, match="exists already"):
        copy_example("klepka", content)
    assert [path.name for path in (content / "klepka").iterdir()] == ["mine.txt"]
    assert sorted(path.name for path in content.iterdir()) == ["klepka"]  # no staging folder left


def test_cli_copy_errors_are_one_line_each(tmp_path):
    runner = CliRunner()
    unknown = runner.invoke(cli, ["examples", "copy", "chess", str(tmp_path / "games")])
    assert unknown.exit_code == 2 and "the examples are: " in unknown.output and "klepka" in unknown.output
    assert not (tmp_path / "games").exists()
    first = runner.invoke(cli, ["examples", "copy", "himmel", str(tmp_path / "games")])
    assert first.exit_code == 0, first.output
    again = runner.invoke(cli, ["examples", "copy", "himmel", str(tmp_path / "games")])
    assert again.exit_code == 1 and "exists already" in again.output and "Traceback" not in again.output


def test_own_layout_points_the_schema_line_at_the_content_folder():
    text = (resources.CARD_TEMPLATES / "klepka.yaml").read_text("utf-8")
    mine = own_layout(text)
    assert mine.splitlines()[0] == "# yaml-language-server: $schema=../schema/layout.schema.json"
    assert mine.splitlines()[1:] == text.splitlines()[1:]
    assert own_layout("safe_mm: 3\n").startswith("# yaml-language-server") and own_layout("safe_mm: 3\n").endswith(
        "safe_mm: 3\n")


def test_no_games_says_where_it_looked_and_what_to_do(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--content", "games", "validate"])
    assert result.exit_code == 2
    assert "the content folder games does not exist" in result.output
    assert "cardgen examples copy klepka games" in result.output and "new GAME" in result.output
