"""Built-in drawings carry no football unless the layout asks, and take any symbol: the game's own art too."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardgen.content import load_games
from cardgen.cards.layoutcheck import check_layout

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "data" / "mini"

#: The game's own suit: a triangle pointing up, in a colour nothing else on the cards has.
SUIT_RGB = (0x1a, 0x9c, 0x4e)
SUIT_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <polygon points="50,5 95,95 5,95" fill="#1a9c4e"/>
</svg>
"""
# mini: 'one' (value 1: an ace) and 'two' (value 2) are numbers, 'swap' a special (a jack here)
COURT_BOX = [14.75, 11, 34, 66.9]  # centred on the 63.5 x 88.9 mm card
LAYOUT = """\
faces:
  - match: {{group: numbers}}
    omit: [name]
    elements:
      - {{type: fill, fill: "#ffffff"}}
      - {{type: draw, draw: pips, box: [16, 11, 31.5, 66.9], params: {{symbol: art/suit.svg, rank: "{{attrs.value}}", color: "#000000", size: 0.2}}}}
  - match: {{group: specials}}
    omit: [name]
    elements:
      - {{type: fill, fill: "#ffffff"}}
      - {{type: draw, draw: court, box: {box}, params: {{rank: jack, color: "#1f3a93", symbol: art/suit.svg, paper: "#fffdf5"{extra}}}}}
backs:
  - match: {{}}
    elements:
      - {{type: fill, fill: "{{back.color}}"}}
"""


def _game(tmp_path: Path, extra: str = ""):
    content = tmp_path / "content"
    shutil.copytree(MINI, content / "mini")
    (content / "mini" / "art" / "suit.svg").write_text(SUIT_SVG, "utf-8")
    (content / "mini" / "layout.yaml").write_text(LAYOUT.format(box=COURT_BOX, extra=extra), "utf-8")
    return load_games(content, ["mini"])[0]


def _picture(game, card_id: str, dpi: int = 100) -> Image.Image:
    from cardgen.cards.preview import render_preview

    return Image.open(io.BytesIO(render_preview(game, card_id, "en", dpi=dpi).png)).convert("RGB")


def _blobs(image: Image.Image, rgb: tuple[int, int, int], tolerance: int = 40) -> list[list[tuple[int, int]]]:
    """The connected patches of pixels close to ``rgb`` (4-neighbours), largest first."""
    width, height = image.size
    pixels = image.load()
    wanted = {(x, y) for y in range(height) for x in range(width)
              if sum(abs(a - b) for a, b in zip(pixels[x, y], rgb)) <= tolerance}
    blobs = []
    while wanted:
        stack = [wanted.pop()]
        blob = []
        while stack:
            x, y = stack.pop()
            blob.append((x, y))
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in wanted:
                    wanted.remove(near)
                    stack.append(near)
        blobs.append(blob)
    return sorted(blobs, key=len, reverse=True)


def _points_up(blob: list[tuple[int, int]]) -> bool:
    """A triangle pointing up has most of its pixels in the lower half of its height."""
    ys = [y for _, y in blob]
    middle = (min(ys) + max(ys)) / 2
    return sum(y > middle for y in ys) > sum(y < middle for y in ys)


def test_pips_of_the_games_own_svg_suit_validate_and_print(tmp_path):
    game = _game(tmp_path)
    assert check_layout(game) == []
    two = [b for b in _blobs(_picture(game, "two"), SUIT_RGB) if len(b) > 20]
    assert len(two) == 2, [len(b) for b in two]
    upper, lower = sorted(two, key=lambda b: min(y for _, y in b))
    # the pip of the lower half stands upside down, as a layout symbol's does
    assert _points_up(upper) and not _points_up(lower)
    ace = [b for b in _blobs(_picture(game, "one"), SUIT_RGB) if len(b) > 20]
    assert len(ace) == 1 and len(ace[0]) > 1.3 * len(upper)  # one bigger pip (ace_size 0.55 of the width)


