"""Does a translated card text fit its box?  The measure, as the translation side sees it.

The real answer belongs to the card drawing, which knows the fonts, the box sizes and
the smallest allowed type size: :func:`cardgen.cards.textfit.card_fits`.  The
translation side never imports it (drawing builds on translations, not the other way
round); whoever needs the real answer -- ``cardgen i18n status``, ``build --strict`` --
hands that function in as a :data:`Measure`.  Without one, the answer is a *length
budget* (:func:`budget_fits`): a number of characters per text field, scaled by the
card size.  Each :class:`Fit` says which of the two measured it, so that reports can say so.

The budget translators see in their PO files (the ``max-length:N`` flag and the "Length
budget" comment) comes from the real box in the same way: whoever writes PO files
(``cardgen i18n extract``, ``update``, ``add``, ``cardgen new``) hands in a
:data:`BoxMeasure`, :func:`cardgen.cards.textfit.box_capacity`, which counts the characters
of the source text that fit the box at the layout's size, at the smallest size that draws no
warning, and at the minimum size (:class:`Capacity`).  The scaled budget is left only for a
game whose layout cannot be read.
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
    #: it fits, but only at a size under the layout's body size (:attr:`Capacity.floor_pt`):
    #: a warning naming card and language, which ``build --strict`` fails on
    shrunk: bool = False


@dataclass(frozen=True)
class Capacity:
    """How many characters of a card's text field fit its box, measured by the card drawing
    with the source text (its words and letters: the count is "about"): at the size the layout
    sets the text in, at the layout's body size (the smallest it prints without a warning: the
    layout's ``accessibility`` floor for the kind of text, within its own ``size`` ..
    ``min_size`` range) and at the minimum size (longer does not fit at all)."""

    card: str
    field: str
    box_mm: tuple[float, float]  # width x height, as the text runs
    size_pt: float
    size_chars: int
    floor_pt: float
    floor_chars: int
    min_pt: float
    min_chars: int

    @property
    def limit(self) -> int:
        """The ``max-length:N`` of the PO entry: the characters that print without a warning."""
        return self.floor_chars

    def comment(self) -> str:
        """The "Length budget" comment of the PO entry."""
        w, h = self.box_mm
        steps = [f"about {self.size_chars} print at the layout's {self.size_pt:g} pt"]
        warned = "the smallest size without a warning ('build --strict' fails beyond)"
        if self.min_pt < self.floor_pt:
            if self.floor_pt < self.size_pt:
                steps.append(f"{self.floor_chars} at {self.floor_pt:g} pt, {warned}")
            else:
                steps[0] += f", {warned}"
            steps.append(f"{self.min_chars} at {self.min_pt:g} pt, the minimum")
        elif self.min_pt < self.size_pt:
            steps.append(f"{self.min_chars} at {self.min_pt:g} pt, the minimum")
        return (f"Length budget: {self.limit} characters (the '{self.field}' box of card '{self.card}', "
                f"{w:.1f} x {h:.1f} mm): {'; '.join(steps)}; beyond, the text does not fit. Counted with "
                "text like the source; check yours with 'cardgen i18n status'.")


@dataclass(frozen=True)
class NotPrinted:
    """The card's layout prints no such text on the card (``omit``, or no element for this card):
    the entry gets no length budget."""

    card: str
    field: str

    def comment(self) -> str:
        return (f"No length budget: the layout prints no '{self.field}' on card '{self.card}' (the rulebook "
                "and the digital tables show it).")


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

#: ``box_measure(game, card, field) -> Capacity``, :class:`NotPrinted`, or None when the drawing cannot
#: tell (no layout): :func:`cardgen.cards.textfit.box_capacity`.
BoxMeasure = Callable[["Game", "Card", str], "Capacity | NotPrinted | None"]
