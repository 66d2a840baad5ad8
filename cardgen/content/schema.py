"""JSON Schema files generated from the content model.

Editors with the YAML language server read the ``# yaml-language-server:
$schema=...`` line at the top of each content file and complete and check
keys as people type.  The files are generated, never edited by hand:
``cardgen schema`` rewrites them and a test fails when they drift.

``layout.schema.json`` describes card layouts (``templates/cards/*.yaml`` and
a game's ``layout.yaml``); its model lives with the renderer that reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from cardgen.content.model import CardsFile, FontsFile, GameMeta, MessagesFile
from cardgen.content.layoutmodel import LayoutFile

SCHEMAS: dict[str, tuple[type[BaseModel], str]] = {
    "game.schema.json": (GameMeta, "cardgen game.yaml"),
    "cards.schema.json": (CardsFile, "cardgen cards.yaml"),
    "text.schema.json": (MessagesFile, "cardgen text/<lang>.yaml"),
    "layout.schema.json": (LayoutFile, "cardgen card layout (templates/cards/*.yaml, <game>/layout.yaml)"),
    "fonts.schema.json": (FontsFile, "cardgen common/fonts.yaml (font families of a content folder)"),
}


def schema_texts() -> dict[str, str]:
    """File name -> JSON text of every schema, deterministic."""
    texts = {}
    for name, (model, title) in SCHEMAS.items():
        schema = model.model_json_schema()
        schema["title"] = title
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
        texts[name] = json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    return texts


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema into ``directory`` (``CONTENT/schema``): never through a symlink there."""
    from cardgen.fileio import check_no_symlink, write_text_atomic

    texts = schema_texts()
    for name in texts:  # all refused before one is written
        check_no_symlink(directory / name, directory.parent)
    directory.mkdir(parents=True, exist_ok=True)
    return [write_text_atomic(directory / name, text, inside=directory.parent) for name, text in texts.items()]
