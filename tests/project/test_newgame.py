"""``cardgen new``: from an empty folder to print files, in any source language.

The done-when path of the own-game issue: ``new``, then ``validate`` and ``build`` with
nothing else done; the PDFs carry no Cyrillic and no card id.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
import pypdfium2 as pdfium

from cardgen.cli import cli

CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def pdf_text(path: Path) -> str:
    """Every page's text (PDFium: pypdf takes seconds a file)."""
    document = pdfium.PdfDocument(path)
    try:
        return "\n".join(document[i].get_textpage().get_text_bounded() for i in range(len(document)))
    finally:
        document.close()


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def lights(tmp_path_factory) -> Path:
    """games/lights made by 'cardgen new' (en source, de translation), built into out/."""
    root = tmp_path_factory.mktemp("own")
    games = root / "games"
    result = run("new", "lights", "--content", str(games), "--source-lang", "en", "--lang", "de")
    assert result.exit_code == 0, result.output
    return games


@pytest.fixture(scope="module")
def built(lights: Path) -> Path:
    out = lights.parent / "out"
    result = run("--content", str(lights), "build", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_new_writes_a_complete_game(lights):
    folder = lights / "lights"
    for name in ("game.yaml", "cards.yaml", "layout.yaml", "text/en.yaml", "locale/de.po"):
        assert (folder / name).is_file(), name
    assert not (folder / "text" / "de.yaml").exists()  # German is a translation, not a source
    assert not (lights / "common").exists()  # cardgen ships the shared strings in en and de
    game = yaml.safe_load((folder / "game.yaml").read_text("utf-8"))
    assert (game["source_language"], game["languages"]) == ("en", ["en", "de"])
    assert "engine" not in game
    cards = yaml.safe_load((folder / "cards.yaml").read_text("utf-8"))["cards"]
    assert any("generate" in entry for entry in cards)


def test_the_back_is_a_placeholder_picture_to_the_bleed_at_300_ppi(lights, built):
    from PIL import Image

    from cardgen.project.newgame import placeholder_back

    art = lights / "lights" / "art" / "back.png"
    with Image.open(art) as image:
        # poker trim 63.5 x 88.9 mm plus 4 mm bleed a side, at 300 ppi
        assert image.size == (round(71.5 / 25.4 * 300), round(96.9 / 25.4 * 300))
        assert image.mode == "RGB" and image.getpixel((2, 2)) != (255, 255, 255)
    assert placeholder_back(63.5, 88.9) == art.read_bytes()  # the same bytes every time
    result = run("--content", str(lights), "validate")
    assert "ppi" not in result.output  # sharp enough for every printer cardgen knows
    # the back prints the picture: the shop PNG of the back is mostly the back's dark blue-grey
    backs = sorted((built / "lights" / "en").rglob("*back*.png"))
    assert backs, sorted(p.name for p in (built / "lights" / "en").rglob("*.png"))[:5]
    with Image.open(backs[0]) as image:
        small = image.convert("RGB").resize((20, 28))
        dark = sum(1 for x in range(20) for y in range(28) if sum(small.getpixel((x, y))) < 3 * 110)
        assert dark > 0.5 * 20 * 28


def test_every_schema_line_points_at_a_file(lights):
    for path in sorted(lights.rglob("*.yaml")):
        first = path.read_text("utf-8").splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, f"{path}: {first}"
        assert (path.parent / match.group(1)).resolve().is_file(), f"{path} -> {match.group(1)}"


def test_validate_passes_and_counts_the_placeholders(lights):
    result = run("--content", str(lights), "validate")
    assert result.exit_code == 0, result.output
    assert "total" in result.output and "1 game(s) valid." in result.output
    assert re.search(r"note: \d+ text\(s\) of text/en.yaml still hold the placeholder", result.output)


def test_the_build_has_no_cyrillic_and_no_card_id(lights, built):
    import json

    manifest = json.loads((built / "manifest.json").read_text("utf-8"))["files"]
    kinds = {entry["kind"] for entry in manifest}
    assert {"pnp", "shop-pdf", "shop-png", "rulebook"} <= kinds
    assert {entry["lang"] for entry in manifest} == {"en", "de"}
    ids = {card["id"] for card in _expanded_ids(lights / "lights")}
    pdfs = sorted(built.rglob("*.pdf"))
    assert len(pdfs) == 10
    for pdf in pdfs:
        text = pdf_text(pdf)
        assert text.strip(), pdf
        assert not CYRILLIC.search(text), f"{pdf.name}: {CYRILLIC.search(text).group()!r}"
        words = set(re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", text))
        assert not words & ids, f"{pdf.name} prints card ids {sorted(words & ids)[:5]}"
    rules = pdf_text(built / "lights/en/lights-en-rules-a4.pdf")
    assert "Red 1" in rules and "Blue 6" in rules  # the kinds' declared labels, not red-1


def _expanded_ids(folder: Path) -> list[dict]:
    from cardgen.content import load_games

    game = load_games(folder.parent, [folder.name])[0]
    return [{"id": card.id} for card in game.cards]


def test_new_never_overwrites(lights):
    before = {p: p.read_bytes() for p in (lights / "lights").rglob("*") if p.is_file()}
    result = run("new", "lights", "--content", str(lights))
    assert result.exit_code == 1
    assert "'lights' exists already" in result.output
    assert {p: p.read_bytes() for p in (lights / "lights").rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("args, message", [
    (["Bad_Name"], "expected a lower-case id"),
    (["common"], "taken by the content folder's own"),
    (["ok", "--size", "0x88"], "width 0 mm is outside"),
    (["ok", "--size", "huge"], "expected one of poker"),
    (["ok", "--size", "63x9999"], "height 9999 mm is outside"),
    (["ok", "--lang", "xx-YY"], "xx-YY"),
    (["ok", "--source-lang", "english"], "english"),
])
def test_bad_requests_are_refused_before_writing(tmp_path, args, message):
    result = run("new", *args, "--content", str(tmp_path / "games"))
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert not (tmp_path / "games" / "ok").exists()


def test_a_language_without_shared_strings_gets_english_ones_to_translate(tmp_path):
    games = tmp_path / "games"
    result = run("new", "nuit", "--content", str(games), "--source-lang", "en", "--lang", "fr")
    assert result.exit_code == 0, result.output
    po = (games / "common" / "locale" / "fr.po").read_text("utf-8")
    assert 'msgid "Setup"' in po and not CYRILLIC.search(po)  # English msgids for an English game
    assert 'msgid "Red"' in (games / "nuit" / "locale" / "fr.po").read_text("utf-8")
    # Czech: a language cardgen has no shared strings in
    result = run("new", "noc", "--content", str(tmp_path / "cs"), "--source-lang", "cs", "--size", "square")
    assert result.exit_code == 0, result.output
    assert "no shared strings in 'cs'" in result.output
    assert (tmp_path / "cs" / "common" / "text" / "cs.yaml").is_file()
    for content in (games, tmp_path / "cs"):
        result = run("--content", str(content), "validate")
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("source, heading", [("ru", "Подготовка"), ("de", "Vorbereitung")])
def test_a_game_written_in_russian_or_german_builds_in_its_language(tmp_path, source, heading):
    games = tmp_path / "games"
    assert run("new", "tiny", "--content", str(games), "--source-lang", source, "--size", "bridge").exit_code == 0
    out = tmp_path / "out"
    result = run("--content", str(games), "build", "--out", str(out), "--only", "rulebook", "-j", "1")
    assert result.exit_code == 0, result.output
    text = pdf_text(out / f"tiny/{source}/tiny-{source}-rules-a4.pdf")
    assert heading in text and "[Placeholder]" not in text


def test_a_half_written_game_of_a_killed_new_is_no_game(tmp_path):
    """'new' writes under a hidden name and renames; a leftover hidden folder is ignored."""
    games = tmp_path / "games"
    assert run("new", "lights", "--content", str(games)).exit_code == 0
    (games / "lights").rename(games / ".lights.new-abc123")
    assert run("new", "lights", "--content", str(games)).exit_code == 0
    result = run("--content", str(games), "validate")
    assert result.exit_code == 0, result.output
    assert "1 game(s) valid." in result.output


def test_a_game_without_an_engine_says_so(tmp_path):
    games = tmp_path / "games"
    assert run("new", "lights", "--content", str(games)).exit_code == 0
    result = run("--content", str(games), "simulate", "lights", "--games", "5", "--seed", "1")
    assert result.exit_code == 1
    assert "game 'lights' has no engine" in result.output and "engine: ID" in result.output
    assert "None" not in result.output
    # shown as every content error is: relative to the content folder's parent, with a line
    assert "games/lights/game.yaml:" in result.output and str(tmp_path) not in result.output
    sweep = run("--content", str(games), "sweep", "lights", "--games", "5", "--scheduler", "inline",
                "--out", str(tmp_path / "sweep"))
    assert sweep.exit_code == 1 and "games/lights/game.yaml:" in sweep.output
    assert str(tmp_path) not in sweep.output.replace(str(tmp_path / "sweep"), "")
    game_yaml = games / "lights" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8") + "limits: {games: 10}\n", "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    line = len(game_yaml.read_text("utf-8").splitlines())
    assert f"games/lights/game.yaml:{line}:1 (field limits): limits: need an engine" in result.output


def test_a_misspelt_drawing_is_found_by_validate_at_its_line(tmp_path):
    games = tmp_path / "games"
    assert run("new", "lights", "--content", str(games)).exit_code == 0
    layout = games / "lights" / "layout.yaml"
    text = layout.read_text("utf-8").replace("draw: lights-mark", "draw: shipp", 1)
    layout.write_text(text, "utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "draw: shipp" in row)
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    assert f"games/lights/layout.yaml:{line}:" in result.output
    assert "no symbol or drawing named 'shipp'" in result.output and "lights-mark" in result.output


def test_validate_checks_the_references_of_every_message(tmp_path):
    """Card text and translations too, not only the rulebook's: nothing prints '{card:nosuch}' raw."""
    games = tmp_path / "games"
    assert run("new", "lights", "--content", str(games), "--lang", "de").exit_code == 0
    source = games / "lights" / "text" / "en.yaml"
    text = source.read_text("utf-8").replace('"Play it on any card.', '"Play it on {card:nosuch} or {card:}.')
    source.write_text(text, "utf-8")
    po = games / "lights" / "locale" / "de.po"
    po.write_text(po.read_text("utf-8").replace(
        'msgid "Skip"\nmsgstr ""', 'msgid "Skip"\nmsgstr "Aussetzen {setting:nosuch}"'), "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.lstrip().startswith("card.wild.rule"))
    assert f"games/lights/text/en.yaml:{line}:" in result.output and "{card:}" in result.output
    po_line = next(n for n, row in enumerate(po.read_text("utf-8").splitlines(), 1) if "{setting:nosuch}" in row)
    # the entry's msgid line, as babel reports it
    assert (f"games/lights/locale/de.po:{po_line - 1} (field card.skip.name, language de): translation of "
            "'card.skip.name': reference {setting:nosuch}: unknown setting") in result.output


@pytest.mark.parametrize("change, expected", [
    ('"Play it on any card.', "{card:red-1}"),  # a card without a name
    ('"Play it on any card.', "{card:wild|acc}"),  # a form the source does not list
])
def test_validate_refuses_references_that_cannot_print(tmp_path, change, expected):
    games = tmp_path / "games"
    assert run("new", "lights", "--content", str(games)).exit_code == 0
    source = games / "lights" / "text" / "en.yaml"
    source.write_text(source.read_text("utf-8").replace(change, f'"Play it on {expected}.'), "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1 and f"reference {expected}" in result.output, result.output


def test_validate_refuses_malformed_forms(tmp_path):
    games = tmp_path / "games"
    assert run("new", "lights", "--content", str(games)).exit_code == 0
    source = games / "lights" / "text" / "en.yaml"
    source.write_text(source.read_text("utf-8").replace(
        '  card.wild.rule:', '  card.wild.name.forms: "the Wild card"\n  card.wild.rule:'), "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1 and "card.wild.name.forms" in result.output, result.output


def test_a_content_folder_that_cannot_be_made_is_a_clean_error(tmp_path):
    (tmp_path / "file").write_text("not a folder", "utf-8")
    result = run("new", "lights", "--content", str(tmp_path / "file" / "games"))
    assert result.exit_code == 1
    assert f"error: {tmp_path / 'file' / 'games'}: cannot create the game in this folder" in result.output
    result = run("new", "lights", "--content", str(tmp_path / "file"))  # a file: click's usage error
    assert result.exit_code == 2 and "Traceback" not in result.output
