"""The registry of rulebook text keys: the check of a game's rule text (source and
translations, every problem in one call), where each key prints, the table in
docs/rulebook-text.md, and agreement with what the template and book.py read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content import load_game, load_games
from cardgen.rulebook import sections
from cardgen.rulebook.sections import TEXT_KEYS, check_rulebook_text, markdown_table, match_key, where_it_prints

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
TEMPLATE = ROOT / "templates" / "rulebook" / "rulebook.html.j2"
DOC = ROOT / "docs" / "rulebook-text.md"

GAME_YAML = """\
id: lights
title: game.title
players: {min: 2, max: 5}
source_language: en
languages: [en, de]
card_size: {width_mm: 63.5, height_mm: 88.9}
total_cards: 3
backs:
  - {id: main, name: back.main, color: "#123456"}
groups:
  - {id: numbers, name: group.numbers, color: "#aa0000", cards: 2}
  - id: actions
    name: group.actions
    color: "#00aa00"
    cards: 1
    kinds:
      - {id: blackout, name: kind.blackout, cards: 1}
settings:
  hand_size: 7
rule_options:
  - {id: stuck, name: option.stuck, default: draw, choices: [draw, pass]}
"""

CARDS_YAML = """\
cards:
  - {id: red-1, group: numbers, copies: 1, back: main, text: {name: card.red-1.name}}
  - {id: red-2, group: numbers, copies: 1, back: main, text: {name: card.red-2.name}}
  - {id: blackout, group: actions, kind: blackout, copies: 1, back: main,
     text: {name: card.blackout.name, rule: card.blackout.rule}}
