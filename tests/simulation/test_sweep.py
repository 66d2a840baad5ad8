"""cardgen sweep: seeds independent of chunking and order, exact aggregation, resume, CLI."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.content import load_game
from cardgen.engines import engine_for
from cardgen.simulation import GameRecord, RunInfo, summarize
from cardgen.simulation.sweep import (
    SweepPlan, content_fingerprint, document_text, game_seed, play_chunk, run_chunk, run_inline, run_sweep,
    sweep_document,
)

ROOT = Path(__file__).resolve().parents[2]
HIMMEL = ROOT / "content" / "himmel"
PLUGIN = ROOT / "tests" / "data" / "plugin"
CLI = [sys.executable, "-m", "cardgen"]


def himmel_plan(**changes) -> SweepPlan:
    settings = dict(game_dir=HIMMEL, engine="cardgen.engines.himmel:HimmelEngine", players=(3, 4),
                    options=(("take-when", ("any-time", "only-when-stuck")),), bots=("random",), games=60, seed=5)
    settings.update(changes)
    return SweepPlan(**settings)


def sweep_text(plan: SweepPlan, store: Path, execute=run_inline) -> str:
    game = load_game(plan.game_dir)
    engine = engine_for(game)
    content = content_fingerprint(plan.game_dir, type(engine))
    result = run_sweep(plan, store, content, execute)
    return document_text(sweep_document(result, game, engine.id, content, engine.options))


def test_grid_cells_and_seeds():
    plan = himmel_plan(bots=("random", "greedy"))
    cells = plan.cells()
    assert [c.label for c in cells[:3]] == ["3 players, take-when=any-time, bot random",
                                            "3 players, take-when=any-time, bot greedy",
                                            "3 players, take-when=only-when-stuck, bot random"]
    assert len(cells) == 8 and len({c.key for c in cells}) == 8
    # a cell's seeds depend on its configuration, not on its place in the grid
    reordered = himmel_plan(players=(4, 3), bots=("greedy", "random")).cells()
    assert {c.key for c in reordered} == {c.key for c in cells}
    assert game_seed(5, cells[0].key, 7) != game_seed(5, cells[0].key, 8) != game_seed(6, cells[0].key, 8)


def test_results_do_not_depend_on_chunking_or_cell_order(tmp_path):
    reference = json.loads(sweep_text(himmel_plan(), tmp_path / "a"))
    small_chunks = json.loads(sweep_text(himmel_plan(chunk_games=7), tmp_path / "b"))
    assert small_chunks == reference
    reversed_grid = json.loads(sweep_text(himmel_plan(players=(4, 3)), tmp_path / "c"))
    by_key = {cell["key"]: {k: v for k, v in cell.items() if k != "cell"} for cell in reference["cells"]}
    assert {cell["key"]: {k: v for k, v in cell.items() if k != "cell"} for cell in reversed_grid["cells"]} == by_key


def test_aggregation_matches_simulate_summary(tmp_path):
    """A cell's figures equal simulate's summary of the same games, computed record by record."""
    plan = himmel_plan(games=80, check_first=0, check_every=0)
    document = json.loads(sweep_text(plan, tmp_path))
    cell = plan.cells()[3]  # 4 players, only-when-stuck
    task = next(t for t in plan.tasks() if t.cell == cell.index)
    records = [GameRecord(index, 0, turns, violation is None, tuple(winners), tuple(scores), draw, dict(events))
               for index, turns, violation, winners, scores, draw, events, _ in play_chunk(task)]
    engine = engine_for(load_game(HIMMEL), {"take-when": "only-when-stuck"})
    summary = summarize(RunInfo("himmel", 80, 5, 4, "random", engine.options), records)
    figures = document["cells"][3]
    for key in ("completed", "completion_rate", "wins", "win_rates", "draws", "draw_rate", "balance",
                "shared_wins", "scores_mean", "first_player_win_rate"):
        assert figures[key] == summary[key], key
    assert {k: figures["turns"][k] for k in summary["turns"]} == summary["turns"]
    assert figures["events"] == {k: v for k, v in summary["events"].items() if v}  # no event names given here
    assert sum(n for _, n in figures["turns_histogram"]) == 80
    low, high = figures["win_rates_ci95"][0]
    assert low < figures["win_rates"][0] < high


def test_chunk_tallies_merged_in_any_order_equal_one_tally_of_every_record():
    """Workers tally their chunks; the sweep merges them as they come back."""
    import random

    from cardgen.simulation.sweep_stats import CellTally

    plan = himmel_plan(games=90, chunk_games=13, players=(4,), options=())
    chunks = [(run_chunk(task), play_chunk(task)) for task in plan.tasks()]
    # a few records turned into violations, so the kept examples are merged too
    records = [record for _, chunk_records in chunks for record in chunk_records]
    broken = [(index, turns, f"broken {index}", [], [], False, [], {})
              for index, turns, *_ in records[::7]]
    whole = CellTally(4)
    whole.add(records + broken)
    for order in range(3):
        pieces = [result.tally for result, _ in chunks]
        extra = CellTally(4)
        extra.add(broken)
        pieces.append(extra)
        random.Random(order).shuffle(pieces)
        merged = CellTally(4)
        for piece in pieces:
            merged.merge(piece)
        assert vars(merged) == vars(whole)
    assert whole.violation_count == len(broken) and len(whole.violations) == 10
    with pytest.raises(ValueError, match="3-player tally into a 4-player"):
        whole.merge(CellTally(3))


def test_chunk_file_text_is_the_records_of_its_games():
    task = himmel_plan(games=12, players=(3,), options=()).tasks()[0]
    result = run_chunk(task)
    records = json.loads(json.dumps(play_chunk(task)))
    chunk = json.loads(result.text)
    assert chunk == {"format": 2, "task": task.name, "games": 12, "records": records, "sha256": chunk["sha256"]}
    assert chunk["sha256"] == hashlib.sha256(json.dumps([task.name, records], separators=(",", ":")).encode()).hexdigest()
    assert result.text.endswith("}\n") and result.tally.games == 12


def test_checked_sample_finds_what_bare_games_play_alike(tmp_path):
    """Checked and bare games make the same moves: the check sample changes no figure."""
    everything = json.loads(sweep_text(himmel_plan(games=30, check_first=0, check_every=1), tmp_path / "a"))
    nothing = json.loads(sweep_text(himmel_plan(games=30, check_first=0, check_every=0), tmp_path / "b"))
    assert everything["checks"]["checked_games_per_cell"] == 30 and nothing["checks"]["checked_games_per_cell"] == 0
    # only the checked games count their choices (legal moves per turn) and lead changes; every other
    # figure is the same
    assert all(cell["choices"]["games_counted"] == 30 and 0 < cell["choices"]["decision_share"] <= 1
               and cell["choices"]["branching_mean"] > 1 for cell in everything["cells"])
    assert all(cell["choices"]["games_counted"] == 0 for cell in nothing["cells"])
    assert all(cell["drama"]["games_counted"] == 30 for cell in everything["cells"])
    assert ([{k: v for k, v in cell.items() if k not in ("choices", "drama", "checked_games")} for cell in everything["cells"]]
            == [{k: v for k, v in cell.items() if k not in ("choices", "drama", "checked_games")} for cell in nothing["cells"]])


def test_interrupted_sweep_resumes_from_saved_chunks(tmp_path):
    plan = himmel_plan(chunk_games=20)
    reference = sweep_text(plan, tmp_path / "whole")
    finished = []

    def interrupted(tasks, done):
        for task in tasks:
            if len(finished) == 5:
                raise KeyboardInterrupt
            done(task, run_chunk(task))
            finished.append(task)

    with pytest.raises(KeyboardInterrupt):
        sweep_text(plan, tmp_path / "store", interrupted)
    saved = sorted((tmp_path / "store").glob("*/*.json"))
    assert len(saved) == 5
    saved[0].write_text('{"task": "cell000-00', encoding="utf-8")  # a chunk torn by a crash is played again
    replayed = []

    def counting(tasks, done):
        replayed.extend(tasks)
        run_inline(tasks, done)

    assert sweep_text(plan, tmp_path / "store", counting) == reference
    assert len(replayed) == len(plan.tasks()) - 4


def test_a_game_past_its_bound_is_a_violation_checked_or_not(tmp_path, monkeypatch):
    from cardgen.engines.himmel import HimmelEngine

    monkeypatch.setattr(HimmelEngine, "move_bound", lambda self, players: 10)
    from cardgen.simulation import sweep as sweep_module

    monkeypatch.setattr(sweep_module, "_ENGINES", {})
    document = json.loads(sweep_text(himmel_plan(games=25, players=(3,), options=()), tmp_path))
    cell = document["cells"][0]
    assert cell["violations"] == 25 and cell["completed"] == 0 and cell["completion_rate"] == 0.0
    assert len(cell["violation_examples"]) == 10
    assert all("game still running after" in m and "declared bound 10" in m for m in cell["violation_examples"])
    assert cell["within_limits"] is False


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def test_cli_sweep_is_byte_identical_and_writes_run_facts_apart(tmp_path):
    args = ["sweep", "himmel", "--players", "3,4", "--option", "take-when=any-time,only-when-stuck",
            "--games", "40", "--seed", "2", "--scheduler", "inline", "--no-pdf"]
    first = run_cli(*args, "--out", str(tmp_path / "one"))
    second = run_cli(*args, "--out", str(tmp_path / "two"))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert (tmp_path / "one" / "sweep.json").read_bytes() == (tmp_path / "two" / "sweep.json").read_bytes()
    document = json.loads((tmp_path / "one" / "sweep.json").read_text())
    assert len(document["cells"]) == 4 and document["grid"]["players"] == [3, 4]
    text = (tmp_path / "one" / "sweep.json").read_text()
    assert str(tmp_path) not in text and "seconds" not in text and "127.0.0.1" not in text
    run = json.loads((tmp_path / "one" / "run.json").read_text())
    assert run["games_played_now"] == 160 and run["scheduler"] == "inline" and "seconds" in run
    assert "3 players, take-when=only-when-stuck, bot random" in first.stdout
    again = run_cli(*args, "--out", str(tmp_path / "one"))
    assert "0 games played" in again.stdout and "(4 chunk(s) reused)" in again.stdout


@pytest.mark.parametrize("args, message", [
    (["--option", "take-when=sometimes"], "rule option 'take-when' cannot be 'sometimes'"),
    (["--option", "colour=red"], "unknown rule option 'colour'"),
    (["--option", "take-when"], "expected NAME=A,B,..."),
    (["--players", "2,3"], "himmel plays with 3 to 6 players, not 2"),
    (["--players", "three"], "expected player counts like 3,4,5"),
    (["--bot", "clever"], "unknown bot clever; himmel has greedy, random"),
])
def test_cli_rejects_a_bad_grid_before_playing(tmp_path, args, message):
    result = run_cli("sweep", "himmel", "--games", "5", "--scheduler", "inline", "--out", str(tmp_path), *args)
    assert result.returncode in (1, 2) and message in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "sweep.json").exists()


def test_plugin_game_runs_in_a_sweep(tmp_path):
    sys.path.insert(0, str(PLUGIN))
    try:
        dev_install = importlib.import_module("dev_install")
        python_path = dev_install.python_path(dev_install.write_dist_info(tmp_path / "site"))
    finally:
        sys.path.remove(str(PLUGIN))
        sys.modules.pop("dev_install", None)
    result = run_cli("--content", str(PLUGIN / "games"), "sweep", "tricks", "--players", "2,3,4",
                     "--option", "follow-suit=false,true", "--bot", "random,greedy", "--games", "100",
                     "--scheduler", "inline", "--no-pdf", "--out", str(tmp_path / "out"),
                     env={"PYTHONPATH": python_path})
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "out" / "sweep.json").read_text())
    assert document["engine"] == "tricks" and len(document["cells"]) == 12
    assert all(cell["completed"] == 100 and cell["turns"]["max"] == 12 for cell in document["cells"])
    assert set(document["effects"]) == {"follow-suit"}


def test_a_worker_keeps_its_most_recently_used_engines(monkeypatch):
    from cardgen.simulation import sweep as sweep_module

    monkeypatch.setattr(sweep_module, "_ENGINES", {})
    monkeypatch.setattr(sweep_module, "ENGINES_KEPT", 2)
    target, folder = "cardgen.engines.himmel:HimmelEngine", str(HIMMEL)
    any_time = sweep_module.worker_engine(target, folder, (("take-when", "any-time"),))
    stuck = sweep_module.worker_engine(target, folder, (("take-when", "only-when-stuck"),))
    assert sweep_module.worker_engine(target, folder, (("take-when", "any-time"),)) is any_time  # kept, and used last
    sweep_module.worker_engine(target, folder, ())
    assert [key[2] for key in sweep_module._ENGINES] == [(("take-when", "any-time"),), ()]
    assert sweep_module.worker_engine(target, folder, (("take-when", "only-when-stuck"),)) is not stuck  # built again
