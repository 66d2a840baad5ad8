"""Internal consistency of the footballer base (``content/head-game/players``).

No second source can be consulted offline, so the fields that decide answers carry
their provenance (every title names its competition and year) and these checks make
the facts agree with one another:

* a title names a competition of the country table (``leagues``,
  ``national_team_competitions``, ``european_club_competitions``) and a year;
* a league title needs a club in that league's country that season (a title of
  year Y is the season that ended in Y, so a spell covering Y-1 or Y);
* a European club title or a Ballon d'Or needs an active career that year;
* a birth date comes at least 15 years before the first senior club, a title or
  Ballon d'Or year is not after the base's date;
* a player still active has a club spell current or ending in the base's year, a retired
  one has no current spell;
* an unknown (null) field says why (``sources``), a goal in a final says which final
  (``sources`` or the note), a captain which team;
* a club abroad (``clubs_abroad``: Monaco, Swansea…) stands under its league's
  country, and one club name stands under one country in the whole base.

Each problem is a :class:`ContentError` at the file and line of the field.
"""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING, Iterable, Mapping

from cardgen.content.yamlsource import YamlDocument
from cardgen.errors import ContentError, Locator

if TYPE_CHECKING:
    from cardgen.engines.footballers import CountriesFile, Player

#: Youngest age at which a first senior club is believable.
MIN_DEBUT_AGE = 15

_TITLE = re.compile(r"^(?P<name>.+?) (?P<year>\d{4})$")


def split_title(entry: str) -> tuple[str, int] | None:
    """``"Serie A 2019"`` -> ``("Serie A", 2019)``; None when no year ends it."""
    found = _TITLE.match(entry.strip())
    return (found["name"], int(found["year"])) if found else None


def _active_in(player: "Player", year: int, countries: Iterable[str] | None = None) -> bool:
    """Whether a club spell of ``player`` (in one of ``countries``, if given) covers ``year``."""
    wanted = set(countries) if countries is not None else None
    return any(spell.from_ <= year and (spell.to is None or spell.to >= year)
               and (wanted is None or spell.country in wanted)
               for spell in player.clubs or ())


def check_player(player: "Player", table: "CountriesFile", as_of: date,
                 doc: YamlDocument, index: int) -> Iterable[ContentError]:
    """Every inconsistency of one player, each at its field's line."""

    def at(*path: object) -> Locator:
        return doc.locate(("players", index, *path))

    for name in ("born", "retired", "clubs", "national_team_trophies", "national_league_titles",
                 "european_club_trophies", "ballon_dor", "scored_in_final", "captain"):
        if getattr(player, name) is None and name not in player.sources:
            yield ContentError(f"{name} is unknown (null) without a reason: say why under "
                               f"sources.{name}", at(name))
    if (player.scored_in_final is True and "scored_in_final" not in player.sources
            and "final" not in (player.note or "").lower()):
        yield ContentError("scored_in_final is true without provenance: name the final and year under "
                           "sources.scored_in_final", at("scored_in_final"))
    if player.captain is True and "captain" not in player.sources:
        yield ContentError("captain is true without provenance: name the team captained under "
                           "sources.captain (clarification 'captain')", at("captain"))
    leagues = {league.name: league.countries for league in table.leagues}
    yield from _titles(player, "national_team_trophies", set(table.national_team_competitions),
                       as_of, at, "national-team competition (clarification 'national-team-trophy')")
    yield from _titles(player, "european_club_trophies", set(table.european_club_competitions),
                       as_of, at, "European club competition")
    yield from _titles(player, "national_league_titles", set(leagues), as_of, at, "league")
    if player.clubs is None:
        return
    for j, entry in enumerate(_listed(player.national_league_titles)):
        parsed = split_title(entry)
        if parsed and parsed[0] in leagues:
            name, year = parsed
            if not (_active_in(player, year, leagues[name]) or _active_in(player, year - 1, leagues[name])):
                yield ContentError(
                    f"{name} {year}: no club in {'/'.join(leagues[name])} in the season {year - 1}-{year} "
                    "(a league title needs a club of that league that season)",
                    at("national_league_titles", j))
    for j, entry in enumerate(_listed(player.european_club_trophies)):
        parsed = split_title(entry)
        if parsed and not (_active_in(player, parsed[1]) or _active_in(player, parsed[1] - 1)):
            yield ContentError(f"{entry}: no club spell in the season {parsed[1] - 1}-{parsed[1]}",
                               at("european_club_trophies", j))
    for j, year in enumerate(player.ballon_dor or ()):
        if year > as_of.year:
            yield ContentError(f"Ballon d'Or {year} is after the base's date {as_of}", at("ballon_dor", j))
        elif not _active_in(player, year):
            yield ContentError(f"Ballon d'Or {year}: no club spell that year (an award needs an active career)",
                               at("ballon_dor", j))
    first = min(spell.from_ for spell in player.clubs)
    if player.born is not None and first - player.born.year < MIN_DEBUT_AGE:
        yield ContentError(f"born {player.born} but at a senior club from {first} "
                           f"(younger than {MIN_DEBUT_AGE})", at("born"))
    current = [j for j, spell in enumerate(player.clubs) if spell.to is None]
    if player.retired is True and current:
        yield ContentError("retired, yet a club spell is current (to: null)", at("clubs", current[0], "to"))
    # a contract ending with the season (30 June) leaves an active player between clubs on the base's date
    if player.retired is False and not any(spell.to is None or spell.to >= as_of.year for spell in player.clubs):
        yield ContentError(f"not retired, yet no club spell is current (to: null) or ends in {as_of.year}",
                           at("retired"))


def _listed(value: object) -> list[str]:
    return list(value) if isinstance(value, list) else []


def _titles(player: "Player", field: str, known: set[str], as_of: date, at,
            what: str) -> Iterable[ContentError]:
    for j, entry in enumerate(_listed(getattr(player, field))):
        parsed = split_title(entry)
        if parsed is None:
            yield ContentError(f"{entry!r}: a title is written '<competition> <year>' (its provenance)",
                               at(field, j))
        elif parsed[0] not in known:
            yield ContentError(f"{parsed[0]!r} is not a known {what}; expected one of: "
                               f"{', '.join(sorted(known))} (countries.yaml)", at(field, j))
        elif parsed[1] > as_of.year:
            yield ContentError(f"{entry}: after the base's date {as_of}", at(field, j))


def check_clubs(spells: Iterable[tuple[str, str, Locator]], table: "CountriesFile",
                countries: Mapping[str, object]) -> Iterable[ContentError]:
    """Clubs abroad under their league's country; one country per club name in the base.

    ``spells`` are (club, country, where) of every spell of every player, in file order.
    """
    abroad = {club.club: club for club in table.clubs_abroad}
    for club in table.clubs_abroad:
        for cid in (club.home, club.league):
            if cid not in countries:
                yield ContentError(f"clubs_abroad: unknown country '{cid}' for {club.club}")
    first: dict[str, tuple[str, Locator]] = {}
    for club, country, where in spells:
        if club in abroad and country != abroad[club].league:
            yield ContentError(f"{club} plays in the league of '{abroad[club].league}', not '{country}' "
                               "(clarification 'club-country', countries.yaml clubs_abroad)", where)
        elif club in first and first[club][0] != country:
            yield ContentError(f"{club} stands under '{country}' here but under '{first[club][0]}' "
                               f"at {first[club][1]}", where)
        first.setdefault(club, (country, where))
