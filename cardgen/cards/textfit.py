"""Does a translated card text fit its box?  Asked of the card drawing itself.

:func:`card_fits` lays the card out with the translated text, with the game's layout,
fonts and smallest allowed type size, and reports the fields that overflow.  It is the
:data:`cardgen.i18n.fit.Measure` that ``cardgen i18n status`` and ``build --strict`` hand
to the translation side; where the drawing cannot tell (no layout for the game) it
answers with the length budget (:func:`cardgen.i18n.fit.budget_fits`).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from cardgen.i18n.fit import Fit, budget_fits

if TYPE_CHECKING:
    from cardgen.content.loader import Game
    from cardgen.content.model import Card


def card_fits(game: "Game", card: "Card", texts: dict[str, str], language: str) -> dict[str, Fit]:
    """Whether each ``field -> text`` of ``card`` fits its box.

    Measured by the card renderer itself (its layout, fonts and smallest type
    size: the text is laid out on the card and overflows or not); by the length
    budget when the game's layout is not available.
    """
    overflow = _render_overflow(game, card, texts, language)
    if overflow is not None:
        return {
            field: Fit(field not in overflow, "renderer", None, len(text), overflow.get(field, ""))
            for field, text in texts.items()
        }
    return budget_fits(game, card, texts, language)


def measure(game: "Game", card: "Card", field: str, text: str, language: str) -> Fit:
    """Whether ``text`` fits the ``field`` box of ``card``."""
    return card_fits(game, card, {field: text}, language)[field]


def _render_overflow(game: "Game", card: "Card", texts: dict[str, str], language: str) -> dict[str, str] | None:
    """{field: why} for the fields that overflow when the renderer lays the card out;
    None when the renderer cannot tell (no layout for the game)."""
    from cardgen.errors import RenderError, TextOverflowError
    from cardgen.cards.card import CardRenderer

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
