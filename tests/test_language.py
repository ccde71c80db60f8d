"""General constructs of the effect language and boards, on small games written for the test.

Each construct that a shipped game needed is tested here on its own, independent of
that game: the reaction window, procedures and functions, card effects, what a player
was shown, teams, ring and list operations, grid boards, and the printer.
"""

import textwrap

import pytest

from engine import IllegalAction, RulesError, RuntimeRuleError, load_game
from engine.lang.ast import format_block
from engine.lang.ops import OPS
from engine.lang.parser import parse_program
from engine.runtime.lower import native_game, rule_error_of, vm_module

HEADER = """\
id: mini
name: Mini
players: {min: 2, max: 4}
"""


def make_game(tmp_path, body: str, boards: dict[str, str] | None = None, reference: bool = False):
    """Write rules/mini/game.yaml (and boards/mini/*) and load it (on the reference interpreter alone with
    ``reference``)."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    for name, text in (boards or {}).items():
        board_folder = tmp_path / "boards" / "mini"
        board_folder.mkdir(parents=True, exist_ok=True)
        (board_folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(folder / "game.yaml", reference=reference)


def call(name, *args, st=None):
    return OPS[name].fn(st, *args)


# ------------------------------------------------------------ reaction window
WINDOW = """\
variables:
  answers: {type: "list[text]"}
play: |
  window q from left_of(me):
      x = choose "bid" from ["raise", "stop"] by q optional
      if x == "stop":
          close
      if x == "raise":
          answers = answers + [text(seat_number(q))]
          reopen
"""


def test_window_asks_each_player_in_turn_order_once_when_all_pass(tmp_path):
    state = make_game(tmp_path, WINDOW).new_game(players=3)
    asked = []
    while not state.is_terminal:
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [1, 2, 0]


def test_window_response_reopens_for_everyone(tmp_path):
    """After a response every player is asked again, the responder last."""
    state = make_game(tmp_path, WINDOW).new_game(players=3)
    state.apply("pass")  # seat 1
    state.apply("bid raise")  # seat 2 responds: the window reopens
    asked = []
    while not state.is_terminal:
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [0, 1, 2]
    assert state.vars["answers"] == ["2"]


def test_window_close_ends_it_at_once(tmp_path):
    state = make_game(tmp_path, WINDOW).new_game(players=4)
    state.apply("bid raise")  # seat 1
    state.apply("bid stop")  # seat 2 closes it
    assert state.is_terminal and state.vars["answers"] == ["1"]


def test_reopen_outside_a_window_is_an_error(tmp_path):
    with pytest.raises(RulesError) as info:
        make_game(tmp_path, "play: |\n  reopen\n")
    assert [d.code for d in info.value.diagnostics] == ["E505"]
    assert "inside a 'window'" in info.value.diagnostics[0].message


# ------------------------------------------- effects, procedures, functions
CARDS = """\
enums:
  colours: [red, blue]
components:
  - kind: card
    attributes: {colour: colours, power: int}
    start: deck
    items:
      - {id: spark, colour: red, power: 2, effect: "gain(power_of(this))"}
      - {id: dud, colour: blue, copies: 3}
zones:
  - {id: deck, visibility: hidden}
  - {id: hand, per: player, visibility: owner}
player_variables:
  points: {type: int}
functions:
  - id: power_of
    params: {c: card}
    returns: int
    value: c.power * 10
procedures:
  - id: gain
    params: {n: int}
    does: |
      me.points = me.points + n
play: |
  for c in deck:
      move(c, hand(me))
  c = choose "play" from hand(me)
  perform(c)
scoring:
  - {id: points, points: p.points}
"""


def test_perform_runs_a_card_effect_with_this_and_me(tmp_path):
    game = make_game(tmp_path, CARDS)
    state = game.new_game(players=2)
    assert sorted(state.legal_actions()) == ["play dud", "play spark"]  # copies are one choice
    state.apply("play spark")
    assert state.scores == [20, 0]


def test_a_card_without_effect_does_nothing(tmp_path):
    state = make_game(tmp_path, CARDS).new_game(players=2)
    state.apply("play dud")
    assert state.is_terminal and state.scores == [0, 0]


def test_an_effect_with_a_type_error_points_into_the_card(tmp_path):
    with pytest.raises(RulesError) as info:
        make_game(tmp_path, CARDS.replace("gain(power_of(this))", "gain(this)"))
    d = info.value.diagnostics[0]
    spark = '      - {id: spark, colour: red, power: 2, effect: "gain(power_of(this))"}'
    line = (HEADER + CARDS).splitlines().index(spark) + 1
    assert (d.code, d.line, d.col) == ("E502", line, 58) and "argument 'n' of gain" in d.message
    assert d.context[1].endswith("^")


TILES = """\
enums:
  Tiles: [square, round]
