"""A game's own typeface: declared in game.yaml, printed on cards (with fallback) and in the rulebook;
characters no face has warn (fail under --strict); broken font files are validate errors at their line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cardgen.errors import ContentErrors, MissingGlyphError, RenderError
from cardgen.cards import fonts

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fontmaker import LAYOUT, build_font, make_game  # noqa: E402
from pdfcheck import fonts_of, reader  # noqa: E402

def load(content: Path):
    from cardgen.content import load_games

    return load_games(content, ["mini"])[0]


def card_pdf(game, card_id: str, lang: str = "ru", strict: bool | None = None) -> tuple[bytes, list]:
    """One card face alone on a page, and the renderer's missing-glyph warnings."""
    from cardgen.cards.card import CardRenderer
    from cardgen.cards.pdf import finish, new_canvas

    renderer = CardRenderer(game, lang, strict=strict)
    plan = renderer.face(game.card(card_id))
    canvas = new_canvas((plan.width, plan.height), card_id)
    renderer.place(canvas, plan, 0, 0)
    canvas.showPage()
    return finish(canvas), renderer.glyph_warnings


def base_names(pdf: bytes) -> dict[str, bool]:
    """Font name without the subset tag -> embedded and subset (a six-letter tag)."""
    return {name.split("+", 1)[-1].lstrip("/"): embedded and bool(re.match(r"/?[A-Z]{6}\+", name))
            for name, embedded in fonts_of(reader(pdf))}


def test_a_card_prints_in_the_game_typeface_embedded_and_subset(tmp_path):
    game = load(make_game(tmp_path))
    pdf, warnings = card_pdf(game, "one")
    found = base_names(pdf)
    assert found.get("Boxer-Bold") is True, found  # the name and the badge's text
    assert "Boxer-Regular" not in found  # not used on this face: not embedded
    assert warnings == []
    other, _ = card_pdf(game, "two")  # no name: the card id in boxer (regular)
    assert base_names(other).get("Boxer-Regular") is True


def test_cyrillic_in_the_test_face_is_drawn_in_dejavu(tmp_path):
    game = load(make_game(tmp_path))
    pdf, warnings = card_pdf(game, "swap")  # "Swap Обмен" in boxer-bold, which has no Cyrillic
    found = base_names(pdf)
    assert found.get("Boxer-Bold") is True and found.get("DejaVuSans-Bold") is True, found
    assert warnings == []
    chain = game_chain(game, "boxer-bold")
    assert fonts.runs("Swap Обмен", chain) == ((fonts.faces(chain)[0], "Swap "), ("DejaVuSans-Bold", "Обмен"))


def game_chain(game, name: str) -> str:
    return fonts.GameFonts.of(game).chain(name)


def test_measuring_uses_the_runs_drawn():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fonts.register_fonts()
    chain = "DejaVuSans|DejaVuSans-Bold"
    assert fonts.text_width("Ab", chain, 10) == pytest.approx(stringWidth("Ab", "DejaVuSans", 10))
    assert fonts.text_width("Ab", "DejaVuSans", 10) == stringWidth("Ab", "DejaVuSans", 10)


def test_fallback_changes_the_wrapping_as_it_changes_the_widths(tmp_path):
    from cardgen.cards.text import fit_text

    game = load(make_game(tmp_path))
    chain = game_chain(game, "boxer")
    # Boxer's glyphs are 600 units wide: wider than DejaVu's Cyrillic, so the same word wraps differently
    word = "Обмен"
    in_chain = fonts.text_width(word, chain, 10)
    assert in_chain == pytest.approx(fonts.text_width(word, "DejaVuSans", 10))
    assert fonts.text_width("Swap", chain, 10) == pytest.approx(4 * 6.0)
    fitted = fit_text("Swap Swap Обмен", chain, fonts.text_width("Swap Swap", chain, 10) + 1, 100, size=10,
                      min_size=10)
    assert fitted.lines == ("Swap Swap", "Обмен")


