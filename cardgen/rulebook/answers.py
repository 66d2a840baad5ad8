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


#: The data files of a footballer reference base (cardgen.engines.footballers), as game.yaml
#: declares them; the same test as 'cardgen answers'.
BASE_FILES = ("players", "countries")


def applies(game: "Game") -> bool:
    """Whether the game has an answer key: it declares a footballer reference base in
    ``data_files`` (head-game does; so may a publisher's own quiz). The base may still be missing."""
    return all(name in game.meta.data_files for name in BASE_FILES)


def available(game: "Game") -> bool:
    """Whether the answer key can be printed: the game has one and its reference base exists."""
    return applies(game) and game.data_path("players").is_dir()


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

    base, index = _game_answer_index(game)
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
        "as_of": _printed_date(base.as_of, texts),
        "ages_on": _printed_date(index.on, texts),
        "positions": [name_of(p) for p in fb.POSITION_CARDS],
        "tables": tables,
        "answered": answered,
        "total": len(fb.all_fields()),
    }


def _printed_date(day, texts: "Texts") -> str:
    """A date as the language writes it on the cards: the CLDR pattern of 'rulebook.date-format'
    (30 June 2025 in English, 30.06.2025 in German and Russian)."""
    from babel.dates import format_date

    from cardgen.errors import RenderError

    pattern = texts.plain("rulebook.date-format")
    try:
        return format_date(day, format=pattern, locale=texts.language)
    except (ValueError, KeyError, AttributeError) as exc:
        raise RenderError(f"'rulebook.date-format' ({texts.language}) is {pattern!r}, not a date pattern "
                          f"such as 'd MMMM y' or 'dd.MM.y': {exc}", texts.origin("rulebook.date-format")) from None


def warm_answer_key(game: "Game") -> None:
    """Read the reference base behind the answer key now (kept for the process)."""
    if available(game):
        _game_answer_index(game)


def _age_setting(game: "Game") -> str:
    """The game's rule for the day ages are measured at (clarification 'age-date')."""
    return str(game.meta.settings.get("age_date", "as-of"))


def _game_answer_index(game: "Game"):
    players_dir, countries = game.data_path("players"), game.data_path("countries")
    return _answer_index(players_dir, countries, _stamp(players_dir, countries), _age_setting(game))


def _stamp(folder: Path, countries: Path) -> tuple:
    files = sorted(folder.glob("*.yaml")) + [countries]
    return tuple((str(p), p.stat().st_mtime_ns) for p in files if p.is_file())


@functools.lru_cache(maxsize=2)
def _answer_index(players_dir: Path, countries: Path, stamp: tuple, age_setting: str):
    """The reference base and its answer index (ages on the game's day), read once per
    process (and per change)."""
    from cardgen.engines import footballers as fb

    base = fb.load_reference_base(players_dir, countries)
    return base, fb.AnswerIndex(base, fb.age_date(age_setting, base))
