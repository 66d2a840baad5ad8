"""Names of languages, from Babel's CLDR data: "Polish" in cardgen's messages, "polski" where
a print file speaks the language itself (covers, titles, PDF metadata).  A code Babel does not
know stays a code rather than failing a build."""

from __future__ import annotations

from functools import lru_cache


def _locale(code: str):
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None


@lru_cache(maxsize=256)
def language_name(code: str, in_language: str = "en") -> str:
    """The name of the language ``code`` in ``in_language`` ("Polish"; in Polish "polski")."""
    locale, where = _locale(code), _locale(in_language)
    if locale is None or where is None:
        return code
    return locale.get_display_name(where) or code


@lru_cache(maxsize=256)
def own_name(code: str) -> str:
    """The language's name in itself, capitalised as a title shows it ("Polski", "Deutsch")."""
    name = language_name(code, code)
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=256)
def plural_forms(code: str) -> str | None:
    """The gettext ``Plural-Forms`` header of ``code`` (CLDR rules as Babel writes them)."""
    locale = _locale(code)
    if locale is None:
        return None
    from babel.messages.plurals import get_plural

    try:
        plural = get_plural(locale)
    except Exception:  # a locale without plural data: gettext's default
        return "nplurals=2; plural=(n != 1);"
    return f"nplurals={plural.num_plurals}; plural={plural.plural_expr};"


__all__ = ["language_name", "own_name", "plural_forms"]
