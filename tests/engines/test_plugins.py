"""Engines as plug-ins: the entry point group, cardgen.testing, and the worked example in tests/data/plugin/."""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.content import load_game
from cardgen.engines import ENGINES, available_engines, engine_class, engine_for, plugin_engines
from cardgen.errors import ContentError
from cardgen.testing import EngineContractError, check_engine

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "tests" / "data" / "plugin"
GAMES = PLUGIN / "games"
CLI = [sys.executable, "-m", "cardgen"]


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory):
    """The example package on the import path with its entry point registered (see dev_install.py)."""
    sys.path.insert(0, str(PLUGIN))
    import dev_install

    folders = dev_install.write_dist_info(tmp_path_factory.mktemp("plugin-site"))
    added = [str(folder) for folder in folders]
    sys.path[:0] = added
    importlib.invalidate_caches()
    yield dev_install.python_path(folders)
    for entry in [*added, str(PLUGIN)]:
        sys.path.remove(entry)
    sys.modules.pop("dev_install", None)


def run(args: list[str], python_path: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": python_path}
    return subprocess.run([*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def tricks_engine(**options):
    return engine_for(load_game(GAMES / "tricks"), options)


def test_entry_point_found_and_listed(plugin_path):
    assert "tricks" in plugin_engines() and "tricks" not in ENGINES
    assert "tricks (from cardgen-tricks 0.1.0)" in available_engines()
    assert type(tricks_engine()).__module__ == "cardgen_tricks"


def test_unknown_engine_lists_bundled_and_plugins(plugin_path, tmp_path):
    game = load_game(GAMES / "tricks")
    game.meta = game.meta.model_copy(update={"engine": "trick"})
    with pytest.raises(ContentError) as failed:
        engine_for(game)
    message = str(failed.value)
    assert "game.yaml" in message and "names engine 'trick'" in message
    assert "card-football, head-game, himmel, klepka (bundled)" in message and "tricks (from cardgen-tricks" in message


def test_without_the_package_the_game_names_a_missing_engine():
    result = subprocess.run([*CLI, "--content", str(GAMES), "validate", "tricks"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert result.returncode == 1
    assert "names engine 'tricks'" in result.stderr and "no plug-ins installed" in result.stderr


def test_broken_entry_point_is_a_clear_error(plugin_path, tmp_path):
    info = tmp_path / "broken_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[cardgen.engines]\nnope = no_such_module:Engine\nplain = json:dumps\n")
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(ContentError, match=r"engine 'nope' from package broken-plugin 1.0 .* cannot be loaded: "
                                               r"ModuleNotFoundError"):
            engine_class("nope")
        with pytest.raises(ContentError, match="expected a subclass of cardgen.engines.base.Engine"):
            engine_class("plain")
    finally:
        sys.path.remove(str(tmp_path))


def test_bundled_id_wins_over_a_plugin(plugin_path, tmp_path):
    info = tmp_path / "shadow-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shadow\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[cardgen.engines]\nhimmel = cardgen_tricks:TricksEngine\n")
    sys.path.insert(0, str(tmp_path))
    try:
        assert engine_class("himmel").__module__ == "cardgen.engines.himmel"
        assert "himmel" not in plugin_engines()
    finally:
        sys.path.remove(str(tmp_path))


def test_example_passes_the_contract_checks(plugin_path):
    for options in ({}, {"follow-suit": "true", "ties": "last-played"}):
        report = check_engine(lambda: tricks_engine(**options), games=30, seed=3)
        assert report.players == [2, 3, 4] and report.games == 3 * (30 + 6)
        assert report.moves == report.games * 12


@pytest.mark.parametrize("game, players", [("card-football", [2]), ("himmel", [3, 6]), ("head-game", [2, 5])])
def test_bundled_engines_pass_the_contract_checks(game, players):
    report = check_engine(lambda: engine_for(load_game(ROOT / "content" / game)), games=4, seed=1, players=players)
    assert report.games == len(players) * 5


def _broken(attribute: str, replacement):
    """A TricksEngine whose states have one method replaced."""
    from cardgen_tricks import TricksEngine, TricksState

    state_class = type(f"Broken{attribute}", (TricksState,), {attribute: replacement})

    class BrokenEngine(TricksEngine):
        def new_game(self, players, seed):
            super().new_game(players, seed)  # the player-count check
            return state_class(self, players, seed)

    return lambda: BrokenEngine(load_game(GAMES / "tricks"))


def _contract_failures(factory) -> str:
    with pytest.raises(EngineContractError) as failed:
        check_engine(factory, games=5, seed=1, players=[2])
    return str(failed.value)


def test_contract_catches_unsorted_moves(plugin_path):
    from cardgen_tricks import TricksState

    message = _contract_failures(_broken("legal_moves", lambda self: sorted(TricksState.legal_moves(self), reverse=True)))
    assert "engine 'tricks' breaks the engine contract" in message
    assert "2 players: bot random: legal moves are not in sorted order" in message and "seed " in message


def test_contract_catches_a_clone_sharing_lists(plugin_path):
    def shallow_clone(self):
        other = self.blank_copy()
        other.hands, other.trick, other.taken, other.leader = self.hands, self.trick, self.taken, self.leader
        return other

    assert "a move applied to a clone changed the original" in _contract_failures(_broken("clone", shallow_clone))


def test_contract_catches_the_global_rng_and_accepted_illegal_moves(plugin_path):
    from cardgen_tricks import TricksState

    def apply(self, move):
        if move not in self.legal_moves():
            return  # silently ignores an illegal move
        TricksState.apply(self, move)
        self.leader = self.leader if self.trick else random.randrange(self.players)  # global RNG: not reproducible

    message = _contract_failures(_broken("apply", apply))
    assert "an illegal move was accepted instead of raising SimulationError" in message
    assert "played differently the second time" in message and "global random module" in message


def test_contract_catches_lost_cards_and_endless_games(plugin_path):
    from cardgen_tricks import TricksState

    def card_places(self):
        places = TricksState.card_places(self)
        places["trick"] = []  # forgets the cards of the trick in play
        return places

    assert "card conservation broken" in _contract_failures(_broken("card_places", card_places))
    message = _contract_failures(_broken("is_over", lambda self: False))
    assert "has no legal move" in message or "declared bound" in message


def test_cli_runs_the_plugin_game(plugin_path):
    checked = run(["--content", str(GAMES), "validate", "tricks", "--simulate"], plugin_path)
    assert checked.returncode == 0, checked.stderr
    assert "tricks: 500 games, seed 1, 3 players, bot random" in checked.stdout and "FAILED" not in checked.stdout
    played = run(["--content", str(GAMES), "simulate", "tricks", "--games", "200", "--players", "4",
                  "--option", "ties=last-played", "--jobs", "2"], plugin_path)
    assert played.returncode == 0, played.stderr
    assert "200 (100.00%)" in played.stdout and "ties_taken" in played.stdout
