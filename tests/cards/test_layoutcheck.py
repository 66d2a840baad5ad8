"""validate reads layouts: every face and back resolved without drawing, each problem at its line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.content import load_games
from cardgen.errors import RenderError
from cardgen.cards.layoutcheck import builtin_drawings, check_layout

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# A small valid layout for the quiz deck (3 question designs, 1 bonus design, 2 backs).
LAYOUT = """\
include: [common.yaml]
maps:
  rank: {"*": {"1": "I"}}
symbols:
  ship:
    - {rect: [10, 10, 80, 80], fill: $color}
parts:
  frame:
    - {type: fill, fill: "{group.color}"}
faces:
  - match: {group: question}
    use: [frame]
    elements:
      - {type: text, text: "{field.name}", box: [4, 4, 36.45, 7], font: bold, size: 11, min_size: 7}
      - {type: text, text: "{field.rule}", box: [4, 35, 36.45, 18], size: 8, min_size: 6, color: ink}
      - {type: text, text: "{attrs.points|map:rank}", box: [4, 54, 36.45, 6], size: 10, min_size: 8}
      - {type: draw, draw: ship, box: [35, 4, 6, 6], params: {color: "{group.color}"}}
  - match: {group: bonus}
    elements:
      - {type: text, text: "{field.name}", box: [4, 44, 36.45, 14], font: bold, size: 12, min_size: 7}
backs:
  - match: {}
    elements:
      - {type: fill, fill: "{back.color}"}
      - {type: draw, draw: scatter, box: full, params: {symbol: ship, color: "#ffffff", step: 10}}
"""


def _quiz(tmp_path: Path, layout: str):
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "decks", decks)
    (decks / "quiz" / "layout.yaml").write_text(layout, "utf-8")
    return load_games(decks, ["quiz"])[0]


def _position(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first ``needle`` in ``text``."""
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


@pytest.mark.parametrize("game_id", ["head-game", "card-football", "himmel", "klepka"])
def test_bundled_games_have_no_layout_problems(games, game_id):
    assert check_layout(games[game_id]) == []


@pytest.mark.parametrize("folder, game_id", [(DATA, "mini"), (DATA / "decks", "quiz")])
def test_test_games_have_no_layout_problems(folder, game_id):
    assert check_layout(load_games(folder, [game_id])[0]) == []


def test_the_small_layout_used_below_is_valid(tmp_path):
    assert check_layout(_quiz(tmp_path, LAYOUT)) == []


# (text replaced, replacement, the value the error points at, what the message says)
MISTAKES = [
    ("draw: ship,", "draw: shipp,", "shipp", "no symbol or drawing named 'shipp'; did you mean 'ship'"),
    ("symbol: ship,", "symbol: shp,", "shp,", "draws symbol 'shp', which the layout does not have; did you mean 'ship'"),
    ("map:rank}", "map:rnk}", '"{attrs.points|map:rnk}"', "no map named 'rnk' in the layout; did you mean 'rank'"),
    ('"{field.name}", box: [4, 4, 36.45, 7]', '"{field.nam}", box: [4, 4, 36.45, 7]', '"{field.nam}"',
     "prints field 'nam', which the card does not have; did you mean 'name'"),
    ('fill: "{group.color}"}', 'fill: "{group.colour}"}', '"{group.colour}"}', "did you mean 'group.color'"),
    ("font: bold, size: 11", "font: bld, size: 11", "bld", "unknown font 'bld'; did you mean 'bold'"),
    ("color: ink}", "color: inc}", "inc}", "unknown colour 'inc'; did you mean 'ink'"),
    ("use: [frame]", "use: [fram]", "fram]", "no part named 'fram' in the layout; did you mean 'frame'"),
    ("step: 10", "step: 0", "0}", "'step' must be a number from 0.2"),
    ("|map:rank}", "|uper}", '"{attrs.points|uper}"', "unknown filter 'uper' in '{attrs.points|uper}'; did you mean 'upper'"),
    # the schema: a misspelt key or value
    ("match: {group: question}", "match: {grup: question}", "grup", "unknown key 'grup'; did you mean 'group'"),
    ("{type: draw, draw: ship", "{type: drw, draw: ship", "drw", "did you mean 'draw'"),
    ("include: [common.yaml]", "include: [comon.yaml]", "comon.yaml", "did you mean 'common.yaml'"),
]


@pytest.mark.parametrize("old, new, at, message", MISTAKES, ids=[m[1] for m in MISTAKES])
def test_a_mistake_is_reported_once_at_its_line_with_a_suggestion(tmp_path, old, new, at, message):
    assert LAYOUT.count(old) == 1
    layout = LAYOUT.replace(old, new)
    errors = check_layout(_quiz(tmp_path, layout))
    assert len(errors) == 1, [str(e) for e in errors]
    error = errors[0]
    assert message in error.message
    assert error.locator.file.name == "layout.yaml"
    assert (error.locator.line, error.locator.column) == _position(layout, at)


