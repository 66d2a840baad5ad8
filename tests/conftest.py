"""Settings for the whole test run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory):
    """cardgen's cache of parsed files (cardgen.content.memo) in a folder of this run, not the
    user's ~/.cache: the CLI run in a subprocess inherits it too."""
    from cardgen.content import memo

    folder = tmp_path_factory.mktemp("cardgen-cache")
    saved = {name: os.environ.get(name) for name in ("CARDGEN_CACHE_DIR", "CARDGEN_CACHE")}
    os.environ["CARDGEN_CACHE_DIR"] = str(folder)
    os.environ.pop("CARDGEN_CACHE", None)
    memo._folder.cache_clear()
    yield folder
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    memo._folder.cache_clear()


@pytest.fixture(scope="session")
def games():
    """The bundled games, loaded once: {game id: Game} (a test module may define its own ``games``)."""
    from cardgen.content import load_games

    return {game.id: game for game in load_games(ROOT / "content")}


@pytest.fixture(scope="session")
def quiz():
    """tests/data/decks/quiz: a small game whose layout uses every kind of element."""
    from cardgen.content import load_games

    return load_games(ROOT / "tests" / "data" / "decks", ["quiz"])[0]
