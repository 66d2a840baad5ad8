"""Card sheets for digital tables: Tabletop Simulator decks and the sprite sheet.

One build of the quiz deck (two backs, tests/data/decks) and of the mini game (a card
without a name) serves most tests; the pixels of every cell are compared with the card's
own shop PNG, drawn through the other path (cardgen.printing.shop.render_pngs).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageStat

from cardgen.build import BuildOptions, build, plan_jobs
from cardgen.content import load_games
from cardgen.errors import RenderError
from cardgen.i18n import Texts
from cardgen.i18n.labels import card_label, texts_lookup
from cardgen.printing.printers import printer
from cardgen.printing.shop import render_pngs
from cardgen.tabletop.decks import (MAX_SHEET_PX, TTS_MAX_COLS, TTS_MAX_ROWS, best_grid, card_texts, check_url,
                                     is_tile, plan_sheets, saved_object, split_into_sheets)
from cardgen.build.tabletop import wanted_formats

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
URL = "https://example.org/cards"

#: mean difference per channel (0-255) between a cell and the card's shop PNG scaled to the
#: cell: the two are rasterised at different sizes, so edges differ a little (measured: 0.2-1.6)
SAME = 3.0
#: two different cards differ far more (measured: 10.9 for the French and Italian flags, the closest)
DIFFERENT = 8.0


def _build(out: Path, **more) -> dict:
    options = dict(out_dir=out, producers=("tabletop",), workers=1, tabletop_url=URL)
    options.update(more)
    build(BuildOptions(content_dir=DATA / "decks", **options))
    build(BuildOptions(content_dir=DATA, games=("mini",), **options))  # a second build keeps the quiz's files
    return json.loads((out / "manifest.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("tabletop")
    return out, _build(out)


@pytest.fixture(scope="module")
def small_games():
    return {"quiz": load_games(DATA / "decks", ["quiz"])[0], "mini": load_games(DATA, ["mini"])[0]}


def _image(out: Path, relpath: str) -> Image.Image:
    image = Image.open(out / relpath)
    image.load()
    return image


def _files(manifest: dict, game: str, lang: str) -> dict[str, dict]:
    return {entry["path"].rsplit("/", 1)[1]: entry for entry in manifest["files"]
            if entry["game"] == game and entry["lang"] == lang}


def _shop_renders(game, lang: str) -> tuple[dict[str, Image.Image], dict[str, Image.Image]]:
    """card id -> and back id -> the card's own render, the shop PNG cut to the trim."""
    images, (w, h), dpi = render_pngs(game, lang)
    bleed = printer("tgc").bleed_in * dpi
    trim = (bleed, bleed, w - bleed, h - bleed)
    faces: dict[str, Image.Image] = {}
    backs: dict[str, Image.Image] = {}
    physical = game.physical_cards()
    for n, (stem, data, count) in enumerate(images):
        image = Image.open(io.BytesIO(data)).convert("RGB")
        if count:
            faces.setdefault(physical[n].card.id, (image, trim))
        else:
            backs[stem.removeprefix("back-")] = (image, trim)
    return faces, backs


def _difference(cell: Image.Image, render) -> float:
    image, trim = render
    scaled = image.resize(cell.size, Image.LANCZOS, box=trim)
    return sum(ImageStat.Stat(ImageChops.difference(cell.convert("RGB"), scaled)).mean) / 3


