"""References from a sentence to a card, group, kind or setting, by key.

A rule sentence never types a card's name.  It writes a reference::

    Закрой «{card:action-block}» ...          -> the card's name
    Сыграй {card:action-block|acc} ...        -> the accusative form
    Раздай по {setting:hand_size} карт        -> a number from game.yaml

and the name comes from the same catalogue the card face is printed from, in
the same language, so the rulebook and the cards always agree.

Languages decline nouns differently, so the inflected forms live in the
catalogue too, as one message per name: ``<name key>.forms``, written
``case: form; case: form``::

    card.action-block.name.forms: "acc: Блок; gen: Блока; ins: Блоком"   # ru
    card.action-block.name.forms: "acc: den Block; dat: dem Block"      # de

A translator lists the cases *their* sentences need (case names are free
words of lower-case letters), and may request any of them in their own
sentences.  An unknown card, group, kind or setting is always an error; a
missing form is an error in the source language and, in a translation, a
warning that falls back to the plain name (an error with ``strict``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from cardgen.content.arguments import ARGUMENT
from cardgen.errors import I18nError, Locator

if TYPE_CHECKING:
    from cardgen.content.loader import Game

FORMS_SUFFIX = ".forms"
REFERENCE = re.compile(r"\{(?P<type>card|group|kind|setting):(?P<id>[a-z0-9_-]+)(?:\|(?P<form>[a-z]+))?\}")
ANY_BRACE = re.compile(r"\{[^{}]*\}")
#: The Weblate flag that makes its placeholder check keep references intact;
#: the case after ``|`` is left free because a translator may need another one.
PLACEHOLDER_FLAG = r'placeholders:r"\{(card|group|kind|setting):[a-z0-9_-]+|\{[a-z_]+\}"'
FORM_ITEM = re.compile(r"^\s*(?P<case>[a-z]+)\s*:\s*(?P<form>.+?)\s*$")


@dataclass(frozen=True)
class Reference:
    type: str
    id: str
    form: str | None
    start: int
    end: int

    @property
    def source(self) -> str:
        form = f"|{self.form}" if self.form else ""
        return f"{{{self.type}:{self.id}{form}}}"


def find_references(text: str) -> list[Reference]:
    return [
        Reference(m["type"], m["id"], m["form"], m.start(), m.end()) for m in REFERENCE.finditer(text)
    ]


def malformed_braces(text: str) -> list[str]:
    """Brace groups that are neither references, named arguments nor plural blocks."""
    from cardgen.i18n.plurals import PLURAL

    good = {(m.start(), m.end()) for m in REFERENCE.finditer(text)}
    good |= {(m.start(), m.end()) for m in ARGUMENT.finditer(text)}
    good |= {(m.start(), m.end()) for m in PLURAL.finditer(text)}
    return [m.group(0) for m in ANY_BRACE.finditer(text) if (m.start(), m.end()) not in good]


def has_references(text: str) -> bool:
    return bool(REFERENCE.search(text) or ARGUMENT.search(text))


def fill(text: str, args: dict[str, object], where: Locator | None = None) -> str:
    """Put the named arguments into ``text``; I18nError for one not given."""
    def replace(match: re.Match) -> str:
        name = match["name"]
        if name not in args:
            raise I18nError(f"text needs the argument {{{name}}}, which is not given", where)
        return str(args[name])
    return ARGUMENT.sub(replace, text)


def parse_forms(text: str) -> dict[str, str]:
    """``"acc: Блок; gen: Блока"`` -> ``{"acc": "Блок", "gen": "Блока"}``.

    Raises ValueError on an item that is not ``case: form``.
    """
    forms: dict[str, str] = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        match = FORM_ITEM.match(item)
        if match is None:
            raise ValueError(f"'{item.strip()}' is not 'case: form'")
        forms[match["case"]] = match["form"]
    return forms


def name_key(game: "Game", ref: Reference) -> str:
    """The message key a card/group/kind reference names; I18nError if unknown."""
    if ref.type == "card":
        for card in game.cards:
            if card.id == ref.id:
                key = card.text.get("name")
                if key is None:
                    raise I18nError(f"reference {ref.source}: card '{ref.id}' has no 'name' text")
                return key
        raise I18nError(f"reference {ref.source}: unknown card '{ref.id}' in game '{game.id}'")
    if ref.type == "group":
        for group in game.meta.groups:
            if group.id == ref.id:
                return group.name
        raise I18nError(f"reference {ref.source}: unknown group '{ref.id}' in game '{game.id}'")
    if ref.type == "kind":
        for group in game.meta.groups:
            for kind in group.kinds:
                if kind.id == ref.id:
                    return kind.name
        raise I18nError(f"reference {ref.source}: unknown kind '{ref.id}' in game '{game.id}'")
    raise I18nError(f"reference {ref.source}: '{ref.type}' has no name")


#: lookup(key) -> (text or None, language of the text)
Lookup = Callable[[str], "tuple[str | None, str]"]


@dataclass
class Resolved:
    """One piece of a resolved sentence: plain text or a referenced name."""

    text: str
    reference: Reference | None = None
    language: str | None = None  # language of this piece when it differs


def resolve(
    text: str,
    game: "Game",
    language: str,
    lookup: Lookup,
    *,
    key: str = "",
    warn: Callable[[str], None] | None = None,
    strict: bool = False,
) -> list[Resolved]:
    """Split ``text`` into plain pieces and resolved references.

    ``lookup`` returns a message in ``language`` (or the fallback chain's
    language).  Unknown ids always raise :class:`I18nError`; a missing form
    raises in the source language or with ``strict``, otherwise warns and
    uses the plain name.
    """
    where = Locator(field=key or None, language=language)
    bad = malformed_braces(text)
    if bad:
        raise I18nError(
            f"malformed reference {bad[0]!r}; write {{card:ID}}, {{card:ID|case}}, "
            "{group:ID}, {kind:ID} or {setting:NAME}",
            where,
        )
    pieces: list[Resolved] = []
    position = 0
    for ref in find_references(text):
        if ref.start > position:
            pieces.append(Resolved(text[position : ref.start]))
        position = ref.end
        if ref.type == "setting":
            if ref.id not in game.meta.settings:
                raise I18nError(
                    f"reference {ref.source}: unknown setting '{ref.id}'; game.yaml settings are "
                    f"{', '.join(sorted(game.meta.settings))}",
                    where,
                )
            value = game.meta.settings[ref.id]
            pieces.append(Resolved(_format_setting(value, language), ref))
            continue
        try:
            target = name_key(game, ref)
        except I18nError as error:
            raise I18nError(error.message, where) from None
        name, name_language = lookup(target)
        if name is None:
            raise I18nError(f"reference {ref.source}: no text for '{target}'", where)
        if ref.form is None:
            pieces.append(Resolved(name, ref, name_language))
            continue
        forms_text, forms_language = lookup(target + FORMS_SUFFIX)
        forms: dict[str, str] = {}
        if forms_text is not None and forms_language == name_language:
            try:
                forms = parse_forms(forms_text)
            except ValueError as error:
                raise I18nError(f"{target}{FORMS_SUFFIX}: {error}", where) from None
        if ref.form in forms:
            pieces.append(Resolved(forms[ref.form], ref, name_language))
            continue
        source_language = game.meta.source_language
        problem = (
            f"reference {ref.source}: no '{ref.form}' form of '{target}' in {name_language} "
            f"(add '{ref.form}: ...' to {target}{FORMS_SUFFIX})"
        )
        if strict or name_language == source_language == language:
            raise I18nError(problem, where)
        if warn is not None:
            warn(problem + "; the plain name is used")
        pieces.append(Resolved(name, ref, name_language))
    if position < len(text):
        pieces.append(Resolved(text[position:]))
    return pieces


def _format_setting(value: object, language: str) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        from babel.numbers import format_decimal

        try:
            return format_decimal(value, locale=language)
        except Exception:  # an unknown locale still prints the number
            return str(value)
    return str(value)
