"""Generated rule programs play alike on the reference interpreter and on the VM.

tools/program_gen.py writes well-typed games over a small base (procedures, functions, choices of every
kind, loops, windows, zones, variables, scoring); tools/vm_program_fuzz.py plays each on both backends and
compares, at every decision, the legal actions, the state and its log, the scores, every seat's view and
determinized copies, and at the end the outcome; a rule fault must be the same located diagnostic.  Here a
bounded run; the soak: ``python tools/vm_program_fuzz.py --games 5000 --seed 1``.  The programs where the
backends parted are kept below, each reduced to a few lines.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from tool_helpers import load_tool

from engine import RuntimeRuleError, load_game
from engine.runtime.lower import diagnostic_of, ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
load_tool("program_gen")  # before the soak tool, which imports it by name
fuzz = load_tool("vm_program_fuzz")

GAMES = 100  # generated games per seed: some 5 s of CPU each


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_games_play_alike_on_both_backends(tmp_path, seed):
    result = fuzz.run(seed, GAMES, tmp_path)
    counts = result["counts"]
    assert not result["partings"], "\n".join(f"game {p['index']}: {p['where']}" for p in result["partings"])
    # most generated games load and lower, and many play a while: the comparison is not over an empty set
    assert counts["ok"] >= GAMES * 9 // 10, counts
    assert counts["non-trivial"] * 5 >= counts["played"] * 2, counts
    assert counts["decisions"] >= 15 * GAMES and counts["ended"] >= GAMES // 2, counts
    texts = [fuzz.game_text(seed, i) for i in range(GAMES)]  # some with a board (some a board per seat), some teams
    assert sum("\nboards:" in t for t in texts) >= GAMES // 6 and sum("\nteams:" in t for t in texts) >= GAMES // 8
    assert sum("per: player, files: [" in t for t in texts) >= GAMES // 25
    assert sum("files: [hive.yaml]" in t for t in texts) >= GAMES // 25  # a board of hexagons


def game_of(tmp_path, text: str):
    folder = tmp_path / "rules" / "g"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(folder / "game.yaml", reference=True)


def first_decision_on_both(game) -> tuple:
    """A game of the reference and one of the VM, the same seed, each after its first option is taken."""
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    ref.apply(ref.legal_actions()[0])
    vm.apply(vm.legal_actions()[0])
    return ref, vm


def faults_on_both(game) -> tuple:
    """The diagnostics of the reference and of the VM when the first decision is taken."""
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    with pytest.raises(RuntimeRuleError) as on_ref:
        ref.apply(ref.legal_actions()[0])
    with pytest.raises(_vm.VmRuleError) as on_vm:
        vm.apply(vm.legal_actions()[0])
    return on_ref.value.diagnostic, diagnostic_of(on_vm.value)


SELF_CALLING = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    variables:
      n: {type: int}
    functions:
      - id: f
        params: {k: int}
        returns: int
        value: f(k + 1)
    play: |
      n = choose "pick" from [1, 2]
      n = f(1)
    """


def test_a_function_calling_itself_without_end_is_the_references_fault_not_a_crash(tmp_path):
    ref, vm = faults_on_both(game_of(tmp_path, SELF_CALLING))
    assert vm == ref
    assert ref.message == "rule failed in 'play': calls nested too deeply: does a function call itself without end?"


SCORE_IN_SCORING = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    variables:
      n: {type: int}
    play: |
      n = choose "pick" from [1, 2]
    scoring:
      - id: s0
        points: score(left_of(p))
    """


def test_scoring_that_reads_the_score_fails_at_its_line_on_the_vm_too_not_a_crash(tmp_path):
    """The seat named is the one whose points were being worked out when the calls ran too deep: where the
    reference meets Python's recursion limit, which the VM cannot know, so only the seat may differ."""
    game = game_of(tmp_path, SCORE_IN_SCORING)
    with pytest.raises(RuntimeRuleError) as ref:
        game.new_game(2, 0).score_of(0)
    with pytest.raises(_vm.VmRuleError) as vm:
        _vm.VmGame(ir_bytes(game)).new_game(2, 0).scores()
    on_ref, on_vm = ref.value.diagnostic, diagnostic_of(vm.value)
    assert (on_vm.path, on_vm.line, on_vm.col, on_vm.code) == (on_ref.path, on_ref.line, on_ref.col, "E701")
    tail = "calls nested too deeply: does a function call itself without end?"
    assert on_ref.message.endswith(tail) and on_vm.message.endswith(tail)


