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
    if engine_id is None:
        raise ContentError(
            f"game '{game.id}' has no engine, so it cannot be played here: it validates and builds "
            "without one. To simulate it, name a reference engine in game.yaml ('engine: ID', one "
            f"of {', '.join(sorted(ENGINES))}) or write one: a module in cardgen/engines/ with a "
            "subclass of cardgen.engines.base.Engine, registered by one line in ENGINES "
            "(cardgen/engines/__init__.py)",
            Locator(file=game.root / "game.yaml", field="engine"),
        )
    target = ENGINES.get(engine_id)
    if target is None:
        raise ContentError(
            f"game '{game.id}' names engine {engine_id!r}; available: {', '.join(sorted(ENGINES)) or 'none'}",
            Locator(file=game.root / "game.yaml", field="engine"),
        )
    module_name, class_name = target.split(":")
    engine_class = getattr(importlib.import_module(module_name), class_name)
    return engine_class(game, options)


def engine_content_errors(game: Game) -> list[ContentError]:
    """Problems the game's engine finds in the content when it is built from it.

    Engines read more than the generic checks cover (head-game's reference
    base of footballers, the settings they need); building the engine is the
    one way to check all of it.  A game without an engine has nothing to add.
    """
    from cardgen.errors import ContentErrors

    if game.meta.engine is None:
        return []
    try:
        engine_for(game)
    except ContentErrors as failed:
        return list(failed.errors)
    except ContentError as failed:
        return [failed]
    return []