def test_pips_of_the_games_own_raster_suit_validate_and_print(tmp_path):
    """A PNG suit (a triangle on a transparent ground) serves as pips as the SVG one does."""
    from PIL import ImageDraw

    game = _game(tmp_path)
    suit = Image.new("RGBA", (200, 200), (0, 0, 0, 0))
    ImageDraw.Draw(suit).polygon([(100, 10), (190, 190), (10, 190)], fill=SUIT_RGB + (255,))
    suit.save(game.root / "art" / "suit.png")
    layout = game.root / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace("art/suit.svg", "art/suit.png"), "utf-8")
    game = load_games(game.root.parent, ["mini"])[0]
    assert check_layout(game) == []
    picture = _picture(game, "two")
    two = [b for b in _blobs(picture, SUIT_RGB) if len(b) > 20]
    assert len(two) == 2, [len(b) for b in two]
    upper, lower = sorted(two, key=lambda b: min(y for _, y in b))
    assert _points_up(upper) and not _points_up(lower)
    # the transparent ground stays transparent: the card's white shows around the pips
    x, y = min(upper)[0] - 3, min(y for _, y in upper) - 3
    assert picture.getpixel((x, y)) == (255, 255, 255)


def test_a_missing_raster_suit_is_named_at_the_symbol(tmp_path):
    game = _game(tmp_path)
    layout = game.root / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace("art/suit.svg", "art/nosuch.png"), "utf-8")
    game = load_games(game.root.parent, ["mini"])[0]
    errors = check_layout(game)
    assert errors and any("nosuch.png" in str(error) for error in errors), [str(e) for e in errors]
    assert all(error.locator.line for error in errors)


def _court_points(image: Image.Image, dpi: int = 100) -> dict[str, tuple[int, int]]:
    """Pixels of the upper figure of the court box: the ball's centre and the armband (cardgen's court)."""
    from cardgen.printing.shop import SHOP_BLEED_MM

    x, y, w, h = COURT_BOX
    px = dpi / 25.4
    cx, cy = (SHOP_BLEED_MM + x + w / 2) * px, (SHOP_BLEED_MM + y + h / 2) * px
    u = min(w, h * 0.9) / 10 * px
    return {"ball": (round(cx + 2.9 * u), round(cy - 4.9 * u)),
            "armband": (round(cx - 3.55 * u), round(cy - 2.0 * u)),
            "suit": (round(cx - 3.4 * u), round(cy - 5.6 * u))}


def _dark(rgb: tuple[int, int, int]) -> bool:
    return max(rgb) < 80


def test_court_has_no_ball_unless_the_layout_asks_for_a_footballer(tmp_path):
    plain = _picture(_game(tmp_path / "plain"), "swap")
    footballer_game = _game(tmp_path / "footballer", extra=", figure: footballer")
    assert check_layout(footballer_game) == []
    footballer = _picture(footballer_game, "swap")
    plain.save(tmp_path / "court-plain.png")
    footballer.save(tmp_path / "court-footballer.png")
    at = _court_points(plain)
    # the ball's black patch and the captain's armband (accent #f2c230) only on the footballer
    assert _dark(footballer.getpixel(at["ball"])) and not _dark(plain.getpixel(at["ball"]))
    assert plain.getpixel(at["ball"]) == (0xff, 0xfd, 0xf5)  # the paper
    band = footballer.getpixel(at["armband"])
    assert abs(band[0] - 0xf2) < 30 and abs(band[2] - 0x30) < 40, band
    assert plain.getpixel(at["armband"]) == (0x1f, 0x3a, 0x93)  # the shirt
    # both wear the game's own suit beside the head, upright in the upper half
    for image in (plain, footballer):
        suits = [b for b in _blobs(image, SUIT_RGB) if len(b) > 10]
        assert len(suits) == 2
        assert at["suit"] in max(suits, key=lambda b: -min(y for _, y in b))


def test_an_unknown_court_figure_is_a_validate_error_with_a_suggestion(tmp_path):
    error, = check_layout(_game(tmp_path, extra=", figure: footballr"))
    assert "drawing 'court' has no figure 'footballr'; did you mean 'footballer'?" in error.message
    assert error.locator.field.endswith("params.figure")


