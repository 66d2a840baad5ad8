"""The games bundled with cardgen, as examples to copy: ``cardgen examples``.

They are the repository's ``content/`` games, shipped in the package (``cardgen/examples/``
in an install, see :mod:`cardgen.resources`).  A copy is a game folder like any other: the
game's own files, its layout as ``layout.yaml`` in the folder (a bundled game's layout lives
in cardgen's ``templates/cards/<game>.yaml``, which a content folder elsewhere would not find
first), and the JSON Schemas its ``$schema`` lines name in the content folder's ``schema/``.
``cardgen validate`` and ``cardgen build`` pass on it at once and draw the same cards.

Nothing existing is overwritten: a game folder that exists already is refused before anything
is written, and the copy appears whole or not at all (copied under a hidden name, then renamed).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from cardgen import resources
from cardgen.errors import CardgenError, Locator

#: The first line of a bundled layout names the schema from templates/cards/; a copied one
#: sits in <content>/<game>/, beside <content>/schema/.
LAYOUT_SCHEMA_LINE = "# yaml-language-server: $schema=../schema/layout.schema.json\n"
_SCHEMA_LINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=.*\n")
#: Languages tried, in order, for the title shown in the list (then the game's source language).
TITLE_LANGUAGES = ("en",)


class ExampleError(CardgenError):
    """An example cannot be copied as asked (unknown, or its folder exists already)."""


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    cards: int  # printed cards, copies counted
    designs: int  # distinct card designs
    languages: tuple[str, ...]
    folder: Path


def example_ids() -> list[str]:
    """The ids of the bundled games, sorted."""
    from cardgen.content.loader import discover_games

    return discover_games(resources.EXAMPLES)


def examples() -> list[Example]:
    """Every bundled game with its title, card count and languages (each game loaded and checked)."""
    from cardgen.content.loader import load_games

    found = []
    for game in load_games(resources.EXAMPLES, example_ids()):
        languages = tuple(sorted(game.messages))
        title_language = next((lang for lang in TITLE_LANGUAGES if lang in languages), game.meta.source_language)
        found.append(Example(game.id, game.text("game.title", title_language), len(game.physical_cards()),
                             len(game.cards), languages, game.root))
    return found


def copy_example(game_id: str, content_dir: Path) -> list[Path]:
    """Copy the bundled game ``game_id`` into ``content_dir``; the files written, in order."""
    available = example_ids()
    if game_id not in available:
        raise ExampleError(f"no example game '{game_id}'; the examples are: {', '.join(available)}")
    source = resources.EXAMPLES / game_id
    folder = content_dir / game_id
    if folder.exists() or folder.is_symlink():
        raise ExampleError(f"'{game_id}' exists already in {content_dir}; nothing was copied (choose another "
                           "content folder, or remove that one)", Locator(file=folder))
    from cardgen.fileio import whole_folder

    def refuse(reason: str) -> ExampleError:
        return ExampleError(f"cannot copy the game into this folder: {reason}", Locator(file=content_dir))

    with whole_folder(folder, refuse, "copy") as staging:
        shutil.copytree(source, staging, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".*", "__pycache__"))
        layout = resources.CARD_TEMPLATES / f"{game_id}.yaml"
        if not (staging / "layout.yaml").exists() and layout.is_file():
            (staging / "layout.yaml").write_text(own_layout(layout.read_text("utf-8")), "utf-8")
    written = sorted(path for path in folder.rglob("*") if path.is_file())
    return written + _schemas(content_dir)


def own_layout(text: str) -> str:
    """A bundled layout's text as a game folder's ``layout.yaml``: its ``$schema`` line pointed at
    the content folder's schema/ (its includes, such as ``common.yaml``, are still cardgen's)."""
    match = _SCHEMA_LINE.match(text)
    return LAYOUT_SCHEMA_LINE + (text[match.end():] if match else text)


def _schemas(content_dir: Path) -> list[Path]:
    """The JSON Schemas the copied files' ``$schema`` lines name, written when missing or out of date."""
    from cardgen.content.schema import schema_texts
    from cardgen.fileio import write_text_atomic

    written = []
    for name, text in schema_texts().items():
        path = content_dir / "schema" / name
        if not path.is_file() or path.read_text("utf-8") != text:
            written.append(write_text_atomic(path, text, inside=content_dir))
    return written


__all__ = ["Example", "ExampleError", "copy_example", "example_ids", "examples", "own_layout"]
