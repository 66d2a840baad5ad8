"""The words of the print-and-play instruction page come from the message catalogue."""

from __future__ import annotations

from pathlib import Path

from cardgen.content import load_games
from cardgen.i18n import status
from cardgen.printing.pnp import pnp_words

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"


def test_pnp_words_are_catalogue_messages_in_every_language():
    game = load_games(CONTENT, ["klepka"])[0]
    assert pnp_words(game, "ru")("heading") == "Печать дома"
    assert pnp_words(game, "en")("heading") == "Print and play"
    assert pnp_words(game, "de")("summary", cards=9, sheets=1, paper="A4", per_page=9) == \
        "9 Karten auf 1 Blättern A4, 9 pro Blatt."
    assert pnp_words(game, "pl")("heading") == "Wydrukuj i graj"
    # a language cardgen has no shared strings in falls back along its chain (English, then the
    # Russian source), like every message
    assert pnp_words(game, "cs")("cut").startswith("Cut along the marks")


def test_pnp_words_are_counted_by_i18n_status():
    rows = {row.language: row for row in status(CONTENT, ["en", "de"], ["common"])}
    for row in rows.values():
        assert not [p for p in row.problems if p[1].startswith("pnp.")], row.problems
    from cardgen.i18n.catalog import common_domain

    keys = [m.key for m in common_domain(CONTENT).source_messages() if m.key.startswith("pnp.")]
    assert len(keys) == 15 and {"pnp.scale", "pnp.ink-saver", "pnp.greyscale"} <= set(keys)


def test_content_without_common_strings_uses_cardgens_own():
    game = load_games(ROOT / "tests" / "data" / "decks", ["quiz"])[0]
    assert pnp_words(game, "en")("front") == "Front"
