"""Parse YAML text into a :class:`~cardgen.content.yamldoc.YamlDocument`, with positions.

Kept apart from :mod:`cardgen.content.yamlsource` so that a run whose files are all in
the cache (:mod:`cardgen.content.memo`) never imports PyYAML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cardgen.content.yamldoc import MAX_NODES, Mark, Path_, YamlDocument, format_path
from cardgen.errors import ContentError, Locator

#: LibYAML's parser when PyYAML was built with it (the PyPI wheels are), the
#: pure-Python one otherwise: the same node graph and marks, about ten times
#: faster on the footballer base.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_PLAIN_TAGS = {
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "seq", "map")
}


def parse(text: str, path: Path, shown: Path, where: Locator) -> YamlDocument:
    """The document of a file's text (already read, decoded and checked for tabs)."""
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
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: a control character
        before = text[:exc.position] if isinstance(exc.position, int) else ""
        raise ContentError(
            f"YAML does not allow the character {_character(exc.character)} ({exc.reason}); "
            "write it as an escape in a double-quoted string, or remove it",
            where.with_(line=before.count("\n") + 1, column=len(before) - before.rfind("\n")),
        ) from None
    except yaml.YAMLError as exc:  # e.g. several documents in one file
        raise ContentError(f"YAML error: {exc}", where) from None

    if node is None:
        raise ContentError("file is empty; expected a YAML mapping", where)
    doc = YamlDocument(path=path, display_path=shown, data=None)
    doc.data = _Builder(doc).build(node, ())
    return doc


def _character(character: object) -> str:
    if isinstance(character, str) and len(character) == 1:
        return f"U+{ord(character):04X}"
    if isinstance(character, int):
        return f"U+{character:04X}"
    return repr(character)


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
            return self._scalar(node, where)
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
            key = self._scalar(key_node, where, key=True)
            if not isinstance(key, str):
                # a number or boolean key as its value's text, as always; any other (a date, null) as written
                key = str(key) if isinstance(key, (int, float, bool)) else key_node.value
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

    def _scalar(self, node: yaml.ScalarNode, where: Path_, *, key: bool = False) -> Any:
        """The value of a scalar, resolved as YAML 1.1 says (a number, a date ...).  A scalar that
        resolves to a date or number that cannot be (``2001-02-30``, ``0x_``) is an error at its
        line, never a ValueError from the constructor."""
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            raise ContentError(f"cannot read value: {exc.problem}", self._at(node, where)) from None
        except (ValueError, OverflowError, TypeError, ArithmeticError) as exc:
            kind = node.tag.rsplit(":", 1)[-1]
            what = {"timestamp": "a date", "int": "an integer", "float": "a number"}.get(kind, kind)
            shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            raise ContentError(
                f"{'key' if key else 'value'} '{shown}' reads as {what} but is none ({exc}); "
                "put it in quotes if it is text", self._at(node, where)
            ) from None

    def _at(self, node: yaml.Node, where: Path_) -> Locator:
        return Locator(
            file=self.doc.display_path,
            line=node.start_mark.line + 1,
            column=node.start_mark.column + 1,
            field=format_path(where) or None,
        )
