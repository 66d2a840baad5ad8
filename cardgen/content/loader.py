"""Load a game folder into typed data, collecting every error on the way.

``load_game`` reads ``game.yaml``, ``cards.yaml`` and every ``text/*.yaml``,
checks each against the schema, then runs the cross-reference checks of
``cardgen.content.checks``.  It raises one :class:`ContentErrors` holding all
the problems it found, never just the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from cardgen.content import formats, memo
from cardgen.content.generators import ExpandedCards, expand_cards
from cardgen.content.model import Card, CardsFile, GameMeta, MessagesFile
from cardgen.content.modelcheck import M, check_now, validate_document
from cardgen.content.safefile import leads_out
from cardgen.content.translations import LOCALE_DIR, locale_messages
from cardgen.content.yamlsource import YamlDocument, read_yaml
from cardgen.errors import ContentError, ContentErrors, Locator, NewerRule, shown_path

GAME_FILE = "game.yaml"
CARDS_FILE = "cards.yaml"
TEXT_DIR = "text"



@dataclass(frozen=True)
class PhysicalCard:
    """One printed card: a design and which copy of it this is."""

    card: Card
    copy: int  # 1-based

    @property
    def label(self) -> str:
        return self.card.id if self.card.copies == 1 else f"{self.card.id}#{self.copy}"


@dataclass
class Game:
    """A loaded, validated game: metadata, cards, and text in every language."""

    root: Path
    meta: GameMeta
    cards: list[Card]
    messages: dict[str, dict[str, str]]  # language -> key -> text
    documents: dict[str, YamlDocument] = field(default_factory=dict, repr=False)
    #: Paths in messages are shown relative to this folder (the content's parent).
    display_root: Path | None = None
    #: language -> key -> where a text taken from locale/<language>.po stands
    translation_origins: dict[str, dict[str, Locator]] = field(default_factory=dict, repr=False)
    #: What the CLI shows as warnings: a game of an earlier content format says so, and each
    #: rule of a later format it breaks (cardgen.content.formats).  Never an error.
    warnings: list[ContentError] = field(default_factory=list, repr=False)
    #: The rules of a later format the game breaks, accepted for its format ('cardgen upgrade' reads them).
    accepted: list[NewerRule] = field(default_factory=list, repr=False)

    @property
    def format(self) -> int:
        """The content format the game folder is written in (game.yaml's ``format:``)."""
        return self.meta.format

    def accept(self, errors: list[ContentError]) -> list[ContentError]:
        """``errors`` found in this game, less the rules of a later format than the game's,
        which become its warnings."""
        kept, accepted = formats.split(errors, self.format)
        self.accepted += accepted
        self.warnings += [formats.as_warning(rule, self.format) for rule in accepted]
        return kept
    #: font families of the content folder (common/fonts.yaml), name -> fontfiles.Family
    shared_fonts: dict[str, Any] = field(default_factory=dict, repr=False)

    def font_families(self) -> dict[str, Any]:
        """Every font family the game's layouts may name: the content folder's, then its own
        (game.yaml ``fonts:``, which wins on a shared name); name -> fontfiles.Family."""
        from cardgen.content.fontfiles import Family

        own = {name: Family(name, spec, self.root, self.display_root) for name, spec in self.meta.fonts.items()}
        return {**self.shared_fonts, **own}

    @property
    def id(self) -> str:
        return self.meta.id

    def physical_cards(self) -> list[PhysicalCard]:
        """Every printed card in deck order (cards as listed, copies together)."""
        return [
            PhysicalCard(card, copy)
            for card in self.cards
            for copy in range(1, card.copies + 1)
        ]

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def text(self, key: str, language: str | None = None) -> str:
        """The text of ``key`` in ``language``, else in the first language of its fallback
        chain that has it (:mod:`cardgen.content.fallbacks`), the source last."""
        return self.text_language(key, language)[0]

    def text_language(self, key: str, language: str | None = None) -> tuple[str, str]:
        """(text, the language it is in) of ``key`` in ``language`` or its fallback."""
        from cardgen.content.fallbacks import game_chain

        language = language or self.meta.source_language
        for lang in game_chain(self, language):
            found = self.messages.get(lang, {}).get(key)
            if found is not None:
                return found, lang
        return self.messages[self.meta.source_language][key], self.meta.source_language

    def text_origin(self, key: str, language: str | None = None) -> Locator:
        """Where the text that :meth:`text` gives for ``key`` in ``language`` is written."""
        from cardgen.content.fallbacks import game_chain

        language = language or self.meta.source_language
        for lang in game_chain(self, language):
            document = self.documents.get(f"{TEXT_DIR}/{lang}.yaml")
            if document is not None and key in document.data.get("messages", {}):
                return document.locate(("messages", key)).with_(field=key, language=lang)
            origin = self.translation_origins.get(lang, {}).get(key)
            if origin is not None:
                return origin
        return Locator(field=key, language=language)

    def data_path(self, name: str) -> Path:
        return self.root / self.meta.data_files[name]


def discover_games(content_dir: Path) -> list[str]:
    """Ids of the game folders under ``content_dir`` (those with a game.yaml).

    Hidden folders are skipped: 'cardgen new' writes a game under a hidden name before
    renaming it, and editors keep their own there.
    """
    if not content_dir.is_dir():
        return []
    return sorted(p.name for p in content_dir.iterdir()
                  if not p.name.startswith(".") and (p / GAME_FILE).is_file())


def load_games(content_dir: Path, game_ids: list[str] | None = None) -> list[Game]:
    """Load several games, reporting the errors of all of them together."""
    ids = game_ids or discover_games(content_dir)
    games: list[Game] = []
    errors: list[ContentError] = []
    for game_id in ids:
        try:
            games.append(load_game(content_dir / game_id, display_root=content_dir.parent))
        except ContentErrors as failed:
            errors.extend(failed.errors)
    errors.extend(_shared_string_errors(content_dir, games))
    if errors:
        raise ContentErrors(errors)
    return games


def _shared_string_errors(content_dir: Path, games: list[Game]) -> list[ContentError]:
    """The folder's own shared strings (``common/``) and, for each game, shared strings in its
    source language: the rulebook headings and print-and-play words it prints."""
    from cardgen.content.fontfiles import shared_fonts
    from cardgen.content.shared import load_shared

    font_errors = shared_fonts(content_dir, content_dir.parent)[1]
    try:
        shared = load_shared(content_dir, content_dir.parent)
    except ContentErrors as failed:
        return list(failed.errors) + font_errors
    errors = shared.translation_errors() + font_errors
    for game in games:
        if not shared.has_text(game.meta.source_language):
            doc = game.documents.get(GAME_FILE)
            where = doc.locate(("source_language",)) if doc else Locator(file=game.root / GAME_FILE)
            errors.append(ContentError(shared.missing_language_message(game.meta.source_language), where))
    return errors


def load_game(game_dir: Path, display_root: Path | None = None) -> Game:
    """Load and check one game folder; raise :class:`ContentErrors` on any problem."""
    from cardgen.content import checks  # checks imports Game from here

    if leads_out(game_dir):  # checked again at every file read: a folder swapped for a symlink later is refused too
        raise ContentErrors([ContentError(
            "the game folder is a symlink leading outside the content folder; nothing in it is read "
            "(move the game into the content folder)", Locator(file=shown_path(game_dir, display_root)))])
    reader = _Reader(game_dir, display_root)
    game_doc = reader.document(GAME_FILE)
    if game_doc is not None:
        newer = formats.newer_than_read(game_doc)
        if newer is not None:  # its other keys may mean what this cardgen cannot know
            raise ContentErrors([newer])
    meta = validate_document(game_doc, GameMeta, reader.errors) if game_doc is not None else None
    deck = reader.cards()
    messages: dict[str, dict[str, str]] = {}
    for name, catalogue in reader.text_files():
        if catalogue.language != Path(name).stem:
            reader.error(
                f"language '{catalogue.language}' does not match the file name "
                f"(expected '{Path(name).stem}')",
                reader.documents[name].locate(("language",)),
            )
        messages[catalogue.language] = dict(catalogue.messages)

    if meta is None or deck is None:
        raise ContentErrors(reader.errors)
    runaway = _deck_over_budget(deck, meta)
    if runaway is not None:  # before any check or drawing: each would take as long as the deck is big
        raise ContentErrors(reader.errors + [runaway])
    from cardgen.content.fontfiles import shared_fonts

    game = Game(
        root=game_dir,
        meta=meta,
        cards=deck[0],
        messages=messages,
        documents=reader.documents,
        display_root=display_root,
        # checked once per content folder, by load_games
        shared_fonts=shared_fonts(game_dir.parent, display_root, check=False)[0],
    )
    # Errors about generated cards name the generator and the values behind the card.
    reader.errors.extend(deck[1].explain_all(checks.check_game(game)))
    # Translations from locale/<lang>.po (translated, non-fuzzy entries); text/ wins.
    translated, po_errors = locale_messages(game_dir, display_root)
    reader.errors.extend(po_errors)
    source = game.messages.get(meta.source_language, {})
    for language, entries in translated.items():
        # a translation made from an older source text is stale: the source is printed, as the
        # rulebook and the i18n status do (until 'cardgen i18n update' and the translator catch up)
        found = {key: e for key, e in entries.items() if source.get(key) == e.source}
        shown = shown_path(game_dir / LOCALE_DIR / f"{language}.po", display_root)
        game.messages[language] = {**{key: e.text for key, e in found.items()}, **game.messages.get(language, {})}
        game.translation_origins[language] = {key: Locator(file=shown, line=e.line, field=key, language=language)
                                              for key, e in found.items()}
    errors = game.accept(reader.errors)
    if errors:
        raise ContentErrors(errors)
    notice = formats.notice(game_doc, meta.format)
    if notice is not None:
        game.warnings.insert(0, notice)
    return game


class _Reader:
    """Reads files of one game folder, accumulating errors instead of raising."""

    def __init__(self, game_dir: Path, display_root: Path | None):
        self.game_dir = game_dir
        self.display_root = display_root
        self.documents: dict[str, YamlDocument] = {}
        self.errors: list[ContentError] = []

    def error(self, message: str, locator: Locator) -> None:
        self.errors.append(ContentError(message, locator))

    def display(self, path: Path) -> Path:
        return shown_path(path, self.display_root)

    def document(self, name: str) -> YamlDocument | None:
        path = self.game_dir / name
        if path.exists() and not path.is_file():
            self.error("not a regular file (a folder, FIFO or device is never read)", Locator(file=self.display(path)))
            return None
        if not path.is_file():
            self.error(f"missing file: every game folder needs {name}", Locator(file=self.display(path)))
            return None
        try:
            # a file of the game folder stays inside it: a text/ symlinked elsewhere is not read
            doc = read_yaml(path, self.display(path), root=self.game_dir)
        except ContentError as exc:
            self.errors.append(exc)
            return None
        self.documents[name] = doc
        return doc

    def model(self, name: str, model: type[M]) -> M | None:
        doc = self.document(name)
        if doc is None:
            return None
        return validate_document(doc, model, self.errors)

    def cards(self) -> tuple[list[Card], ExpandedCards] | None:
        """The deck of cards.yaml with its generators expanded, each card schema-checked.

        From here on the document of cards.yaml is the expanded view, so the
        cross-reference checks locate card ``i`` of the deck at the lines it
        came from (see cardgen.content.generators).
        """
        source = self.document(CARDS_FILE)
        if source is None:
            return None
        found: list[ContentError] = []
        # the deck depends on this one file: kept between runs (cardgen.content.memo)
        deck = memo.cached("deck", [source.digest], lambda: _expanded_deck(source, found),
                           keep=lambda result: not found)
        self.errors.extend(found)
        if deck is not None:
            self.documents[CARDS_FILE] = deck[1].document
        return deck

    def text_files(self) -> Iterator[tuple[str, MessagesFile]]:
        text_dir = self.game_dir / TEXT_DIR
        if not text_dir.is_dir():
            self.error(
                "missing folder: the source-language text lives in text/<lang>.yaml",
                Locator(file=self.display(text_dir)),
            )
            return
        for path in sorted(text_dir.glob("*.yaml")):
            name = f"{TEXT_DIR}/{path.name}"
            catalogue = self.model(name, MessagesFile)
            if catalogue is not None:
                yield name, catalogue


def _deck_over_budget(deck: tuple[list[Card], ExpandedCards], meta: GameMeta) -> ContentError | None:
    """The error for a deck that prints more card faces (cards × copies × languages) than
    :data:`~cardgen.content.budgets.MAX_CARD_FACES`, at the cards.yaml entry that prints most."""
    from cardgen.content.budgets import MAX_CARD_FACES, card_faces

    cards, expansion = deck
    languages = len(dict.fromkeys([meta.source_language, *meta.languages]))
    over = card_faces(((origin.entry, card.copies) for card, origin in zip(cards, expansion.origins)), languages)
    if over is None:
        return None
    faces, entry, printed = over
    return ContentError(
        f"the deck prints {faces // languages:,} cards in {languages} language(s), {faces:,} card faces to check "
        f"and draw (at most {MAX_CARD_FACES:,}); this entry prints {printed:,} of them (cards × copies)",
        expansion.source.locate(("cards", entry)))


def _expanded_deck(source: YamlDocument, errors: list[ContentError]) -> tuple[list[Card], ExpandedCards] | None:
    cards_file = check_now(source, CardsFile, errors)
    if cards_file is None:
        return None
    expansion = expand_cards(source, cards_file, errors)
    if expansion is None:
        return None
    found: list[ContentError] = []
    expanded = check_now(expansion.document, CardsFile, found)
    errors.extend(expansion.explain_all(found))
    if expanded is None:
        return None
    return [card for card in expanded.cards if isinstance(card, Card)], expansion


__all__ = ["Game", "PhysicalCard", "discover_games", "load_game", "load_games"]
