"""The footballer base as two independent passes checked it (issue 26).

``content/head-game/verification/`` keeps the evidence: each pass's notes on every player
(``pass-A.yaml``, ``pass-B.yaml``: the fields checked, what they found, with confidence and why)
and the settlement (``settled.yaml``: one decision per correction either pass proposed and per
unknown captain).  These tests hold the base to that record: every player was checked field by
field by both passes, every correction both passes agreed on was decided, and the base carries
each decision's value -- a later edit of a settled fact has to update the record with it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "content" / "head-game"
VERIFICATION = GAME / "verification"
FIELDS = ("born", "citizenship", "positions", "retired", "clubs", "national_team_trophies",
          "national_league_titles", "european_club_trophies", "ballon_dor", "scored_in_final", "captain")
SURE = 0.8


def _yaml(path: Path):
    return yaml.safe_load(path.read_text("utf-8"))


@pytest.fixture(scope="module")
def base() -> dict[str, dict]:
    players = {}
    for path in sorted((GAME / "players").glob("*.yaml")):
        for player in _yaml(path)["players"]:
            players[player["id"]] = player
    return players


@pytest.fixture(scope="module")
def passes() -> dict[str, dict[str, dict]]:
    return {letter: {entry["id"]: entry for entry in _yaml(VERIFICATION / f"pass-{letter}.yaml")["players"]}
            for letter in ("A", "B")}


@pytest.fixture(scope="module")
def decisions() -> list[dict]:
    return _yaml(VERIFICATION / "settled.yaml")["decisions"]


def comparable(value):
    """A field's value with the order of list items and YAML's spelling of a club spell left out."""
    if isinstance(value, list):
        return sorted((comparable(item) for item in value), key=repr)
    if isinstance(value, dict):
        return tuple(sorted((str(k), comparable(v)) for k, v in value.items() if not (k == "loan" and v is False)))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def test_both_passes_checked_every_player_field_by_field(base, passes):
    for letter, notes in passes.items():
        assert set(notes) == set(base), f"pass {letter}: players missing {sorted(set(base) - set(notes))[:5]}"
        unchecked = {pid: sorted(set(FIELDS) - set(entry["checked"])) for pid, entry in notes.items()
                     if set(FIELDS) - set(entry["checked"])}
        assert not unchecked, f"pass {letter} left fields unchecked: {unchecked}"


def test_every_correction_both_passes_agree_on_was_decided(passes, decisions):
    decided = {(d["id"], d["field"]) for d in decisions}
    agreed = []
    for pid, entry in passes["A"].items():
        other = {f["field"]: f for f in passes["B"][pid].get("findings") or []}
        for finding in entry.get("findings") or []:
            twin = other.get(finding["field"])
            if (twin and finding["field"] in FIELDS
                    and comparable(twin.get("proposed")) == comparable(finding.get("proposed"))
                    and min(float(twin["confidence"]), float(finding["confidence"])) >= SURE):
                agreed.append((pid, finding["field"]))
    assert agreed, "the passes agreed on no correction: the record is not the one this test was written for"
    assert not [item for item in agreed if item not in decided]


def test_every_decision_is_what_the_base_carries(base, decisions):
    assert {d["decision"] for d in decisions} <= {"applied", "kept", "unknown"}
    wrong = []
    for decision in decisions:
        player = base.get(decision["id"])
        assert player is not None, f"settled.yaml names a player the base lacks: {decision['id']}"
        if decision["field"] not in FIELDS:
            continue
        if comparable(player.get(decision["field"])) != comparable(decision["value"]):
            wrong.append((decision["id"], decision["field"], decision["value"], player.get(decision["field"])))
        if decision["decision"] == "unknown":
            assert decision["value"] is None and decision["field"] in player.get("sources", {}), decision
        assert str(decision.get("why") or "").strip(), f"a decision without its why: {decision['id']}"
    assert not wrong, f"{len(wrong)} settled values differ from the base, first: {wrong[:3]}"


def test_captain_is_unknown_for_at_most_ten_players(base):
    unknown = sorted(pid for pid, player in base.items() if player.get("captain") is None)
    assert len(unknown) <= 10, unknown


def test_every_no_goal_in_a_final_says_which_finals_were_checked(base):
    """Issue 26: a ``false`` names the finals the passes found the player played (won and lost), or
    says he played none."""
    def explained(text: str) -> bool:
        return "finals checked" in text or "no senior final played" in text

    unexplained = [pid for pid, player in base.items() if player.get("scored_in_final") is False
                   and not explained((player.get("sources") or {}).get("scored_in_final", ""))]
    assert not unexplained, unexplained
