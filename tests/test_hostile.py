"""Hostile input (issue 15): every reproduction ends in a clean `error:` line, exit 1, with the
file and line where there is one; nothing hangs, nothing is read or drawn from outside the game.

Commands that once hung run in a subprocess with a timeout, so a regression fails the test
instead of stalling the suite; the others run in-process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from minicli import MINI, ROOT, clean_error, run

BUILD_CARDS = ["build", "mini", "--only", "cards", "--paper", "a4", "--lang", "ru", "-j", "1"]
LAYOUT = """include: [common.yaml]
faces:
  - match: {{}}
    omit: [name]
    elements:
      - {element}
backs:
  - match: {{}}
    elements:
      - {{type: fill, fill: "#123456"}}
"""


@pytest.fixture(autouse=True)
def fixed_dates(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture
def content(tmp_path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(MINI, folder / "mini")
    return folder


def run_bounded(content: Path, *args: str, timeout: float = 90) -> tuple[int, str]:
    """In a subprocess: a hang fails the test after ``timeout`` seconds."""
    done = subprocess.run([sys.executable, "-m", "cardgen", "--content", str(content), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"})
    return done.returncode, done.stdout + done.stderr


def write_layout(content: Path, element: str) -> None:
    (content / "mini" / "layout.yaml").write_text(LAYOUT.format(element=element), "utf-8")


def write_art(content: Path, svg: str) -> None:
    (content / "mini" / "art" / "two.svg").write_text(svg, "utf-8")


def svg(body: str, root: str = 'width="10" height="10"') -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" {root}>{body}</svg>'


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- numbers of a layout: refused by validate at their line, and by the build even without validate ---

LAYOUT_NUMBERS = {
    "lattice-step-0": ('{type: draw, draw: lattice, params: {step: 0}}', "'step' must be a number from 0.2"),
    "lattice-step-negative": ('{type: draw, draw: lattice, params: {step: -1}}', "'step' must be a number"),
    "scatter-step-tiny": ('{type: draw, draw: scatter, params: {step: 0.001, symbol: suit-hearts}}',
                          "'step' must be a number from 0.2"),
    "seats-rows-0": ('{type: draw, draw: seats, params: {rows: 0}}', "'rows' must be a number from 1 to 500"),
    "seats-rows-million": ('{type: draw, draw: seats, params: {rows: 1000000}}', "'rows' must be a number"),
    "stripes-count-1e8": ('{type: draw, draw: stripes, params: {count: 100000000}}', "'count' must be a number"),
    "text-size-1e9": ('{type: text, text: "x", size: 1.0e+9, box: [5, 5, 50, 10]}',
                      "'size' must be a number from 0.5 to 500"),
    "dash-zero": ('{type: rect, stroke: "#000000", dash: [0], box: [5, 5, 50, 10]}',
                  "a dash pattern needs a length greater than 0"),
    "width-negative": ('{type: rect, stroke: "#000000", width: -5, box: [5, 5, 50, 10]}',
                       "'width' must be a number from 0 to 50"),
    "leading-huge": ('{type: text, text: "x", leading: 1000, box: [5, 5, 50, 10]}', "'leading' must be a number"),
}


@pytest.mark.parametrize("case", sorted(LAYOUT_NUMBERS))
def test_layout_number_out_of_range_is_refused_by_validate_and_build(case, content, tmp_path):
    element, message = LAYOUT_NUMBERS[case]
    write_layout(content, element)
    errors = clean_error(*run(content, "validate"), message)
    assert any(line.startswith("error: content/mini/layout.yaml:6:") for line in errors), errors
    out = tmp_path / "out"
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(out))
    errors = clean_error(code, output, message)
    assert any("mini/layout.yaml:6:" in line for line in errors), errors
    assert not out.exists()


def test_star_with_a_million_points_is_refused(content, tmp_path):
    (content / "mini" / "layout.yaml").write_text(
        LAYOUT.format(element='{type: draw, draw: spiky, box: [5, 5, 50, 50]}')
        + "symbols:\n  spiky:\n    - {star: [50, 50, 40, 20, 1000000]}\n", "utf-8")
    clean_error(*run(content, "validate"), "a star has 2 to 1000 points")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    errors = clean_error(code, output, "a star has 2 to 1000 points")
    assert any("mini/layout.yaml:13:" in line for line in errors), errors


def test_a_placeholder_parameter_is_checked_as_the_card_is_drawn(content, tmp_path):
    # {attrs.value} is 1 or 2 here: a lattice step of 1 mm draws, of 0.001 mm... cannot be static-checked
    write_layout(content, '{type: draw, draw: lattice, params: {step: "{attrs.value}"}}')
    cards = (content / "mini" / "cards.yaml").read_text("utf-8").replace("attrs: {value: 2}", "attrs: {value: 0}")
    (content / "mini" / "cards.yaml").write_text(cards, "utf-8")
    game = (content / "mini" / "game.yaml").read_text("utf-8").replace("minimum: 1,", "minimum: 0,")
    (content / "mini" / "game.yaml").write_text(game, "utf-8")
    clean_error(*run(content, "validate"), "'step' must be a number from 0.2")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    errors = clean_error(code, output, "'step' must be a number from 0.2")
    assert any("mini/layout.yaml:6:" in line and "card" in line for line in errors), errors


# --- text too long for its box: validate measures no text, the build names where the text is written ---

LONG = "слово и ещё " * 60


@pytest.mark.parametrize("where", ["source", "translation"])
def test_text_too_long_names_the_layout_line_and_where_the_text_is_written(where, content, tmp_path):
    text = content / "mini" / "text" / "ru.yaml"
    if where == "source":
        text.write_text(text.read_text("utf-8").replace('card.one.name: "Один"', f'card.one.name: "{LONG}"'), "utf-8")
        lang, written = "ru", "mini/text/ru.yaml:12"
    else:
        (content / "mini" / "locale").mkdir()
        (content / "mini" / "locale" / "en.po").write_text(
            'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            f'msgctxt "card.one.name"\nmsgid "Один"\nmsgstr "{LONG}"\n', "utf-8")
        lang, written = "en", "mini/locale/en.po:6"
    assert run(content, "validate")[0] == 0
    out = tmp_path / "out"
    build = [arg if arg != "ru" else lang for arg in BUILD_CARDS]
    errors = clean_error(*run(content, *build, "--out", str(out)), "text does not fit its")
    assert any("default.yaml:37:" in line and f"the text is 'card.one.name' ({lang}) at " in line
               and line.endswith(written) for line in errors), errors
    assert not out.exists()


# --- SVG art -------------------------------------------------------------------------------------------

SVG_CASES = {
    "viewbox-zero": (svg('<rect width="1" height="1"/>', 'viewBox="0 0 0 0"'), "must be greater than 0"),
    "stroke-width-none": (svg('<rect width="1" height="1" stroke="#000" stroke-width="none"/>'),
                          "stroke-width must be a number, found 'none'"),
    "radius-abc": (svg('<circle r="abc"/>'), "attribute 'r' of <circle> must be a number"),
    "empty-translate": (svg('<g transform="translate()"><rect width="1" height="1"/></g>'),
                        "translate() takes 1 or 2 numbers, found 0"),
    "short-path": (svg('<path d="M 5"/>'), "path command 'M' is missing numbers"),
    "huge-number": (svg('<rect width="1e999" height="1"/>'), "is out of range"),
    "deep-nesting": (svg("<g>" * 10_000 + "</g>" * 10_000), "nested more than 32 deep"),
    "entity-bomb": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                    + "".join(f'<!ENTITY {n} "{("&" + p + ";") * 10}">' for p, n in zip("abcdefg", "bcdefgh"))
                    + ']>' + svg("<title>&h;</title>"), "a DOCTYPE is not allowed"),
    "not-xml": ("<svg", "cannot read SVG art"),
}


@pytest.mark.parametrize("case", sorted(SVG_CASES))
def test_broken_svg_art_is_a_clean_error_with_its_line(case, content, tmp_path):
    text, message = SVG_CASES[case]
    write_art(content, text)
    errors = clean_error(*run(content, "validate"), message)
    assert any("SVG file 'art/two.svg' line " in line for line in errors), errors
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    errors = clean_error(code, output, message)
    assert any("mini/art/two.svg:" in line for line in errors), errors


def test_svg_art_that_is_a_fifo_or_too_big_is_refused(content, tmp_path):
    art = content / "mini" / "art" / "two.svg"
    art.unlink()
    os.mkfifo(art)
    code, output = run_bounded(content, "validate", timeout=60)
    clean_error(code, output, "not a regular file")
    art.unlink()
    art.write_text(svg("<desc>" + "x" * (3 * 1024 * 1024) + "</desc>"), "utf-8")
    clean_error(*run(content, "validate"), "at most 2 MiB")


# --- data files: regular, capped, inside the game folder -----------------------------------------------

def test_a_fifo_as_a_po_file_is_refused_without_blocking(content):
    (content / "mini" / "locale").mkdir()
    os.mkfifo(content / "mini" / "locale" / "en.po")
    code, output = run_bounded(content, "validate", timeout=60)
    clean_error(code, output, "content/mini/locale/en.po", "not a regular file")


def test_a_po_file_linked_to_dev_zero_is_refused(content):
    (content / "mini" / "locale").mkdir()
    (content / "mini" / "locale" / "en.po").symlink_to("/dev/zero")
    code, output = run_bounded(content, "validate", timeout=60)
    clean_error(code, output, "content/mini/locale/en.po")


def test_a_fifo_as_a_yaml_file_is_refused_without_blocking(content):
    text = content / "mini" / "text" / "en.yaml"
    os.mkfifo(text)
    code, output = run_bounded(content, "validate", timeout=60)
    clean_error(code, output, "content/mini/text/en.yaml", "not a regular file")


def test_head_game_player_file_as_a_fifo_or_dev_zero_is_refused(tmp_path):
    from cardgen.content.yamlsource import read_yaml
    from cardgen.errors import ContentError

    fifo = tmp_path / "brazil.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        with pytest.raises(ContentError, match="not a regular file"):
            read_yaml(path)


def test_text_folder_symlinked_outside_the_game_is_not_read(content, tmp_path):
    outside = tmp_path / "elsewhere"
    shutil.move(content / "mini" / "text", outside)
    (content / "mini" / "text").symlink_to(outside)
    clean_error(*run(content, "validate"), "content/mini/text/ru.yaml", "outside the game folder")


@pytest.mark.parametrize("field", ["cards", "backs"])
def test_art_path_of_5000_characters_is_a_clean_error(field, content):
    name = "a" * 5000 + ".svg"
    if field == "cards":
        path, old = content / "mini" / "cards.yaml", "art: art/two.svg"
    else:
        path, old = content / "mini" / "game.yaml", "art: art/back.svg"
    path.write_text(path.read_text("utf-8").replace(old, f"art: {name}"), "utf-8")
    errors = clean_error(*run(content, "validate"), "cannot name a file")
    assert any(line.startswith(f"error: content/mini/{path.name}:") for line in errors), errors


def test_a_long_path_component_is_a_clean_error(content):
    path = content / "mini" / "cards.yaml"
    path.write_text(path.read_text("utf-8").replace("art: art/two.svg", f"art: art/{'b' * 300}.svg"), "utf-8")
    clean_error(*run(content, "validate"), "content/mini/cards.yaml:11:", "cannot name a file")


def test_a_nul_byte_in_an_art_path_is_a_clean_error(content):
    path = content / "mini" / "cards.yaml"
    path.write_text(path.read_text("utf-8").replace("art: art/two.svg", 'art: "art/t\\0wo.svg"'), "utf-8")
    code, output = run(content, "validate")
    clean_error(code, output, "content/mini/cards.yaml:11:", "NUL byte")
    assert "\x00" not in output


@pytest.mark.parametrize("name", ["../../../../../../etc/x.svg", "/etc/x.svg"])
def test_layout_draw_of_a_file_outside_the_game_is_refused(name, content, tmp_path):
    write_layout(content, f'{{type: draw, draw: "{name}", box: [5, 5, 50, 50]}}')
    clean_error(*run(content, "validate"), "content/mini/layout.yaml:6:")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    clean_error(code, output, "mini/layout.yaml", "SVG file")


def test_layout_draw_through_a_symlink_out_of_the_game_is_refused(content, tmp_path):
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "secret.svg").write_text(svg('<rect width="10" height="10" fill="#ff0000"/>'), "utf-8")
    (content / "mini" / "art" / "link").symlink_to(secret)
    write_layout(content, '{type: draw, draw: "art/link/secret.svg", box: [5, 5, 50, 50]}')
    clean_error(*run(content, "validate"), "lies outside the game folder")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    clean_error(code, output, "lies outside the game folder")


@pytest.mark.parametrize("name", ["../../../../../../../../etc/passwd", "/etc/passwd"])
def test_layout_include_of_a_file_outside_is_refused(name, content, tmp_path):
    layout = LAYOUT.format(element='{type: fill, fill: "#ffffff"}').replace(
        "include: [common.yaml]", f'include: [common.yaml, "{name}"]')
    (content / "mini" / "layout.yaml").write_text(layout, "utf-8")
    clean_error(*run(content, "validate"), "content/mini/layout.yaml:1:", "not found")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    clean_error(code, output, "mini/layout.yaml:1:", "not found")


# --- PO files: what babel would misread ---------------------------------------------------------------

PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


@pytest.mark.parametrize("entry, message", [
    ('msgctxt "card.one.name"\nmsgid "Один"\nmsgstr "One\n', "closed on its line"),
    ('msgctxt "card.one.name"\nmsgid "Один"\nmsgstr One\n', "closed on its line"),
    ('msgctxt "card.one.name"\nmsgid "Один"\nmsgstr "One"\n\nmsgctxt "card.one.name"\nmsgid "Один"\n'
     'msgstr "Two"\n', "duplicate msgctxt"),
], ids=["unterminated", "unquoted", "duplicate-msgctxt"])
def test_malformed_po_lines_are_errors_at_their_line(entry, message, content):
    (content / "mini" / "locale").mkdir()
    (content / "mini" / "locale" / "en.po").write_text(PO_HEAD + entry, "utf-8")
    errors = clean_error(*run(content, "validate"), message)
    assert any(line.startswith("error: content/mini/locale/en.po:") for line in errors), errors


# --- CLI edges ----------------------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_simulate_json_to_dev_null_never_replaces_the_device():
    before = os.stat("/dev/null")
    code, output = run(ROOT / "content", "simulate", "klepka", "--games", "2", "--seed", "1", "--json", "/dev/null")
    clean_error(code, output, "/dev/null", "will not replace a device")
    after = os.stat("/dev/null")
    assert (after.st_mode, after.st_rdev) == (before.st_mode, before.st_rdev)


def test_simulate_json_into_a_folder_that_cannot_hold_it():
    code, output = run(ROOT / "content", "simulate", "klepka", "--games", "2", "--seed", "1",
                       "--json", "/proc/x.json")
    clean_error(code, output, "/proc/x.json")


def test_simulate_json_over_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    code, output = run(ROOT / "content", "simulate", "klepka", "--games", "2", "--seed", "1", "--json", str(fifo))
    clean_error(code, output, "will not replace")
    assert fifo.is_fifo()


def test_answers_on_a_game_without_a_footballer_base():
    clean_error(*run(ROOT / "content", "answers", "klepka"), "content/klepka/game.yaml",
                       "no footballer reference base")


def test_answers_on_a_day_before_the_players_were_born():
    clean_error(*run(ROOT / "content", "answers", "head-game", "--date", "0001-01-01", "--geo", "brazil"),
                       "before the birth of the base's youngest player")


def test_atomic_write_names_the_folder_it_cannot_write(tmp_path, monkeypatch):
    from cardgen.fileio import WriteError, write_text_atomic

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refuse)
    with pytest.raises(WriteError, match=f"cannot write into the folder {tmp_path}: Permission denied"):
        write_text_atomic(tmp_path / "x.json", "{}")


# --- rulebook -----------------------------------------------------------------------------------------

def test_a_card_picture_that_fails_in_the_rulebook_is_a_clean_error_with_its_line(content, tmp_path):
    text = content / "mini" / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8").replace('card.one.name: "Один"',
                                                    'card.one.name: "' + "Один " * 2000 + '"'), "utf-8")
    out = tmp_path / "out"
    code, output = run_bounded(content, "build", "mini", "--only", "rulebook", "--lang", "ru", "-j", "1",
                               "--out", str(out), timeout=300)
    errors = clean_error(code, output, "a card picture of the rulebook", "does not fit")
    assert any("default.yaml:" in line and "card one" in line for line in errors), errors
    assert not out.exists()


def test_rule_option_choices_reach_the_rulebook_escaped(content):
    from cardgen.content import load_game
    from cardgen.rulebook.book import render_html

    game_file = content / "mini" / "game.yaml"
    game_file.write_text(game_file.read_text("utf-8").replace("choices: [five, six]",
                                                              "choices: [five, '<h1>X</h1>']"), "utf-8")
    game = load_game(content / "mini", display_root=content.parent)
    html, _ = render_html(game, "ru", content_dir=content)
    assert "<h1>X</h1>" not in html
    assert "&lt;h1&gt;x&lt;/h1&gt;" in html


# --- what validate accepted silently ------------------------------------------------------------------

@pytest.mark.parametrize("old, new, where, message", [
    ("required_in: [numbers]", "required_in: [nosuch-group]", "content/mini/game.yaml:22:",
     "required_in names group 'nosuch-group'"),
    ("minimum: 1, maximum: 9", "minimum: 5, maximum: 1", "content/mini/game.yaml:22:",
     "minimum 5 is greater than maximum 1"),
], ids=["required-in-unknown-group", "minimum-above-maximum"])
def test_attribute_declarations_that_cannot_hold(old, new, where, message, content):
    game = content / "mini" / "game.yaml"
    game.write_text(game.read_text("utf-8").replace(old, new), "utf-8")
    clean_error(*run(content, "validate"), where, message)


# --- raster images (issue 23): read like every content file, decoded without trusting them --------------

def _raster_art(content: Path, name: str, data: bytes) -> None:
    """Card 'two' of the mini game with the image file ``name`` as its art."""
    (content / "mini" / name).write_bytes(data)
    cards = content / "mini" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("art/two.svg", name), "utf-8")


def _png_bytes(width: int = 64, height: int = 48) -> bytes:
    import imagemaker

    return imagemaker.encoded(imagemaker.picture(width, height), "PNG")


def _image_cases() -> dict[str, tuple[str, bytes, str]]:
    import imagemaker

    good = _png_bytes()
    return {
        "bomb": ("art/bomb.png", imagemaker.png_declaring(60_000, 60_000), "a decompression bomb"),
        "bomb-just-above-the-cap": ("art/big.png", imagemaker.png_declaring(10_001, 10_000),
                                    "more than 100,000,000"),
        "truncated": ("art/cut.png", good[: len(good) // 2], "cannot decode the image (truncated or damaged?)"),
        "no-image-at-all": ("art/noise.png", bytes(range(256)) * 8, "not a PNG, JPEG, TIFF or WebP image"),
        "zero-by-zero": ("art/empty.png", imagemaker.png_declaring(0, 0), "art/empty.png"),
        "header-only": ("art/head.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "art/head.jpg"),
        "cmyk-profile-on-rgb": ("art/wrong.png", imagemaker.encoded(imagemaker.picture(8, 8), "PNG",
                                                                    icc_profile=imagemaker.FOGRA39.read_bytes()),
                                "is for CMYK images, but the image is RGB"),
        "broken-profile": ("art/icc.png", imagemaker.encoded(imagemaker.picture(8, 8), "PNG",
                                                             icc_profile=b"not a profile" * 20),
                           "the embedded colour profile cannot be read"),
    }


@pytest.mark.parametrize("case", sorted(_image_cases()))
def test_a_hostile_image_is_a_clean_error_at_the_line_naming_it(case, content, tmp_path):
    name, data, message = _image_cases()[case]
    _raster_art(content, name, data)
    errors = clean_error(*run(content, "validate"), message)
    assert any("content/mini/cards.yaml:" in line and f"image '{name}'" in line for line in errors), errors
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"), timeout=60)
    clean_error(code, output, message)


def test_a_hostile_image_in_a_layout_is_an_error_at_the_element(content, tmp_path):
    import imagemaker

    (content / "mini" / "art" / "bomb.webp").write_bytes(imagemaker.png_declaring(60_000, 60_000))
    write_layout(content, '{type: image, src: art/bomb.webp, box: [5, 5, 50, 50]}')
    clean_error(*run(content, "validate"), "content/mini/layout.yaml:6:", "a decompression bomb")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"), timeout=60)
    clean_error(code, output, "mini/layout.yaml", "a decompression bomb")


def test_an_image_as_a_fifo_is_refused_without_blocking(content):
    (content / "mini" / "art").joinpath("pipe.png")
    os.mkfifo(content / "mini" / "art" / "pipe.png")
    cards = content / "mini" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("art/two.svg", "art/pipe.png"), "utf-8")
    code, output = run_bounded(content, "validate", timeout=60)
    clean_error(code, output, "not a regular file")


def test_an_image_over_the_size_cap_is_refused(content, monkeypatch):
    from cardgen.content import images

    monkeypatch.setattr(images, "MAX_BYTES", 1000)
    _raster_art(content, "art/large.png", _png_bytes(200, 200))
    clean_error(*run(content, "validate"), "at most 1,000 bytes are read")


def test_an_image_through_a_symlink_out_of_the_game_is_refused(content, tmp_path):
    outside = tmp_path / "secret.png"
    outside.write_bytes(_png_bytes())
    (content / "mini" / "art" / "secret.png").symlink_to(outside)
    write_layout(content, '{type: image, src: art/secret.png, box: [5, 5, 50, 50]}')
    clean_error(*run(content, "validate"), "lies outside the game folder")
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    clean_error(code, output, "lies outside the game folder")


@pytest.mark.parametrize("element, message", [
    ('{type: image, src: art/two.png, crop: [0, 0, 900, 10]}', "does not lie inside the image (64 x 48 pixels)"),
    ('{type: image, src: art/two.png, crop: [0, 0, 0, 10]}', "'crop' is [x, y, width, height] in pixels"),
    ('{type: image, src: art/two.png, focus: [2, 0.5]}', "'focus' is [x, y], each a number from 0 to 1"),
    ('{type: image, src: art/two.png, bleed: true, box: [0, 0, 10, 10]}', "give no 'box'"),
    ('{type: image, src: art/two.svg}', "is not an image file"),
    ('{type: image, src: art/nothing.png}', "art/nothing.png"),
    ('{type: text, text: "x", align: top, box: [5, 5, 50, 10]}', "text is aligned left, center, right"),
    ('{type: rect, src: art/two.png, box: [5, 5, 50, 10]}', "'src' is for image elements"),
])
def test_image_elements_that_cannot_be_placed_are_errors_at_their_line(element, message, content, tmp_path):
    (content / "mini" / "art" / "two.png").write_bytes(_png_bytes())
    write_layout(content, element)
    clean_error(*run(content, "validate"), "content/mini/layout.yaml:6:", message)
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    clean_error(code, output, "mini/layout.yaml")


@pytest.mark.parametrize("case", ["png-phys-0", "png-phys-huge", "tiff-resolution-0"])
def test_absurd_dpi_tags_change_nothing(case, content, tmp_path):
    """The layout's box sets an image's size: a DPI tag of 0 or 4 billion is read as nothing at all."""
    import imagemaker
    import numpy as np

    if case == "tiff-resolution-0":
        values = (np.asarray(imagemaker.picture(64, 48), dtype=np.uint32) * 257).astype(np.uint16)
        name, data = "art/odd.tif", imagemaker.tiff16(values, resolution=(0, 0))
    else:
        name = "art/odd.png"
        data = imagemaker.png_with_phys(imagemaker.picture(64, 48), 0 if case == "png-phys-0" else 0xFFFFFFFF)
    _raster_art(content, name, data)
    code, output = run(content, "validate")
    assert code == 0, output
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    assert code == 0, output


def test_a_png_named_jpg_builds_with_a_validate_warning(content, tmp_path):
    _raster_art(content, "art/two.jpg", _png_bytes(900, 700))
    code, output = run(content, "validate")
    assert code == 0, output
    assert "image 'art/two.jpg' is a PNG file; its name says .jpg" in output
    code, output = run_bounded(content, *BUILD_CARDS, "--out", str(tmp_path / "out"))
    assert code == 0, output
