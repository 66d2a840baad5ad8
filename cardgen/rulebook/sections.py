"""Every rulebook text key of a game, declared once, and the check of a game's rule text.

A rulebook prints a game's rules from message keys of its source text
(``content/<game>/text/<source>.yaml``) and of its translations
(``content/<game>/locale/<lang>.po``).  :data:`TEXT_KEYS` lists every key pattern
that ``templates/rulebook/rulebook.html.j2`` and :mod:`cardgen.rulebook.book`
read: whether a game must have it, where and as what it prints, which placeholders
its text may hold, and the rules a set of such keys must follow (numbering, a
subsection's title).  head-game's answer key reads no ``rules.*`` key: its words
are shared strings and card names.

The registry feeds three readers, so that they cannot disagree:

* :func:`check_rulebook_text` (``cardgen validate``): every missing, unknown or
  malformed key of a game in one run, instead of one failed build per key;
* :func:`where_it_prints`: the translator comment of a key;
* :func:`markdown_table`: the table in ``docs/rulebook-text.md`` (a test keeps it
  equal to the registry).

Placeholders are parsed by :mod:`cardgen.i18n.refs`, the module the rulebook
resolves them with; nothing here parses them a second time.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from cardgen.content.arguments import arguments
from cardgen.content.figures import ImageProblem, checked_image, markdown_images
from cardgen.errors import ContentError, I18nError, Locator, NewerRule, shown_path
from cardgen.i18n import plurals, refs

if TYPE_CHECKING:
    from cardgen.content.loader import Game

PREFIX = "rules."

# How a text prints.
HEADING = "heading"
PARAGRAPH = "paragraph"
LIST_ITEM = "list item"
LABEL = "label"

#: What a rulebook text may hold: references to the game's cards, groups, kinds and
#: settings.  No ``{name}`` argument: the rulebook fills none into a rules text.
REFERENCES = ("{card:ID}", "{card:ID|case}", "{group:ID}", "{kind:ID}", "{setting:NAME}")

# Rules a key (or the set of keys it belongs to) must follow besides its pattern; each is
# checked by check_rulebook_text wherever an entry lists it.
NUMBERED = "numbered 1, 2, 3 ... without gaps"
NEEDS_TITLE = "prints only when its subsection has a .title"
NEEDS_BODY = "needs the subsection's .intro or .1 as well"
NEEDS_RULE_TEXT = "prints only beside a card that has rule text"
IN_FORMATS = "prints only when 'Formats and variants' does"
OPENS_FORMATS = "'Formats and variants' prints when this key exists or game.yaml has rule options"
EACH_CHOICE = "one for each choice of each rule option in game.yaml (without it the choice's id prints)"
OPENS_END = "'End of the game' prints only when it has text"
NEEDS_COVER = "required when game.yaml names a cover picture (rulebook: {cover: ...}); prints only then"
OPENS_QUICK = "the 'Quick reference' page (and its line in the contents) prints only when it has text"

#: Subsection ids the template leaves out of 'Playing a turn' (its
#: ``subsections('rules', (...))`` call): those names belong to other sections.
TURN_SUBSECTION_RESERVED = ("formats", "options", "cards", "card", "quick", "setup", "turn", "end", "intro")

#: The section headings, in the words of the English edition.
COVER = "the cover"
ABOUT = "About the game"
GOAL = "Goal of the game"
SETUP = "Setup"
TURN = "Playing a turn"
CARDS = "The cards"
FORMATS = "Formats and variants"
END = "End of the game"
QUICK = "Quick reference"

_PARAMETER = re.compile(r"<([A-Za-z]+)>")
#: What each ``<parameter>`` of a pattern matches (a message key's characters).
_PARAMETER_REGEX = {"N": r"[0-9]+", "choice": r"[a-z0-9_.-]+"}
_ID_REGEX = r"[a-z0-9_-]+"


@dataclass(frozen=True)
class TextKey:
    """One rulebook text key pattern, e.g. ``rules.setup.<N>``."""

    pattern: str
    section: str  # the heading it prints under (COVER for the cover)
    printed: str  # where and when it prints, completing "printed ..."
    role: str  # HEADING, PARAGRAPH, LIST_ITEM or LABEL
    required: bool  # a <N> pattern: at least its .1; EACH_CHOICE: every choice
    example: tuple[str, str]  # (key, text)
    rules: tuple[str, ...] = ()
    placeholders: tuple[str, ...] = REFERENCES

    @property
    def parameters(self) -> tuple[str, ...]:
        return tuple(_PARAMETER.findall(self.pattern))

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        parts = _PARAMETER.split(self.pattern)
        regex = ""
        for index, part in enumerate(parts):
            if index % 2:
                regex += f"(?P<{part}>{_PARAMETER_REGEX.get(part, _ID_REGEX)})"
            else:
                regex += re.escape(part)
        return re.compile(regex)

    @property
    def family(self) -> str:
        """The pattern without its last part: ``rules.<sub>`` of ``rules.<sub>.<N>``."""
        return self.pattern.rsplit(".", 1)[0]


def _key(pattern: str, section: str, printed: str, role: str, example: tuple[str, str], *,
         required: bool = False, rules: tuple[str, ...] = ()) -> TextKey:
    return TextKey(pattern, section, printed, role, required, example, rules)


#: Every rulebook text key, in the order the rulebook prints them.
TEXT_KEYS: tuple[TextKey, ...] = (
    _key("rules.tagline", COVER, "on the cover, under the title", PARAGRAPH,
         ("rules.tagline", "Light up four colours before anyone else.")),
    _key("rules.cover.alt", COVER, "nowhere on the page: it describes the cover picture to whoever cannot see it "
         "(its alt text)", LABEL, ("rules.cover.alt", "Four strings of lights over a night street."),
         rules=(NEEDS_COVER,)),
    _key("rules.intro", ABOUT, f"under '{ABOUT}', as its first paragraph", PARAGRAPH,
         ("rules.intro", "A shedding game for 2 to 5 players.")),
    _key("rules.intro.<N>", ABOUT, f"under '{ABOUT}', one paragraph each", PARAGRAPH,
         ("rules.intro.1", "Each colour is a string of lights, switched on from 1 to 12."), rules=(NUMBERED,)),
    _key("rules.goal", GOAL, f"under '{GOAL}'", PARAGRAPH,
         ("rules.goal", "Be the first to play all your cards."), required=True),
    _key("rules.setup.<N>", SETUP, f"under '{SETUP}', as numbered steps", LIST_ITEM,
         ("rules.setup.1", "Deal {setting:hand_size} cards to each player."), required=True, rules=(NUMBERED,)),
    _key("rules.turn.intro", TURN, f"under '{TURN}', before its steps", PARAGRAPH,
         ("rules.turn.intro", "Play goes clockwise.")),
    _key("rules.turn.<N>", TURN, f"under '{TURN}', as numbered steps", LIST_ITEM,
         ("rules.turn.1", "Play one card onto the string of its colour, or draw a card."), required=True,
         rules=(NUMBERED,)),
    _key("rules.<sub>.title", TURN, f"under '{TURN}', after its steps, as the heading of subsection <sub>",
         HEADING, ("rules.wild.title", "Wild cards"), rules=(NEEDS_BODY,)),
    _key("rules.<sub>.intro", TURN, f"under '{TURN}', subsection <sub>, before its steps", PARAGRAPH,
         ("rules.wild.intro", "A wild card stands for any number."), rules=(NEEDS_TITLE,)),
    _key("rules.<sub>.<N>", TURN, f"under '{TURN}', subsection <sub>, as numbered steps", LIST_ITEM,
         ("rules.wild.1", "Play {card:wild|acc} on any string."), rules=(NUMBERED, NEEDS_TITLE)),
    _key("rules.cards.<group>", CARDS, f"under '{CARDS}', below the heading of group <group>", PARAGRAPH,
         ("rules.cards.numbers", "Twelve {group:numbers} cards in each of four colours.")),
    _key("rules.cards.<group>.<kind>", CARDS, f"under '{CARDS}', below the heading of kind <kind>", PARAGRAPH,
         ("rules.cards.actions.blackout", "A {kind:blackout} is played instead of a number.")),
    _key("rules.card.<card>", CARDS, f"under '{CARDS}', beside the picture of card <card>, after its rule text",
         PARAGRAPH, ("rules.card.blackout", "If no string can take it, keep {card:blackout} in your hand."),
         rules=(NEEDS_RULE_TEXT,)),
    _key("rules.formats.intro", FORMATS, f"under '{FORMATS}', as its first paragraph", PARAGRAPH,
         ("rules.formats.intro", "Two ways to play a longer game."), rules=(OPENS_FORMATS,)),
    _key("rules.formats.<sub>.title", FORMATS, f"under '{FORMATS}', as the heading of format <sub>", HEADING,
         ("rules.formats.cup.title", "Cup"), rules=(NEEDS_BODY, IN_FORMATS)),
    _key("rules.formats.<sub>.intro", FORMATS, f"under '{FORMATS}', format <sub>, before its steps", PARAGRAPH,
         ("rules.formats.cup.intro", "Play one round per player."), rules=(NEEDS_TITLE, IN_FORMATS)),
    _key("rules.formats.<sub>.<N>", FORMATS, f"under '{FORMATS}', format <sub>, as numbered steps", LIST_ITEM,
         ("rules.formats.cup.1", "The winner of a round scores the cards left in the other hands."),
         rules=(NUMBERED, NEEDS_TITLE, IN_FORMATS)),
    _key("rules.options.<option>.<choice>", FORMATS,
         f"under '{FORMATS}', in the rule options table, as the name of choice <choice> of option <option>",
         LABEL, ("rules.options.stuck.draw", "Draw until you can play"), required=True, rules=(EACH_CHOICE,)),
    _key("rules.end", END, f"under '{END}', as its first paragraph", PARAGRAPH,
         ("rules.end", "The round ends as soon as a player has no cards left."), rules=(OPENS_END,)),
    _key("rules.end.<N>", END, f"under '{END}', one paragraph each", PARAGRAPH,
         ("rules.end.1", "Ties are broken by the fewest cards in hand."), rules=(NUMBERED, OPENS_END)),
    _key("rules.quick", QUICK, f"on the '{QUICK}' page at the back, as its first bullet", LIST_ITEM,
         ("rules.quick", "Lights: 2 to 5 players, 60 cards."), rules=(OPENS_QUICK,)),
    _key("rules.quick.<N>", QUICK, f"on the '{QUICK}' page at the back, one bullet each", LIST_ITEM,
         ("rules.quick.1", "**Your turn:** play one card or draw one."), rules=(NUMBERED, OPENS_QUICK)),
)


def match_key(key: str) -> tuple[TextKey, dict[str, str]] | None:
    """The registry entry a key belongs to and the values of its parameters, or None
    when nothing in the rulebook prints it."""
    for entry in TEXT_KEYS:
        found = entry.regex.fullmatch(key)
        if found is None:
            continue
        values = found.groupdict()
        if entry.pattern.startswith("rules.<sub>") and values["sub"] in TURN_SUBSECTION_RESERVED:
            continue
        return entry, values
    return None


def where_it_prints(key: str) -> str | None:
    """Where ``key`` prints in the rulebook and as what, for a translator comment; None
    when the key is not rulebook text (or nothing prints it)."""
    found = match_key(key)
    if found is None:
        return None
    entry, values = found
    return f"Rulebook, {_printed(entry, values)} (a {entry.role})."


# --- the check ---------------------------------------------------------------------------


def check_rulebook_text(game: "Game") -> list[ContentError]:
    """Every problem of ``game``'s rulebook text, in one list.

    The source text (``text/<source>.yaml``): required keys missing, keys under
    ``rules.`` that nothing prints, numbering gaps, subsections without a title (or
    with nothing but one), and placeholders the rulebook cannot fill.  Each
    translation (``locale/<lang>.po``): the placeholders of its translated
    ``rules.*`` entries.  Errors name the file, and the line where there is one.

    Only what a rulebook cannot be without is required: a goal, setup steps, turn steps
    and the names of the rule options' choices (else their ids would print); a section
    without text (the tagline, the quick reference, the end of the game ...) is left out.
    Each problem is a :class:`~cardgen.errors.NewerRule` of content format 2: a game
    written in format 1 gets it as a warning (:mod:`cardgen.content.formats`).
    """
    return _Checker(game).run()


class _Checker:
    def __init__(self, game: "Game"):
        self.game = game
        self.language = game.meta.source_language
        self.messages = game.messages.get(self.language, {})
        self.document = game.documents.get(f"text/{self.language}.yaml")
        self.errors: list[ContentError] = []
        self.rules_keys = [k for k in self.messages if k.startswith(PREFIX)]
        self.matched: dict[str, tuple[TextKey, dict[str, str]]] = {}

    def run(self) -> list[ContentError]:
        if self.document is None:
            return []  # no source text: the loader has reported that already
        for key in self.rules_keys:
            found = match_key(key)
            if found is None:
                self.fail(f"unknown rulebook text key '{key}': nothing in the rulebook prints it"
                          f"{self.suggestion(key)}", key)
                continue
            self.matched[key] = found
            problem = self.id_problem(key, *found)
            if problem:
                self.fail(problem, key)
                continue
            if not self.messages[key].strip():
                self.fail(f"rulebook text '{key}' is empty; write its text or delete the key", key)
            for problem in [*self.placeholder_problems(found[0], self.messages[key], source=True),
                            *plurals.problems(self.messages[key], self.language, self.game.meta.settings, set())]:
                self.fail(problem, key)
            for problem in self.picture_problems(key, found[0], self.messages[key]):
                self.fail(problem, key)
        self.cover()
        self.required()
        self.numbering()
        self.subsections()
        self.translations()
        return self.errors

    # -- helpers --------------------------------------------------------------------------
    def fail(self, message: str, key: str | None = None) -> None:
        if key is None:
            where = Locator(file=self.document.display_path)
        else:
            where = self.document.locate(("messages", key), key=True)
        self.errors.append(_newer_rule(message, where))

    @functools.cached_property
    def candidates(self) -> list[str]:
        """Keys this game's rulebook could print (their first step for numbered ones)."""
        meta = self.game.meta
        keys = []
        for entry in TEXT_KEYS:
            if not entry.parameters:
                keys.append(entry.pattern)
            elif entry.parameters == ("N",) and "<sub>" not in entry.pattern:
                keys.append(entry.pattern.replace("<N>", "1"))
        for group in meta.groups:
            keys.append(f"rules.cards.{group.id}")
            keys.extend(f"rules.cards.{group.id}.{kind.id}" for kind in group.kinds)
        keys.extend(f"rules.card.{card.id}" for card in self.game.cards if "rule" in card.text)
        keys.extend(_option_keys(self.game))
        keys.extend(k for k in self.rules_keys if k.endswith(".title"))
        return keys

    def suggestion(self, key: str) -> str:
        close = _closest(key, self.candidates)
        return f"; did you mean '{close}'?" if close else ""

    def id_problem(self, key: str, entry: TextKey, values: dict[str, str]) -> str | None:
        """Why a key naming a group, kind, card or rule option of the game names none."""
        meta = self.game.meta
        groups = {g.id: g for g in meta.groups}

        def unknown(owner: str, kind: str, name: str, known: list[str]) -> str:
            def rewrite(close: str) -> str:  # the key with the misspelt id put right
                return _fill(entry.pattern, {**values, name: close})
            return _unknown(f"'{key}'", owner, kind, values[name], known, rewrite)

        if "group" in values and values["group"] not in groups:
            return unknown("game.yaml", "group", "group", list(groups))
        if "kind" in values:
            group = groups[values["group"]]
            if values["kind"] not in [k.id for k in group.kinds]:
                return unknown(f"group '{group.id}'", "kind", "kind", [k.id for k in group.kinds])
        if "card" in values:
            card = next((c for c in self.game.cards if c.id == values["card"]), None)
            if card is None:
                return unknown("cards.yaml", "card", "card", [c.id for c in self.game.cards])
            if NEEDS_RULE_TEXT in entry.rules and "rule" not in card.text:
                return (f"'{key}' does not print: the rulebook shows a card's longer explanation only "
                        f"beside a card with rule text, and card '{card.id}' has no 'rule' in its text")
        if "option" in values and key not in _option_keys(self.game):
            options = {o.id: o for o in meta.rule_options}
            option = options.get(values["option"])
            if option is None:
                return unknown("game.yaml", "rule option", "option", list(options))
            return unknown(f"rule option '{option.id}'", "choice", "choice",
                           [_choice_label(c) for c in option.choices])
        return None

    # -- structure ------------------------------------------------------------------------
    def required(self) -> None:
        for entry in TEXT_KEYS:
            if not entry.required:
                continue
            if EACH_CHOICE in entry.rules:
                wanted = _option_keys(self.game)
            elif entry.parameters == ("N",):
                family = entry.family
                if any(self.family_of(k) == family for k in self.matched):
                    continue  # a numbering gap at .1 is reported by numbering()
                wanted = [entry.pattern.replace("<N>", "1")]
            else:
                wanted = [entry.pattern]
            for key in wanted:
                if key not in self.messages:
                    printed = _printed(entry, match_key(key)[1])
                    self.fail(f"missing required rulebook text '{key}' (printed {printed})")

    def family_of(self, key: str) -> str | None:
        entry, _ = self.matched[key]
        return key.rsplit(".", 1)[0] if NUMBERED in entry.rules else None

    def numbering(self) -> None:
        families: dict[str, list[str]] = {}
        for key in self.matched:
            family = self.family_of(key)
            if family is not None:
                families.setdefault(family, []).append(key)
        for family, keys in families.items():
            numbers: dict[int, str] = {}
            for key in keys:
                text = key.rsplit(".", 1)[1]
                if text != str(int(text)) or int(text) == 0:
                    self.fail(f"'{key}' is not numbered 1, 2, 3 ...: write "
                              f"'{family}.{max(int(text), 1)}' (no leading zeros, no 0)", key)
                    continue
                numbers[int(text)] = key
            if not numbers:
                continue
            missing = [n for n in range(1, max(numbers) + 1) if n not in numbers]
            if missing:
                after = numbers[min(n for n in numbers if n > missing[0])]
                listed = ", ".join(str(n) for n in sorted(numbers))
                self.fail(f"'{family}.{missing[0]}' is missing: the keys of '{family}' are numbered "
                          f"{listed}; number them 1, 2, 3 ... without gaps (the rulebook prints "
                          "them in number order)", after)

    def subsections(self) -> None:
        """NEEDS_TITLE, NEEDS_BODY and IN_FORMATS: a subsection prints from its .title, so
        keys without one print nothing and a title alone prints an empty heading; a format
        prints only inside its section."""
        members: dict[str, list[str]] = {}  # 'rules.x' or 'rules.formats.x' -> its keys, in file order
        for key, (entry, _) in self.matched.items():
            if NEEDS_TITLE in entry.rules or NEEDS_BODY in entry.rules:
                members.setdefault(key.rsplit(".", 1)[0], []).append(key)
        # the template's condition for the 'Formats and variants' section (OPENS_FORMATS)
        formats_shown = "rules.formats.intro" in self.messages or bool(self.game.meta.rule_options)
        for prefix, keys in members.items():
            entry, values = self.matched[keys[0]]
            sub = values["sub"]
            name = f"subsection '{sub}' of '{entry.section}'"
            title = f"{prefix}.title"
            if title not in self.messages:
                hint = ""
                close = _closest(sub, list(TURN_SUBSECTION_RESERVED)) if entry.section == TURN else None
                if close:
                    hint = f"; or did you mean '{PREFIX}{close}.{keys[0].rsplit('.', 1)[1]}'?"
                self.fail(f"'{keys[0]}' does not print: {name} has no title; add '{title}' (its heading)"
                          f"{hint}", keys[0])
                continue
            if keys == [title]:
                self.fail(f"{name} has a title and no text: add '{prefix}.intro' or '{prefix}.1' "
                          "(its steps)", title)
            if any(IN_FORMATS in self.matched[k][0].rules for k in keys) and not formats_shown:
                self.fail(f"{name} does not print: the '{FORMATS}' section prints only when "
                          "'rules.formats.intro' exists or game.yaml has rule_options; add "
                          "'rules.formats.intro'", title)

    # -- placeholders ---------------------------------------------------------------------
    def placeholder_problems(self, entry: TextKey, text: str, *, source: bool) -> list[str]:
        """What in ``text`` the rulebook cannot fill in (refs.resolve would fail on it)."""
        problems = [
            f"malformed placeholder {bad!r}; rulebook text may hold {', '.join(entry.placeholders)}"
            for bad in refs.malformed_braces(text)
        ]
        for name in sorted(arguments(text)):
            problems.append(f"placeholder {{{name}}} is never filled in for rulebook text (it takes "
                            f"{', '.join(entry.placeholders)}; a literal brace cannot be written)")
        for ref in refs.find_references(text):
            problem = self.reference_problem(ref, source=source)
            if problem:
                problems.append(problem)
        return problems

    def reference_problem(self, ref: refs.Reference, *, source: bool) -> str | None:
        meta = self.game.meta

        def rewrite(close: str) -> str:
            return refs.Reference(ref.type, close, ref.form, 0, 0).source

        if ref.type == "setting":
            if ref.id in meta.settings:
                return None
            return _unknown(f"reference {ref.source}", "game.yaml", "setting", ref.id, sorted(meta.settings),
                            rewrite)
        try:
            target = refs.name_key(self.game, ref)
        except I18nError as error:
            ids = {
                "card": [c.id for c in self.game.cards],
                "group": [g.id for g in meta.groups],
                "kind": [k.id for g in meta.groups for k in g.kinds],
            }.get(ref.type, [])
            close = _closest(ref.id, ids) if ref.id not in ids else None  # else: a card without a name
            return error.message + (f"; did you mean '{rewrite(close)}'?" if close else "")
        if ref.form is None or not source:
            # a missing form in a translation prints the plain name with a build warning
            return None
        forms_key = target + refs.FORMS_SUFFIX
        try:
            forms = refs.parse_forms(self.messages.get(forms_key, ""))
        except ValueError as error:
            return f"reference {ref.source}: {forms_key}: {error}"
        if ref.form not in forms:
            return (f"reference {ref.source}: no '{ref.form}' form of '{target}' in {self.language} "
                    f"(add '{ref.form}: ...' to {forms_key})")
        return None

    def translations(self) -> None:
        """The placeholders of each translated rulebook text, in its PO file."""
        from cardgen.i18n.po import read_entries  # the PO reader may move; imported when used

        folder = self.game.root / "locale"
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.po")):
            language = path.stem
            if language == self.language:
                continue  # the rulebook never reads a PO file of the source language
            shown = shown_path(path, self.game.display_root)
            try:
                entries = read_entries(path, str(shown), root=self.game.root)
            except I18nError:
                continue  # a broken PO file is the loader's error already
            for key, entry in entries.items():
                if not (entry.translated and key in self.matched):
                    continue
                problems = self.placeholder_problems(self.matched[key][0], entry.text, source=False)
                problems += plurals.problems(entry.text, language, self.game.meta.settings, set())
                problems += self.picture_problems(key, self.matched[key][0], entry.text)
                for problem in problems:
                    where = Locator(file=shown, line=entry.line, field=key, language=language)
                    self.errors.append(_newer_rule(f"translation of '{key}': {problem}", where))

    # -- pictures ---------------------------------------------------------------------------
    def picture_problems(self, key: str, entry: TextKey, text: str) -> list[str]:
        """What is wrong with each ``![description](file)`` of a rulebook text (see
        :mod:`cardgen.content.figures`): where it stands, its description, its file."""
        problems = []
        for image in markdown_images(text):
            shown = image.path[:80]
            if entry.role not in (PARAGRAPH, LIST_ITEM):
                problems.append(f"picture '{shown}': a {entry.role} cannot hold a picture; place it in a "
                                "paragraph or a step")
                continue
            if not image.alt:
                problems.append(f"picture '{shown}' has no description: write what it shows between the brackets, "
                                f"![what it shows]({shown}) (the PDF's alt text, read out to whoever cannot see it)")
            try:
                checked_image(self.game.root, image.path)
            except ImageProblem as problem:
                problems.append(f"picture {problem}")
        return problems

    def cover(self) -> None:
        """NEEDS_COVER: the cover picture game.yaml names, and its description."""
        settings = self.game.meta.rulebook
        cover = settings.cover if settings is not None else None
        key = "rules.cover.alt"
        if cover is None:
            if key in self.messages:
                self.fail(f"'{key}' does not print: it describes the cover picture, and game.yaml names none "
                          "(rulebook: {cover: art/cover.png})", key)
            return
        doc = self.game.documents.get("game.yaml")
        where = doc.locate(("rulebook", "cover")) if doc is not None else Locator(file=self.game.root / "game.yaml")
        try:
            checked_image(self.game.root, cover)
        except ImageProblem as problem:
            self.errors.append(ContentError(f"rulebook cover picture {problem}", where))
        if key not in self.messages:
            self.errors.append(ContentError(
                f"the rulebook cover picture '{cover[:80]}' has no description: write what it shows as '{key}' in "
                f"text/{self.language}.yaml (the PDF's alt text, read out to whoever cannot see it)", where))


