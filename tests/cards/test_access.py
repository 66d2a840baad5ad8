"""The accessibility checks of validate: colours told apart, text contrast and text size, from the plans."""

from __future__ import annotations

import re

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cards.access import access_warnings, contrast_findings, planned_sides, vision_pairs
from cardgen.cards.layout import layout_path, load_layout
from cardgen.cli import cli
from cardgen.content import load_games

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# question and bonus cards alike but for their colour: the green and red (ΔE00 6.6 for a deuteranope)
SAME_BUT_COLOUR = """\
include: [common.yaml]
faces:
  - match: {}
    omit: [name, rule]
    elements:
      - {type: fill, fill: "{group.color}"}
      - {type: rect, box: [3, 3, 38.45, 57.5], radius: 2, fill: "#ffffff"}
      - {type: draw, draw: star, box: [12, 20, 20, 20], params: {color: "{group.color}"}}
      EXTRA
backs:
  - match: {}
    elements:
      - {type: fill, fill: "{back.color}"}
"""
LABEL = '- {type: text, text: "{group.name|upper}", box: [5, 5, 34.45, 8], font: bold, size: 10, min_size: 8, color: ink}'


def _deck(tmp_path: Path, layout: str, colours=("#2e7d32", "#c62828")):
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "decks", decks)
    game = decks / "quiz" / "game.yaml"
    text = game.read_text("utf-8").replace("#00897b", colours[0]).replace("#8e24aa", colours[1])
    game.write_text(text, "utf-8")
    (decks / "quiz" / "layout.yaml").write_text(layout, "utf-8")
    return decks, load_games(decks, ["quiz"])[0]


def _warnings(game) -> list[str]:
    return [f"{w.locator} {w.message}" for w in access_warnings(game)]


def test_two_groups_told_apart_by_colour_alone_warn(tmp_path):
    _, game = _deck(tmp_path, SAME_BUT_COLOUR.replace("EXTRA", ""))
    found = [w for w in _warnings(game) if "colour vision" in w]
    assert len(found) == 1, found
    message = found[0]
    assert "group 'bonus' and 'question'" in message
    assert "#c62828" in message and "#2e7d32" in message
    assert "deuteranopia" in message and "ΔE00 6.6" in message
    assert "game.yaml" in message


def test_a_printed_label_is_a_cue(tmp_path):
    _, game = _deck(tmp_path, SAME_BUT_COLOUR.replace("EXTRA", LABEL))
    assert not [w for w in _warnings(game) if "colour vision" in w]
    layout = load_layout(layout_path(game.root, game.id), None)
    pair = vision_pairs(game, layout, list(planned_sides(game)))[0]
    assert pair.cue is not None and "text" in pair.cue
    assert pair.worst == ("deuteranopia", 6.6)


def test_colours_far_apart_for_every_vision_pass(tmp_path):
    # blue and orange stay apart for all three dichromacies
    _, game = _deck(tmp_path, SAME_BUT_COLOUR.replace("EXTRA", ""), colours=("#1565c0", "#ef6c00"))
    assert not [w for w in _warnings(game) if "colour vision" in w]


def test_threshold_is_the_layouts(tmp_path):
    layout = "accessibility: {color_difference: 5}\n" + SAME_BUT_COLOUR.replace("EXTRA", "")
    _, game = _deck(tmp_path, layout)
    assert not [w for w in _warnings(game) if "colour vision" in w]


CONTRAST = """\
include: [common.yaml]
symbols:
  screen:
    - {rect: [10, 10, 80, 60], fill: "#4fc3f7"}
    - {text: "VAR", at: [50, 42], size: 24, font: bold, fill: "#ffffff"}
faces:
  - match: {}
    omit: [rule]
    elements:
      - {type: fill, fill: "#4fc3f7"}
      - {type: text, text: "{field.name}", box: [4, 4, 36.45, 8], font: bold, size: 10, min_size: 8, color: "#ffffff"}
      - {type: rect, box: [4, 20, 36.45, 30], fill: "#ffffff"}
      - {type: draw, draw: screen, box: [8, 22, 28, 24]}
      - {type: text, text: "{group.name}", box: [4, 50, 36.45, 8], size: 10, min_size: 8, color: ink}
backs:
  - match: {}
    elements:
      - {type: fill, fill: "{back.color}"}
"""


