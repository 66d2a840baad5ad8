"""Translations as the content layer reads them: ``locale/<lang>.po`` files, entry by key.

The content layer owns where a game's messages come from: its source text
(``text/<source>.yaml``), the shared strings (:mod:`cardgen.content.shared`) and the
translations in its PO files, read here.  Writing and merging PO files is the
translator's workflow and lives in :mod:`cardgen.i18n.po`, which builds on this module;
nothing here imports :mod:`cardgen.i18n`, so the import arrows run one way:
i18n -> content.

Each PO entry is keyed by its ``msgctxt`` (the message key); ``msgid`` is the source text
the translation was made for, so a changed source shows as stale.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.content import memo
from cardgen.content.safefile import UnsafeFile, read_capped
from cardgen.content.yamlsource import MAX_FILE_BYTES
from cardgen.errors import ContentError, I18nError, Locator, shown_path

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

LOCALE_DIR = "locale"


@dataclass(frozen=True)
class Entry:
    """One translation read from a PO file."""

    key: str
    source: str  # msgid: the source text the translation was made for (or merged to)
    text: str  # msgstr; "" when untranslated
    fuzzy: bool
    previous: str | None = None
    line: int | None = None

    @property
    def translated(self) -> bool:
        return bool(self.text) and not self.fuzzy


def previous_ids(catalog: Catalog) -> Catalog:
    """Babel reads ``#| msgid`` lines as user comments; turn them back into previous ids."""
    from babel.messages.pofile import denormalize

    for message in list(catalog) + list(catalog.obsolete.values()):
        lines = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if not lines:
            continue
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        parts: dict[str, list[str]] = {}
        current = None
        for line in lines:
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgid", "msgctxt", "msgid_plural"):
                current = keyword
                parts.setdefault(keyword, []).append(rest)
            elif line.startswith('"') and current:
                parts[current].append(line)
        if parts.get("msgid"):
            message.previous_id = [denormalize("\n".join(parts["msgid"]))]
    return catalog


def read_entries(path: Path, display: str | None = None, *, root: Path | None = None) -> dict[str, Entry]:
    """The entries of a PO file by key (msgctxt).  Obsolete entries are skipped.

    With ``root``, a file outside it (through a symlink) is refused.
    """
    shown = Path(display) if display else path
    data = _capped(path, shown, root)
    # validate reads each PO file three times (loader, rulebook text, references): parse it once
    return dict(_parsed(data.getvalue(), shown))


@lru_cache(maxsize=64)
def _parsed(raw: bytes, shown: Path) -> tuple[tuple[str, Entry], ...]:
    """The entries of a PO file's bytes, keyed by content so a changed file is parsed again
    (in this process, and on disk between runs: cardgen.content.memo)."""
    return memo.cached("po", [raw, str(shown)], lambda: _parse_entries(raw, shown))


def _parse_entries(raw: bytes, shown: Path) -> tuple[tuple[str, Entry], ...]:
    from babel.messages.pofile import read_po  # only when the file is not in the cache

    data = io.BytesIO(raw)
    problem = po_syntax_problem(raw)
    if problem is not None:
        line, message = problem
        raise I18nError(f"not a valid PO file: {message}", Locator(file=shown, line=line))
    try:
        catalog = previous_ids(read_po(data, abort_invalid=True))
    except Exception as error:  # babel's PoFileError and decoding errors
        raise I18nError(f"not a valid PO file: {error}", Locator(file=shown)) from None
    entries: dict[str, Entry] = {}
    for message in catalog:
        if not message.id:
            continue  # the header
        if not message.context:
            raise I18nError(
                f"entry {str(message.id)[:40]!r} has no msgctxt; every entry is keyed by its msgctxt",
                Locator(file=shown, line=message.lineno),
            )
        if message.context in entries:
            raise I18nError(
                f"duplicate msgctxt '{message.context}' (first on line {entries[message.context].line}); "
                "each key has one entry", Locator(file=shown, line=message.lineno))
        text = message.string if isinstance(message.string, str) else (message.string or [""])[0]
        entries[message.context] = Entry(
            key=message.context,
            source=message.id if isinstance(message.id, str) else message.id[0],
            text=text or "",
            fuzzy=message.fuzzy,
            previous=message.previous_id[0] if message.previous_id else None,
            line=message.lineno,
        )
    return tuple(entries.items())


