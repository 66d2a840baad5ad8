"""The studio's HTML pages, from jinja2 templates in ``templates/studio/``.

Three pages: the overview (every game with its counts and problems), a game's gallery in one
language (every face by group and kind, then the backs, with badges and the composition), and
a card's page (its pictures and text in every language side by side, and the YAML it comes
from).  Every page carries the studio's version; its script asks for the page again when the
server says something changed (see ``studio.js``).  Text from the content is escaped by jinja2.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from cardgen import resources
from cardgen.errors import CardgenError
from cardgen.i18n.names import language_name
from cardgen.studio.state import GameView, Studio

TEMPLATES = resources.STUDIO_TEMPLATES
BADGES = ("overflow", "error", "glyphs", "shrunk", "fitted", "fallback", "fuzzy")
BADGE_TITLES = {
    "overflow": "text does not fit its box",
    "error": "cannot be drawn",
    "glyphs": "characters no face of the font has: printed as empty boxes",
    "shrunk": "text fits only under the layout's body size (a warning; build --strict fails)",
    "fitted": "text printed smaller than the layout's size to fit, within what the layout allows",
    "fallback": "no translation: printed in the source language",
    "fuzzy": "translation is fuzzy or stale: printed in the source language",
}
SNIPPET_LINES = 12  # lines of cards.yaml shown from a card's first line
MAX_SNIPPET_BYTES = 2 * 1024 * 1024


def vision_filters() -> list[tuple[str, str]]:
    """(vision, feColorMatrix values) of the studio's colour-vision switch: Machado 2009 at full
    severity, which works on linear RGB as an SVG filter does with color-interpolation-filters linearRGB."""
    from cardgen.color.vision import MACHADO_MATRICES

    return [(name, " ".join(" ".join(f"{v:g}" for v in row) + " 0 0" for row in matrix) + " 0 0 0 1 0")
            for name, matrix in MACHADO_MATRICES.items()]


def _alt_text(view: GameView, lang: str, side: str, item_id: str) -> str:
    """What a card picture shows, for a screen reader: the card's name in that language (or the
    label the rulebook prints), a back's name; the id when the game gives neither."""
    from cardgen.i18n.labels import card_label, game_lookup

    game = view.game
    try:
        if side == "back":
            back = next(b for b in game.meta.backs if b.id == item_id)
            return f"back: {game.text(back.name, lang)}"
        return card_label(game, game.card(item_id), game_lookup(game, lang)).text
    except (CardgenError, KeyError, StopIteration, AttributeError):
        return item_id