def _cell(sheet: Image.Image, cols: int, cell_w: int, cell_h: int, index: int) -> Image.Image:
    x, y = (index % cols) * cell_w, (index // cols) * cell_h
    return sheet.crop((x, y, x + cell_w, y + cell_h))


# --- grids ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(63.5, 88.9), (70, 70), (69.85, 120.65), (88.9, 63.5), (44.45, 63.5)])
def test_every_tts_grid_holds_its_cards_within_the_limits(size):
    previous = None
    for faces in range(1, 70):
        grid = best_grid(faces + 1, *size, TTS_MAX_COLS, TTS_MAX_ROWS)
        assert grid.cols <= 10 and grid.rows <= 7 and grid.cells >= faces + 1
        assert grid.width <= MAX_SHEET_PX and grid.height <= MAX_SHEET_PX
        assert 100 <= grid.dpi <= 300
        assert abs(grid.cell_w / grid.cell_h - size[0] / size[1]) < 0.01  # cards keep their shape
        assert previous is None or grid.dpi <= previous  # more cards never sharpen the sheet
        previous = grid.dpi
    assert best_grid(71, *size, TTS_MAX_COLS, TTS_MAX_ROWS) is None


def test_dpi_per_bundled_card_size():
    # a full poker sheet (8 x 5 for up to 39 faces) and klepka's 48 square tiles (7 x 7)
    assert best_grid(39, 63.5, 88.9, 10, 7) == best_grid(40, 63.5, 88.9, 10, 7)
    assert (best_grid(39, 63.5, 88.9, 10, 7).cols, best_grid(39, 63.5, 88.9, 10, 7).rows) == (8, 5)
    assert best_grid(39, 63.5, 88.9, 10, 7).dpi == 204
    assert best_grid(49, 70, 70, 10, 7).dpi == 212
    assert best_grid(3, 63.5, 88.9, 10, 7).dpi == 300  # capped: more adds only texture memory


def test_many_designs_are_shared_evenly_between_sheets():
    sheets = split_into_sheets(list(range(140)), 1, 63.5, 88.9, 10, 7, "test")
    assert sum(len(items) for items, _ in sheets) == 140 and all(len(items) <= 69 for items, _ in sheets)
    assert len(sheets) == 3 and sorted(len(items) for items, _ in sheets) == [46, 47, 47]
    # a huge card falls below 100 dpi on a full sheet: more, smaller sheets instead
    big = split_into_sheets(list(range(30)), 1, 300, 400, 10, 7, "test")
    assert all(grid.dpi >= 100 for _, grid in big) and len(big) > 1


# --- the build ----------------------------------------------------------------------------------------
def test_sheets_within_tts_limits_and_manifest(built, small_games):
    out, manifest = built
    entries = [e for e in manifest["files"] if e["producer"] == "tabletop"]
    assert entries and all(e["kind"] == "tabletop" for e in entries)
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("tabletop/*")}
    assert on_disk == {e["path"] for e in entries}
    for game, langs in (("quiz", ("ru", "en")), ("mini", ("ru", "en"))):
        for lang in langs:
            files = _files(manifest, game, lang)
            sheets = [name for name, e in files.items() if e["format"] == "tts" and "grid" in e]
            copies = sum(card.copies for card in small_games[game].cards)
            assert files[f"{game}-{lang}.json"]["listed"] == files[f"{game}-{lang}-sprites.json"]["listed"] == copies
            assert sheets
            for name in sheets:
                entry = files[name]
                image = _image(out, entry["path"])
                cols, rows = entry["grid"]
                assert image.mode == "RGB" and list(image.size) == entry["pixels"]
                assert cols <= 10 and rows <= 7 and max(image.size) <= 4096
                assert entry["cards"] <= cols * rows - 1 <= 69
                assert image.width % cols == 0 and image.height % rows == 0


def test_saved_object_decks_and_card_ids(built, small_games):
    out, manifest = built
    for game_id, game in small_games.items():
        for lang in game.meta.languages:
            files = _files(manifest, game_id, lang)
            save = json.loads((out / files[f"{game_id}-{lang}.json"]["path"]).read_text("utf-8"))
            decks = save["ObjectStates"]
            backs_used = _backs_used(game)
            assert len(decks) == len(backs_used)  # one pile per back
            texts = Texts(game, lang)
            lookup = texts_lookup(texts)
            for deck, back in zip(decks, backs_used):
                assert deck["Name"] == "DeckCustom"
                physical = [pc for pc in game.physical_cards() if pc.card.back == back]
                assert len(deck["DeckIDs"]) == len(physical) == len(deck["ContainedObjects"])
                assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
                for card, pc in zip(deck["ContainedObjects"], physical):
                    key, cell = divmod(card["CardID"], 100)
                    entry = deck["CustomDeck"][str(key)]
                    assert card["CustomDeck"] == {str(key): entry}
                    assert cell < entry["NumWidth"] * entry["NumHeight"] - 1  # a face, not the hidden slot
                    assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
                    assert entry["FaceURL"].startswith(f"{URL}/{game_id}/{lang}/tabletop/")
                    sheet = out / entry["FaceURL"][len(URL) + 1:].split("?")[0]
                    assert sheet.is_file() and (out / entry["BackURL"][len(URL) + 1:].split("?")[0]).is_file()
                    assert card["Nickname"] == card_label(game, pc.card, lookup).text
                    assert pc.card.id not in card["Nickname"]
                    rule = pc.card.text.get("rule")
                    assert card["Description"] == (texts.plain(rule) if rule else "")
            guids = [deck["GUID"] for deck in decks] + [c["GUID"] for d in decks for c in d["ContainedObjects"]]
            assert len(set(guids)) == len(guids)


