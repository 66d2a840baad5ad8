"""A translation keeps the references of its source: Weblate's placeholder check, in validate.

A reference (``{card:prize-var}``, ``{group:footballer|gen}``, ``{setting:columns}``) prints a
name or a number from the cards; a translation that drops one prints a sentence without it
("Take the card" for "Take {card:prize-var}"), and one that adds a reference the source lacks
says something the source does not.  Both are errors at the PO entry's line.  The inflected
form after ``|`` is the translator's own choice (their language's case), so ``{card:x|acc}``
stands for ``{card:x}``; a reference written twice in the source may be written once (a
pronoun the second time).  Named arguments (``{n}``, ``{total}``) are checked where they are
filled: :func:`cardgen.i18n.status.reference_errors` and the shared strings' loader.

Only current translations are checked: a fuzzy entry, or one made for an older source text,
does not print (the fallback chain does) and the translator will see it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.errors import ContentError, Locator, NewerRule
from cardgen.i18n import plurals, refs

if TYPE_CHECKING:
    from cardgen.content.loader import Game


def references(text: str) -> set[str]:
    """``{type:id}`` of every reference in ``text``, the form left out; a plural block's count
    (``{plural:setting:rows|...}``) stands for ``{setting:rows}``, which ``#`` prints."""
    found = {f"{{{ref.type}:{ref.id}}}" for ref in refs.find_references(text)}
    found |= {plurals.count_reference(block) for block in plurals.blocks(text)
              if block["count"].startswith("setting:")}
    return found


def difference(source: str, translation: str) -> str | None:
    """What the translation drops or adds, in words; None when it keeps every reference."""
    wanted, found = references(source), references(translation)
    dropped, added = sorted(wanted - found), sorted(found - wanted)
    parts = []
    if dropped:
        parts.append(f"drops {', '.join(dropped)}")
    if added:
        parts.append(f"adds {', '.join(added)}, which the source does not have")
    if not parts:
        return None
    return "; ".join(parts) + " (keep every reference of the source; add |case for an inflected form)"


def placeholder_errors(game: "Game") -> list[ContentError]:
    """Every current translation in the game's PO files that drops or adds a reference."""
    from cardgen.i18n.catalog import game_domain

    domain = game_domain(game, game.display_root)
    errors: list[ContentError] = []
    for language, entry in domain.translated([lang for lang in domain.languages() if lang != domain.source_language]):
        key, source = entry.key, domain.messages[entry.key]
        if entry.source != source:
            continue
        problem = difference(source, entry.text)
        if problem:
            where = Locator(file=Path(domain.display(domain.po_path(language))), line=entry.line, field=key,
                            language=language)
            # validate checks this since content format 2; a format-1 game gets a warning
            errors.append(NewerRule(f"translation of '{key}' {problem}", where, since=2))
    return errors


__all__ = ["difference", "placeholder_errors", "references"]
