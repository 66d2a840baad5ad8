"""The length budget from the real box: characters that fit (at the layout's size, its body size and
its minimum), the overflow counted in characters, and a text that fits only under the body size."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardgen.cards.card import CardRenderer
from cardgen.cards.layout import layout_path, load_layout
from cardgen.cards.text import PT_PER_MM, chars_that_fit, fit_text
from cardgen.cards.textfit import body_size, box_capacity, card_fits
from cardgen.content.layoutmodel import Accessibility, Element
from cardgen.content.loader import load_game
from cardgen.errors import I18nError, TextOverflowError
from cardgen.i18n.fit import NotPrinted
from cardgen.i18n import check_strict, status
from cardgen.i18n.catalog import domains
from cardgen.i18n.po import read_catalog, render, update

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = "Przed swoją turą obejrzyj dowolne dwie płytki, nikomu ich nie pokazując, i odłóż je na miejsce."


@pytest.fixture(scope="module")
def klepka():
    return load_game(ROOT / "content" / "klepka")


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "klepka", target / "klepka")
    return target


def _rule_box(game):
    """(font, width, height in pt) of the 'rule' text of klepka's card prize-var, as drawn."""
    renderer = CardRenderer(game, game.meta.source_language)
    plan = renderer.face(game.card("prize-var"))
    for op, (_, element) in zip(plan.ops, renderer.op_sources[plan.label]):
        if op[0] == "text" and "{field.rule" in (element.text or ""):
            return op[3], op[1][2], op[1][3], element
    raise AssertionError("no rule text on prize-var")


def test_chars_that_fit_is_the_longest_cut_of_the_sample_that_fits(klepka):
    font, width, height, element = _rule_box(klepka)
    text = (SAMPLE + " ") * 10
    for size in (9.0, 8.0, 6.0):
        count = chars_that_fit(SAMPLE, font, width, height, size, element.leading)
        assert 50 < count < len(text)
        fit_text(text[:count].rstrip(), font, width, height, size=size, min_size=size, leading=element.leading)
        with pytest.raises(TextOverflowError):  # the next words do not fit
            fit_text(text[:count + 12].rstrip(), font, width, height, size=size, min_size=size,
                     leading=element.leading)
    # a smaller size holds more
    counts = [chars_that_fit(SAMPLE, font, width, height, size, element.leading) for size in (9.0, 8.0, 6.0)]
    assert counts == sorted(counts) and len(set(counts)) == 3


def test_body_size_is_the_layouts_floor_within_the_elements_range():
    layout = SimpleNamespace(thresholds=Accessibility())  # body text 8 pt, any text 6 pt
    rule = Element(type="text", text="{field.rule}", size=9, min_size=6)
    assert body_size(rule, layout) == 8
    assert body_size(Element(type="text", text="{field.rule}", size=7.5, min_size=6), layout) == 7.5
    assert body_size(Element(type="text", text="{field.rule}", size=9, min_size=8.5), layout) == 8.5
    # a name on one line: shrinking to its own min_size is the layout's design (above the 6 pt floor)
    assert body_size(Element(type="text", text="{field.name}", size=12, min_size=7, max_lines=1), layout) == 7
    strict = SimpleNamespace(thresholds=Accessibility(body_text_pt=9))
    assert body_size(rule, strict) == 9


def test_box_capacity_counts_at_size_body_size_and_minimum(klepka):
    capacity = box_capacity(klepka, klepka.card("prize-var"), "rule")
    font, width, height, element = _rule_box(klepka)
    assert (capacity.size_pt, capacity.floor_pt, capacity.min_pt) == (element.size, 8, element.min_size)
    assert capacity.box_mm == pytest.approx((width / PT_PER_MM, height / PT_PER_MM))
    assert capacity.size_chars < capacity.floor_chars < capacity.min_chars
    assert capacity.limit == capacity.floor_chars
    comment = capacity.comment()
    assert f"Length budget: {capacity.floor_chars} characters" in comment
    assert f"{capacity.size_chars} print at the layout's 9 pt" in comment
    assert f"{capacity.min_chars} at 6 pt, the minimum" in comment
    name = box_capacity(klepka, klepka.card("prize-var"), "name")
    assert name.floor_pt == name.min_pt and name.limit == name.min_chars > name.size_chars
    assert box_capacity(klepka, klepka.card("prize-var"), "no-such-field") == NotPrinted("prize-var", "no-such-field")


