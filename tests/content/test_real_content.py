"""The four games in content/ load, and their counts are the ones GAMES.md pins."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.content import composition, load_games

CONTENT = Path(__file__).resolve().parents[2] / "content"


@pytest.fixture(scope="module")
def games():
    return {game.id: game for game in load_games(CONTENT)}


def counts(game) -> dict[tuple[str, str | None], tuple[int, int]]:
    return {(row.group, row.kind): (row.declared, row.found) for row in composition(game)}


def test_all_four_games_load(games):
    assert sorted(games) == ["card-football", "head-game", "himmel", "klepka"]


def test_head_game_counts(games):
    table = counts(games["head-game"])
    assert table[("total", None)] == (90, 90)
    assert table[("geography", None)] == (35, 35)
    assert table[("geography", "country")] == (27, 27)
    assert table[("geography", "continent")] == (8, 8)
    assert table[("position", None)] == (16, 16)
    assert table[("fact", None)] == (30, 30)
    assert table[("action", None)] == (9, 9)
    cards = games["head-game"].cards
    assert {c.attrs["country"] for c in cards if c.kind == "country"} == {
        "france", "portugal", "argentina", "england", "italy", "spain", "brazil", "netherlands", "germany",
    }
    assert all(c.copies == 3 for c in cards if c.kind == "country")
    assert all(c.copies == 2 for c in cards if c.kind == "continent")
    assert len({c.attrs["fact"] for c in cards if c.group == "fact"}) == 16
    assert len({c.attrs["action"] for c in cards if c.group == "action"}) == 5


def test_card_football_counts(games):
    game = games["card-football"]
    main = [p.card for p in game.physical_cards() if p.card.group == "main"]
    assert len(main) == 72
    # two 36-card decks: every suit and rank 6..ace exactly twice
    pairs = {(c.attrs["suit"], c.attrs["rank"]) for c in main}
    assert len(pairs) == 36 and all(c.copies == 2 for c in main)
    save = [p.card for p in game.physical_cards() if p.card.group == "save"]
    assert len(save) == 18
    assert sorted(c.attrs.get("rank", "joker") for c in save).count("joker") == 2
    backs = {c.back for c in main} | {c.back for c in save}
    assert {c.back for c in main} != {c.back for c in save} and len(backs) == 2


def test_himmel_counts(games):
    game = games["himmel"]
    values = sorted(c.attrs["value"] for c in game.cards if c.group == "number")
    assert values == list(range(1, 71))
    specials = {c.kind: c.copies for c in game.cards if c.group == "special"}
    assert specials == {"reverse": 6, "steal": 5, "raise-target": 4}
    assert sorted(c.kind for c in game.cards if c.group == "token") == ["arrow", "marker"]
    assert len(game.physical_cards()) == 87


def test_klepka_tiles_fill_the_default_grid(games):
    game = games["klepka"]
    size = game.meta.card_size
    assert size.width_mm == size.height_mm
    settings = game.meta.settings
    assert len(game.physical_cards()) == settings["rows"] * settings["columns"] == 100
    assert all(c.copies % 2 == 0 for c in game.cards if c.group == "footballer")


def test_every_open_point_of_every_game_is_clarified(games):
    for game in games.values():
        assert game.meta.open_points
        assert {c.id for c in game.meta.clarifications} == set(game.meta.open_points)


def test_validate_prints_a_table_per_game_and_exits_0():
    result = CliRunner().invoke(cli, ["--content", str(CONTENT), "validate"])
    assert result.exit_code == 0, result.output
    for game in ("card-football", "head-game", "himmel", "klepka"):
        assert f"{game}: " in result.output
    assert "MISMATCH" not in result.output
    assert "4 game(s) valid." in result.output


def test_validate_one_game():
    result = CliRunner().invoke(cli, ["--content", str(CONTENT), "validate", "himmel"])
    assert result.exit_code == 0
    assert "himmel: " in result.output and "klepka" not in result.output


def test_validate_reports_errors_in_the_reference_base_the_engine_reads(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(CONTENT / "head-game", content / "head-game")
    players = content / "head-game" / "players" / "brazil.yaml"
    text = players.read_text("utf-8")
    players.write_text(text.replace("born: 1940-10-23", "born: someday", 1), "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "head-game"])
    assert result.exit_code == 1, result.output
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "born: 1940-10-23" in row)
    assert f"error: content/head-game/players/brazil.yaml:{line}:" in result.output
    assert "players[0].born): expected a date written YYYY-MM-DD, found text 'someday'" in result.output
