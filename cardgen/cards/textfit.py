"""Does a translated card text fit its box?  Asked of the card drawing itself.

:func:`card_fits` lays the card out with the translated text, with the game's layout,
fonts and smallest allowed type size, and reports the fields that overflow, and those that
fit only under the layout's body size (:func:`body_size`).  It is the
:data:`cardgen.i18n.fit.Measure` that ``cardgen i18n status`` and ``build --strict`` hand
to the translation side; where the drawing cannot tell (no layout for the game) it
answers with the length budget (:func:`cardgen.i18n.fit.budget_fits`).

:func:`box_capacity` is the :data:`cardgen.i18n.fit.BoxMeasure` the commands that write PO
files hand in: the characters of text like the source that fit a field's box, at the
layout's size, its body size and its minimum size, for the entry's ``max-length:N`` flag and
its "Length budget" comment.

The body size.  A text element declares the size it is set in (``size``) and how far it may
shrink to fit (``min_size``); the layout's ``accessibility`` floors say under which size body
text (a card field on several lines) or any text should never be fitted (``body_text_pt``,
``smallest_text_pt``; ``cardgen validate`` warns under them).  Shrinking within the element's
declared range down to that floor is the layout's own design (head-game's long footballer
names shrink from 16 pt in every language, the source included) and draws no warning; a text
that fits only under the floor, though still above ``min_size``, is the warning.  So the body
size is the floor, kept within ``min_size`` .. ``size``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Iterator

from cardgen.cards.access import is_body_text, text_box
from cardgen.cards.card import element_field
from cardgen.cards.text import PT_PER_MM, chars_that_fit
from cardgen.i18n.fit import Capacity, Fit, NotPrinted, budget_fits

if TYPE_CHECKING:
    from cardgen.cards.card import CardRenderer
    from cardgen.content.layoutmodel import Element
    from cardgen.content.loader import Game
    from cardgen.content.model import Card

def body_size(element: "Element", layout) -> float:
    """The smallest size ``element`` prints at without a warning (module docstring)."""
    limits = layout.thresholds
    floor = limits.body_text_pt if is_body_text(element) else limits.smallest_text_pt
    least = element.min_size if element.min_size is not None else element.size
    return min(element.size, max(least, floor))


def card_fits(game: "Game", card: "Card", texts: dict[str, str], language: str) -> dict[str, Fit]:
    """Whether each ``field -> text`` of ``card`` fits its box.

    Measured by the card renderer itself (its layout, fonts and smallest type
    size: the text is laid out on the card and overflows or not, or fits only under
    the layout's body size: ``shrunk``); by the length budget when the game's layout
    is not available.
    """
    measured = _render(game, card, texts, language)
    if measured is None:
        return budget_fits(game, card, texts, language)
    overflow, shrunk = measured
    return {
        field: Fit(field not in overflow, "renderer", None, len(text),
                   overflow.get(field) or shrunk.get(field, ""), shrunk=field in shrunk and field not in overflow)
        for field, text in texts.items()
    }


def measure(game: "Game", card: "Card", field: str, text: str, language: str) -> Fit:
    """Whether ``text`` fits the ``field`` box of ``card``."""
    return card_fits(game, card, {field: text}, language)[field]


def _render(game: "Game", card: "Card", texts: dict[str, str],
            language: str) -> tuple[dict[str, str], dict[str, str]] | None:
    """({field: why} for the fields that overflow, {field: why} for those that fit only under the
    body size) when the renderer lays the card out; None when it cannot tell (no layout)."""
    from cardgen.errors import RenderError, TextOverflowError
    from cardgen.cards.card import CardRenderer

    shadow = copy.copy(game)
    keyed = {card.text[field]: text for field, text in texts.items() if field in card.text}
    shadow.messages = {**game.messages, language: {**game.messages.get(language, {}), **keyed}}
    overflow: dict[str, str] = {}
    for _ in range(len(texts) + 1):
        try:
            renderer = CardRenderer(shadow, language)
            plan = renderer.face(card)
        except TextOverflowError as error:
            field = error.locator.field if error.locator.field in texts else None
            if field is None or field in overflow:
                return {**overflow, **{f: error.message for f in texts if f not in overflow}}, {}
            overflow[field] = error.message
            # measure the other fields with this one replaced by its (fitting) source text
            source = game.messages[game.meta.source_language][card.text[field]]
            shadow.messages[language][card.text[field]] = source[:1]
            continue
        except RenderError:
            return None
        return overflow, shrunk_fields(renderer, plan, set(texts) - set(overflow))
    return overflow, {}


def field_texts(renderer: "CardRenderer", plan) -> Iterator[tuple[str, tuple, "Element"]]:
    """(field, drawing op, layout element) for each text of a planned face that prints a card text
    field, in drawing order."""
    for op, (_, element) in zip(plan.ops, renderer.op_sources.get(plan.label, ())):
        field = element_field(element.text) if op[0] == "text" else None
        if field is not None:
            yield field, op, element


def shrunk_fields(renderer: "CardRenderer", plan, fields: set[str] | None = None) -> dict[str, str]:
    """{field: why} for the card text fields of a planned face (those of ``fields``, or all) fitted
    under their body size (:func:`body_size`): the warning naming card and language."""
    found: dict[str, str] = {}
    for field, op, element in field_texts(renderer, plan):
        if (fields is not None and field not in fields) or field in found:
            continue
        floor = body_size(element, renderer.layout)
        if op[4] < floor - 1e-6:
            text = " ".join(op[2])
            width, height = text_box(op, element)
            holds = chars_that_fit(text, op[3], width, height, floor, element.leading, element.max_lines)
            found[field] = (
                f"card '{plan.label}' [{renderer.lang}] prints its '{field}' at {op[4]:g} pt, under the layout's body "
                f"size {floor:g} pt: {len(text)} characters, the box holds about {holds} at {floor:g} pt")
    return found


def fitted_fields(renderer: "CardRenderer", plan) -> dict[str, str]:
    """{field: what} for the card text fields of a planned face printed under their layout size but
    not under the body size: shrunk to fit, as the layout allows (the studio shows it; no warning)."""
    found: dict[str, str] = {}
    for field, op, element in field_texts(renderer, plan):
        if field not in found and body_size(element, renderer.layout) - 1e-6 <= op[4] < element.size - 1e-6:
            found[field] = f"'{field}' printed at {op[4]:g} pt to fit (the layout's size {element.size:g} pt)"
    return found


# --- the budget in the PO files ------------------------------------------------------------------

_RENDERERS: dict[tuple[int, str], tuple["Game", "CardRenderer"]] = {}


def box_capacity(game: "Game", card: "Card", field: str) -> Capacity | NotPrinted | None:
    """How many characters of text like the source fit the ``field`` box of ``card`` (the
    :class:`~cardgen.i18n.fit.Capacity`); :class:`~cardgen.i18n.fit.NotPrinted` when the card's
    layout prints no such field; None when the drawing cannot tell (no layout)."""
    from cardgen.errors import RenderError

    language = game.meta.source_language
    try:
        renderer = _renderer(game, language)
        plan = renderer.face(card)
    except RenderError:
        return None
    for name, op, element in field_texts(renderer, plan):
        if name == field:
            break
    else:
        return NotPrinted(card.id, field)
    text, font = " ".join(op[2]), op[3]
    width, height = text_box(op, element)
    least = element.min_size if element.min_size is not None else element.size
    floor = body_size(element, renderer.layout)

    def count(size: float) -> int:
        return chars_that_fit(text, font, width, height, size, element.leading, element.max_lines)

    return Capacity(card=card.id, field=field, box_mm=(width / PT_PER_MM, height / PT_PER_MM),
                    size_pt=element.size, size_chars=count(element.size), floor_pt=floor, floor_chars=count(floor),
                    min_pt=least, min_chars=count(least))


def _renderer(game: "Game", language: str) -> "CardRenderer":
    """One renderer per game and language while the game object lives (its faces are cached)."""
    from cardgen.cards.card import CardRenderer

    key = (id(game), language)
    kept = _RENDERERS.get(key)
    if kept is None or kept[0] is not game:
        if len(_RENDERERS) >= 8:
            _RENDERERS.clear()
        kept = _RENDERERS[key] = (game, CardRenderer(game, language))
    return kept[1]
