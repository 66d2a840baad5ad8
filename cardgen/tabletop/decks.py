"""Card sheets for digital tabletops: Tabletop Simulator decks and a generic sprite sheet.

Two formats, per game and language, into ``<out>/<game>/<lang>/tabletop/``:

``tts`` -- Tabletop Simulator.  TTS draws a deck from one *face sheet*: a grid of at
most 10 x 7 card faces, at most 4096 px on each side, whose last cell is the picture
shown for a card hidden in another player's hand; plus one back picture.  Files:

* ``GAME-LANG-tts-BACK-N.png``: the face sheets of the cards with back BACK (N from 1),
  one cell per card design (copies share it) in deck order, the last cell the back;
* ``GAME-LANG-tts-BACK-back.png``: that back, one card;
* ``GAME-LANG.json``: the saved object (copy it and ``GAME-LANG.png``, its thumbnail,
  into TTS's "Saved Objects" folder): one ``DeckCustom`` per back -- cards with
  different backs are different piles on the table -- whose ``CustomDeck`` names every
  sheet of that back, and one ``Card`` per physical card (copies included) with its
  name in that language as ``Nickname`` and its text as ``Description``.  A back that
  only one card has becomes a ``CardCustom`` (TTS needs two cards for a deck).

``sprites`` -- ``GAME-LANG-sprites.png`` with every face (one per design) and then
every back, and ``GAME-LANG-sprites.json``, its index (id, name, text, copies, back
and the x, y, w, h of each cell in pixels) for web tables and tools of our own.

Resolution: every sheet is drawn at the best whole dpi at which its grid stays within
4096 x 4096 px, capped at 300 dpi (print resolution: more adds nothing but texture
memory).  A TTS sheet holds at most 69 faces; when a back has more designs they are
shared evenly between as many sheets as needed (and more, should a huge card size
fall below 100 dpi).  With poker cards that is about 200 dpi for a full 8 x 5 sheet.

Square cards (width equal to height) are *tiles*: games lay them out on the table
rather than hold them in a hand, so their decks and cards say ``"Hands": false``
(they cannot be drawn into a hand by mistake; shuffle with R, deal them out by
dragging, flip with F).  TTS shapes each card like its cell, so a square cell gives a
square card.  A deck keeps shuffling and one image per sheet; a ``Custom_Tile`` per
tile would need one image per design and a bag to draw from at random.

``Nickname`` is the card's name in the build language: its ``name`` text, or for a
card without one the label the rulebook prints (``cardgen.i18n.labels``), never its
id.  ``Description`` holds the card's other text fields in that language, the
``rule`` field first, then the others in the order of cards.yaml, one paragraph each.

Image addresses are ``file://`` URLs of the files in the output folder, or
``Destination.url`` (``cardgen build --tabletop-url``) + the file's path inside the output folder when the
folder is served from a web host (with ``?v=`` and the first 12 digits of the
image's SHA-256 appended, because TTS caches images by address and would otherwise
show the old picture after a rebuild).  All images are RGB PNG; equal inputs give
byte-identical files.

Manifest entries: kind ``tabletop``, ``format`` tts or sprites; images carry
``pixels`` and ``dpi`` (sheets also ``grid``: columns, rows) and count their faces in
``cards``; the two JSON files have ``cards`` 0 and ``listed``, the cards they list
with copies (the saved object also ``decks``).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

from cardgen.errors import RenderError

FORMATS = ("tts", "sprites")
FOLDER = "tabletop"

MAX_SHEET_PX = 4096  # TTS's texture limit; also what WebGL guarantees on most devices
TTS_MAX_COLS, TTS_MAX_ROWS = 10, 7
MAX_DPI = 300
MIN_DPI = 100  # below this, split into more sheets instead
THUMBNAIL_PX = 256
PNG_COMPRESS_LEVEL = 6
MM_PER_INCH = 25.4
SQUARE_TOLERANCE_MM = 0.5
DECK_SPACING = 3.0  # TTS units between the decks laid out by the saved object

# TTS CustomDeck "Type": 0 rounded rectangle, 1 rectangle
TTS_ROUNDED, TTS_RECTANGLE = 0, 1


# --- addresses -----------------------------------------------------------------------------------
def check_url(url: str | None) -> str | None:
    """The base address, ending in ``/``; only http(s) addresses are accepted."""
    if url is None:
        return None
    if not url.startswith(("https://", "http://")) or len(url) <= len("https://") or any(c.isspace() for c in url):
        raise RenderError(f"tabletop URL '{url}': expected an http:// or https:// address of the output folder, "
                          "e.g. https://example.org/cards/")
    return url if url.endswith("/") else url + "/"


# --- grids ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """A sheet of ``cols`` x ``rows`` cells of ``cell_w`` x ``cell_h`` px at ``dpi``."""

    cols: int
    rows: int
    dpi: int
    cell_w: int
    cell_h: int

    @property
    def cells(self) -> int:
        return self.cols * self.rows

    @property
    def width(self) -> int:
        return self.cols * self.cell_w

    @property
    def height(self) -> int:
        return self.rows * self.cell_h

    def origin(self, index: int) -> tuple[int, int]:
        """Top-left pixel of cell ``index`` (row by row, as TTS counts)."""
        return (index % self.cols) * self.cell_w, (index // self.cols) * self.cell_h


def cell_pixels(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    return max(1, round(width_mm / MM_PER_INCH * dpi)), max(1, round(height_mm / MM_PER_INCH * dpi))


def best_grid(cells: int, width_mm: float, height_mm: float, max_cols: int | None = None,
              max_rows: int | None = None, max_px: int = MAX_SHEET_PX, max_dpi: int = MAX_DPI) -> Grid | None:
    """The grid of at least ``cells`` cells with the highest whole dpi within ``max_px`` on both
    sides (then the fewest cells, then the fewest rows); None when no grid fits at 1 dpi."""
    best: tuple | None = None
    w_in, h_in = width_mm / MM_PER_INCH, height_mm / MM_PER_INCH
    for cols in range(1, min(max_cols or cells, cells) + 1):
        rows = -(-cells // cols)
        if max_rows is not None and rows > max_rows:
            continue
        dpi = math.floor(min(max_px / (cols * w_in), max_px / (rows * h_in), max_dpi))
        while dpi >= 1:
            cw, ch = cell_pixels(width_mm, height_mm, dpi)
            if cols * cw <= max_px and rows * ch <= max_px:
                break
            dpi -= 1
        if dpi < 1:
            continue
        rank = (-dpi, cols * rows, rows)
        if best is None or rank < best[0]:
            best = (rank, Grid(cols, rows, dpi, *cell_pixels(width_mm, height_mm, dpi)))
    return best[1] if best else None


def split_into_sheets(items: list, extra_cells: int, width_mm: float, height_mm: float, max_cols: int | None,
                      max_rows: int | None, what: str) -> list[tuple[list, Grid]]:
    """``items`` shared evenly between the fewest sheets whose grids (each with ``extra_cells``
    more cells) fit and reach :data:`MIN_DPI` -- or, failing that, the most legible ones."""
    capacity = (max_cols * max_rows - extra_cells) if max_cols and max_rows else len(items)
    if capacity < 1:
        raise RenderError(f"{what}: a sheet has no room for a card")
    sheets = max(1, -(-len(items) // capacity))
    fallback = None
    while sheets <= max(1, len(items)):
        size = -(-len(items) // sheets)
        chunks = [items[i * size:(i + 1) * size] for i in range(sheets)]
        chunks = [c for c in chunks if c]
        grids = [best_grid(len(c) + extra_cells, width_mm, height_mm, max_cols, max_rows) for c in chunks]
        if all(grids):
            planned = list(zip(chunks, grids))
            if min(g.dpi for g in grids) >= MIN_DPI:
                return planned
            fallback = fallback or planned
        sheets += 1
    if fallback is None:
        raise RenderError(f"{what}: a {width_mm:g} x {height_mm:g} mm card does not fit a "
                          f"{MAX_SHEET_PX} px sheet")
    return fallback


def is_tile(game) -> bool:
    """Square cards are tiles laid on the table, not cards held in a hand."""
    size = game.meta.card_size
    return abs(size.width_mm - size.height_mm) <= SQUARE_TOLERANCE_MM


# --- what the cards say -------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardText:
    name: str
    description: str


def card_texts(game, lang: str, texts) -> dict[str, CardText]:
    """card id -> its name (or label) and its other text fields, rule first, in ``lang``."""
    from cardgen.i18n.labels import NAME_FIELD, card_label, texts_lookup

    lookup = texts_lookup(texts)
    found: dict[str, CardText] = {}
    for card in game.cards:
        fields = [f for f in card.text if f != NAME_FIELD]
        fields.sort(key=lambda f: f != "rule")  # stable: the rule first, the rest as written
        paragraphs = [texts.plain(card.text[f]).strip() for f in fields]
        found[card.id] = CardText(card_label(game, card, lookup).text,
                                  "\n\n".join(p for p in paragraphs if p))
    return found


def back_name(game, back_id: str, texts) -> str:
    back = next(b for b in game.meta.backs if b.id == back_id)
    return texts.plain(back.name) if back.name else ""


# --- pixels -------------------------------------------------------------------------------------------
class Rasters:
    """Card plans drawn at given pixel sizes through the same PDF drawing as every other
    output (PDFium), each plan and size once."""

    def __init__(self, renderer):
        self.renderer = renderer
        self._done: dict[tuple[str, int, int, int], object] = {}

    def draw(self, plans: list, cell_w: int, cell_h: int, dpi: int) -> list:
        """PIL RGB images of ``plans``, each exactly cell_w x cell_h px."""
        from cardgen.cards.png import plans_pdf

        todo = {}
        for plan in plans:
            key = (plan.key, cell_w, cell_h, dpi)
            if key not in self._done:
                todo.setdefault(key, plan)
        if todo:
            pdf = plans_pdf(self.renderer, list(todo.values()), cell_w, cell_h, dpi)
            for key, image in zip(todo, _rasterise(pdf, cell_w, cell_h)):
                self._done[key] = image
        return [self._done[(plan.key, cell_w, cell_h, dpi)] for plan in plans]


def _rasterise(pdf: bytes, width_px: int, height_px: int) -> list:
    import pypdfium2 as pdfium

    images = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(doc)):
            page = doc[index]
            page_w, _ = page.get_size()
            bitmap = page.render(scale=width_px / page_w * (1 - 1e-9), draw_annots=False, rev_byteorder=True)
            image = bitmap.to_pil()
            if image.mode != "RGB" or image.width < width_px or image.height < height_px:
                raise RenderError(f"unexpected raster {image.width} x {image.height} {image.mode}")
            images.append(image.crop((0, 0, width_px, height_px)))
            bitmap.close()
            page.close()
    finally:
        doc.close()
    return images


def compose(grid: Grid, cells: dict[int, object]):
    """The sheet image: ``cells`` (index -> image) pasted into ``grid``; empty cells white."""
    from PIL import Image

    sheet = Image.new("RGB", (grid.width, grid.height), (255, 255, 255))
    for index, image in sorted(cells.items()):
        sheet.paste(image, grid.origin(index))
    return sheet


def png(image, dpi: int) -> bytes:
    """RGB PNG bytes; Pillow writes no time or other varying chunk, so equal pixels give equal bytes."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL, dpi=(dpi, dpi))
    return buffer.getvalue()


