"""``cardgen preview``: one card face or back as a PNG with the shop bleed and a faint trim line."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.cli import cli
from cardgen.errors import RenderError
from cardgen.cards.preview import default_preview_path, render_preview
from cardgen.printing.shop import SHOP_BLEED_MM

CONTENT = __import__("pathlib").Path(__file__).resolve().parents[2] / "content"


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def test_face_has_shop_bleed_at_the_dpi_and_a_faint_trim_line(games):
    game = games["head-game"]
    preview = render_preview(game, "country-france", "de", dpi=100)
    size = game.meta.card_size
    expected = (round((size.width_mm + 2 * SHOP_BLEED_MM) / 25.4 * 100),
                round((size.height_mm + 2 * SHOP_BLEED_MM) / 25.4 * 100))
    image = _image(preview.png)
    assert image.size == expected == (preview.width_px, preview.height_px)
    assert preview.side == "face" and preview.label == "country-france"
    assert image.info.get("dpi", (100, 100))[0] == pytest.approx(100, abs=1)
    # the trim line: along the left trim edge, at mid-height, the pixel on the line is
    # lighter than the bleed just outside it (a grey line over the dark green), yet faint
    bleed_px = round(SHOP_BLEED_MM / 25.4 * 100)
    middle = image.size[1] // 2
    line_column = [image.getpixel((x, y)) for x in range(bleed_px - 2, bleed_px + 2)
                   for y in range(middle, middle + 10)]  # ten rows: a dash crosses some of them
    outside = image.getpixel((bleed_px - 5, middle))
    brightest = max(line_column, key=sum)
    assert sum(brightest) > sum(outside) + 30, (line_column, outside)
    assert sum(brightest) < 3 * 230, "the trim line should be faint grey, not white"


def test_back_differs_from_face_and_size_follows_dpi(games):
    game = games["head-game"]
    face = render_preview(game, "country-france", "de", dpi=72)
    back = render_preview(game, "country-france", "de", back=True, dpi=72)
    bigger = render_preview(game, "country-france", "de", back=True, dpi=144)
    assert back.side == "back" and back.png != face.png
    assert abs(bigger.width_px - 2 * back.width_px) <= 1
    assert render_preview(game, "country-france", "de", dpi=72).png == face.png  # deterministic


def test_text_follows_the_language(games):
    game = games["head-game"]
    assert render_preview(game, "country-france", "de", dpi=72).png != \
        render_preview(game, "country-france", "en", dpi=72).png


def test_unknown_card_lists_close_ids(games):
    with pytest.raises(RenderError) as caught:
        render_preview(games["head-game"], "country-frnace", "de")
    assert "no card 'country-frnace'" in str(caught.value)
    assert "did you mean 'country-france'" in str(caught.value)
    assert "cards.yaml" in str(caught.value)


def test_unknown_language_lists_the_games_languages(games):
    with pytest.raises(RenderError) as caught:
        render_preview(games["head-game"], "country-france", "fr")
    assert "no language 'fr'" in str(caught.value)
    assert "ru, en, de" in str(caught.value)


def test_dpi_out_of_range_is_refused(games):
    with pytest.raises(RenderError, match="36 to 600"):
        render_preview(games["head-game"], "country-france", "de", dpi=1200)


def test_cli_writes_the_default_path_in_the_current_folder_and_prints_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--content", str(CONTENT), "preview", "head-game", "country-france",
                                      "--lang", "de", "--dpi", "72"])
    assert result.exit_code == 0, result.output
    path = default_preview_path("head-game", "country-france", "de")
    assert result.output.strip() == str(path) == "preview/head-game-country-france-de.png"
    assert _image((tmp_path / path).read_bytes()).size[0] > 100
    assert not [p for p in (tmp_path / "preview").iterdir() if p.name != path.name]  # no temporary file left

    back = CliRunner().invoke(cli, ["--content", str(CONTENT), "preview", "head-game", "country-france",
                                    "--back", "--dpi", "72", "--out", str(tmp_path / "b.png")])
    assert back.exit_code == 0, back.output
    assert back.output.strip() == str(tmp_path / "b.png") and (tmp_path / "b.png").is_file()


def test_cli_errors_are_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    bad_dpi = runner.invoke(cli, ["--content", str(CONTENT), "preview", "head-game", "country-france", "--dpi", "5"])
    assert bad_dpi.exit_code == 2 and "36<=x<=600" in bad_dpi.output
    bad_card = runner.invoke(cli, ["--content", str(CONTENT), "preview", "head-game", "country-frnace"])
    assert bad_card.exit_code == 1 and "did you mean 'country-france'" in bad_card.output
    bad_lang = runner.invoke(cli, ["--content", str(CONTENT), "preview", "head-game", "country-france", "--lang", "xx"])
    assert bad_lang.exit_code == 1 and "its languages: ru, en, de" in bad_lang.output
    bad_game = runner.invoke(cli, ["--content", str(CONTENT), "preview", "no-such-game", "x"])
    assert bad_game.exit_code == 2 and "unknown game" in bad_game.output
    assert not (tmp_path / "preview").exists()
    help_text = runner.invoke(cli, ["preview", "--help"]).output
    assert "preview/GAME-CARD-LANG.png" in help_text


def test_simulated_preview_shows_the_card_as_a_deuteranope_sees_it(games):
    from cardgen.color.vision import delta_e2000

    game = games["klepka"]
    plain = _image(render_preview(game, "player-raketov", "en", dpi=60).png)
    seen = _image(render_preview(game, "player-raketov", "en", dpi=60, simulate="deuteranopia").png)
    assert seen.size == plain.size
    # the corner of the frame, a forward's red, turns to a deuteranope's olive; white stays white
    corner = plain.getpixel((3, 3))
    assert delta_e2000("#%02x%02x%02x" % corner, "#c62828") < 3
    assert delta_e2000("#%02x%02x%02x" % seen.getpixel((3, 3)), "#%02x%02x%02x" % corner) > 20
    middle = (plain.size[0] // 2, plain.size[1] // 8)  # the white panel behind the name
    assert plain.getpixel(middle) == seen.getpixel(middle) == (255, 255, 255)


def test_preview_cli_simulate_names_the_vision(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--content", str(CONTENT), "preview", "klepka", "player-raketov", "--dpi", "40",
                                      "--simulate", "tritanopia", "--lang", "en"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "preview/klepka-player-raketov-en-tritanopia.png"
    assert (tmp_path / "preview" / "klepka-player-raketov-en-tritanopia.png").stat().st_size > 1000
    bad = CliRunner().invoke(cli, ["--content", str(CONTENT), "preview", "klepka", "player-raketov",
                                   "--simulate", "achromatopsia"])
    assert bad.exit_code == 2