variables:
  last: {type: Tiles}
functions:
  - id: is_square
    params: {t: Tiles}
    returns: bool
    value: t == "square"
play: |
  if is_square(last):
      end_game
"""


def test_an_enum_whose_name_holds_a_capital_t_is_not_the_type_variable(tmp_path):
    """An enum `Tiles` is a type of its own: a Tiles value passes where Tiles is wanted, and a wrong
    value's message names Tiles whole (T is only the type variable when it stands alone)."""
    make_game(tmp_path / "ok", TILES)
    with pytest.raises(RulesError) as info:
        make_game(tmp_path / "bad", TILES.replace("is_square(last)", "is_square(3)"))
    [d] = info.value.diagnostics
    assert d.code == "E502" and "must be one of the Tiles, not a number" in d.message


def test_a_passed_optional_choice_of_numbers_can_be_compared_with_none(tmp_path):
    """After `b = choose … from [numbers] optional`, `b == none` is a real test (a pass gives none),
    not 'always false'; a number that no choose can leave as none still is."""
    game = make_game(
        tmp_path / "ok",
        """\
        player_variables:
          points: {type: int}
        play: |
          b = choose "take" from [1, 2] optional
          if b == none:
              me.points = 7
          else:
              me.points = b
          end_game
        scoring:
          - {id: points, points: p.points}
        """,
    )
    passed, taken = game.new_game(players=2), game.new_game(players=2)
    passed.apply("pass")
    taken.apply("take 2")
    assert passed.scores == [7, 0] and taken.scores == [2, 0]
    with pytest.raises(RulesError) as info:
        make_game(tmp_path / "bad", "play: |\n  b = 3\n  if b == none:\n      end_game\n")
    assert [d.code for d in info.value.diagnostics] == ["E506"]


# ------------------------------------------------------- knowledge and teams
def test_show_is_remembered_in_that_seat_view_only(tmp_path):
    game = make_game(tmp_path, CARDS.replace("  c = choose", "  show(cards(hand(me)), left_of(me))\n  c = choose"))
    state = game.new_game(players=3)
    seen = state.view(1)["seen"]
    assert len(seen) == 1 and sorted(card for _, card in seen[0]["cards"]) == ["dud", "dud", "dud", "spark"]
    assert state.view(0)["seen"] == [] and state.view(2)["seen"] == []


def test_teams_share_scores_and_are_not_opponents(tmp_path):
    game = make_game(tmp_path, CARDS + 'teams:\n  "4": [[0, 2], [1, 3]]\n')
    state = game.new_game(players=4)
    assert call("opponents", 0, st=state) == [1, 3]
    assert call("teammates", 0, st=state) == [2]
    state.apply("play spark")
    assert state.winners == [0, 2]


# ---------------------------------------------------------------- operations
def test_ring_operations_close_up_when_an_item_leaves():
    ring = ["b1", "b2", "b3", "b4", "b5", "b6"]
    assert call("cyclic_next", ring, "b6") == "b1" and call("cyclic_prev", ring, "b1") == "b6"
    assert call("around", ring, "b4", 2, 2) == ["b2", "b3", "b4", "b5"]
    smaller = [b for b in ring if b != "b3"]
    assert call("around", smaller, "b4", 2, 2) == ["b1", "b2", "b4", "b5"]
    assert call("around", ["b1", "b2", "b3"], "b1", 2, 2) == ["b2", "b3", "b1"]  # each at most once


def test_list_operations():
    assert call("flatten", [[1], [], [2, 3]]) == [1, 2, 3]
    assert call("distinct", ["a", "b", "a"]) == ["a", "b"]
    assert call("item", [5, 6], 1) == 6 and call("item", [5, 6], 2) is None
    assert call("word", "walk cw draw", 1) == "cw" and call("word", "walk", 3) == ""
    assert call("max", []) == 0 and call("index_of", ["x"], "y") == -1


