"""gettext's msgmerge (what Poedit's "Update from POT" and Weblate's msgmerge add-on run) and
``cardgen i18n update`` agree after a source change, with the flags docs/translators.md gives."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardgen.i18n.catalog import domains
from cardgen.i18n.po import read_entries, update, write_template

ROOT = Path(__file__).resolve().parents[2]
MSGMERGE = shutil.which("msgmerge")
pytestmark = pytest.mark.skipif(MSGMERGE is None, reason="gettext's msgmerge is not installed (tools/dev setup installs it)")

#: Flags gettext does not know (Weblate's): msgmerge drops them, cardgen i18n update writes them back.
WEBLATE_FLAG = re.compile(r", (max-length:\d+|placeholders:r\"[^\n]*\")")


def _without_weblate_flags(text: str) -> str:
    text = WEBLATE_FLAG.sub("", text)
    return "\n".join(line for line in text.split("\n") if line not in ("#", "#,"))


@pytest.fixture
def klepka(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796083200")
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "klepka", content / "klepka")
    return content


def _domain(content: Path):
    return next(d for d in domains(content) if d.id == "klepka")


def _edit_source(content: Path, changes: dict[str, str | None]) -> None:
    """Set (or, with None, remove) source texts of klepka's ru.yaml."""
    path = content / "klepka" / "text" / "ru.yaml"
    lines = path.read_text("utf-8").splitlines()
    out = []
    for line in lines:
        key = line.strip().split(":", 1)[0]
        if key in changes:
            if changes[key] is not None:
                out.append(f'  {key}: "{changes[key]}"')
            continue
        out.append(line)
    added = [f'  {k}: "{v}"' for k, v in changes.items() if v is not None and not any(
        l.strip().startswith(k + ":") for l in lines)]
    path.write_text("\n".join(out + added) + "\n", "utf-8")


def _msgmerge(po: Path, pot: Path, *flags: str) -> str:
    done = subprocess.run([MSGMERGE, "--quiet", "--previous", "--no-wrap", *flags, "-o", "-", str(po), str(pot)],
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_msgmerge_and_cardgen_update_give_the_same_file(klepka):
    domain = _domain(klepka)
    update(domain, "en")  # the bundled file as cardgen writes it
    before = domain.po_path("en").read_bytes()
    _edit_source(klepka, {
        "card.prize-var.rule": "Перед своим ходом посмотри любые две плитки, никому их не показывая, и верни их на место.",
        "rules.end.2": None,  # removed: its translation becomes obsolete
        "rules.end.9": "Новое правило.",  # added: untranslated
    })
    domain = _domain(klepka)
    pot = write_template(domain)
    merged = _msgmerge(domain.po_path("en"), pot)
    report = update(domain, "en")
    assert report.fuzzied == ["card.prize-var.rule"] and report.obsoleted == ["rules.end.2"]
    assert report.added == ["rules.end.9"]
    ours = domain.po_path("en").read_text("utf-8")
    assert ours.encode() != before
    assert _without_weblate_flags(ours) == _without_weblate_flags(merged)
    # and cardgen reads msgmerge's file as its own: running update on it gives cardgen's file
    domain.po_path("en").write_text(merged, "utf-8")
    update(_domain(klepka), "en")
    assert domain.po_path("en").read_text("utf-8") == ours


def test_without_fuzzy_matching_msgmerge_never_takes_another_keys_translation(klepka):
    """msgmerge matches a changed source against every entry, across contexts: a card rule
    reworded like the rulebook's sentence about the same card gets that sentence's translation.
    With --no-fuzzy-matching it does not; the old translation goes obsolete (#~) under its key,
    and 'cardgen i18n update' then brings it back, fuzzy, as it does by itself."""
    domain = _domain(klepka)
    update(domain, "en")
    rule = read_entries(domain.po_path("en"))["rules.card.prize-var"]
    card = read_entries(domain.po_path("en"))["card.prize-var.rule"]
    # the card's rule reworded to the rulebook's sentence, almost word for word
    _edit_source(klepka, {"card.prize-var.rule": rule.source.replace("Сыграй перед своим ходом", "Перед своим ходом")})
    domain = _domain(klepka)
    pot = write_template(domain)
    fuzzy_merged = domain.po_path("en").with_suffix(".msgmerge.po")
    fuzzy_merged.write_text(_msgmerge(domain.po_path("en"), pot), "utf-8")
    wrong = read_entries(fuzzy_merged)["card.prize-var.rule"]
    assert wrong.fuzzy and wrong.text == rule.text != card.text  # the known msgmerge behaviour
    fuzzy_merged.unlink()

    by_cardgen = domain.po_path("en").with_suffix(".cardgen.po")
    shutil.copy(domain.po_path("en"), by_cardgen)
    plain = _msgmerge(domain.po_path("en"), pot, "--no-fuzzy-matching")
    assert read_entries_text(plain, klepka)["card.prize-var.rule"].text == ""  # lost to #~ ...
    update(domain, "en")
    ours = domain.po_path("en").read_text("utf-8")
    assert read_entries(domain.po_path("en"))["card.prize-var.rule"].text == card.text  # cardgen: by key
    domain.po_path("en").write_text(plain, "utf-8")
    update(_domain(klepka), "en")  # ... and found again by its key
    assert domain.po_path("en").read_text("utf-8") == ours


def read_entries_text(text: str, folder: Path):
    path = folder / "scratch.po"
    path.write_text(text, "utf-8")
    try:
        return read_entries(path)
    finally:
        path.unlink()