# --- the files -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Destination:
    """Where the files go: ``write(relpath, data, **manifest fields)`` stores one file and
    returns what the caller keeps of it; ``out_dir`` and ``url`` make the addresses TTS
    loads the pictures from (``url``: where the output folder is served, None: file://)."""

    write: Callable[..., Any]
    out_dir: Path
    url: str | None = None


def make(game, lang: str, formats: tuple[str, ...], texts, renderer, dest: Destination) -> list:
    """Draw and write the sheets of ``formats`` for ``game`` in ``lang``; what ``dest.write`` returned."""
    words = card_texts(game, lang, texts)
    rasters = Rasters(renderer)
    out: list = []
    if "tts" in formats:
        out += write_tts(dest, game, lang, words, texts, rasters)
    if "sprites" in formats:
        out += write_sprites(dest, game, lang, words, texts, rasters)
    return out


def folder(game_id: str, lang: str) -> str:
    return f"{game_id}/{lang}/{FOLDER}"


def address(dest: Destination, relpath: str, data: bytes) -> str:
    """Where TTS finds the file written at ``relpath`` (see the module docstring)."""
    base = check_url(dest.url)
    if base is None:
        return Path(dest.out_dir).resolve().joinpath(*relpath.split("/")).as_uri()
    return f"{base}{quote(relpath)}?v={hashlib.sha256(data).hexdigest()[:12]}"


