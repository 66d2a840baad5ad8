"""What prints for a card that has no ``name`` text: a label, never its id.

A card's id (``number-3``, ``red-1``) is a name for files and references, not
for players.  Where a card's name would print (under its picture in the
rulebook, on a face whose layout asks for ``{card.label}``), a card without a
``name`` text field gets, in the build language:

1. the *declared label* of its kind, else of its group (``label:`` in
   game.yaml), a message whose text may use ``{n}`` (the card's number, below)
   and ``{ATTR}`` for any of the card's attributes whose id is a single word of
   letters (``{value}`` -> ``attrs: {value: 7}`` -> ``7``);
2. otherwise the name of its kind, else of its group, followed by its number
   ("Number 3", German "Zahl 3"); a kind or group of a single card design
   prints its name alone (a number says nothing there).

The *number* counts, 1-based and in deck order, the card designs (entries of
cards.yaml, not copies) without a name that the same message labels: a kind's
label or name numbers those of the kind, a group's label those of the group
(but for kinds with a label of their own), a group's name those of the group.

A card with a ``name`` gets its name, so ``{card.label}`` prints something
readable for every card.  The same function serves the rulebook (through
:meth:`Texts.raw`, which records fallbacks as warnings) and the card faces
(through ``Game.text``), so both always print the same label.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from cardgen.errors import I18nError
from cardgen.i18n import refs

if TYPE_CHECKING:
    from cardgen.content.loader import Game
    from cardgen.content.model import Card
    from cardgen.i18n.texts import Texts

NAME_FIELD = "name"
NUMBER_ARGUMENT = "n"

#: lookup(key) -> (text in the build language or its fallback, language of that text)
Lookup = Callable[[str], "tuple[str, str]"]


@dataclass(frozen=True)
class Label:
    """The printed label of a card and the language its text is in (which differs from
    the build's when the message fell back to the source language)."""

    text: str
    language: str


@dataclass(frozen=True)
class LabelSource:
    """Where a card's label comes from: a message key and, for a declared label, the
    arguments of its placeholders; for a name, the number to append (None: none)."""

    key: str
    declared: bool
    arguments: dict[str, object]
    number: int | None


def label_source(game: "Game", card: "Card") -> LabelSource:
    """The message (and its arguments) that labels ``card``; see the module docstring."""
    name_key = card.text.get(NAME_FIELD)
    if name_key is not None:
        return LabelSource(name_key, False, {}, None)
    (_, _, key, declared), number, fellows = _numbering(game)[card.id]
    if declared:
        return LabelSource(key, True, label_arguments(card, number), number)
    return LabelSource(key, False, {}, number if fellows > 1 else None)


def card_label(game: "Game", card: "Card", lookup: Lookup) -> Label:
    """The label of ``card`` with its text from ``lookup``: :func:`texts_lookup` for the
    rulebook, :func:`game_lookup` for card faces."""
    source = label_source(game, card)
    text, language = lookup(source.key)
    if source.declared:
        try:
            text = refs.fill(text, source.arguments)
        except I18nError as error:
            raise I18nError(error.message, game.text_origin(source.key, language).with_(card=card.id)) from None
    elif source.number is not None:
        text = f"{text} {source.number}"
    return Label(text, language)


def texts_lookup(texts: "Texts") -> Lookup:
    """Lookup through :class:`Texts`: fallbacks to the source are recorded as its
    warnings (errors when it is strict)."""
    return texts.raw


def game_lookup(game: "Game", language: str) -> Lookup:
    """Lookup through ``Game.text``, as card faces print their fields (silent fallback)."""
    return lambda key: (game.text(key, language), language)


def label_arguments(card: "Card", number: int) -> dict[str, object]:
    """The placeholders a declared label may use for ``card``: ``n`` and the attributes
    whose ids are placeholder names (single words: ``{value}``, not ``{first-value}``)."""
    arguments: dict[str, object] = {
        name: _printed(value) for name, value in card.attrs.items() if refs.ARGUMENT.fullmatch(f"{{{name}}}")
    }
    arguments[NUMBER_ARGUMENT] = number
    return arguments


#: id(game) -> (weak reference to the game, its numbering): a face plan asks for one card's
#: label at a time, and counting the deck for each would cost O(cards^2) per language.
_NUMBERINGS: dict[int, tuple[weakref.ref, dict]] = {}


def _numbering(game: "Game") -> dict[str, tuple[tuple[str, str | None, str, bool], int, int]]:
    """card id -> (owner of its label message, its number, how many that message labels),
    for the cards without a name."""
    cached = _NUMBERINGS.get(id(game))
    if cached is not None and cached[0]() is game:
        return cached[1]
    owners = {c.id: _owner(game, c) for c in game.cards if NAME_FIELD not in c.text}
    counts = Counter(owners.values())
    seen: Counter = Counter()
    numbering = {}
    for card_id, owner in owners.items():
        seen[owner] += 1
        numbering[card_id] = (owner, seen[owner], counts[owner])
    _NUMBERINGS.clear()  # builds and tests load one game after another; keep the latest
    _NUMBERINGS[id(game)] = (weakref.ref(game), numbering)
    return numbering


def _owner(game: "Game", card: "Card") -> tuple[str, str | None, str, bool]:
    """(group, kind or None, message key, declared?) of the message that labels a card
    without a name: the kind's label, the group's label, the kind's name, the group's."""
    group = next(g for g in game.meta.groups if g.id == card.group)
    kind = next((k for k in group.kinds if k.id == card.kind), None)
    if kind is not None and kind.label is not None:
        return group.id, kind.id, kind.label, True
    if group.label is not None:
        return group.id, None, group.label, True
    if kind is not None:
        return group.id, kind.id, kind.name, False
    return group.id, None, group.name, False


def _printed(value: object) -> str:
    # booleans as YAML writes them; numbers and words as written in cards.yaml
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
