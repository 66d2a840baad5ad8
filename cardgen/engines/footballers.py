"""The reference base of real footballers for «Игра головой» and its answer index.

The head-game asks a player to name a real footballer who matches three field
cards: a geography card (one of 9 countries or 4 continents), a position card
(4 kinds) and a fact card (16 facts).  This module

* defines the strict pydantic models of the base files
  ``content/head-game/players/*.yaml`` and ``content/head-game/countries.yaml``;
* loads them with :func:`load_reference_base`, which reports *every* problem
  (schema, unknown country, duplicate id across files, differing "as of"
  dates) as one :class:`cardgen.errors.ContentErrors` with file and line;
* decides whether one player answers one field with :func:`player_matches`
  (a pure function; ages are measured at a date the caller gives, career facts
  are those recorded "as of" the base date, unknown facts never match);
* indexes the answers of all 13 x 4 x 16 = 832 fields in :class:`AnswerIndex`
  and summarises the coverage (fields with 0, 1-2, 3-9 and 10+ answers).

Fact values are three-valued: ``True``, ``False`` or ``None`` (unknown, written
``null`` in the YAML).  Only ``True`` makes a player an answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterable, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from cardgen.content.modelcheck import validate_document
from cardgen.content.model import ID_PATTERN
from cardgen.content.yamlsource import YamlDocument, read_yaml
from cardgen.engines.footballer_checks import check_clubs, check_player
from cardgen.errors import ContentError, ContentErrors, Locator, shown_path

if TYPE_CHECKING:
    from cardgen.content.loader import Game

# --- the cards --------------------------------------------------------------------------

COUNTRY_CARDS: tuple[str, ...] = (
    "france", "portugal", "argentina", "england", "italy",
    "spain", "brazil", "netherlands", "germany",
)
CONTINENT_CARDS: tuple[str, ...] = ("south-america", "north-america", "africa", "eurasia")
GEO_CARDS: tuple[str, ...] = COUNTRY_CARDS + CONTINENT_CARDS
POSITION_CARDS: tuple[str, ...] = ("goalkeeper", "defender", "midfielder", "forward")
FACTS: tuple[str, ...] = (
    "played-italy", "played-england", "played-spain", "played-germany", "played-france",
    "retired", "national-team-trophy", "national-league", "european-trophy", "ballon-dor",
    "scored-in-final", "captain", "aged-30-plus", "aged-25-or-under",
    "three-leagues", "five-clubs",
)

PositionCode = Literal[
    "GK", "CB", "LB", "RB", "LWB", "RWB", "CM", "CDM", "CAM", "RM", "LM", "SS", "LW", "RW", "CF"
]

#: Position codes of the seed (ASCII) behind each position card.
POSITION_CODES: Mapping[str, frozenset[str]] = {
    "goalkeeper": frozenset({"GK"}),
    "defender": frozenset({"CB", "LB", "RB", "LWB", "RWB"}),
    "midfielder": frozenset({"CM", "CDM", "CAM", "RM", "LM"}),
    "forward": frozenset({"SS", "LW", "RW", "CF"}),
}

#: The club country a "played in X" fact asks for.
PLAYED_IN: Mapping[str, str] = {
    "played-italy": "italy",
    "played-england": "england",
    "played-spain": "spain",
    "played-germany": "germany",
    "played-france": "france",
}

PLAYERS_DIR = "players"
COUNTRIES_FILE = "countries.yaml"

# --- the file models ---------------------------------------------------------------------

Id = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True)]
Year = Annotated[int, Field(ge=1850, le=2100)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class Country(_Strict):
    """One country (or UK home nation) used as a citizenship or a club's league."""

    id: Id
    name: Text = Field(description="English name.")
    name_ru: Text
    continent: Literal["south-america", "north-america", "africa", "eurasia"] | None = Field(
        description="Geographic continent card; null for Oceania (no card)."
    )


class ClubAbroad(_Strict):
    """A club playing in another country's league (clarification 'club-country')."""

    club: Text
    home: Id = Field(description="Country the club is based in.")
    league: Id = Field(description="Country of the league it plays in: its spells stand under it.")


