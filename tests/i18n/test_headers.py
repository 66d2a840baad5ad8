"""PO headers: filled from the game, kept as a translator wrote them, clean for msgfmt -c;
references relative to the content folder, files identical wherever they are made."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cardgen.i18n.catalog import domains
from cardgen.i18n.header import read_header
from cardgen.i18n.po import update, write_template

ROOT = Path(__file__).resolve().parents[2]
MSGFMT = shutil.which("msgfmt")
needs_msgfmt = pytest.mark.skipif(MSGFMT is None, reason="gettext's msgfmt is not installed (tools/dev setup installs it)")

TRANSLATION = """
translation:
  version: "1.4"
  contact: translators@klepka.example
  teams: {pl: "Polski zespół <pl@klepka.example>"}
"""


def _domain(content: Path, game: str = "klepka"):
    return next(d for d in domains(content) if d.id == game)


def _msgfmt_check(path: Path) -> str:
    """What ``msgfmt -c`` says about ``path`` (empty when it has nothing to say); fails on an error."""
    done = subprocess.run([MSGFMT, "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stderr.strip()


@pytest.fixture
def dated(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01


def test_a_new_po_file_has_the_games_header(content, dated):
    game_yaml = content / "klepka" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8") + TRANSLATION, "utf-8")
    domain = _domain(content)
    update(domain, "pl", create=True)
    text = domain.po_path("pl").read_text("utf-8")
    header = read_header(text)
    assert header.fields["Project-Id-Version"] == "Клепка 1.4"
    assert header.fields["Report-Msgid-Bugs-To"] == "translators@klepka.example"
    assert header.fields["Language-Team"] == "Polski zespół <pl@klepka.example>"
    assert header.fields["Language"] == "pl"
    assert header.fields["POT-Creation-Date"] == header.fields["PO-Revision-Date"] == "2026-01-01 00:00+0000"
    assert header.fields["Plural-Forms"].startswith("nplurals=3;")
    assert header.comments == ["Polish translation of Клепка."]
    for placeholder in ("EMAIL@ADDRESS", "FULL NAME", "ORGANIZATION", "1970", "Generated-By"):
        assert placeholder not in text


def test_a_team_defaults_to_the_language_name(content, dated):
    domain = _domain(content)
    update(domain, "cs", create=True)
    header = read_header(domain.po_path("cs").read_text("utf-8"))
    assert header.fields["Language-Team"] == "Czech"
    assert header.fields["Project-Id-Version"] == "Клепка"  # no version declared


POEDIT_HEADER = """# Polish translation of Klepka.
# Copyright (C) 2026 Anna Nowak
# Anna Nowak <anna@example.pl>, 2026.
#
msgid ""
msgstr ""
"Project-Id-Version: Klepka 1.0\\n"
"Report-Msgid-Bugs-To: \\n"
"POT-Creation-Date: 2026-01-01 00:00+0000\\n"
"PO-Revision-Date: 2026-03-14 15:09+0100\\n"
"Last-Translator: Anna Nowak <anna@example.pl>\\n"
"Language-Team: Polski <tlumacze@example.pl>\\n"
"Language: pl\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"
"X-Generator: Poedit 3.4.2\\n"
"X-Poedit-SourceCharset: UTF-8\\n"
"""


def test_update_keeps_what_the_translator_wrote_in_the_header(content, dated, monkeypatch):
    domain = _domain(content)
    update(domain, "pl", create=True)
    path = domain.po_path("pl")
    entries = path.read_text("utf-8").split("\n\n", 1)[1]
    path.write_text(POEDIT_HEADER + "\n" + entries, "utf-8")

    text_file = content / "klepka" / "text" / "ru.yaml"
    old = domain.messages["rules.goal"]
    text_file.write_text(text_file.read_text("utf-8").replace(old, "Собрать больше всех очков."), "utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1775001600")  # 2026-04-01: the source changed later
    update(_domain(content), "pl")
    header = read_header(path.read_text("utf-8"))
    kept = read_header(POEDIT_HEADER)
    assert header.comments == kept.comments  # its trailing empty "#" too, as msgmerge keeps it
    for name in ("PO-Revision-Date", "Last-Translator", "Language-Team", "Plural-Forms", "X-Generator",
                 "X-Poedit-SourceCharset", "Content-Type"):
        assert header.fields[name] == kept.fields[name], name
    assert header.fields["POT-Creation-Date"] == "2026-04-01 00:00+0000"  # from the source, as msgmerge does
    assert header.fields["Project-Id-Version"] == "Клепка"
    assert list(header.fields)[:len(kept.fields)] == list(kept.fields)  # the translator's order


def test_an_update_with_nothing_new_leaves_the_file_alone(content, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    domain = _domain(content)
    update(domain, "pl", create=True)
    write_template(domain)
    po, pot = domain.po_path("pl"), domain.pot_path
    before = po.read_bytes(), pot.read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    update(_domain(content), "pl")
    write_template(_domain(content))
    assert (po.read_bytes(), pot.read_bytes()) == before


def test_old_placeholder_headers_are_replaced_on_update(content, dated):
    """Headers earlier cardgen versions wrote (the bundled games had them) get real values."""
    for name in ("de.po",):
        shutil.copy(ROOT / "content" / "klepka" / "locale" / name, content / "klepka" / "locale" / name)
    path = content / "klepka" / "locale" / "de.po"
    old = path.read_text("utf-8")
    if "FULL NAME" not in old:  # the bundled file is already current: make it old
        old = old.replace("Last-Translator: \\n", "Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n")
        path.write_text("# Copyright (C) 1970 ORGANIZATION\n# FIRST AUTHOR <EMAIL@ADDRESS>, 1970.\n" + old, "utf-8")
    update(_domain(content), "de")
    text = path.read_text("utf-8")
    for placeholder in ("EMAIL@ADDRESS", "FULL NAME", "ORGANIZATION", "1970"):
        assert placeholder not in text


@needs_msgfmt
def test_msgfmt_check_has_no_warning_on_any_file_cardgen_writes(content, dated):
    game_yaml = content / "klepka" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8") + TRANSLATION, "utf-8")
    written = []
    for domain in domains(content):
        written.append(write_template(domain))
        for language in ("pl", "ru", "fr", "de"):
            if language != domain.source_language and not domain.has_own_text(language):
                written.append(update(domain, language, create=True).path)
    assert len(written) >= 6
    for path in written:
        assert _msgfmt_check(path) == "", path


@needs_msgfmt
@pytest.mark.parametrize("path", sorted((ROOT / "content").glob("*/locale/*.po")), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_msgfmt_check_passes_on_the_bundled_po_files(path):
    assert _msgfmt_check(path) == ""


def test_references_are_relative_to_the_content_folder(content, dated):
    domain = _domain(content)
    text = write_template(domain).read_text("utf-8")
    references = [line for line in text.splitlines() if line.startswith("#: ")]
    assert references and all(line.startswith("#: klepka/text/ru.yaml:") for line in references)
    common = next(d for d in domains(content) if d.id == "common")
    text = write_template(common).read_text("utf-8")
    references = [line for line in text.splitlines() if line.startswith("#: ")]
    assert references and all(line.startswith("#: cardgen/common/text/ru.yaml:") for line in references)
    assert str(ROOT) not in text and str(content) not in text


def test_po_files_are_byte_identical_when_made_in_another_folder(tmp_path, dated, monkeypatch):
    made = []
    for where in ("one/content", "two/deep/games"):
        folder = tmp_path / where
        shutil.copytree(ROOT / "content" / "klepka", folder / "klepka",
                        ignore=shutil.ignore_patterns("*.po", "*.pot"))
        monkeypatch.chdir(folder.parent)
        files = {}
        for domain in domains(folder):
            files[f"{domain.id}.pot"] = write_template(domain).read_bytes()
            if not domain.has_own_text("cs"):
                files[f"{domain.id}-cs.po"] = update(domain, "cs", create=True).path.read_bytes()
        made.append(files)
    assert set(made[0]) == {"common.pot", "common-cs.po", "klepka.pot", "klepka-cs.po"}
    assert made[0] == made[1]