def test_a_field_the_layout_does_not_print_gets_no_budget(tmp_path):
    """card-football's ordinary cards carry a name the layout leaves out (omit: [name])."""
    game = load_game(ROOT / "content" / "card-football")
    card = next(card for card in game.cards if card.group == "main")
    assert box_capacity(game, card, "name") == NotPrinted(card.id, "name")
    domain = next(d for d in domains(ROOT / "content", ["card-football"], box_capacity) if d.id == "card-football")
    entry = next(m for m in domain.source_messages() if m.key == card.text["name"])
    assert entry.max_length is None and not any(f.startswith("max-length") for f in entry.flags)
    assert any(c.startswith("No length budget: the layout prints no 'name'") for c in entry.comments)


def test_a_text_of_the_budget_prints_without_warning_and_a_longer_one_warns(klepka):
    card = klepka.card("prize-var")
    capacity = box_capacity(klepka, card, "rule")
    source = klepka.messages["ru"][card.text["rule"]]
    text = ((source + " ") * 10)[:capacity.limit].rstrip()
    fit = card_fits(klepka, card, {"rule": text}, "pl")["rule"]
    assert fit.fits and not fit.shrunk, fit.detail
    longer = ((source + " ") * 10)[:(capacity.floor_chars + capacity.min_chars) // 2].rstrip()
    fit = card_fits(klepka, card, {"rule": longer}, "pl")["rule"]
    assert fit.fits and fit.shrunk
    assert fit.detail.startswith("card 'prize-var' [pl] prints its 'rule' at ")
    assert f"under the layout's body size 8 pt: {len(longer)} characters, the box holds about" in fit.detail


def test_an_overflow_is_reported_in_characters_and_millimetres(klepka):
    card = klepka.card("prize-var")
    text = (SAMPLE + " ") * 8
    fit = card_fits(klepka, card, {"rule": text}, "pl")["rule"]
    assert not fit.fits
    found = re.search(r"(\d+\.\d) mm too tall; (\d+) characters, the box holds about (\d+) at 6 pt", fit.detail)
    assert found, fit.detail
    assert int(found.group(2)) == len(text)
    assert 0 < int(found.group(3)) < len(text)


def _set_pl(content: Path, key: str, text: str) -> None:
    path = content / "klepka" / "locale" / "pl.po"
    catalog = read_catalog(path)
    for message in catalog:
        if message.context == key:
            message.string = text
    path.write_bytes(render(catalog))


def test_a_polish_text_under_the_body_size_is_a_status_problem_and_fails_strict(content, klepka):
    card = klepka.card("prize-var")
    capacity = box_capacity(klepka, card, "rule")
    text = ((SAMPLE + " ") * 10)[:(capacity.floor_chars + capacity.min_chars) // 2].rstrip()
    _set_pl(content, "card.prize-var.rule", text)
    (row,) = status(content, ["pl"], ["klepka"], card_fits)
    assert row.too_long == 1
    (problem,) = [p for p in row.problems if p[0] == "shrunk"]
    assert problem[1] == "card.prize-var.rule" and "[pl]" in problem[2]
    with pytest.raises(I18nError, match=r"klepka \[pl\] shrunk: card.prize-var.rule: card 'prize-var' \[pl\]"):
        check_strict(content, ["klepka"], ["pl"], card_fits)


def test_po_entries_carry_the_budget_of_the_real_box(content, klepka, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    domain = next(d for d in domains(content, ["klepka"], box_capacity) if d.id == "klepka")
    update(domain, "pl")
    messages = {m.context: m for m in read_catalog(domain.po_path("pl")) if m.context}
    for key, card, field in (("card.prize-var.rule", "prize-var", "rule"),
                             ("card.prize-var.name", "prize-var", "name")):
        capacity = box_capacity(klepka, klepka.card(card), field)
        assert f"max-length:{capacity.limit}" in messages[key].flags
        assert capacity.comment() in " ".join(messages[key].auto_comments)


def test_i18n_extract_writes_the_budget_of_the_real_box(content, klepka, monkeypatch):
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from minicli import run

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    code, output = run(content, "i18n", "extract", "--game", "klepka")
    assert code == 0, output
    pot = read_catalog(content / "klepka" / "locale" / "klepka.pot")
    rule = next(m for m in pot if m.context == "card.prize-var.rule")
    assert f"max-length:{box_capacity(klepka, klepka.card('prize-var'), 'rule').limit}" in rule.flags
