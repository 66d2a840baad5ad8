"""Does a translated card text fit its box?  The measure, as the translation side sees it.

The real answer belongs to the card drawing, which knows the fonts, the box sizes and
the smallest allowed type size: :func:`cardgen.cards.textfit.card_fits`.  The
translation side never imports it (drawing builds on translations, not the other way
round); whoever needs the real answer -- ``cardgen i18n status``, ``build --strict`` --
hands that function in as a :data:`Measure`.  Without one, the answer is a *length
budget* (:func:`budget_fits`): a number of characters per text field, scaled by the
card size, which is also what translators see as the ``max-length:N`` flag in their PO
files.  Each :class:`Fit` says which of the two measured it, so that reports can say so.
"""

from __future__ import annotations

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


def budget_fits(game: "Game", card: "Card", texts: dict[str, str], language: str) -> dict[str, Fit]:
    """Whether each ``field -> text`` of ``card`` is within its length budget."""
    result = {}
    for field, text in texts.items():
        limit = budget(game, field)
        result[field] = Fit(len(text) <= limit, "length budget", limit, len(text))
    return result


#: ``measure(game, card, {field: text}, language) -> {field: Fit}``: :func:`budget_fits`, or the
#: card drawing's :func:`cardgen.cards.textfit.card_fits`.
Measure = Callable[["Game", "Card", dict[str, str], str], dict[str, Fit]]
