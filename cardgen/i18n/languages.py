"""Adding a language: a PO file per game and the language in each game.yaml.

``game.yaml`` lists the languages a game is built in; a new language is
appended to that list (the flow-style ``languages: [ru, en, de]`` line is
edited in place, so comments and layout stay as they are), so that every
producer of the build (cards and rulebooks) picks it up at once.
"""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.errors import I18nError, Locator
from cardgen.fileio import write_text_atomic

_LINE = re.compile(r"^(?P<head>languages:\s*\[)(?P<items>[^\]\n]*)(?P<tail>\].*)$", re.MULTILINE)


def add_to_game_yaml(path: Path, language: str, shown: str | None = None) -> bool:
    """Append ``language`` to the ``languages`` list of ``path``; False if already there."""
    text = path.read_text("utf-8")
    match = _LINE.search(text)
    if match is None:
        raise I18nError(
            f"cannot find a one-line 'languages: [...]' list; add '{language}' to it by hand",
            Locator(file=Path(shown or path), field="languages"),
        )
    items = [item.strip() for item in match["items"].split(",") if item.strip()]
    if language in items:
        return False
    items.append(language)
    new = text[: match.start()] + match["head"] + ", ".join(items) + match["tail"] + text[match.end():]
    write_text_atomic(path, new)
    return True
