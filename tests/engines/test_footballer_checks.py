"""Internal consistency checks of the footballer base (cardgen.engines.footballer_checks):
each broken fact of the small hand-made base is reported at its file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.engines.footballer_checks import split_title
from cardgen.engines.footballers import load_reference_base
from cardgen.errors import ContentErrors

SMALL = Path(__file__).resolve().parents[1] / "data" / "footballers"
REAL = Path(__file__).resolve().parents[2] / "content" / "head-game" / "players"


def broken(tmp_path: Path, file: str, old: str, new: str) -> tuple[list, list[str]]:
    """Load a copy of the small base with ``old`` replaced by ``new`` in ``file``: errors, lines."""
    base = tmp_path / f"footballers-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(SMALL, base)
    path = base / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(ContentErrors) as failed:
        load_reference_base(base / "players", display_root=base)
    return failed.value.errors, path.read_text(encoding="utf-8").splitlines()


def only(errors: list, lines: list[str], file: str, expected_line_text: str, message: str) -> None:
    assert len(errors) == 1, [str(e) for e in errors]
    error = errors[0]
    assert error.locator.file == Path(file)
    assert expected_line_text in lines[error.locator.line - 1]
    assert message in error.message


def test_the_small_and_the_real_base_are_consistent():
    load_reference_base(SMALL / "players")
    load_reference_base(REAL)


def test_split_title():
    assert split_title("Serie A 2019") == ("Serie A", 2019)
    assert split_title("UEFA Cup Winners' Cup 1967") == ("UEFA Cup Winners' Cup", 1967)
    assert split_title("Serie A (several)") is None


def test_a_league_title_needs_a_club_in_that_country_that_season(tmp_path):
    errors, lines = broken(tmp_path, "players/first.yaml", "[Scottish Premiership 2019]",
                           "[Scottish Premiership 2023]")
    only(errors, lines, "players/first.yaml", "Scottish Premiership 2023", "no club in scotland in the season 2022-2023")


def test_a_title_names_a_known_competition_and_a_year(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", "[CONCACAF Gold Cup 2019]",
                           "[Olympic football tournament 2012]")
    only(errors, lines, "players/second.yaml", "Olympic", "not a known national-team competition")
    errors, lines = broken(tmp_path, "players/second.yaml", "[CONCACAF Gold Cup 2019]", "[CONCACAF Gold Cup]")
    only(errors, lines, "players/second.yaml", "CONCACAF Gold Cup", "'<competition> <year>'")


def test_a_ballon_dor_needs_an_active_career_that_year(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", "ballon_dor: [2010]", "ballon_dor: [2019]")
    only(errors, lines, "players/second.yaml", "2019", "no club spell that year")


def test_a_european_title_needs_a_club_that_season(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", "[UEFA Europa League 2013]",
                           "[UEFA Europa League 2004]")
    only(errors, lines, "players/second.yaml", "UEFA Europa League 2004", "no club spell in the season 2003-2004")


def test_a_birth_date_comes_years_before_the_first_club(tmp_path):
    errors, lines = broken(tmp_path, "players/first.yaml", "born: 1996-11-29", "born: 2005-11-29")
    only(errors, lines, "players/first.yaml", "born: 2005-11-29", "younger than 15")


def test_retired_and_current_clubs_agree(tmp_path):
    errors, lines = broken(tmp_path, "players/first.yaml", "    retired: false\n    clubs:\n      - {club: Town A",
                           "    retired: true\n    clubs:\n      - {club: Town A")
    only(errors, lines, "players/first.yaml", "Citta B", "retired, yet a club spell is current")


def test_a_club_abroad_stands_under_its_league_country(tmp_path):
    errors, lines = broken(tmp_path, "countries.yaml", "{club: Glen One, home: scotland, league: scotland}",
                           "{club: Glen One, home: scotland, league: england}")
    assert len(errors) == 2 and all("plays in the league of 'england'" in e.message for e in errors)
    assert all(e.locator.file == Path("players/first.yaml") for e in errors)


def test_one_club_name_stands_under_one_country(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", "{club: Ville D, country: france, from: 2012",
                           "{club: Ville D, country: usa, from: 2012")
    only(errors, lines, "players/second.yaml", "Ville D", "under 'usa' here but under 'france' at players/first.yaml:")


def test_an_unknown_fact_says_why(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", '    sources: {captain: "unknown: test"}\n', "")
    only(errors, lines, "players/second.yaml", "captain: null", "captain is unknown (null) without a reason")


def test_a_goal_in_a_final_names_the_final(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", ', scored_in_final: "Made-up Cup final 2015"', "")
    only(errors, lines, "players/second.yaml", "scored_in_final: true", "name the final and year")


def test_every_unknown_of_the_real_base_says_why_and_unknowns_stay_under_two_percent():
    from cardgen.engines.footballers import FACTS, fact_value

    base = load_reference_base(REAL)
    unknown = [(p.id, fact) for p in base.players for fact in FACTS if fact_value(p, fact, base.as_of) is None]
    assert len(unknown) <= 0.02 * len(base.players) * len(FACTS), len(unknown)
    for player in base.players:
        for name, reason in player.sources.items():
            if getattr(player, name) is None:
                assert reason.startswith("unknown:"), (player.id, name)


def test_a_captain_names_the_team(tmp_path):
    errors, lines = broken(tmp_path, "players/second.yaml", ', captain: "Made-up national team"', "")
    only(errors, lines, "players/second.yaml", "captain: true", "name the team captained")