def test_a_character_no_face_has_warns_and_fails_when_strict(tmp_path):
    game = load(make_game(tmp_path, {"card.one.name": "日本 One"}))
    _, warnings = card_pdf(game, "one")
    assert len(warnings) == 1
    message = str(warnings[0])
    assert "U+65E5 CJK UNIFIED IDEOGRAPH-65E5" in message and "U+672C" in message
    assert "card one" in message and "language ru" in message and "'日本 One'" in message
    assert "layout.yaml:" in message  # the element that prints it
    with pytest.raises(MissingGlyphError) as caught:
        card_pdf(game, "one", strict=True)
    assert "U+65E5" in str(caught.value)
    with fonts.glyph_log(strict=True), pytest.raises(MissingGlyphError):  # as a --strict build job
        card_pdf(game, "one")
    with fonts.glyph_log() as log:
        card_pdf(game, "one")
    assert len(log.messages()) == 1


def test_the_builtin_faces_warn_too(games):
    """Japanese on a bundled layout (DejaVu only): a warning, an error when strict; never silent."""
    import copy

    from cardgen.cards.card import CardRenderer

    game = copy.copy(games["klepka"])
    card = next(c for c in game.cards if "name" in c.text)
    lang = game.meta.source_language
    game.messages = {**game.messages, lang: {**game.messages[lang], card.text["name"]: "東京"}}
    renderer = CardRenderer(game, lang)
    renderer.face(card)
    assert any("U+6771" in w.message for w in renderer.glyph_warnings)
    with pytest.raises(MissingGlyphError, match=f"card {card.id}"):
        CardRenderer(game, lang, strict=True).face(card)


def test_symbol_text_in_the_game_face(tmp_path):
    game = load(make_game(tmp_path, {"card.one.name": "Boxer One"}))
    pdf, _ = card_pdf(game, "one")
    # the badge symbol's text is the card id in boxer-bold: Boxer-Bold draws it
    assert base_names(pdf).get("Boxer-Bold") is True


def test_two_games_may_each_call_a_family_brand(tmp_path):
    one = load(make_game(tmp_path / "a"))
    two_root = make_game(tmp_path / "b")
    (two_root / "mini" / "fonts" / "Boxer-Bold.ttf").write_bytes(build_font("Other", "Bold", stroke=200))
    two = load(two_root)
    first, second = game_chain(one, "boxer-bold"), game_chain(two, "boxer-bold")
    assert fonts.faces(first)[0] != fonts.faces(second)[0]
    assert base_names(card_pdf(two, "one")[0]).get("Other-Bold") is True
    assert base_names(card_pdf(one, "one")[0]).get("Boxer-Bold") is True
    # the registered name comes from the file's bytes: the same on every run, so the PDF too
    assert card_pdf(one, "one")[0] == card_pdf(one, "one")[0]
    assert fonts.faces(first)[0] == "cg-" + __import__("hashlib").sha256(
        (tmp_path / "a" / "content" / "mini" / "fonts" / "Boxer-Bold.ttf").read_bytes()).hexdigest()[:16]


def test_unknown_or_undeclared_faces_are_layout_errors_at_their_line(tmp_path):
    from cardgen.project.validation import validate_games

    layout = LAYOUT.replace("font: boxer, box: [5, 8", "font: boxer-italic, box: [5, 8").replace(
        "font: regular,", "font: boxr,")
    content = make_game(tmp_path, layout=layout)
    with pytest.raises(ContentErrors) as caught:
        validate_games(content, ["mini"])
    messages = [str(e) for e in caught.value.errors]
    lines = layout.splitlines()
    italic = next(i for i, line in enumerate(lines, 1) if "boxer-italic" in line)
    typo = next(i for i, line in enumerate(lines, 1) if "boxr" in line)
    assert any(f"layout.yaml:{italic}:" in m and "family 'boxer' has no italic face" in m for m in messages), messages
    assert any(f"layout.yaml:{typo}:" in m and "unknown font 'boxr'" in m and "did you mean 'boxer'" in m
               for m in messages), messages


def test_the_game_validates_with_its_fonts(tmp_path):
    from cardgen.project.validation import validate_games

    assert validate_games(make_game(tmp_path), ["mini"])[0].meta.fonts["boxer"].fallback == ["dejavu"]