class Pages:
    def __init__(self, studio: Studio):
        from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

        self.studio = studio
        self.env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                               autoescape=select_autoescape(default=True, default_for_string=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.globals.update(badge_titles=BADGE_TITLES, url=url, vision_filters=vision_filters())

    # -- pages ---------------------------------------------------------------------------------
    def overview(self) -> str:
        studio = self.studio
        rows = []
        for view in studio.games.values():
            game = view.game
            rows.append({
                "id": view.id,
                "title": game.text(game.meta.title) if game else view.id,
                "languages": view.languages,
                "source": game.meta.source_language if game else "",
                "designs": len(game.cards) if game else 0,
                "cards": sum(card.copies for card in game.cards) if game else 0,
                "backs": len(game.meta.backs) if game else 0,
                "badges": _badge_counts(view),
                "errors": len(view.errors),
                "warnings": len(view.warnings),
                "stale": view.stale,
            })
        problems = [(view.id, self._errors(view)) for view in studio.games.values() if view.errors]
        notices = [(view.id, [self._error(w) for w in view.warnings]) for view in studio.games.values() if view.warnings]
        return self._render("overview.html.j2", title="cardgen studio", game_id="", rows=rows,
                            problems=problems, notices=notices, lang="")

    def gallery(self, game_id: str, lang: str) -> str | None:
        view = self.studio.games.get(game_id)
        if view is not None and view.game is None:
            return self._unloaded(view)
        if view is None or lang not in view.languages:
            return None
        game = view.game
        sections = []
        for group in game.meta.groups:
            kinds = [(None, [c for c in game.cards if c.group == group.id and c.kind is None])]
            kinds += [(kind, [c for c in game.cards if c.group == group.id and c.kind == kind.id])
                      for kind in group.kinds]
            blocks = [{
                "id": f"{group.id}-{kind.id}" if kind else group.id,
                "name": game.text(kind.name, lang) if kind else "",
                "designs": len(cards),
                "copies": sum(c.copies for c in cards),
                "declared": kind.cards if kind else None,
                "figures": [self._figure(view, lang, "face", card.id, card.copies) for card in cards],
            } for kind, cards in kinds if cards or kind is not None]
            sections.append({"id": group.id, "name": game.text(group.name, lang), "color": group.color,
                             "declared": group.cards, "copies": sum(b["copies"] for b in blocks),
                             "blocks": blocks})
        backs = [self._figure(view, lang, "back", back.id, 0) for back in game.meta.backs]
        return self._render("gallery.html.j2", title=f"{game.text(game.meta.title, lang)} · {lang}", game_id=game_id,
                            lang=lang, view=view, sections=sections, backs=backs,
                            badges=_badge_counts(view, lang),
                            total=sum(c.copies for c in game.cards), declared_total=game.meta.total_cards,
                            errors=self._errors(view), languages=view.languages, size=self._size(game))

    def card(self, game_id: str, lang: str, card_id: str) -> str | None:
        view = self.studio.games.get(game_id)
        if view is None or view.game is None or lang not in view.languages:
            return None
        game = view.game
        try:
            card = game.card(card_id)
        except KeyError:
            return None
        index = [c.id for c in game.cards].index(card_id)
        neighbours = {"previous": game.cards[index - 1].id if index > 0 else None,
                      "next": game.cards[index + 1].id if index + 1 < len(game.cards) else None}
        faces = [self._figure(view, other, "face", card.id, card.copies) | {"lang": other} for other in view.languages]
        back = self._figure(view, lang, "back", card.back, 0)
        return self._render("card.html.j2", title=f"{card.id} · {game.id}", game_id=game_id, lang=lang, view=view,
                            card=card, faces=faces, back=back, source=self._source(game, card_id),
                            texts=self._texts(view, card), neighbours=neighbours, languages=view.languages,
                            group=game.text(next(g.name for g in game.meta.groups if g.id == card.group), lang),
                            errors=self._errors(view), size=self._size(game))

    def not_found(self, what: str) -> str:
        return self._render("notfound.html.j2", title="not found", game_id="", lang="", what=what)

    def _unloaded(self, view: GameView) -> str:
        """A game that has not loaded once yet: only its errors."""
        return self._render("gallery.html.j2", title=view.id, game_id=view.id, lang="", view=view, sections=[],
                            backs=[], badges={}, total=0, declared_total=0, errors=self._errors(view),
                            languages=[], size=(0, 0))

    # -- parts ---------------------------------------------------------------------------------
    def _render(self, template: str, **context) -> str:
        studio = self.studio
        games = [(v.id, bool(v.errors), v.languages[0] if v.languages else "") for v in studio.games.values()]
        if context.get("lang") and context.get("game_id") in studio.games:
            lang = context["lang"]
            games = [(gid, bad, lang if lang in studio.games[gid].languages else first)
                     for gid, bad, first in games]
        return self.env.get_template(template).render(version=studio.version, nav=games, failure=studio.failure,
                                                     **context)

    def _figure(self, view: GameView, lang: str, side: str, item_id: str, copies: int) -> dict:
        card = view.view(lang, side, item_id)
        return {
            "side": side,
            "id": item_id,
            "name": _caption(view, lang, side, item_id),
            "alt": _alt_text(view, lang, side, item_id),
            "copies": copies,
            "src": url("img", view.id, lang, side, f"{item_id}.png") + f"?v={card.version}" if card and card.plan else None,
            "error": card.error if card else "not planned",
            "where": card.where if card else "",
            "badges": card.badges if card else (),
            "notes": card.notes if card else (),
            "href": url("g", view.id, lang, "card", item_id) if side == "face" else None,
        }

    def _size(self, game) -> tuple[int, int]:
        """The pictures' pixel size (the trim plus the shop bleed at the studio's dpi)."""
        from cardgen.cards.png import STANDARD_BLEED_MM

        size = game.meta.card_size
        return (round((size.width_mm + 2 * STANDARD_BLEED_MM) / 25.4 * self.studio.dpi),
                round((size.height_mm + 2 * STANDARD_BLEED_MM) / 25.4 * self.studio.dpi))

    def _errors(self, view: GameView) -> list[dict]:
        return [self._error(error) for error in view.errors]

    def _error(self, error: CardgenError) -> dict:
        loc = error.locator
        shown: list[tuple[int, str, bool]] = []
        if loc.file is not None and loc.line is not None:
            lines = self._lines(Path(loc.file)) or []
            if 0 < loc.line <= len(lines):  # the line and the one before (YAML errors often start there)
                shown = [(n, lines[n - 1], n == loc.line) for n in range(max(1, loc.line - 1), loc.line + 1)]
        return {"where": str(loc), "file": str(loc.file or ""), "line": loc.line, "column": loc.column,
                "message": error.message, "lines": shown}

    def _lines(self, shown: Path) -> list[str] | None:
        """The lines of a file a message names (relative to the content folder's parent), when it
        lies in the content or templates folder; None otherwise."""
        from cardgen.content.safefile import UnsafeFile, inside, read_capped

        studio = self.studio
        path = shown if shown.is_absolute() else studio.content_dir.parent / shown
        for root in (studio.content_dir.resolve(), studio.templates_dir.resolve()):  # top folders: wherever they lead
            if inside(path, root):
                try:
                    return read_capped(path, MAX_SNIPPET_BYTES, root=root).decode("utf-8", "replace").splitlines()
                except (UnsafeFile, OSError):
                    return None
        return None

    def _source(self, game, card_id: str) -> dict:
        """Where the card is written: file and line (a generated card: its generator's lines)."""
        doc = game.documents.get("cards.yaml")
        cards = doc.data.get("cards", []) if doc is not None and isinstance(doc.data, dict) else []
        index = next((i for i, c in enumerate(cards) if isinstance(c, dict) and c.get("id") == card_id), None)
        if doc is None or index is None:
            return {"where": "", "lines": []}
        loc = doc.locate(("cards", index))
        lines = self._lines(Path(loc.file)) or []
        first = max(1, (loc.line or 1) - 1)
        shown = [(n, lines[n - 1], n == loc.line) for n in range(first, min(len(lines), first + SNIPPET_LINES) + 1)]
        return {"where": f"{loc.file}:{loc.line}" if loc.line else str(loc.file), "lines": shown}

    def _texts(self, view: GameView, card) -> list[dict]:
        """Each text field of the card in every language: what prints, and where it comes from."""
        from cardgen.i18n.catalog import game_domain

        game = view.game
        domain = game_domain(game, self.studio.content_dir.parent)
        source = game.meta.source_language
        rows = []
        entries = {}
        for lang in view.languages:
            try:
                entries[lang] = domain.entries(lang)
            except CardgenError:
                entries[lang] = {}
        for field, key in card.text.items():
            cells = []
            for lang in view.languages:
                kind = view.text_kinds.get(lang, {}).get(key)
                entry = entries[lang].get(key)
                if lang == source:
                    origin = f"{domain.display(domain.root / 'text' / f'{source}.yaml')}:{domain.lines.get(key, '')}"
                elif key in game.messages.get(lang, {}) and entry is None:
                    origin = domain.display(domain.root / "text" / f"{lang}.yaml")
                elif entry is not None:
                    origin = f"{domain.display(domain.po_path(lang))}:{entry.line or ''}"
                else:
                    origin = ""
                used = view.text_used.get(lang, {}).get(key) if kind else None
                cells.append({"lang": lang, "text": game.text(key, lang), "status": kind or "",
                              "used": language_name(used) if used else "",
                              "origin": origin, "unused": entry.text if entry is not None and kind == "fuzzy" else ""})
            rows.append({"field": field, "key": key, "cells": cells})
        return rows


def _badge_counts(view: GameView, lang: str | None = None) -> dict[str, int]:
    counts = {badge: 0 for badge in BADGES}
    for language, views in view.views.items():
        if lang is not None and language != lang:
            continue
        for card in views.values():
            for badge in card.badges:
                counts[badge] += 1
    return counts


def url(*parts: str) -> str:
    return "/" + "/".join(quote(part, safe="") for part in parts)


__all__ = ["Pages", "TEMPLATES", "url"]


def _caption(view: GameView, lang: str, side: str, item_id: str) -> str:
    """What a card's caption names: the card's name (or label) in ``lang``, as the rulebook prints
    it under its picture; a back's name. Empty when the game cannot say (the id shows instead)."""
    from cardgen.i18n.labels import card_label, game_lookup

    game = view.game
    if game is None:
        return ""
    try:
        if side == "face":
            return card_label(game, game.card(item_id), game_lookup(game, lang)).text
        back = next(b for b in game.meta.backs if b.id == item_id)
        return game.text(back.name, lang)
    except (CardgenError, KeyError, StopIteration):
        return ""
