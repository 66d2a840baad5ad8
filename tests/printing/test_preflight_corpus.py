"""The corpus of damaged print-shop PDFs (tests/damaged_pdfs.py): each fails the preflight with
the message that names its fault, on its page, with its value; the good files it is made from pass."""

from __future__ import annotations

import pytest

from cardgen.printing.preflight import preflight_bytes
from cardgen.printing.printers import printer

from damaged_pdfs import CORPUS_CLASSES, good_files, make

PRINTER_OF_BASE = {"x-1a": "drivethrucards", "x-4": "eu-pdfx4"}


@pytest.fixture(scope="module")
def good():
    return good_files()


@pytest.fixture(scope="module")
def table():
    """(class, page, message) of every damaged file, printed at the end (pytest -s shows it)."""
    rows: list[tuple[str, str, str]] = []
    yield rows
    width = max((len(name) for name, _, _ in rows), default=5)
    print("\n\ncorpus of damaged PDFs (tests/damaged_pdfs.py)")
    for name, page, message in rows:
        print(f"{name:<{width}}  {page:<5}  {message}")


def test_the_good_files_pass(good):
    for base, data in good.items():
        report = preflight_bytes(data, printer(PRINTER_OF_BASE[base]), f"good-{base}.pdf")
        assert report.ok, [str(f) for f in report.findings]


def test_the_corpus_has_every_class_of_issue_27():
    names = [damage.name for damage in CORPUS_CLASSES]
    assert len(names) == len(set(names)) >= 21


@pytest.mark.parametrize("damage", CORPUS_CLASSES, ids=lambda d: d.name)
def test_each_damaged_file_fails_with_its_message(good, table, damage):
    report = preflight_bytes(make(damage, good), printer(damage.printer), f"{damage.name}.pdf")
    assert not report.ok
    found = [f for f in report.findings if f.check == damage.check and f.page == damage.page
             and damage.element in f.element and damage.measured in f.measured]
    assert found, [str(f) for f in report.findings]
    first = found[0]
    assert str(first).startswith(f"{damage.name}.pdf: {'page %d' % damage.page if damage.page else 'file'}: ")
    table.append((damage.name, str(damage.page or "file"), str(first).split(": ", 2)[2]))
    # the damage is all that is wrong: no check fails that the damage does not explain
    pages = {f.page for f in report.findings} - {None}
    assert pages <= {damage.page}, [str(f) for f in report.findings]


@pytest.mark.parametrize("game_id", ["card-football", "head-game", "himmel", "klepka"])
def test_every_cmyk_shop_file_of_the_bundled_games_passes(games, game_id):
    """The ten CMYK files of the four games (DriveThruCards one per deck, the European printer
    one per game), in each game's first language: no finding, the ink within the limit."""
    from cardgen.printing.shop import render_printer_pdfs

    game = games[game_id]
    for name in ("drivethrucards", "eu-pdfx4"):
        shop = printer(name)
        for deck, data, pages, _ in render_printer_pdfs(game, game.meta.languages[0], shop):
            report = preflight_bytes(data, shop, f"{game_id}-{name}-{deck}.pdf", expected_pages=pages)
            assert 150 < max(report.max_tac) <= shop.tac + 1
            if (game_id, name) == ("klepka", "drivethrucards"):  # 70 mm tiles: a size DriveThruCards does not make
                assert [(f.page, f.check, f.measured) for f in report.findings] == [(1, "size", "70.0 x 70.0 mm")]
                continue
            assert report.ok, [str(f) for f in report.findings][:10]
