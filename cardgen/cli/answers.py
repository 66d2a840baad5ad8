"""``cardgen answers``: which real footballers answer a head-game field, and the coverage.

``cardgen answers head-game --geo brazil --position forward --fact ballon-dor``
lists the players of the reference base answering that field; leave a card
out to list everyone matching the others.  Cards may be given by id, by
English name ("Ballon d'Or", "South America") or by their Russian card name.
Without any card the command prints the coverage of all 832 fields.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any, Mapping

import click

from cardgen.cli import Settings
from cardgen.cli.common import echo_warnings, resolve_games, table
from cardgen.engines.footballers import BUCKETS, CARD_ATTRIBUTES
from cardgen.errors import ContentError, Locator, shown_path



@click.command()
@click.argument("game")
@click.option("--geo", help="Country or continent card (id or name).")
@click.option("--position", help="Position card (id or name).")
@click.option("--fact", help="Fact card (id or name).")
@click.option("--date", "on", default=None,
              help="Day ages are measured at: YYYY-MM-DD, 'today' or 'as-of' (the base's date). "
                   "Default: the game's rule (settings.age_date: the base's date, clarification 'age-date').")
@click.option("--coverage/--no-coverage", default=None,
              help="Print the coverage report (default: when no card is given).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@click.pass_obj
def answers(settings: Settings, game: str, geo: str | None, position: str | None, fact: str | None,
            on: str | None, coverage: bool | None, as_json: bool) -> None:
    """List the footballers of GAME's reference base who answer a field."""
    from cardgen.content import load_game
    from cardgen.engines.footballers import (
        AnswerIndex, age_date, coverage_report, deck_weights, load_reference_base,
    )

    (game_id,) = resolve_games(settings, [game])
    loaded = load_game(settings.content_dir / game_id, display_root=settings.content_dir.parent)
    echo_warnings(loaded.warnings)
    missing = [name for name in ("players", "countries") if name not in loaded.meta.data_files]
    if missing:
        raise ContentError(
            f"game '{game_id}' has no footballer reference base (data_files: {', '.join(missing)} not declared); "
            "'cardgen answers' works on games whose fields footballers answer, such as head-game",
            Locator(file=shown_path(loaded.root / "game.yaml", settings.content_dir.parent.resolve())))
    base = load_reference_base(loaded.data_path("players"), loaded.data_path("countries"),
                               display_root=settings.content_dir.parent)
    day = age_date(on or str(loaded.meta.settings.get("age_date", "as-of")), base)
    born = [p.born for p in base.players if p.born]
    if born and day < max(born):  # an age before a player's birth would print negative
        raise ContentError(f"--date {day.isoformat()} is before the birth of the base's youngest player "
                           f"({max(born).isoformat()}); ages are measured at a day from then on "
                           f"('as-of' is {base.as_of.isoformat()})")
    aliases = card_aliases(loaded)
    wanted = {name: resolve_card(aliases, name, value)
              for name, value in (("geo", geo), ("position", position), ("fact", fact)) if value}
    report: dict[str, Any] = {"game": game_id, "date": day.isoformat(), "base_as_of": base.as_of.isoformat(),
                              "base_players": len(base.players)}
    if wanted:
        found = [p for p in base.players if _answers(base, p, wanted, day)]
        report["field"] = wanted
        report["answers"] = [_player_row(p, day) for p in found]
    show_coverage = coverage if coverage is not None else not wanted
    if show_coverage:
        index = AnswerIndex(base, day)
        report["coverage"] = coverage_report(index, deck_weights(loaded))
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=1))
        return
    _print_report(report)


# -- resolving card names ----------------------------------------------------------------


def _key(text: str) -> str:
    """Comparable form of a card name: lower case, letters and digits joined by '-'."""
    return "-".join(re.findall(r"[\w]+", text.lower().replace("'", "").replace("’", "")))


def card_aliases(game: Any) -> dict[str, dict[str, str]]:
    """Per card type (geo, position, fact): every accepted spelling -> the card's value."""
    aliases: dict[str, dict[str, str]] = {kind: {} for kind in CARD_ATTRIBUTES}
    for card in game.cards:
        for kind, attributes in CARD_ATTRIBUTES.items():
            for attribute in attributes:
                value = card.attrs.get(attribute)
                if value is None:
                    continue
                names = [str(value), str(value).replace("-", " ")]
                names += [game.text(key, language) for key in card.text.values()
                          for language in game.messages if key in game.messages[language]]
                for name in names:
                    aliases[kind][_key(name)] = str(value)
    for extra, value in (("ballon-d-or", "ballon-dor"), ("golden-ball", "ballon-dor")):
        aliases["fact"].setdefault(extra, value)
    return aliases


def resolve_card(aliases: Mapping[str, Mapping[str, str]], kind: str, given: str) -> str:
    value = aliases[kind].get(_key(given))
    if value is None:
        choices = ", ".join(sorted(set(aliases[kind].values())))
        raise click.BadParameter(f"unknown {kind} card {given!r}; one of: {choices}", param_hint=f"--{kind}")
    return value


# -- answering -----------------------------------------------------------------------------


def _answers(base: Any, player: Any, wanted: Mapping[str, str], day: date) -> bool:
    from cardgen.engines.footballers import fact_value, matches_geo, matches_position

    if "geo" in wanted and not matches_geo(player, wanted["geo"], base.continent_map):
        return False
    if "position" in wanted and not matches_position(player, wanted["position"]):
        return False
    return "fact" not in wanted or fact_value(player, wanted["fact"], day) is True


def _player_row(player: Any, day: date) -> dict[str, Any]:
    from cardgen.engines.footballers import age_on

    return {
        "id": player.id,
        "name": player.name,
        "name_ru": player.name_ru,
        "citizenship": list(player.citizenship),
        "positions": list(player.positions),
        "age": age_on(player.born, day) if player.born else None,
        "retired": player.retired,
    }


# -- coverage ------------------------------------------------------------------------------


def _print_report(report: Mapping[str, Any]) -> None:
    click.secho(f"{report['game']}: reference base of {report['base_players']} players "
                f"(facts as of {report['base_as_of']}, ages on {report['date']})", bold=True)
    if "answers" in report:
        field = ", ".join(f"{kind} {value}" for kind, value in report["field"].items())
        rows = report["answers"]
        click.echo(f"{len(rows)} answer(s) to {field}:")
        if rows:
            click.echo(table(["name", "имя", "citizenship", "positions", "age", "retired"], [
                (r["name"], r["name_ru"], " ".join(r["citizenship"]), " ".join(r["positions"]),
                 "" if r["age"] is None else r["age"], {True: "yes", False: "no"}.get(r["retired"], "?"))
                for r in rows]))
    if "coverage" in report:
        click.echo()
        echo_coverage(report["coverage"])


def echo_coverage(cov: Mapping[str, Any]) -> None:
    """Print a coverage report (see ``footballers.coverage_report``) as two tables."""
    click.secho("coverage: fields (geography x position x fact) by number of answers", bold=True)
    click.echo(table(["answers", "fields", "share", "share as dealt"], [
        (b, cov["fields"][b], f"{cov['fields'][b] / max(1, sum(cov['fields'].values())):.3f}",
         f"{cov['dealt_share'][b]:.3f}") for b in BUCKETS]))
    click.echo()
    click.echo(table(["fact", "cards", *BUCKETS], [
        (fact, cov["fact_cards"].get(fact, 0), *(row[b] for b in BUCKETS))
        for fact, row in cov["per_fact"].items()]))
