"""Card generators in cards.yaml: expansion, templating, limits and error positions.

The valid game tests/data/mini is copied and its cards.yaml replaced; mini
declares the groups 'numbers' (4 cards) and 'specials' (2, kind 'swap'), the
attributes 'value' (integer 1..9, required in numbers) and 'colour' (red or
blue), and the message keys card.one.name and card.swap.name.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from cardgen.content.loader import Game, discover_games, load_game
from cardgen.content.model import MAX_GENERATED_CARDS
from cardgen.content.schema import schema_texts
from cardgen.errors import ContentErrors

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
SNAPSHOTS = TESTS / "data" / "decks-expanded"

SWAP = """
  - id: swap
    group: specials
    kind: swap
    copies: 2
    back: main
    text: {name: card.swap.name}
"""


def mini(tmp_path: Path, cards_yaml: str) -> Path:
    game_dir = tmp_path / "content" / "mini"
    shutil.copytree(TESTS / "data" / "mini", game_dir)
    (game_dir / "cards.yaml").write_text(textwrap.dedent(cards_yaml).lstrip(), "utf-8")
    return game_dir


def load(tmp_path: Path, cards_yaml: str) -> Game:
    return load_game(mini(tmp_path, cards_yaml), display_root=tmp_path)


def errors(tmp_path: Path, cards_yaml: str) -> list[str]:
    """The messages of one failed load, as the CLI prints them (file:line:col (field): ...)."""
    with pytest.raises(ContentErrors) as failed:
        load(tmp_path, cards_yaml)
    return [str(error) for error in failed.value.errors]


def dumps(cards) -> str:
    # JSON text, so that 1 and true (equal in Python) or 1 and "1" cannot pass for each other.
    return json.dumps([card.model_dump(mode="json") for card in cards], sort_keys=True)


# -- the bundled games ---------------------------------------------------------


@pytest.mark.parametrize("game_id", discover_games(ROOT / "content"))
def test_bundled_decks_equal_their_snapshot_from_before_generators(game_id: str):
    game = load_game(ROOT / "content" / game_id)
    snapshot = json.loads((SNAPSHOTS / f"{game_id}.json").read_text("utf-8"))
    assert snapshot["game"] == game_id
    assert dumps(game.cards) == json.dumps(snapshot["cards"], sort_keys=True)


def test_every_bundled_game_uses_generators():
    for game_id in discover_games(ROOT / "content"):
        assert "- generate:" in (ROOT / "content" / game_id / "cards.yaml").read_text("utf-8"), game_id


def test_every_bundled_game_has_a_snapshot():
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.json")) == discover_games(ROOT / "content")


# -- expansion -----------------------------------------------------------------


PRODUCT = """
cards:
  - generate:
      colour: [red, blue]
      value: {from: 1, to: 2}
    card:
      id: "{colour}-{value}"
      group: numbers
      back: main
      attrs: {value: "{value}", colour: "{colour}"}
