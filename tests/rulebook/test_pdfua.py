"""Rulebooks are tagged PDF/UA-1: a structure tree, the title shown, XMP, every card picture
with alt text, tables with header cells, running heads as artifacts."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

from cardgen.rulebook.book import build_answer_key, build_rulebook


def _walk(node, seen=None):
    """Every structure element under ``node`` (dictionaries with /S)."""
    seen = set() if seen is None else seen
    if isinstance(node, IndirectObject):
        if node.idnum in seen:
            return
        seen.add(node.idnum)
        node = node.get_object()
    if isinstance(node, ArrayObject):
        for item in node:
            yield from _walk(item, seen)
    elif isinstance(node, DictionaryObject):
        if "/S" in node:
            yield node
        if "/K" in node:
            yield from _walk(node["/K"], seen)


def _check(pdf: bytes, title: str) -> dict:
    reader = PdfReader(io.BytesIO(pdf))
    root = reader.trailer["/Root"]
    assert root["/MarkInfo"]["/Marked"] in (True, "true")
    assert root["/ViewerPreferences"]["/DisplayDocTitle"] in (True, "true")
    assert str(root["/Lang"])
    assert "/Metadata" in root and b"pdfuaid" in root["/Metadata"].get_object().get_data()
    assert reader.metadata.title == title
    elements = list(_walk(root["/StructTreeRoot"]["/K"]))
    kinds: dict[str, int] = {}
    for element in elements:
        kinds[element["/S"]] = kinds.get(element["/S"], 0) + 1
    figures = [e for e in elements if e["/S"] == "/Figure"]
    assert all(str(e.get("/Alt", "")).strip() for e in figures), [e.get("/Alt") for e in figures]
    for table in (e for e in elements if e["/S"] == "/Table"):
        assert any(inner["/S"] == "/TH" for inner in _walk(table["/K"])), "a table without header cells"
    # the running heads are artifacts on the pages, not tagged text
    import re

    for page in reader.pages[1:3]:
        contents = page.get_contents().get_data()
        artifacts = re.findall(rb"/Artifact\s+BMC(.*?)EMC", contents, re.S)
        assert any(b"TJ" in block for block in artifacts), "no text (running head, page number) as an artifact"
    return kinds


@pytest.mark.parametrize("game_id, lang, paper", [("klepka", "en", "a4"), ("head-game", "de", "a5"),
                                                  ("card-football", "ru", "a4"), ("himmel", "en", "a4")])
def test_rulebooks_are_tagged_with_alt_text_and_header_cells(games, game_id, lang, paper):
    game = games[game_id]
    book = build_rulebook(game, lang, paper)
    kinds = _check(book.pdf, game.text(game.meta.title, lang))
    assert kinds.get("/H1", 0) >= 1 and kinds.get("/H2", 0) >= 3
    assert kinds.get("/Figure", 0) >= len(game.meta.groups)  # the card pictures, each with its alt text
    assert kinds.get("/Table", 0) >= 1 and kinds.get("/TH", 0) >= 3


def test_card_picture_alt_text_is_its_name_and_rule(games):
    game = games["klepka"]
    reader = PdfReader(io.BytesIO(build_rulebook(game, "en", "a4").pdf))
    alts = [str(e["/Alt"]) for e in _walk(reader.trailer["/Root"]["/StructTreeRoot"]["/K"]) if e["/S"] == "/Figure"]
    rule = game.text("card.prize-var.rule", "en")
    assert f"VAR: {rule}" in alts


def test_the_answer_key_is_tagged_too(games):
    game = games["head-game"]
    book = build_answer_key(game, "en")
    kinds = _check(book.pdf, book_title := reader_title(book.pdf))
    assert book_title and kinds.get("/TH", 0) >= 5


def reader_title(pdf: bytes) -> str:
    return PdfReader(io.BytesIO(pdf)).metadata.title