"""

#: Every required rulebook key of the game above, and a few optional ones.
COMPLETE = {
    "rules.tagline": "Light up four colours.",
    "rules.intro.1": "A shedding game.",
    "rules.goal": "Play all your cards.",
    "rules.setup.1": "Deal {setting:hand_size} cards to each player.",
    "rules.turn.1": "Play a card or draw one.",
    "rules.turn.2": "Play {card:blackout|acc} to skip the next player.",
    "rules.wild.title": "Wild cards",
    "rules.wild.1": "A {kind:blackout} counts as any colour.",
    "rules.cards.numbers": "Two {group:numbers} cards.",
    "rules.cards.actions.blackout": "Played instead of a number.",
    "rules.card.blackout": "Keep it for the end.",
    "rules.options.stuck.draw": "Draw",
    "rules.options.stuck.pass": "Pass",
    "rules.end.1": "The round ends when a hand is empty.",
    "rules.quick.1": "Play or draw.",
}


def write_game(root: Path, rules: dict[str, str], po_entries: dict[str, str] | None = None,
               game_yaml: str = GAME_YAML) -> Path:
    """content/lights with an English source text holding ``rules`` and, when given, a
    German PO file translating ``po_entries`` (key -> German text)."""
    game_dir = root / "content" / "lights"
    (game_dir / "text").mkdir(parents=True)
    (game_dir / "game.yaml").write_text(game_yaml, "utf-8")
    (game_dir / "cards.yaml").write_text(CARDS_YAML, "utf-8")
    messages = {
        "game.title": "Lights", "back.main": "Night sky", "group.numbers": "Numbers",
        "group.actions": "Actions", "kind.blackout": "Blackout", "option.stuck": "When stuck",
        "card.red-1.name": "Red 1", "card.red-2.name": "Red 2", "card.blackout.name": "Blackout",
        "card.blackout.name.forms": "acc: the Blackout", "card.blackout.rule": "Skip a player.",
        **rules,
    }
    lines = ["language: en", "messages:"] + [f'  {key}: "{text}"' for key, text in messages.items()]
    (game_dir / "text" / "en.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    if po_entries is not None:
        (game_dir / "locale").mkdir()
        blocks = ['msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n']
        for key, german in po_entries.items():
            blocks.append(f'msgctxt "{key}"\nmsgid "{messages[key]}"\nmsgstr "{german}"\n')
        (game_dir / "locale" / "de.po").write_text("\n".join(blocks), "utf-8")
    return game_dir


def load(game_dir: Path):
    return load_game(game_dir, display_root=game_dir.parents[1])


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if needle in line)


def messages_of(errors) -> list[str]:
    return [str(error) for error in errors]


# --- the check -------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(p.name for p in CONTENT.iterdir() if (p / "game.yaml").is_file()))
def test_the_bundled_games_rule_text_is_complete_and_well_formed(game):
    assert messages_of(check_rulebook_text(load_game(CONTENT / game, display_root=ROOT))) == []


def test_a_complete_small_game_passes(tmp_path):
    game_dir = write_game(tmp_path, COMPLETE, {"rules.goal": "Spiele alle Karten aus.",
                                               "rules.setup.1": "Gib jedem {setting:hand_size} Karten."})
    assert messages_of(check_rulebook_text(load(game_dir))) == []


def test_every_missing_required_key_is_reported_in_one_call_naming_the_source_file(tmp_path):
    left_out = ("rules.tagline", "rules.goal", "rules.setup.1", "rules.quick.1", "rules.options.stuck.pass")
    rules = {k: v for k, v in COMPLETE.items() if k not in left_out}
    errors = messages_of(check_rulebook_text(load(write_game(tmp_path, rules))))
    assert errors == [  # the tagline and the quick reference are optional: not among them
        "content/lights/text/en.yaml: missing required rulebook text 'rules.goal' "
        "(printed under 'Goal of the game')",
        "content/lights/text/en.yaml: missing required rulebook text 'rules.setup.1' "
        "(printed under 'Setup', as numbered steps)",
        "content/lights/text/en.yaml: missing required rulebook text 'rules.options.stuck.pass' "
        "(printed under 'Formats and variants', in the rule options table, as the name of choice "
        "'pass' of option 'stuck')",
    ]


def test_only_a_goal_setup_turn_and_option_names_are_required():
    required = sorted(entry.pattern for entry in TEXT_KEYS if entry.required)
    assert required == ["rules.goal", "rules.options.<option>.<choice>", "rules.setup.<N>", "rules.turn.<N>"]


def test_a_game_without_tagline_quick_reference_intro_or_end_passes(tmp_path):
    optional = [k for k in COMPLETE if k.startswith(("rules.tagline", "rules.quick", "rules.intro", "rules.end"))]
    assert len(optional) == 4
    rules = {k: v for k, v in COMPLETE.items() if k not in optional}
    assert messages_of(check_rulebook_text(load(write_game(tmp_path, rules)))) == []


def test_rulebook_text_problems_are_rules_of_content_format_2(tmp_path):
    """A game written in format 1 was never checked: each problem is a NewerRule (a warning for it)."""
    from cardgen.errors import NewerRule

    rules = {k: v for k, v in COMPLETE.items() if k != "rules.goal"} | {"rules.unknown.1": "x"}
    errors = check_rulebook_text(load(write_game(tmp_path, rules)))
    assert len(errors) == 2
    assert all(isinstance(error, NewerRule) and error.since == 2 and error.fix is None for error in errors)


def test_unknown_and_malformed_keys_are_reported_with_their_line_and_a_suggestion(tmp_path):
    rules = dict(COMPLETE)
    rules.update({
        "rules.tagine": "typo",                  # nothing prints it
        "rules.turn.4": "a gap: no .3",          # numbering gap
        "rules.setup.02": "leading zero",
        "rules.active.1": "no title",            # subsection without .title
        "rules.empty.title": "Only a title",     # subsection with nothing under its title
        "rules.cards.number": "group typo",      # unknown group
        "rules.cards.actions.blackot": "kind typo",
        "rules.card.red-1": "red-1 has no rule text, so this never prints",
        "rules.options.stuck.wait": "not a choice",
        "rules.setp.1": "section typo",
        "rules.intro.1": "  ",                   # empty
    })
    game_dir = write_game(tmp_path, rules)
    text = game_dir / "text" / "en.yaml"
    errors = messages_of(check_rulebook_text(load(game_dir)))

    def at(key: str) -> str:
        return f"content/lights/text/en.yaml:{line_of(text, key + ':')}:3 (field messages.{key}): "

    expected = [
        at("rules.tagine") + "unknown rulebook text key 'rules.tagine': nothing in the rulebook prints it; "
        "did you mean 'rules.tagline'?",
        at("rules.turn.4") + "'rules.turn.3' is missing: the keys of 'rules.turn' are numbered 1, 2, 4; "
        "number them 1, 2, 3 ... without gaps (the rulebook prints them in number order)",
        at("rules.setup.02") + "'rules.setup.02' is not numbered 1, 2, 3 ...: write 'rules.setup.2' "
        "(no leading zeros, no 0)",
        at("rules.active.1") + "'rules.active.1' does not print: subsection 'active' of 'Playing a turn' "
        "has no title; add 'rules.active.title' (its heading)",
        at("rules.empty.title") + "subsection 'empty' of 'Playing a turn' has a title and no text: "
        "add 'rules.empty.intro' or 'rules.empty.1' (its steps)",
        at("rules.cards.number") + "'rules.cards.number': game.yaml has no group 'number' (groups: numbers, "
        "actions); did you mean 'rules.cards.numbers'?",
        at("rules.cards.actions.blackot") + "'rules.cards.actions.blackot': group 'actions' has no kind "
        "'blackot' (kinds: blackout); did you mean 'rules.cards.actions.blackout'?",
        at("rules.card.red-1") + "'rules.card.red-1' does not print: the rulebook shows a card's longer "
        "explanation only beside a card with rule text, and card 'red-1' has no 'rule' in its text",
        at("rules.options.stuck.wait") + "'rules.options.stuck.wait': rule option 'stuck' has no choice "
        "'wait' (choices: draw, pass)",
        at("rules.intro.1") + "rulebook text 'rules.intro.1' is empty; write its text or delete the key",
        at("rules.setp.1") + "'rules.setp.1' does not print: subsection 'setp' of 'Playing a turn' has no "
        "title; add 'rules.setp.title' (its heading); or did you mean 'rules.setup.1'?",
    ]
    assert sorted(errors) == sorted(expected)


def test_placeholders_the_rulebook_cannot_fill_are_reported_in_the_source(tmp_path):
    rules = dict(COMPLETE)
    rules.update({
        "rules.goal": "Score {points} points.",                     # a named argument: never filled
        "rules.turn.1": "Play {card:blackot} or {Card:red-1}.",     # unknown card, malformed
        "rules.turn.2": "Play {card:blackout|dat}.",                # no such form in the source
        "rules.end.1": "Hold {setting:hand_sise} cards; see {group:colours} and {kind:wild}.",
    })
    game_dir = write_game(tmp_path, rules)
    text = game_dir / "text" / "en.yaml"
    errors = messages_of(check_rulebook_text(load(game_dir)))
    goal, turn1, turn2, end1 = (line_of(text, key + ":") for key in
                                ("rules.goal", "rules.turn.1", "rules.turn.2", "rules.end.1"))
    assert errors == [
        f"content/lights/text/en.yaml:{goal}:3 (field messages.rules.goal): placeholder {{points}} is never "
        "filled in for rulebook text (it takes {card:ID}, {card:ID|case}, {group:ID}, {kind:ID}, "
        "{setting:NAME}; a literal brace cannot be written)",
        f"content/lights/text/en.yaml:{turn1}:3 (field messages.rules.turn.1): malformed placeholder "
        "'{Card:red-1}'; rulebook text may hold {card:ID}, {card:ID|case}, {group:ID}, {kind:ID}, {setting:NAME}",
        f"content/lights/text/en.yaml:{turn1}:3 (field messages.rules.turn.1): reference {{card:blackot}}: "
        "unknown card 'blackot' in game 'lights'; did you mean '{card:blackout}'?",
        f"content/lights/text/en.yaml:{turn2}:3 (field messages.rules.turn.2): reference "
        "{card:blackout|dat}: no 'dat' form of 'card.blackout.name' in en (add 'dat: ...' to "
        "card.blackout.name.forms)",
        f"content/lights/text/en.yaml:{end1}:3 (field messages.rules.end.1): reference "
        "{setting:hand_sise}: game.yaml has no setting 'hand_sise' (settings: hand_size); "
        "did you mean '{setting:hand_size}'?",
        f"content/lights/text/en.yaml:{end1}:3 (field messages.rules.end.1): reference {{group:colours}}: "
        "unknown group 'colours' in game 'lights'",
        f"content/lights/text/en.yaml:{end1}:3 (field messages.rules.end.1): reference {{kind:wild}}: "
        "unknown kind 'wild' in game 'lights'",
    ]


def test_a_malformed_placeholder_in_a_translation_names_the_po_file_its_line_and_language(tmp_path):
    game_dir = write_game(tmp_path, COMPLETE, {
        "rules.goal": "Spiele alle Karten aus.",                            # fine
        "rules.setup.1": "Gib jedem {setting:hand-size} Karten.",           # malformed (hyphen)
        "rules.turn.2": "Spiele {card:blackout|dat}, dann {karte:red-1}.",  # missing form is only a warning
    })
    po = game_dir / "locale" / "de.po"
    errors = check_rulebook_text(load(game_dir))
    setup = line_of(po, 'msgctxt "rules.setup.1"') + 1  # the entry's msgid line
    turn = line_of(po, 'msgctxt "rules.turn.2"') + 1
    assert messages_of(errors) == [
        f"content/lights/locale/de.po:{setup} (field rules.setup.1, language de): translation of "
        "'rules.setup.1': reference {setting:hand-size}: game.yaml has no setting 'hand-size' (settings: "
        "hand_size); did you mean '{setting:hand_size}'?",
        f"content/lights/locale/de.po:{turn} (field rules.turn.2, language de): translation of "
        "'rules.turn.2': malformed placeholder '{karte:red-1}'; rulebook text may hold {card:ID}, "
        "{card:ID|case}, {group:ID}, {kind:ID}, {setting:NAME}",
    ]
    assert errors[0].locator.language == "de" and errors[0].locator.line == setup


def test_formats_print_only_with_their_section(tmp_path):
    without_options = GAME_YAML.split("rule_options:")[0]
    rules = {k: v for k, v in COMPLETE.items() if not k.startswith("rules.options.")}
    rules.update({"rules.formats.cup.title": "Cup", "rules.formats.cup.1": "Three games."})
    game_dir = write_game(tmp_path, rules, game_yaml=without_options)
    text = game_dir / "text" / "en.yaml"
    assert messages_of(check_rulebook_text(load(game_dir))) == [
        f"content/lights/text/en.yaml:{line_of(text, 'rules.formats.cup.title:')}:3 (field "
        "messages.rules.formats.cup.title): subsection 'cup' of 'Formats and variants' does not print: "
        "the 'Formats and variants' section prints only when 'rules.formats.intro' exists or game.yaml "
        "has rule_options; add 'rules.formats.intro'"
    ]
    text.write_text(text.read_text("utf-8") + '  rules.formats.intro: "Longer games."\n', "utf-8")
    assert check_rulebook_text(load(game_dir)) == []


# --- the registry against its readers ---------------------------------------------------


@pytest.mark.parametrize("key,expected", [
    ("rules.goal", "Rulebook, under 'Goal of the game' (a paragraph)."),
    ("rules.setup.3", "Rulebook, under 'Setup', as numbered steps (a list item)."),
    ("rules.last-card.title", "Rulebook, under 'Playing a turn', after its steps, as the heading of "
                              "subsection 'last-card' (a heading)."),
    ("rules.options.result.extra-time", "Rulebook, under 'Formats and variants', in the rule options table, "
                                        "as the name of choice 'extra-time' of option 'result' (a label)."),
    ("rules.setup", None),          # steps() leaves the bare prefix out
    ("rules.intro.title", None),    # 'intro' is no subsection of 'Playing a turn'
    ("card.red-1.name", None),
])
def test_where_a_key_prints(key, expected):
    assert where_it_prints(key) == expected


def test_every_example_is_a_key_of_its_own_pattern():
    for entry in TEXT_KEYS:
        key, text = entry.example
        found = match_key(key)
        assert found is not None and found[0] is entry, (entry.pattern, key)
        assert where_it_prints(key) is not None


def test_every_key_the_bundled_games_print_is_declared():
    for game in load_games(CONTENT):
        for key in game.messages[game.meta.source_language]:
            if key.startswith("rules."):
                assert match_key(key) is not None, (game.id, key)


def test_the_template_reads_only_declared_keys():
    """Every literal rules.* key or prefix in the template belongs to a declared pattern, and
    the subsection ids it leaves out of 'Playing a turn' are the registry's."""
    template = TEMPLATE.read_text("utf-8")
    excluded = re.search(r"subsections\('rules', \(([^)]*)\)\)", template)
    assert excluded is not None
    assert tuple(re.findall(r"'([a-z-]+)'", excluded.group(1))) == sections.TURN_SUBSECTION_RESERVED
    literals = set(re.findall(r"""\w+\('(rules\.[a-z.-]+)'\)""", template))
    assert {"rules.tagline", "rules.goal", "rules.setup", "rules.turn", "rules.quick"} <= literals
    patterns = {entry.pattern for entry in TEXT_KEYS}
    for literal in literals:
        # a whole key (t, has, para) or the prefix of numbered keys (keys, steps)
        assert literal in patterns or f"{literal}.<N>" in patterns or literal == "rules.formats", literal


def test_book_py_builds_only_declared_keys():
    book = (ROOT / "cardgen" / "rulebook" / "book.py").read_text("utf-8")
    built = {re.sub(r"\{[^}]*\}", "<>", key) for key in re.findall(r'f"(rules\.[^"]*)"', book)}
    shapes = {re.sub(r"<[A-Za-z]+>", "<>", entry.pattern) for entry in TEXT_KEYS}
    assert built and built <= shapes, built - shapes


def test_the_doc_table_is_the_registry():
    doc = DOC.read_text("utf-8")
    assert markdown_table() in doc, (
        "docs/rulebook-text.md is out of date; paste the output of\n"
        "  python -c 'from cardgen.rulebook.sections import markdown_table; print(markdown_table())'"
    )
    listed = re.findall(r"^\| `(rules\.[^`]+)` \|", doc, flags=re.MULTILINE)
    assert listed == [entry.pattern for entry in TEXT_KEYS]
