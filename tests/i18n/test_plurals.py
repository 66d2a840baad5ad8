"""Plural blocks: the word for a count by the language's CLDR rules, checked at validate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.content.loader import load_game
from cardgen.i18n import plurals
from cardgen.i18n.texts import Texts

ROOT = Path(__file__).resolve().parents[2]
COUNTS = (1, 2, 5, 12, 22, 25)


@pytest.mark.parametrize("language, expected", [
    ("ru", ["1 ряд", "2 ряда", "5 рядов", "12 рядов", "22 ряда", "25 рядов"]),
    ("pl", ["1 rząd", "2 rzędy", "5 rzędów", "12 rzędów", "22 rzędy", "25 rzędów"]),
    ("en", ["1 row", "2 rows", "5 rows", "12 rows", "22 rows", "25 rows"]),
])
def test_russian_polish_and_english_forms(language, expected):
    forms = {"ru": "one=# ряд|few=# ряда|many=# рядов", "pl": "one=# rząd|few=# rzędy|many=# rzędów",
             "en": "one=# row|other=# rows"}[language]
    text = "{plural:setting:rows|%s}" % forms
    assert [plurals.expand(text, language, {"rows": n}, {}) for n in COUNTS] == expected


def test_a_count_from_an_argument_and_a_fraction():
    text = "{total} {plural:total|one=karta|few=karty|many=kart|other=karty}"
    assert plurals.expand(text, "pl", {}, {"total": 1}) == "{total} karta"
    assert plurals.expand(text, "pl", {"x": 1}, {"total": 1.5}) == "{total} karty"  # CLDR 'other'


def test_the_checks_name_what_a_language_needs():
    assert plurals.problems("{plural:setting:rows|one=row|other=rows}", "en", {"rows": 3}) == []
    [missing] = plurals.problems("{plural:setting:rows|one=rząd|many=rzędów}", "pl", {"rows": 3})
    assert "pl needs the forms one=..., few=..., many=... (missing: few)" in missing
    assert "unknown setting 'cols'" in plurals.problems("{plural:setting:cols|one=a|other=b}", "en", {"rows": 3})[0]
    assert "unknown category lots" in plurals.problems("{plural:setting:rows|lots=a|other=b}", "en", {"rows": 3})[0]


@pytest.fixture
def klepka(tmp_path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "klepka", target / "klepka")
    return target


def _with_rows(content: Path, rows: int, columns: int):
    game_yaml = content / "klepka" / "game.yaml"
    text = game_yaml.read_text("utf-8")
    text = text.replace("rows: 10", f"rows: {rows}").replace("columns: 10", f"columns: {columns}")
    game_yaml.write_text(text, "utf-8")
    return load_game(content / "klepka")


@pytest.mark.parametrize("rows, columns, russian, english", [
    (1, 2, "в 1 ряд по 2 плитки", "in 1 row of 2 tiles"),
    (22, 25, "в 22 ряда по 25 плиток", "in 22 rows of 25 tiles"),
    (12, 21, "в 12 рядов по 21 плитке", "in 12 rows of 21 tiles"),
])
def test_the_bundled_setup_sentence_agrees_with_its_numbers(klepka, rows, columns, russian, english):
    game = _with_rows(klepka, rows, columns)
    assert russian in Texts(game, "ru", klepka).plain("rules.setup.2")
    assert english in Texts(game, "en", klepka).plain("rules.setup.2")


def test_a_translation_missing_a_form_of_its_language_fails_validate(klepka):
    po = klepka / "klepka" / "locale" / "de.po"
    text = po.read_text("utf-8")
    assert "{plural:setting:rows|one=Reihe|other=Reihen}" in text
    po.write_text(text.replace("{plural:setting:rows|one=Reihe|other=Reihen}", "{plural:setting:rows|one=Reihe}"),
                  "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(klepka), "validate", "klepka"])
    assert result.exit_code == 1
    line = next(l for l in result.output.splitlines() if "needs the forms" in l)
    assert "klepka/locale/de.po:" in line and "(field rules.setup.2, language de)" in line
    assert "de needs the forms one=..., other=... (missing: other)" in line
