"""The reference base of footballers for «Игра головой»: loader, matcher, answer index."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from cardgen.engines.footballers import (
    CONTINENT_CARDS,
    COUNTRY_CARDS,
    FACTS,
    GEO_CARDS,
    POSITION_CARDS,
    AnswerIndex,
    FieldKey,
    age_on,
    all_fields,
    fact_counts,
    fact_value,
    geo_counts,
    load_reference_base,
    player_matches,
)
from cardgen.errors import ContentErrors

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "tests" / "data" / "footballers"
REAL = ROOT / "content" / "head-game" / "players"
GAME_DAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def small():
    return load_reference_base(SMALL / "players")


@pytest.fixture(scope="module")
def real():
    return load_reference_base(REAL)


def matches(base, pid, geo, position, fact, on=GAME_DAY):
    return player_matches(base.player(pid), geo, position, fact, on=on,
                          continents=base.continent_map)


# --- the small hand-made base -----------------------------------------------------------


def test_small_base_loads_all_files(small):
    assert small.as_of == date(2025, 6, 30)
    assert [p.id for p in small.players] == [
        "alpha-keeper", "beta-back", "gamma-mid", "delta-forward", "epsilon-wing"]
    assert small.continent_of("australia") is None


@pytest.mark.parametrize("born, on, age", [
    (date(1996, 11, 29), date(2026, 11, 28), 29),
    (date(1996, 11, 29), date(2026, 11, 29), 30),
    (date(1996, 11, 29), date(2026, 11, 30), 30),
    (date(2000, 2, 29), date(2030, 2, 28), 29),
    (date(2000, 2, 29), date(2030, 3, 1), 30),
])
def test_age_on(born, on, age):
    assert age_on(born, on) == age


def test_thirty_plus_turns_on_the_birthday(small):
    keeper = small.player("alpha-keeper")  # born 1996-11-29
    assert fact_value(keeper, "aged-30-plus", date(2026, 11, 28)) is False
    assert fact_value(keeper, "aged-30-plus", date(2026, 11, 29)) is True
    assert not matches(small, "alpha-keeper", "england", "goalkeeper", "aged-30-plus",
                       on=date(2026, 11, 28))
    assert matches(small, "alpha-keeper", "england", "goalkeeper", "aged-30-plus",
                   on=date(2026, 11, 29))


def test_twenty_five_or_under_ends_on_the_26th_birthday(small):
    back = small.player("beta-back")  # born 2000-11-29
    assert fact_value(back, "aged-25-or-under", date(2026, 11, 28)) is True
    assert fact_value(back, "aged-25-or-under", date(2026, 11, 29)) is False


def test_unknown_facts_never_match(small):
    gamma = small.player("gamma-mid")  # born, retired, captain, trophies unknown
    for fact in ("aged-30-plus", "aged-25-or-under", "retired", "captain",
                 "national-team-trophy"):
        assert fact_value(gamma, fact, GAME_DAY) is None
        for geo in ("brazil", "italy", "south-america", "eurasia"):
            assert not matches(small, "gamma-mid", geo, "midfielder", fact)
    delta = small.player("delta-forward")  # clubs unknown
    for fact in ("played-italy", "three-leagues", "five-clubs"):
        assert fact_value(delta, fact, GAME_DAY) is None
    index = AnswerIndex(small, GAME_DAY)
    assert gamma not in index.answers("brazil", "midfielder", "captain")
    assert index.answers("south-america", "midfielder", "captain") == ()


def test_derived_club_facts(small):
    back = small.player("beta-back")
    assert fact_value(back, "played-england", GAME_DAY) is True
    assert fact_value(back, "played-germany", GAME_DAY) is True  # a loan counts
    assert fact_value(back, "played-italy", GAME_DAY) is False
    assert fact_value(back, "three-leagues", GAME_DAY) is True
    assert fact_value(back, "five-clubs", GAME_DAY) is False  # Glen One twice: 4 clubs
    gamma = small.player("gamma-mid")
    assert fact_value(gamma, "five-clubs", GAME_DAY) is False
    assert fact_value(gamma, "three-leagues", GAME_DAY) is True
    keeper = small.player("alpha-keeper")
    assert fact_value(keeper, "three-leagues", GAME_DAY) is False


def test_listed_and_counted_titles(small):
    gamma = small.player("gamma-mid")
    assert fact_value(gamma, "national-league", GAME_DAY) is True  # a count of 2
    assert fact_value(gamma, "ballon-dor", GAME_DAY) is True
    assert fact_value(gamma, "european-trophy", GAME_DAY) is True
    delta = small.player("delta-forward")
    assert fact_value(delta, "national-league", GAME_DAY) is False  # a count of 0
    assert fact_value(delta, "retired", GAME_DAY) is True


def test_geography(small):
    assert matches(small, "gamma-mid", "brazil", "midfielder", "ballon-dor")
    assert matches(small, "gamma-mid", "italy", "forward", "ballon-dor")  # dual citizen, RW
    assert matches(small, "gamma-mid", "eurasia", "midfielder", "ballon-dor")
    assert matches(small, "gamma-mid", "south-america", "midfielder", "ballon-dor")
    # A Scot is not an England answer, but is a Eurasia one.
    assert not matches(small, "beta-back", "england", "defender", "played-england")
    assert matches(small, "beta-back", "eurasia", "defender", "played-england")
    # Oceania has no continent card.
    assert not any(matches(small, "delta-forward", geo, "forward", "retired")
                   for geo in GEO_CARDS)
    assert matches(small, "epsilon-wing", "north-america", "forward",
                   "national-team-trophy")


def test_positions(small):
    assert matches(small, "alpha-keeper", "england", "goalkeeper", "captain")
    assert not any(matches(small, "alpha-keeper", "england", pos, "captain")
                   for pos in ("defender", "midfielder", "forward"))
    assert matches(small, "beta-back", "eurasia", "defender", "national-league")
    assert not matches(small, "beta-back", "eurasia", "midfielder", "national-league")
    assert matches(small, "epsilon-wing", "north-america", "forward", "played-france") is False


def test_bad_card_ids_are_refused(small):
    player = small.player("alpha-keeper")
    with pytest.raises(ValueError):
        fact_value(player, "played-brazil", GAME_DAY)
    with pytest.raises(ValueError):
        player_matches(player, "oceania", "goalkeeper", "captain", on=GAME_DAY,
                       continents=small.continent_map)
    with pytest.raises(ValueError):
        player_matches(player, "england", "libero", "captain", on=GAME_DAY,
                       continents=small.continent_map)


def test_answer_index_over_all_fields(small):
    index = AnswerIndex(small, GAME_DAY)
    assert len(all_fields()) == len(index.fields) == 13 * 4 * 16 == 832
    assert FieldKey("england", "goalkeeper", "captain") in index.fields
    assert [p.id for p in index.answers("eurasia", "defender", "three-leagues")] == ["beta-back"]
    assert [p.id for p in index.answers("eurasia", "forward", "ballon-dor")] == ["gamma-mid"]
    assert index.count("england", "goalkeeper", "aged-30-plus") == 1
    assert AnswerIndex(small, date(2026, 11, 28)).count(
        "england", "goalkeeper", "aged-30-plus") == 0
    coverage = index.coverage()
    assert coverage.total == 832
    assert coverage.none == len(index.empty_fields())
    assert coverage.few == sum(1 <= n <= 2 for n in index.counts().values())
    assert coverage.some == coverage.many == 0
    # The index agrees with the matcher field by field.
    for key in index.fields:
        expected = [p.id for p in small.players
                    if player_matches(p, key.geo, key.position, key.fact, on=GAME_DAY,
                                      continents=small.continent_map)]
        assert [p.id for p in index.answers(key.geo, key.position, key.fact)] == expected


# --- broken bases -----------------------------------------------------------------------


def _copy_small(tmp_path: Path) -> Path:
    shutil.copytree(SMALL, tmp_path / "footballers")
    return tmp_path / "footballers"


def test_broken_file_reports_file_and_line(tmp_path):
    base = _copy_small(tmp_path)
    path = base / "players" / "first.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("positions: [CB, LB]", "positions: [CB, XX]")
    text = text.replace("    captain: false\n", "    captain: false\n    shirt: 4\n")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as failed:
        load_reference_base(base / "players", display_root=base)
    errors = failed.value.errors
    assert len(errors) == 2  # every problem, not just the first
    lines = text.splitlines()
    by_field = {e.locator.field: e for e in errors}
    bad_position = by_field["players[1].positions[1]"]
    assert bad_position.locator.file == Path("players/first.yaml")
    assert "XX" in lines[bad_position.locator.line - 1]
    unknown = by_field["players[1].shirt"]
    assert "unknown key 'shirt'" in unknown.message
    assert lines[unknown.locator.line - 1].strip() == "shirt: 4"


def test_duplicate_ids_and_unknown_countries_across_files(tmp_path):
    base = _copy_small(tmp_path)
    second = base / "players" / "second.yaml"
    text = second.read_text(encoding="utf-8").replace("id: epsilon-wing", "id: alpha-keeper")
    text = text.replace("citizenship: [australia]", "citizenship: [atlantis]")
    text = text.replace("as_of: 2025-06-30", "as_of: 2025-07-01")
    second.write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as failed:
        load_reference_base(base / "players", display_root=base)
    messages = [str(e) for e in failed.value.errors]
    assert any("duplicate player id 'alpha-keeper'" in m and "players/second.yaml:" in m
               and "first defined at players/first.yaml:" in m for m in messages)
    assert any("unknown country 'atlantis'" in m for m in messages)
    assert any("as_of 2025-07-01 differs" in m for m in messages)


def test_syntax_error_and_missing_folder(tmp_path):
    base = _copy_small(tmp_path)
    (base / "players" / "second.yaml").write_text("as_of: [2025\nplayers: x\n", encoding="utf-8")
    with pytest.raises(ContentErrors) as failed:
        load_reference_base(base / "players")
    assert failed.value.errors[0].locator.line is not None
    with pytest.raises(ContentErrors):
        load_reference_base(tmp_path / "nowhere")


# --- the real base ----------------------------------------------------------------------


def test_real_base_size_and_dates(real):
    assert len(real.players) >= 300
    assert real.as_of == date(2025, 6, 30)
    for path in REAL.glob("*.yaml"):
        assert path.stat().st_size < 150_000
        assert path.read_text(encoding="utf-8").startswith(
            "# Reference base of real footballers for «Игра головой». Facts as of ")


def test_real_base_covers_every_country_card(real):
    counts = geo_counts(real)
    for country in COUNTRY_CARDS:
        assert counts[country] >= 15, country
        for position in POSITION_CARDS:
            assert any(
                country in p.citizenship
                and player_matches(p, country, position, "aged-30-plus",
                                   on=date(2100, 1, 1), continents=real.continent_map)
                for p in real.players
            ), (country, position)


def test_real_base_covers_every_continent_beyond_the_country_cards(real):
    beyond = geo_counts(real, beyond_country_cards=True)
    for continent in CONTINENT_CARDS:
        assert beyond[continent] >= 10, continent


def test_real_base_makes_every_fact_true_often(real):
    counts = fact_counts(real, GAME_DAY)
    for fact in FACTS:
        assert counts[fact] >= 15, fact


def test_real_base_coverage_summary(real):
    coverage = AnswerIndex(real, GAME_DAY).coverage()
    assert coverage.total == 832
    assert coverage.many + coverage.some > coverage.none


def test_real_base_counts_monaco_for_france_as_data(real):
    # clarification 'club-country': the country table says where a club abroad plays
    from cardgen.engines.footballers import CountriesFile
    from cardgen.content.yamlsource import read_yaml

    table = CountriesFile.model_validate(read_yaml(REAL.parent / "countries.yaml").data)
    abroad = {club.club: (club.home, club.league) for club in table.clubs_abroad}
    assert abroad["Monaco"] == ("monaco", "france") and abroad["Swansea City"] == ("wales", "england")
    henry = real.player("thierry-henry")
    assert henry.clubs[0].club == "Monaco" and fact_value(henry, "played-france", real.as_of) is True


def test_ages_are_frozen_at_the_base_date_in_engine_answer_key_and_cli(real):
    # clarification 'age-date': one day for every fact
    import json

    from click.testing import CliRunner

    from cardgen.cli import cli
    from cardgen.content import load_game
    from cardgen.engines.footballers import age_date
    from cardgen.rulebook.answers import _age_setting

    game = load_game(REAL.parent)
    assert age_date(_age_setting(game), real) == real.as_of == date(2025, 6, 30)
    result = CliRunner().invoke(cli, ["--content", str(REAL.parents[1]), "answers", "head-game", "--json",
                                      "--no-coverage", "--fact", "aged-25-or-under"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["date"] == "2025-06-30"
    assert len(report["answers"]) == fact_counts(real, real.as_of)["aged-25-or-under"]
    from cardgen.rulebook.book import render_html

    for language, shown in (("ru", "30.06.2025"), ("en", "30 June 2025"), ("de", "30.06.2025")):
        for fact in ("aged-30-plus", "aged-25-or-under"):
            assert shown in game.text(f"card.fact-{fact}.rule", language)
        # the answer key writes the day as the cards of its language do
        html, _ = render_html(game, language, "a4", part="answer-key")
        assert html.count(shown) >= 2 and "2025-06-30" not in html


def test_real_base_carries_the_corrections_of_issue_14(real):
    day = real.as_of
    assert fact_value(real.player("marc-andre-ter-stegen"), "national-team-trophy", day) is True
    higuain = real.player("gonzalo-higuain")
    assert "UEFA Europa League 2019" in higuain.european_club_trophies
    assert "Serie A 2019" not in higuain.national_league_titles
    assert "Eredivisie 1986" not in real.player("ronald-koeman").national_league_titles
    assert "La Liga 2014" not in real.player("alvaro-morata").national_league_titles
    assert fact_value(real.player("josko-gvardiol"), "european-trophy", day) is True
    assert fact_value(real.player("leroy-sane"), "european-trophy", day) is True
    assert fact_value(real.player("jay-jay-okocha"), "european-trophy", day) is True
    for pid, also in (("kalidou-koulibaly", "france"), ("pierre-emerick-aubameyang", "france"),
                      ("raphael-guerreiro", "france"), ("kenan-yildiz", "germany"),
                      ("christian-pulisic", "croatia"), ("pepe", "brazil"), ("deco", "brazil"),
                      ("riyad-mahrez", "france"), ("edouard-mendy", "france")):
        assert also in real.player(pid).citizenship, pid
    assert player_matches(real.player("christian-pulisic"), "eurasia", "forward", "european-trophy",
                          on=day, continents=real.continent_map)
    # true answers the base used to reject (unknown facts)
    for pid, fact in (("gabriel-batistuta", "scored-in-final"), ("christian-vieri", "scored-in-final"),
                      ("romario", "scored-in-final"), ("mesut-ozil", "captain"), ("jorginho", "captain")):
        assert fact_value(real.player(pid), fact, day) is True, pid


def test_youth_caps_do_not_make_a_player_english(real):
    # clarification 'england-uk': Giggs played for England schoolboys, for Wales as a senior
    giggs = real.player("ryan-giggs")
    assert giggs.citizenship == ["wales"]
    assert not player_matches(giggs, "england", "midfielder", "captain", on=real.as_of,
                              continents=real.continent_map)
    assert player_matches(giggs, "eurasia", "midfielder", "captain", on=real.as_of, continents=real.continent_map)


def test_real_base_carries_the_corrections_of_issue_26(real):
    day = real.as_of
    assert fact_value(real.player("robin-van-persie"), "scored-in-final", day) is True  # League Cup final 2011
    assert "2011" in real.player("robin-van-persie").sources["scored_in_final"]
    assert fact_value(real.player("nicolo-barella"), "scored-in-final", day) is True  # Coppa Italia final 2022
    assert "2022" in real.player("nicolo-barella").sources["scored_in_final"]
    marcelo = real.player("marcelo")
    assert "UEFA Super Cup 2022" not in marcelo.european_club_trophies  # he had left Real Madrid
    assert "La Liga 2007" in marcelo.national_league_titles
    assert max(spell.to for spell in real.player("dida").clubs) == 2015  # Portuguesa, Grêmio, Internacional
    assert "Serie A 2020" in real.player("gianluigi-buffon").national_league_titles
    assert "Saudi Pro League 2025" in real.player("ngolo-kante").national_league_titles
    italian_midfielders = [p.id for p in real.players
                           if player_matches(p, "italy", "midfielder", "scored-in-final", on=day,
                                             continents=real.continent_map)]
    assert "nicolo-barella" in italian_midfielders


def test_every_no_goal_in_a_final_names_the_finals_checked(real):
    """Issue 26: a player whose trophies were won in finals and who is recorded as never
    scoring in one says which finals were checked (sources.scored_in_final)."""
    unexplained = []
    for player in real.players:
        finals = list(player.national_team_trophies or []) + [
            t for t in player.european_club_trophies or [] if "Super Cup" not in t]
        if player.scored_in_final is False and finals:
            checked = player.sources.get("scored_in_final", "")
            if not all(final in checked for final in finals):
                unexplained.append(player.id)
    assert not unexplained, unexplained


def test_goals_in_finals_found_in_the_second_pass_of_issue_26(real):
    day = real.as_of
    for pid, year in (("david-beckham", "2004"), ("weston-mckennie", "2021"), ("tyler-adams", "2024"),
                      ("raul-jimenez", "2025"), ("nuno-mendes", "2025"), ("moises-caicedo", "2025")):
        player = real.player(pid)
        assert fact_value(player, "scored-in-final", day) is True and year in player.sources["scored_in_final"], pid
    # doubts of the second pass that the two fact-check passes settled (content/head-game/verification)
    for pid, year in (("alessandro-nesta", "1998"), ("miroslav-klose", "2007"), ("james-rodriguez", "2011")):
        player = real.player(pid)
        assert fact_value(player, "scored-in-final", day) is True and year in player.sources["scored_in_final"], pid
