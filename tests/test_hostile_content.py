"""Hostile input, third round (issue 28), the content half: each reproduction of the issue a named
test.  Symlinks never lead a read out of the content folder nor a write or a deletion out of the
output or content folder; budgets stop runaway decks and layouts before any work; YAML, PO and SVG
oddities are errors at their line; user text in errors never drives the terminal.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from minicli import MINI, ROOT, clean_error, run

BUILD = ["build", "mini", "--only", "cards", "--paper", "a4", "-j", "1"]
PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={charset}\\n"\n\n'


@pytest.fixture(autouse=True)
def fixed_dates(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture
def content(tmp_path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(MINI, folder / "mini")
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, symlinks not followed (a symlink is its target's name)."""
    found = {}
    for top, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = Path(top) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                found[rel] = b"-> " + os.readlink(path).encode()
            elif path.is_file():
                found[rel] = path.read_bytes()
    return found


def foreign_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "foreign"
    folder.mkdir()
    (folder / "thesis.pdf").write_bytes(b"%PDF-1.4 my thesis\n")
    (folder / "settings.json").write_text('{"keep": true}\n', "utf-8")
    return folder


# --- 1. the output folder: never written or emptied through a symlink -----------------------------------

def test_a_language_folder_symlinked_elsewhere_is_neither_written_nor_emptied(content, tmp_path):
    out = tmp_path / "out"
    assert run(content, *BUILD, "--lang", "ru", "--out", str(out))[0] == 0
    foreign = foreign_folder(tmp_path)
    (out / "mini" / "en").symlink_to(foreign)
    before, outside = tree(out), tree(foreign)
    clean_error(*run(content, *BUILD, "--lang", "en", "--out", str(out)), "mini/en is a symlink", "nothing was changed")
    assert tree(foreign) == outside and tree(out) == before


