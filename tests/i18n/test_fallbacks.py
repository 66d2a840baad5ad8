"""Fallback chains: a missing or fuzzy entry prints the first language of the chain that has it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardgen.content.fallbacks import chain
from cardgen.content.loader import load_game
from cardgen.errors import ContentErrors
from cardgen.i18n.catalog import domains
from cardgen.i18n.po import read_catalog, render, update
from cardgen.i18n.status import status
from cardgen.i18n.texts import Texts

ROOT = Path(__file__).resolve().parents[2]
KEY = "card.prize-var.rule"


@pytest.fixture
def polish(content: Path) -> Path:
    """klepka with the bundled English and German, and a Polish file with every entry but KEY."""
    for language in ("en", "de"):
        shutil.copy(ROOT / "content/klepka/locale" / f"{language}.po", content / "klepka/locale" / f"{language}.po")
    game_yaml = content / "klepka" / "game.yaml"
    text = game_yaml.read_text("utf-8")
    if "pl]" not in text:  # the bundled klepka lists Polish already
        game_yaml.write_text(text.replace("languages: [ru, en, de]", "languages: [ru, en, de, pl]"), "utf-8")
    domain = next(d for d in domains(content) if d.id == "klepka")
    update(domain, "pl", create=True)
    path = domain.po_path("pl")
    catalog = read_catalog(path)
    for message in catalog:
        if message.id and message.context != KEY:
            message.string = f"PL {message.context}"
    path.write_bytes(render(catalog))
    return content


def _mark_fuzzy(path: Path, key: str) -> None:
    catalog = read_catalog(path)
    for message in catalog:
        if message.context == key:
            message.string = "PL stale"
            message.flags.add("fuzzy")
    path.write_bytes(render(catalog))


def test_the_default_chain_goes_through_english_when_the_game_has_it(polish):
    game = load_game(polish / "klepka")
    assert chain(game.meta, "pl") == ["pl", "en", "ru"]
    assert chain(game.meta, "en") == ["en", "ru"]
    assert chain(game.meta, "ru") == ["ru"]
    english = game.text(KEY, "en")
    assert game.text(KEY, "pl") == english != game.text(KEY, "ru")  # the card face
    assert game.text_language(KEY, "pl") == (english, "en")
    assert game.text_origin(KEY, "pl").file.as_posix().endswith("klepka/locale/en.po")

    texts = Texts(game, "pl", polish)
    assert texts.raw(KEY) == (english, "en")  # the rulebook
    assert texts.raw("group.prize") == ("PL group.prize", "pl")
    [warning] = texts.warnings
    assert (warning.kind, warning.key, warning.used) == ("missing", KEY, "en")
    assert "the English text (en) is used" in str(warning)
    assert texts.origin(KEY).file.as_posix().endswith("klepka/locale/en.po")


def test_a_fuzzy_entry_falls_back_too(polish):
    _mark_fuzzy(polish / "klepka/locale/pl.po", "group.prize")
    game = load_game(polish / "klepka")
    texts = Texts(game, "pl", polish)
    assert texts.raw("group.prize") == (game.text("group.prize", "en"), "en")
    assert game.text("group.prize", "pl") == game.text("group.prize", "en")
    [warning] = [w for w in texts.warnings if w.key == "group.prize"]
    assert warning.kind == "fuzzy" and warning.used == "en"


def test_a_language_missing_from_english_too_prints_the_source(polish):
    en = polish / "klepka/locale/en.po"
    catalog = read_catalog(en)
    for message in catalog:
        if message.context == KEY:
            message.string = ""
    en.write_bytes(render(catalog))
    game = load_game(polish / "klepka")
    assert game.text(KEY, "pl") == game.text(KEY, "ru")
    assert Texts(game, "pl", polish).raw(KEY)[1] == "ru"


def test_a_declared_chain_is_followed(polish):
    game_yaml = polish / "klepka" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8") + "translation:\n  fallback: {pl: [de]}\n", "utf-8")
    game = load_game(polish / "klepka")
    assert chain(game.meta, "pl") == ["pl", "de", "ru"]
    assert game.text(KEY, "pl") == game.text(KEY, "de")
    assert Texts(game, "pl", polish).raw(KEY) == (game.text(KEY, "de"), "de")


def test_without_english_a_language_falls_back_to_the_source(content):
    game = load_game(content / "klepka")  # the fixture has no PO files; en is listed though
    game_yaml = content / "klepka" / "game.yaml"
    text = re.sub(r"(?m)^languages: \[.*\]$", "languages: [ru, de]", game_yaml.read_text("utf-8"))
    game_yaml.write_text(text, "utf-8")
    game = load_game(content / "klepka")
    assert chain(game.meta, "de") == ["de", "ru"]


def test_a_fallback_to_an_unknown_language_is_an_error_at_its_line(polish):
    game_yaml = polish / "klepka" / "game.yaml"
    text = game_yaml.read_text("utf-8") + "translation:\n  fallback:\n    pl: [fr]\n    de: [de]\n"
    game_yaml.write_text(text, "utf-8")
    with pytest.raises(ContentErrors) as failed:
        load_game(polish / "klepka")
    shown = [str(e) for e in failed.value.errors]
    line = text.splitlines().index("    pl: [fr]") + 1
    assert any(f"game.yaml:{line}" in s and "fallback language 'fr' of 'pl'" in s for s in shown), shown
    assert any("'de' cannot fall back to itself" in s for s in shown), shown


def test_status_says_which_language_prints_instead(polish):
    rows = {(r.domain, r.language): r for r in status(polish, ["pl"], ["klepka"])}
    row = rows[("klepka", "pl")]
    assert row.missing == 1
    [(kind, key, detail)] = [p for p in row.problems if p[0] == "missing"]
    assert key == KEY and "prints English (en)" in detail
