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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

#: LibYAML's parser when PyYAML was built with it (the PyPI wheels are), the
#: pure-Python one otherwise: the same node graph and marks, about ten times
#: faster on the footballer base.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

from cardgen.content.safefile import UnsafeFile, read_capped
from cardgen.errors import ContentError, Locator

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000  # values built from one file, counting alias expansions

Path_ = tuple[str | int, ...]

_TAB_INDENT = re.compile(r"^[ ]*\t")
_PLAIN_TAGS = {
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "seq", "map")
}


@dataclass(frozen=True)
class Mark:
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class YamlDocument:
    """Plain data from one YAML file plus the position of each part of it."""

    path: Path
    display_path: Path
    data: Any
    value_marks: dict[Path_, Mark] = field(default_factory=dict)
    key_marks: dict[Path_, Mark] = field(default_factory=dict)

    def locate(self, where: Path_, *, key: bool = False, **extra) -> Locator:
        """A locator for the value (or, with ``key``, the key) at ``where``.

        Falls back to the nearest enclosing value that has a position, since
        a missing field has no position of its own.
        """
        marks = self.key_marks if key else self.value_marks
        mark = marks.get(where)
        probe = where
        while mark is None and probe:
            probe = probe[:-1]
            mark = self.value_marks.get(probe)
        return Locator(
            file=self.display_path,
            line=mark.line if mark else None,
            column=mark.column if mark else None,
            field=format_path(where) or None,
            **extra,
        )


def format_path(where: Path_) -> str:
    text = ""
    for part in where:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


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

    try:
        node = yaml.compose(text, Loader=_SAFE_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            problem = f"{exc.problem} ({exc.context}"
            if exc.context_mark is not None and exc.context_mark is not mark:
                problem += f" that starts on line {exc.context_mark.line + 1}"
            problem += ")"
        if exc.problem == "but found another document":
            problem = "a content file holds one YAML document, found a second one after '---'"
        raise ContentError(
            f"YAML syntax error: {problem}",
            where.with_(
                line=mark.line + 1 if mark else None,
                column=mark.column + 1 if mark else None,
            ),
        ) from None
    except yaml.YAMLError as exc:  # e.g. several documents in one file
        raise ContentError(f"YAML error: {exc}", where) from None

    if node is None:
        raise ContentError("file is empty; expected a YAML mapping", where)
    doc = YamlDocument(path=path, display_path=shown, data=None)
    doc.data = _Builder(doc).build(node, ())
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


class _Builder:
    """Turns a composed node graph into plain data, recording positions."""

    def __init__(self, doc: YamlDocument):
        self.doc = doc
        self.constructor = yaml.constructor.SafeConstructor()
        self.built = 0
        self.active: set[int] = set()

    def build(self, node: yaml.Node, where: Path_) -> Any:
        self.built += 1
        if self.built > MAX_NODES:
            raise ContentError(
                f"document expands to more than {MAX_NODES:,} values; "
                "this looks like an alias bomb (repeated '*alias' references)",
                Locator(file=self.doc.display_path),
            )
        self.doc.value_marks.setdefault(
            where, Mark(node.start_mark.line + 1, node.start_mark.column + 1)
        )
        if node.tag not in _PLAIN_TAGS:
            raise ContentError(
                f"unsupported YAML tag '{node.tag}'; content files hold plain text, "
                "numbers, booleans, dates, lists and mappings",
                self._at(node, where),
            )
        if isinstance(node, yaml.ScalarNode):
            try:
                return self.constructor.construct_object(node, deep=True)
            except yaml.constructor.ConstructorError as exc:
                raise ContentError(
                    f"cannot read value: {exc.problem}", self._at(node, where)
                ) from None
        if id(node) in self.active:
            raise ContentError("an alias refers to itself (recursive YAML)", self._at(node, where))
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, where + (i,)) for i, item in enumerate(node.value)]
            return self._build_mapping(node, where)
        finally:
            self.active.discard(id(node))

    def _build_mapping(self, node: yaml.MappingNode, where: Path_) -> dict:
        if any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value):
            raise ContentError(
                "merge keys ('<<') are not supported in content files; write the keys out",
                self._at(node, where),
            )
        result: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise ContentError("a mapping key must be plain text", self._at(key_node, where))
            key = self.constructor.construct_object(key_node)
            if not isinstance(key, str):
                key = str(key) if isinstance(key, (int, float, bool)) else key
            if key in result:
                first = self.doc.key_marks[where + (key,)]
                raise ContentError(
                    f"duplicate key '{key}' (first defined on line {first.line})",
                    self._at(key_node, where + (key,)),
                )
            self.doc.key_marks[where + (key,)] = Mark(
                key_node.start_mark.line + 1, key_node.start_mark.column + 1
            )
            result[key] = self.build(value_node, where + (key,))
        return result

    def _at(self, node: yaml.Node, where: Path_) -> Locator:
        return Locator(
            file=self.doc.display_path,
            line=node.start_mark.line + 1,
            column=node.start_mark.column + 1,
            field=format_path(where) or None,
        )