def test_broken_font_files_are_validate_errors_at_the_line_that_names_them(tmp_path):
    from cardgen.project.validation import validate_games

    content = make_game(tmp_path, fonts_yaml="""
fonts:
  boxer:
    regular: fonts/Boxer-Regular.ttf
    bold: fonts/Boxer-Bold.ttf
  png:
    regular: fonts/picture.ttf
  cut:
    regular: fonts/cut.ttf
  gone:
    regular: fonts/nothing.ttf
  away:
    regular: ../../outside.ttf
    fallback: [boxer, nosuch]
""")
    folder = content / "mini" / "fonts"
    (folder / "picture.ttf").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    whole = (folder / "Boxer-Regular.ttf").read_bytes()
    (folder / "cut.ttf").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "outside.ttf").write_bytes(whole)
    with pytest.raises(ContentErrors) as caught:
        validate_games(content, ["mini"])
    shown = {(e.locator.line, e.message) for e in caught.value.errors}
    lines = (content / "mini" / "game.yaml").read_text("utf-8").splitlines()

    def line_of(text: str) -> int:
        return next(i for i, line in enumerate(lines, 1) if text in line)

    def has(text: str, fragment: str) -> bool:
        return any(line == line_of(text) and fragment in message for line, message in shown)

    assert has("fonts/picture.ttf", "not a TrueType or OpenType font file"), shown
    assert has("fonts/cut.ttf", "fonts/cut.ttf"), shown
    assert has("fonts/nothing.ttf", "file not found"), shown
    assert has("../../outside.ttf", "leads outside the folder mini/"), shown
    assert has("fallback: [boxer, nosuch]", "unknown font family 'nosuch'"), shown
    assert all(str(e.locator.file).endswith("mini/game.yaml") for e in caught.value.errors)


def test_family_names_that_clash_with_face_names_are_refused(tmp_path):
    from cardgen.project.validation import validate_games

    content = make_game(tmp_path, fonts_yaml="""
fonts:
  boxer:
    regular: fonts/Boxer-Regular.ttf
    bold: fonts/Boxer-Bold.ttf
  boxer-bold:
    regular: fonts/Boxer-Bold.ttf
  condensed:
    regular: fonts/Boxer-Bold.ttf
""")
    with pytest.raises(ContentErrors) as caught:
        validate_games(content, ["mini"])
    messages = " ".join(e.message for e in caught.value.errors)
    assert "'boxer-bold'" in messages and "bold face of a family 'boxer'" in messages
    assert "'condensed': the name is taken by a built-in font" in messages


def test_a_font_file_swapped_after_validation_is_a_render_error(tmp_path):
    game = load(make_game(tmp_path))
    (game.root / "fonts" / "Boxer-Bold.ttf").write_bytes(b"not a font at all")
    with pytest.raises(RenderError, match=r"Boxer-Bold.ttf: not a TrueType"):
        card_pdf(game, "one")


def test_an_opentype_font_with_cff_outlines_prints_converted_to_truetype(tmp_path):
    content = make_game(tmp_path, fonts_yaml="""
fonts:
  boxer:
    regular: fonts/Cubic-Regular.otf
    bold: fonts/Cubic-Bold.otf
""")
    folder = content / "mini" / "fonts"
    for style in ("Regular", "Bold"):
        (folder / f"Cubic-{style}.otf").write_bytes(build_font("Cubic", style, cff=True))
    from cardgen.project.validation import validate_games

    game = validate_games(content, ["mini"])[0]
    pdf, warnings = card_pdf(game, "swap")
    fonts_found = {name: embedded for name, embedded in fonts_of(reader(pdf))}
    cubic = [name for name in fonts_found if name.endswith("+Cubic-Bold")]
    assert cubic and fonts_found[cubic[0]], fonts_found  # embedded, subset
    program = font_program(pdf, cubic[0])
    assert program[:4] == b"\x00\x01\x00\x00"  # TrueType outlines (FontFile2), made from the CFF ones
    assert warnings == []


def test_a_variable_cff2_font_is_refused_with_a_reason():
    from cardgen.content.fontfiles import FontFileError, check_font

    data = bytearray(build_font("Cubic", "Regular", cff=True))
    data[data.index(b"CFF "):data.index(b"CFF ") + 4] = b"CFF2"  # the table tag a variable font has
    with pytest.raises(FontFileError, match="variable OpenType font .CFF2 outlines."):
        check_font(bytes(data))


def font_program(pdf: bytes, base_font: str) -> bytes:
    """The embedded font file of the font named ``base_font`` in a one-page PDF."""
    page = reader(pdf).pages[0]
    for xobject in page["/Resources"]["/XObject"].values():
        for ref in xobject.get_object()["/Resources"]["/Font"].values():
            font = ref.get_object()
            if str(font["/BaseFont"]) == base_font:
                return font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
    raise AssertionError(f"no font {base_font}")


