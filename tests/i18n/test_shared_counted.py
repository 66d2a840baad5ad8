"""Shared strings counted like a game's own: a missing key fails validate, an English copy is not
a translation, and a game may word any shared string its own way (in its text and PO files)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.content.loader import load_game
from cardgen.i18n.catalog import domains
from cardgen.i18n.po import read_catalog, render, update, write_template
from cardgen.i18n.status import status
from cardgen.i18n.texts import Texts


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def italian(tmp_path) -> Path:
    """A new game with Italian source text: 'cardgen new' copies cardgen's English shared strings."""
    folder = tmp_path / "games"
    result = run("new", "luci", "--content", str(folder), "--source-lang", "it", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert (folder / "common" / "text" / "it.yaml").is_file()
    return folder


def test_an_english_copy_of_the_shared_strings_is_not_counted_as_italian(italian):
    rows = {(r.domain, r.language): r for r in status(italian, ["it"], ["common"])}
    row = rows[("common", "it")]
    assert row.missing > 40 and row.percent < 25  # the few left are the same in both ("×{n}")
    kinds = {kind for kind, _, _ in row.problems}
    assert kinds == {"missing"}
    assert any("copied, not translated" in detail for _, _, detail in row.problems)
    english = rows_for(italian, "en")
    assert english.percent == 100  # cardgen's own English is its own text


def rows_for(folder: Path, language: str):
    return next(r for r in status(folder, [language], ["common"]) if r.domain == "common")


def test_a_translated_italian_key_counts(italian):
    path = italian / "common" / "text" / "it.yaml"
    before = rows_for(italian, "it").translated
    path.write_text(path.read_text("utf-8").replace('"Setup"', '"Preparazione"'), "utf-8")
    assert rows_for(italian, "it").translated == before + 1


def test_validate_counts_the_shared_strings_per_language(italian):
    result = run("--content", str(italian), "validate")
    assert result.exit_code == 0, result.output
    line = next(l for l in result.output.splitlines() if l.startswith("translation en:"))
    assert "shared strings" in line


def test_a_dropped_shared_key_is_an_error_at_validate(italian):
    path = italian / "common" / "text" / "it.yaml"
    lines = path.read_text("utf-8").splitlines()
    kept = [line for line in lines if "rulebook.contents:" not in line]
    assert len(kept) == len(lines) - 1
    path.write_text("\n".join(kept) + "\n", "utf-8")
    result = run("--content", str(italian), "validate")
    assert result.exit_code == 1
    messages_line = kept.index("messages:") + 1
    assert f"common/text/it.yaml:{messages_line}" in result.output
    assert "1 shared string(s) missing for 'it': rulebook.contents" in result.output


def test_a_game_words_a_shared_string_its_own_way_and_translates_it(content):
    """klepka is played with tiles: its source text rewords the shared "cards" strings, and a
    language that has not translated them yet prints the shared string."""
    game = load_game(content / "klepka")
    assert Texts(game, "ru", content).plain("rulebook.cards-total", total=100) == "Плиток в коробке: 100"
    # not yet translated (the fixture has no PO files): the shared English string, not the game's Russian
    english = Texts(game, "en", content)
    assert english.plain("rulebook.section.cards") == "The cards"
    assert {w.key for w in english.warnings} == {"rulebook.section.cards"}
    # the game's PO file carries the key, with a note for the translator
    domain = next(d for d in domains(content) if d.id == "klepka")
    assert "rulebook.section.cards" in write_template(domain).read_text("utf-8")
    update(domain, "pl", create=True)
    path = domain.po_path("pl")
    catalog = read_catalog(path)
    message = next(m for m in catalog if m.context == "rulebook.cards-total")
    assert any("own wording of the shared string" in c for c in message.auto_comments)
    message.string = "Płytek w pudełku: {total}"
    path.write_bytes(render(catalog))
    game = load_game(content / "klepka")
    assert Texts(game, "pl", content).plain("rulebook.cards-total", total=100) == "Płytek w pudełku: 100"


def test_a_games_wording_with_a_placeholder_cardgen_never_fills_is_an_error(content):
    text = content / "klepka" / "text" / "ru.yaml"
    original = text.read_text("utf-8")
    text.write_text(original.replace('  rulebook.cards-total: "Плиток в коробке: {total}"\n',
                                     '  rulebook.cards-total: "Плиток: {totl}"\n', 1), "utf-8")
    result = run("--content", str(content), "validate", "klepka")
    assert result.exit_code == 1
    assert "klepka/text/ru.yaml:" in result.output and "placeholder {totl} is never filled in" in result.output
