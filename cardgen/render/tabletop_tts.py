"""Tabletop Simulator decks: face sheets, back pictures, thumbnail and the saved object.

:mod:`cardgen.render.tabletop` explains the files and the choices behind them; this
module lays out the sheets and writes TTS's JSON.

Saved-object facts relied on here (TTS's own save format): a card's ``CardID`` is
``deck key * 100 + cell``, cells counted row by row from 0 on the face sheet named by
``CustomDeck[deck key]``; a deck lists its cards' ids in ``DeckIDs``, in the order of
its ``ContainedObjects``, one per card in ``ContainedObjects``; ``BackIsHidden: true`` shows the back
for hidden cards (the sheet's last cell holds the back as well, for players who turn
that option off); ``UniqueBack: false`` means one back picture for every card of the
sheet.  Deck keys are derived from the game and language, so that the saved objects
of several games or languages can share a table without their keys meeting.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

from cardgen.build import Artefact, BuildOptions, write_artefact
from cardgen.errors import RenderError
from cardgen.render.tabletop import (DECK_SPACING, MM_PER_INCH, THUMBNAIL_PX, TTS_MAX_COLS, TTS_MAX_ROWS,
                                     TTS_RECTANGLE, TTS_ROUNDED, CardText, Grid, Rasters, address, back_name,
                                     cell_pixels, compose, folder, is_tile, png, split_into_sheets)

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


def write_tts(options: BuildOptions, game, lang: str, words: dict[str, CardText], texts,
              rasters: Rasters) -> list[Artefact]:
    renderer = rasters.renderer
    size = game.meta.card_size
    where = folder(game.id, lang)
    stem = f"{where}/{game.id}-{lang}"
    sheets = plan_sheets(game, lang)
    out: list[Artefact] = []
    face_urls: dict[int, str] = {}
    for sheet in sheets:
        grid = sheet.grid
        drawn = rasters.draw([renderer.face(card) for card in sheet.cards], grid.cell_w, grid.cell_h, grid.dpi)
        cells = dict(enumerate(drawn))
        cells[sheet.hidden_cell] = rasters.draw([renderer.back(sheet.back)], grid.cell_w, grid.cell_h, grid.dpi)[0]
        data = png(compose(grid, cells), grid.dpi)
        path = f"{stem}-tts-{sheet.back}-{sheet.number}.png"
        face_urls[sheet.key] = address(options, path, data)
        out.append(write_artefact(options, path, data, game=game.id, kind="tabletop", lang=lang,
                                  cards=len(sheet.cards), format="tts", pixels=[grid.width, grid.height],
                                  dpi=grid.dpi, grid=[grid.cols, grid.rows]))
    back_urls: dict[str, str] = {}
    for back in dict.fromkeys(sheet.back for sheet in sheets):
        dpi = max(sheet.grid.dpi for sheet in sheets if sheet.back == back)
        w, h = cell_pixels(size.width_mm, size.height_mm, dpi)
        data = png(rasters.draw([renderer.back(back)], w, h, dpi)[0], dpi)
        path = f"{stem}-tts-{back}-back.png"
        back_urls[back] = address(options, path, data)
        out.append(write_artefact(options, path, data, game=game.id, kind="tabletop", lang=lang, cards=0,
                                  format="tts", pixels=[w, h], dpi=dpi))
    save = saved_object(game, lang, sheets, words, texts, face_urls, back_urls)
    data = (json.dumps(save, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    out.append(write_artefact(options, f"{stem}.json", data, game=game.id, kind="tabletop", lang=lang,
                              cards=0, format="tts", decks=len(save["ObjectStates"]),
                              listed=sum(card.copies for card in game.cards)))
    # TTS shows "Saved Objects" with the picture of the same name beside them
    first = sheets[0].cards[0]
    dpi = math.floor(THUMBNAIL_PX / (max(size.width_mm, size.height_mm) / MM_PER_INCH))
    w, h = cell_pixels(size.width_mm, size.height_mm, dpi)
    data = png(rasters.draw([renderer.face(first)], w, h, dpi)[0], dpi)
    out.append(write_artefact(options, f"{stem}.png", data, game=game.id, kind="tabletop", lang=lang, cards=1,
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
