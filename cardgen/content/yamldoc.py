"""A YAML document as cardgen keeps it: plain data and the position of every key and value.

Read by :mod:`cardgen.content.yamlsource` (files, caps, the cache) and built by
:mod:`cardgen.content.yamlparse` (PyYAML's composer, aliases bounded).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.errors import Locator

MAX_NODES = 200_000  # values built from one file, counting alias expansions (cardgen.content.yamlparse)

Path_ = tuple[str | int, ...]

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
    #: Names what the data came from (the file's bytes and names), for cardgen.content.memo;
    #: None for a document made in memory.
    digest: str | None = None

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