class League(_Strict):
    """A national league a title names, and the countries whose clubs play in it."""

    name: Text
    countries: list[Id] = Field(min_length=1)


class CountriesFile(_Strict):
    """``countries.yaml``: every country id the base may use, clubs abroad and the
    competitions titles may name (the checks of :mod:`footballer_checks`)."""

    countries: list[Country] = Field(min_length=1)
    clubs_abroad: list[ClubAbroad] = Field(default_factory=list)
    leagues: list[League] = Field(default_factory=list)
    national_team_competitions: list[Text] = Field(default_factory=list)
    european_club_competitions: list[Text] = Field(default_factory=list)


class ClubSpell(_Strict):
    """A spell at one senior club (loans included); ``to`` is null while current."""

    club: Text
    country: Id = Field(description="Country of the league the club plays in (Monaco -> france).")
    from_: Year = Field(alias="from")
    to: Year | None
    loan: bool = False

    @model_validator(mode="after")
    def _ordered(self) -> "ClubSpell":
        if self.to is not None and self.to < self.from_:
            raise ValueError(f"club spell ends ({self.to}) before it starts ({self.from_})")
        return self


#: Fields a ``sources`` entry may explain: every field that decides an answer.
SourcedField = Literal[
    "born", "retired", "clubs", "national_team_trophies", "national_league_titles",
    "european_club_trophies", "ballon_dor", "scored_in_final", "captain",
]


class Player(_Strict):
    """One footballer.  ``null`` in any fact field means unknown (never an answer)."""

    id: Id
    name: Text
    name_ru: Text
    born: date | None
    citizenship: list[Id] = Field(min_length=1)
    positions: list[PositionCode] = Field(min_length=1)
    retired: bool | None
    clubs: Annotated[list[ClubSpell], Field(min_length=1)] | None
    national_team_trophies: list[Text] | None
    national_league_titles: list[Text] | Annotated[int, Field(ge=0)] | None
    european_club_trophies: list[Text] | None
    ballon_dor: list[Year] | None
    scored_in_final: bool | None
    captain: bool | None
    sources: dict[SourcedField, Text] = Field(
        default_factory=dict,
        description="Where a fact without a title list comes from (the final and year, the team "
                    "captained), or why it is unknown (every null field needs one).")
    note: Text | None = None


class PlayersFile(_Strict):
    """One file of ``players/``: the date its facts are true at, and the players."""

    as_of: date
    players: list[Player] = Field(min_length=1)


# --- the loaded base -------------------------------------------------------------------


@dataclass(frozen=True)
class ReferenceBase:
    """All players of the base, the country table and the "as of" date."""

    as_of: date
    players: tuple[Player, ...]
    countries: Mapping[str, Country]
    sources: Mapping[str, Locator] = field(default_factory=dict, repr=False)  # id -> where

    def continent_of(self, country_id: str) -> str | None:
        return self.countries[country_id].continent

    def player(self, player_id: str) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    def matches(self, player: Player, geo: str, position: str, fact: str, on: date) -> bool:
        """Whether ``player`` answers the field (see :func:`player_matches`)."""
        return player_matches(player, geo, position, fact, on=on, continents=self.continent_map)

    @cached_property
    def continent_map(self) -> Mapping[str, str | None]:
        return {cid: country.continent for cid, country in self.countries.items()}


