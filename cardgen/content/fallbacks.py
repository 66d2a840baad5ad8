"""What a language falls back to when an entry is missing or fuzzy.

Each build language has a *chain*: the language itself, then the languages ``game.yaml``
names for it (``translation: {fallback: {pl: [cs, en]}}``), then the source language, which
always has every text.  Without a declared chain a language falls back to English when the
game has English text (a translation or the source), then to the source: a Polish card with a
missing entry prints English, which a Polish player reads more often than the Russian source,
as gettext does with ``LANGUAGE=pl:en``.

Card faces (``Game.text``), the rulebook (:class:`cardgen.i18n.texts.Texts`), the status report
and the studio all ask here, so they agree on which language a fallback prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.errors import ContentError

if TYPE_CHECKING:
    from cardgen.content.loader import Game
    from cardgen.content.model import GameMeta
    from cardgen.content.yamlsource import YamlDocument

#: The language every chain tries before the source when game.yaml declares none.
DEFAULT_FALLBACK = "en"


def chain(meta: "GameMeta", language: str, available: set[str] | None = None) -> list[str]:
    """The languages tried for ``language``, in order, the source last.

    ``available``: the languages the game has text in (translations and the source); the
    default fallback (English) joins the chain only when it is one of them (a declared one
    is the author's word and always does: its entries may still be missing, then the chain
    goes on).
    """
    source = meta.source_language
    if language == source:
        return [source]
    declared = meta.translation.fallback.get(language) if meta.translation is not None else None
    if declared is not None:
        middle = list(declared)
    else:
        has_english = DEFAULT_FALLBACK in (available if available is not None else set(meta.languages))
        middle = [DEFAULT_FALLBACK] if has_english else []
    result = [language]
    for lang in (*middle, source):
        if lang not in result:
            result.append(lang)
    return result


def game_chain(game: "Game", language: str) -> list[str]:
    """:func:`chain` for a loaded game: English counts when the game has text in it."""
    available = set(game.messages) | set(game.meta.languages)
    return chain(game.meta, language, available)


def check(meta: "GameMeta", doc: "YamlDocument | None", game_file: Path) -> list[ContentError]:
    """A declared chain names languages of the game only, and not the language itself."""
    from cardgen.errors import Locator

    errors: list[ContentError] = []
    if meta.translation is None:
        return errors
    known = set(meta.languages) | {meta.source_language}
    for language, fallbacks in meta.translation.fallback.items():
        for index, fallback in enumerate(fallbacks):
            where = (doc.locate(("translation", "fallback", language, index)) if doc is not None
                     else Locator(file=game_file, field=f"translation.fallback.{language}"))
            if fallback == language:
                errors.append(ContentError(f"'{language}' cannot fall back to itself", where))
            elif fallback not in known:
                errors.append(ContentError(
                    f"fallback language '{fallback}' of '{language}' is not one of the game's languages "
                    f"({', '.join(sorted(known))})", where))
    return errors


__all__ = ["DEFAULT_FALLBACK", "chain", "check", "game_chain"]
