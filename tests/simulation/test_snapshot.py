"""The game folder a sweep sends to Dask workers: read, written out, played alike."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from cardgen.errors import SimulationError
from cardgen.simulation import snapshot as snapshots
from cardgen.simulation.snapshot import GameSnapshot, take_snapshot, unpack
from cardgen.simulation.sweep import SweepPlan, run_chunk

ROOT = Path(__file__).resolve().parents[2]


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_unpacked_snapshot_is_the_folder_and_plays_the_same_games(tmp_path):
    game = tmp_path / "himmel"
    shutil.copytree(ROOT / "content" / "himmel", game)
    taken = take_snapshot(game)
    assert taken.name == "himmel" and take_snapshot(game).digest == taken.digest
    folder = unpack(taken)
    assert folder.name == "himmel" and folder != game and files_of(folder) == files_of(game)
    assert unpack(taken) == folder  # once per process
    plan = SweepPlan(game, "cardgen.engines.himmel:HimmelEngine", (5,), (), ("random",), games=30, seed=3)
    task = plan.tasks()[0]
    assert run_chunk(dataclasses.replace(task, game_dir=str(folder))).text == run_chunk(task).text
    (game / "text" / "ru.yaml").write_text((game / "text" / "ru.yaml").read_text("utf-8") + "\n", "utf-8")
    assert take_snapshot(game).digest != taken.digest


def test_links_leading_out_of_the_game_are_not_sent(tmp_path):
    game = tmp_path / "game"
    (game / "text").mkdir(parents=True)
    (game / "game.yaml").write_text("id: game\n", "utf-8")
    (tmp_path / "secret.txt").write_text("not for the workers", "utf-8")
    (game / "text" / "leak.txt").symlink_to(tmp_path / "secret.txt")
    (game / "text" / "alias.yaml").symlink_to(game / "game.yaml")
    names = [name for name, _ in take_snapshot(game).files]
    assert names == ["game.yaml", "text/alias.yaml"]


def test_a_folder_too_big_to_send_is_a_clear_error(tmp_path, monkeypatch):
    game = tmp_path / "game"
    game.mkdir()
    (game / "big.bin").write_bytes(b"x" * 2000)
    monkeypatch.setattr(snapshots, "SNAPSHOT_LIMIT", 1000)
    with pytest.raises(SimulationError, match="holds more than 0 MB; a sweep on a running Dask cluster sends it to "
                                              "every worker and takes no more: keep large files"):
        take_snapshot(game)


@pytest.mark.parametrize("name", ["../escape.txt", "/tmp/escape.txt", "a/../../escape.txt", ""])
def test_a_snapshot_path_leaving_its_folder_is_refused_before_anything_is_written(name):
    hostile = GameSnapshot("game", f"hostile{len(name)}", (("game.yaml", b"id: game\n"), (name, b"x")))
    with pytest.raises(SimulationError, match="leaves its folder"):
        unpack(hostile)
    home = snapshots._home()
    assert not list(home.parent.glob("escape.txt")) and not list(home.rglob("*escape.txt"))
    assert not (home / hostile.digest[:16]).exists()
    with pytest.raises(SimulationError, match="leaves its folder"):
        unpack(GameSnapshot("..", "hostile-name", (("game.yaml", b""),)))
