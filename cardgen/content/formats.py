"""Content formats: which one a game folder is written in, what changed in each, and what
content of an earlier format still gets.

A game folder names its format in ``game.yaml`` (``format: 2``; games are copied between
content folders, so the game carries it, not the folder).  A ``game.yaml`` without the key is
format 1: written before formats were numbered.  cardgen reads every format from 1 up to
:data:`~cardgen.content.model.CONTENT_FORMAT`, so content written for an earlier one keeps
validating and building:

* a rule that came with a later format is raised as a :class:`~cardgen.errors.NewerRule`
  carrying that format; for content of an earlier format :func:`split` makes it a warning
  (the content was accepted without the rule), for content of its format an error;
* :func:`notice` is the one warning per game of an earlier format: what changed since, and
  to run ``cardgen upgrade``, which rewrites the files (:mod:`cardgen.project.upgrade`);
* a format above the current one is an error naming file and line (:func:`newer_than_read`):
  a newer cardgen wrote it, and this one cannot know what it means.

The library never prints: the warnings travel on the loaded game (``Game.warnings``) and the
CLI shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from cardgen.content.model import CONTENT_FORMAT
from cardgen.content.yamlsource import YamlDocument
from cardgen.errors import ContentError, Locator, NewerRule

#: The format of a game.yaml without a ``format:`` key.
UNNUMBERED = 1
FORMAT_KEY = "format"


@dataclass(frozen=True)
class FormatChange:
    """What content format ``format`` changed against the one before it."""

    format: int
    changes: tuple[str, ...]


#: Every format after the first, oldest first: what a game written in the one before meets.
CHANGES: tuple[FormatChange, ...] = (
    FormatChange(2, (
        "game.yaml names its content format ('format: 2')",
        "validate checks the rulebook text (docs/rulebook-text.md): a goal ('rules.goal'), setup steps "
        "('rules.setup.1' ...), turn steps ('rules.turn.1' ...) and a name for every choice of a rule option "
        "are required; a rules.* key nothing prints, a numbering gap or a subsection without its title is "
        "an error; the tagline and the quick reference are optional and print when written",
        "'limits:' need an 'engine:' to be checked ('cardgen upgrade' comments them out)",
        "an attribute's 'required_in' names groups of game.yaml, and its 'minimum' is not above its 'maximum'",
    )),
)


def declared_format(document: YamlDocument) -> int | None:
    """The format a game.yaml says it is written in: its ``format:`` (an integer), else
    :data:`UNNUMBERED`; None when the value is no integer (the schema reports that)."""
    data = document.data
    if not isinstance(data, dict) or FORMAT_KEY not in data:
        return UNNUMBERED
    value = data[FORMAT_KEY]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def newer_than_read(document: YamlDocument) -> ContentError | None:
    """The error for a game.yaml written for a newer cardgen (its format above the current
    one); None when this cardgen reads it."""
    written = declared_format(document)
    if written is None or written <= CONTENT_FORMAT:
        return None
    return ContentError(
        f"written for a newer cardgen: format {written}, this cardgen reads up to {CONTENT_FORMAT}; "
        "install a newer cardgen (or keep a copy of the game written in an earlier format)",
        document.locate((FORMAT_KEY,)),
    )


def changes_since(written: int) -> list[FormatChange]:
    """The format changes a game written in format ``written`` has not met."""
    return [change for change in CHANGES if change.format > written]


def notice(document: YamlDocument, written: int) -> ContentError | None:
    """The warning for a game.yaml of an earlier format: what changed since, and what to run."""
    if written >= CONTENT_FORMAT:
        return None
    declared = FORMAT_KEY in document.data
    where = document.locate((FORMAT_KEY,)) if declared else Locator(file=document.display_path)
    said = f"'{FORMAT_KEY}: {written}'" if declared else f"no '{FORMAT_KEY}:' key"
    changed = "; ".join(f"format {c.format}: " + "; ".join(c.changes) for c in changes_since(written))
    return ContentError(
        f"written in content format {written} ({said}); "
        f"it still validates and builds, and the current format is {CONTENT_FORMAT}. Changed since: {changed}. "
        "Run 'cardgen upgrade' to rewrite the game in the current format (it shows what it changes; "
        "--dry-run writes nothing)",
        where,
    )


def split(errors: Iterable[ContentError], written: int | None) -> tuple[list[ContentError], list[NewerRule]]:
    """(errors, accepted): the rules of a format later than ``written`` are accepted as
    warnings, everything else stays an error.  ``written`` None (game.yaml unreadable): all
    errors."""
    kept: list[ContentError] = []
    accepted: list[NewerRule] = []
    for error in errors:
        if written is not None and isinstance(error, NewerRule) and error.since > written:
            accepted.append(error)
        else:
            kept.append(error)
    return kept, accepted


def as_warning(rule: NewerRule, written: int) -> ContentError:
    """A rule a game of an earlier format breaks, worded as the warning the CLI shows."""
    how = ("'cardgen upgrade' does this for you" if rule.fix
           else "put it right, then run 'cardgen upgrade'")
    return ContentError(
        f"{rule.message} (an error from content format {rule.since} on; this game is written in format "
        f"{written}: {how})",
        rule.locator,
    )


__all__ = [
    "CHANGES",
    "FORMAT_KEY",
    "UNNUMBERED",
    "FormatChange",
    "as_warning",
    "changes_since",
    "declared_format",
    "newer_than_read",
    "notice",
    "split",
]
