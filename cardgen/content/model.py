"""The typed content model: what a game's YAML files may say.

Three kinds of file make a game folder ``content/<game>/``:

* ``game.yaml``  -> :class:`GameMeta`: title, players, card size, backs, the
  composition table (groups and kinds with their declared counts), card
  attributes, engine settings, rule options, open points and their
  clarifications, playability limits, the rulebook's cover picture;
* ``cards.yaml`` -> :class:`CardsFile`: every card, written out or made by a
  generator (:class:`CardGenerator`, expanded by ``cardgen.content.generators``);
* ``text/<lang>.yaml`` -> :class:`MessagesFile`: the text behind each message
  key, in the game's source language (game.yaml's ``source_language``).

Every model forbids unknown keys and checks types strictly (``"3"`` is not a
number), so a misspelt key is an error instead of a silent default.  The JSON
Schema files in ``content/schema/`` are generated from these classes
(``cardgen.content.schema``) and a test keeps them in sync.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, StringConstraints, Tag

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
KEY_PATTERN = r"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)*$"
LANG_PATTERN = r"^[a-z]{2,3}(-[A-Z]{2})?$"
COLOR_PATTERN = r"^#[0-9a-fA-F]{6}$"
SETTING_PATTERN = r"^[a-z][a-z0-9_]*$"

#: The content format this cardgen writes; it reads every format from 1 up to this one
#: (cardgen.content.formats says what changed in each and how 'cardgen upgrade' rewrites it).
CONTENT_FORMAT = 2
PLACEHOLDER_PATTERN = r"^[a-z][a-z0-9_]{0,31}$"

PLAYERS_PATTERN = r"^[1-9][0-9]?$"
PATTERN_MEANINGS = {
    PLAYERS_PATTERN: "a player count written as a whole number (like 5)",
    ID_PATTERN: "a lower-case id of letters, digits and single hyphens (like 'geo-france')",
    KEY_PATTERN: "a message key of lower-case words joined by dots (like 'card.france.name')",
    LANG_PATTERN: "a language code (like 'ru', 'en' or 'pt-BR')",
    COLOR_PATTERN: "a colour written #rrggbb",
    SETTING_PATTERN: "a lower-case setting name of letters, digits and underscores",
    PLACEHOLDER_PATTERN: "a placeholder name of lower-case letters, digits and underscores (like 'color')",
}

Id = Annotated[
    str,
    StringConstraints(pattern=ID_PATTERN),
    Field(description="Lower-case ASCII identifier: letters, digits and single hyphens."),
]
MessageKey = Annotated[
    str,
    StringConstraints(pattern=KEY_PATTERN),
    Field(description="Key of a message in text/<lang>.yaml, e.g. 'card.france.name'."),
]
Language = Annotated[
    str,
    StringConstraints(pattern=LANG_PATTERN),
    Field(description="Language code such as 'ru', 'en', 'de' or 'pt-BR'."),
]
Color = Annotated[
    str,
    StringConstraints(pattern=COLOR_PATTERN),
    Field(description="Colour as #rrggbb."),
]
RelativePath = Annotated[
    str,
    StringConstraints(min_length=1),
    Field(description="Path relative to the game folder; must stay inside it."),
]
SettingName = Annotated[
    str,
    StringConstraints(pattern=SETTING_PATTERN),
    Field(description="Engine setting name in snake_case, e.g. 'hand_size'."),
]
Scalar = str | int | float | bool


class Strict(BaseModel):
    # defer_build: a validator is built when first used, so a run whose files all come from
    # the cache (cardgen.content.memo) never builds one
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class PlayerCount(Strict):
    min: int = Field(ge=1, le=20)
    max: int = Field(ge=1, le=20)


class CardSize(Strict):
    """Trim size of one card; klepka's tiles are square."""

    width_mm: float = Field(gt=10, le=300)
    height_mm: float = Field(gt=10, le=300)
    corner_radius_mm: float = Field(default=3.0, ge=0, le=20)


class Back(Strict):
    id: Id
    name: MessageKey
    color: Color
    art: RelativePath | None = None


#: Cards without a 'name' text print a label instead of their id (cardgen.i18n.labels).
LABEL_DESCRIPTION = (
    "Message printed for its cards that have no 'name' text (rulebook, {card.label} on faces); "
    "may use {n}, the card's number in deck order, and {ATTR} for a one-word attribute. "
    "Without one: the kind's (else group's) name and the number."
)