def test_white_text_on_light_blue_is_named_with_card_field_language_and_ratio(tmp_path):
    _, game = _deck(tmp_path, CONTRAST)
    found = [w for w in _warnings(game) if "contrast" in w]
    name = [w for w in found if "field.name" in w and "symbol" not in w]
    assert len(name) == 1, found
    assert "#ffffff on #4fc3f7" in name[0] and "2.00:1" in name[0] and "4.5:1" in name[0]
    assert "card q-" in name[0] or "card bonus" in name[0]
    assert "language en, ru" in name[0]
    inner = [w for w in found if "symbol screen" in w]
    assert len(inner) == 1 and "2.00:1" in inner[0] and "'VAR'" in inner[0]
    # ink on the white rectangle passes
    assert not [w for w in found if "group.name" in w]


def test_text_on_a_picture_is_judged_by_its_pixels(tmp_path):
    from PIL import Image

    layout = CONTRAST.replace('- {type: fill, fill: "#4fc3f7"}',
                              '- {type: image, src: art/sky.png, box: full}')
    decks, game = _deck(tmp_path, layout)
    (game.root / "art").mkdir()
    Image.new("RGB", (60, 80), (0x4f, 0xc3, 0xf7)).save(game.root / "art" / "sky.png")
    game = load_games(decks, ["quiz"])[0]
    layout_ = load_layout(layout_path(game.root, game.id), None)
    side = next(s for s in planned_sides(game) if s.card is not None)
    name = contrast_findings(side, layout_, game)[0]
    assert name.behind == "picture art/sky.png"
    assert name.background == "#4fc3f7" and name.ratio == pytest.approx(2.0, abs=0.01)


SIZES = """\
include: [common.yaml]
faces:
  - match: {}
    elements:
      - {type: fill, fill: "#ffffff"}
      - {type: text, text: "{field.name}", box: [4, 4, 36.45, 8], font: bold, size: 10, min_size: 5, color: ink, max_lines: 1}
      - {type: text, text: "{field.rule}", box: [4, 20, 36.45, 30], size: 7, min_size: 7, color: ink}
backs:
  - match: {}
    elements:
      - {type: fill, fill: "{back.color}"}
"""


def test_size_floors(tmp_path):
    _, game = _deck(tmp_path, SIZES.replace("omit", "omit"))
    found = [w for w in _warnings(game) if "text size" in w]
    assert any("field.name may shrink to 5 pt, under the 6 pt floor" in w for w in found), found
    assert any("field.rule is fitted at 7 pt, under the 8 pt floor for body text" in w for w in found), found
    # and in characters: the text's length against what the box holds at the floor
    rule = next(w for w in found if "field.rule is fitted" in w)
    length, holds = map(int, re.search(r"body text: (\d+) characters, the box holds about (\d+) at 8 pt", rule).groups())
    assert 0 < length and 0 < holds
    stated = "accessibility: {smallest_text_pt: 5, body_text_pt: 7}\n" + SIZES
    _, game = _deck(tmp_path / "again", stated)
    assert not [w for w in _warnings(game) if "text size" in w]


def test_validate_warns_and_strict_fails(tmp_path):
    decks, _ = _deck(tmp_path, CONTRAST)
    runner = CliRunner()
    plain = runner.invoke(cli, ["--content", str(decks), "validate", "quiz"])
    assert plain.exit_code == 0, plain.output
    assert "contrast: field.name #ffffff on #4fc3f7" in plain.output
    strict = runner.invoke(cli, ["--content", str(decks), "validate", "quiz", "--strict"])
    assert strict.exit_code == 1
    assert "contrast: field.name" in strict.output and "nothing was written" in strict.output


@pytest.mark.parametrize("game_id", ["card-football", "head-game", "himmel", "klepka"])
def test_bundled_games_pass_their_own_checks(game_id):
    game = load_games(ROOT / "content", [game_id])[0]
    assert _warnings(game) == []