""" + SWAP


def test_a_generator_expands_in_product_order_first_name_slowest(tmp_path):
    game = load(tmp_path, PRODUCT)
    assert [card.id for card in game.cards] == ["red-1", "red-2", "blue-1", "blue-2", "swap"]
    assert game.card("blue-2").attrs == {"value": 2, "colour": "blue"}
    assert game.card("blue-2").group == "numbers" and game.card("blue-2").copies == 1


def test_a_whole_placeholder_keeps_its_type_in_attrs_and_copies(tmp_path):
    game = load(tmp_path, """
        cards:
          - generate:
              n: {from: 1, to: 2}
            card:
              id: "{n}"
              group: numbers
              copies: "{n}"
              back: main
              attrs: {value: "{n}"}
          - {id: four, group: numbers, back: main, attrs: {value: 4}}
    """ + textwrap.indent(SWAP, "        "))
    first, second = game.card("1"), game.card("2")
    assert first.id == "1"  # text in an id
    assert first.attrs == {"value": 1} and type(first.attrs["value"]) is int
    assert (first.copies, second.copies) == (1, 2)


def test_a_placeholder_inside_text_fills_in_text_even_in_attrs(tmp_path):
    found = errors(tmp_path, """
        cards:
          - generate:
              n: [3]
            card: {id: "n{n}", group: numbers, back: main, attrs: {value: "{n}0"}}
    """)
    assert (
        "content/mini/cards.yaml:4:67 (field cards[0].card.attrs.value, card n3): card 'n3' from the "
        "generator at cards.yaml:2:5 (n=3): attribute 'value': expected an integer, found '30'"
    ) in found


def test_booleans_fill_in_text_as_yaml_writes_them(tmp_path):
    game_dir = mini(tmp_path, """
        cards:
          - generate:
              wild: [true, false]
              n: [1, 2]
            card: {id: "card-{wild}-{n}", group: numbers, back: main, attrs: {value: "{n}", wild: "{wild}"}}
    """ + textwrap.indent(SWAP, "        "))
    game_yaml = game_dir / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text("utf-8").replace(
            "  colour: {type: enum, values: [red, blue]}",
            "  colour: {type: enum, values: [red, blue]}\n  wild: {type: boolean}",
        ),
        "utf-8",
    )
    game = load_game(game_dir)
    assert [card.id for card in game.cards[:4]] == ["card-true-1", "card-true-2", "card-false-1", "card-false-2"]
    assert game.card("card-false-2").attrs["wild"] is False


def test_rows_fill_placeholders_from_their_fields(tmp_path):
    game = load(tmp_path, """
        cards:
          - generate:
              row:
                - {name: one, value: 7, colour: red}
                - {colour: blue, name: two, value: 8}
                - {name: three, value: 9, colour: red}
                - {name: four, value: 1, colour: blue}
            card:
              id: "{row.name}"
              group: numbers
              back: main
              attrs: {value: "{row.value}", colour: "{row.colour}"}
          - generate:
              special: [{kind: swap, copies: 2}]
            card:
              id: "special-{special.kind}"
              group: specials
              kind: "{special.kind}"
              copies: "{special.copies}"
              back: main
              text: {name: "card.{special.kind}.name"}
    """)
    assert [card.id for card in game.cards] == ["one", "two", "three", "four", "special-swap"]
    assert game.card("two").attrs == {"value": 8, "colour": "blue"}
    swap = game.card("special-swap")
    assert (swap.kind, swap.copies, swap.text) == ("swap", 2, {"name": "card.swap.name"})


def test_a_range_takes_a_step_and_doubled_braces_are_literal(tmp_path):
    cards_yaml = """
cards:
  - generate:
      v: {from: 3, to: 9, step: 2}
    card: {id: "v{v}", group: numbers, back: main, attrs: {value: "{v}", colour: "{{x}}"}}