def test_cell_k_is_card_k_scaled(built, small_games):
    out, manifest = built
    for game_id, lang in (("quiz", "ru"), ("mini", "en")):
        game = small_games[game_id]
        faces, backs = _shop_renders(game, lang)
        save = json.loads((out / _files(manifest, game_id, lang)[f"{game_id}-{lang}.json"]["path"]).read_text())
        checked = set()
        for deck, back in zip(save["ObjectStates"], _backs_used(game)):
            physical = [pc for pc in game.physical_cards() if pc.card.back == back]
            card_at = {card["CardID"]: pc.card.id for card, pc in zip(deck["ContainedObjects"], physical)}
            for key, entry in deck["CustomDeck"].items():
                sheet = _image(out, entry["FaceURL"][len(URL) + 1:].split("?")[0])
                cols, rows = entry["NumWidth"], entry["NumHeight"]
                cell_w, cell_h = sheet.width // cols, sheet.height // rows
                for card_id, design in sorted(card_at.items()):
                    if card_id // 100 != int(key):
                        continue
                    cell = _cell(sheet, cols, cell_w, cell_h, card_id % 100)
                    assert _difference(cell, faces[design]) < SAME, (game_id, design)
                    for other in faces:
                        if other != design:
                            assert _difference(cell, faces[other]) > DIFFERENT, (game_id, design, other)
                    checked.add(design)
                hidden = _cell(sheet, cols, cell_w, cell_h, cols * rows - 1)
                assert _difference(hidden, backs[back]) < SAME, (game_id, back)
        assert checked == {card.id for card in game.cards}


def _backs_used(game) -> list[str]:
    used = {card.back for card in game.cards}
    return [back.id for back in game.meta.backs if back.id in used]


def test_sprite_index_coordinates_match_the_sheet(built, small_games):
    out, manifest = built
    for game_id, lang in (("quiz", "en"), ("mini", "ru")):
        game = small_games[game_id]
        files = _files(manifest, game_id, lang)
        index = json.loads((out / files[f"{game_id}-{lang}-sprites.json"]["path"]).read_text("utf-8"))
        assert [s["image"] for s in index["sheets"]] == [f"{game_id}-{lang}-sprites.png"]
        sheet = _image(out, files[index["sheets"][0]["image"]]["path"])
        assert (sheet.mode, sheet.width, sheet.height) == ("RGB", index["sheets"][0]["width"],
                                                           index["sheets"][0]["height"])
        assert max(sheet.size) <= 4096
        faces, backs = _shop_renders(game, lang)
        assert [c["id"] for c in index["cards"]] == [card.id for card in game.cards]
        assert [b["id"] for b in index["backs"]] == [back.id for back in game.meta.backs]
        texts = Texts(game, lang)
        boxes = []
        for entry in index["cards"] + index["backs"]:
            x, y, w, h = entry["x"], entry["y"], entry["w"], entry["h"]
            assert 0 <= x and x + w <= sheet.width and 0 <= y and y + h <= sheet.height
            assert all(x + w <= bx or bx + bw <= x or y + h <= by or by + bh <= y for bx, by, bw, bh in boxes)
            boxes.append((x, y, w, h))
            render = faces[entry["id"]] if "copies" in entry else backs[entry["id"]]
            assert _difference(sheet.crop((x, y, x + w, y + h)), render) < SAME, entry["id"]
        for entry, card in zip(index["cards"], game.cards):
            assert (entry["copies"], entry["back"]) == (card.copies, card.back)
            assert entry["name"] == card_label(game, card, texts_lookup(texts)).text


def test_two_builds_are_byte_identical(built, tmp_path):
    out, manifest = built
    again = _build(tmp_path / "again")
    first = {e["path"]: e["sha256"] for e in manifest["files"]}
    second = {e["path"]: e["sha256"] for e in again["files"]}
    assert first == second
    assert all((out / p).read_bytes() == (tmp_path / "again" / p).read_bytes() for p in first)


def test_fallback_text_is_noted_on_the_json_files(built):
    _, manifest = built
    english = _files(manifest, "quiz", "en")  # the quiz has no English translation
    assert english["quiz-en.json"]["fallback"] > 0 and english["quiz-en-sprites.json"]["fallback"] > 0
    assert "fallback" not in english["quiz-en-sprites.png"]
    assert all("fallback" not in entry for entry in _files(manifest, "quiz", "ru").values())


