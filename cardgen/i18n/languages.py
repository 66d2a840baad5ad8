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
    """Append ``language`` to the ``languages`` list of ``path``; False if already there.

    ``path`` is a game's game.yaml: read fenced in the game folder (a regular file, capped, no
    symlink out) and written back never through a symlink."""
    from cardgen.content.safefile import UnsafeFile, read_capped

    try:
        text = read_capped(path, root=path.parent).decode("utf-8")
    except (UnsafeFile, UnicodeDecodeError) as error:
        raise I18nError(f"cannot read the file: {error}", Locator(file=Path(shown or path))) from None
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
    write_text_atomic(path, new, inside=path.parent.parent)
    return True