FAILING_SCORE = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    variables:
      n: {type: int}
    play: |
      n = choose "pick" from [1, 2]
      n = score(first(players())) + 1
    scoring:
      - id: s0
        points: 3 // (n - n)
    """


def test_a_rule_reading_a_score_that_fails_gets_the_scorings_own_diagnostic_on_the_vm_too(tmp_path):
    ref, vm = faults_on_both(game_of(tmp_path, FAILING_SCORE))
    assert vm == ref
    assert (ref.line, ref.code, ref.message) == (11, "E701", "'s0' failed for seat 0: division by zero")


NONE_IN_ARITHMETIC = {
    "none joined to text": 'word = word + "x"',
    "none added to a number": "n = seat_number(who) + 1",
    "a number times none": "n = 2 * seat_number(who)",
    "none negated": "n = -seat_number(who)",
    "a number divided by none": "n = 7 // seat_number(who)",
    "none compared": "flag = seat_number(who) < 2",
    "none among the numbers of max": "n = max([1, seat_number(who)])",
    "none among the numbers of sum": "n = sum([1, seat_number(who)])",
    "the seats from nobody": "ps = players_from(who)",
    "the left of nobody": "who = left_of(who)",
    "the right of nobody": "who = right_of(who)",
    "the opponents of nobody": "ps = opponents(who)",
    "a range up to none": "xs = range(seat_number(who))",
    "a range from none": "xs = range(seat_number(who), 3)",
    "a window from nobody": "window q from who:\n          n += 1",
}


@pytest.mark.parametrize("line", NONE_IN_ARITHMETIC.values(), ids=list(NONE_IN_ARITHMETIC))
def test_none_where_a_number_or_text_is_needed_is_the_references_fault_word_for_word(tmp_path, line):
    """The seat of nobody (a player variable never set) in a sum: the VM says what the reference says."""
    game = game_of(tmp_path, NONE_GAME.replace("LINE", line))
    ref, vm = faults_on_both(game)
    assert vm == ref
    assert ref.code == "E702" and "none" in ref.message


NONE_GAME = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    variables:
      n: {type: int}
      flag: {type: bool}
      word: {type: text}
      who: {type: player}
      ps: {type: "list[player]"}
      xs: {type: "list[int]"}
      c: {type: card}
    zones:
      - {id: deck, visibility: hidden}
    play: |
      n = choose "pick" from [1, 2]
      LINE
    """


def test_scoring_that_gives_none_is_a_located_fault_on_both_backends_not_a_traceback(tmp_path):
    game = game_of(
        tmp_path,
        NONE_GAME.replace("LINE", "pass").rstrip(" ") + "    scoring:\n      - {id: seat, points: seat_number(who)}\n",
    )
    with pytest.raises(RuntimeRuleError) as ref:
        game.new_game(2, 0).score_of(0)
    with pytest.raises(_vm.VmRuleError) as vm:
        _vm.VmGame(ir_bytes(game)).new_game(2, 0).scores()
    assert diagnostic_of(vm.value) == ref.value.diagnostic
    assert ref.value.diagnostic.message == "'seat' failed for seat 0: none is no number"


