"""The one place where cardgen's exceptions live.

Every error carries a :class:`Locator` saying where the problem is (file, line,
column, field path, card, language), so that the CLI can print a message a
content author can act on without reading a traceback.

The library raises; only the CLI decides how to print and which exit code to
use (see ``cardgen.cli``).
"""

from __future__ import annotations

import difflib
import errno
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable


#: Characters a terminal acts on instead of showing: C0 and C1 controls (escape sequences that
#: retitle the window or clear the screen), DEL, and the marks that reorder text (bidi overrides).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: object, *, lines: bool = False) -> str:
    """``text`` as an error message may show it: every control character written as an escape
    (``\\x1b``, ``\\u202e``), so content never drives the terminal that shows its errors.
    ``lines``: keep newlines and tabs (a message's own layout)."""
    pattern = _CONTROL_BUT_LINES if lines else _CONTROL
    return pattern.sub(_escape, str(text))


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if match.group() in _NAMED:
        return _NAMED[match.group()]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@dataclass(frozen=True)
class Locator:
    """Where an error was found. Every part is optional."""

    file: Path | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    field: str | None = None  # dotted path such as ``cards[3].copies``
    card: str | None = None
    language: str | None = None

    def __str__(self) -> str:
        place = ""
        if self.file is not None:
            place = str(self.file)
            if self.line is not None:
                place += f":{self.line}"
                if self.column is not None:
                    place += f":{self.column}"
        details = [
            f"{name} {value}"
            for name, value in (
                ("field", self.field),
                ("card", self.card),
                ("language", self.language),
            )
            if value
        ]
        if details:
            place = f"{place} ({', '.join(details)})" if place else ", ".join(details)
        return printable(place)  # a field is a key of the content: any text at all

    def with_(self, **changes) -> "Locator":
        return replace(self, **changes)


def shown_path(path: Path, root: Path | None) -> Path:
    """``path`` as messages show it: relative to ``root`` when it lies inside."""
    if root is not None:
        try:
            return path.relative_to(root)
        except ValueError:
            pass
    return path


class CardgenError(Exception):
    """Base of every error cardgen raises on purpose."""

    def __init__(self, message: str, locator: Locator | None = None):
        super().__init__(message)
        self.message = message
        self.locator = locator or Locator()

    def __str__(self) -> str:
        # the one way user text reaches a terminal in an error: every message quotes content
        where = str(self.locator)
        message = printable(self.message, lines=True)
        return f"{where}: {message}" if where else message


class ContentError(CardgenError):
    """A mistake in the YAML content: syntax, schema or cross-reference."""


class NewerRule(ContentError):
    """A content error under a rule that came with content format ``since``.

    Content written in an earlier format was accepted without the rule, so for it this is a
    warning, not an error (:func:`cardgen.content.formats.split`).  ``fix`` names the rewrite
    of :mod:`cardgen.project.upgrade` that puts it right; None when only the author can (words to write).
    """

    def __init__(self, message: str, locator: Locator | None = None, *, since: int = 2, fix: str | None = None):
        super().__init__(message, locator)
        self.since = since
        self.fix = fix


class ContentErrors(CardgenError):
    """Several content errors found in one run, reported together."""

    def __init__(self, errors: Iterable[ContentError]):
        self.errors = sorted(errors, key=_error_sort_key)
        count = len(self.errors)
        super().__init__(f"{count} content error{'s' if count != 1 else ''}")

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class SimulationError(CardgenError):
    """A game engine or the simulation broke a rule or an invariant."""


class InvariantViolation(SimulationError):
    """An invariant failed during a simulated game; the locator says which."""

    def __init__(self, message: str, *, game: str, seed: int, move_number: int):
        super().__init__(f"{message} (game {game}, seed {seed}, move {move_number})")
        self.game = game
        self.seed = seed
        self.move_number = move_number


class RenderError(CardgenError):
    """Cards, sheets or rulebooks could not be rendered."""


class TextOverflowError(RenderError):
    """Text does not fit its box even at the smallest allowed size."""


class MissingGlyphError(RenderError):
    """Text holds a character that no face of its font's fallback chain has (it would print as a box)."""


class I18nError(CardgenError):
    """A translation catalogue is broken or incomplete."""


class ServeError(CardgenError):
    """The studio server (``cardgen serve``) cannot start: address in use, unknown host."""


def _error_sort_key(error: CardgenError) -> tuple:
    loc = error.locator
    return (
        str(loc.file or ""),
        loc.line or 0,
        loc.column or 0,
        loc.field or "",
        error.message,
    )


def suggest(name: str, candidates: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest candidates, or nothing."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


#: What writing a file fails with when the machine, not cardgen, is at fault (a full disk, a
#: quota, a read-only or failing disk): reported as a clean error naming the file, never a traceback.
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO})
