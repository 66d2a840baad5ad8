"""A language added with one command loads, falls back with warnings, and builds."""

from __future__ import annotations

from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.content import load_games
from cardgen.i18n import Texts, status


def test_add_a_language_with_one_command(content):
    result = CliRunner().invoke(cli, ["--content", str(content), "i18n", "add", "cs"])
    assert result.exit_code == 0, result.output
    assert (content / "klepka" / "locale" / "cs.po").is_file()
    assert (content / "common" / "locale" / "cs.po").is_file()
    assert "languages: [ru, en, de, pl, cs]" in (content / "klepka" / "game.yaml").read_text("utf-8")
    game = load_games(content, ["klepka"])[0]
    assert "cs" in game.meta.languages
    texts = Texts(game, "cs")
    assert texts.plain("rules.goal") == game.text("rules.goal", "ru")  # English has no text here: the Russian source
    assert texts.warnings and texts.warnings[0].kind == "missing"
    assert 'lang="ru"' in texts.markup("rules.goal")  # hyphenated as Russian
    (row,) = status(content, ["cs"], ["klepka"])
    assert (row.translated, row.missing) == (0, row.total)


def test_unknown_language_is_refused(content):
    result = CliRunner().invoke(cli, ["--content", str(content), "i18n", "add", "xx-YY"])
    assert result.exit_code != 0


def test_loader_reads_translations_but_not_fuzzy_ones():
    from pathlib import Path

    game = load_games(Path(__file__).resolve().parents[2] / "content", ["klepka"])[0]
    assert game.text("card.player-stenkin.name", "en") == "Keeper Wallace"
    assert game.text("card.player-stenkin.name", "de") == "Torwart Wandmann"


def test_cli_extract_update_status(content):
    runner = CliRunner()
    base = ["--content", str(content), "i18n"]
    assert runner.invoke(cli, base + ["extract"]).exit_code == 0
    assert (content / "klepka" / "locale" / "klepka.pot").is_file()
    result = runner.invoke(cli, base + ["update", "en"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, base + ["status", "en", "--game", "klepka"])
    assert result.exit_code == 0 and "klepka" in result.output and "too long" in result.output
    assert runner.invoke(cli, base + ["status", "en", "--check"]).exit_code == 1
