"""Small inputs cost little: every size a file or a rule controls is bounded.

Each class of problem has its test: board tables filled as play asks (not all pairs at load),
a cap on the number of cards, a size budget for lists and text built while running, messages
that quote a long value by its start, and ids without control characters.  Work is bounded by
counting what was computed, never by timing it.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from test_vm_differential import same_fault_on_every_backend

from engine import IllegalAction, RulesError, RuntimeRuleError, StateError, load_game
from engine.boards.graphs import compile_grid, compile_plane, space_name
from engine.cli import main
from engine.load.schemas import check_document
from engine.load.yaml_source import parse_yaml

# ------------------------------------------------------------------ helpers
HEADER = """\
id: mini
name: Mini
players: {min: 2, max: 4}
"""


def write_game(tmp_path, body: str):
    """rules/mini/game.yaml in tmp_path: HEADER and ``body``; returns its path."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    path = folder / "game.yaml"
    path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return path


def load_fails(path) -> list:
    with pytest.raises(RulesError) as info:
        load_game(path)
    return info.value.diagnostics


def board(text: str):
    """A schema-valid board file compiled as the loader does."""
    doc = parse_yaml(text, "test-board.yaml")
    assert check_document(doc, "board") == []
    compiled, problems = {"grid": compile_grid, "plane": compile_plane}[doc.data["kind"]](doc)
    assert problems == []
    return compiled


def grid(width: int, height: int) -> str:
    """One room filling the floor, one space of it marked."""
    return (
        f"id: big\nkind: grid\ncells: {{width: {width}, height: {height}}}\n"
        f"rooms:\n  - {{id: hall, area: [0, 0, {width - 1}, {height - 1}]}}\n"
        f"marks:\n  - {{cell: [1, 0], tags: [blocked]}}\n"
    )


# ------------------------------------------------------------------- boards
def test_a_grid_board_past_the_eager_work_fills_one_distance_row_per_starting_space_asked():
    """All pairs of a 200×200 room are 1.6 billion distances: each row waits for its first question."""
    assert len(board(grid(3, 2)).distances) == 6  # a small board is filled at load
    past = board(grid(30, 30))  # 900² distances: past EAGER_WORK
    assert past.distances == {} and past._avoiding == {}
    big = board(grid(200, 200))  # the largest floor the schema allows
    assert big.distances == {} and big._avoiding == {}
    corner = space_name(199, 199)
    assert big.distance("a1", corner) == 398
    assert big.distance("a1", "a2") == 1  # the same row, read again
    assert list(big.distances) == ["a1"] and len(big.distances["a1"]) == 200 * 200
    assert big.distance_avoiding("a1", "c1", "blocked") == 4  # round the marked b1
    assert big.distance_avoiding("a1", "b1", "blocked") == 1  # a marked end is allowed
    assert list(big._avoiding) == ["blocked"] and list(big._avoiding["blocked"]) == ["a1"]


def test_a_plane_board_past_the_eager_work_computes_each_segment_when_first_asked():
    """Thousands of points are millions of segments: none is computed before play asks for it."""
    points = "".join(f"  - {{id: p{i}, at: [{i % 50 * 4}, {i // 50 * 7}]}}\n" for i in range(100))
    labels = "".join(f"  - {{cell: [{i % 50 * 4}, {i // 50 * 7 + 3}], label: l{i % 9}}}\n" for i in range(100))
    plane = board(f"id: big\nkind: plane\ncells: {{width: 200, height: 200}}\nlabels:\n{labels}points:\n{points}")
    assert plane.lengths == {} and plane.touches == {}
    assert plane.distance("p0", "p50") == 7
    assert plane.lengths == {("p0", "p50"): 7, ("p50", "p0"): 7} and plane.touches == {}
    assert plane.touched("p0", "p50") == ("l0",)
    assert list(plane.touches) == [("p0", "p50")]


# -------------------------------------------------------------------- cards
def test_copies_past_the_card_cap_are_refused_at_the_item_that_passes_it(tmp_path):
    """2,000 items of 1,000 copies once made 2 million cards (555 MB); the cap stops at the item that passes it."""
    items = "".join(f"      - {{id: c{i}, copies: 1000}}\n" for i in range(2000))
    path = write_game(
        tmp_path,
        "zones:\n  - {id: deck, visibility: hidden}\ncomponents:\n  - kind: card\n"
        "    start: deck\n    items:\n" + items + "play: |\n  pass\n",
    )
    problems = load_fails(path)
    assert [d.code for d in problems] == ["E306"], [d.format() for d in problems]
    text = path.read_text(encoding="utf-8").splitlines()
    assert text[problems[0].line - 1] == "      - {id: c10, copies: 1000}"  # the 11th thousand
    assert "11,000 cards" in problems[0].message and "10,000" in problems[0].message


# ------------------------------------------------------ values built at run time
GROWING = """\
variables:
  items: {{type: "list[int]", initial: [1]}}
  words: {{type: text, initial: "ab"}}
  number: {{type: int, initial: 2}}
  loose: {{type: "list[any]", initial: [[1, 2]]}}
play: |
  repeat 60:
      {statement}
"""


