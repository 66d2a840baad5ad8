"""Does a translated card text fit its box?

The real answer belongs to the card renderer, which knows the fonts, the box
sizes and the smallest allowed type size.  Until it exposes a fit function,
the answer is a *length budget*: a number of characters per text field,
scaled by the card size, which is also what translators see as the
``max-length:N`` flag in their PO files.  :func:`fit_method` says which of
the two is in use so that reports can say so.
"""

from __future__ import annotations

import copy
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.content.loader import Game
    from cardgen.content.model import Card

#: Characters per field on a poker card (63.5 x 88.9 mm).  Single-line fields
#: scale with the card width, the multi-line rule box with its area.
POKER_WIDTH_MM = 63.5
POKER_AREA_MM2 = 63.5 * 88.9
FIELD_BUDGETS: dict[str, tuple[int, str]] = {
    "name": (24, "width"),
    "codes": (40, "width"),
    "rule": (150, "area"),
}
DEFAULT_BUDGET = (60, "width")



@dataclass(frozen=True)
class Fit:
    fits: bool
    method: str  # "renderer" or "length budget"
    limit: int | None  # the character budget, when that is the measure
    length: int
    detail: str = ""


def budget(game: "Game", field: str) -> int:
    """The character budget of ``field`` on a card of ``game``."""
    base, scale = FIELD_BUDGETS.get(field, DEFAULT_BUDGET)
    size = game.meta.card_size
    if scale == "area":
        factor = size.width_mm * size.height_mm / POKER_AREA_MM2
    else:
        factor = size.width_mm / POKER_WIDTH_MM
    return max(8, int(base * factor))


def renderer_available() -> bool:
    try:
        importlib.import_module("cardgen.render.card")
    except ImportError:
        return False
    return True


def fit_method() -> str:
    return "renderer" if renderer_available() else "length budget"


def card_fits(game: "Game", card: "Card", texts: dict[str, str], language: str) -> dict[str, Fit]:
    """Whether each ``field -> text`` of ``card`` fits its box.

    Measured by the card renderer itself (its layout, fonts and smallest type
    size: the text is laid out on the card and overflows or not); by the length
    budget when the renderer or the game's layout is not available.
    """
    overflow = _render_overflow(game, card, texts, language)
    if overflow is not None:
        return {
            field: Fit(field not in overflow, "renderer", None, len(text), overflow.get(field, ""))
            for field, text in texts.items()
        }
    result = {}
    for field, text in texts.items():
        limit = budget(game, field)
        result[field] = Fit(len(text) <= limit, "length budget", limit, len(text))
    return result


def measure(game: "Game", card: "Card", field: str, text: str, language: str) -> Fit:
    """Whether ``text`` fits the ``field`` box of ``card``."""
    return card_fits(game, card, {field: text}, language)[field]


def _render_overflow(game: "Game", card: "Card", texts: dict[str, str], language: str) -> dict[str, str] | None:
    """{field: why} for the fields that overflow when the renderer lays the card out;
    None when the renderer cannot tell (not installed, no layout for the game)."""
    if not renderer_available():
        return None
    from cardgen.errors import RenderError, TextOverflowError
    from cardgen.render.card import CardRenderer

    shadow = copy.copy(game)
    keyed = {card.text[field]: text for field, text in texts.items() if field in card.text}
    shadow.messages = {**game.messages, language: {**game.messages.get(language, {}), **keyed}}
    overflow: dict[str, str] = {}
    for _ in range(len(texts) + 1):
        try:
            CardRenderer(shadow, language).face(card)
            return overflow
        except TextOverflowError as error:
            field = error.locator.field if error.locator.field in texts else None
            if field is None or field in overflow:
                return {**overflow, **{f: error.message for f in texts if f not in overflow}}
            overflow[field] = error.message
            # measure the other fields with this one replaced by its (fitting) source text
            source = game.messages[game.meta.source_language][card.text[field]]
            shadow.messages[language][card.text[field]] = source[:1]
        except RenderError:
            return None
    return overflow
