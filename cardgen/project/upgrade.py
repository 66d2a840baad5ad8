"""``cardgen upgrade``: rewrite the games of a content folder in the current content format.

A game written in an earlier format (:mod:`cardgen.content.formats`) keeps validating and
building, with warnings; the upgrade makes it current.  It edits the text of the files, line
by line, and never dumps YAML again: comments, key order, quoting and blank lines stay as
the author wrote them.  Each rewrite is checked before anything is written: the file, parsed
again, must hold the same data but for what the rewrite meant to change.

From format 1 to 2:

* ``format: 2`` goes in above the first key of ``game.yaml`` (or replaces ``format: 1``);
* ``limits:`` without an ``engine:`` (nothing can check them) are commented out, block and
  all, under a line saying why, so that naming an engine later brings them back;
* whatever else format 2 makes an error needs the author's words (a missing goal, setup or
  turn, a rules key nothing prints ...): such a game is not rewritten, and
  :attr:`GameUpgrade.todo` lists each problem with its file and line.

A game already current is left alone, so running the upgrade twice changes nothing the
second time.  The files are written atomically (:func:`cardgen.fileio.write_text_atomic`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.content.checks import LIMITS_WITHOUT_ENGINE
from cardgen.content.formats import FORMAT_KEY
from cardgen.content.model import CONTENT_FORMAT
from cardgen.content.safefile import UnsafeFile, read_capped
from cardgen.errors import ContentError, Locator, NewerRule, shown_path
from cardgen.fileio import write_text_atomic

if TYPE_CHECKING:
    from cardgen.content import Game
    from cardgen.content.yamlsource import YamlDocument

GAME_FILE = "game.yaml"
LIMITS_NOTE = ("# cardgen upgrade (content format 2): 'limits:' need an 'engine:' to be checked; "
               "name the engine and uncomment them")


@dataclass
class FileChange:
    """One file as it is and as the upgrade writes it."""

    path: Path
    shown: Path  # as messages show it
    before: str
    after: str

    def diff(self) -> str:
        """What the upgrade changes, as a unified diff."""
        return "".join(difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
            fromfile=f"{self.shown} (before)", tofile=f"{self.shown} (format {CONTENT_FORMAT})"))


@dataclass
class GameUpgrade:
    """What the upgrade does to one game."""

    game: str
    written_in: int  # the game's content format before the upgrade
    changes: list[FileChange] = field(default_factory=list)
    done: list[str] = field(default_factory=list)  # each rewrite in words
    todo: list[ContentError] = field(default_factory=list)  # what the author must put right first

    @property
    def current(self) -> bool:
        """Already written in the current format: nothing to do."""
        return self.written_in >= CONTENT_FORMAT


def plan_upgrade(content_dir: Path, game_ids: list[str] | None = None,
                 templates_dir: Path | None = None) -> list[GameUpgrade]:
    """What upgrading the games of ``content_dir`` (or those named) would change, written
    nowhere.  A game that does not validate in its own format raises the
    :class:`~cardgen.errors.ContentErrors` of ``cardgen validate``: those are not the upgrade's
    to put right."""
    from cardgen.project.validation import validate_games

    return [_plan_game(game) for game in validate_games(content_dir, game_ids, templates_dir)]


def apply_upgrade(upgrades: list[GameUpgrade]) -> list[Path]:
    """Write the planned files, each atomically; the paths written."""
    written = []
    for upgrade in upgrades:
        for change in upgrade.changes:
            if change.after != change.before:
                written.append(write_text_atomic(change.path, change.after))
    return written


def _plan_game(game: "Game") -> GameUpgrade:
    upgrade = GameUpgrade(game.id, game.format)
    if upgrade.current:
        return upgrade
    upgrade.todo = [_todo(rule) for rule in game.accepted if rule.fix is None]
    if upgrade.todo:
        return upgrade
    document = game.documents[GAME_FILE]
    path = game.root / GAME_FILE
    try:  # read as the document was, a moment ago
        before = read_capped(path, root=game.root).decode("utf-8")
    except (UnsafeFile, UnicodeDecodeError) as error:
        raise ContentError(f"cannot read file: {error}", Locator(file=document.display_path)) from None
    lines = before.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    expected = dict(document.data)
    fixes = {rule.fix for rule in game.accepted}
    if LIMITS_WITHOUT_ENGINE in fixes:
        lines = _comment_out_block(lines, document, "limits", LIMITS_NOTE, newline)
        expected.pop("limits", None)
        upgrade.done.append("'limits:' commented out (no engine to check them)")
    lines = _set_format(lines, document, newline)
    expected[FORMAT_KEY] = CONTENT_FORMAT
    upgrade.done.append(f"'{FORMAT_KEY}: {CONTENT_FORMAT}'")
    after = "".join(lines)
    shown = shown_path(path, game.display_root)
    _check_rewrite(after, expected, path, shown)
    upgrade.changes.append(FileChange(path, shown, before, after))
    return upgrade


def _todo(rule: NewerRule) -> ContentError:
    return ContentError(f"{rule.message} (an error from content format {rule.since} on: put it right, "
                        "then run 'cardgen upgrade' again)", rule.locator)


def _top_level_lines(document: "YamlDocument") -> dict[str, int]:
    """Each top-level key of a block mapping -> its 0-based line."""
    return {path[0]: mark.line - 1 for path, mark in document.key_marks.items()
            if len(path) == 1 and isinstance(path[0], str)}


def _set_format(lines: list[str], document: "YamlDocument", newline: str) -> list[str]:
    """``format: N`` with N the current format: the value of an existing key replaced in
    place, else a new line above the first key (after the header comments)."""
    keys = _top_level_lines(document)
    mark = document.value_marks.get((FORMAT_KEY,))
    if mark is not None:
        index, column = mark.line - 1, mark.column - 1
        line = lines[index]
        found = re.compile(r"\d+").match(line, column)
        if found is None:
            raise _cannot(document, f"the value of '{FORMAT_KEY}:' is not a plain number")
        lines[index] = line[:found.start()] + str(CONTENT_FORMAT) + line[found.end():]
        return lines
    first = min(keys.values(), default=None)
    if first is None or document.key_marks[(min(keys, key=keys.get),)].column != 1:
        raise _cannot(document, "it is not a block mapping of one key per line; "
                                f"write '{FORMAT_KEY}: {CONTENT_FORMAT}' at its top by hand")
    return [*lines[:first], f"{FORMAT_KEY}: {CONTENT_FORMAT}{newline}", *lines[first:]]


def _comment_out_block(lines: list[str], document: "YamlDocument", key: str, note: str,
                       newline: str) -> list[str]:
    """The top-level ``key`` and everything under it commented out, under ``note``; the
    comments and blank lines after it (they belong to what follows) stay as they are."""
    keys = _top_level_lines(document)
    start = keys[key]
    end = min((line for line in keys.values() if line > start), default=len(lines))
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    block = [f"# {line}" if line.strip() else line for line in lines[start:end]]
    if block and not block[-1].endswith(("\n", "\r")):
        block[-1] += newline  # the last line of a file without a final newline
    return [*lines[:start], note + newline, *block, *lines[end:]]


def _check_rewrite(text: str, expected: dict, path: Path, shown: Path) -> None:
    """The rewritten file must parse to ``expected``: the upgrade edits text, and a slip
    would change what the game says."""
    from cardgen.content.yamlparse import parse

    where = Locator(file=shown)
    try:
        data = parse(text, path, shown, where).data
    except ContentError as error:
        raise ContentError(f"cardgen upgrade would break the file ({error.message}); nothing was written",
                           where) from None
    if data != expected:
        raise ContentError("cardgen upgrade would change more than it means to; nothing was written: "
                           "please report this, with the file", where)


def _cannot(document: "YamlDocument", why: str) -> ContentError:
    return ContentError(f"cardgen upgrade cannot rewrite this file: {why}", Locator(file=document.display_path))


__all__ = ["FileChange", "GameUpgrade", "apply_upgrade", "plan_upgrade"]
