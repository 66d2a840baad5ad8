"""klepka's Polish translation as a translator delivered it (content/klepka/locale/pl.po, from
Poedit): strict, its header kept by 'cardgen i18n update', English where an entry is missing, and
its rulebook set by Polish rules (no one-letter word ends a line, no name is hyphenated)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.content.loader import load_game
from cardgen.i18n.catalog import domains
from cardgen.i18n.header import read_header
from cardgen.i18n.po import update
from cardgen.i18n.status import check_strict
from cardgen.i18n.texts import Texts
from potools import set_translations

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "content" / "klepka" / "locale" / "pl.po"


@pytest.fixture
def klepka(tmp_path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "klepka", content / "klepka")
    return content


def test_the_polish_translation_is_complete_for_a_strict_build():
    check_strict(ROOT / "content", ["klepka"], ["pl"])  # raises on anything missing, fuzzy, too long, broken


def test_update_keeps_the_translators_header(klepka, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    delivered = read_header(PO.read_text("utf-8"))
    assert delivered.fields["X-Generator"].startswith("Poedit")
    domain = next(d for d in domains(klepka) if d.id == "klepka")
    report = update(domain, "pl")
    assert (report.added, report.fuzzied, report.obsoleted) == ([], [], [])
    header = read_header(domain.po_path("pl").read_text("utf-8"))
    for name in ("Last-Translator", "PO-Revision-Date", "Language-Team", "Plural-Forms", "X-Generator",
                 "X-Poedit-SourceCharset"):
        assert header.fields[name] == delivered.fields[name], name
    assert header.comments == delivered.comments  # the trailing empty "#" Poedit writes too
    assert "X-Source-Language" not in header.fields  # nothing added that the translator's tool did not write


@pytest.mark.skipif(shutil.which("msgcat") is None, reason="needs gettext's msgcat")
def test_update_keeps_the_wrapping_of_what_it_did_not_change(klepka, monkeypatch):
    """Poedit (and msgcat, msgmerge without --no-wrap) wrap at 79 columns: an update keeps those
    lines where the entry did not change and writes a changed one on one line."""
    import subprocess

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    path = klepka / "klepka" / "locale" / "pl.po"
    subprocess.run(["msgcat", "--width=79", str(PO), "-o", str(path)], check=True)
    wrapped = path.read_text("utf-8")
    assert '"|| n%100>=20) ? 1 : 2);\\n"' in wrapped  # the header's Plural-Forms, wrapped
    source = klepka / "klepka" / "text" / "ru.yaml"
    text = source.read_text("utf-8")
    old_rule = "Перед своим ходом посмотри любые две плитки, никому не показывая, и верни их на место."
    assert old_rule in text
    source.write_text(text.replace(old_rule, old_rule[:-1] + " лицом вниз."), "utf-8")
    domain = next(d for d in domains(klepka) if d.id == "klepka")
    report = update(domain, "pl")
    assert report.fuzzied == ["card.prize-var.rule"]
    updated = path.read_text("utf-8")

    def entries(text):
        """key -> the lines that write the entry's key, source and translation"""
        found = {}
        for block in text.split("\n\n"):
            block = "\n" + block
            if "\nmsgctxt " in block and "#~" not in block:
                lines = block[block.index("\nmsgctxt ") + 1:]
                found[lines.split("\n", 1)[0]] = lines
        return found

    before, after = entries(wrapped), entries(updated)
    assert set(before) == set(after)
    multi_line = [key for key, lines in before.items() if lines.count("\n") > 2]
    assert len(multi_line) > 20  # msgcat wrapped many
    changed = [key for key in before if before[key] != after[key]]
    assert changed == ['msgctxt "card.prize-var.rule"']
    assert after['msgctxt "card.prize-var.rule"'].count("\n") == 2  # msgctxt, msgid, msgstr: one line each
    assert '"|| n%100>=20) ? 1 : 2);\\n"' in updated and "Last-Translator: Anna Nowak" in updated


def test_a_deleted_polish_entry_prints_english(klepka):
    set_translations(klepka / "klepka" / "locale" / "pl.po", {"rules.goal": ""})
    game = load_game(klepka / "klepka")
    texts = Texts(game, "pl", klepka)
    english = Texts(game, "en", klepka).plain("rules.goal")
    assert texts.plain("rules.goal") == english == "Collect footballer pairs worth the most points."
    assert "the English text (en) is used" in str(texts.warnings[0])
    assert texts.plain("rules.turn.1") == "W swojej turze odkryj dowolne dwie płytki."


@pytest.fixture(scope="module")
def polish_rulebook_lines(tmp_path_factory) -> list[str]:
    from cardgen.rulebook.book import build_rulebook

    game = load_game(ROOT / "content" / "klepka")
    lines = []
    for paper in ("a4", "a5"):
        book = build_rulebook(game, "pl", paper, content_dir=ROOT / "content", strict=True)
        path = tmp_path_factory.mktemp("pl") / f"{paper}.pdf"
        path.write_bytes(book.pdf)
        document = pdfium.PdfDocument(path)
        try:
            for i in range(len(document)):
                lines += document[i].get_textpage().get_text_bounded().splitlines()
        finally:
            document.close()
    return lines


def test_no_one_letter_word_ends_a_line_of_the_polish_rulebook(polish_rulebook_lines):
    assert len(polish_rulebook_lines) > 200
    ends = [line for line in polish_rulebook_lines if re.search(r"(?:^|\s)[wzioauWZIOAU]\s*$", line)]
    assert ends == []


def test_no_name_is_hyphenated_in_the_polish_rulebook(polish_rulebook_lines):
    game = load_game(ROOT / "content" / "klepka")
    words = {word for card in game.cards if "name" in card.text
             for word in game.text(card.text["name"], "pl").split() if len(word) > 5}
    assert "Gwoździński" in words
    broken = [line for line in polish_rulebook_lines if re.search(r"[-\x02]$", line.strip())
              and any(line.strip()[:-1].endswith(word[:k]) for word in words for k in range(3, len(word)))]
    assert broken == []