def _newer_rule(message: str, where: Locator) -> ContentError:
    """A rulebook text problem: validate checks rulebook text since content format 2, so a
    game written in format 1 (which printed what it had) gets it as a warning."""
    return NewerRule(message, where, since=2)


def _option_keys(game: "Game") -> list[str]:
    """The label keys of every choice of every rule option (those a key can spell)."""
    keys = []
    for option in game.meta.rule_options:
        for choice in option.choices:
            key = f"rules.options.{option.id}.{_choice_label(choice)}"
            if re.fullmatch(r"[a-z0-9_.-]+", key) and ".." not in key:
                keys.append(key)
    return keys


def _choice_label(choice: object) -> str:
    """The label :func:`cardgen.rulebook.book.rule_options` looks a choice up by."""
    return str(choice).lower()


def _printed(entry: TextKey, values: dict[str, str]) -> str:
    """``entry.printed`` with its parameters named ('group <group>' -> "group 'numbers'")."""
    return _fill(entry.printed, {name: f"'{value}'" for name, value in values.items()})


def _fill(pattern: str, values: dict[str, str]) -> str:
    return _PARAMETER.sub(lambda m: values.get(m.group(1), m.group(0)), pattern)


def _unknown(subject: str, owner: str, kind: str, value: str, known: list[str],
             rewrite: Callable[[str], str]) -> str:
    """"<subject>: <owner> has no <kind> '<value>' (<kind>s: ...); did you mean <rewritten>?"."""
    listed = f" ({kind}s: {', '.join(known)})" if known and len(known) <= 12 else ""
    close = _closest(value, known)
    suggestion = f"; did you mean '{rewrite(close)}'?" if close else ""
    return f"{subject}: {owner} has no {kind} '{value}'{listed}{suggestion}"