def test_file_urls_by_default(tmp_path):
    build(BuildOptions(content_dir=DATA / "decks", out_dir=tmp_path, langs=("ru",), producers=("tabletop",),
                       tabletop=("tts",), workers=1))
    save = json.loads((tmp_path / "quiz/ru/tabletop/quiz-ru.json").read_text("utf-8"))
    url = save["ObjectStates"][0]["CustomDeck"].popitem()[1]["FaceURL"]
    assert url == (tmp_path / "quiz/ru/tabletop/quiz-ru-tts-blue-1.png").resolve().as_uri()
    assert not list(tmp_path.rglob("*sprites*"))  # only the format asked for


# --- options ------------------------------------------------------------------------------------------
def test_not_part_of_a_plain_build(tmp_path):
    base = dict(content_dir=DATA / "decks", out_dir=tmp_path)
    assert not [j for j in plan_jobs(BuildOptions(**base)) if j.producer == "tabletop"]
    only = [j for j in plan_jobs(BuildOptions(**base, producers=("tabletop",))) if j.producer == "tabletop"]
    assert [dict(j.args)["formats"] for j in only] == [("tts", "sprites")] * 2
    asked = [j for j in plan_jobs(BuildOptions(**base, tabletop=("sprites",))) if j.producer == "tabletop"]
    assert [dict(j.args)["formats"] for j in asked] == [("sprites",)] * 2
    assert {j.producer for j in plan_jobs(BuildOptions(**base, tabletop=("sprites",)))} == {
        "cards", "rulebook", "rulebook-html", "tabletop"}


def test_bad_options_are_clear_errors(tmp_path):
    with pytest.raises(RenderError, match="expected an http:// or https:// address"):
        check_url("ftp://example.org/")
    assert check_url("https://example.org/x") == "https://example.org/x/"
    with pytest.raises(RenderError, match="unknown tabletop format"):
        wanted_formats(BuildOptions(content_dir=DATA, out_dir=tmp_path, tabletop=("vassal",)))
    from cardgen.cli import cli

    result = CliRunner().invoke(cli, ["--content", str(DATA / "decks"), "build", "--out", str(tmp_path / "o"),
                                      "--tabletop", "tts", "--tabletop-url", "ftp://x"])
    assert result.exit_code == 1 and "ftp://x" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o").exists()
    assert "--tabletop [tts|sprites]" in CliRunner().invoke(cli, ["build", "--help"]).output


def test_square_cards_are_tiles_in_one_deck():
    klepka = load_games(ROOT / "content", ["klepka"])[0]
    assert is_tile(klepka)
    sheets = plan_sheets(klepka, "en")
    assert [(s.grid.cols, s.grid.rows, s.grid.dpi, len(s.cards)) for s in sheets] == [(7, 7, 212, 48)]
    assert sheets[0].grid.cell_w == sheets[0].grid.cell_h
    texts = Texts(klepka, "en")
    words = card_texts(klepka, "en", texts)
    save = saved_object(klepka, "en", sheets, words, texts, {sheets[0].key: "file:///f.png"},
                        {"main": "file:///b.png"})
    [deck] = save["ObjectStates"]
    assert deck["Hands"] is False and all(card["Hands"] is False for card in deck["ContainedObjects"])
    assert len(deck["DeckIDs"]) == 100
    var = next(card for card in klepka.cards if "rule" in card.text)
    assert words[var.id].description == texts.plain(var.text["rule"]) != ""


def test_a_back_on_one_card_is_a_single_card(tmp_path):
    """TTS makes a deck of two cards or more: a lone card is a CardCustom of its own."""
    import shutil

    content = tmp_path / "decks"
    shutil.copytree(DATA / "decks", content)
    for name, old, new in (("game.yaml", "total_cards: 14", "total_cards: 11"),
                           ("game.yaml", "cards: 4\n", "cards: 1\n"), ("game.yaml", "cards: 4}", "cards: 1}"),
                           ("cards.yaml", "copies: 4\n    back: gold", "copies: 1\n    back: gold")):
        path = content / "quiz" / name
        text = path.read_text("utf-8")
        assert old in text
        path.write_text(text.replace(old, new), "utf-8")
    quiz = load_games(content, ["quiz"])[0]
    texts = Texts(quiz, "ru")
    sheets = plan_sheets(quiz, "ru")
    save = saved_object(quiz, "ru", sheets, card_texts(quiz, "ru", texts), texts,
                        {s.key: f"file:///{s.key}.png" for s in sheets}, {"blue": "file:///b", "gold": "file:///g"})
    deck, single = save["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and len(deck["DeckIDs"]) == 10
    assert single["Name"] == "CardCustom" and single["CardID"] // 100 == sheets[1].key
    assert single["Nickname"] == texts.plain("card.bonus-double.name") and "DeckIDs" not in single
    assert single["Transform"]["posX"] > deck["Transform"]["posX"]