class Kind(Strict):
    """A kind of card inside a group, with the count the rulebook states."""

    id: Id
    name: MessageKey
    cards: int = Field(ge=0, description="Physical cards of this kind, copies included.")
    label: MessageKey | None = Field(default=None, description=LABEL_DESCRIPTION)


class Group(Strict):
    """One row of the composition table the rulebook prints."""

    id: Id
    name: MessageKey
    color: Color
    cards: int = Field(ge=0, description="Physical cards in the group, copies included.")
    kinds: list[Kind] = Field(default_factory=list)
    label: MessageKey | None = Field(default=None, description=LABEL_DESCRIPTION)


class AttributeSpec(Strict):
    """Declares one engine attribute that cards may carry under ``attrs``."""

    type: Literal["string", "integer", "boolean", "enum"]
    values: list[str | int] | None = Field(default=None, description="Allowed values of an enum.")
    minimum: int | None = None
    maximum: int | None = None
    required_in: list[Id] = Field(
        default_factory=list, description="Groups whose every card must carry the attribute."
    )
    description: str = ""


class RuleOption(Strict):
    """A named rule variant; the seed's reading is the default."""

    id: Id
    name: MessageKey
    default: Scalar
    choices: list[Scalar] = Field(min_length=1)


class Clarification(Strict):
    """Our answer to one open point of the rules, with why."""

    id: Id = Field(description="The open point this answers.")
    question: MessageKey
    decision: MessageKey
    rationale: MessageKey
    option: Id | None = Field(default=None, description="Rule option that holds the decision.")


class PlayerLimits(Strict):
    """Limits for one player count (``limits.by_players.N``); a limit left out is not checked there."""

    completion_rate_min: float | None = Field(default=None, ge=0, le=1)
    turns_max: int | None = Field(default=None, ge=1, le=1_000_000)
    turns_p95_max: float | None = Field(default=None, gt=0, le=1_000_000)
    first_player_win_rate: list[float] | None = Field(
        default=None, min_length=2, max_length=2, description="[low, high] band."
    )
    balance_min: float | None = Field(default=None, ge=0, le=1)
    draw_rate_max: float | None = Field(default=None, ge=0, le=1)


class Limits(Strict):
    """Playability limits that ``cardgen validate --simulate`` checks.

    The limits at the top hold at ``players`` (default: the game's minimum);
    ``by_players`` gives limits for other player counts.  ``cardgen sweep``
    checks a cell only against the limits of its own player count.
    """

    games: int = Field(default=1000, ge=1, le=1_000_000)
    seed: int = 1
    players: int | None = Field(default=None, ge=1, le=20)
    completion_rate_min: float = Field(default=1.0, ge=0, le=1)
    turns_max: int = Field(default=10_000, ge=1, description="Hard bound on one game's length.")
    turns_p95_max: float | None = Field(default=None, gt=0)
    first_player_win_rate: list[float] | None = Field(
        default=None, min_length=2, max_length=2, description="[low, high] band."
    )
    balance_min: float | None = Field(default=None, ge=0, le=1)
    draw_rate_max: float | None = Field(default=None, ge=0, le=1)
    bot: Id = Field(default="random", description="Bot playing every seat (the engine's 'random' or 'greedy').")
    by_players: dict[Annotated[str, StringConstraints(pattern=PLAYERS_PATTERN)], PlayerLimits] = Field(
        default_factory=dict, max_length=20,
        description="Limits for other player counts, e.g. {5: {first_player_win_rate: [0.12, 0.28]}}; "
                    "the limits above hold at 'players' only.",
    )


#: Built-in families a fallback chain may name: the vendored DejaVu faces (no italics).
BUILTIN_FONT_FAMILIES = ("dejavu", "dejavu-condensed")
#: Font names layouts had before games could declare families; no family takes one of them.
BUILTIN_FONT_NAMES = ("regular", "bold", "condensed", "condensed-bold")
#: A layout names a face of a family as NAME, NAME-bold, NAME-italic or NAME-bold-italic.
FONT_FACES = {"regular": "", "bold": "-bold", "italic": "-italic", "bold_italic": "-bold-italic"}
MAX_FONT_FAMILIES = 16
MAX_FALLBACK = 8