def test_files_a_manifest_lists_behind_a_symlinked_folder_are_never_deleted(content, tmp_path):
    """The issue's case: stale files listed under out/GAME/LANG, which is a symlink to a folder of
    the user's own: 'removed 2 stale file(s)' deleted them.  Now the build refuses, nothing moves."""
    out = tmp_path / "out"
    assert run(content, *BUILD, "--lang", "ru", "--out", str(out))[0] == 0
    foreign = foreign_folder(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    for name in ("thesis.pdf", "settings.json"):  # listed with their very bytes: stale under --clean
        manifest["files"].append({"game": "mini", "kind": "pnp", "lang": "ru", "path": f"mini/ru/{name}",
                                  "sha256": hashlib.sha256((foreign / name).read_bytes()).hexdigest()})
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    for built in (out / "mini" / "ru").iterdir():
        shutil.move(built, foreign / built.name)
    (out / "mini" / "ru").rmdir()
    (out / "mini" / "ru").symlink_to(foreign)
    outside = tree(foreign)
    code, output = run(content, *BUILD, "--lang", "ru", "--clean", "--out", str(out))
    assert "removed" not in output
    assert tree(foreign) == outside
    if code != 0:
        clean_error(code, output, "mini/ru is a symlink")


def test_the_commit_reaches_each_folder_without_following_a_symlink(tmp_path):
    """The mechanism under the build: a folder swapped for a symlink after every check is still
    refused where the file is moved (fileio.folder_of opens each folder with O_NOFOLLOW)."""
    from cardgen.fileio import SymlinkInTheWay, folder_of

    target = tmp_path / "out"
    (target / "game").mkdir(parents=True)
    foreign = foreign_folder(tmp_path)
    (target / "game" / "en").symlink_to(foreign)
    with pytest.raises(SymlinkInTheWay, match="game/en is a symlink"):
        with folder_of(target, "game/en/file.pdf", create=True):
            pass
    with folder_of(target, "game/ru/sub/file.pdf", create=True) as fd:
        assert fd is not None and (target / "game" / "ru" / "sub").is_dir()
    with folder_of(target, "game/de/file.pdf", create=False) as fd:
        assert fd is None and not (target / "game" / "de").exists()


# --- 2. reading: no symlink out of the content folder, anywhere -----------------------------------------

def _outside_layout(tmp_path: Path) -> Path:
    outside = tmp_path / "elsewhere" / "layout.yaml"
    outside.parent.mkdir()
    outside.write_text((ROOT / "templates" / "cards" / "default.yaml").read_text("utf-8"), "utf-8")
    return outside


def test_a_layout_symlinked_from_outside_the_game_is_not_read(content, tmp_path):
    (content / "mini" / "layout.yaml").symlink_to(_outside_layout(tmp_path))
    clean_error(*run(content, "validate"), "layout.yaml lies outside the game folder")
    clean_error(*run(content, *BUILD, "--lang", "ru", "--out", str(tmp_path / "out")), "layout.yaml lies outside")
    assert not (tmp_path / "out").exists()


def test_shared_text_symlinked_from_outside_the_content_folder_is_not_read(content, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "en.yaml").write_text((ROOT / "cardgen" / "common" / "text" / "en.yaml").read_text("utf-8"), "utf-8")
    (content / "common" / "text").mkdir(parents=True)
    (content / "common" / "text" / "en.yaml").symlink_to(outside / "en.yaml")
    clean_error(*run(content, "validate"), "common/text/en.yaml", "outside the content folder")
    shutil.rmtree(content / "common")
    (content / "common").mkdir()
    (content / "common" / "text").symlink_to(outside)  # the folder instead of the file
    clean_error(*run(content, "validate"), "common/text/en.yaml", "outside the content folder")


def test_a_shared_po_file_symlinked_from_outside_is_not_read(content, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "fr.po").write_text(PO_HEAD.format(charset="UTF-8"), "utf-8")
    (content / "common" / "locale").mkdir(parents=True)
    (content / "common" / "locale" / "fr.po").symlink_to(outside / "fr.po")
    clean_error(*run(content, "validate"), "common/locale/fr.po", "outside the content folder")


def test_a_game_folder_symlinked_from_outside_is_not_validated_or_built(content, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.move(content / "mini", elsewhere)
    (content / "mini").symlink_to(elsewhere)
    clean_error(*run(content, "validate"), "the game folder is a symlink leading outside the content folder")
    clean_error(*run(content, *BUILD, "--lang", "ru", "--out", str(tmp_path / "out")), "game folder is a symlink")
    assert not (tmp_path / "out").exists()


def test_a_game_folder_swapped_for_a_symlink_while_cardgen_runs_is_refused(content, tmp_path):
    """The studio's case: the folder was a real one when cardgen started, a symlink out when it
    reads again; every later read is refused, whoever reads (loader, the fence of each file)."""
    from cardgen.content import load_games
    from cardgen.content.safefile import UnsafeFile, inside, read_capped
    from cardgen.errors import ContentErrors

    assert load_games(content, ["mini"])
    game = content / "mini"
    elsewhere = tmp_path / "elsewhere"
    shutil.move(game, elsewhere)
    game.symlink_to(elsewhere)
    with pytest.raises(ContentErrors, match="game folder is a symlink"):
        load_games(content, ["mini"])
    assert not inside(game / "game.yaml", game)
    with pytest.raises(UnsafeFile, match="outside the game folder"):
        read_capped(game / "game.yaml", root=game)


def test_a_folder_swapped_between_the_check_and_the_open_is_caught_on_the_open_file(content, tmp_path, monkeypatch):
    """The race itself: the path was checked while the game folder was real, then the folder became
    a symlink out before the open.  The file actually opened is checked (by the kernel's path of it)."""
    from cardgen.content import safefile

    game = content / "mini"
    elsewhere = tmp_path / "elsewhere"
    shutil.move(game, elsewhere)
    game.symlink_to(elsewhere)
    monkeypatch.setattr(safefile, "inside", lambda path, root: True)  # the check, made before the swap
    with pytest.raises(safefile.UnsafeFile, match="changed into a symlink"):
        safefile.read_capped(game / "game.yaml", root=game)


def test_a_game_folder_symlinked_inside_the_content_folder_still_reads(content):
    """A symlink that stays inside the content folder is no way out: a second name for a game."""
    from cardgen.content.safefile import inside, read_capped

    (content / "alias").symlink_to(content / "mini")
    assert inside(content / "alias" / "game.yaml", content / "alias")
    assert read_capped(content / "alias" / "game.yaml", root=content / "alias").startswith(b"#")


def test_a_content_folder_that_is_itself_a_symlink_still_works(content, tmp_path):
    link = tmp_path / "linked-content"
    link.symlink_to(content)
    code, output = run(link, "validate")
    assert code == 0, output


# --- 3. writing into the content folder: never through a symlink ----------------------------------------

def test_schema_never_writes_through_a_symlinked_schema_folder(content, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (content / "schema").symlink_to(elsewhere)
    clean_error(*run(content, "schema"), "schema is a symlink")
    assert list(elsewhere.iterdir()) == []


def test_new_never_writes_through_a_symlinked_schema_or_common_folder(content, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (content / "schema").symlink_to(elsewhere)
    clean_error(*run(content, "new", "lights"), "schema is a symlink")
    assert list(elsewhere.iterdir()) == [] and not (content / "lights").exists()
    (content / "schema").unlink()
    (content / "common").mkdir()
    (content / "common" / "locale").symlink_to(elsewhere)
    clean_error(*run(content, "new", "lights", "--lang", "de"), "common/locale is a symlink")
    assert list(elsewhere.iterdir()) == [] and not (content / "lights").exists()


# --- 5, 6. budgets: checked before any work ---------------------------------------------------------------

GENERATOR = """  - generate:
      n: {from: 1, to: 9900}
    card:
      id: "gen-{n}"
      group: numbers
      copies: 1000
      back: main
      attrs: {value: 1}
"""


def test_a_generator_inside_its_caps_but_ten_million_cards_is_refused_at_once(content, tmp_path):
    cards = content / "mini" / "cards.yaml"
    line = cards.read_text("utf-8").count("\n") + 1
    cards.write_text(cards.read_text("utf-8") + GENERATOR, "utf-8")
    started = time.perf_counter()
    clean_error(*run(content, "validate"), f"cards.yaml:{line}:", "19,800,012 card faces", "at most 50,000")
    clean_error(*run(content, *BUILD, "--out", str(tmp_path / "out")), f"cards.yaml:{line}:", "card faces")
    assert time.perf_counter() - started < 30
    assert not (tmp_path / "out").exists()


def test_a_deck_at_its_budget_still_validates(content):
    """The budget is the product: 6 cards × 2 languages is far inside; so is a real game."""
    from cardgen.content.budgets import MAX_CARD_FACES, card_faces

    assert run(content, "validate")[0] == 0
    assert card_faces([(0, MAX_CARD_FACES // 2)], 2) is None
    assert card_faces([(0, MAX_CARD_FACES // 2), (1, 1)], 2)[1:] == (0, MAX_CARD_FACES // 2)


def fan_out_layout(levels: int = 9, width: int = 10) -> str:
    lines = ["include: [common.yaml]", "symbols:"]
    for i in range(levels):
        if i < levels - 1:
            shapes = ", ".join(f"{{use: s{i + 1}, box: [0, 0, 10, 10]}}" for _ in range(width))
        else:
            shapes = '{rect: [0, 0, 10, 10], fill: "#000000"}'
        lines.append(f"  s{i}: {{viewbox: [10, 10], shapes: [{shapes}]}}")
    lines += ["faces:", "  - match: {}", "    omit: [name]", "    elements:",
              "      - {type: draw, draw: s0, box: [0, 0, 60, 80]}",
              "backs:", "  - match: {}", "    elements:", '      - {type: fill, fill: "#123456"}']
    return "\n".join(lines) + "\n"


def test_symbols_using_symbols_ten_times_over_are_refused_in_seconds(content, tmp_path):
    (content / "mini" / "layout.yaml").write_text(fan_out_layout(), "utf-8")
    started = time.perf_counter()
    errors = clean_error(*run(content, "validate"), "layout.yaml:3:", "symbol 's0' draws", "at most 20,000")
    assert any("211,110 shapes" in line for line in errors)  # s3: its figure
    clean_error(*run(content, *BUILD, "--lang", "ru", "--out", str(tmp_path / "out")), "layout.yaml:", "shapes")
    assert time.perf_counter() - started < 30


def test_an_entry_drawing_a_big_symbol_many_times_is_refused(content, tmp_path):
    layout = fan_out_layout(levels=4, width=20)  # s0: 16,420 shapes, inside the symbol budget
    draws = "".join(f"      - {{type: draw, draw: s0, box: [{i}, 0, 10, 10]}}\n" for i in range(7))
    layout = layout.replace("    elements:\n", "    elements:\n" + draws, 1)
    (content / "mini" / "layout.yaml").write_text(layout, "utf-8")
    started = time.perf_counter()
    errors = clean_error(*run(content, "validate"), "layout.yaml:", "this entry draws 131,360 shapes on each card")  # 8 × 16,420
    assert not any("symbol 's0'" in line for line in errors)
    clean_error(*run(content, *BUILD, "--lang", "ru", "--out", str(tmp_path / "out")), "131,360 shapes")
    assert time.perf_counter() - started < 30


def test_symbol_shapes_are_counted_in_linear_time_with_parameters_and_loops():
    from cardgen.content.budgets import MAX_SYMBOL_SHAPES, symbol_shapes

    wide = {f"s{i}": [{"use": f"s{i + 1}"}] * 50 for i in range(8)} | {"s8": [{"rect": [0, 0, 1, 1]}]}
    started = time.perf_counter()
    sizes = symbol_shapes(wide)  # 50**8 shapes: counted, never walked
    assert time.perf_counter() - started < 1
    assert sizes["s7"] == 50 + 50 and sizes["s6"] == 50 + 50 * 100
    assert sizes["s0"] == MAX_SYMBOL_SHAPES * 1000  # held at a figure that says "far too many"
    named = {"pip": [{"use": "suit-{suit}"}], "suit-a": [{"rect": []}] * 3, "suit-b": [{"rect": []}]}
    assert symbol_shapes(named)["pip"] == 1 + 3
    looped = {"a": [{"use": "b"}], "b": [{"use": "a"}]}
    assert symbol_shapes(looped)["a"] <= 20  # a loop is the layout checks' error, not a hang


# --- 10, 19. YAML scalars that look like dates and numbers; control characters ---------------------------

@pytest.mark.parametrize("scalar", ["2001-02-30", "0b_", "0x_", "-0x_", "2001-13-01", "2001-02-28 25:00:00"])
@pytest.mark.parametrize("as_key", [False, True], ids=["value", "key"])
@pytest.mark.parametrize("file", ["game.yaml", "cards.yaml", "text/ru.yaml"])
def test_a_scalar_that_reads_as_an_impossible_date_or_number_is_an_error_at_its_line(scalar, as_key, file, content):
    path = content / "mini" / file
    text = path.read_text("utf-8")
    line = text.count("\n") + 1
    addition = f"{scalar}: 1\n" if as_key else f"hand_size: {scalar}\n"
    if file == "cards.yaml":
        addition = "  - " + addition
    path.write_text(text + addition, "utf-8")
    errors = clean_error(*run(content, "validate"), f"{file}:{line}:")
    assert any(scalar in line_ for line_ in errors), errors


def test_a_hostile_scalar_in_a_layout_is_an_error_at_its_line(content, tmp_path):
    layout = fan_out_layout(levels=1).replace("symbols:", "symbols:\n  2001-02-30: [{rect: [0, 0, 1, 1]}]")
    (content / "mini" / "layout.yaml").write_text(layout, "utf-8")
    clean_error(*run(content, "validate"), "layout.yaml:3:", "2001-02-30")
    clean_error(*run(content, *BUILD, "--lang", "ru", "--out", str(tmp_path / "out")), "layout.yaml:3:")


@pytest.mark.parametrize("character", ["\x01", "\x1b", "\x7f", "\x85\x86", "\ufffe"])
def test_a_control_character_in_yaml_is_an_error_with_its_line(character, content):
    path = content / "mini" / "game.yaml"
    text = path.read_text("utf-8")
    line = text.count("\n") + 1
    path.write_text(text + f"hand_size: a{character}b\n", "utf-8")
    clean_error(*run(content, "validate"), f"game.yaml:{line}:", "YAML does not allow the character")


def test_a_date_as_a_key_is_shown_as_written_never_as_a_python_date(content):
    path = content / "mini" / "game.yaml"
    path.write_text(path.read_text("utf-8") + "2001-01-01: 1\n~: 2\n", "utf-8")
    code, output = run(content, "validate")
    clean_error(code, output, "unknown key '2001-01-01'")
    assert "datetime" not in output and "pattern None" not in output


def test_a_non_text_key_never_reads_pattern_none():
    from cardgen.content.modelcheck import _expected_text

    assert "None" not in _expected_text({"ctx": {}, "msg": "Keys should be strings"})


# --- 11, 12. names and messages ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["evil\n", "evil\r", "evil\x1b[2J", "évil"])
def test_new_refuses_a_game_name_ending_in_a_newline(name, content):
    before = sorted(p.name for p in content.iterdir())
    code, output = run(content, "new", name)
    clean_error(code, output, "game name")
    assert "\x1b" not in output and sorted(p.name for p in content.iterdir()) == before


def test_control_characters_of_a_key_are_escaped_in_the_error(content):
    path = content / "mini" / "game.yaml"
    path.write_text(path.read_text("utf-8") + '"\\e]0;PWNED\\a\\e[2J\\u202e": 1\n', "utf-8")
    code, output = run(content, "validate")
    clean_error(code, output, "unknown key '\\x1b]0;PWNED\\x07\\x1b[2J\\u202e'")
    assert not any(ch in output for ch in "\x1b\x07\u202e")


def test_printable_escapes_what_a_terminal_acts_on_and_nothing_else():
    from cardgen.errors import ContentError, Locator, printable

    assert printable("ok: Überjoker, мини, 日本") == "ok: Überjoker, мини, 日本"
    assert printable("a\x1b[2J\x9b\u2066b\n") == "a\\x1b[2J\\x9b\\u2066b\\n"
    assert printable("line\nnext\tcell", lines=True) == "line\nnext\tcell"
    error = ContentError("unknown key '\x07'", Locator(file=Path("a\x1b.yaml"), field="k\n"))
    assert str(error) == "a\\x1b.yaml (field k\\n): unknown key '\\x07'"


# --- 13. SVG art: encodings and numbers -------------------------------------------------------------------

@pytest.mark.parametrize("svg, message", [
    ('<?xml version="1.0" encoding="x-nosuch"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>',
     "unknown encoding"),
    ('<?xml version="1.0" encoding="rot13"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>',
     "not a text encoding"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e-300 1e-300"><rect width="5" height="5"/></svg>',
     "must be at least 1e-06"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1e-9" height="1e-9"><rect width="5" height="5"/></svg>',
     "must be at least 1e-06"),
], ids=["unknown-encoding", "codec-not-text", "tiny-viewbox", "tiny-width"])
def test_hostile_svg_art_is_an_error_at_validate_and_never_at_build_time(svg, message, content, tmp_path):
    (content / "mini" / "art" / "two.svg").write_text(svg, "utf-8")
    clean_error(*run(content, "validate"), "art/two.svg' line 1", message)
    clean_error(*run(content, *BUILD, "--lang", "ru", "--out", str(tmp_path / "out")), message)
    assert not (tmp_path / "out").exists()


# --- 16. PO files: multi-line msgctxt and charsets --------------------------------------------------------

@pytest.mark.parametrize("second", [
    'msgctxt ""\n"card.one.name"\n',
    'msgctxt "card."\n"one.name"\n',
    'msgctxt "card.one"\n""\n".name"\n',
], ids=["empty-then-key", "split", "three-lines"])
def test_a_duplicate_msgctxt_over_several_lines_is_an_error(second, content):
    (content / "mini" / "locale").mkdir()
    po = (PO_HEAD.format(charset="UTF-8") + 'msgctxt "card.one.name"\nmsgid "Один"\nmsgstr "One"\n\n'
          + second + 'msgid "Один"\nmsgstr "Two"\n')
    (content / "mini" / "locale" / "en.po").write_text(po, "utf-8")
    clean_error(*run(content, "validate"), "locale/en.po:9", 'duplicate msgctxt "card.one.name" (first on line 5)')


def test_a_po_file_declaring_latin_1_but_holding_utf_8_is_an_error(content):
    (content / "mini" / "locale").mkdir()
    po = PO_HEAD.format(charset="ISO-8859-1") + 'msgctxt "card.one.name"\nmsgid "Один"\nmsgstr "Überjoker"\n'
    (content / "mini" / "locale" / "en.po").write_bytes(po.encode("utf-8"))
    code, output = run(content, "validate")
    clean_error(code, output, "locale/en.po:3", "declares charset ISO-8859-1, but its text is UTF-8")
    assert "Ã" not in output


def test_a_po_file_declaring_utf_8_but_holding_latin_1_names_its_line(content):
    (content / "mini" / "locale").mkdir()
    po = PO_HEAD.format(charset="UTF-8") + 'msgctxt "card.swap.name"\nmsgid "Swap"\nmsgstr "Überjoker"\n'
    (content / "mini" / "locale" / "en.po").write_bytes(po.encode("latin-1"))
    clean_error(*run(content, "validate"), "locale/en.po:7", "not UTF-8 text")


def test_a_po_file_in_the_latin_1_it_declares_still_reads(content):
    from cardgen.content.translations import read_entries

    (content / "mini" / "locale").mkdir()
    po = PO_HEAD.format(charset="ISO-8859-1") + 'msgctxt "card.swap.name"\nmsgid "Swap"\nmsgstr "Überjoker"\n'
    path = content / "mini" / "locale" / "en.po"
    path.write_bytes(po.encode("latin-1"))
    assert read_entries(path)["card.swap.name"].text == "Überjoker"
