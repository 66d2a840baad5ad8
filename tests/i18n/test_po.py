"""PO files: the template's entries, the merge by key, fuzzy after a source change."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from cardgen.i18n.catalog import domains
from cardgen.i18n.po import read_entries, render, update, write_template


def _domain(content: Path, game: str = "klepka"):
    return next(d for d in domains(content) if d.id == game)


def _po(path: Path):
    with open(path, "rb") as handle:
        return read_po(handle)


def _translated(domain, translations: dict[str, str], language: str = "en") -> Path:
    """Create ``language``'s PO file of ``domain`` and translate the given keys in it."""
    update(domain, language, create=True)
    path = domain.po_path(language)
    catalog = _po(path)
    for message in catalog:
        if message.context in translations:
            message.string = translations[message.context]
    path.write_bytes(render(catalog))
    return path


def test_template_has_a_context_comments_and_flags_per_key(content):
    domain = _domain(content)
    path = write_template(domain)
    catalog = _po(path)
    by_key = {m.context: m for m in catalog if m.id}
    assert set(by_key) == set(domain.messages)
    rule = by_key["card.prize-var.rule"]
    assert rule.id == domain.messages["card.prize-var.rule"]
    assert any("Card face: card 'prize-var'" in c for c in rule.auto_comments)
    assert any("Length budget" in c for c in rule.auto_comments)
    assert any(f.startswith("max-length:") for f in rule.flags)
    quick = by_key["rules.quick.5"]  # has a {card:...} reference
    assert any(f.startswith("placeholders:") for f in quick.flags)
    assert "python-brace-format" not in path.read_text("utf-8")  # {card:...} is not str.format


def test_update_merges_by_key_and_marks_a_changed_source_fuzzy(content):
    domain = _domain(content)
    path = _translated(domain, {"card.prize-var.name": "VAR",
                                "rules.goal": "Collect footballer pairs worth the most points."})

    text_file = content / "klepka" / "text" / "ru.yaml"
    old = domain.messages["rules.goal"]
    text_file.write_text(text_file.read_text("utf-8").replace(old, "Собрать больше всех очков."), "utf-8")
    report = update(_domain(content), "en")
    assert report.fuzzied == ["rules.goal"]

    entries = read_entries(path)
    goal = entries["rules.goal"]
    assert goal.fuzzy and goal.text == "Collect footballer pairs worth the most points."
    assert goal.previous == old and goal.source == "Собрать больше всех очков."
    assert entries["card.prize-var.name"].translated  # unchanged source stays translated
    assert "#| msgid" in path.read_text("utf-8")


def test_a_long_changed_source_reads_back_as_the_exact_previous_msgid(content):
    domain = _domain(content)
    key = max(domain.messages, key=lambda k: len(domain.messages[k]))
    old = domain.messages[key]
    assert len(old) > 150  # longer than a line: read back whole whatever the wrapping
    path = _translated(domain, {key: "Some translation."})
    text_file = content / "klepka" / "text" / "ru.yaml"
    text_file.write_text(text_file.read_text("utf-8").replace(old, "Новый текст."), "utf-8")
    assert update(_domain(content), "en").fuzzied == [key]

    entry = read_entries(path)[key]
    assert entry.fuzzy and entry.previous == old
    written = path.read_text("utf-8")
    assert all(line.startswith(('#| msgctxt "', '#| msgid "', '#| "'))
               for line in written.splitlines() if line.startswith("#|"))
    assert f'#| msgctxt "{key}"' in written  # as msgmerge --previous writes it
    # a second update keeps the same previous text, not a mangled copy of it
    update(_domain(content), "en")
    assert read_entries(path)[key].previous == old
    body = path.read_text("utf-8").split("\n\n", 1)[1]  # past the header's own comments
    assert not [line for line in body.splitlines() if line.startswith("# ")]


def test_a_removed_key_keeps_its_translation_as_obsolete(content):
    path = _translated(_domain(content), {"rules.end.2": "On a tie, more tiles wins."})
    text_file = content / "klepka" / "text" / "ru.yaml"
    lines = [line for line in text_file.read_text("utf-8").splitlines() if "rules.end.2:" not in line]
    text_file.write_text("\n".join(lines) + "\n", "utf-8")
    report = update(_domain(content), "en")
    assert report.obsoleted == ["rules.end.2"]
    assert "rules.end.2" not in read_entries(path)
    assert '#~ msgstr "On a tie, more tiles wins."' in path.read_text("utf-8")


def test_po_output_is_deterministic(content, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    domain = _domain(content)
    first = write_template(domain).read_bytes()
    assert write_template(domain).read_bytes() == first
    assert b"POT-Creation-Date: 2026-01-01 00:00+0000" in first