class FontFamily(Strict):
    """A typeface of the game's own: TrueType files (.ttf, or .otf with TrueType outlines)."""

    regular: RelativePath = Field(description="The regular face (a layout names it NAME).")
    bold: RelativePath | None = Field(default=None, description="The bold face (NAME-bold).")
    italic: RelativePath | None = Field(default=None, description="The italic face (NAME-italic).")
    bold_italic: RelativePath | None = Field(default=None, description="The bold italic face (NAME-bold-italic).")
    fallback: list[Id] = Field(
        default_factory=lambda: ["dejavu"], max_length=MAX_FALLBACK,
        description="Families tried in order for a character this family lacks: other families of the game, "
                    "'dejavu' or 'dejavu-condensed' (the built-in faces). Default: [dejavu].",
    )


class FontsFile(Strict):
    """``common/fonts.yaml`` of a content folder: font families every game of the folder may use
    (files relative to ``common/``); a game's own family of the same name takes its place."""

    fonts: dict[Id, FontFamily] = Field(min_length=1, max_length=MAX_FONT_FAMILIES)


class RulebookFonts(Strict):
    """Which of the game's font families the rulebook is set in (default: the built-in DejaVu)."""

    body: Id | None = Field(default=None, description="Family of the running text.")
    headings: Id | None = Field(default=None, description="Family of the headings (default: the body's).")


class RulebookSettings(Strict):
    """What the rulebook prints besides its text (``rulebook:`` of ``game.yaml``)."""

    cover: RelativePath | None = Field(
        default=None,
        description="Cover picture (PNG, JPEG, WebP or SVG) in the game folder, e.g. 'art/cover.png'; "
        "printed on the cover instead of the fan of cards, described by the text 'rules.cover.alt'.",
    )
    fonts: RulebookFonts | None = Field(default=None, description="The families the rulebook is set in.")


class TranslationSettings(Strict):
    """What the game's PO files tell translators and what each language falls back to
    (``translation:`` of ``game.yaml``; every field optional)."""

    version: str | None = Field(
        default=None, min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9._+-]*$",
        description="The game's version, written into the PO headers (Project-Id-Version), e.g. '1.2'.",
    )
    contact: str | None = Field(
        default=None, min_length=3, max_length=200, pattern=r"^[^\x00-\x1f\"\\]+$",
        description="Where translators report a problem in the source text (Report-Msgid-Bugs-To): "
                    "an e-mail address or a web address.",
    )
    teams: dict[Language, Annotated[str, StringConstraints(min_length=1, max_length=200,
                                                             pattern=r"^[^\x00-\x1f\"\\]+$")]] = Field(
        default_factory=dict, max_length=200,
        description="Language-Team of a new PO file per language, e.g. {pl: 'Polish <pl@example.org>'} "
                    "(default: the language's name); a team a translator wrote is kept.",
    )
    fallback: dict[Language, Annotated[list[Language], Field(max_length=10)]] = Field(
        default_factory=dict, max_length=200,
        description="Languages a language falls back to, in order, for a missing or fuzzy entry, e.g. "
                    "{pl: [cs, en]}; the source language always ends the chain. Default: English "
                    "(when the game has it), then the source language.",
    )


class GameMeta(Strict):
    """Everything about a game except its cards (``game.yaml``)."""

    format: int = Field(
        default=1, ge=1, le=CONTENT_FORMAT,
        description="The content format the game folder is written in (cardgen new writes the current one; "
        "'cardgen upgrade' rewrites an older one). Without it: format 1, written before formats were numbered.",
    )
    id: Id
    title: MessageKey
    engine: Id | None = Field(default=None, description="Reference engine that plays the game.")
    players: PlayerCount
    source_language: Language = "ru"
    languages: list[Language] = Field(min_length=1)
    card_size: CardSize
    total_cards: int = Field(ge=1, description="Physical cards in the box, copies included.")
    backs: list[Back] = Field(min_length=1)
    groups: list[Group] = Field(min_length=1)
    attributes: dict[Id, AttributeSpec] = Field(default_factory=dict)
    settings: dict[SettingName, Scalar] = Field(
        default_factory=dict, description="Engine parameters (hand size, grid, ...)."
    )
    rule_options: list[RuleOption] = Field(default_factory=list)
    open_points: list[Id] = Field(
        default_factory=list, description="Points the rules leave open; each needs a clarification."
    )
    clarifications: list[Clarification] = Field(default_factory=list)
    data_files: dict[Id, RelativePath] = Field(
        default_factory=dict,
        description="Extra data an engine reads (a file or a folder, e.g. a reference base).",
    )
    limits: Limits | None = None
    fonts: dict[Id, FontFamily] = Field(
        default_factory=dict, max_length=MAX_FONT_FAMILIES,
        description="Font families of the game's own, from files in its folder; layouts name them "
                    "(font: NAME, NAME-bold, NAME-italic, NAME-bold-italic).",
    )
    rulebook: RulebookSettings | None = None
    translation: TranslationSettings | None = Field(
        default=None, description="PO headers (version, contact, teams) and fallback languages.")


