"""`cardgen build`: manifest, atomic and byte-identical outputs, a fifth deck from YAML only."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.build import PRODUCERS, BuildOptions, build
from cardgen.cli import cli
from cardgen.errors import TextOverflowError

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "tests" / "data" / "decks"
CARDS = ("cards",)
KEYS = {"game", "kind", "lang", "paper", "path", "pages", "cards", "sha256"}


@pytest.fixture
def decks(tmp_path) -> Path:
    target = tmp_path / "decks"
    shutil.copytree(DECKS, target)
    return target


def _manifest(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text("utf-8"))["files"]


def test_fifth_deck_builds_from_yaml_only(decks, tmp_path):
    out = tmp_path / "out"
    result = build(BuildOptions(content_dir=decks, out_dir=out, workers=1, producers=CARDS))
    files = _manifest(out)
    assert len(files) == len(result.artefacts)
    assert all(KEYS <= set(entry) for entry in files)
    kinds = {(f["kind"], f["lang"], f["paper"]) for f in files if f["kind"] != "shop-png"}
    assert kinds == {("pnp", lang, paper) for lang in ("ru", "en") for paper in ("a4", "letter")} | \
        {("shop-pdf", lang, None) for lang in ("ru", "en")}
    for entry in files:
        path = out / entry["path"]
        assert path.is_file()
        if entry["kind"] in ("pnp", "shop-pdf"):
            pdf = PdfReader(path)
            assert len(pdf.pages) == entry["pages"]
            assert entry["cards"] == 14
        if entry["kind"] == "shop-png":
            image = Image.open(path)
            assert list(image.size) == entry["pixels"]
            assert round(image.info["dpi"][0]) == entry["dpi"] == 300
    pngs = [f for f in files if f["kind"] == "shop-png" and f["lang"] == "ru"]
    assert sum(f["cards"] for f in pngs) == 14 and len(pngs) == 14 + 2
    # mini cards (44.45 x 63.5 mm) with 1/8 in bleed at 300 dpi
    assert pngs[0]["pixels"] == [600, 825]


def test_rebuild_is_byte_identical_and_honours_source_date_epoch(decks, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    one, two = tmp_path / "one", tmp_path / "two"
    build(BuildOptions(content_dir=decks, out_dir=one, langs=("ru",), papers=("a4",), workers=2, producers=CARDS))
    build(BuildOptions(content_dir=decks, out_dir=two, langs=("ru",), papers=("a4",), workers=1, producers=CARDS))
    assert (one / "manifest.json").read_bytes() == (two / "manifest.json").read_bytes()
    for entry in _manifest(one):
        assert (one / entry["path"]).read_bytes() == (two / entry["path"]).read_bytes()
    pdf = PdfReader(one / "quiz" / "ru" / "quiz-ru-pnp-a4.pdf")
    assert str(pdf.metadata["/CreationDate"]).startswith("D:20231114")


def test_failed_build_leaves_previous_outputs_whole(decks, tmp_path):
    out = tmp_path / "out"
    build(BuildOptions(content_dir=decks, out_dir=out, langs=("ru",), papers=("a4",), workers=1, producers=CARDS))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    text = decks / "quiz" / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8").replace('"Удвой очки"', '"' + "Удвой очки " * 30 + '"'), "utf-8")
    with pytest.raises(TextOverflowError) as caught:
        build(BuildOptions(content_dir=decks, out_dir=out, langs=("ru",), papers=("a4",), workers=2, producers=CARDS))
    assert caught.value.locator.card == "bonus-double" and caught.value.locator.language == "ru"
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert not list(out.rglob("*.tmp"))


def test_cli_build_writes_manifest_and_summary(decks, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["--content", str(decks), "build", "quiz", "--lang", "en", "--paper", "letter",
                                      "--out", str(out), "--profile", "mpc", "-j", "1", "--only", "cards"])
    assert result.exit_code == 0, result.output
    assert "manifest" in result.output and "quiz" in result.output
    files = _manifest(out)
    assert {f["lang"] for f in files} == {"en"}
    assert any(f["path"].endswith("quiz-en-pnp-letter.pdf") for f in files)
    assert all(f["profile"] == "mpc" for f in files if f["kind"] == "shop-png")


def test_cli_reports_unknown_language_and_overflow(decks, tmp_path):
    result = CliRunner().invoke(cli, ["--content", str(decks), "build", "--lang", "fr", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "fr" in result.output
    text = decks / "quiz" / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8").replace('"Викторина"', '"' + "Викторина " * 40 + '"'), "utf-8")
    result = CliRunner().invoke(cli, ["--content", str(decks), "build", "--out", str(tmp_path), "-j", "1", "--only", "cards"])
    assert result.exit_code == 1
    assert "language ru" in result.output and "mm too" in result.output


def test_manifest_keeps_other_games_and_drops_stale_files(decks, tmp_path):
    shutil.copytree(decks / "quiz", decks / "quiz-two")
    game = decks / "quiz-two" / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("id: quiz", "id: quiz-two"), "utf-8")
    out = tmp_path / "out"
    build(BuildOptions(content_dir=decks, out_dir=out, langs=("ru",), papers=("a4",), workers=1, producers=CARDS))
    # a shop PNG an earlier version of the PNG job wrote (a card since dropped), and one cardgen did not write
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    png = next(f for f in manifest["files"] if f["kind"] == "shop-png" and f["game"] == "quiz")
    manifest["files"].append(dict(png, path="quiz/ru/png-tgc/999-gone.png", sha256=hashlib.sha256(b"old").hexdigest(),
                                  inputs="0" * 64))
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    stale, foreign = out / "quiz" / "ru" / "png-tgc" / "999-gone.png", out / "quiz" / "ru" / "png-tgc" / "998-mine.png"
    stale.write_bytes(b"old")
    foreign.write_bytes(b"mine")
    result = build(BuildOptions(content_dir=decks, out_dir=out, games=("quiz",), langs=("ru",), papers=("a4",),
                                workers=1, producers=CARDS))
    games = {f["game"] for f in _manifest(out)}
    assert games == {"quiz", "quiz-two"}
    assert not stale.exists() and [r.path for r in result.removed] == ["quiz/ru/png-tgc/999-gone.png"]
    assert foreign.read_bytes() == b"mine"


def test_progress_is_reported_per_job(decks, tmp_path):
    seen = []
    result = build(BuildOptions(content_dir=decks, out_dir=tmp_path / "out", langs=("en",), papers=("a4",),
                                workers=2, producers=CARDS), lambda done, total, label: seen.append((done, total)))
    assert seen[0] == (0, result.jobs) and seen[-1] == (result.jobs, result.jobs)
    assert [done for done, _ in seen] == list(range(result.jobs + 1))


def test_producers_register_with_one_line():
    from cardgen.build import cards, rulebooks

    assert PRODUCERS["cards"].plan is cards.plan
    assert PRODUCERS["rulebook"].warm_up is rulebooks.warm_up


def test_strict_build_fails_on_missing_text_before_writing_anything(decks, tmp_path):
    out = tmp_path / "out"
    build(BuildOptions(content_dir=decks, out_dir=out, langs=("ru",), papers=("a4",), workers=1, producers=CARDS))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    args = ["--content", str(decks), "build", "--strict", "--out", str(out), "-j", "1", "--only", "cards"]
    result = CliRunner().invoke(cli, [*args, "--paper", "a4"])
    assert result.exit_code == 1
    assert "strict build" in result.output and "quiz [en] missing: card.q-france.name" in result.output
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before  # nothing replaced
    result = CliRunner().invoke(cli, [*args, "--lang", "ru", "--paper", "a4"])  # the source language is complete
    assert result.exit_code == 0, result.output


def test_fallback_to_the_source_is_summarised_and_strict_refuses_it(tmp_path):
    content = tmp_path / "content"
    for name in ("klepka",):
        shutil.copytree(ROOT / "content" / name, content / name)
    (content / "klepka" / "locale" / "en.po").unlink()
    out = tmp_path / "out"
    args = ["--content", str(content), "build", "klepka", "--lang", "en", "--only", "rulebook", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "fell back to another language" in result.output
    assert re.search(r"klepka \[en\]: \d+ message\(s\) \(e\.g\. klepka \[en\] ", result.output)
    assert "the Russian text (ru) is used" in result.output  # English has no fallback but the source
    rulebooks = [f for f in _manifest(out) if f["kind"] == "rulebook"]
    assert len(rulebooks) == 2 and all(f["fallback"] > 0 and f["warnings"] for f in rulebooks)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    result = CliRunner().invoke(cli, [*args, "--strict"])
    assert result.exit_code == 1 and "klepka [en] missing" in result.output
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_ink_modes_build_one_pnp_each_and_leave_the_default_and_shop_files_alone(decks, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    default, inks = tmp_path / "default", tmp_path / "inks"
    options = dict(content_dir=decks, langs=("ru",), papers=("a4",), workers=1, producers=CARDS)
    build(BuildOptions(out_dir=default, **options))
    build(BuildOptions(out_dir=inks, inks=("full", "ink-saver", "greyscale"), **options))
    plain = {f["path"]: f for f in _manifest(default)}
    every = {f["path"]: f for f in _manifest(inks)}
    # the default build writes one full-colour PnP per paper, recorded as such, and nothing else new
    assert [f["ink"] for f in plain.values() if f["kind"] == "pnp"] == ["full"]
    assert all("ink" not in f for f in plain.values() if f["kind"] != "pnp")
    # each other mode adds a file with its suffix; every file of the default build is byte-identical
    added = sorted(set(every) - set(plain))
    assert added == ["quiz/ru/quiz-ru-pnp-a4-greyscale.pdf", "quiz/ru/quiz-ru-pnp-a4-ink-saver.pdf"]
    assert [every[path]["ink"] for path in added] == ["greyscale", "ink-saver"]
    assert all(every[path]["sha256"] == entry["sha256"] for path, entry in plain.items())
    assert all((inks / path).read_bytes() != (inks / added[0]).read_bytes() for path in plain if "pnp" in path)


def test_cli_ink_option(decks, tmp_path):
    out = tmp_path / "out"
    args = ["--content", str(decks), "build", "quiz", "--lang", "en", "--paper", "letter", "--fold",
            "--out", str(out), "-j", "1", "--only", "cards"]
    result = CliRunner().invoke(cli, [*args, "--ink", "ink-saver", "--ink", "ink-saver"])
    assert result.exit_code == 0, result.output
    pnps = [f for f in _manifest(out) if f["kind"] == "pnp"]
    assert [(f["path"], f["ink"]) for f in pnps] == [("quiz/en/quiz-en-pnp-letter-fold-ink-saver.pdf", "ink-saver")]
    result = CliRunner().invoke(cli, [*args, "--ink", "sepia"])
    assert result.exit_code == 2
    assert "Invalid value for '--ink'" in result.output and "ink-saver" in result.output
