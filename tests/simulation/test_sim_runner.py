"""Seeds, jobs and records: the same results whatever runs them."""

from __future__ import annotations


import pytest

from cardgen.errors import InvariantViolation, SimulationError
from cardgen.simulation import (
    FULL_CHECKS,
    RunInfo,
    derive_seed,
    game_seed,
    play_checked,
    run_games,
    summarize,
    turn_stats,
    wilson_interval,
)


def test_game_seeds_are_fixed_and_distinct():
    assert game_seed(1, 0) == game_seed(1, 0)
    assert len({game_seed(1, i) for i in range(1000)}) == 1000
    assert game_seed(1, 5) != game_seed(2, 5)
    assert derive_seed(1, "game", 0) == game_seed(1, 0) != derive_seed(1, "bot")
    assert 0 <= game_seed(123, 4) < 2**63


@pytest.mark.parametrize(("game", "players"), [("card-football", 2), ("himmel", 4)])
def test_jobs_do_not_change_the_results(engines, game, players):
    engine = engines(game)
    one = run_games(engine, 240, seed=9, players=players, bot="random", jobs=1)
    two = run_games(engine, 240, seed=9, players=players, bot="random", jobs=2)
    assert one == two
    assert [r.index for r in one] == list(range(240)) and all(r.completed for r in one)


def test_progress_reports_every_game(engines):
    done = []
    run_games(engines("himmel"), 150, seed=1, players=3, progress=done.append)
    assert sum(done) == 150


def test_unknown_bot_and_bad_player_count_fail_early(engines):
    with pytest.raises(SimulationError, match="no bot 'clever'"):
        run_games(engines("himmel"), 1, seed=1, players=3, bot="clever")
    with pytest.raises(SimulationError):
        run_games(engines("himmel"), 1, seed=1, players=2)


def test_an_engine_error_becomes_a_violation_with_seed_and_move(engines, monkeypatch):
    from cardgen.engines import card_football

    engine = engines("card-football")

    def broken_attack(self, *args):
        raise KeyError("boom")

    monkeypatch.setitem(card_football._CASE_HANDLERS, card_football.Case.ATTACK, broken_attack)
    with pytest.raises(InvariantViolation) as caught:
        for seed in range(50):
            play_checked(engine, 2, seed, policy=FULL_CHECKS)
    assert "KeyError" in str(caught.value) and caught.value.move_number >= 1
    records = run_games(engine, 5, seed=3, players=2)
    assert not any(r.completed for r in records) and all("KeyError" in r.violation for r in records)


def test_summary_fields(engines):
    engine = engines("card-football")
    records = run_games(engine, 100, seed=2, players=2)
    summary = summarize(RunInfo("card-football", 100, 2, 2, "random", engine.options), records)
    for key in ("game", "games", "seed", "completed", "violations", "turns", "wins", "draws",
                "first_player_win_rate", "first_player_win_rate_ci95", "balance", "events"):
        assert key in summary
    assert set(summary["turns"]) >= {"mean", "p50", "p95", "max"}
    assert summary["completed"] == 100 and summary["violations"] == 0
    assert sum(summary["wins"]) + summary["draws"] == pytest.approx(100)
    assert summary["events"]["goals"] == sum(summary["scores_mean"]) * 100
    low, high = summary["first_player_win_rate_ci95"]
    assert low <= summary["first_player_win_rate"] <= high


def test_shared_wins_split_the_credit(engines):
    from cardgen.simulation import GameRecord

    records = [GameRecord(0, 1, 10, True, winners=(0, 1), scores=(1, 1, 3)),
               GameRecord(1, 2, 10, True, winners=(2,), scores=(4, 4, 0))]
    summary = summarize(RunInfo("himmel", 2, 1, 3, "random", {}), records)
    assert summary["wins"] == [0.5, 0.5, 1.0] and summary["shared_wins"] == 1
    assert summary["balance"] == 0.75


def test_statistics_helpers():
    assert turn_stats([5, 1, 3, 2, 4]) == {"mean": 3.0, "p50": 3, "p95": 5, "min": 1, "max": 5}
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
