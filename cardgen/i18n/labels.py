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

The *number* counts card designs (entries of cards.yaml, not copies), 1-based,
in deck order, within the kind or group whose message is used: a kind's label
or name numbers the cards of that kind, a group's those of the whole group.

A card with a ``name`` gets its name, so ``{card.label}`` prints something
readable for every card.  The same function serves the rulebook (through
:meth:`Texts.raw`, which records fallbacks as warnings) and the card faces
(through ``Game.text``), so both always print the same label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from cardgen.errors import Locator
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
    group = next(g for g in game.meta.groups if g.id == card.group)
    kind = next((k for k in group.kinds if k.id == card.kind), None)
    if kind is not None and kind.label is not None:
        return _declared(kind.label, card, _number(game, card, kind=True))
    if group.label is not None:
        return _declared(group.label, card, _number(game, card, kind=False))
    owner = kind if kind is not None else group
    number, designs = _number(game, card, kind=kind is not None)
    return LabelSource(owner.name, False, {}, number if designs > 1 else None)


def card_label(game: "Game", card: "Card", lookup: Lookup) -> Label:
    """The label of ``card`` with its text from ``lookup``: :func:`texts_lookup` for the
    rulebook, :func:`game_lookup` for card faces."""
    source = label_source(game, card)
    text, language = lookup(source.key)
    if source.declared:
        text = refs.fill(text, source.arguments, Locator(field=source.key, card=card.id, language=language))
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


def _declared(key: str, card: "Card", numbered: tuple[int, int]) -> LabelSource:
    return LabelSource(key, True, label_arguments(card, numbered[0]), numbered[0])


def _number(game: "Game", card: "Card", *, kind: bool) -> tuple[int, int]:
    """(1-based number of ``card`` among the designs of its kind or group, how many there are)."""
    if kind:
        members = [c.id for c in game.cards if c.group == card.group and c.kind == card.kind]
    else:
        members = [c.id for c in game.cards if c.group == card.group]
    return members.index(card.id) + 1, len(members)


def _printed(value: object) -> str:
    # booleans as YAML writes them; numbers and words as written in cards.yaml
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