@pytest.mark.parametrize(
    "statement, said",
    [
        ("items = items + items", "a list of 131,072 items"),  # the effect that reached 1.6 GB
        ("words = words + words", "a text of 131,072 characters"),
        ("items = flatten([items, items])", "a list of 131,072 items"),
        ("words = text([words, words])", "a text of"),
        ("loose = [first(loose) * 1000000000]", "a list of 2,000,000,000 items"),  # refused before it is made
    ],
)
def test_a_value_grown_past_the_size_budget_is_a_located_rule_error(tmp_path, statement, said):
    """The step budget bounds time, not memory: a value that doubles each step needs a size budget.  The same
    located fault on every backend."""
    game = load_game(write_game(tmp_path, GROWING.format(statement=statement)), reference=True)
    d = same_fault_on_every_backend(game)
    assert (d.code, d.line) == ("E701", HEADER.count("\n") + 8), d.format()
    assert said in d.message and "size budget" in d.message, d.message


def test_a_number_grown_past_64_bits_is_a_located_rule_error(tmp_path):
    """Numbers in the rules are 64-bit on every backend, long before a size budget."""
    game = load_game(write_game(tmp_path, GROWING.format(statement="number = number * number")))
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(players=2)
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E701", HEADER.count("\n") + 8), d.format()
    assert d.message.startswith("a number past ±9,223,372,036,854,775,807"), d.message


# -------------------------------------------------------------------- messages
LONG = "x" * 10_000_000  # a 10 MB value: a message quotes its start, never the whole


def short(message: str) -> bool:
    return "x" * 61 not in message and "…" in message and len(message) < 2_000


def test_an_illegal_action_quotes_a_long_id_by_its_start(tmp_path):
    state = load_game(write_game(tmp_path, 'play: |\n  x = choose "pick" from [1, 2]\n')).new_game(players=2)
    with pytest.raises(IllegalAction) as info:
        state.apply(LONG)
    assert short(str(info.value)) and "pick 1" in str(info.value)


def test_a_saved_state_holding_a_long_value_is_refused_in_a_short_message(tmp_path):
    game = load_game(write_game(tmp_path, GROWING.format(statement="pass")))
    saved = json.loads(game.new_game(players=2).to_json())
    saved["variables"]["number"] = LONG
    with pytest.raises(StateError) as info:
        game.state_from_json(json.dumps(saved))
    assert short(str(info.value)) and "'number'" in str(info.value)


def test_a_rule_failing_on_a_long_value_quotes_it_by_its_start(tmp_path):
    grow_then_ask = (
        "words = words + words\n      number = number + 1\n      if number > 12:\n          x = card_named(words)"
    )
    game = load_game(write_game(tmp_path, GROWING.format(statement=grow_then_ask)))
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(players=2)
    assert short(info.value.diagnostic.message) and "no card has the id" in info.value.diagnostic.message


def test_a_long_command_line_argument_is_quoted_by_its_start(tmp_path, capsys):
    path = write_game(tmp_path, "play: |\n  pass\n")
    with pytest.raises(SystemExit) as info:
        main(["play", str(path), "--bot", "0=" + LONG])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert short(err) and "--bot expects SEAT=KIND" in err


# ------------------------------------------------------------------------- ids
@pytest.mark.parametrize(
    "body, broken, code_point",
    [
        (
            "zones:\n  - {id: deck, visibility: hidden}\ncomponents:\n  - kind: card\n    start: deck\n    items:\n"
            '      - {id: "c1\\n"}\n',
            '"c1\\n"',
            "U+000A",
        ),
        ('enums:\n  colours: [red, "blue\\n"]\n', '"blue\\n"', "U+000A"),
        ('variables:\n  "points\\t": {type: int}\n', '"points\\t"', "U+0009"),
        ('zones:\n  - {id: "pile\\x85", visibility: public}\n', '"pile\\x85"', "U+0085"),
    ],
)
def test_an_id_holding_a_control_character_is_refused_where_it_is_written(tmp_path, body, broken, code_point):
    """Python's '$' matches before a final newline, so "c1\\n" once passed the pattern of ids."""
    path = write_game(tmp_path, body + "play: |\n  pass\n")
    text = path.read_text(encoding="utf-8")
    problems = load_fails(path)
    assert [d.code for d in problems] == ["E201"], [d.format() for d in problems]
    index = text.index(broken)
    assert (problems[0].line, problems[0].col) == (text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index))
    assert f"character {code_point} is not allowed in a name" in problems[0].message, problems[0].message


def test_a_board_point_or_tag_holding_a_control_character_is_refused():
    doc = parse_yaml(
        "id: b\nkind: plane\ncells: {width: 2, height: 2}\n"
        'points:\n  - {id: "corner\\n", at: [0, 0]}\n  - {id: far, at: [2, 2], tags: ["x\\x7f"]}\n',
        "board.yaml",
    )
    problems = check_document(doc, "board")
    assert [(d.code, d.line) for d in problems] == [("E201", 5), ("E201", 6)], [d.format() for d in problems]
    assert "U+000A" in problems[0].message and "U+007F" in problems[1].message
