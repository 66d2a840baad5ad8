"""Cross-reference checks over a game that already passed the schema.

The schema says each file is well formed on its own; these checks say the
files agree with each other: ids are unique, every reference (group, kind,
back, message key, art file, rule option) resolves, card attributes match
their declarations, the counts match the composition table, and every open
point of the rules has a clarification.  Each check returns errors instead
of raising, so one run reports everything.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cardgen.content.arguments import is_argument_name
from cardgen.content.model import AttributeSpec
from cardgen.content.safefile import UnsafeFile, check_name
from cardgen.errors import ContentError, Locator, NewerRule

if TYPE_CHECKING:
    from cardgen.content.loader import Game

GAME = "game.yaml"
_BRACES = re.compile(r"\{[^{}]*\}")
CARDS = "cards.yaml"
#: The rewrite of 'cardgen upgrade' for limits a format 1 game kept without an engine.
LIMITS_WITHOUT_ENGINE = "limits-without-engine"


@dataclass(frozen=True)
class CompositionRow:
    """One line of the table ``cardgen validate`` prints."""

    group: str
    kind: str | None
    declared: int
    found: int

    @property
    def ok(self) -> bool:
        return self.declared == self.found


def composition(game: "Game") -> list[CompositionRow]:
    """Declared and found counts per group and kind, then the total."""
    by_group: Counter[str] = Counter()
    by_kind: Counter[tuple[str, str | None]] = Counter()
    for card in game.cards:
        by_group[card.group] += card.copies
        by_kind[card.group, card.kind] += card.copies
    rows: list[CompositionRow] = []
    for group in game.meta.groups:
        rows.append(CompositionRow(group.id, None, group.cards, by_group[group.id]))
        for kind in group.kinds:
            rows.append(CompositionRow(group.id, kind.id, kind.cards, by_kind[group.id, kind.id]))
    rows.append(CompositionRow("total", None, game.meta.total_cards, sum(by_group.values())))
    return rows


def check_game(game: "Game") -> list[ContentError]:
    checker = _Checker(game)
    for check in (
        checker.identity,
        checker.unique_ids,
        checker.languages,
        checker.message_keys,
        checker.card_references,
        checker.files,
        checker.fonts,
        checker.attributes,
        checker.counts,
        checker.clarifications,
        checker.ranges,
        checker.labels,
    ):
        check()
    return checker.errors


class _Checker:
    def __init__(self, game: "Game"):
        self.game = game
        self.meta = game.meta
        self.errors: list[ContentError] = []

    # -- helpers -----------------------------------------------------------
    def at(self, file: str, *where: str | int, key: bool = False, **extra) -> Locator:
        doc = self.game.documents.get(file)
        if doc is None:
            return Locator(file=Path(file), **extra)
        return doc.locate(tuple(where), key=key, **extra)

    def fail(self, message: str, locator: Locator) -> None:
        self.errors.append(ContentError(message, locator))

    def fail_from_format_2(self, message: str, locator: Locator, fix: str | None = None) -> None:
        """A rule content format 1 did not have: a warning for a game still written in it."""
        self.errors.append(NewerRule(message, locator, since=2, fix=fix))

    def card_at(self, index: int, *where: str | int, key: bool = False) -> Locator:
        return self.at(CARDS, "cards", index, *where, key=key, card=self.game.cards[index].id)

    # -- checks ------------------------------------------------------------
    def identity(self) -> None:
        folder = self.game.root.name
        if self.meta.id != folder:
            # The command line names games by folder; an id that differs would
            # make 'cardgen build head-game' and the manifest disagree.
            self.fail(
                f"game id '{self.meta.id}' does not match its folder name '{folder}'",
                self.at(GAME, "id"),
            )

    def unique_ids(self) -> None:
        def duplicates(items: Iterable[str], file: str, *prefix: str | int) -> None:
            seen: dict[str, int] = {}
            for index, item_id in enumerate(items):
                if item_id in seen:
                    self.fail(
                        f"duplicate id '{item_id}' (also at {_path(prefix)}[{seen[item_id]}])",
                        self.at(file, *prefix, index, "id"),
                    )
                seen.setdefault(item_id, index)

        meta = self.meta
        duplicates((g.id for g in meta.groups), GAME, "groups")
        for gi, group in enumerate(meta.groups):
            duplicates((k.id for k in group.kinds), GAME, "groups", gi, "kinds")
        duplicates((b.id for b in meta.backs), GAME, "backs")
        duplicates((o.id for o in meta.rule_options), GAME, "rule_options")
        duplicates((c.id for c in meta.clarifications), GAME, "clarifications")
        for index, point in enumerate(meta.open_points):
            if point in meta.open_points[:index]:
                self.fail(f"open point '{point}' is listed twice", self.at(GAME, "open_points", index))
        duplicates((c.id for c in self.game.cards), CARDS, "cards")

    def languages(self) -> None:
        meta = self.meta
        if meta.source_language not in meta.languages:
            self.fail(
                f"source language '{meta.source_language}' must be one of languages {meta.languages}",
                self.at(GAME, "source_language"),
            )
        source_file = self.game.root / "text" / f"{meta.source_language}.yaml"
        if not source_file.is_file():
            self.fail(
                f"no text for the source language: expected text/{meta.source_language}.yaml",
                Locator(file=self._display(self.game.root / "text")),
            )
        from cardgen.content import fallbacks

        self.errors.extend(fallbacks.check(meta, self.game.documents.get(GAME), self._display(self.game.root / GAME)))
        for language in self.game.messages:
            if language not in meta.languages:
                self.fail(
                    f"text/{language}.yaml is for a language not listed in game.yaml "
                    f"languages {meta.languages}",
                    self.at(f"text/{language}.yaml", "language"),
                )

    def message_keys(self) -> None:
        source = self.game.messages.get(self.meta.source_language)
        if source is None:
            return  # already reported by languages()
        meta = self.meta
        references: list[tuple[str, Locator]] = [(meta.title, self.at(GAME, "title"))]
        for i, back in enumerate(meta.backs):
            references.append((back.name, self.at(GAME, "backs", i, "name")))
        for gi, group in enumerate(meta.groups):
            references.append((group.name, self.at(GAME, "groups", gi, "name")))
            if group.label is not None:
                references.append((group.label, self.at(GAME, "groups", gi, "label")))
            for ki, kind in enumerate(group.kinds):
                references.append((kind.name, self.at(GAME, "groups", gi, "kinds", ki, "name")))
                if kind.label is not None:
                    references.append((kind.label, self.at(GAME, "groups", gi, "kinds", ki, "label")))
        for i, option in enumerate(meta.rule_options):
            references.append((option.name, self.at(GAME, "rule_options", i, "name")))
        for i, clar in enumerate(meta.clarifications):
            for part in ("question", "decision", "rationale"):
                references.append((getattr(clar, part), self.at(GAME, "clarifications", i, part)))
        for ci, card in enumerate(self.game.cards):
            for name, key in card.text.items():
                references.append((key, self.card_at(ci, "text", name)))
        for key, locator in references:
            if key not in source:
                self.fail(
                    f"unknown message key '{key}': not defined in text/{meta.source_language}.yaml",
                    locator,
                )

    def card_references(self) -> None:
        groups = {g.id: g for g in self.meta.groups}
        backs = {b.id for b in self.meta.backs}
        for ci, card in enumerate(self.game.cards):
            group = groups.get(card.group)
            if group is None:
                self.fail(
                    f"unknown group '{card.group}'; expected one of: {', '.join(groups)}",
                    self.card_at(ci, "group"),
                )
            elif card.kind is None and group.kinds:
                self.fail(
                    f"missing 'kind': group '{group.id}' has kinds "
                    f"{', '.join(k.id for k in group.kinds)}",
                    self.card_at(ci),
                )
            elif card.kind is not None and card.kind not in {k.id for k in group.kinds}:
                expected = ", ".join(k.id for k in group.kinds) or "none (the group has no kinds)"
                self.fail(
                    f"unknown kind '{card.kind}' in group '{group.id}'; expected: {expected}",
                    self.card_at(ci, "kind"),
                )
            if card.back not in backs:
                self.fail(
                    f"unknown back '{card.back}'; expected one of: {', '.join(sorted(backs))}",
                    self.card_at(ci, "back"),
                )

    def files(self) -> None:
        for i, back in enumerate(self.meta.backs):
            if back.art is not None:
                self._check_file(back.art, self.at(GAME, "backs", i, "art"))
        for name, path in self.meta.data_files.items():
            self._check_file(path, self.at(GAME, "data_files", name), folder_ok=True)
        for ci, card in enumerate(self.game.cards):
            if card.art is not None:
                self._check_file(card.art, self.card_at(ci, "art"))

    def fonts(self) -> None:
        """The game's own font families (names, fallback chains, files: each read and parsed here,
        so a broken font is an error at the line that names it) and the rulebook's."""
        from cardgen.content.fontfiles import family_errors
        from cardgen.content.model import BUILTIN_FONT_FAMILIES

        every = self.game.font_families()
        own = {name: every[name] for name in self.meta.fonts}
        shared = {name: family for name, family in self.game.shared_fonts.items() if name not in own}
        self.errors += family_errors(own, lambda *where, key=False: self.at(GAME, "fonts", *where, key=key),
                                     known=shared)
        chosen = self.meta.rulebook.fonts if self.meta.rulebook is not None else None
        for part in ("body", "headings"):
            wanted = getattr(chosen, part) if chosen is not None else None
            if wanted is not None and wanted not in every and wanted not in BUILTIN_FONT_FAMILIES:
                known = [*every, *BUILTIN_FONT_FAMILIES]
                self.fail(f"unknown font family '{wanted}'; expected one of: {', '.join(known)}",
                          self.at(GAME, "rulebook", "fonts", part))

    def _check_file(self, relative: str, locator: Locator, *, folder_ok: bool = False) -> None:
        root = self.game.root.resolve()
        try:
            check_name(relative)
        except UnsafeFile as exc:
            printable = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in relative[:60])
            self.fail(f"path '{printable}{'...' if len(relative) > 60 else ''}' cannot name a file: {exc}", locator)
            return
        if Path(relative).is_absolute():
            self.fail(f"path '{relative}' is absolute; give it relative to the game folder", locator)
            return
        try:
            target = (root / relative).resolve()
            exists = target.is_file() or (folder_ok and target.is_dir())
        except (OSError, RuntimeError) as exc:  # a name too long for the file system, a symlink loop
            self.fail(f"path '{relative[:60]}' cannot name a file: {getattr(exc, 'strerror', None) or exc}", locator)
            return
        if not target.is_relative_to(root):
            self.fail(f"path '{relative}' leads outside the game folder {self._display(root)}", locator)
        elif not exists and target.exists() and not target.is_dir():
            self.fail(f"'{relative}' is not a regular file (a FIFO, a device or a socket)", locator)
        elif not exists:
            what = "file or folder" if folder_ok else "file"
            self.fail(f"{what} not found: '{relative}' (looked in {self._display(root)})", locator)
        elif not folder_ok:
            self._check_image(relative, target, locator)

    def _check_image(self, relative: str, target: Path, locator: Locator) -> None:
        """An image file named as art decodes (read as the build reads it: size caps, no bomb)."""
        from cardgen.content.images import RasterError, is_raster_name, verify

        if is_raster_name(relative):
            try:
                verify(target)
            except RasterError as exc:
                self.fail(exc.named(relative).message, locator)

    def attributes(self) -> None:
        specs = self.meta.attributes
        for name, spec in specs.items():
            if spec.type == "enum" and not spec.values:
                self.fail("an enum attribute needs a non-empty 'values' list", self.at(GAME, "attributes", name))
            if spec.minimum is not None and spec.maximum is not None and spec.minimum > spec.maximum:
                self.fail_from_format_2(f"minimum {spec.minimum} is greater than maximum {spec.maximum}: no "
                                        "value fits", self.at(GAME, "attributes", name, "minimum"))
            groups = [g.id for g in self.meta.groups]
            for k, group in enumerate(spec.required_in):
                if group not in groups:
                    self.fail_from_format_2(
                        f"required_in names group '{group}', which game.yaml does not declare; expected one "
                        f"of: {', '.join(groups)}", self.at(GAME, "attributes", name, "required_in", k))
        for ci, card in enumerate(self.game.cards):
            for name, value in card.attrs.items():
                spec = specs.get(name)
                if spec is None:
                    declared = ", ".join(specs) or "none"
                    self.fail(
                        f"unknown attribute '{name}'; game.yaml declares: {declared}",
                        self.card_at(ci, "attrs", name, key=True),
                    )
                    continue
                problem = _attribute_problem(spec, value)
                if problem:
                    self.fail(f"attribute '{name}': {problem}", self.card_at(ci, "attrs", name))
            for name, spec in specs.items():
                if card.group in spec.required_in and name not in card.attrs:
                    self.fail(
                        f"missing attribute '{name}' (required for group '{card.group}')",
                        self.card_at(ci, "attrs") if card.attrs else self.card_at(ci),
                    )

    def labels(self) -> None:
        """A declared label (cardgen.i18n.labels) may use {n} and the one-word attributes
        that every card it labels carries; anything else would fail only at build."""
        source = self.game.messages.get(self.meta.source_language, {})
        for gi, group in enumerate(self.meta.groups):
            kinds_labelled = {k.id for k in group.kinds if k.label is not None}
            owners = [(group, ("groups", gi), lambda c: c.kind not in kinds_labelled)]
            owners += [(kind, ("groups", gi, "kinds", ki), lambda c, k=kind.id: c.kind == k)
                       for ki, kind in enumerate(group.kinds)]
            for owner, where, labelled in owners:
                if owner.label is None or owner.label not in source:
                    continue
                cards = [c for c in self.game.cards
                         if c.group == group.id and labelled(c) and "name" not in c.text]
                for brace in _BRACES.findall(source[owner.label]):
                    name = brace[1:-1]
                    if not is_argument_name(name):
                        problem = f"{brace} is not a label placeholder"
                    else:
                        lacking = next((c.id for c in cards if name != "n" and name not in c.attrs), None)
                        if lacking is None:
                            continue
                        problem = f"{brace} names no attribute of card '{lacking}'"
                    self.fail(
                        f"label '{owner.label}' (text/{self.meta.source_language}.yaml): {problem}; a label "
                        "may use {n} (the card's number) and {ATTR} for a one-word attribute of its cards",
                        self.at(GAME, *where, "label"),
                    )

    def counts(self) -> None:
        groups = {g.id for g in self.meta.groups}
        for row in composition(self.game):
            if row.ok or (row.group != "total" and row.group not in groups):
                continue
            if row.group == "total":
                self.fail(
                    f"total_cards is {row.declared} but the cards add up to {row.found} "
                    "(copies counted)",
                    self.at(GAME, "total_cards"),
                )
                continue
            gi = next(i for i, g in enumerate(self.meta.groups) if g.id == row.group)
            if row.kind is None:
                where = self.at(GAME, "groups", gi, "cards")
                what = f"group '{row.group}'"
            else:
                ki = next(i for i, k in enumerate(self.meta.groups[gi].kinds) if k.id == row.kind)
                where = self.at(GAME, "groups", gi, "kinds", ki, "cards")
                what = f"kind '{row.kind}' of group '{row.group}'"
            self.fail(
                f"count mismatch: {what} declares {row.declared} cards, "
                f"cards.yaml has {row.found} (copies counted)",
                where,
            )
        kinds_total = {
            g.id: sum(k.cards for k in g.kinds) for g in self.meta.groups if g.kinds
        }
        for gi, group in enumerate(self.meta.groups):
            if group.id in kinds_total and kinds_total[group.id] != group.cards:
                self.fail(
                    f"group '{group.id}' declares {group.cards} cards but its kinds add up "
                    f"to {kinds_total[group.id]}",
                    self.at(GAME, "groups", gi, "cards"),
                )

    def clarifications(self) -> None:
        meta = self.meta
        answered = {c.id for c in meta.clarifications}
        options = {o.id: o for o in meta.rule_options}
        for index, point in enumerate(meta.open_points):
            if point not in answered:
                self.fail(
                    f"open point '{point}' has no clarification; add one to clarifications "
                    "with question, decision and rationale",
                    self.at(GAME, "open_points", index),
                )
        for index, clar in enumerate(meta.clarifications):
            if clar.id not in meta.open_points:
                self.fail(
                    f"clarification '{clar.id}' answers no listed open point; "
                    "add it to open_points or fix the id",
                    self.at(GAME, "clarifications", index, "id"),
                )
            if clar.option is not None and clar.option not in options:
                self.fail(
                    f"unknown rule option '{clar.option}'; expected one of: "
                    f"{', '.join(options) or 'none declared'}",
                    self.at(GAME, "clarifications", index, "option"),
                )
        for index, option in enumerate(meta.rule_options):
            if option.default not in option.choices:
                self.fail(
                    f"default {option.default!r} is not one of the choices {option.choices}",
                    self.at(GAME, "rule_options", index, "default"),
                )

    def ranges(self) -> None:
        meta = self.meta
        if meta.players.min > meta.players.max:
            self.fail(
                f"players.min ({meta.players.min}) is greater than players.max ({meta.players.max})",
                self.at(GAME, "players"),
            )
        limits = meta.limits
        if limits is None:
            return
        if meta.engine is None:
            # limits are measured by playing the game; without an engine nothing would check them
            self.fail_from_format_2(
                "limits: need an engine to play the game; remove 'limits:' or name the game's "
                "engine in 'engine:'",
                self.at(GAME, "limits", key=True),
                fix=LIMITS_WITHOUT_ENGINE,
            )
        if limits.players is not None and not meta.players.min <= limits.players <= meta.players.max:
            self.fail(
                f"limits.players {limits.players} is outside the game's "
                f"{meta.players.min}..{meta.players.max} players",
                self.at(GAME, "limits", "players"),
            )
        for where, bounds in [((), limits), *((("by_players", count), extra) for count, extra in
                                             sorted(limits.by_players.items(), key=lambda item: int(item[0])))]:
            band = bounds.first_player_win_rate
            if band is not None and not 0 <= band[0] <= band[1] <= 1:
                self.fail(
                    f"first_player_win_rate must be [low, high] with 0 <= low <= high <= 1, found {band}",
                    self.at(GAME, "limits", *where, "first_player_win_rate"),
                )
        for count in sorted(limits.by_players, key=int):
            if not meta.players.min <= int(count) <= meta.players.max:
                self.fail(
                    f"limits.by_players names {count} players, outside the game's "
                    f"{meta.players.min}..{meta.players.max} players",
                    self.at(GAME, "limits", "by_players", count, key=True),
                )

    def _display(self, path: Path) -> Path:
        doc = self.game.documents.get(GAME)
        if doc is None:
            return path
        # game.yaml is displayed relative to some root; show paths the same way
        shown_game_dir = doc.display_path.parent
        try:
            return shown_game_dir / path.resolve().relative_to(self.game.root.resolve())
        except ValueError:
            return path


def _attribute_problem(spec: AttributeSpec, value: object) -> str | None:
    if spec.type == "boolean":
        return None if isinstance(value, bool) else f"expected true or false, found {value!r}"
    if spec.type == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected an integer, found {value!r}"
        if spec.minimum is not None and value < spec.minimum:
            return f"expected at least {spec.minimum}, found {value}"
        if spec.maximum is not None and value > spec.maximum:
            return f"expected at most {spec.maximum}, found {value}"
        return None
    if spec.type == "enum":
        if value not in (spec.values or []):
            return f"expected one of {', '.join(map(str, spec.values or []))}; found {value!r}"
        return None
    return None if isinstance(value, str) else f"expected text, found {value!r}"


def _path(parts: Iterable[str | int]) -> str:
    from cardgen.content.yamlsource import format_path

    return format_path(tuple(parts))

