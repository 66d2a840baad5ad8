"""The YAML reader: positions, duplicates, aliases, limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.content.yamlsource import MAX_NODES, format_path, read_yaml
from cardgen.errors import ContentError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "doc.yaml"
    path.write_text(text, "utf-8")
    return path


def test_positions_of_keys_and_values_are_one_based(tmp_path):
    doc = read_yaml(write(tmp_path, "cards:\n  - id: one\n    copies: 3\n"))
    assert doc.data == {"cards": [{"id": "one", "copies": 3}]}
    located = doc.locate(("cards", 0, "copies"))
    assert (located.line, located.column, located.field) == (3, 13, "cards[0].copies")
    key = doc.locate(("cards", 0, "copies"), key=True)
    assert (key.line, key.column) == (3, 5)


def test_a_missing_field_is_located_at_its_parent(tmp_path):
    doc = read_yaml(write(tmp_path, "cards:\n  - id: one\n"))
    located = doc.locate(("cards", 0, "group"))
    assert (located.line, located.column, located.field) == (2, 5, "cards[0].group")


def test_scalars_keep_yaml_types(tmp_path):
    doc = read_yaml(write(tmp_path, "a: 1\nb: 1.5\nc: true\nd: '1'\ne: null\nf: 2025-06-30\n"))
    assert [type(v).__name__ for v in doc.data.values()] == ["int", "float", "bool", "str", "NoneType", "date"]


def test_duplicate_key_is_an_error_naming_both_lines(tmp_path):
    with pytest.raises(ContentError) as caught:
        read_yaml(write(tmp_path, "a: 1\nb: 2\na: 3\n"))
    assert caught.value.locator.line == 3
    assert "duplicate key 'a' (first defined on line 1)" in caught.value.message


def test_aliases_expand_within_the_limit(tmp_path):
    doc = read_yaml(write(tmp_path, "base: &b {x: 1}\ncopy: *b\n"))
    assert doc.data["copy"] == {"x": 1}


def test_alias_bomb_stops_at_the_node_limit(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 7):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    with pytest.raises(ContentError) as caught:
        read_yaml(write(tmp_path, "\n".join(lines) + "\n"))
    assert f"more than {MAX_NODES:,} values" in caught.value.message


def test_merge_keys_are_refused(tmp_path):
    with pytest.raises(ContentError, match="merge keys"):
        read_yaml(write(tmp_path, "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n"))


def test_python_tags_are_refused_by_the_safe_loader(tmp_path):
    with pytest.raises(ContentError) as caught:
        read_yaml(write(tmp_path, "a: !!python/object/apply:os.system ['true']\n"))
    assert caught.value.locator.line == 1


def test_format_path():
    assert format_path(("cards", 3, "attrs", "suit")) == "cards[3].attrs.suit"
    assert format_path(()) == ""
