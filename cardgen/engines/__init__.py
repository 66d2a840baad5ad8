"""Reference engines: one module per game, driven by the game's content.

``engine_for(game, options)`` builds the engine named by ``game.yaml``'s
``engine`` key.  Engine modules are imported lazily so that loading one game
does not import every other.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from cardgen.content.loader import Game
from cardgen.engines.base import Engine
from cardgen.errors import ContentError, Locator

# engine id -> "module:class"; a new engine is one line here plus its module.
ENGINES: dict[str, str] = {
    "card-football": "cardgen.engines.card_football:CardFootballEngine",
    "himmel": "cardgen.engines.himmel:HimmelEngine",
    "klepka": "cardgen.engines.klepka:KlepkaEngine",
    "head-game": "cardgen.engines.head_game:HeadGameEngine",
}


def engine_for(game: Game, options: Mapping[str, Any] | None = None) -> Engine:
    engine_id = game.meta.engine
    target = ENGINES.get(engine_id or "")
    if target is None:
        raise ContentError(
            f"game '{game.id}' names engine {engine_id!r}; available: {', '.join(sorted(ENGINES)) or 'none'}",
            Locator(file=game.root / "game.yaml", field="engine"),
        )
    module_name, class_name = target.split(":")
    engine_class = getattr(importlib.import_module(module_name), class_name)
    return engine_class(game, options)
