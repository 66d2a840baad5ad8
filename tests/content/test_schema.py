"""The JSON Schema files stay in sync with the model, and the YAML files point at them."""

from __future__ import annotations

import json
from pathlib import Path

from cardgen.content.schema import schema_texts

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_DIR = ROOT / "content" / "schema"


def test_schema_files_match_the_model():
    for name, text in schema_texts().items():
        on_disk = (SCHEMA_DIR / name).read_text("utf-8")
        assert on_disk == text, f"{name} is stale: run 'cardgen schema'"


def test_schema_forbids_unknown_keys():
    card = json.loads(schema_texts()["cards.schema.json"])["$defs"]["Card"]
    assert card["additionalProperties"] is False
    assert {"id", "group", "back"} <= set(card["required"])


def test_every_content_file_references_its_schema():
    expected = {"game.yaml": "game.schema.json", "cards.yaml": "cards.schema.json"}
    for game_dir in sorted(p for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists()):
        for name, schema in expected.items():
            first = (game_dir / name).read_text("utf-8").splitlines()[0]
            assert first == f"# yaml-language-server: $schema=../schema/{schema}", game_dir / name
        for text_file in (game_dir / "text").glob("*.yaml"):
            first = text_file.read_text("utf-8").splitlines()[0]
            assert first == "# yaml-language-server: $schema=../../schema/text.schema.json", text_file
