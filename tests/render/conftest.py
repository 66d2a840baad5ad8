from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
DECKS = ROOT / "tests" / "data" / "decks"


@pytest.fixture(scope="session")
def games():
    from cardgen.content import load_games

    return {game.id: game for game in load_games(CONTENT)}


@pytest.fixture(scope="session")
def quiz():
    from cardgen.content import load_games

    return load_games(DECKS, ["quiz"])[0]