GRID = """\
id: tiny
kind: grid
cells: {width: 3, height: 2}
rooms:
  - {id: west, area: [0, 0, 0, 1]}
  - {id: east, area: [1, 0, 2, 1], tags: [shared]}
doors:
  - [[0, 1], [1, 1]]
marks:
  - {cell: [2, 0], tags: [start]}
"""


def test_grid_board_walls_doors_rooms_and_distances(tmp_path):
    game = make_game(tmp_path, "boards:\n  - {id: house, files: [tiny.yaml]}\nplay: |\n  pass\n", {"tiny.yaml": GRID})
    board = game.board("house")
    assert board.toward("a1", "east") == ""  # a wall between the rooms
    assert board.toward("a2", "east") == "b2"  # the door
    assert board.room_of("c1") == "east" and "shared" in board.tags["b1"]
    assert board.distance("a1", "c1") == 4  # round by the door
    assert board.distance_avoiding("a1", "b1", "start") == 3
    assert board.distance_avoiding("b2", "c1", "start") == 2  # the tagged end itself is allowed
    assert board.path_length("a1", ["c2"], through=["a2", "b2"]) == 3
    assert board.path_length("a1", ["c2"], through=["a2"]) == -1


def test_a_grid_wider_than_26_columns_is_drawn_with_spreadsheet_column_names(tmp_path):
    """Columns past z are aa, ab…, as the spaces are named: a piece on ad1 (the 30th column) is drawn there;
    an empty space shows the icon its board's drawing hints give its tag."""
    from rich.console import Console

    from engine.boards.hints import Hints
    from engine.ui.terminal import render_grid_board

    wide = (
        "id: wide\nkind: grid\ncells: {width: 30, height: 1}\nrooms:\n  - {id: hall, area: [0, 0, 29, 0]}\n"
        "marks:\n  - {cell: [9, 0], tags: [well]}\ndraw: {marks: {well: {icon: W}}}\n"
    )
    game = make_game(tmp_path, "boards:\n  - {id: hall, files: [wide.yaml]}\nplay: |\n  pass\n", {"wide.yaml": wide})
    board = game.board("hall")
    console = Console(width=200, record=True)
    console.print(render_grid_board(board, {"ad1": ["cat"], "a1": ["dog"]}, "hall", Hints.merged(board.draw)))
    header, _, row = console.export_text().splitlines()[1:4]
    assert header.split()[-6:-1] == ["z", "aa", "ab", "ac", "ad"]
    assert row.index("cat") - row.index("dog") == 29 * 4
    assert row.index("W") - row.index("dog") == 9 * 4 + 1  # centred in its three columns


def test_path_length_from_a_target_is_zero(tmp_path):
    """A start that is already one of the targets is 0 steps away, not 'impossible' (-1)."""
    game = make_game(tmp_path, "boards:\n  - {id: house, files: [tiny.yaml]}\nplay: |\n  pass\n", {"tiny.yaml": GRID})
    assert game.board("house").path_length("a1", ["a1", "c2"], through=[]) == 0


def test_zones_per_board_space(tmp_path):
    game = make_game(
        tmp_path,
        """\
        boards:
          - {id: house, files: [tiny.yaml]}
        zones:
          - {id: space, per: house, visibility: public}
        play: |
          pass
        """,
        {"tiny.yaml": GRID},
    )
    assert sorted(z for z in game.zone_ids(2) if z.startswith("space:")) == [
        "space:a1",
        "space:a2",
        "space:b1",
        "space:b2",
        "space:c1",
        "space:c2",
    ]


# ------------------------------------------------------------------- printer
def test_every_shipped_program_prints_back_to_itself():
    """Canonical text is a fixed point: parse(print(ast)) prints the same."""
    for name, variant in [("caty-mini", None), ("cat-town", "advanced"), ("cats-mansion", None)]:
        game = load_game(name, variant)
        for program in game.programs.values():
            text = format_block(program)
            assert format_block(parse_program(text)) == text


