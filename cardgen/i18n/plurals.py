"""Plural forms in a sentence: the word that goes with a number, by the language's CLDR rules.

A sentence with a count writes the counted word once per plural category of its language,
ICU-style but on one brace level (so every other check still reads the text)::

    Выложите их в {setting:rows} {plural:setting:rows|one=ряд|few=ряда|many=рядов} ...
    Ułóż je w {plural:setting:rows|one=# rząd|few=# rzędy|many=# rzędów} ...
    Cards in the box: {total} {plural:total|one=card|other=cards}

The count is a setting of ``game.yaml`` (``setting:NAME``) or a named argument the printing code
fills in (``total``, ``n``); each form is ``category=text``, ``#`` in it prints the number.
The categories are CLDR's (Babel's data): English and German ``one`` and ``other``; Russian and
Polish ``one`` (1, 21, 31...; Polish only 1), ``few`` (2-4, 22-24...), ``many`` (5-20, 25...) and
``other`` (fractions).  A block must give every category its language uses for whole numbers;
``other`` is then optional (a fraction prints the ``many`` form).  gettext's ``msgid_plural`` is
not used: one msgctxt entry per key keeps every PO tool's merge by key, and the count is named
in the sentence, so each translator writes the forms of their own language (and Weblate's
placeholder check keeps the count).
"""

from __future__ import annotations

import re
from functools import lru_cache

PLURAL = re.compile(
    r"\{plural:(?P<count>setting:[a-z0-9_]+|[a-z_]+)(?P<forms>(?:\|[a-z]+=[^{}|]*)+)\}")
_FORM = re.compile(r"\|(?P<category>[a-z]+)=(?P<text>[^{}|]*)")
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def blocks(text: str) -> list[re.Match]:
    return list(PLURAL.finditer(text))


def forms(block: re.Match) -> dict[str, str]:
    return {m["category"]: m["text"] for m in _FORM.finditer(block["forms"])}


def count_reference(block: re.Match) -> str:
    """The placeholder the block counts, as written elsewhere: ``{setting:rows}`` or ``{total}``."""
    return "{" + block["count"] + "}"


@lru_cache(maxsize=64)
def _locale(language: str):
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


@lru_cache(maxsize=64)
def whole_number_categories(language: str) -> tuple[str, ...]:
    """The categories whole numbers take in ``language`` (CLDR), in CLDR's order."""
    rule = _locale(language).plural_form
    found = {rule(n) for n in range(0, 1000)}
    return tuple(c for c in CATEGORIES if c in found)


def category(language: str, number: float) -> str:
    return _locale(language).plural_form(number)


def choose(block: re.Match, language: str, number: float, shown: str) -> str:
    """The form of ``block`` for ``number`` (``#`` replaced by ``shown``, the number as printed)."""
    written = forms(block)
    wanted = category(language, number)
    text = written.get(wanted)
    if text is None:
        text = written.get("other") or written.get("many") or next(iter(written.values()))
    return text.replace("#", shown)


def problems(text: str, language: str, settings: dict | None = None, arguments: set[str] | None = None) -> list[str]:
    """What is wrong with the plural blocks of ``text`` in ``language``: an unknown category, a
    category of the language left out, an unknown setting or argument as the count."""
    found = []
    needed = whole_number_categories(language)
    for block in blocks(text):
        written = forms(block)
        unknown = sorted(set(written) - set(CATEGORIES))
        if unknown:
            found.append(f"plural {block.group(0)[:60]!r}: unknown category {', '.join(unknown)} "
                         f"(CLDR's are {', '.join(CATEGORIES)})")
        missing = [c for c in needed if c not in written]
        if missing and "other" not in written:
            found.append(f"plural {block.group(0)[:60]!r}: {language} needs the forms "
                         f"{', '.join(f'{c}=...' for c in needed)} (missing: {', '.join(missing)})")
        count = block["count"]
        if count.startswith("setting:") and settings is not None:
            name = count[len("setting:"):]
            value = settings.get(name)
            if name not in settings:
                found.append(f"plural {block.group(0)[:60]!r}: unknown setting '{name}'")
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                found.append(f"plural {block.group(0)[:60]!r}: setting '{name}' is not a number")
        elif arguments is not None and count not in arguments:
            found.append(f"plural {block.group(0)[:60]!r}: the count {{{count}}} is not filled in here "
                         f"(it takes {', '.join(sorted('{%s}' % a for a in arguments)) or 'no argument'})")
    return found


def expand(text: str, language: str, settings: dict, arguments: dict) -> str:
    """``text`` with each plural block replaced by its form for the count's value; a block whose
    count is unknown is left as it is (the checks report it)."""
    if "{plural:" not in text:
        return text

    def replace(block: re.Match) -> str:
        count = block["count"]
        value = settings.get(count[len("setting:"):]) if count.startswith("setting:") else arguments.get(count)
        if isinstance(value, bool) or value is None:
            return block.group(0)
        try:
            number = float(value) if not isinstance(value, int) else value
        except (TypeError, ValueError):
            return block.group(0)
        return choose(block, language, number, _shown(number, language))

    return PLURAL.sub(replace, text)


def _shown(number: float, language: str) -> str:
    from babel.numbers import format_decimal

    try:
        return format_decimal(number, locale=language.replace("-", "_"))
    except Exception:
        return str(number)


__all__ = ["PLURAL", "blocks", "category", "choose", "count_reference", "expand", "forms", "problems",
           "whole_number_categories"]
