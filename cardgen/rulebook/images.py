"""Pictures of cards for the rulebook, from the card renderer.

The card renderer owns drawing; this module only asks it for a PNG of one
card face in one language and keeps it for the process (the A4 and A5 books
of a language built in one process draw each card once).  Where ``cardgen.cards`` is not
importable (a stripped-down install), the rulebook leaves an empty slot of the
card's shape instead of a picture.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from cardgen.content.loader import Game

DPI = 150


def renderer() -> Callable | None:
    """The function that draws one card as a PNG, when the card renderer is installed."""
    try:
        importlib.import_module("cardgen.cards.card")
        importlib.import_module("cardgen.printing.shop")
    except ImportError:
        return None
    return _render_png


def _render_png(game: "Game", card_id: str, language: str, dpi: int) -> bytes:
    from cardgen.cards.png import plans_pdf, rasterise

    renderer_ = _renderer(game, language)
    plan = renderer_.face(game.card(card_id))
    size = game.meta.card_size
    width = round(size.width_mm / 25.4 * dpi)
    height = round(size.height_mm / 25.4 * dpi)
    return rasterise(plans_pdf(renderer_, [plan], width, height, dpi), width, height, dpi)[0]


_RENDERERS: dict = {}


def _renderer(game: "Game", language: str):
    from cardgen.cards.card import CardRenderer

    key = (id(game), language)
    if key not in _RENDERERS:
        _RENDERERS.clear() if len(_RENDERERS) > 8 else None
        _RENDERERS[key] = CardRenderer(game, language)
    return _RENDERERS[key]


_PNGS: dict = {}


def card_png(game: "Game", card_id: str, language: str, dpi: int = DPI) -> bytes | None:
    """PNG of one card face (kept for the process, so A4 and A5 draw each card once)."""
    function = renderer()
    if function is None:
        return None
    key = (id(game), game.id, card_id, language, dpi)
    if key not in _PNGS:
        if len(_PNGS) > 2000:
            _PNGS.clear()
        _PNGS[key] = function(game, card_id, language, dpi)
    return _PNGS[key]