@pytest.mark.parametrize("symbol, message", [
    ("art/none.svg", "no SVG file 'art/none.svg' in the game folder"),
    ("../outside.svg", "SVG file '../outside.svg' lies outside the game folder"),
    ("art/sute.svg", "no SVG file 'art/sute.svg' in the game folder"),
    ("portrait", "drawing 'pips' draws 'portrait' as its symbol: drawing 'portrait' needs parameter 'seed'"),
])
def test_a_symbol_file_that_cannot_serve_is_named_at_the_symbol(tmp_path, symbol, message):
    game = _game(tmp_path)
    (tmp_path / "content" / "outside.svg").write_text(SUIT_SVG, "utf-8")
    layout = game.root / "layout.yaml"
    text = layout.read_text("utf-8").replace("symbol: art/suit.svg, rank", f"symbol: {symbol}, rank")
    layout.write_text(text, "utf-8")
    error, = check_layout(load_games(tmp_path / "content", ["mini"])[0])
    assert message in error.message
    assert error.locator.line == text[:text.index(f"symbol: {symbol}")].count("\n") + 1
    assert error.locator.field.endswith("params.symbol")


def test_a_built_in_drawing_serves_as_a_symbol(tmp_path):
    game = _game(tmp_path)
    layout = game.root / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace("symbol: art/suit.svg, rank", "symbol: ball, rank"), "utf-8")
    game = load_games(tmp_path / "content", ["mini"])[0]
    assert check_layout(game) == []
    balls = [b for b in _blobs(_picture(game, "two"), (0, 0, 0), tolerance=60) if len(b) > 5]
    assert len(balls) >= 2 * 6  # each ball (in the pips colour): a pentagon in the middle and five patches around it


PORTRAIT_BOX = [14.75, 20, 34, 34]


def _portrait_game(tmp_path: Path, params: str):
    game = _game(tmp_path)
    layout = game.root / "layout.yaml"
    text = layout.read_text("utf-8")
    court = text[text.index("      - {type: draw, draw: court"):].split("\n", 1)[0]
    text = text.replace(court, f"      - {{type: draw, draw: portrait, box: {PORTRAIT_BOX}, params: {{seed: swap{params}}}}}")
    layout.write_text(text, "utf-8")
    return load_games(tmp_path / "content", ["mini"])[0]


def test_a_portrait_has_stadium_lights_only_when_asked(tmp_path):
    from cardgen.printing.shop import SHOP_BLEED_MM

    plain_game = _portrait_game(tmp_path / "plain", "")
    stadium_game = _portrait_game(tmp_path / "stadium", ", stadium: true")
    assert check_layout(plain_game) == [] and check_layout(stadium_game) == []
    plain, stadium = _picture(plain_game, "swap"), _picture(stadium_game, "swap")
    x, y, s, _ = PORTRAIT_BOX
    px, u = 100 / 25.4, s / 20
    for i in (2, 3):  # two of the six lights, well inside the round frame
        at = (round((SHOP_BLEED_MM + x + s / 2 - 8 * u + i * 3.2 * u) * px), round((SHOP_BLEED_MM + y + s - 17.5 * u) * px))
        assert stadium.getpixel(at) == (255, 255, 255)
        assert plain.getpixel(at) == (0xe3, 0xf2, 0xfd)  # the background
    # the face is the same: the lights draw no random number
    assert plain.crop((0, 0, plain.width, plain.height // 2 + 40)) != stadium.crop((0, 0, plain.width, plain.height // 2 + 40))
    lower = (0, round((SHOP_BLEED_MM + y + s * 0.4) * px), plain.width, plain.height)
    assert plain.crop(lower).tobytes() == stadium.crop(lower).tobytes()


def test_a_flag_that_is_not_true_or_false_is_a_validate_error(tmp_path):
    error, = check_layout(_portrait_game(tmp_path, ", stadium: yes-please"))
    assert "drawing 'portrait': 'stadium' is true or false, found 'yes-please'" in error.message
    assert error.locator.field.endswith("params.stadium")
