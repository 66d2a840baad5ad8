"""The source catalogue: every player-facing message of a game, by stable key.

A *domain* is one catalogue of text: a game (``content/<game>/``, source text
``text/<source>.yaml``, translations ``locale/<lang>.po``) or the shared strings
of the rulebooks and print-and-play files (:mod:`cardgen.content.shared`:
cardgen's own in several languages, a content folder's ``common/`` over them),
whose source language is that of the games it serves.

For each key the catalogue knows where the text appears (card face, rulebook
section, ...) and, for text printed in a card box, its length budget: both go
to the translator as comments and flags.  The budget is measured in the real box when
the domain is given a :data:`~cardgen.i18n.fit.BoxMeasure` (``capacity``; the commands
that write PO files hand in the card drawing's); else it is the character count scaled
by the card size (:func:`cardgen.i18n.fit.budget`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.content.shared import BUILTIN_DIR, COMMON, TEXT_DIR, SharedStrings, builtin_keys, load_shared
from cardgen.content.translations import LOCALE_DIR, Entry, read_entries
from cardgen.errors import I18nError, Locator, shown_path
from cardgen.i18n import fit, refs

if TYPE_CHECKING:
    from cardgen.content.loader import Game

#: The shared strings' source language when a content folder has no game to take it from.
DEFAULT_SOURCE_LANGUAGE = "en"

_SECTIONS = {
    "intro": "introduction (after the cover)",
    "tagline": "cover, under the title",
    "goal": "'Goal of the game'",
    "setup": "'Setup'",
    "turn": "'A turn'",
    "cards": "'The cards', beside the card pictures",
    "card": "'The cards', the longer explanation beside one card's picture",
    "formats": "'Formats and variants'",
    "options": "'Formats and variants', a rule option",
    "end": "'End of the game'",
    "quick": "the one-page quick reference",
    "answers": "the answer key appendix",
}


@dataclass(frozen=True)
class SourceMessage:
    key: str
    text: str
    comments: tuple[str, ...] = ()
    max_length: int | None = None
    locations: tuple[tuple[str, int | None], ...] = ()
    card: str | None = None  # card id when the text is printed on a card
    field: str | None = None

    @property
    def flags(self) -> tuple[str, ...]:
        flags = []
        if self.max_length is not None:
            flags.append(f"max-length:{self.max_length}")
        if refs.has_references(self.text):
            flags.append(refs.PLACEHOLDER_FLAG)
        return tuple(flags)


@dataclass
class Domain:
    """One catalogue: a game or the common rulebook strings."""

    id: str
    root: Path
    source_language: str
    messages: dict[str, str]  # key -> source text, in file order
    game: "Game | None" = None
    lines: dict[str, int] = field(default_factory=dict)
    display_root: Path | None = None
    shared: SharedStrings | None = None  # the shared strings, for the common domain
    #: the languages the games of the folder build in (the shared strings' status covers them)
    build_languages: tuple[str, ...] = ()
    #: measures the length budget of card texts in the real box (None: the scaled budget)
    capacity: "fit.BoxMeasure | None" = None

    def entries(self, language: str) -> dict[str, Entry]:
        """The translations of ``language`` by key (none for the source language)."""
        if language == self.source_language:
            return {}
        if self.shared is not None:
            return self.shared.translations(language, self.source_language)
        path = self.po_path(language)
        return read_entries(path, self.display(path), root=self.root) if path.is_file() else {}

    def translated(self, languages: list[str]):
        """``(language, entry)`` for every translated entry of the PO files of ``languages`` whose
        key is a message here; a PO file that does not read is skipped (the loader reports it)."""
        for language in languages:
            try:
                entries = self.entries(language)
            except I18nError:
                continue
            for key, entry in entries.items():
                if key in self.messages and entry.translated:
                    yield language, entry

    def has_own_text(self, language: str) -> bool:
        """Whether ``language`` has source text of its own here (no PO file to translate)."""
        return language == self.source_language or (
            self.shared is not None and self.shared.has_text(language))

    @property
    def locale_dir(self) -> Path:
        return self.root / LOCALE_DIR

    def po_path(self, language: str) -> Path:
        return self.locale_dir / f"{language}.po"

    @property
    def pot_path(self) -> Path:
        return self.locale_dir / f"{self.id}.pot"

    def display(self, path: Path) -> str:
        return shown_path(path, self.display_root).as_posix()

    def languages(self) -> list[str]:
        """Languages with a PO file, sorted."""
        if not self.locale_dir.is_dir():
            return []
        return sorted(p.stem for p in self.locale_dir.glob("*.po"))

    def source_location(self, key: str) -> tuple[str, int | None]:
        """(file as shown in messages, line) of the source text of ``key``."""
        if self.shared is not None:
            return self.shared.lines.get(self.source_language, {}).get(key, (COMMON, None))
        return self.display(self.root / TEXT_DIR / f"{self.source_language}.yaml"), self.lines.get(key)

    def reference(self, key: str) -> tuple[str, int | None]:
        """The ``#:`` reference of ``key``'s source text: its file relative to the content folder
        (``klepka/text/ru.yaml``, ``common/text/it.yaml``), or to cardgen's package for cardgen's own
        shared strings (``cardgen/common/text/en.yaml``), so a PO file is the same on every machine."""
        if self.shared is None:
            return f"{self.root.name}/{TEXT_DIR}/{self.source_language}.yaml", self.lines.get(key)
        file, line = self.source_location(key)
        path = Path(file)
        if not path.is_absolute():
            path = (self.display_root or Path.cwd()) / path
        package = BUILTIN_DIR.parent  # cardgen's own package folder

        for base, prefix in ((package, package.name + "/"), (self.root.parent, "")):
            for candidate in (path, path.resolve()):
                try:
                    return prefix + candidate.relative_to(base).as_posix(), line
                except ValueError:
                    try:
                        return prefix + candidate.relative_to(base.resolve()).as_posix(), line
                    except ValueError:
                        continue
        return path.name, line

    def source_messages(self) -> list[SourceMessage]:
        usage = _usage(self.game) if self.game is not None else {}
        result = []
        for key, text in self.messages.items():
            where = usage.get(key) or _generic_usage(key, self.id)
            comments = list(where.comments)
            if "**" in text:
                comments.append("**bold** marks a lead-in (printed bold); keep the markers around "
                                "the matching words of your translation.")
            if key.startswith("rules.") and "![" in text:
                comments.append("![description](file) places a picture: translate the description (read "
                                "out to whoever cannot see it); keep the file, or name a picture of your own "
                                "in the game folder.")
            max_length = None
            if where.card is not None and self.game is not None:
                max_length, budget = self._budget(where)
                comments.append(budget)
            if "{plural:" in text:
                comments.append(
                    "{plural:COUNT|one=...|other=...} prints the word that goes with the number COUNT: "
                    "write one form per plural category of your language (CLDR: English and German "
                    "one, other; Polish and Russian one, few, many; Czech one, few, other); # in a "
                    "form prints the number.")
            if refs.has_references(text):
                comments.append(
                    "Keep every {card:...}, {group:...}, {kind:...} and {setting:...} reference; "
                    "it prints the name from the cards. Add |case (a case listed in that name's "
                    ".forms message of your language) where your sentence needs an inflected form."
                )
            result.append(
                SourceMessage(
                    key=key,
                    text=text,
                    comments=tuple(comments),
                    max_length=max_length,
                    locations=(self.reference(key),),
                    card=where.card,
                    field=where.field,
                )
            )
        return result

    def _budget(self, where: "_Usage") -> tuple[int | None, str]:
        """The ``max-length`` and the "Length budget" comment of a card text: measured in the box
        when the domain has a ``capacity`` measure and it can tell (none for a text the layout does
        not print on the card), else scaled by the card size."""
        if self.capacity is not None:
            measured = self.capacity(self.game, self.game.card(where.card), where.field)
            if isinstance(measured, fit.NotPrinted):
                return None, measured.comment()
            if measured is not None:
                return measured.limit, measured.comment()
        limit = fit.budget(self.game, where.field)
        return limit, (f"Length budget: {limit} characters (the '{where.field}' box of a {_size(self.game)} "
                       "card); check with 'cardgen i18n status'.")


@dataclass(frozen=True)
class _Usage:
    comments: tuple[str, ...]
    card: str | None = None
    field: str | None = None


def _size(game: "Game") -> str:
    size = game.meta.card_size
    return f"{size.width_mm:g} x {size.height_mm:g} mm"


def _usage(game: "Game") -> dict[str, _Usage]:
    """Where each key referenced by game.yaml and cards.yaml appears."""
    meta = game.meta
    usage: dict[str, _Usage] = {
        meta.title: _Usage(("Game title: rulebook cover, running head and print files.",)),
    }
    for back in meta.backs:
        usage[back.name] = _Usage((f"Name of the card back '{back.id}': rulebook components list.",))
    for group in meta.groups:
        usage[group.name] = _Usage(
            (f"Card group '{group.id}': components table and 'The cards' section of the rulebook.",)
        )
        for kind in group.kinds:
            usage[kind.name] = _Usage(
                (f"Kind '{kind.id}' of group '{group.id}': components table and 'The cards' section.",)
            )
        for owner, what in ((group, f"group '{group.id}'"), *((k, f"kind '{k.id}'") for k in group.kinds)):
            if owner.label is not None:
                usage[owner.label] = _Usage(
                    (f"Name of each card of {what} that has no name of its own: card faces and the "
                     "rulebook's card pictures. {n} is the card's number; keep the placeholders.",)
                )
    for option in meta.rule_options:
        usage[option.name] = _Usage(
            (f"Rule option '{option.id}' (choices: {', '.join(map(str, option.choices))}): "
             "rulebook section 'Formats and variants'.",)
        )
    parts = {"question": "the question", "decision": "our decision", "rationale": "why we decided so"}
    for clar in meta.clarifications:
        for part, label in parts.items():
            usage[getattr(clar, part)] = _Usage(
                (f"Clarification '{clar.id}', {label}: rulebook section 'Clarifications'.",)
            )
    copies: dict[str, int] = {}
    for card in game.cards:
        copies[card.id] = card.copies
        for name, key in card.text.items():
            if key in usage:
                continue
            label = f"{card.group}/{card.kind}" if card.kind else card.group
            usage[key] = _Usage(
                (
                    f"Card face: card '{card.id}' ({label}, printed {card.copies}x), field '{name}'. "
                    "Also quoted in the rulebook.",
                ),
                card=card.id,
                field=name,
            )
    return usage


def _generic_usage(key: str, domain: str) -> _Usage:
    if key.endswith(refs.FORMS_SUFFIX):
        name = key[: -len(refs.FORMS_SUFFIX)]
        return _Usage(
            (
                f"Inflected forms of the name '{name}', written 'case: form; case: form'. Rule "
                "sentences ask for them as {card:ID|case}. List the cases your language's sentences "
                "use (any lower-case case names, e.g. acc, dat, gen); not printed by itself.",
            )
        )
    if domain == COMMON and key.startswith("pnp."):
        return _Usage(("Print-and-play PDF: the instruction page before the card sheets (and its "
                       "back). Placeholders in braces are filled in; keep them.",))
    if domain == COMMON:
        return _Usage(("Shared rulebook text (headings, tables, page furniture) of every game.",))
    if key in builtin_keys():
        return _Usage((f"This game's own wording of the shared string {key} (rulebook headings, tables, "
                       "print-and-play page). Until it is translated, the shared string of your language "
                       "prints. Keep the placeholders in braces.",))
    parts = key.split(".")
    if parts[0] == "rules" and len(parts) > 1:
        section = _SECTIONS.get(parts[1], f"'A turn', the subsection '{parts[1]}' (its .title is the heading)")
        kind = "a heading" if parts[-1] == "title" else "a list item" if parts[-1].isdigit() else "a paragraph"
        return _Usage((f"Rulebook section {section}: {kind}; key {key}.",))
    return _Usage((f"Rulebook text; key {key}.",))


# --- loading the domains -------------------------------------------------------------------


def game_domain(game: "Game", display_root: Path | None = None, capacity: "fit.BoxMeasure | None" = None) -> Domain:
    language = game.meta.source_language
    doc = game.documents.get(f"{TEXT_DIR}/{language}.yaml")
    lines = _key_lines(doc) if doc is not None else {}
    return Domain(
        id=game.id,
        root=game.root,
        source_language=language,
        messages=dict(game.messages[language]),
        game=game,
        lines=lines,
        display_root=display_root,
        capacity=capacity,
    )


def common_domain(content_dir: Path, display_root: Path | None = None,
                  source_language: str = DEFAULT_SOURCE_LANGUAGE) -> Domain:
    """The shared strings as a catalogue whose source is ``source_language``.

    Raises :class:`~cardgen.errors.ContentError` when there is no shared text in that
    language (neither cardgen's nor the content folder's ``common/text``).
    """
    shared = load_shared(content_dir, display_root)
    return Domain(
        id=COMMON,
        root=shared.folder,
        source_language=source_language,
        messages=dict(shared.source(source_language)),
        display_root=display_root,
        shared=shared,
    )


def domains(content_dir: Path, game_ids: list[str] | None = None,
            capacity: "fit.BoxMeasure | None" = None) -> list[Domain]:
    """The domains to work on: the common strings first, then each game.

    The common strings take the source language most of the folder's games have; ``capacity``
    measures the games' card texts' length budgets (:attr:`Domain.capacity`).
    """
    from collections import Counter

    from cardgen.content.loader import load_games

    display_root = content_dir.parent
    ids = [g for g in (game_ids or []) if g != COMMON] or None
    games = load_games(content_dir, ids)  # every game when only the common strings are asked for
    result: list[Domain] = []
    if not game_ids or COMMON in game_ids:
        counts = Counter(game.meta.source_language for game in games)
        source = min(counts, key=lambda lang: (-counts[lang], lang)) if counts else DEFAULT_SOURCE_LANGUAGE
        common = common_domain(content_dir, display_root, source)
        common.build_languages = tuple(sorted({lang for game in games for lang in game.meta.languages}))
        result.append(common)
    if not game_ids or ids:
        result.extend(game_domain(game, display_root, capacity) for game in games)
    return result


def _key_lines(doc) -> dict[str, int]:
    lines: dict[str, int] = {}
    data = doc.data.get("messages", {}) if isinstance(doc.data, dict) else {}
    for key in data:
        mark = doc.key_marks.get(("messages", key))
        if mark is not None:
            lines[key] = mark.line
    return lines


_LANG = re.compile(r"^[a-z]{2,3}(_[A-Z]{2}|-[A-Z]{2})?$")


def check_language(language: str) -> str:
    """A language code Babel knows (``pl``, ``pt-BR``); I18nError otherwise."""
    from babel import Locale, UnknownLocaleError

    if not _LANG.fullmatch(language):  # not match: its "$" lets a final newline through
        raise I18nError(f"'{language}' is not a language code like 'pl' or 'pt-BR'")
    try:
        Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise I18nError(f"unknown language '{language}' (not in Babel's CLDR data)") from None
    return language


__all__ = [
    "COMMON",
    "DEFAULT_SOURCE_LANGUAGE",
    "Domain",
    "Locator",
    "SourceMessage",
    "check_language",
    "common_domain",
    "domains",
    "game_domain",
]
