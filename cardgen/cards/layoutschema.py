"""A layout file's schema errors in a content author's words: one per problem, at its line,
with the keys the schema allows there and the closest one to what was typed.

Used both by :mod:`cardgen.cards.layout` (the first error, when a build meets a broken
layout) and by :mod:`cardgen.cards.layoutcheck` (every error, for ``cardgen validate``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from cardgen.content.layoutmodel import LayoutFile
from cardgen.content.modelcheck import EXPECTED, data_path
from cardgen.content.yamlsource import YamlDocument
from cardgen.errors import ContentError, suggest


def schema_errors(doc: YamlDocument, invalid: ValidationError) -> list[ContentError]:
    """One error per problem pydantic found in a layout file, at the line of the value."""
    problems: dict[tuple, list[dict]] = {}
    for problem in invalid.errors(include_url=False):
        problems.setdefault(data_path(doc.data, problem["loc"]), []).append(problem)
    # a union reports each of its members; the member that got deepest into the value is the one meant
    deepest = [where for where in problems if not any(len(o) > len(where) and o[:len(where)] == where
                                                         for o in problems)]
    return [_schema_error(doc, where, problems[where]) for where in deepest]


def _schema_error(doc: YamlDocument, where: tuple, problems: list[dict]) -> ContentError:
    first = problems[0]
    kind, found = first["type"], first.get("input")
    if kind == "extra_forbidden":
        allowed = _allowed_keys(doc.data, where[:-1])
        listed = f" (expected one of: {', '.join(allowed)})" if allowed else ""
        return ContentError(f"unknown key '{where[-1]}'{suggest(str(where[-1]), allowed)}{listed}",
                            doc.locate(where, key=True))
    if kind == "missing":
        return ContentError(f"missing required key '{where[-1]}'", doc.locate(where))
    expected = []
    for problem in problems:
        text = _EXPECTED.get(problem["type"]) or (problem.get("ctx") or {}).get("expected") or problem["msg"]
        if text not in expected:
            expected.append(text)
    hint = ""
    if kind == "literal_error" and isinstance(found, str):
        hint = suggest(found, re.findall(r"'([^']*)'", str(first["ctx"]["expected"])))
    return ContentError(f"expected {' or '.join(expected)}, found {short_value(found)}{hint}", doc.locate(where))


_EXPECTED = {**EXPECTED, "too_short": "two numbers [width, height]", "too_long": "two numbers [width, height]"}


def short_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@lru_cache(maxsize=1)
def _layout_json_schema() -> dict:
    return LayoutFile.model_json_schema()


def _allowed_keys(data: Any, parent: tuple) -> list[str]:
    """The keys the layout schema allows in the mapping at ``parent``."""
    schema = _layout_json_schema()
    defs = schema.get("$defs", {})
    node, value = schema, data
    for part in parent:
        node = _schema_branch(node, value, defs)
        if isinstance(part, int):
            node = node.get("items", {})
            value = value[part] if isinstance(value, list) and part < len(value) else None
        else:
            node = node.get("properties", {}).get(part) or node.get("additionalProperties") or {}
            value = value.get(part) if isinstance(value, dict) else None
    return sorted(_schema_branch(node, value, defs).get("properties", {}))


def _schema_branch(node: dict, value: Any, defs: dict) -> dict:
    """``node`` with references followed and the union member that fits ``value`` picked."""
    for _ in range(20):
        if "$ref" in node:
            node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
            continue
        members = node.get("anyOf") or node.get("oneOf")
        if not members:
            return node
        wanted = "object" if isinstance(value, dict) else "array" if isinstance(value, list) else None
        resolved = [_schema_branch(m, value, defs) for m in members]
        node = next((m for m in resolved if m.get("type") == wanted), resolved[0])
    return node