""" + SWAP
    # '{x}' is no colour of the enum: the error shows the values and that the braces came through.
    found = errors(tmp_path, cards_yaml)
    # the same mistake in every card the template makes is reported once, counting the others
    assert [line for line in found if "cards.yaml" in line] == [
        "content/mini/cards.yaml:4:82 (field cards[0].card.attrs.colour, card v3): card 'v3' from "
        "the generator at cards.yaml:2:5 (v=3): attribute 'colour': expected one of red, blue; found '{x}' "
        "(and 3 more card(s) of this generator: v5, v7, v9)"
    ]


def test_cards_written_out_and_generated_mix_in_file_order(tmp_path):
    game = load(tmp_path, """
        cards:
          - {id: first, group: numbers, back: main, attrs: {value: 1}}
          - generate:
              n: {from: 2, to: 3}
            card: {id: "n{n}", group: numbers, back: main, attrs: {value: "{n}"}}
          - {id: last, group: numbers, back: main, attrs: {value: 4}}
    """ + textwrap.indent(SWAP, "        "))
    assert [card.id for card in game.cards] == ["first", "n2", "n3", "last", "swap"]


# -- errors inside expanded cards ---------------------------------------------------


def test_an_error_in_an_expanded_card_names_the_generator_and_the_values(tmp_path):
    found = errors(tmp_path, """
        cards:
          - generate:
              colour: [red, blue]
              value: {from: 8, to: 10}
            card:
              id: "{colour}-{value}"
              group: numbers
              back: main
              attrs: {value: "{value}", colour: "{colour}"}
    """)
    assert (
        "content/mini/cards.yaml:9:22 (field cards[0].card.attrs.value, card red-10): card 'red-10' "
        "from the generator at cards.yaml:2:5 (colour=red, value=10): attribute 'value': "
        "expected at most 9, found 10 (and 1 more card(s) of this generator: blue-10)"
    ) in found
    assert sum("expected at most 9" in line for line in found) == 1  # red-10 and blue-10, one mistake


def test_a_schema_error_in_an_expanded_card_is_located_at_the_template(tmp_path):
    found = errors(tmp_path, """
        cards:
          - generate:
              colour: [Red]
            card: {id: "{colour}-1", group: numbers, copies: "{colour}", back: main}
    """)
    assert found == [
        "content/mini/cards.yaml:4:16 (field cards[0].card.id): card 'Red-1' from the generator at "
        "cards.yaml:2:5 (colour=Red): expected a lower-case id of letters, digits and single hyphens "
        "(like 'geo-france'), found 'Red-1'",
        "content/mini/cards.yaml:4:54 (field cards[0].card.copies): card 'Red-1' from the generator at "
        "cards.yaml:2:5 (colour=Red): expected an integer, found text 'Red'",
    ]


def test_a_duplicate_id_names_both_places_in_the_file(tmp_path):
    found = errors(tmp_path, """
        cards:
          - generate:
              n: [1, 2]
            card: {id: "n{n}", group: numbers, back: main, attrs: {value: "{n}"}}
          - {id: n2, group: numbers, back: main, attrs: {value: 2}}
    """)
    assert (
        "content/mini/cards.yaml:5:10 (field cards[1].id): duplicate id 'n2' "
        "(also at cards[0], the generator's card with n=2)"
    ) in found


# -- broken generators -------------------------------------------------------------


def bad(tmp_path: Path, generate: str, card: str = '{id: "{a}", group: numbers, back: main}') -> list[str]:
    return errors(tmp_path, f"cards:\n  - generate: {generate}\n    card: {card}\n")


def test_unknown_placeholder_suggests_the_close_name(tmp_path):
    assert bad(tmp_path, "{a: [x]}", '{id: "{a}", group: "{aa}", back: main}') == [
        "content/mini/cards.yaml:3:30 (field cards[0].card.group): unknown placeholder '{aa}' "
        "(did you mean '{a}'?); 'generate' defines: a"
    ]


def test_a_reversed_range_is_an_error_at_from(tmp_path):
    assert bad(tmp_path, "{a: {from: 5, to: 4}}") == [
        "content/mini/cards.yaml:2:26 (field cards[0].generate.a.from): range of 'a' runs backwards: "
        "'from' 5 is greater than 'to' 4"
    ]


def test_an_empty_list_of_values_is_an_error(tmp_path):
    assert bad(tmp_path, "{a: []}") == [
        "content/mini/cards.yaml:2:19 (field cards[0].generate.a): expected at least 1 item, found 0"
    ]


def test_numbers_of_a_range_are_bounded(tmp_path):
    found = bad(tmp_path, "{a: {from: 0, to: 2000000, step: 0}}")
    assert any("field cards[0].generate.a.to" in line and "less than or equal to 1000000" in line for line in found)
    assert any("field cards[0].generate.a.step" in line and "greater than or equal to 1" in line for line in found)


def test_a_range_holds_at_most_ten_thousand_numbers(tmp_path):
    assert bad(tmp_path, "{a: {from: 1, to: 10001}}") == [
        "content/mini/cards.yaml:2:19 (field cards[0].generate.a): range of 'a' holds 10,001 numbers; "
        "a range holds at most 10,000"
    ]


def test_too_many_cards_are_refused_before_they_are_made(tmp_path):
    found = bad(tmp_path, "{a: {from: 1, to: 10000}, b: {from: 1, to: 10000}}", '{id: "{a}-{b}", group: numbers, back: main}')
    assert found == [
        "content/mini/cards.yaml:2:15 (field cards[0].generate): this generator makes 100,000,000 cards "
        "(10000 x 10000); a generator makes at most 10,000"
    ]


def test_the_cap_counts_every_generator_of_the_file(tmp_path):
    half = MAX_GENERATED_CARDS // 2 + 1
    found = errors(tmp_path, f"""
        cards:
          - generate: {{a: {{from: 1, to: {half}}}}}
            card: {{id: "a{{a}}", group: numbers, back: main}}
          - generate: {{b: {{from: 1, to: {half}}}}}
            card: {{id: "b{{b}}", group: numbers, back: main}}
    """)
    assert found == [
        f"content/mini/cards.yaml:4:15 (field cards[1].generate): the generators of this file make "
        f"{2 * half:,} cards with this one; one file's generators make at most {MAX_GENERATED_CARDS:,}"
    ]


def test_the_id_must_use_every_name(tmp_path):
    assert bad(tmp_path, "{a: [x, y], b: [1, 2]}") == [
        "content/mini/cards.yaml:3:16 (field cards[0].card.id): the id does not use {b}, so several cards "
        "would share one id; put every name of 'generate' in the id"
    ]


@pytest.mark.parametrize(
    ("generate", "card", "message"),
    [
        ("{a: [x]}", '{id: "{a", group: numbers, back: main}',
         "unmatched '{' in '{a'; write {name} for a placeholder and '{{' for a literal brace"),
        ("{a: [x]}", '{id: "{a}}", group: numbers, back: main}',
         "unmatched '}' in '{a}}'"),
        ("{a: [x]}", '{id: "{A-1}", group: numbers, back: main}',
         "'{A-1}' in '{A-1}' is not a placeholder; write {name} or {name.field}"),
        ("{a: [x]}", '{id: "{a.name}", group: numbers, back: main}',
         "'{a.name}': the values of 'a' are plain values, not rows with fields; write {a}"),
        ("{a: [{name: x}]}", '{id: "{a}", group: numbers, back: main}',
         "'a' holds rows; name one of their fields: {a.name}"),
        ("{a: [{name: x}]}", '{id: "{a.nmae}", group: numbers, back: main}',
         "the rows of 'a' have no field 'nmae'; they have: name"),
    ],
)
def test_template_mistakes_are_reported_at_their_value(tmp_path, generate, card, message):
    found = bad(tmp_path, generate, card)
    assert len(found) == 1 and "(field cards[0].card.id)" in found[0] and message in found[0], found


def test_rows_need_the_same_fields(tmp_path):
    assert bad(tmp_path, "{a: [{name: x, v: 1}, {name: y, w: 2}]}", '{id: "{a.name}", group: numbers, back: main}') == [
        "content/mini/cards.yaml:2:37 (field cards[0].generate.a[1]): row 2 of 'a' has the fields name, w; "
        "every row needs the fields of the first: name, v"
    ]


def test_rows_and_plain_values_do_not_mix(tmp_path):
    assert bad(tmp_path, "{a: [x, {name: y}]}") == [
        "content/mini/cards.yaml:2:20 (field cards[0].generate.a[0]): 'a' mixes rows (mappings) and "
        "plain values; use one or the other"
    ]


def test_unknown_keys_list_the_keys_of_the_right_model(tmp_path):
    found = errors(tmp_path, """
        cards:
          - generate: {a: {from: 1, to: 2, stop: 3}}
            card: {id: "{a}", group: numbers, back: main, colour: red}
            repeat: 2
    """)
    assert found == [
        "content/mini/cards.yaml:2:36 (field cards[0].generate.a.stop): unknown key 'stop'; expected one of: from, step, to",
        "content/mini/cards.yaml:3:51 (field cards[0].card.colour): unknown key 'colour'; expected one of: "
        "art, attrs, back, copies, group, id, kind, text",
        "content/mini/cards.yaml:4:5 (field cards[0].repeat): unknown key 'repeat'; expected one of: card, generate",
    ]


def test_a_card_written_out_still_gets_its_own_errors_and_hints(tmp_path):
    found = errors(tmp_path, """
        cards:
          - {id: one, group: numbers, back: main, copies: three, colour: red}
    """)
    assert found == [
        "content/mini/cards.yaml:2:51 (field cards[0].copies): expected an integer, found text 'three'",
        "content/mini/cards.yaml:2:58 (field cards[0].colour): unknown key 'colour'; expected one of: "
        "art, attrs, back, copies, group, id, kind, text",
    ]


# -- JSON Schema ---------------------------------------------------------------------


def test_the_schema_offers_a_card_or_a_generator_for_each_entry():
    schema = json.loads(schema_texts()["cards.schema.json"])
    defs = schema["$defs"]
    entry = schema["properties"]["cards"]["items"]
    assert {option["$ref"] for option in entry["oneOf"]} == {"#/$defs/Card", "#/$defs/CardGenerator"}
    generator = defs["CardGenerator"]
    assert generator["additionalProperties"] is False and set(generator["required"]) == {"generate", "card"}
    assert set(defs["CardTemplate"]["properties"]) == set(defs["Card"]["properties"])
    value_range = defs["ValueRange"]["properties"]
    assert set(value_range) == {"from", "to", "step"}
    assert value_range["from"]["minimum"] == -1_000_000 and value_range["to"]["maximum"] == 1_000_000