class Card(Strict):
    """One card design; ``copies`` says how many physical cards print from it."""

    id: Id
    group: Id
    kind: Id | None = None
    copies: int = Field(default=1, ge=1, le=1000)
    back: Id
    text: dict[Id, MessageKey] = Field(
        default_factory=dict, description="Text fields of the card by message key."
    )
    art: RelativePath | None = None
    attrs: dict[Id, str | int | bool] = Field(default_factory=dict)


# -- card generators --------------------------------------------------------
# One entry of ``cards:`` may be a generator: ``generate`` names lists of
# values, ``card`` is a card whose text holds {placeholders}; the loader
# expands it (cardgen.content.generators) into one Card per combination.

#: Caps that keep one line of YAML from making millions of cards.
MAX_GENERATED_CARDS = 10_000
MAX_RANGE_VALUES = 10_000
RANGE_BOUND = 1_000_000

GeneratorValue = str | int | bool
Placeholder = Annotated[
    str,
    StringConstraints(pattern=PLACEHOLDER_PATTERN),
    Field(description="Placeholder name used as {name} in the card template, e.g. 'color'."),
]
TemplateText = Annotated[
    str,
    StringConstraints(min_length=1),
    Field(description="Text with {placeholders} filled in for each card, e.g. '{color}-{number}'."),
]


class ValueRange(Strict):
    """Whole numbers from ``from`` to ``to``, both included, ``step`` apart."""

    from_: int = Field(alias="from", ge=-RANGE_BOUND, le=RANGE_BOUND, description="First number.")
    to: int = Field(ge=-RANGE_BOUND, le=RANGE_BOUND, description="Last number (included).")
    step: int = Field(default=1, ge=1, le=RANGE_BOUND)


ValueRow = dict[Placeholder, GeneratorValue]

# A callable discriminator picks the branch from the data, so a mistake in one
# branch is not reported again as a mismatch of the other.  The tags appear in
# pydantic's error locations; their brackets make the loader drop them from
# the field paths it shows (as it drops pydantic's 'list[...]' tags).
GeneratorValues = Annotated[
    Annotated[
        list[GeneratorValue | ValueRow],
        Tag("[list]"),
        Field(
            min_length=1,
            max_length=MAX_GENERATED_CARDS,
            description="The values, in order: plain values, or rows (mappings of fields, "
            "used as {name.field}).",
        ),
    ]
    | Annotated[ValueRange, Tag("[range]")],
    Discriminator(lambda value: "[range]" if isinstance(value, dict) else "[list]"),
]


class CardTemplate(Strict):
    """The card a generator makes for each combination of values.

    The fields of a card; any text may hold {placeholders}.  A value that is
    a whole placeholder (``"{number}"``) keeps its type in ``copies`` and
    ``attrs``; everywhere else placeholders fill in text.
    """

    id: TemplateText
    group: TemplateText
    kind: TemplateText | None = None
    copies: Annotated[int, Field(ge=1, le=1000)] | TemplateText = 1
    back: TemplateText
    text: dict[Id, TemplateText] = Field(
        default_factory=dict, description="Text fields of the card by (templated) message key."
    )
    art: TemplateText | None = None
    attrs: dict[Id, str | int | bool] = Field(default_factory=dict)


class CardGenerator(Strict):
    """Cards made from a template, one per combination of the values (first name slowest)."""

    generate: dict[Placeholder, GeneratorValues] = Field(
        min_length=1,
        description="Placeholder -> its values: a list, or a range {from: 1, to: 12}.",
    )
    card: CardTemplate


CardEntry = Annotated[
    Annotated[Card, Tag("[card]")] | Annotated[CardGenerator, Tag("[generator]")],
    Discriminator(lambda entry: "[generator]" if isinstance(entry, dict) and "generate" in entry else "[card]"),
]


class CardsFile(Strict):
    """``cards.yaml``: cards written out, and generators; the loader expands the generators."""

    cards: list[CardEntry] = Field(min_length=1)


class MessagesFile(Strict):
    language: Language
    messages: dict[MessageKey, str] = Field(min_length=1)
