"""What the studio knows about the content: each game loaded, planned and checked, in memory.

:class:`Studio` loads every game of a content folder and plans every card face and back in
every language with the card renderer (planning resolves the layout and fits the text; it draws
nothing).  A card's picture is drawn only when a browser asks for it, by the preview renderer
(:func:`cardgen.cards.preview.plan_preview`), and kept in memory under its plan's key: equal
plans draw equal pictures, so after a change only the cards whose plan changed are drawn again.

:meth:`Studio.apply` takes the paths a file watcher saw change, reloads only the games those
paths feed (a game's folder; a layout file any of its layouts reads; anything else in the
content folder, such as ``common/``, feeds every game) and says which cards changed.  A game
that no longer loads keeps its last good cards on show, with its errors (file, line, message)
beside them, until a save makes it load again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from cardgen.errors import CardgenError, ContentErrors, TextOverflowError
from cardgen.i18n.names import language_name

DEFAULT_DPI = 110  # a poker card is 301 px wide with its bleed: sharp at the gallery's size and on the card page
MAX_CACHED_PICTURES = 3000  # about 25 kB each
ART_SUFFIXES = {".svg"}


@dataclass
class CardView:
    """One face or back in one language: its plan (or why it cannot be drawn) and its badges."""

    side: str  # "face" | "back"
    id: str  # card id, or back id for a back
    plan: object | None = None  # cardgen.cards.card.CardPlan
    error: str | None = None  # why it cannot be drawn
    where: str = ""  # the error's locator: layout file and line, field, language
    badges: tuple[str, ...] = ()  # "overflow", "error", "glyphs", "shrunk", "fitted", "fallback", "fuzzy"
    notes: tuple[str, ...] = ()  # what each badge is about, for the tooltip
    art_generation: int = 0

    @property
    def version(self) -> str:
        """Changes whenever the picture changes: the plan's key (and the art's generation)."""
        if self.plan is not None:
            return f"{self.plan.key}-{self.art_generation}"
        return "E" + hashlib.sha1(f"{self.error}{self.where}".encode("utf-8")).hexdigest()[:12]

    def fingerprint(self) -> tuple:
        return self.version, self.badges, self.notes


@dataclass
class GameView:
    """A game as the studio shows it: the last version that loaded, and the current problems."""

    id: str
    game: object | None = None  # cardgen.content.Game, the last one that loaded
    errors: list[CardgenError] = field(default_factory=list)
    stale: bool = False  # the content does not load now: ``game`` is the last good one
    views: dict[str, dict[tuple[str, str], CardView]] = field(default_factory=dict)  # lang -> (side, id) -> view
    renderers: dict[str, object] = field(default_factory=dict)  # lang -> CardRenderer
    text_kinds: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> key -> "missing" | "fuzzy"
    text_used: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> key -> language printed instead
    layout_files: frozenset[Path] = frozenset()
    warnings: list[CardgenError] = field(default_factory=list)  # the loader's: an earlier content format
    layout_errors: list[CardgenError] | None = None  # the layout check's last answer (None: run it)
    art_generation: int = 0
    version: int = 0

    @property
    def languages(self) -> list[str]:
        return list(self.game.meta.languages) if self.game is not None else []

    def view(self, lang: str, side: str, item_id: str) -> CardView | None:
        return self.views.get(lang, {}).get((side, item_id))


class Studio:
    """Every game of ``content_dir``, planned in every language; thread-safe."""

    def __init__(self, content_dir: Path, templates_dir: Path | None = None, dpi: int = DEFAULT_DPI):
        from cardgen.cards.layout import default_templates_dir
        from cardgen.cards.preview import check_dpi

        self.content_dir = content_dir.resolve()
        self.templates_dir = (templates_dir or default_templates_dir(self.content_dir)).resolve()
        self.dpi = check_dpi(dpi)
        self.games: dict[str, GameView] = {}
        self.version = 0  # goes up with every change the pages show
        self.lock = threading.RLock()
        self._pictures: OrderedDict[tuple, bytes] = OrderedDict()
        self.drawn = 0  # pictures drawn so far (tests and benchmarks read it)
        self.failure: str | None = None  # an unexpected failure of the last update (shown in every page)

    # -- loading -----------------------------------------------------------------------------------
    def load(self) -> None:
        """Load every game (at start)."""
        from cardgen.content import discover_games

        with self.lock:
            for game_id in discover_games(self.content_dir):
                self.games[game_id] = GameView(game_id)
                self._reload(self.games[game_id])
            self.version += 1

    def apply(self, paths: Iterable[Path]) -> dict:
        """Reload what ``paths`` (changed, added or deleted files) feed; the change as an event:
        ``{"version": N, "games": [ids], "changed": {game: {lang: ["face/id", ...]}}}``."""
        from cardgen.content import discover_games
        from cardgen.cards.layout import load_layout
        from cardgen.cards.svgart import load_svg

        paths = [Path(p).absolute() for p in paths]
        with self.lock:
            # loaders cache by path: a saved layout or SVG file must be read again
            if any(not self._text_only(p) for p in paths):
                load_layout.cache_clear()
            if any(p.suffix.lower() in ART_SUFFIXES for p in paths):
                load_svg.cache_clear()
            present = discover_games(self.content_dir)
            affected = self._affected(paths, present)
            changed: dict[str, dict[str, list[str]]] = {}
            for game_id in sorted(set(self.games) - set(present)):
                del self.games[game_id]
                affected.add(game_id)
            for game_id in present:
                if game_id not in affected:
                    continue
                view = self.games.setdefault(game_id, GameView(game_id))
                if any(p.suffix.lower() in ART_SUFFIXES and _inside(p, self.content_dir / game_id) for p in paths):
                    view.art_generation += 1
                if not all(self._text_only(p) for p in paths):
                    view.layout_errors = None  # the layout or the cards changed: check the layout again
                changed[game_id] = self._reload(view)
            if affected:
                self.version += 1
            return {"version": self.version, "games": sorted(affected), "changed": changed}

    def _text_only(self, path: Path) -> bool:
        """Whether ``path`` is a game's text or translation: it changes what cards say, never
        which layout entry draws them or where (the layout check's answer stays)."""
        if not _inside(path, self.content_dir):
            return False
        parts = path.relative_to(self.content_dir).parts
        return len(parts) == 3 and parts[1] in ("text", "locale")

    def _affected(self, paths: list[Path], present: list[str]) -> set[str]:
        from cardgen.cards.layout import DEFAULT_LAYOUT

        games: set[str] = set()
        for path in paths:
            if _inside(path, self.content_dir):
                parts = path.relative_to(self.content_dir).parts
                top = parts[0] if parts else ""
                if top in present or top in self.games:
                    games.add(top)
                elif top and not top.startswith("."):  # hidden: 'cardgen new' at work, editors' folders
                    games.update(present)  # common/ and the like: any game may read it
                continue
            users = {view.id for view in self.games.values() if path in view.layout_files}
            if users:
                games |= users
            elif path.stem in present and path.suffix == ".yaml":
                games.add(path.stem)  # a layout of its own for that game, new or deleted
            elif path.name == DEFAULT_LAYOUT:
                games.update(present)  # the layout of every game without its own
            # any other file is read by no layout yet: saving the layout that includes it counts
        return games

    def _reload(self, view: GameView) -> dict[str, list[str]]:
        """Load ``view``'s game again and plan its cards; the cards whose picture or badges changed."""
        from cardgen.content import load_games

        try:
            game = load_games(self.content_dir, [view.id])[0]
        except ContentErrors as failed:
            view.errors, view.stale = list(failed.errors), view.game is not None
            view.version += 1
            return {}
        except CardgenError as failed:
            view.errors, view.stale = [failed], view.game is not None
            view.version += 1
            return {}
        view.game, view.stale = game, False
        view.warnings = list(game.warnings)
        view.errors = self._checks(game)
        old = {lang: {key: v.fingerprint() for key, v in views.items()} for lang, views in view.views.items()}
        self._plan(view)
        view.version += 1
        changed: dict[str, list[str]] = {}
        for lang, views in view.views.items():
            before = old.get(lang, {})
            ids = [f"{side}/{item}" for (side, item), v in views.items() if before.get((side, item)) != v.fingerprint()]
            if ids:
                changed[lang] = ids
        return changed

    def _checks(self, game) -> list[CardgenError]:
        """What ``cardgen validate`` says about the layout and the references of the cards' text
        (the engine's data and the rulebook text are left to validate: they print on no card)."""
        from cardgen.i18n.status import reference_errors
        from cardgen.cards.layoutcheck import check_layout

        view = self.games[game.id]
        try:
            if view.layout_errors is None:
                view.layout_errors = check_layout(game, self.templates_dir)
            return [*view.layout_errors, *reference_errors(game)]
        except CardgenError as error:
            view.layout_errors = None
            return [error]

    def _plan(self, view: GameView) -> None:
        from cardgen.cards.card import CardRenderer

        game = view.game
        view.views, view.renderers, view.text_kinds, view.text_used = {}, {}, {}, {}
        layout_files: set[Path] = set()
        for lang in game.meta.languages:
            views: dict[tuple[str, str], CardView] = {}
            kinds = self._text_kinds(view, lang)
            try:
                renderer = CardRenderer(game, lang, self.templates_dir)
            except CardgenError as error:
                renderer = None
                if all(str(known) != str(error) for known in view.errors):
                    view.errors.append(error)
            view.renderers[lang] = renderer
            if renderer is not None:
                layout_files.update(Path(p).absolute() for p in renderer.layout.documents)
            else:  # a layout that does not load: its fix must still reach this game
                layout_files.update(view.layout_files)
                layout_files.update(self._layout_file(game))
            for card in game.cards:
                views["face", card.id] = self._plan_one(game, renderer, "face", card, kinds, view.art_generation,
                                                        view.text_used.get(lang, {}))
            for back in game.meta.backs:
                views["back", back.id] = self._plan_one(game, renderer, "back", back, kinds, view.art_generation,
                                                        view.text_used.get(lang, {}))
            view.views[lang] = views
        view.layout_files = frozenset(layout_files)

    def _layout_file(self, game) -> list[Path]:
        from cardgen.cards.layout import layout_path

        try:
            return [layout_path(game.root, game.id, self.templates_dir).absolute()]
        except CardgenError:
            return []

    def _plan_one(self, game, renderer, side: str, item, kinds: dict[str, str], art_generation: int,
                  used_instead: dict[str, str] | None = None) -> CardView:
        result = CardView(side, item.id, art_generation=art_generation)
        badges: list[str] = []
        notes: list[str] = []
        if renderer is None:
            result.error, badges = "the layout does not load (see the errors above)", ["error"]
        else:
            known = len(renderer.glyph_warnings)
            try:
                result.plan = renderer.face(item) if side == "face" else renderer.back(item.id)
                for warning in renderer.glyph_warnings[known:]:  # would print as empty boxes
                    if "glyphs" not in badges:
                        badges.append("glyphs")
                    notes.append(f"glyphs: {warning}")
                if side == "face":  # under the layout's body size: the build's warning
                    from cardgen.cards.textfit import fitted_fields, shrunk_fields

                    for why in shrunk_fields(renderer, result.plan).values():
                        if "shrunk" not in badges:
                            badges.append("shrunk")
                        notes.append(f"shrunk: {why}")
                    for what in fitted_fields(renderer, result.plan).values():  # within the layout's range
                        if "fitted" not in badges:
                            badges.append("fitted")
                        notes.append(f"fitted: {what}")
            except TextOverflowError as error:
                result.error, result.where = error.message, str(error.locator)
                badges.append("overflow")
                notes.append(f"overflow: {error.locator.field or 'text'} {error.message}")
            except CardgenError as error:
                result.error, result.where = error.message, str(error.locator)
                badges.append("error")
                notes.append(str(error))
        for key in _text_keys(game, side, item):
            kind = kinds.get(key)
            badge = {"missing": "fallback", "fuzzy": "fuzzy"}.get(kind or "")
            if badge:
                if badge not in badges:
                    badges.append(badge)
                used = (used_instead or {}).get(key)
                notes.append(f"{badge}: {key}" + (f" (prints {language_name(used)})" if used else ""))
        result.badges, result.notes = tuple(badges), tuple(notes)
        return result

    def _text_kinds(self, view: GameView, lang: str) -> dict[str, str]:
        """key -> "missing" or "fuzzy" for the messages of the game that print in ``lang``'s
        source text instead (the i18n layer's own lookup decides, as the build's does)."""
        from cardgen.i18n.texts import Texts

        game = view.game
        if lang == game.meta.source_language:
            return {}
        try:
            texts = Texts(game, lang, self.content_dir)
            for key in game.messages[game.meta.source_language]:
                texts.raw(key)
        except CardgenError:
            return {}
        kinds = {warning.key: warning.kind for warning in texts.warnings if warning.kind in ("missing", "fuzzy")}
        view.text_kinds[lang] = kinds
        view.text_used[lang] = {w.key: w.used for w in texts.warnings if w.kind in ("missing", "fuzzy") and w.used}
        return kinds

    # -- pictures ----------------------------------------------------------------------------------
    def picture(self, game_id: str, lang: str, side: str, item_id: str) -> bytes | None:
        """The PNG of a face or back as the studio shows it now; None when there is no such card
        or it cannot be drawn (its page shows why)."""
        from cardgen.cards.preview import plan_preview

        with self.lock:
            view = self.games.get(game_id)
            card = view.view(lang, side, item_id) if view is not None else None
            if card is None or card.plan is None:
                return None
            # equal plans draw equal pictures, whatever the language (a back without text)
            key = (game_id, card.version, self.dpi)
            found = self._pictures.get(key)
            if found is not None:
                self._pictures.move_to_end(key)
                return found
            try:
                png = plan_preview(view.renderers[lang], card.plan, self.dpi).png
            except CardgenError as error:  # art that breaks only when drawn (an SVG file)
                card.error, card.where = error.message, str(error.locator)
                card.badges = tuple(dict.fromkeys((*card.badges, "error")))
                card.plan = None
                return None
            self.drawn += 1
            self._pictures[key] = png
            while len(self._pictures) > MAX_CACHED_PICTURES:
                self._pictures.popitem(last=False)
            return png


def _text_keys(game, side: str, item) -> list[str]:
    """The message keys a face (its text fields, group and kind names) or a back prints."""
    if side == "back":
        return [item.name]
    keys = list(item.text.values())
    group = next((g for g in game.meta.groups if g.id == item.group), None)
    if group is not None:
        keys.append(group.name)
        kind = next((k for k in group.kinds if k.id == item.kind), None)
        if kind is not None:
            keys.append(kind.name)
    return keys


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


__all__ = ["CardView", "DEFAULT_DPI", "GameView", "Studio"]
