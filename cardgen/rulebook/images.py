"""Pictures of cards for the rulebook, from the card renderer.

The card renderer owns drawing; this module only asks it for a PNG of one
card face in one language.  Until the renderer offers such a function, there
is no picture and the rulebook leaves an empty slot of the card's shape.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from cardgen.content.loader import Game

#: Candidates ``module:function(game, card_id, language, dpi) -> bytes`` (PNG).
CANDIDATES = (
    "cardgen.render.image:card_png",
    "cardgen.render:card_png",
    "cardgen.render.image:render_card_png",
)
DPI = 150


def renderer() -> Callable | None:
    for target in CANDIDATES:
        module_name, attribute = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        function = getattr(module, attribute, None)
        if callable(function):
            return function
    return None


def card_png(game: "Game", card_id: str, language: str, dpi: int = DPI) -> bytes | None:
    function = renderer()
    if function is None:
        return None
    return function(game, card_id, language, dpi)
