"""Reference engines: one module per game, driven by the game's content.

``engine_for(game, options)`` builds the engine named by ``game.yaml``'s
``engine`` key.  The bundled engines are listed in :data:`ENGINES`; an engine
can also come from another installed package, which declares it as an entry
point of the group ``cardgen.engines`` (``id = "module:Class"``, see
docs/engines.md).  A bundled id wins over a plug-in of the same id, so
installing a package never changes how the bundled games play.  Engine
modules are imported lazily so that loading one game does not import every
other.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import Any, Mapping

from cardgen.content.loader import Game
from cardgen.engines.base import Engine
from cardgen.errors import ContentError, Locator, shown_path

# engine id -> "module:class"; a new bundled engine is one line here plus its module.
ENGINES: dict[str, str] = {
    "card-football": "cardgen.engines.card_football:CardFootballEngine",
    "himmel": "cardgen.engines.himmel:HimmelEngine",
    "klepka": "cardgen.engines.klepka:KlepkaEngine",
    "head-game": "cardgen.engines.head_game:HeadGameEngine",
}

#: Entry point group through which installed packages offer engines.
ENTRY_POINT_GROUP = "cardgen.engines"


def plugin_engines() -> dict[str, metadata.EntryPoint]:
    """Engine id -> entry point, for every installed package offering one
    (bundled ids left out: they always mean the bundled engine).

    Read afresh on each call (a few milliseconds), so an engine installed
    while a session runs is found.
    """
    found: dict[str, metadata.EntryPoint] = {}
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        if entry.name not in ENGINES:
            found.setdefault(entry.name, entry)
    return found


def available_engines() -> str:
    """The engine ids one can name, for messages: bundled, then plug-ins with their package."""
    bundled = ", ".join(sorted(ENGINES))
    plugins = [f"{name} (from {_package(entry)})" for name, entry in plugin_engines().items()]
    return f"{bundled} (bundled)" + (f"; plug-ins: {', '.join(plugins)}" if plugins else "; no plug-ins installed")


def engine_class(engine_id: str, locator: Locator | None = None) -> type[Engine]:
    """The engine class for ``engine_id``: bundled first, then installed plug-ins."""
    target = ENGINES.get(engine_id)
    if target is not None:
        module_name, class_name = target.split(":")
        return getattr(importlib.import_module(module_name), class_name)
    entry = plugin_engines().get(engine_id)
    if entry is None:
        raise ContentError(f"unknown engine {engine_id!r}; available: {available_engines()}", locator)
    where = f"engine {engine_id!r} from package {_package(entry)} (entry point {entry.value!r} in group {ENTRY_POINT_GROUP})"
    try:
        loaded = entry.load()
    except Exception as error:  # a broken plug-in is the publisher's to fix: say which and why
        raise ContentError(f"{where} cannot be loaded: {type(error).__name__}: {error}", locator) from error
    if not (isinstance(loaded, type) and issubclass(loaded, Engine)):
        raise ContentError(f"{where} is {loaded!r}, expected a subclass of cardgen.engines.base.Engine", locator)
    if getattr(loaded, "id", None) != engine_id:
        raise ContentError(f"{where}: the class says id = {getattr(loaded, 'id', None)!r}, expected {engine_id!r}", locator)
    return loaded


def engine_for(game: Game, options: Mapping[str, Any] | None = None) -> Engine:
    engine_id = game.meta.engine
    locator = _engine_locator(game)
    if engine_id is None:
        raise ContentError(
            f"game '{game.id}' has no engine, so it cannot be played here: it validates and builds "
            f"without one. To simulate it, name an engine in game.yaml ('engine: ID', one of "
            f"{available_engines()}) or write one: a subclass of cardgen.engines.base.Engine, in a "
            "package of your own declared under the entry point group 'cardgen.engines' "
            "(docs/engines.md), or a module in cardgen/engines/ registered by one line in ENGINES "
            "(cardgen/engines/__init__.py)",
            locator,
        )
    if engine_id not in ENGINES and engine_id not in plugin_engines():
        raise ContentError(f"game '{game.id}' names engine {engine_id!r}; available: {available_engines()}", locator)
    chosen = engine_class(engine_id, locator)
    return chosen(game, options)


def _engine_locator(game: Game) -> Locator:
    """game.yaml's ``engine`` field, shown as the game's other errors show their files."""
    document = game.documents.get("game.yaml")
    if document is not None:
        return document.locate(("engine",))
    return Locator(file=shown_path(game.root / "game.yaml", game.display_root), field="engine")


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


def _package(entry: metadata.EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else entry.value.split(":")[0]
