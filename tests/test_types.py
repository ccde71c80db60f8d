"""The effect language's types are values: each prints as the rule files spell it and reads back as itself.

Every type a shipped game or the operations table spells is read and printed back; random types of the
whole algebra too.  Equal types are one object, also after pickling (the compiled-game cache keeps types
that way) and in a game read back from that cache.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from language_helpers import assert_located

from engine import load_game
from engine.lang.ops import OPS
from engine.lang.types import (
    ANY,
    BASIC,
    CARD,
    INT,
    NONE,
    PLAYER,
    TEXT,
    TYPEVAR,
    Type,
    compatible,
    describe,
    list_of,
    map_of,
    merge,
    parse_type,
    record_of,
    type_named,
)

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(ROOT.glob("rules/*/game.yaml")) + sorted(ROOT.glob("rules/*/variants/*.yaml"))
ENUMS = {"toys": ["ball", "yarn"], "suits": ["hearts", "spades"]}


def declared_types(data: dict) -> list[str]:
    """Every type a game's rules spell: variables', attributes', parameters' and results' types."""
    spelled = [v["type"] for section in ("variables", "player_variables") for v in (data.get(section) or {}).values()]
    spelled += [t for comp in data.get("components") or [] for t in (comp.get("attributes") or {}).values()]
    for section in ("procedures", "functions"):
        for item in data.get(section) or []:
            spelled += list((item.get("params") or {}).values()) + ([item["returns"]] if "returns" in item else [])
    return spelled


def test_the_shipped_games_spell_types_of_every_kind():
    spelled = [t for path in SHIPPED for t in declared_types(load_game(path).rules.data)]
    assert any("list[" in t for t in spelled) and any("{" in t for t in spelled) and len(set(spelled)) > 5


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_type_a_shipped_game_declares_prints_as_written_and_reads_back_as_itself(path):
    game = load_game(path)
    for text in declared_types(game.rules.data):
        t = parse_type(text, game.enums)
        assert str(t) == "".join(text.split())
        assert parse_type(str(t), game.enums) is t


def test_the_game_keeps_the_very_types_its_rules_declare(caty):
    for name, spec in caty.rules.data["player_variables"].items():
        assert caty.vocabulary.player_variables[name] is parse_type(spec["type"], caty.enums)


def test_every_type_of_the_operations_table_prints_and_reads_back_as_itself():
    types = [t for op in OPS.values() for _, t in op.params] + [op.returns for op in OPS.values() if op.returns]
    placeholders = {"attribute", "face", "list[face]"}  # read as the game's own: a card attribute, a die's face
    readable = [t for t in types if not t.has_typevar and str(t) not in placeholders]
    assert len(readable) > 50
    for t in readable:
        assert parse_type(str(t), {}) is t
    assert str(list_of(TYPEVAR)) == "list[T]"


def _types() -> st.SearchStrategy[Type]:
    basic = st.sampled_from(sorted(BASIC, key=str) + [type_named(name) for name in ENUMS])
    names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)

    def around(inner: st.SearchStrategy[Type]) -> st.SearchStrategy[Type]:
        return st.one_of(
            inner.map(list_of),
            inner.filter(lambda t: not t.holds_cards).map(map_of),
            st.lists(st.tuples(names, inner), min_size=1, max_size=4, unique_by=lambda f: f[0]).map(record_of),
        )

    return st.recursive(basic, around, max_leaves=12)


@given(_types())
def test_any_type_reads_back_from_its_text_as_the_same_object(t):
    assert parse_type(str(t), ENUMS) is t
    assert parse_type(" ".join(str(t)), ENUMS) is t  # blanks anywhere are allowed


@given(_types())
def test_a_type_pickles_and_copies_as_the_same_object(t):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(t, protocol)) is t
    assert copy.deepcopy(t) is t and copy.copy(t) is t


def test_equal_types_are_one_object():
    assert list_of(record_of([("piece", CARD), ("n", INT)])) is list_of(record_of([("piece", CARD), ("n", INT)]))
    assert record_of([("a", INT), ("b", TEXT)]) is not record_of([("b", TEXT), ("a", INT)])  # printed in order
    assert type_named("player") is PLAYER and type_named("toys") is parse_type("toys", ENUMS)


def test_a_record_of_values_of_several_shapes_knows_which_fields_some_lack():
    both = merge(record_of([("do", TEXT), ("card", CARD)]), record_of([("do", TEXT), ("seat", PLAYER)]))
    assert str(both) == "{do:text,card?:card,seat?:player}"
    assert not both.may_lack("do") and both.may_lack("card") and both.field_type("seat") is PLAYER
    assert describe(both) == "a record {do: text, card: a card, seat: a player}"


def test_a_field_named_like_a_kind_holds_no_card():
    assert not record_of([("card", INT)]).holds_cards and parse_type("map[{card:int}]", {}) is not None


def test_types_are_described_as_a_designer_reads_them():
    assert describe(parse_type("list[map[toys]]", ENUMS)) == "a list of a map from text to one of the toys"
    assert describe(None) == "nothing" and describe(ANY) == "anything" and describe(NONE) == "none"


def test_none_goes_where_a_value_may_be_missing_and_text_into_an_enum():
    toys = type_named("toys")
    assert compatible(CARD, NONE) and compatible(toys, NONE) and not compatible(INT, NONE)
    assert compatible(toys, TEXT) and compatible(TEXT, toys) and not compatible(INT, toys)


@pytest.mark.parametrize(
    "text, said",
    [
        ("lst[card]", "lst[card]"),
        ("list[crad]", "crad"),
        ("list[card]x", "list[card]x"),
        ("map[card]", "a map cannot hold cards (keep them in a zone or a list)"),
        ("{}", "a record needs at least one field"),
        ("{a: int, a: int}", "'a' is no field name"),
        ("{a int}", "'aint' is no field name"),
    ],
)
def test_a_type_not_understood_names_the_part_that_is_not(text, said):
    with pytest.raises(ValueError) as info:
        parse_type(text, ENUMS)
    assert str(info.value) == said


def test_a_misspelt_declared_type_is_located_with_a_hint(tmp_path):
    text = """\
    id: mini
    name: Mini
    players: {min: 2, max: 2}
    variables:
      hand: {type: "list[crad]"}
    play: |
      end_game
    """
    assert_located(tmp_path, text, "hand:", "unknown type 'list[crad]'")


def test_a_game_read_back_from_the_compiled_cache_holds_the_same_type_objects():
    built = load_game("cat-town")
    kept = load_game("cat-town")
    assert kept is not built
    for name, t in built.vocabulary.variables.items():
        assert kept.vocabulary.variables[name] is t
    for name, proc in built.procedures.items():
        assert all(kept.procedures[name].local_types[k] is t for k, t in proc.local_types.items())
        assert all(kept.procedures[name].choice_types[pc] is t for pc, t in proc.choice_types.items())


CHOSEN_LIST = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 2}
variables:
  n: {type: int}
play: |
  xs = [] if n > 0 else [1, 2]
  log "{[x.rank for x in xs]}"
"""


@pytest.mark.parametrize("written", ["[] if n > 0 else [1, 2]", "[1, 2] if n > 0 else []"])
def test_a_list_chosen_by_a_condition_holds_the_items_of_its_branch_that_has_some(tmp_path, written):
    """An empty list in one branch says nothing of the items: the other branch's numbers are what the list
    holds, so reading a field of one is found at load, not in play."""
    text = CHOSEN_LIST.replace("[] if n > 0 else [1, 2]", written)
    assert_located(tmp_path, text, "x.rank", "a number has no attribute 'rank'")