def load_reference_base(
    folder: Path,
    countries_file: Path | None = None,
    display_root: Path | None = None,
) -> ReferenceBase:
    """Load every ``*.yaml`` of ``folder`` (the ``players/`` folder) and the country table.

    ``countries_file`` defaults to ``countries.yaml`` beside ``folder``.  Paths in
    errors are shown relative to ``display_root`` when given.  Raises
    :class:`ContentErrors` listing every problem found in all files.
    """
    folder = Path(folder)
    countries_path = Path(countries_file) if countries_file else folder.parent / COUNTRIES_FILE
    errors: list[ContentError] = []

    def shown(path: Path) -> Path:
        return shown_path(path, display_root)

    def read(path: Path) -> YamlDocument | None:
        try:
            return read_yaml(path, shown(path))
        except ContentError as exc:
            errors.append(exc)
            return None

    countries: dict[str, Country] = {}
    doc = read(countries_path) if countries_path.is_file() else None
    if not countries_path.is_file():
        errors.append(ContentError("missing country table", Locator(file=shown(countries_path))))
    table = validate_document(doc, CountriesFile, errors) if doc else None
    if table and doc:
        for i, country in enumerate(table.countries):
            if country.id in countries:
                errors.append(ContentError(f"duplicate country id '{country.id}'",
                                           doc.locate(("countries", i, "id"))))
            countries[country.id] = country

    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if not files:
        errors.append(ContentError("no player files (*.yaml) found", Locator(file=shown(folder))))
    players: list[Player] = []
    spells: list[tuple[str, str, Locator]] = []  # (club, country, where) for check_clubs
    sources: dict[str, Locator] = {}
    as_of: date | None = None
    as_of_where: Locator | None = None
    for path in files:
        doc = read(path)
        loaded = validate_document(doc, PlayersFile, errors) if doc else None
        if loaded is None or doc is None:
            continue
        if as_of is None:
            as_of, as_of_where = loaded.as_of, doc.locate(("as_of",))
        elif loaded.as_of != as_of:
            errors.append(ContentError(
                f"as_of {loaded.as_of} differs from {as_of} in {as_of_where}; "
                "every file of the base must be dated alike", doc.locate(("as_of",))))
        for i, player in enumerate(loaded.players):
            where = doc.locate(("players", i, "id"))
            if player.id in sources:
                errors.append(ContentError(
                    f"duplicate player id '{player.id}' (first defined at {sources[player.id]})",
                    where))
                continue
            sources[player.id] = where
            players.append(player)
            if table is not None:
                errors.extend(_check_countries(player, countries, doc, i))
                errors.extend(check_player(player, table, loaded.as_of, doc, i))
            spells.extend((spell.club, spell.country, doc.locate(("players", i, "clubs", j, "country")))
                          for j, spell in enumerate(player.clubs or ()))
    if table is not None:
        errors.extend(check_clubs(spells, table, countries))
    if errors or as_of is None:
        raise ContentErrors(errors)
    return ReferenceBase(as_of=as_of, players=tuple(players), countries=countries, sources=sources)


def _check_countries(player: Player, countries: Mapping[str, Country],
                     doc: YamlDocument, index: int) -> Iterable[ContentError]:
    for j, cid in enumerate(player.citizenship):
        if cid not in countries:
            yield ContentError(f"unknown country '{cid}' (add it to {COUNTRIES_FILE})",
                               doc.locate(("players", index, "citizenship", j)))
    for j, spell in enumerate(player.clubs or ()):
        if spell.country not in countries:
            yield ContentError(f"unknown country '{spell.country}' (add it to {COUNTRIES_FILE})",
                               doc.locate(("players", index, "clubs", j, "country")))


# --- matching ------------------------------------------------------------------------------


def age_date(setting: str, base: ReferenceBase) -> date:
    """The day ages are measured at: ``as-of`` (the base's date, the game's rule: clarification
    'age-date'), ``today`` or an ISO date (both only for study)."""
    if setting == "today":
        return date.today()
    if setting == "as-of":
        return base.as_of
    try:
        return date.fromisoformat(setting)
    except ValueError:
        raise ContentError(f"age_date must be 'today', 'as-of' or a date YYYY-MM-DD, not {setting!r}",
                           Locator(field="settings.age_date")) from None



def age_on(born: date, on: date) -> int:
    """Age in whole years at ``on`` (the birthday itself counts as the new age)."""
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def _listed(value: list | int | None) -> bool | None:
    if value is None:
        return None
    return value > 0 if isinstance(value, int) else bool(value)


