"""Read one YAML file safely and remember where every value came from.

PyYAML's ``safe_load`` throws away positions, silently lets a later duplicate
key win, and expands aliases without bound (the "billion laughs" bomb).  We
compose the node graph with the safe loader ourselves and build plain Python
data from it, keeping the line and column of every key and value so that a
schema error deep inside a card can still point at its line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cardgen.content import memo
from cardgen.content.safefile import UnsafeFile, read_capped
# the document's types live with neither reader nor parser, so that both import them one way
from cardgen.content.yamldoc import MAX_NODES, Mark, Path_, YamlDocument, format_path
from cardgen.errors import ContentError, Locator

__all__ = ["MAX_FILE_BYTES", "MAX_NODES", "Mark", "Path_", "YamlDocument", "format_path", "read_yaml"]

MAX_FILE_BYTES = 2 * 1024 * 1024
_TAB_INDENT = re.compile(r"^[ ]*\t")


def read_yaml(path: Path, display_path: Path | None = None, *, root: Path | None = None) -> YamlDocument:
    """Read ``path`` into a :class:`YamlDocument` or raise :class:`ContentError`.

    With ``root``, a file that lies outside it (through a symlink) is an error.

    A file that cannot be parsed yields one error, since the parser stops at
    the first syntax problem; tab indentation is listed for every line.
    """
    shown = display_path or path
    where = Locator(file=shown)
    try:
        size = os.stat(path).st_size
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise ContentError(f"cannot read file: {getattr(exc, 'strerror', None) or exc}", where) from None
    if size > MAX_FILE_BYTES:
        raise ContentError(
            f"file is {size / 1_000_000:.1f} MB; a content file may be at most "
            f"{MAX_FILE_BYTES // (1024 * 1024)} MiB (split it, or move bulk data out)",
            where,
        )
    try:  # a regular file only: a FIFO would block, /dev/zero would never end
        raw = read_capped(path, MAX_FILE_BYTES, root=root)
    except UnsafeFile as exc:
        raise ContentError(f"cannot read file: {exc}", where) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError(
            f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
            where.with_(line=line),
        ) from None
    _check_tabs(text, where)
    # the parse depends on the bytes and the two names only: kept on disk between runs, under
    # the digest that also keys what is made of the document (the bytes are hashed once)
    digest = memo.digest([raw, str(path), str(shown)])
    doc = memo.cached("yaml", [digest], lambda: _parse(text, path, shown, where))
    doc.digest = digest
    return doc


def _check_tabs(text: str, where: Locator) -> None:
    lines = [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if _TAB_INDENT.match(line)
    ]
    if lines:
        shown = ", ".join(str(n) for n in lines[:10]) + (" ..." if len(lines) > 10 else "")
        raise ContentError(
            f"tab character used for indentation on line(s) {shown}; YAML indents with spaces only",
            where.with_(line=lines[0], column=text.splitlines()[lines[0] - 1].index("\t") + 1),
        )


def _parse(text: str, path: Path, shown: Path, where: Locator) -> YamlDocument:
    # imported here: a run that finds every file in the cache never loads PyYAML
    from cardgen.content.yamlparse import parse

    return parse(text, path, shown, where)
