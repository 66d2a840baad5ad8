"""Status figures: translated, fuzzy, missing and too long counted apart; strict check."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from cardgen.errors import I18nError
from cardgen.cards.textfit import card_fits
from cardgen.i18n import check_strict, status
from cardgen.i18n.catalog import domains
from cardgen.i18n.po import read_catalog, render, update

ROOT = Path(__file__).resolve().parents[2]


def _klepka(content: Path):
    return next(d for d in domains(content) if d.id == "klepka")


def _write_en(content: Path, fill) -> None:
    domain = _klepka(content)
    update(domain, "en", create=True)
    path = domain.po_path("en")
    catalog = read_catalog(path)
    for message in catalog:
        if message.id:
            fill(message)
    path.write_bytes(render(catalog))


def test_status_counts_missing_fuzzy_and_too_long_apart(content):
    missing = {"rules.goal", "rules.tagline", "card.player-fol.name"}

    def fill(message):
        if message.context in missing:
            return
        message.string = "Text " + message.context
        if "{" in message.id or message.context.endswith(".forms"):
            # keep references and case forms as they are (Russian plural forms are not English ones)
            message.string = re.sub(r"\{plural:[^{}]*\}", "", message.id)
        if message.context == "clar.tile-size.d":
            message.flags.add("fuzzy")
        if message.context == "card.prize-var.rule":
            # far too long for the box, its references kept (a dropped one is broken)
            message.string = "Look at two tiles before your turn. " * 40 + message.id

    # The total follows the source catalogue (ru.yaml), so new content does not break the test.
    total = len(_klepka(content).messages)
    assert missing | {"clar.tile-size.d", "card.prize-var.rule"} <= set(_klepka(content).messages)
    _write_en(content, fill)
    (row,) = status(content, ["en"], ["klepka"], card_fits)
    assert row.total == total
    assert row.missing == 3
    assert row.fuzzy == 1
    assert row.translated == total - 3 - 1
    assert row.too_long == 1
    assert row.broken == 0
    assert ("too long", "card.prize-var.rule") in {(k, key) for k, key, _ in row.problems}
    assert not row.complete
    with pytest.raises(I18nError) as failure:
        check_strict(content, ["klepka"], ["en"], card_fits)
    assert "missing: rules.goal" in str(failure.value)
    assert "fuzzy: clar.tile-size.d" in str(failure.value)
    assert "too long: card.prize-var.rule" in str(failure.value)


def test_a_reference_to_an_unknown_card_is_broken(content):
    def fill(message):
        message.string = re.sub(r"\{plural:[^{}]*\}", "", message.id)  # Russian plural forms are not English
        if message.context == "rules.quick.5":
            message.string = "**{card:prize-nope}:** peek at two tiles."

    _write_en(content, fill)
    (row,) = status(content, ["en"], ["klepka"])
    assert row.broken == 1
    assert any("unknown card 'prize-nope'" in detail for _, _, detail in row.problems)


def test_the_real_translations_are_complete_and_fit():
    rows = status(ROOT / "content", ["en", "de"], measure=card_fits)
    assert {r.domain for r in rows} == {"common", "card-football", "head-game", "himmel", "klepka"}
    for row in rows:
        assert (row.missing, row.fuzzy, row.too_long, row.broken) == (0, 0, 0, 0), row.problems[:5]
        assert row.translated == row.total