def fact_value(player: Player, fact: str, on: date) -> bool | None:
    """The three-valued truth of ``fact`` for ``player`` (``None`` = unknown).

    Played-in-X, three-leagues and five-clubs derive from ``clubs`` (distinct
    league countries, distinct club names; loans count); ages are measured at
    ``on``; everything else comes from the player's fields as of the base date.
    """
    if fact in PLAYED_IN:
        if player.clubs is None:
            return None
        return any(spell.country == PLAYED_IN[fact] for spell in player.clubs)
    if fact == "three-leagues":
        return None if player.clubs is None else len({s.country for s in player.clubs}) >= 3
    if fact == "five-clubs":
        return None if player.clubs is None else len({s.club for s in player.clubs}) >= 5
    if fact in ("aged-30-plus", "aged-25-or-under"):
        if player.born is None:
            return None
        age = age_on(player.born, on)
        return age >= 30 if fact == "aged-30-plus" else age <= 25
    if fact == "retired":
        return player.retired
    if fact == "national-team-trophy":
        return _listed(player.national_team_trophies)
    if fact == "national-league":
        return _listed(player.national_league_titles)
    if fact == "european-trophy":
        return _listed(player.european_club_trophies)
    if fact == "ballon-dor":
        return _listed(player.ballon_dor)
    if fact == "scored-in-final":
        return player.scored_in_final
    if fact == "captain":
        return player.captain
    raise ValueError(f"unknown fact '{fact}'; expected one of: {', '.join(FACTS)}")


def matches_geo(player: Player, geo: str, continents: Mapping[str, str | None]) -> bool:
    """A country card needs that citizenship; a continent card any citizenship on it."""
    if geo in COUNTRY_CARDS:
        return geo in player.citizenship
    if geo in CONTINENT_CARDS:
        return any(continents.get(cid) == geo for cid in player.citizenship)
    raise ValueError(f"unknown geography card '{geo}'; expected one of: {', '.join(GEO_CARDS)}")


def matches_position(player: Player, position: str) -> bool:
    """Every position the player regularly played counts."""
    try:
        codes = POSITION_CODES[position]
    except KeyError:
        raise ValueError(
            f"unknown position card '{position}'; expected one of: {', '.join(POSITION_CARDS)}"
        ) from None
    return any(code in codes for code in player.positions)


def player_matches(
    player: Player,
    geo: str,
    position: str,
    fact: str,
    *,
    on: date,
    continents: Mapping[str, str | None],
) -> bool:
    """Whether ``player`` answers the field (geo, position, fact) on the day ``on``.

    ``continents`` maps country ids to continent card ids (None for Oceania).
    Unknown facts never match.
    """
    return (
        matches_geo(player, geo, continents)
        and matches_position(player, position)
        and fact_value(player, fact, on) is True
    )


# --- the answer index ------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class FieldKey:
    """One combination of the three field cards."""

    geo: str
    position: str
    fact: str


@dataclass(frozen=True)
class Coverage:
    """How many fields have 0, 1-2, 3-9 and 10+ answers."""

    none: int
    few: int  # 1-2
    some: int  # 3-9
    many: int  # 10+

    @property
    def total(self) -> int:
        return self.none + self.few + self.some + self.many

    def as_dict(self) -> dict[str, int]:
        return {"0": self.none, "1-2": self.few, "3-9": self.some, "10+": self.many}


def all_fields() -> tuple[FieldKey, ...]:
    """The 13 x 4 x 16 = 832 fields in a fixed order."""
    return tuple(FieldKey(g, p, f) for g in GEO_CARDS for p in POSITION_CARDS for f in FACTS)