ENUM_GAME = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    enums:
      hues: [red, blue]
    variables:
      n: {type: int}
      word: {type: text}
      hue: {type: hues}
    play: |
      n = choose "pick" from [1, 2]
      word = "TEXT"
      hue = word
    """


@pytest.mark.parametrize("text", ["", "purple", "it's", "x" * 80])
def test_text_that_is_no_member_kept_in_an_enum_variable_is_the_references_fault_word_for_word(tmp_path, text):
    ref, vm = faults_on_both(game_of(tmp_path, ENUM_GAME.replace("TEXT", text)))
    assert vm == ref
    assert ref.message.startswith("variable 'hue' holds one of the hues, not ")


NONE_ELSEWHERE = {
    "the size of none": "n = size(item([xs], 5))",
    "the cards of a zone that is none": "move_all(item([deck], 5), deck)",
    "the key of a zone that is none": "word = key_of(item([deck], 5))",
    "a value not in a ring, quoted": "flag = cyclic_prev([true], false)",
    "nobody not in a ring, quoted": "who = cyclic_next(players(), who)",
    "a list not in a ring, quoted": "xs = cyclic_next([range(0, 100)], range(0, 80))",
    "a record not in a ring, quoted": 'n = cyclic_next([{do: "a", k: 1}], {do: "it\'s", k: 2}).k',
    "a card in a zone that is none": "flag = c in item([deck], 5)",
    "a choice from none": "n = choose from item([[1]], 5)",
    "any of none": "flag = any(item([[true]], 5))",
    "an item of none": "n = item(item([xs], 5), 0)",
    "an item at nobody's place": "n = item(xs, seat_number(who))",
    "the top cards of a zone, as many as nobody's place": "n = size(top_cards(deck, seat_number(who)))",
    "a number in none": "flag = 1 in item([xs], 5)",
    "the next in a ring that is none": "n = cyclic_next(item([xs], 5), 1)",
    "around in a ring that is none": "xs = around(item([xs], 5), 1, 1, 1)",
    "the cards of a zone that is none, one by one": "for k in item([deck], 5):\n          pass",
    "the cards of a zone that is none, in a list": "xs = [1 for k in item([deck], 5)]",
    # an operation works out every argument before it checks any: a later argument's fault is the one told
    "all of a zone that is none, onto one that fails": "move_all(item([deck], 5), item([deck], 1 // (n - n)))",
    "no card, onto a zone that fails": "move(c, item([deck], 1 // (n - n)))",
    "no card, under a zone that fails": "move_bottom(c, item([deck], 1 // (n - n)))",
    "the top cards of a zone that is none, as many as fail": "n = size(top_cards(item([deck], 5), 1 // (n - n)))",
    "around a value not in the ring, a count that fails": "xs = around(xs, 9, 1 // (n - n), 1)",
    "an item of none, at a place that fails": "n = item(item([xs], 5), 1 // (n - n))",
    "no cards shown, to a seat that fails": "show(item([[c]], 5), item(players(), 1 // (n - n)))",
    "a number looked for in none, that fails": "n = index_of(item([xs], 5), 1 // (n - n))",
    "the next in none, after a value that fails": "n = cyclic_next(item([xs], 5), 1 // (n - n))",
}


@pytest.mark.parametrize("line", NONE_ELSEWHERE.values(), ids=list(NONE_ELSEWHERE))
def test_none_given_to_an_operation_is_the_references_fault_word_for_word(tmp_path, line):
    ref, vm = faults_on_both(game_of(tmp_path, NONE_GAME.replace("LINE", line)))
    assert vm == ref


BOARD_NONE = {
    "the way on a board that is none, through spaces that fail": (
        'n = path_length(item([b0], 5), "a1", ["c3"], item([spaces(b0)], 1 // (n - n)))'
    ),
    "a joining on a board that is none, through spaces that fail": (
        'flag = connected(item([b0], 5), ["a1"], ["c3"], item([spaces(b0)], 1 // (n - n)))'
    ),
    "a distance on a board that is none, to a space that fails": (
        'n = grid_distance(item([b0], 5), "a1", item(spaces(b0), 1 // (n - n)))'
    ),
    "a tag on a board that is none, of a space that fails": (
        'flag = has_tag(item([b0], 5), item(spaces(b0), 1 // (n - n)), "x")'
    ),
    "a group on a board that is none, of a space that fails": (
        "n = size(group(item([b0], 5), item(spaces(b0), 1 // (n - n)), spaces(b0)))"
    ),
    "a distance on a board held in a local that is none, to a space that fails": (
        'b = item([b0], 5)\n      n = grid_distance(b, "a1", item(spaces(b0), 1 // (n - n)))'
    ),
}


def board_game(tmp_path, line: str, before_zones: str = "", per: str = ""):
    """NONE_GAME with ``line`` and the generator's board (spaces a1…c3, a wall between columns a and b but for a
    door at row 2), named b0 (``per="player"``: each seat's own, ``b0(p)``)."""
    kind = f"per: {per}, " if per else ""
    text = NONE_GAME.replace("LINE", line).replace(
        "    zones:", f"    boards:\n      - {{id: b0, {kind}files: [{fuzz.BOARD_FILE[0]}]}}\n{before_zones}    zones:"
    )
    (tmp_path / "rules" / "g").mkdir(parents=True)
    (tmp_path / "rules" / "g" / fuzz.BOARD_FILE[0]).write_text(fuzz.BOARD_FILE[1], encoding="utf-8")
    return game_of(tmp_path, text)


@pytest.mark.parametrize("line", BOARD_NONE.values(), ids=list(BOARD_NONE))
def test_a_board_operation_works_out_every_argument_before_it_looks_for_its_board(tmp_path, line):
    """As the reference's operations do (Python functions): a later argument's fault is the one told."""
    ref, vm = faults_on_both(board_game(tmp_path, line))
    assert vm == ref
    assert ref.message.startswith("division by zero"), ref.message


BOARD_FAULTS = {
    "a distance on a board that is none": ('n = grid_distance(item([b0], 5), "c2", "a2")', "got no board"),
    "the way on a board that is none": ('n = path_length(item([b0], 5), "a1", ["c3"], [])', "got no board"),
    "a joining on a board that is none": ('flag = connected(item([b0], 5), ["a1"], ["c3"], [])', "got no board"),
    "a joining from sources that are none, to a target the spaces passed through reach": (
        'flag = connected(b0, item([["a1"]], 5), ["c3"], spaces(b0))',
        "none is not a list",
    ),
    "a distance on a board held in a local that is none": (
        'b = item([b0], 5)\n      n = grid_distance(b, "a1", "c3")',
        "got no board",
    ),
    "a line drawn on a board of spaces, not of points": ('n = size(touched(b0, "a1", "c3"))', "is not a plane board"),
    "the way from a text made while playing that is no space": (
        'n = path_length(b0, text(n) + "9", ["c3"], spaces(b0))',
        "has no space '19'",
    ),
    # a text of the rules, the board's tag, whose id lies among the ids of the spaces its table is laid out over
    "the tags of a tag's name, where a space goes": (
        'flag = has_tag(b0, item(["north"], 0), "north")',
        "has no space 'north'",
    ),
}


@pytest.mark.parametrize("line, said", BOARD_FAULTS.values(), ids=list(BOARD_FAULTS))
def test_a_board_operation_the_board_cannot_answer_is_the_references_fault_word_for_word(tmp_path, line, said):
    ref, vm = faults_on_both(board_game(tmp_path, line))
    assert vm == ref
    assert said in ref.message and "Error" not in ref.message, ref.message


def test_a_line_drawn_on_a_seats_own_board_of_spaces_names_that_board_as_the_reference_does(tmp_path):
    """Each seat's board faults alike but for its name, which the VM writes as the reference does."""
    ref, vm = faults_on_both(
        board_game(tmp_path, 'n = size(touched(b0(item(players(), 1)), "a1", "c3"))', per="player")
    )
    assert vm == ref
    assert "board 'b0:1' is not a plane board" in ref.message, ref.message


JOININGS_ANSWERED_NO = {
    "through no space": 'flag = connected(b0, item([["a1"]], 5), ["c3"], [])',
    "through no target": 'flag = connected(b0, item([["a1"]], 5), ["c3"], ["a1", "b1"])',
    # a1's neighbour a2 leads on to c3, through the door at row 2
    "from a source outside the spaces passed through": (
        'flag = connected(b0, ["a1"], ["c3"], [s for s in spaces(b0) if s != "a1"])'
    ),
}


@pytest.mark.parametrize("line", JOININGS_ANSWERED_NO.values(), ids=list(JOININGS_ANSWERED_NO))
def test_a_joining_the_reference_answers_no_is_no_on_the_vm(tmp_path, line):
    """The reference starts only from the sources among the spaces passed through, and reads the sources only
    when some target lies among those spaces: else the answer is no, even from sources that are none (found by
    the program fuzzer, seed 144, game 677)."""
    game = board_game(tmp_path, line)
    ref, vm = first_decision_on_both(game)
    assert json.loads(vm.to_json())["variables"]["flag"] is ref.vars["flag"] is False


@pytest.mark.parametrize("tag", ['text(n) + "x"', '"x"'], ids=["made while playing", "written"])
def test_a_distance_avoiding_a_tag_the_board_lacks_avoids_nothing(tmp_path, tag):
    """Round the wall through the door: a3, a2, b2, b3, c3 (the table's rows are of the board's tags)."""
    game = board_game(tmp_path, f'n = distance_avoiding(b0, "a3", "c3", {tag})')
    ref, vm = first_decision_on_both(game)
    assert json.loads(vm.to_json())["variables"]["n"] == ref.vars["n"] == 4


def test_a_function_of_nothing_whose_python_fails_faults_where_it_is_called(tmp_path):
    """Worked out once while lowering (it reads nothing of a game): its fault is left for the game to meet."""
    function = '    functions:\n      - id: f\n        returns: bool\n        value: "all(first([]))"\n'
    ref, vm = faults_on_both(board_game(tmp_path, "flag = f()", function))
    assert vm == ref


FAMILY_LOG = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    enums:
      colours: [red, blue]
    variables:
      n: {type: int}
      c: {type: colours, initial: red}
    zones:
      - {id: stash, per: colours, visibility: public}
    play: |
      n = choose "pick" from [1, 2]
      log "{stash(text(n))} and {stash(c)}"
    """


def test_a_zone_of_a_family_by_a_key_it_has_not_is_logged_by_its_key_as_one_it_has(tmp_path):
    game = game_of(tmp_path, FAMILY_LOG)
    ref, vm = first_decision_on_both(game)
    assert json.loads(vm.to_json())["log"] == ref.to_data()["log"]
    assert ref.log[-1] == "1 and red"


UNORDERED_KEYS = {
    "none among numbers": "xs = sorted([1, 2, 3], by: (none if it == 2 else it))",
    "none keys only": "xs = sorted(xs + [1], by: (none if it > 0 else it))",
    "numbers and text": 'who = min(players(), by: ("x" if seat_number(it) == 0 else seat_number(it)))',
    "more than four": "xs = sorted(range(0, 9), by: (none if it % 2 == 0 else it))",
}


@pytest.mark.parametrize("line", UNORDERED_KEYS.values(), ids=list(UNORDERED_KEYS))
def test_keys_that_cannot_be_put_in_order_are_the_references_fault_quoting_the_first_four(tmp_path, line):
    ref, vm = faults_on_both(game_of(tmp_path, NONE_GAME.replace("LINE", line)))
    assert vm == ref
    assert "(…, by: …): only numbers or only text can be put in order, not [" in ref.message


OVER_THE_BUDGET = {
    "a list doubled": "xs = [1]\n      repeat 17:\n          xs = xs + xs",
    "a list of lists flattened": "xs = flatten([range(0, 60000), range(0, 60000)])",
    "a text doubled": 'word = "ab"\n      repeat 17:\n          word = word + word',
}


@pytest.mark.parametrize("line", OVER_THE_BUDGET.values(), ids=list(OVER_THE_BUDGET))
def test_a_value_over_the_size_budget_is_the_references_fault_its_size_written_alike(tmp_path, line):
    ref, vm = faults_on_both(game_of(tmp_path, NONE_GAME.replace("LINE", line)))
    assert vm == ref
    assert "over the size budget of 100,000" in ref.message
    assert any(f"{n:,} " in ref.message for n in (120_000, 131_072))


NOTHING_LAID_ON_TOP = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    variables:
      n: {type: int}
    components:
      - kind: card
        start: deck
        items: [{id: a}, {id: b}, {id: c}]
    zones:
      - {id: deck, visibility: hidden}
      - {id: pile, visibility: hidden}
      - {id: heap, visibility: top}
    play: |
      move_all(deck, heap)
      reverse(heap)
      move_all(pile, heap)
      n = choose "pick" from [1, 2]
    """


def test_all_of_an_empty_zone_moved_onto_a_top_zone_tells_nobody_its_top_card(tmp_path):
    """Nothing was laid on the heap, so nobody learns anything of the card that a reverse put on its top."""
    game = game_of(tmp_path, NOTHING_LAID_ON_TOP)
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert json.loads(vm.to_json()) == ref.to_data()
    assert ref.know[ref.zones["heap"][-1]] == 0


def test_a_zone_from_a_list_chosen_by_a_condition_is_measured_alike_by_its_cards(tmp_path):
    """A list chosen by a condition of an empty list and a list of zones holds zones: ``size`` of its item counts
    the zone's cards (none here), not the letters of its name, on both engines."""
    game = game_of(tmp_path, NONE_GAME.replace("LINE", "n = size(last(([] if false else [deck])))"))
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    ref.apply("pick 1")
    vm.apply("pick 1")
    assert json.loads(vm.to_json()) == ref.to_data() and ref.vars["n"] == 0


def test_the_teammates_of_nobody_and_a_range_to_none_play_alike_on_the_vm(tmp_path):
    """No team holds nobody; range(a, none) is range(a), as the reference reads a stop left out; none is empty,
    its first item none, and so is an item before the first."""
    game = game_of(
        tmp_path,
        NONE_GAME.replace(
            "LINE",
            "ps = teammates(who)\n      xs = range(2, seat_number(who))\n      flag = is_empty(item([xs], 5))"
            + "\n      xs = xs + [first(item([xs], 5)), item(item([xs], 5), -1)]",
        ),
    )
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    ref.apply("pick 1")
    vm.apply("pick 1")
    assert json.loads(vm.to_json()) == ref.to_data()
    assert ref.to_data()["variables"]["xs"] == [0, 1, None, None] and ref.to_data()["variables"]["flag"] is True


def test_a_random_item_of_no_list_at_all_is_none_on_both_backends(tmp_path):
    """An item past the end of a list of lists is none, and random_from of none draws nothing and gives none, as
    it does of an empty list."""
    game = game_of(tmp_path, NONE_GAME.replace("LINE", "word = random_from(item([[]], 3))\n      n = size(xs)"))
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    ref.apply("pick 1")
    vm.apply("pick 1")
    assert json.loads(vm.to_json()) == ref.to_data() and ref.vars["word"] is None


def test_a_list_of_empty_texts_is_logged_as_nothing_on_both_backends(tmp_path):
    """A list whose items print as nothing at all ([""]) reads "nothing" in a log, as an empty list does."""
    game = game_of(tmp_path, NONE_GAME.replace("LINE", 'word = ""\n      log "{[word]} {[word, word]} {[]} !"'))
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    ref.apply("pick 1")
    vm.apply("pick 1")
    assert json.loads(vm.to_json()) == ref.to_data() and ref.log[-1] == "nothing ,  nothing !"


def test_records_without_repeats_are_the_same_list_on_both_backends(tmp_path):
    """distinct and around keep the first of equal records (moves of several parts), as they do numbers."""
    lines = (
        'xs = [m.k for m in distinct([{do: "a", k: 2}, {do: "a", k: 2}, {do: "b", k: 1}])]\n'
        '      xs += [m.k for m in around([{do: "a", k: 2}, {do: "b", k: 1}], {do: "b", k: 1}, 3, 3)]'
    )
    game = game_of(tmp_path, NONE_GAME.replace("LINE", lines))
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    ref.apply("pick 1")
    vm.apply("pick 1")
    assert json.loads(vm.to_json()) == ref.to_data()
    assert ref.to_data()["variables"]["xs"] == [2, 1, 2, 1]


@pytest.mark.parametrize("points", ["size(xs) + 4", "seat_number(p) + 1"])
def test_the_score_of_nobody_is_worked_out_as_the_reference_does(tmp_path, points):
    """score(none) runs the scoring for a seat that is none: a number, or the scoring's fault 'for seat None'."""
    rules = (
        NONE_GAME.replace("LINE", "n = score(who)").rstrip(" ") + f"    scoring:\n      - {{id: s, points: {points}}}\n"
    )
    game = game_of(tmp_path, rules)
    if points.startswith("size"):
        ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
        ref.apply("pick 1")
        vm.apply("pick 1")
        assert json.loads(vm.to_json()) == ref.to_data() and ref.to_data()["variables"]["n"] == 4
    else:
        on_ref, on_vm = faults_on_both(game)
        assert on_vm == on_ref and on_ref.message.startswith("'s' failed for seat None: ")


def test_a_game_whose_local_holds_text_that_is_no_member_of_its_enum_is_saved_and_read_back_on_both(tmp_path):
    """Only variables are held to their enum's members: a local may keep any text, and its save must load."""
    play = "\n      ".join(
        ['x = choose "tint" from hues', 'word = "purple"', "x = word", 'n = choose "again" from [1, 2]']
    )
    game = game_of(tmp_path, ENUM_GAME.replace('word = "TEXT"\n      hue = word', play))
    ref = game.new_game(2, 0)
    ref.apply("pick 1")
    ref.apply("tint red")
    saved = ref.to_json()
    assert game.state_from_json(saved).to_data() == ref.to_data()
    assert json.loads(_vm.VmGame(ir_bytes(game)).state_from_json(saved).to_json()) == ref.to_data()


def test_a_game_that_left_none_in_a_number_is_saved_and_read_back_on_both(tmp_path):
    """The first of an empty list is none, whatever the list's type: a variable or a local may keep it."""
    lines = "\n      ".join(
        ["xs = [item(xs, 5)]", "k = [seat_number(who)]", "flag = item([true], 5)", 'n = choose "more" from [1]']
    )
    game = game_of(tmp_path, NONE_GAME.replace("LINE", lines))
    ref = game.new_game(2, 0)
    ref.apply("pick 1")
    saved = ref.to_json()
    assert ref.to_data()["variables"]["xs"] == [None]
    assert game.state_from_json(saved).to_data() == ref.to_data()
    assert json.loads(_vm.VmGame(ir_bytes(game)).state_from_json(saved).to_json()) == ref.to_data()


ZONE_OF_NO_KEY = """\
    id: g
    name: G
    players: {min: 2, max: 2}
    enums:
      hues: [red, blue]
    zones:
      - {id: stash, per: hues, visibility: public}
    variables:
      n: {type: int}
      word: {type: text}
    play: |
      word = "purple"
      z = stash(word)
      n = choose "pick" from [1, 2]
      n = size(z)
    """


def test_a_zone_named_by_a_key_its_family_lacks_fails_only_where_it_is_used_on_both_backends(tmp_path):
    game = game_of(tmp_path, ZONE_OF_NO_KEY)
    ref, vm = faults_on_both(game)
    assert vm == ref and ref.message == "there is no zone 'stash:purple' (in 'play')"


def test_a_game_holding_text_built_while_playing_is_saved_and_read_back_by_the_vm(tmp_path):
    """Text the rules join while playing is no text of the rules: the VM reads a save holding it, its own too."""
    lines = "\n      ".join(['word = "ok" + "left"', "k = [word + word]", 'n = choose "more" from [1]'])
    game = game_of(tmp_path, NONE_GAME.replace("LINE", lines))
    ref, vm_game = game.new_game(2, 0), _vm.VmGame(ir_bytes(game))
    ref.apply("pick 1")
    on_vm = vm_game.state_from_json(ref.to_json())
    assert json.loads(on_vm.to_json()) == ref.to_data() and ref.to_data()["variables"]["word"] == "okleft"
    assert json.loads(vm_game.state_from_json(on_vm.to_json()).to_json()) == ref.to_data()
