"""The rulebook as a web page: the same content as the PDFs, for a screen and a screen reader.

:func:`build_web_rulebook` renders the rulebook template (:func:`cardgen.rulebook.book.render_html`)
for a screen: a stylesheet of its own (``templates/rulebook/web.css``: system fonts, a readable
line length, nothing below 16 px, colours of at least 4.5:1), landmarks (the cover as the
header, the contents as a named navigation, the rules as the main part), every card picture a
PNG file beside the page with the card's name and rule as its alt text, and the game's own
pictures (a cover, a diagram) copied beside it.  Nothing is loaded from elsewhere.

The page is ``<game>-<lang>-rules.html`` and its files sit in ``<game>-<lang>-rules-html/`` next
to it (:func:`files_folder`), so the pair can be copied anywhere together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from cardgen import resources
from cardgen.errors import RenderError

if TYPE_CHECKING:
    from cardgen.content import Game

STYLESHEET = "web.css"
_ART_SRC = re.compile(r'src="cardgen-art:([^"]+)"')


def page_name(game_id: str, language: str) -> str:
    return f"{game_id}-{language}-rules.html"


def files_folder(game_id: str, language: str) -> str:
    return f"{game_id}-{language}-rules-html"


@dataclass
class WebPlace:
    """Where the page finds its stylesheet and pictures (addresses relative to the page)."""

    folder: str
    wanted: list[str] = field(default_factory=list)  # card ids whose pictures the page shows

    @property
    def stylesheet(self) -> str:
        return f"{self.folder}/rules.css"

    def picture(self, card_id: str) -> str:
        if card_id not in self.wanted:
            self.wanted.append(card_id)
        return f"{self.folder}/cards/{quote(card_id)}.png"


@dataclass
class WebRulebook:
    game: str
    language: str
    html: bytes
    files: list[tuple[str, bytes]]  # (path relative to the page's folder, bytes)
    warnings: list


def build_web_rulebook(game: "Game", language: str, *, content_dir: Path | None = None,
                       templates_dir: Path | None = None, strict: bool = False) -> WebRulebook:
    """The web page of the rulebook of ``game`` in ``language`` and the files it needs."""
    from cardgen.rulebook import images
    from cardgen.rulebook.book import render_html
    from cardgen.rulebook.fetcher import FencedFetcher

    templates_dir = templates_dir or resources.RULEBOOK_TEMPLATES
    place = WebPlace(files_folder(game.id, language))
    html, texts = render_html(game, language, "a4", content_dir=content_dir, templates_dir=templates_dir,
                              strict=strict, web=place)
    files: list[tuple[str, bytes]] = [(place.stylesheet, (templates_dir / STYLESHEET).read_bytes())]
    for card_id in place.wanted:
        png = images.card_png(game, card_id, language)
        if png is None:
            raise RenderError(f"no picture of card '{card_id}' for the web rulebook")
        files.append((f"{place.folder}/cards/{card_id}.png", png))
    # the game's own pictures: read as the PDF reads them (fenced in the game folder), copied beside the page
    fetcher = FencedFetcher([], art_root=game.root)
    copied: dict[str, str] = {}

    def copy(match: re.Match) -> str:
        name = unquote(match.group(1))
        if name not in copied:
            response = fetcher.fetch(f"cardgen-art:{match.group(1)}")
            target = f"{place.folder}/art/{len(copied) + 1}-{re.sub(r'[^A-Za-z0-9._-]', '_', Path(name).name)}"
            files.append((target, response.read()))
            copied[name] = target
        return f'src="{quote(copied[name])}"'

    html = _ART_SRC.sub(copy, html)
    fetcher.check()
    return WebRulebook(game.id, language, html.encode("utf-8"), files, list(texts.warnings))


__all__ = ["WebPlace", "WebRulebook", "build_web_rulebook", "files_folder", "page_name"]