class AnswerIndex:
    """The players answering each of the 832 fields, on the day ``on``."""

    def __init__(self, base: ReferenceBase, on: date):
        self.base = base
        self.on = on
        continents = base.continent_map
        geo = {g: {p.id for p in base.players if matches_geo(p, g, continents)} for g in GEO_CARDS}
        pos = {q: {p.id for p in base.players if matches_position(p, q)} for q in POSITION_CARDS}
        fact = {f: {p.id for p in base.players if fact_value(p, f, on) is True} for f in FACTS}
        order = {p.id: n for n, p in enumerate(base.players)}
        by_id = {p.id: p for p in base.players}
        self._answers: dict[FieldKey, tuple[Player, ...]] = {}
        for key in all_fields():
            ids = geo[key.geo] & pos[key.position] & fact[key.fact]
            self._answers[key] = tuple(by_id[i] for i in sorted(ids, key=order.__getitem__))

    @property
    def fields(self) -> tuple[FieldKey, ...]:
        return tuple(self._answers)

    def answers(self, geo: str, position: str, fact: str) -> tuple[Player, ...]:
        """Players answering the field, in base order; raises KeyError for a bad card id."""
        return self._answers[FieldKey(geo, position, fact)]

    def count(self, geo: str, position: str, fact: str) -> int:
        return len(self.answers(geo, position, fact))

    def counts(self) -> dict[FieldKey, int]:
        return {key: len(found) for key, found in self._answers.items()}

    def coverage(self) -> Coverage:
        buckets = Counter(_bucket(len(found)) for found in self._answers.values())
        return Coverage(none=buckets[0], few=buckets[1], some=buckets[2], many=buckets[3])

    def empty_fields(self) -> tuple[FieldKey, ...]:
        return tuple(key for key, found in self._answers.items() if not found)


#: Labels of the coverage buckets, indexed by ``_bucket``.
BUCKETS = ("0", "1-2", "3-9", "10+")


def _bucket(n: int) -> int:
    return 0 if n == 0 else 1 if n <= 2 else 2 if n <= 9 else 3


def fact_counts(base: ReferenceBase, on: date) -> dict[str, int]:
    """How many players each fact is true for on the day ``on``."""
    return {f: sum(fact_value(p, f, on) is True for p in base.players) for f in FACTS}


def geo_counts(base: ReferenceBase, *, beyond_country_cards: bool = False) -> dict[str, int]:
    """Players per geography card; with ``beyond_country_cards`` a continent counts
    only players holding a citizenship of that continent other than the 9 country cards."""
    result: dict[str, int] = {}
    for geo in GEO_CARDS:
        if geo in COUNTRY_CARDS or not beyond_country_cards:
            result[geo] = sum(matches_geo(p, geo, base.continent_map) for p in base.players)
        else:
            result[geo] = sum(
                any(base.continent_of(c) == geo and c not in COUNTRY_CARDS for c in p.citizenship)
                for p in base.players
            )
    return result


# -- coverage of the deck's fields ------------------------------------------------------

#: Card attributes that name a field value, by card type.
CARD_ATTRIBUTES = {"geo": ("country", "continent"), "position": ("position",), "fact": ("fact",)}


def deck_weights(game: "Game") -> dict[str, Counter[str]]:
    """Printed copies of each geo, position and fact value: how often each is dealt."""
    weights: dict[str, Counter[str]] = {kind: Counter() for kind in CARD_ATTRIBUTES}
    for card in game.cards:
        for kind, attributes in CARD_ATTRIBUTES.items():
            for attribute in attributes:
                if attribute in card.attrs:
                    weights[kind][str(card.attrs[attribute])] += card.copies
    return weights


def coverage_report(index: "AnswerIndex", weights: Mapping[str, Counter[str]]) -> dict[str, Any]:
    """Fields by number of answers, plain and weighted by the deck, and per fact."""
    counts = index.counts()
    total_weight = 0
    weighted: Counter[str] = Counter()
    per_fact: dict[str, Counter[str]] = {}
    for key, count in counts.items():
        weight = weights["geo"][key.geo] * weights["position"][key.position] * weights["fact"][key.fact]
        bucket = BUCKETS[_bucket(count)]
        total_weight += weight
        weighted[bucket] += weight
        per_fact.setdefault(key.fact, Counter())[bucket] += 1
    return {
        "fields": index.coverage().as_dict(),
        "dealt_share": {b: round(weighted[b] / total_weight, 4) if total_weight else 0.0 for b in BUCKETS},
        "per_fact": {fact: {b: per_fact[fact][b] for b in BUCKETS} for fact in sorted(per_fact)},
        "fact_cards": dict(sorted(weights["fact"].items())),
    }