def test_illegal_action_names_the_legal_ones(tmp_path):
    state = make_game(tmp_path, WINDOW).new_game(players=2)
    with pytest.raises(IllegalAction, match="'bid raise'"):
        state.apply("bid lots")


# ------------------------------------------------------------- run-time faults
FAULT = """\
player_variables:
  points: {{type: int}}
play: |
  {statement}
scoring:
  - {{id: points, points: p.points}}
"""


@pytest.mark.parametrize(
    "statement, code, said",
    [
        ("me.points = first([]) + 1", "E702", "'+' cannot combine none and a number"),
        ('x = "seen " + first([])', "E702", "'+' cannot combine text and none"),
        ("if first([]) < 2:\n      pass", "E702", "'<' cannot compare none and a number"),
        ("me.points = -first([])", "E702", "'-' cannot be used on none"),
        ("me.points = 1 // (me.points - me.points)", "E701", "division by zero"),
        # the 'where' of a choice over nothing once failed with a Python KeyError
        ('x = choose "pick" from [] where it > 1', "E701", 'nothing to choose from for "pick"'),
    ],
)
def test_a_rule_failing_at_run_time_is_told_in_the_language_words(tmp_path, statement, code, said):
    game = make_game(tmp_path, FAULT.format(statement=statement))
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(players=2)
    d = info.value.diagnostic
    assert (d.code, d.line) == (code, HEADER.count("\n") + 4) and said in d.message
    assert not any(word in d.message for word in ("NoneType", "'int'", "'str'", "Error"))


@pytest.mark.parametrize("backend", ["vm", "reference"])
@pytest.mark.parametrize(
    "statement, code, said",
    [
        # around(ring, value, before, after) takes range(-before, min(after, n - before)), as the reference does
        ("me.points = size(around(players(), first(players()), first([]), 1))", "E702", "'-' cannot be used on none"),
        (
            "me.points = size(around(players(), first(players()), 1, first([])))",
            "E702",
            "'<' cannot compare a number and none",
        ),
        # every argument is worked out before the value is looked for in the ring
        ("me.points = size(around(players(), last([]), 1 // (me.points - me.points), 1))", "E701", "division by zero"),
    ],
)
def test_an_operation_given_none_fails_alike_on_both_backends(tmp_path, backend, statement, code, said):
    """Told by the VM itself (a `State` has the reference tell a fault the VM met, but the VM's own loops, such as
    the lab's playouts, report it in the VM's words)."""
    game = make_game(tmp_path, FAULT.format(statement=statement), reference=backend == "reference")
    if backend == "reference":
        with pytest.raises(RuntimeRuleError) as info:
            game.new_game(players=2)
        d = info.value.diagnostic
    else:
        vm, why = native_game(game)
        assert vm is not None, why
        with pytest.raises(vm_module().VmRuleError) as info:
            vm.new_game(2, 0)
        d = rule_error_of(info.value).diagnostic
    assert d.code == code and said in d.message, d.message


@pytest.mark.parametrize("backend", ["vm", "reference"])
def test_around_counts_near_the_bound_of_numbers_take_the_references_range(tmp_path, backend):
    """range(-before, min(after, n - before)) as Python counts it, with no bound: here one step, from 2^63 - 2."""
    big = "922337203685477580 * 10"  # numbers in the rules have at most 18 digits
    statement = f"me.points = size(around(players(), first(players()), -({big} + 6), {big} + 7))"
    game = make_game(tmp_path, FAULT.format(statement=statement), reference=backend == "reference")
    if backend == "reference":
        scores = game.new_game(players=2).scores
    else:
        vm, why = native_game(game)
        assert vm is not None, why
        scores = vm.new_game(2, 0).scores()
    assert scores == [1, 0]


@pytest.mark.parametrize("reference", [False, True])
def test_a_local_read_before_it_is_set_is_told_at_its_line(tmp_path, reference):
    """A local read before any branch set it is the rules' E701 at the reading line, on both backends."""
    statement = "if me.points > 5:\n      y = 1\n  me.points = count([x for x in players() if seat_number(x) == y]) + 1"
    game = make_game(tmp_path, FAULT.format(statement=statement), reference=reference)
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(players=2)
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E701", HEADER.count("\n") + 6)
    assert "'y' has no value yet" in d.message