#: One PO line that is not a comment: a keyword and a C string, or a continued C string.
_PO_LINE = re.compile(r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*')


def po_syntax_problem(data: bytes) -> tuple[int, str] | None:
    """(line, what is wrong) of the first line babel would misread, else None.

    Babel strips the first and last character of a string without checking they are
    quotes, so ``msgstr "One`` (unterminated) reads as "On" and ``msgstr One`` as "n".
    Comments (``#``, also ``#~`` obsolete entries) are babel's to read.
    """
    charset = _declared_charset(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if charset is None or charset[1] == "utf-8":  # babel would stop without a line
            return (data[:error.start].count(b"\n") + 1,
                    f"the file is not UTF-8 text (byte 0x{data[error.start]:02x}), yet it declares "
                    f"{'charset ' + charset[2] if charset else 'no other charset'}")
        return None  # text in the charset it declares: babel reads it so
    if charset is not None and charset[1] != "utf-8" and not text.isascii():
        # UTF-8 bytes read as Latin-1 print 'Ãœberjoker': refused, not printed
        return charset[0], (f"the file declares charset {charset[2]}, but its text is UTF-8 (it would print "
                            f"garbled); declare charset=UTF-8 in the header")
    # babel keeps the last of two entries with one msgctxt and msgid: a silent loss.  A msgctxt
    # is compared by its value, its strings joined: 'msgctxt ""' then '"card.wild.name"' is
    # the same key as 'msgctxt "card.wild.name"'.
    contexts: dict[str, int] = {}
    reading: tuple[int, list[str]] | None = None  # the msgctxt being read: its line, its strings

    def duplicate() -> tuple[int, str] | None:
        if reading is None:
            return None
        line, pieces = reading
        value = "".join(pieces)
        if value in contexts:
            return line, f"duplicate msgctxt \"{value[:60]}\" (first on line {contexts[value]}); each key has one entry"
        contexts[value] = line
        return None

    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _PO_LINE.fullmatch(stripped):
            if stripped.startswith('"'):
                if reading is not None:
                    reading[1].append(_unquoted(stripped))
                continue
            found = duplicate()  # a keyword ends the msgctxt before it
            if found is not None:
                return found
            reading = (number, [_unquoted(stripped[len("msgctxt"):])]) if stripped.startswith("msgctxt") else None
        if not _PO_LINE.fullmatch(stripped):
            keyword = stripped.split(None, 1)[0]
            if keyword.startswith('"') or keyword in ("msgctxt", "msgid", "msgid_plural") or \
                    keyword.startswith("msgstr"):
                return number, f"a string must be written in double quotes and closed on its line: {stripped[:60]!r}"
            return number, f"expected msgctxt, msgid, msgstr, a quoted string or a # comment, found {stripped[:60]!r}"
    return duplicate()


_CHARSET = re.compile(rb"charset=([A-Za-z0-9_.:+-]+)")


def _declared_charset(data: bytes) -> tuple[int, str, str] | None:
    """(line, codec name, as written) of the charset the header declares; None when it declares
    none, or one Python does not know (babel says what it makes of that)."""
    import codecs

    found = _CHARSET.search(data, 0, data.find(b"msgctxt") if b"msgctxt" in data else len(data))
    if found is None:
        return None
    written = found.group(1).decode("ascii")
    try:
        name = codecs.lookup(written).name
    except LookupError:
        return None
    return data[:found.start()].count(b"\n") + 1, name, written


def _unquoted(text: str) -> str:
    """The value of one PO string (``"a\\"b"`` -> ``a"b``), escapes read as babel reads them."""
    from babel.messages.pofile import unescape

    return unescape(text.strip())


def _capped(path: Path, shown: Path, root: Path | None = None) -> io.BytesIO:
    """The bytes of a PO file: a regular file of at most MAX_FILE_BYTES (a FIFO or a device
    would block or never end)."""
    try:
        return io.BytesIO(read_capped(path, MAX_FILE_BYTES, root=root))
    except UnsafeFile as exc:
        raise I18nError(str(exc), Locator(file=shown)) from None


def locale_messages(game_dir: Path, display_root: Path | None = None
                    ) -> tuple[dict[str, dict[str, Entry]], list[ContentError]]:
    """Translations in ``<game_dir>/locale/*.po``: {language: {key: entry}}.

    Only translated, non-fuzzy entries count (as with gettext's msgfmt); the
    errors of broken files are returned, not raised, for the content loader.
    """
    result: dict[str, dict[str, Entry]] = {}
    errors: list[ContentError] = []
    folder = game_dir / LOCALE_DIR
    if not folder.is_dir():
        return result, errors
    for path in sorted(folder.glob("*.po")):
        shown = shown_path(path, display_root)
        try:
            entries = read_entries(path, str(shown), root=game_dir)
        except I18nError as error:
            errors.append(ContentError(error.message, error.locator.with_(language=path.stem)))
            continue
        result[path.stem] = {key: e for key, e in entries.items() if e.translated}
    return result, errors
