"""The bundled games' POT templates (content/<game>/locale/<game>.pot, content/common/locale/common.pot)
and PO files are current: made again from the sources, as 'cardgen i18n extract' and 'update' make
them (length budgets measured in the real boxes), they come out the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.cards.textfit import box_capacity
from cardgen.i18n.catalog import domains
from cardgen.i18n.po import body, update, write_template

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
REMAKE = ("SOURCE_DATE_EPOCH=1796185080 cardgen i18n extract, then cardgen i18n update LANG "
          "(docs/translators.md)")


@pytest.fixture(scope="module")
def remade(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bundled") / "content"
    shutil.copytree(CONTENT, folder, ignore=shutil.ignore_patterns("schema"))
    return folder


def test_every_bundled_domain_has_a_committed_template():
    found = sorted(path.relative_to(CONTENT).as_posix() for path in CONTENT.glob("*/locale/*.pot"))
    games = sorted(path.parent.name for path in CONTENT.glob("*/game.yaml"))
    assert found == sorted(["common/locale/common.pot", *(f"{game}/locale/{game}.pot" for game in games)])


def test_the_templates_are_current(remade):
    for domain in domains(remade, None, box_capacity):
        committed = domain.pot_path
        before = committed.read_bytes()
        # an existing template with the same entries is left as it is, its date too: byte for byte
        assert write_template(domain).read_bytes() == before, f"{committed.name} is stale: {REMAKE}"


def test_the_po_files_are_current(remade):
    checked = 0
    for domain in domains(remade, None, box_capacity):
        for language in domain.languages():
            before = domain.po_path(language).read_bytes()
            report = update(domain, language)
            assert (report.added, report.fuzzied, report.obsoleted) == ([], [], []), (domain.id, language)
            after = domain.po_path(language).read_bytes()
            assert body(after) == body(before), f"{domain.id}/{language}.po is stale: {REMAKE}"
            checked += 1
    assert checked >= 9


def test_a_stale_template_is_seen(remade, tmp_path):
    folder = tmp_path / "content"
    shutil.copytree(remade / "himmel", folder / "himmel")
    source = folder / "himmel" / "text" / "ru.yaml"
    text = source.read_text("utf-8")
    first = next(line for line in text.splitlines() if line.startswith("  card."))
    source.write_text(text.replace(first, first.rstrip('"') + ' (changed)"' if first.endswith('"') else first + " x"),
                      "utf-8")
    domain = next(d for d in domains(folder, ["himmel"], box_capacity) if d.id == "himmel")
    before = domain.pot_path.read_bytes()
    assert write_template(domain).read_bytes() != before