def test_an_unknown_drawing_lists_the_built_in_drawings_and_the_games_own_symbols(tmp_path):
    error, = check_layout(_quiz(tmp_path, LAYOUT.replace("draw: ship,", "draw: shipp,")))
    assert "built-in drawings: ball, court, lattice, pips" in error.message
    assert "symbols of layout.yaml: ship;" in error.message and "more from common.yaml" in error.message
    # one error for the three question designs, named by the first, in every language
    assert error.locator.card == "q-france" and "(and 2 more cards)" in error.message
    assert error.locator.language is None
    assert error.locator.field == "faces[0].elements[3].draw"


def test_every_problem_is_reported_in_one_run(tmp_path):
    # not the schema mistakes (they stop the check), nor 'uper' (same text as 'rnk') nor 'group.colour'
    # (in the part that 'fram' no longer uses)
    chosen = [m for m in MISTAKES[:9] if "colour" not in m[1]]
    layout = LAYOUT
    for old, new, _, _ in chosen:
        layout = layout.replace(old, new)
    messages = [e.message for e in check_layout(_quiz(tmp_path, layout))]
    for _, _, _, message in chosen:
        assert any(message in m for m in messages), message
    assert len(messages) == len(chosen)


def test_every_schema_error_of_a_file_is_reported(tmp_path):
    layout = LAYOUT.replace("match: {group: question}", "match: {grup: question}").replace(
        "font: bold, size: 12", "font: bold, size: big")
    errors = check_layout(_quiz(tmp_path, layout))
    assert [(e.locator.line, e.locator.field) for e in errors] == [
        (_position(layout, "grup")[0], "faces[0].match.grup"), (_position(layout, "big")[0], "faces[1].elements[0].size")]
    assert "expected a number, found 'big'" in errors[1].message


def test_cards_no_face_entry_matches(tmp_path):
    layout = LAYOUT.replace("match: {group: bonus}", "match: {group: bonsu}")
    messages = sorted(e.message for e in check_layout(_quiz(tmp_path, layout)))
    assert messages == ["group 'bonsu' is not in game 'quiz'; did you mean 'bonus'?",
                        "no entry of 'faces' matches group 'bonus', kind 'double'"]


def test_a_text_field_printed_nowhere_is_reported_at_its_entry(tmp_path):
    layout = LAYOUT.replace('      - {type: text, text: "{field.rule}"', '      - {type: text, text: "{field.name}"')
    error, = check_layout(_quiz(tmp_path, layout))
    assert "prints no text for field(s) rule" in error.message
    assert error.locator.line == _position(layout, "match: {group: question}")[0]


def test_symbol_parameters_and_references(tmp_path):
    layout = LAYOUT.replace("fill: $color}", "fill: $colour}\n    - {use: flag-frnce}")
    messages = [e.message for e in check_layout(_quiz(tmp_path, layout))]
    assert any("symbol 'ship' uses symbol 'flag-frnce'" in m and "did you mean 'flag-france'" in m for m in messages)
    assert any("colours a shape with '$colour'; pass 'colour' under params" in m for m in messages)


def test_the_build_names_the_line_of_an_unknown_drawing(tmp_path):
    from cardgen.cards.card import CardRenderer

    layout = LAYOUT.replace("draw: ship,", "draw: shipp,")
    game = _quiz(tmp_path, layout)
    with pytest.raises(RenderError) as caught:
        CardRenderer(game, "en").face(game.card("q-france"))
    assert caught.value.locator.line == _position(layout, "shipp")[0]
    assert caught.value.locator.card == "q-france" and caught.value.locator.language == "en"
    assert "did you mean 'ship'" in caught.value.message and "symbols of layout.yaml: ship" in caught.value.message


def test_the_build_names_the_line_of_a_schema_error(tmp_path):
    from cardgen.cards.card import CardRenderer

    layout = LAYOUT.replace("match: {group: question}", "match: {grup: question}")
    with pytest.raises(RenderError) as caught:
        CardRenderer(_quiz(tmp_path, layout), "en")
    assert (caught.value.locator.line, caught.value.locator.column) == _position(layout, "grup")


def test_built_in_drawings_are_read_from_the_source_as_registered():
    from cardgen.cards.drawings import DRAWINGS

    found = builtin_drawings()
    assert set(found) == set(DRAWINGS)
    assert found["seats"][0] >= {"colors", "rows", "background"}
    assert found["pips"][1] == {"symbol", "rank"}


def test_the_layout_schema_file_is_in_sync():
    from cardgen.content.schema import schema_texts

    on_disk = (ROOT / "content" / "schema" / "layout.schema.json").read_text("utf-8")
    assert on_disk == schema_texts()["layout.schema.json"], "run 'cardgen schema'"
    assert '"Match"' in on_disk and '"Shape"' in on_disk


def test_checking_a_layout_loads_no_drawing_library():
    code = ("import sys; from cardgen.cards.layoutcheck import check_layout; "
            "print(sorted(m for m in sys.modules if m.startswith(('reportlab', 'cardgen.cards.card', 'weasyprint'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
