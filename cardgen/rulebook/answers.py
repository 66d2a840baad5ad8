"""head-game's answer key: example footballers for every field of the pitch, from the
reference base.

The key is a booklet of its own (A4, one per language), not an appendix of the
rulebook: a trivia game's answers are looked up at the table while the rules stay
shut, and the thirteen tables are the largest single part of any layout, which
the A4 rulebook and the A5 booklet of a language would otherwise both lay out.
The rulebook keeps a short section saying where the key is (:func:`pointer`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

if TYPE_CHECKING:
    from cardgen.content.loader import Game
    from cardgen.i18n.texts import Texts

#: The answer key's paper: readable type with two example names per field.
PAPER = "a4"
#: Example footballers printed per field; the rest are counted ("+3 more").
PER_CELL = 2


def applies(game: "Game") -> bool:
    """Whether the game has an answer key (head-game; the reference base may still be missing)."""
    return game.id == "head-game"


def available(game: "Game") -> bool:
    """Whether the answer key can be printed: the game has one and its reference base exists."""
    return applies(game) and (game.root / "players").is_dir()


def file_name(game_id: str, language: str) -> str:
    """The answer key's file name, named in the rulebook and used by the build."""
    return f"{game_id}-{language}-answers-{PAPER}.pdf"


def pointer(game: "Game", language: str) -> dict[str, Any] | None:
    """What the rulebook says about the answer key: where it is, or that it is not ready."""
    if not applies(game):
        return None
    if not available(game):
        return {"available": False}
    from cardgen.engines import footballers as fb

    return {"available": True, "file": file_name(game.id, language), "total": len(fb.all_fields())}


def answer_key(game: "Game", texts: "Texts", per_cell: int = PER_CELL) -> dict[str, Any] | None:
    """The tables of the answer key: for every geography, fact x position -> example names."""
    if not applies(game):
        return None
    if not available(game):
        return {"available": False}
    from cardgen.engines import footballers as fb

    players_dir = game.root / "players"
    base, index = _answer_index(players_dir, _stamp(players_dir), _age_setting(game))
    cards = {c.attrs.get("country") or c.attrs.get("continent") or c.attrs.get("position")
             or c.attrs.get("fact"): c for c in game.cards if c.group != "action"}
    language = texts.language

    def name_of(card_value: str) -> Markup:
        card = cards[card_value]
        return texts.markup(card.text["name"])

    def player_name(player) -> str:
        return player.name_ru if language == "ru" else player.name

    tables = []
    answered = 0
    for geo in fb.GEO_CARDS:
        rows = []
        for fact in fb.FACTS:
            cells = []
            for position in fb.POSITION_CARDS:
                found = index.answers(geo, position, fact)
                answered += bool(found)
                cells.append(
                    {
                        "names": [player_name(p) for p in found[:per_cell]],
                        "more": max(0, len(found) - per_cell),
                    }
                )
            rows.append({"fact": name_of(fact), "cells": cells})
        tables.append({"geo": geo, "name": texts.plain(cards[geo].text["name"]), "rows": rows})
    return {
        "available": True,
        "as_of": base.as_of,
        "ages_on": index.on,
        "positions": [name_of(p) for p in fb.POSITION_CARDS],
        "tables": tables,
        "answered": answered,
        "total": len(fb.all_fields()),
    }


def warm_answer_key(game: "Game") -> None:
    """Read the reference base behind the answer key now (kept for the process)."""
    if available(game):
        players_dir = game.root / "players"
        _answer_index(players_dir, _stamp(players_dir), _age_setting(game))


def _age_setting(game: "Game") -> str:
    """The game's rule for the day ages are measured at (clarification 'age-date')."""
    return str(game.meta.settings.get("age_date", "as-of"))


def _stamp(folder: Path) -> tuple:
    files = sorted(folder.glob("*.yaml")) + [folder.parent / "countries.yaml"]
    return tuple((str(p), p.stat().st_mtime_ns) for p in files if p.is_file())


@functools.lru_cache(maxsize=2)
def _answer_index(players_dir: Path, stamp: tuple, age_setting: str):
    """The reference base and its answer index (ages on the game's day), read once per
    process (and per change)."""
    from cardgen.engines import footballers as fb

    base = fb.load_reference_base(players_dir)
    return base, fb.AnswerIndex(base, fb.age_date(age_setting, base))