def shared_content(tmp_path: Path, fonts_yaml: str) -> Path:
    """The test game without fonts of its own; the content folder's common/fonts.yaml declares them."""
    content = make_game(tmp_path, fonts_yaml="")
    common = content / "common"
    common.mkdir()
    (content / "mini" / "fonts").rename(common / "fonts")
    (common / "fonts.yaml").write_text(fonts_yaml, "utf-8")
    return content


def test_the_content_folder_declares_families_every_game_may_use(tmp_path):
    from cardgen.project.validation import validate_games

    content = shared_content(tmp_path, "fonts:\n  boxer:\n    regular: fonts/Boxer-Regular.ttf\n"
                                       "    bold: fonts/Boxer-Bold.ttf\n")
    game = validate_games(content, ["mini"])[0]
    assert set(game.font_families()) == {"boxer"}
    pdf, warnings = card_pdf(game, "swap")
    found = base_names(pdf)
    assert found.get("Boxer-Bold") is True and found.get("DejaVuSans-Bold") is True, found
    # a family of the game's own takes the place of the folder's of the same name
    (game.root / "fonts").mkdir()
    (game.root / "fonts" / "Own-Bold.ttf").write_bytes(build_font("Own", "Bold"))
    (game.root / "game.yaml").write_text((game.root / "game.yaml").read_text("utf-8")
                                         + "fonts:\n  boxer: {regular: fonts/Own-Bold.ttf, bold: fonts/Own-Bold.ttf}\n",
                                         "utf-8")
    own = validate_games(content, ["mini"])[0]
    assert base_names(card_pdf(own, "swap")[0]).get("Own-Bold") is True


def test_a_broken_font_of_the_content_folder_is_an_error_at_its_line(tmp_path):
    from cardgen.project.validation import validate_games

    content = shared_content(tmp_path, "fonts:\n  boxer:\n    regular: fonts/Boxer-Regular.ttf\n"
                                       "    bold: fonts/broken.ttf\n    fallback: [dejavu, brand]\n")
    (content / "common" / "fonts" / "broken.ttf").write_bytes(b"GIF89a" + bytes(100))
    with pytest.raises(ContentErrors) as caught:
        validate_games(content, ["mini"])
    found = {(str(e.locator.file), e.locator.line, e.message) for e in caught.value.errors}
    assert any(file.endswith("common/fonts.yaml") and line == 4 and "not a TrueType" in message
               for file, line, message in found), found
    assert any(file.endswith("common/fonts.yaml") and line == 5 and "unknown font family 'brand'" in message
               for file, line, message in found), found


def test_a_fifo_or_a_huge_file_named_as_a_font_is_an_error_not_a_hang(tmp_path):
    import os

    from cardgen.content.fontfiles import MAX_FONT_BYTES
    from cardgen.project.validation import validate_games

    content = make_game(tmp_path, fonts_yaml="""
fonts:
  pipe: {regular: fonts/pipe.ttf}
  huge: {regular: fonts/huge.ttf}
""")
    folder = content / "mini" / "fonts"
    os.mkfifo(folder / "pipe.ttf")
    with open(folder / "huge.ttf", "wb") as huge:  # sparse: nothing is written to disk
        huge.truncate(MAX_FONT_BYTES + 1)
    with pytest.raises(ContentErrors) as caught:
        validate_games(content, ["mini"])
    messages = " ".join(e.message for e in caught.value.errors)
    assert "pipe.ttf': not a regular file" in messages
    assert "huge.ttf': the file is 33,554,433 bytes; at most 32 MiB are read" in messages


def test_the_print_and_play_page_warns_on_a_title_no_face_has(tmp_path):
    from cardgen.printing.pnp import PnpOptions, render_pnp

    content = make_game(tmp_path)
    source = content / "mini" / "text" / "ru.yaml"
    source.write_text(source.read_text("utf-8").replace('game.title: "Мини"', 'game.title: "ミニ"'), "utf-8")
    game = load(content)
    with fonts.glyph_log() as log:
        render_pnp(game, "ru", PnpOptions(paper="a4"))
    assert any("print-and-play instructions" in m and "U+30DF KATAKANA LETTER MI" in m for m in log.messages()), \
        log.messages()
    with fonts.glyph_log(strict=True), pytest.raises(MissingGlyphError):
        render_pnp(game, "ru", PnpOptions(paper="a4"))