def write_sprites(dest: Destination, game, lang: str, words: dict[str, CardText], texts,
                  rasters: Rasters) -> list:
    """The sprite sheet(s) and their JSON index."""
    renderer = rasters.renderer
    size = game.meta.card_size
    items = [("card", card) for card in game.cards] + [("back", back) for back in game.meta.backs]
    sheets = split_into_sheets(items, 0, size.width_mm, size.height_mm, None, None,
                               f"sprite sheet of '{game.id}'")
    stem = f"{folder(game.id, lang)}/{game.id}-{lang}-sprites"
    out: list = []
    cards, backs, images = [], [], []
    for number, (chunk, grid) in enumerate(sheets):
        plans = [renderer.face(obj) if kind == "card" else renderer.back(obj.id) for kind, obj in chunk]
        drawn = rasters.draw(plans, grid.cell_w, grid.cell_h, grid.dpi)
        data = png(compose(grid, dict(enumerate(drawn))), grid.dpi)
        name = f"{stem}.png" if len(sheets) == 1 else f"{stem}-{number + 1}.png"
        out.append(dest.write(name, data, game=game.id, kind="tabletop", lang=lang,
                                  cards=sum(kind == "card" for kind, _ in chunk), format="sprites",
                                  pixels=[grid.width, grid.height], dpi=grid.dpi, grid=[grid.cols, grid.rows]))
        images.append({"image": name.rsplit("/", 1)[1], "width": grid.width, "height": grid.height,
                       "dpi": grid.dpi})
        for index, (kind, obj) in enumerate(chunk):
            x, y = grid.origin(index)
            where = {"sheet": number, "x": x, "y": y, "w": grid.cell_w, "h": grid.cell_h}
            if kind == "card":
                cards.append({"id": obj.id, "name": words[obj.id].name, "text": words[obj.id].description,
                              "copies": obj.copies, "back": obj.back, "group": obj.group, "kind": obj.kind,
                              **where})
            else:
                backs.append({"id": obj.id, "name": back_name(game, obj.id, texts), **where})
    index = {
        "format": "cardgen-sprites", "version": 1, "game": game.id, "lang": lang,
        "title": texts.plain(game.meta.title),
        "card_mm": {"width": size.width_mm, "height": size.height_mm,
                    "corner_radius": getattr(size, "corner_radius_mm", 0.0)},
        "tiles": is_tile(game), "sheets": images, "cards": cards, "backs": backs,
    }
    data = (json.dumps(index, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    out.append(dest.write(f"{stem}.json", data, game=game.id, kind="tabletop", lang=lang,
                              cards=0, format="sprites", listed=sum(c["copies"] for c in cards)))
    return out


# --- Tabletop Simulator ---------------------------------------------------------------------------------
# Saved-object facts relied on here (TTS's own save format): a card's ``CardID`` is
# ``deck key * 100 + cell``, cells counted row by row from 0 on the face sheet named by
# ``CustomDeck[deck key]``; a deck lists its cards' ids in ``DeckIDs``, in the order of its
# ``ContainedObjects``, one per card; ``BackIsHidden: true`` shows the back for hidden cards
# (the sheet's last cell holds the back as well, for players who turn that option off);
# ``UniqueBack: false`` means one back picture for every card of the sheet.  Deck keys are
# derived from the game and language, so that the saved objects of several games or
# languages can share a table without their keys meeting.

MAX_SHEETS = 100  # deck keys of one save: base + 0..99
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's default tint of cards


@dataclass(frozen=True)
class Sheet:
    back: str
    number: int  # 1-based among the sheets of this back
    key: int  # the CustomDeck key
    cards: tuple  # content Cards, one cell each, in deck order
    grid: Grid

    @property
    def hidden_cell(self) -> int:
        return self.grid.cells - 1


def deck_key_base(game_id: str, lang: str) -> int:
    """First CustomDeck key of a game's save: the same for every build, and unlikely to be
    that of another game or language (keys stay far below TTS's 32-bit CardIDs)."""
    digest = int(hashlib.sha256(f"{game_id}/{lang}".encode("utf-8")).hexdigest()[:8], 16)
    return 1000 + (digest % 10000) * MAX_SHEETS


def plan_sheets(game, lang: str) -> list[Sheet]:
    """The face sheets of every back with cards, backs in game.yaml's order."""
    size = game.meta.card_size
    base = deck_key_base(game.id, lang)
    sheets: list[Sheet] = []
    for back in game.meta.backs:
        cards = [card for card in game.cards if card.back == back.id]
        if not cards:
            continue
        chunks = split_into_sheets(cards, 1, size.width_mm, size.height_mm, TTS_MAX_COLS, TTS_MAX_ROWS,
                                   f"Tabletop Simulator sheets of '{game.id}' back '{back.id}'")
        for number, (chunk, grid) in enumerate(chunks, 1):
            if len(sheets) >= MAX_SHEETS:
                raise RenderError(f"'{game.id}' needs more than {MAX_SHEETS} Tabletop Simulator sheets")
            sheets.append(Sheet(back.id, number, base + len(sheets), tuple(chunk), grid))
    return sheets


def write_tts(dest: Destination, game, lang: str, words: dict[str, CardText], texts,
              rasters: Rasters) -> list:
    renderer = rasters.renderer
    size = game.meta.card_size
    where = folder(game.id, lang)
    stem = f"{where}/{game.id}-{lang}"
    sheets = plan_sheets(game, lang)
    out: list = []
    face_urls: dict[int, str] = {}
    for sheet in sheets:
        grid = sheet.grid
        drawn = rasters.draw([renderer.face(card) for card in sheet.cards], grid.cell_w, grid.cell_h, grid.dpi)
        cells = dict(enumerate(drawn))
        cells[sheet.hidden_cell] = rasters.draw([renderer.back(sheet.back)], grid.cell_w, grid.cell_h, grid.dpi)[0]
        data = png(compose(grid, cells), grid.dpi)
        path = f"{stem}-tts-{sheet.back}-{sheet.number}.png"
        face_urls[sheet.key] = address(dest, path, data)
        out.append(dest.write(path, data, game=game.id, kind="tabletop", lang=lang,
                                  cards=len(sheet.cards), format="tts", pixels=[grid.width, grid.height],
                                  dpi=grid.dpi, grid=[grid.cols, grid.rows]))
    back_urls: dict[str, str] = {}
    for back in dict.fromkeys(sheet.back for sheet in sheets):
        dpi = max(sheet.grid.dpi for sheet in sheets if sheet.back == back)
        w, h = cell_pixels(size.width_mm, size.height_mm, dpi)
        data = png(rasters.draw([renderer.back(back)], w, h, dpi)[0], dpi)
        path = f"{stem}-tts-{back}-back.png"
        back_urls[back] = address(dest, path, data)
        out.append(dest.write(path, data, game=game.id, kind="tabletop", lang=lang, cards=0,
                                  format="tts", pixels=[w, h], dpi=dpi))
    save = saved_object(game, lang, sheets, words, texts, face_urls, back_urls)
    data = (json.dumps(save, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    out.append(dest.write(f"{stem}.json", data, game=game.id, kind="tabletop", lang=lang,
                              cards=0, format="tts", decks=len(save["ObjectStates"]),
                              listed=sum(card.copies for card in game.cards)))
    # TTS shows "Saved Objects" with the picture of the same name beside them
    first = sheets[0].cards[0]
    dpi = math.floor(THUMBNAIL_PX / (max(size.width_mm, size.height_mm) / MM_PER_INCH))
    w, h = cell_pixels(size.width_mm, size.height_mm, dpi)
    data = png(rasters.draw([renderer.face(first)], w, h, dpi)[0], dpi)
    out.append(dest.write(f"{stem}.png", data, game=game.id, kind="tabletop", lang=lang, cards=1,
                              format="tts", pixels=[w, h], dpi=dpi))
    return out


def saved_object(game, lang: str, sheets: list[Sheet], words: dict[str, CardText], texts,
                 face_urls: dict[int, str], back_urls: dict[str, str]) -> dict:
    """The TTS save: one deck (or single card) per back, laid side by side, face down."""
    size = game.meta.card_size
    shape = TTS_ROUNDED if getattr(size, "corner_radius_mm", 0.0) > 0 else TTS_RECTANGLE
    hands = not is_tile(game)
    title = texts.plain(game.meta.title)
    entries = {sheet.key: {"FaceURL": face_urls[sheet.key], "BackURL": back_urls[sheet.back],
                           "NumWidth": sheet.grid.cols, "NumHeight": sheet.grid.rows,
                           "BackIsHidden": True, "UniqueBack": False, "Type": shape}
               for sheet in sheets}
    cell_of = {card.id: (sheet.key, index) for sheet in sheets for index, card in enumerate(sheet.cards)}
    backs = list(dict.fromkeys(sheet.back for sheet in sheets))
    guid = _Guids(game.id, lang)
    objects = []
    for position, back in enumerate(backs):
        physical = [pc for pc in game.physical_cards() if pc.card.back == back]
        keys = sorted({cell_of[pc.card.id][0] for pc in physical})
        custom = {str(key): entries[key] for key in keys}
        nickname = title if len(backs) == 1 else f"{title} — {back_name(game, back, texts)}"
        cards = []
        for n, pc in enumerate(physical):
            key, index = cell_of[pc.card.id]
            card = _object("Card", guid(back, n), words[pc.card.id].name,
                           words[pc.card.id].description, _transform(0.0), hands)
            card.update({"CardID": key * 100 + index, "SidewaysCard": False,
                         "CustomDeck": {str(key): entries[key]}})
            cards.append(card)
        if len(cards) == 1:  # TTS makes a deck of two cards or more
            single = cards[0]
            single["Name"] = "CardCustom"
            single["Transform"] = _transform(position * DECK_SPACING)
            objects.append(single)
            continue
        deck = _object("DeckCustom", guid(back, "deck"), nickname, "",
                       _transform(position * DECK_SPACING), hands)
        deck.update({"SidewaysCard": False, "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": custom,
                     "ContainedObjects": cards})
        objects.append(deck)
    return {"SaveName": title, "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "",
            "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
            "Note": "", "TabStates": {}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
            "ObjectStates": objects}


def _object(name: str, guid: str, nickname: str, description: str, transform: dict, hands: bool) -> dict:
    return {"GUID": guid, "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "GMNotes": "", "ColorDiffuse": dict(GREY), "Locked": False,
            "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True,
            "Tooltip": True, "GridProjection": False, "HideWhenFaceDown": True, "Hands": hands,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _transform(x: float) -> dict:
    # face down (rotZ 180), the way a deck is dealt from
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


class _Guids:
    """Stable 6-digit hex GUIDs (TTS's form), different for every object of a save."""

    def __init__(self, *prefix):
        self.prefix = prefix
        self.seen: set[str] = set()

    def __call__(self, *parts) -> str:
        for attempt in range(1000):
            text = "/".join(map(str, (*self.prefix, *parts, attempt)))
            guid = hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]
            if guid not in self.seen:
                self.seen.add(guid)
                return guid
        raise RenderError("no free Tabletop Simulator GUID")  # 1000 collisions in 16.7 million: never
