"""Does a translated card text fit its box?

The real answer belongs to the card renderer, which knows the fonts, the box
sizes and the smallest allowed type size.  Until it exposes a fit function,
the answer is a *length budget*: a number of characters per text field,
scaled by the card size, which is also what translators see as the
``max-length:N`` flag in their PO files.  :func:`fit_method` says which of
the two is in use so that reports can say so.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

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

#: Where the renderer may expose ``text_fits(game, card, field, text, language) -> bool``.
RENDERER_FIT = ("cardgen.render.fit:text_fits", "cardgen.render:text_fits")


@dataclass(frozen=True)
class Fit:
    fits: bool
    method: str  # "renderer" or "length budget"
    limit: int | None  # the character budget, when that is the measure
    length: int


def budget(game: "Game", field: str) -> int:
    """The character budget of ``field`` on a card of ``game``."""
    base, scale = FIELD_BUDGETS.get(field, DEFAULT_BUDGET)
    size = game.meta.card_size
    if scale == "area":
        factor = size.width_mm * size.height_mm / POKER_AREA_MM2
    else:
        factor = size.width_mm / POKER_WIDTH_MM
    return max(8, int(base * factor))


def renderer_fit() -> Callable | None:
    """The renderer's fit function, when it exists."""
    for target in RENDERER_FIT:
        module_name, attribute = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        function = getattr(module, attribute, None)
        if callable(function):
            return function
    return None


def fit_method() -> str:
    return "renderer" if renderer_fit() is not None else "length budget"


def measure(game: "Game", card: "Card", field: str, text: str, language: str) -> Fit:
    """Whether ``text`` fits the ``field`` box of ``card``."""
    function = renderer_fit()
    if function is not None:
        return Fit(bool(function(game, card, field, text, language)), "renderer", None, len(text))
    limit = budget(game, field)
    return Fit(len(text) <= limit, "length budget", limit, len(text))
