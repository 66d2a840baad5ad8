"""Engines of the real content, loaded once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.content import load_game
from cardgen.engines import engine_for

CONTENT = Path(__file__).resolve().parents[2] / "content"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"

#: (game, players) pairs the shared tests run over.
GAMES = [("card-football", 2), ("himmel", 3), ("himmel", 4), ("himmel", 6)]


@pytest.fixture(scope="session")
def engines():
    cache: dict[tuple, object] = {}

    def get(game_id: str, **options):
        key = (game_id, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = engine_for(load_game(CONTENT / game_id), options)
        return cache[key]

    return get