def _closest(word: str, candidates: list[str], cutoff: float = 0.75) -> str | None:
    """The candidate ``word`` is most likely a misspelling of (compared without 'rules.')."""
    strip = {c.removeprefix(PREFIX): c for c in candidates}
    found = difflib.get_close_matches(word.removeprefix(PREFIX), list(strip), n=1, cutoff=cutoff)
    return strip[found[0]] if found else None


# --- documentation -----------------------------------------------------------------------


def markdown_table() -> str:
    """The table of ``docs/rulebook-text.md``: one row per key pattern of :data:`TEXT_KEYS`."""
    rows = [
        "| key | required | prints | as | placeholders | rules | example |",
        "|---|---|---|---|---|---|---|",
    ]
    for entry in TEXT_KEYS:
        if not entry.required:
            required = "optional"
        elif EACH_CHOICE in entry.rules:
            required = "**required**, every choice"
        elif entry.parameters == ("N",):
            required = "**required** (at least `.1`)"
        else:
            required = "**required**"
        placeholders = ("card, group, kind and setting references" if entry.placeholders == REFERENCES
                        else ", ".join(f"`{p}`" for p in entry.placeholders))
        key, text = entry.example
        cells = [f"`{entry.pattern}`", required, _code_parameters(entry.printed), entry.role, placeholders,
                 "; ".join(entry.rules) or "-", f"`{key}: \"{text}\"`"]
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"


def _code_parameters(text: str) -> str:
    """``<sub>`` as code: outside a code span Markdown would take it for an HTML tag."""
    return _PARAMETER.sub(lambda m: f"`{m.group(0)}`", text)


__all__ = [
    "HEADING",
    "LABEL",
    "LIST_ITEM",
    "PARAGRAPH",
    "REFERENCES",
    "TEXT_KEYS",
    "TURN_SUBSECTION_RESERVED",
    "TextKey",
    "check_rulebook_text",
    "markdown_table",
    "match_key",
    "where_it_prints",
]
