"""The native VM plays the very games of the reference interpreter: same actions, logs, outcomes and states.

Every shipped game and variant is played from seeded random choices on both backends
(``State`` on the reference path, ``engine._vm``): at every decision the same legal actions, and at the end
(at every decision in each case's first game) the same state JSON.  A state saved mid-game on one side
continues on the other to the same end.  Rule faults come back as the same located diagnostics, and hostile
IR or state text is refused in one line.  Long soaks: tools/vm_soak.py.
"""

from __future__ import annotations

import json
import random
import textwrap

import pytest
from language_helpers import write_game
from test_vm_bots_in_sight import NUMBERED_DEAL

from engine import RuntimeRuleError, load_game
from engine.errors import BudgetExceeded
from engine.lang import ast
from engine.lang.ops import OPS
from engine.load.documents import known_games, known_variants
from engine.runtime.lower import BOARD_OPS, NATIVE_OPS, Lowerer, diagnostic_of, ir_bytes, lower, raise_as_engine

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

GAMES = 3  # seeded games per game, variant and player count; tools/vm_soak.py plays thousands


def shipped() -> list[tuple[str, str | None]]:
    from engine.load.documents import data_root

    out: list[tuple[str, str | None]] = []
    for name in known_games():
        out += [(name, None)] + [(name, v) for v in known_variants(data_root() / "rules" / name)]
    return out


CASES = shipped()


def both(name: str, variant: str | None):
    game = load_game(name, variant, reference=True)
    return game, _vm.VmGame(ir_bytes(game))


def play(ref, vm, seed: int, every_step: bool, limit: int = 100_000) -> int:
    """Random choices (one stream for both sides) until the end; the number of decisions.  ``every_step``:
    the whole states compared at each of the first 150 decisions too."""
    rnd = random.Random(seed)
    for step in range(limit):
        assert ref.legal_actions() == vm.legal_actions(), f"seed {seed}, decision {step}"
        assert ref.to_act == vm.to_act(), f"seed {seed}, decision {step}"
        if every_step and step < 150:
            assert ref.to_data() == json.loads(vm.to_json()), f"seed {seed}, decision {step}"
        if ref.is_terminal:
            assert vm.is_terminal()
            return step
        seat = rnd.choice(ref.to_act)
        action = rnd.choice(ref.legal_actions(seat))
        ref.apply(action, seat=seat)
        vm.apply(action, seat)
    return limit


@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v or 'base'}" for n, v in CASES])
def test_the_vm_plays_the_reference_games(name, variant):
    game, vm_game = both(name, variant)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(GAMES):
            ref, vm = game.new_game(players, seed), vm_game.new_game(players, seed)
            play(ref, vm, seed, every_step=seed == 0)
            assert ref.to_data() == json.loads(vm.to_json()), f"{players} players, seed {seed}: final states differ"
            outcome = ref.outcome
            assert vm.outcome() == (list(outcome.results), outcome.reason)
            assert vm.scores() == ref.scores


TWELVE_SEATS = (
    "    id: twelve\n    name: Twelve\n"
    + NUMBERED_DEAL.replace("{min: 2, max: 2}", "{min: 12, max: 12}")
    + """\
    player_variables:
      points: {type: int, initial: 0}
      bid: {type: int, initial: 0, visibility: owner}
    play: |
      repeat 2:
          for p in players():
              p.bid = choose "bid" from [0, 1, 2] by p secretly
              c = choose "play" from hand(p) by p
              move(c, played)
              p.points = p.points + c.value * p.bid
      end_game "two rounds"
    scoring:
      - {id: points, points: p.points}
"""
)


def test_a_game_of_twelve_seats_plays_alike_and_every_seats_copy_is_the_references(tmp_path):
    """The most seats a game may have: who knows which card, private variables, points and copies of every seat
    past the first few, as the reference has them."""
    cards = ", ".join(f"{{id: c{v}, value: {v % 7}}}" for v in range(40))
    game = load_game(write_game(tmp_path, TWELVE_SEATS.replace("CARDS", cards)), reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(3):
        ref, vm = game.new_game(12, seed), vm_game.new_game(12, seed)
        rnd = random.Random(seed)
        for step in range(40):
            seat = rnd.choice(ref.to_act)
            copy = json.loads(vm.determinized(seat, step).to_json())
            assert copy == ref.determinized(seat, step).to_data(), f"seed {seed}, decision {step}, seat {seat}"
            assert vm.scores() == vm.scores() == ref.scores, "points worked out, then the points kept"
            action = rnd.choice(ref.legal_actions(seat))
            ref.apply(action, seat=seat)
            vm.apply(action, seat)
        play(ref, vm, seed, every_step=True)
        assert ref.to_data() == json.loads(vm.to_json())
        assert vm.scores() == ref.scores and vm.outcome() == (list(ref.outcome.results), ref.outcome.reason)
        assert max(ref.scores[6:]) > 0, "seats past the sixth scored"


@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v or 'base'}" for n, v in CASES])
def test_a_game_saved_mid_way_continues_alike_on_the_other_backend(name, variant):
    game, vm_game = both(name, variant)
    players, seed = game.max_players, 11
    ref = game.new_game(players, seed)
    play(ref, vm_game.new_game(players, seed), seed, every_step=False, limit=7)
    saved = ref.to_json()
    on_vm, on_ref = vm_game.state_from_json(saved), game.state_from_json(saved)
    assert json.loads(on_vm.to_json()) == on_ref.to_data()
    play(on_ref, on_vm, seed + 1, every_step=False)
    back = game.state_from_json(on_vm.to_json())  # and the VM's own save read back by the reference
    assert back.to_data() == on_ref.to_data()


@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v or 'base'}" for n, v in CASES])
def test_a_determinized_copy_on_the_vm_is_the_references_copy_for_the_same_seed(name, variant):
    """What every seat's copy holds — the cards dealt again, what it may read of others, the decision asked
    again — is the reference's, deal for deal, at decisions across a game (a bot's seeded search is then the
    same on both backends)."""
    game, vm_game = both(name, variant)
    players = game.max_players
    ref, vm = game.new_game(players, 4), vm_game.new_game(players, 4)
    rnd, compared = random.Random(4), 0
    for step in range(60):
        if ref.is_terminal:
            break
        if step % 6 == 0:
            for seat in range(players):
                seed = rnd.getrandbits(31)
                copy = json.loads(vm.determinized(seat, seed).to_json())
                assert copy == ref.determinized(seat, seed).to_data(), f"decision {step}, seat {seat}"
                compared += 1
        seat = rnd.choice(ref.to_act)
        action = rnd.choice(ref.legal_actions(seat))
        ref.apply(action, seat=seat)
        vm.apply(action, seat)
    assert compared >= players


def test_the_top_of_a_pile_whose_top_shows_stays_on_top_in_every_copy_whatever_a_save_says_of_it():
    """A deal leaves the shown top of a pile where it lies, as the reference's does, even where a save's masks
    say no seat knows that card (every move that makes a card the top tells every seat of it)."""
    game, vm_game = both("crazy-eights", None)
    ref = game.new_game(2, 3)
    play(ref, vm_game.new_game(2, 3), 3, every_step=False, limit=6)
    data = ref.to_data()
    top = data["zones"]["discard"][-1]
    data["know"][top] = data["pinned"][top] = 0
    saved = json.dumps(data)
    on_vm, on_ref = vm_game.state_from_json(saved), game.state_from_json(saved)
    moved = 0
    for seed in range(20):
        copy = on_ref.determinized(0, seed).to_data()
        assert json.loads(on_vm.determinized(0, seed).to_json()) == copy, seed
        assert copy["zones"]["discard"][-1] == top
        moved += copy["zones"]["deck"] != data["zones"]["deck"]
    assert moved, "the deals moved the hidden cards"


@pytest.mark.parametrize("name", ["cat-town", "cats-mansion"])
def test_copies_of_one_seat_between_moves_are_dealt_from_the_state_as_it_is_now(name):
    """The VM keeps the places a seat's deals fill while its state is unchanged (a search copies one state
    many times); after a move, the same seat's copies are dealt from the moved state, as the reference's."""
    game, vm_game = both(name, None)
    ref, vm = game.new_game(3, 5), vm_game.new_game(3, 5)
    rnd = random.Random(5)
    for step in range(40):
        if ref.is_terminal:
            break
        for seed in (step, step + 1000):
            assert json.loads(vm.determinized(0, seed).to_json()) == ref.determinized(0, seed).to_data(), step
        action = rnd.choice(ref.legal_actions())
        ref.apply(action)
        vm.apply(action, None)
    assert step == 39


@pytest.mark.parametrize("seed", [-1, 2**31, 2**63 - 1, -(2**63), 2**63, 2**64 + 5, -(2**100), 2**127 - 1])
def test_seeds_of_any_width_start_and_deal_as_on_the_reference(seed):
    """A seed is read whole whatever its width (64 bits read directly, wider ones another way): one of 64
    bits starts the reference's game and deals its copy; a wider one the VM refuses, and a ``State`` on the
    VM deals that copy on the reference."""
    game, vm_game = both("cat-town", None)
    on_vm = load_game("cat-town").new_game(2, 3)
    ref, vm = game.new_game(2, 3), vm_game.new_game(2, 3)
    for _ in range(3):
        action = ref.legal_actions()[0]
        for state in (ref, on_vm):
            state.apply(action)
        vm.apply(action, None)
    copy = ref.determinized(1, seed).to_data()
    assert on_vm.vm is not None and on_vm.determinized(1, seed).to_data() == copy
    if -(2**63) <= seed < 2**64:
        assert json.loads(vm_game.new_game(2, seed).to_json()) == game.new_game(2, seed).to_data()
        assert json.loads(vm.determinized(1, seed).to_json()) == copy
    else:
        for refused in (lambda: vm_game.new_game(2, seed), lambda: vm.determinized(1, seed)):
            with pytest.raises(_vm.VmStateError, match="at most 64 bits"):
                refused()


def _kinds(base: type) -> set[type]:
    found = set(base.__subclasses__())
    return found.union(*(_kinds(k) for k in found))


def test_the_vm_runs_every_statement_expression_and_operation_of_the_language():
    """No construct of the language is refused at lowering: a game runs whole on the VM."""
    statements = {k.__name__ for k in _kinds(ast.Stmt)}
    expressions = {k.__name__ for k in _kinds(ast.Expr)}
    assert {"Assign", "Choose", "Window"} <= statements and {"Call", "KeyedCall", "MapExpr"} <= expressions
    assert {k for k in statements if not hasattr(Lowerer, "_s_" + k)} == set()
    assert {k for k in expressions if not hasattr(Lowerer, "_e_" + k)} == set()
    statement_ops = {"perform"}  # a statement of its own (Lowerer._s_ExprStmt)
    assert set(OPS) - NATIVE_OPS - BOARD_OPS - statement_ops - {"card_named"} == set()


FEWEST = {
    "the fewest points win": "winner: lowest\nscoring:\n  - {id: held, points: me.k}\n",
    "a tie-breaker's fewest win": (
        'scoring:\n  - {id: held, points: "0"}\ntiebreakers:\n  - {id: fewer, winner: lowest, value: me.k}\n'
    ),
}


@pytest.mark.parametrize("rules", FEWEST.values(), ids=list(FEWEST))
def test_where_the_fewest_points_win_the_vm_gives_the_references_outcome(tmp_path, rules):
    game = mini(tmp_path, 'for p in players():\n    p.k = choose "keep" from [1, 2, 3] by p\n', rules + PLAYER_K)
    vm_game = _vm.VmGame(ir_bytes(game))
    results = set()
    for seed in range(8):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert vm.outcome() == (list(ref.outcome.results), ref.outcome.reason)
        results.add(ref.outcome.results)
    assert ("win", "loss") in results and ("loss", "win") in results


def played_alike(game, seeds: int):
    """Two-player games of ``game`` for the first ``seeds`` seeds, played alike by the reference and the VM,
    whole states compared at every decision; the last game, on the reference."""
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(seeds):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert json.loads(vm.to_json()) == ref.to_data()
    return ref


PLAYER_K = "player_variables:\n  k: {type: int}\n"


def mini(tmp_path, play: str, rules: str = ""):
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    text = textwrap.dedent("""\
        id: mini
        name: Mini
        players: {min: 2, max: 2}
        step_budget: 5000
        zones:
          - {id: deck, visibility: hidden}
        variables:
          n: {type: int}
          c: {type: card}
          xs: {type: "list[int]"}
        play: |
        """) + textwrap.indent(textwrap.dedent(play), "  ")
    if rules.startswith(("variables:", "player_variables:")):
        text = text.replace("variables:\n", rules, 1)
    else:
        text += rules
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return load_game(folder / "game.yaml", reference=True)


LOOPS = """\
n = 10
xs = [1]
for i in range(6):
    if i == 1:
        continue
    n -= i
    xs += [i]
    n = choose "onward" from [0, 1]
    if i == 3:
        break
repeat 4:
    n += 2
    k = choose "again" from [0, 1]
    if k == 1:
        break
while n < 100:
    n += 7
    if n % 2 == 0:
        continue
    n += 1
log "{n} {xs}"
"""


def test_sums_taken_away_and_loops_left_or_skipped_run_alike_on_the_vm(tmp_path):
    """``+=``/``-=``, 'continue' and 'break' (which drops the loop's state) leave the same states at each choice."""
    game = mini(tmp_path, LOOPS)
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(4):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        assert play(ref, vm, seed, every_step=True) >= 3
        assert ref.to_data() == json.loads(vm.to_json())
        assert ref.log[-1].endswith(" 1, 0, 2, 3")


BOARD_WALKS = """\
id: walks
name: Walks
players: {min: 2, max: 2}
boards:
  - {id: yard, files: [board.yaml]}
variables:
  taken: {type: "list[position]"}
  seen: {type: "list[position]"}
play: |
  repeat 4:
      s = choose "claim" from [x for x in spaces(yard) if x not in taken]
      taken = taken + [s]
      for d in ["east", "south", "southeast", "northwest"]:
          seen = line(yard, s, d, taken) + line(yard, s, opposite(yard, d), taken)
          log "{d} {opposite(yard, d)} {row(yard, s)} {column(yard, s)} {seen}"
      log "{group(yard, s, taken)} {liberties(yard, group(yard, s, taken), spaces(yard))}"
      log "{liberties(yard, taken + taken, [x for x in spaces(yard) if x not in taken])}"
      log "{group(yard, first(spaces(yard)), taken)} {liberties(yard, [], taken)}"
"""
YARD = """\
id: yard
name: Yard
kind: grid
cells: {width: 4, height: 3}
adjacency: both
rooms:
  - {id: yard, area: [0, 0, 3, 2]}
"""


def walked(tmp_path, rules: str) -> list[str]:
    """The log of the last of six games of ``rules`` on the yard, played alike on both backends."""
    folder = tmp_path / "rules" / "walks"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(rules, encoding="utf-8")
    (folder / "board.yaml").write_text(YARD, encoding="utf-8")
    game = load_game(folder / "game.yaml", reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(6):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        assert play(ref, vm, seed, every_step=True) == 4
        assert ref.to_data() == json.loads(vm.to_json())
    return ref.log


def test_lines_groups_and_liberties_on_a_board_are_the_references_in_its_order(tmp_path):
    log = walked(tmp_path, BOARD_WALKS)
    assert any(line.startswith("southeast northwest") and not line.endswith("nothing") for line in log)


OFF_THE_BOARD = [
    "neighbours(yard, p)",
    'toward(yard, p, "east")',
    "direction(yard, p, first(spaces(yard)))",
    "direction(yard, first(spaces(yard)), p)",
    "room_of(yard, p)",
    'has_tag(yard, p, "x")',
    "has_tag(yard, first(spaces(yard)), text(p))",
    "grid_distance(yard, first(spaces(yard)), p)",
    "distance(yard, p, p)",
    "row(yard, p)",
    "column(yard, p)",
    "opposite(yard, d)",
    "toward(yard, first(spaces(yard)), d)",
    'line(yard, p, "east", [])',
    "line(yard, first(spaces(yard)), d, spaces(yard))",
    "group(yard, p, [])",
    "liberties(yard, [p], [])",
    "shortest_path(yard, first(spaces(yard)), p)",
    "connected(yard, [p], [p], [])",
]


@pytest.mark.parametrize("given", ["none", "a text that is no space", "a misspelt space"])
@pytest.mark.parametrize("expression", OFF_THE_BOARD)
def test_a_board_operation_given_what_is_no_space_of_its_board_answers_or_faults_as_the_reference(
    tmp_path, expression, given
):
    """None, a made text or a near miss where a space or direction goes: the reference's answer, or its fault
    in its words (its "did you mean" too), on the VM."""
    made = {
        "none": "first([x for x in spaces(yard) if row(yard, x) > 5])",
        "a text that is no space": 'word("zz a", 0)',
        "a misspelt space": 'word("a10 b", 0)',
    }[given]
    folder = tmp_path / "rules" / "walks"
    folder.mkdir(parents=True)
    (folder / "board.yaml").write_text(YARD, encoding="utf-8")
    (folder / "game.yaml").write_text(
        f"""\
id: walks
name: Walks
players: {{min: 2, max: 2}}
boards:
  - {{id: yard, files: [board.yaml]}}
variables:
  p: {{type: position}}
  d: {{type: direction}}
play: |
  p = {made}
  v = {expression}
  log "{{v}}"
""",
        encoding="utf-8",
    )
    game = load_game(folder / "game.yaml", reference=True)
    try:
        ref = game.new_game(2, 0)
    except RuntimeRuleError as fault:
        if given == "a misspelt space":
            assert "did you mean 'a1'?" in fault.diagnostic.message
        assert same_fault_on_every_backend(game) == fault.diagnostic
        return
    vm = _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert ref.to_data() == json.loads(vm.to_json())


def test_a_board_chosen_while_playing_is_walked_as_the_reference_walks_it(tmp_path):
    """A board held in a local (a game may choose which board a rule reads) has the tables of every board."""
    rules = BOARD_WALKS.replace("  repeat 4:\n", "  b = yard\n  repeat 4:\n").replace("(yard, s", "(b, s")
    assert "line(b, s, d, taken)" in rules
    log = walked(tmp_path, rules)
    assert any(line.startswith("southeast northwest") and not line.endswith("nothing") for line in log)


def test_a_boards_directions_and_shortest_paths_are_the_references(tmp_path):
    rules = BOARD_WALKS.replace(
        "      taken = taken + [s]\n",
        '      taken = taken + [s]\n      log "way {directions(yard)} {shortest_path(yard, s, last(spaces(yard)))}"\n',
    )
    log = [line for line in walked(tmp_path, rules) if line.startswith("way ")]
    assert len(log) == 4 and all(line.startswith("way north, ") for line in log), log


def test_the_fewest_steps_through_the_spaces_given_are_the_references(tmp_path):
    """``path_length``: 0 from a target, steps only through the spaces given, -1 where they lead to none."""
    ways = (
        "path_length(yard, s, [s], [])",
        "path_length(yard, first(spaces(yard)), [last(spaces(yard))], [x for x in spaces(yard) if x not in taken])",
        "path_length(yard, s, [last(spaces(yard))], taken)",
    )
    said = " ".join("{" + way + "}" for way in ways)
    rules = BOARD_WALKS.replace("      taken = taken + [s]\n", f'      taken = taken + [s]\n      log "path {said}"\n')
    log = [line.split()[1:] for line in walked(tmp_path, rules) if line.startswith("path ")]
    starts, free, through = zip(*log)
    assert len(log) == 4 and set(starts) == {"0"} and "3" in free and "-1" in through, log


JOINS = """\
repeat 2:
    for s in ["north", "south"]:
        for t in ["east", "west"]:
            w = s + "-"
            u = w + t
            v = u + "!"
            log "{u} {v}"
"""


def test_names_joined_a_part_at_a_time_read_alike_on_the_vm(tmp_path):
    """A text made while playing, joined again and again with written ones, gives the reference's texts."""
    game = mini(tmp_path, JOINS)
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert ref.to_data() == json.loads(vm.to_json())
    assert ref.log[-4:] == [
        "north-east north-east!",
        "north-west north-west!",
        "south-east south-east!",
        "south-west south-west!",
    ]


FAULTS = {
    "an endless loop runs out of steps": "n = 1\nwhile n > 0:\n    n = n + 1\n",
    "the top of an empty zone": "c = top(deck)\n",
    "a local read before it has a value": "if n > 5:\n    m = 1\nn = m\n",
    "division by zero": "n = 3 // (n * 0)\n",
    "nothing to choose from": 'n = choose "pick" from []\n',
    "a list grown past the size budget by a comprehension put after it": (
        "xs = range(60000) + [x for x in range(60000)]\n"
    ),
    "a text grown past the size budget": 'n = 0\nt = "ab"\nwhile n < 20:\n    t = t + t\n    n += 1\n',
    "a list of texts longer than the size budget written as a text": (
        'n = 0\nt = "abcdefghij"\nwhile n < 13:\n    t = t + t\n    n += 1\nt = text([t, t])\n'
    ),
    "none compared with a number written in the rules": "m = first(xs)\nif m >= 3:\n    n = 1\n",
    "a field of none compared in place": "m = first([{a: i} for i in xs])\nif m.a == n:\n    n = 1\n",
    "a comparison under and, or and not": "if not (n < 3 and (first(xs) > 1 or n > 5)):\n    n = 1\n",
    "a list summed as it is made faults first where making it faults": (
        "n = sum([999999999999999999 if x < 10 else 1 // (x - x) for x in range(11)])\n"
    ),
}


@pytest.mark.parametrize("program", FAULTS.values(), ids=list(FAULTS))
def test_a_rule_fault_of_the_vm_is_raised_as_the_references_error_of_its_kind(tmp_path, program):
    """A tool that meets a VM fault (a bot's search, a state on the VM) catches what the reference raises: the
    step budget run out as BudgetExceeded, any other fault as RuntimeRuleError."""
    game = mini(tmp_path, program)
    with pytest.raises(RuntimeRuleError) as ref:
        game.new_game(2, 0)
    with pytest.raises(_vm.VmRuleError) as vm:
        _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    with pytest.raises(RuntimeRuleError) as raised:
        raise_as_engine(vm.value)
    assert type(raised.value) is type(ref.value) and raised.value.diagnostic == ref.value.diagnostic


@pytest.mark.parametrize("program", FAULTS.values(), ids=list(FAULTS))
def test_a_rule_fault_is_the_same_located_diagnostic_on_the_vm(tmp_path, program):
    game = mini(tmp_path, program)
    with pytest.raises((RuntimeRuleError, BudgetExceeded)) as ref:
        game.new_game(2, 0)
    with pytest.raises(_vm.VmRuleError) as vm:
        _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert diagnostic_of(vm.value) == ref.value.diagnostic


COPIES = """\
zones:
  - {id: hand, per: player, visibility: owner}
  - {id: found, per: player, visibility: public}
components:
  - kind: card
    start: hand(first(players()))
    items:
      - {id: b}
      - {id: a, copies: 3}
play: |
  move(top(hand(me)), found(me))
  c = choose "pick" from cards(hand(me))
  d = choose "pick" from cards(hand(me)) + cards(found(me))
  e = choose from [{do: "take", card: x} for x in cards(hand(me)) + cards(found(me))]
  f = choose from [{do: "take", card: x} for x in cards(hand(me))]
"""


def test_copies_of_a_card_are_one_option_in_one_zone_and_two_across_zones_on_the_vm(tmp_path):
    """Options alike merge where they are the same choice and are told apart by zone where they are not,
    cards and records holding cards alike, decision after decision, on both backends."""
    from test_language import make_game

    game = make_game(tmp_path, COPIES)
    vm_game = _vm.VmGame(ir_bytes(game))
    for pick in (0, -1):
        ref, vm = game.new_game(2, 0), vm_game.new_game(2, 0)
        offered = []
        while ref.legal_actions():
            offered.append(ref.legal_actions())
            assert vm.legal_actions() == offered[-1]
            ref.apply(offered[-1][pick])
            vm.apply(offered[-1][pick])
        assert vm.is_terminal()
    assert offered[0] == ["pick b", "pick a"]
    assert offered[1] == ["pick b", "pick a (hand:0)", "pick a (found:0)"]


SEVEN = """\
functions:
  - id: seven
    params: {k: int}
    returns: int
    value: "7"
"""


def same_fault_on_every_backend(game, then=None):
    """The one located fault of ``game`` as it begins for seed 0 (or at ``then`` of the begun state) on the
    reference, ``State`` on its default backend and the VM itself; its diagnostic."""
    faults = []
    for on_python in (game, load_game(game.rules.folder / "game.yaml")):
        with pytest.raises(RuntimeRuleError) as fault:
            state = on_python.new_game(2, 0)
            if then is not None:
                then(state)
        faults.append(fault.value.diagnostic)
    with pytest.raises(_vm.VmRuleError) as vm:
        state = _vm.VmGame(ir_bytes(game)).new_game(2, 0)
        if then is not None:
            then(state)
    assert diagnostic_of(vm.value) == faults[0] == faults[1]
    return faults[0]


def test_a_function_given_a_local_with_no_value_yet_faults_as_on_the_reference_though_it_never_reads_it(tmp_path):
    """The arguments of a call are read before the function's expression runs, even one it ignores."""
    game = mini(tmp_path, "if n > 5:\n    m = 1\nn = seven(m)\n", SEVEN)
    assert "'m' has no value yet" in same_fault_on_every_backend(game).message


BOUNDED = """\
player_variables:
  k: {type: int, min: -2, max: 2}
variables:
  m: {type: int, initial: 1, min: 0, max: 3}
"""
BROKEN_BOUNDS = {
    "a variable over its max:": "repeat 5:\n    m += 1\n",
    "a variable under its min:": "m -= 2\n",
    "a player variable under its min:": "n = 4\nwhile n > 0:\n    n -= 1\n    me.k -= 1\n",
}


@pytest.mark.parametrize("program", BROKEN_BOUNDS.values(), ids=list(BROKEN_BOUNDS))
def test_a_value_outside_a_variables_min_and_max_is_the_same_located_fault_on_the_vm(tmp_path, program):
    game = mini(tmp_path, "me = first(players())\n" + program, BOUNDED)
    assert "(its min: and max:)" in same_fault_on_every_backend(game).message


def test_a_variable_kept_within_its_min_and_max_plays_alike_on_the_vm(tmp_path):
    game = mini(tmp_path, 'me = first(players())\nm += 2\nme.k -= 2\nn = choose "pick" from [m, me.k]\n', BOUNDED)
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert ref.legal_actions() == vm.legal_actions()
    assert ref.to_data() == json.loads(vm.to_json())


HOSTILE_IR = [b"", b"not json", b"[]", b'{"version": 2}', b'{"version": 1}', b"{" * 10_000]


@pytest.mark.parametrize("ir", HOSTILE_IR, ids=range(len(HOSTILE_IR)))
def test_a_hostile_ir_is_refused_in_one_line(ir):
    with pytest.raises(_vm.VmStateError) as info:
        _vm.VmGame(ir)
    assert "\n" not in str(info.value) and str(info.value).startswith("IR refused")


def test_an_ir_with_an_index_out_of_range_is_refused_not_run():
    ir = json.loads(ir_bytes(load_game("goofspiel", reference=True)))
    ir["procedures"][0]["code"][0] = ["jump", 10_000]
    with pytest.raises(_vm.VmStateError, match="out of the code"):
        _vm.VmGame(json.dumps(ir).encode())
    ir = json.loads(ir_bytes(load_game("goofspiel", reference=True)))
    ir["functions"][0]["expr"] = ["local", 999, False]
    with pytest.raises(_vm.VmStateError, match="out of range"):
        _vm.VmGame(json.dumps(ir).encode())


def tampered(data: dict, how: str) -> str:
    data = json.loads(json.dumps(data))
    if how == "a card twice":
        zone = next(z for z, cards in data["zones"].items() if cards)
        data["zones"][zone].append(data["zones"][zone][0])
    elif how == "no such procedure":
        data["stack"][-1][0] = "nowhere"
    elif how == "a pc past the code":
        data["stack"][-1][1] = 10**6
    elif how == "a value nested too deeply":
        data["variables"]["round"] = json.loads("[" * 100 + "]" * 100)
    elif how == "a local the procedure lacks":
        data["stack"][-1][2]["zzz"] = 1
    elif how == "other rules":
        data["rules"] = "0" * 16
    elif how == "a decision of no seat":
        data["pending"]["player"] = 9
    return json.dumps(data)


HOW = [
    "a card twice",
    "no such procedure",
    "a pc past the code",
    "a value nested too deeply",
    "a local the procedure lacks",
    "other rules",
    "a decision of no seat",
]


@pytest.mark.parametrize("how", HOW)
def test_a_hostile_saved_state_is_refused_in_one_line(how):
    game, vm_game = both("goofspiel", None)
    data = game.new_game(2, 3).to_data()
    with pytest.raises(_vm.VmStateError) as info:
        vm_game.state_from_json(tampered(data, how))
    assert "\n" not in str(info.value) and str(info.value).startswith("not a saved state")


def test_an_illegal_action_names_the_legal_ones_and_changes_nothing():
    _, vm_game = both("goofspiel", None)
    st = vm_game.new_game(2, 1)
    before = st.to_json()
    with pytest.raises(_vm.VmIllegalAction, match="not a legal action for seat 0"):
        st.apply("place nowhere")
    assert st.to_json() == before


def test_playouts_play_whole_games_in_one_call_the_same_for_the_same_seeds():
    _, vm_game = both("cat-town", None)
    first = vm_game.playouts(2, list(range(20)))
    assert first == vm_game.playouts(2, list(range(20)))
    assert {g["reason"] for g in first} <= {"only 3 Blocks were left", "a player reached 6 points"}
    assert all(sorted(g["results"]) in (["loss", "win"], ["draw", "draw"], ["win", "win"]) for g in first)
    assert all(g["decisions"] > 10 for g in first)


def chips(tmp_path, copies: int, rules: str):
    """A game of ``copies`` chips in a bag, a pile and a heap per seat, and ``rules`` (variables, play, scoring)."""
    folder = tmp_path / "rules" / "chips"
    folder.mkdir(parents=True)
    text = textwrap.dedent(f"""\
        id: chips
        name: Chips
        players: {{min: 2, max: 2}}
        components:
          - kind: token
            name: token
            start: bag
            items:
              - {{id: chip, name: Chip, copies: {copies}}}
        zones:
          - {{id: bag, visibility: public}}
          - {{id: pile, per: player, visibility: public}}
          - {{id: heap, per: player, visibility: public}}
        """)
    (folder / "game.yaml").write_text(text + rules, encoding="utf-8")
    return load_game(folder / "game.yaml", reference=True)


KEPT_POINTS = """\
variables:
  bonus: {type: int}
  n: {type: int}
play: |
  n = score(me)
  move(top(bag), pile(me))
  n = n * 10 + score(me)
  bonus = 5
  n = n * 10 + score(me)
  move_all(pile(me), bag)
  n = n * 10 + score(me)
  log "{n}"
  end_game
scoring:
  - id: pile
    points: size(pile(p)) + bonus
"""


def test_points_kept_between_reads_follow_every_change_the_scoring_reads(tmp_path):
    game = chips(tmp_path, 3, KEPT_POINTS)
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert ref.log[-1] == "165" == json.loads(vm.to_json())["log"][-1][1]


OWN_POINTS = """\
player_variables:
  gems: {type: int}
  coins: {type: int}
variables:
  other: {type: player}
functions:
  - id: coins_of
    params: {q: player}
    returns: int
    value: q.coins
procedures:
  - id: both
    does: |
      a = score(me)
      b = score(other)
      log "{a} {b}"
play: |
  other = left_of(me)
  both()
  move(top(bag), pile(other))
  both()
  move(top(bag), heap(other))
  both()
  other.gems = 2
  both()
  other.coins = 7
  both()
  move(top(bag), pile(me))
  both()
  end_game
scoring:
  - id: own
    points: size(pile(p)) + p.gems
  - id: next
    points: 10 * size(heap(left_of(p))) + coins_of(left_of(p))
"""


def test_points_kept_per_seat_follow_a_change_of_what_any_seat_reads(tmp_path):
    """A seat's own pile and gems are read by its points alone; the heap and coins of a seat are read by its
    neighbour's points too: every change reaches the points of each seat reading it."""
    game = chips(tmp_path, 4, OWN_POINTS)
    reads = lower(game)["score_reads"]
    assert (reads["own_families"], reads["own_player_variables"]) == (["pile"], ["gems"])
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert ref.log == [line for _, line in json.loads(vm.to_json())["log"]]
    assert ref.log == ["0 0", "0 1", "10 1", "10 3", "17 3", "18 3"]


FUNCTION_PROGRAMS = """\
id: steps
name: Steps
players: {min: 2, max: 2}
step_budget: 3000
variables:
  n: {type: int}
functions:
  - id: total
    params: {k: int}
    returns: int
    does: |
      t = 0
      for i in range(k):
          if i % 2 == 0:
              t = t + i
      return t
  - id: spin
    returns: int
    does: |
      m = 1
      while m > 0:
          m = m + 1
      return m
play: |
  n = total(10)
  log "{n}"
  n = spin()
"""


def test_a_function_written_as_statements_runs_alike_and_its_endless_loop_stops_alike(tmp_path):
    folder = tmp_path / "rules" / "steps"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(FUNCTION_PROGRAMS, encoding="utf-8")
    game = load_game(folder / "game.yaml", reference=True)
    with pytest.raises((RuntimeRuleError, BudgetExceeded)) as ref:
        game.new_game(2, 0)
    with pytest.raises(_vm.VmRuleError) as vm:
        _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert diagnostic_of(vm.value) == ref.value.diagnostic
    assert ref.value.diagnostic.code == "E703"


BUDGET_EDGE = """\
id: edge
name: Edge
players: {min: 2, max: 2}
step_budget: BUDGET
variables:
  n: {type: int}
functions:
  - id: tally
    params: {k: int}
    returns: int
    does: |
      t = 0
      for i in range(k):
          t = t + 1
      return t
play: |
  k = choose "loops" from range(0, 60)
  n = tally(k)
"""


def tallied(state, k: int):
    """The function's value after `k` loops, or the fault that stopped it, on either backend."""
    try:
        state.apply(f"loops {k}")
    except (RuntimeRuleError, BudgetExceeded) as exc:
        return exc.diagnostic
    except _vm.VmRuleError as exc:
        return diagnostic_of(exc)
    return state.vars["n"] if hasattr(state, "vars") else json.loads(state.to_json())["variables"]["n"]


@pytest.mark.parametrize("budget", [100, 101, 102])
def test_a_function_that_takes_its_whole_step_budget_runs_and_one_step_more_stops_alike(tmp_path, budget):
    """Each loop takes a few steps, so over three budgets in a row some number of loops takes the whole budget,
    which the function may (the reference stops at the step past it)."""

    game = load_game(write_game(tmp_path, BUDGET_EDGE.replace("BUDGET", str(budget))), reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    seen = []
    for k in range(60):
        expected = tallied(game.new_game(2, 0), k)
        assert tallied(vm_game.new_game(2, 0), k) == expected, f"{k} loops"
        seen.append(isinstance(expected, int))
    assert seen[0] and not seen[-1], "the budget is crossed within the loops tried"


LOOPS_IN_A_FUNCTION = """\
id: loops
name: Loops
players: {min: 2, max: 2}
variables:
  n: {type: int}
functions:
  - id: walked
    params: {k: int}
    returns: "list[int]"
    does: |
      out = []
      for i in range(k):
          if i == 1:
              continue
          if i == 6:
              break
          out += [i]
      repeat 5:
          out += [100]
          if size(out) > 6:
              break
      m = 0
      while m < 50:
          m += 7
          if m % 2 == 0:
              continue
          out += [m]
          if m > 30:
              break
      return out
play: |
  repeat 3:
      n = choose "reach" from [4, 8]
      log "{walked(n)}"
"""


def test_loops_left_by_break_and_continue_inside_a_function_run_alike_on_the_vm(tmp_path):
    folder = tmp_path / "rules" / "loops"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(LOOPS_IN_A_FUNCTION, encoding="utf-8")
    game = load_game(folder / "game.yaml", reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    logged = set()
    for seed in range(4):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        assert play(ref, vm, seed, every_step=True) == 3
        assert ref.to_data() == json.loads(vm.to_json())
        logged |= set(ref.log)
    assert {"0, 2, 3, 100, 100, 100, 100, 7, 21, 35", "0, 2, 3, 4, 5, 100, 100, 7, 21, 35"} <= logged


def test_a_copy_of_a_running_game_costs_a_few_kilobytes():
    """A search copies a state at every iteration: a Cat Town copy allocates under 4 KB, however long its
    past (the log and history are shared, not copied)."""
    _, vm_game = both("cat-town", None)
    state, rnd = vm_game.new_game(2, 3), random.Random(3)
    for _ in range(60):
        state.apply(rnd.choice(state.legal_actions()))
    assert state.clone_bytes() < 4096
    assert json.loads(state.clone().to_json()) == json.loads(state.to_json())


def test_a_copy_and_its_original_play_on_apart():
    """A search plays on from a copy while the game goes on from the original: a move in either never shows
    in the other, whichever moves first."""
    _, vm_game = both("cat-town", None)
    state, rnd = vm_game.new_game(2, 5), random.Random(5)
    for _ in range(20):
        state.apply(rnd.choice(state.legal_actions()))
    before = json.loads(state.to_json())
    copy = state.clone()
    first, last = copy.legal_actions()[0], copy.legal_actions()[-1]
    assert first != last
    copy.apply(first)
    assert json.loads(state.to_json()) == before
    moved = json.loads(copy.to_json())
    state.apply(last)
    assert json.loads(copy.to_json()) == moved
    again = state.clone()
    again.apply(again.legal_actions()[0])
    assert json.loads(state.to_json()) != json.loads(again.to_json())
    assert state.scores() == state.clone().scores()


def test_copies_of_a_card_are_one_option_per_kind_and_card_of_gives_one_back_on_the_vm(tmp_path):
    from test_kinds import GAME

    told = '  p = card_of(table, "priest")\n  log "{kinds(table)} {p} {card_of([], g)}"\n'
    game = load_game(write_game(tmp_path, GAME.replace("  end_game\n", told)), reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    for pick in ("guess guard", "guess king"):
        ref, vm = game.new_game(2, 0), vm_game.new_game(2, 0)
        assert vm.legal_actions() == ref.legal_actions() == ["guess guard", "guess king"]
        ref.apply(pick)
        vm.apply(pick)
        assert json.loads(vm.to_json()) == ref.to_data()
    assert ref.log[-1] == "guard, king nothing nothing"


def test_each_player_wins_draws_or_loses_against_the_house_on_the_vm(tmp_path):
    """A seat run by the rules: each seat's result and return is its own, set against the house's points."""
    from test_house import BANK

    for rules in (BANK, BANK.replace("    house:", "    winner: lowest\n    house:")):
        game = load_game(write_game(tmp_path, rules), reference=True)
        ref, vm = game.new_game(3, 0), _vm.VmGame(ir_bytes(game)).new_game(3, 0)
        for take in ("take 3", "take 2", "take 1"):
            ref.apply(take)
            vm.apply(take, None)
        assert vm.outcome() == (list(ref.outcome.results), ref.outcome.reason)
        assert vm.returns() == ref.returns()
    assert vm.outcome()[0] == ["loss", "draw", "win"] and vm.returns() == [-1.0, 0.0, 1.0]


def test_dice_roll_in_the_open_and_in_secret_alike_on_the_vm_and_copies_roll_again_alike(tmp_path):
    """Each roll drawn as the reference draws it; who saw it in the history; the points read the faces
    just rolled; a seat's copy rolls again the faces it cannot know, seed for seed."""
    from test_dice import CUPS

    scored = '      log "{score(me)}"\n      roll(cup(me))\n      log "{score(me)}"\n'
    game = load_game(write_game(tmp_path, CUPS.replace("      roll(cup(me))\n", scored)), reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    rolls = []
    for players in (2, 3):
        for seed in range(4):
            ref, vm = game.new_game(players, seed), vm_game.new_game(players, seed)
            for seat in range(players):
                for copy_seed in (seed, seed + 100):
                    copy = ref.determinized(seat, copy_seed).to_data()
                    assert json.loads(vm.determinized(seat, copy_seed).to_json()) == copy
            play(ref, vm, seed, every_step=True)
            assert json.loads(vm.to_json()) == ref.to_data() and vm.scores() == ref.scores
            rolls += [e for e in ref.history if e.get("chance") == "roll"]
    assert any("seen" in e for e in rolls) and any("seen" not in e for e in rolls)


def test_dice_with_named_faces_and_a_roll_of_what_is_no_die_are_the_references_on_the_vm(tmp_path):
    from test_dice import CUPS, NAMED

    game = load_game(write_game(tmp_path, NAMED), reference=True)
    for seed in range(4):
        vm = _vm.VmGame(ir_bytes(game)).new_game(1, seed)
        assert json.loads(vm.to_json()) == game.new_game(1, seed).to_data()
    crown = "      - kind: card\n        start: table\n        items: [{id: crown}]\n"
    text = CUPS.replace("    zones:", crown + "    zones:").replace("      roll(box)\n", "      roll(table)\n")
    game = load_game(write_game(tmp_path, text), reference=True)
    assert "'crown' is not a die" in same_fault_on_every_backend(game).message


@pytest.mark.parametrize("faces", [[9] * 6, None, [1] * 5], ids=["no such face", "no faces", "too few"])
def test_a_save_whose_dice_show_no_face_of_theirs_is_refused_on_the_vm(tmp_path, faces):
    from test_dice import CUPS

    game = load_game(write_game(tmp_path, CUPS), reference=True)
    data = game.new_game(2, 3).to_data()
    assert data["faces"] and all(f in range(1, 7) for f in data["faces"])
    data["faces"] = faces
    with pytest.raises(_vm.VmStateError, match="bad faces of the dice"):
        _vm.VmGame(ir_bytes(game)).state_from_json(json.dumps(data))


BIGGEST = 9_223_372_036_854_775_807
TO_THE_BIGGEST = "n = 4294967296 * 2147483647 + 4294967295\n"  # 2⁶³ − 1: a literal has at most 18 digits
PAST_64_BITS = {
    "a sum": TO_THE_BIGGEST + "n += 1\n",
    "a difference": TO_THE_BIGGEST + "n = 0 - n\nn = n - 1\n",
    "a product": "n = 4294967296\nn = n * n\n",
    "a list summed": TO_THE_BIGGEST + "xs = [n, 1]\nn = sum(xs)\n",
}


@pytest.mark.parametrize("program", PAST_64_BITS.values(), ids=list(PAST_64_BITS))
def test_a_number_past_64_bits_is_the_same_located_fault_on_every_backend(tmp_path, program):
    """Numbers in the rules are 64-bit: the Python backends, whose numbers are unbounded, fault where the VM
    does, at the same rule and with the same words."""
    game = mini(tmp_path, program)
    fault = same_fault_on_every_backend(game)
    lines = (tmp_path / "rules" / "mini" / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[fault.line - 1].strip() == program.splitlines()[-1]
    assert "a number past ±9,223,372,036,854,775,807" in fault.message


def test_points_added_up_past_64_bits_are_the_fault_of_the_term_that_went_past_on_every_backend(tmp_path):
    """Each term is a number within 64 bits; their sum is not: the points add up as `+` does."""
    game = mini(tmp_path, TO_THE_BIGGEST, "scoring:\n  - {id: held, points: n}\n  - {id: again, points: n}\n")
    fault = same_fault_on_every_backend(game, then=lambda state: state.scores())
    assert fault.message.startswith("'again' failed for seat 0: a number past ±9,223,372,036,854,775,807")


def test_a_teams_points_past_64_bits_are_a_located_fault_on_every_backend(tmp_path):
    one_team = 'scoring:\n  - {id: held, points: n}\nteams:\n  "2": [[0, 1]]\n'
    game = mini(tmp_path, TO_THE_BIGGEST + "n = team_score(first(players()))\n", one_team)
    fault = same_fault_on_every_backend(game)
    lines = (game.rules.folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[fault.line - 1].strip() == "n = team_score(first(players()))"
    assert "a number past" in fault.message


def test_teams_whose_points_add_up_past_64_bits_are_ranked_as_the_reference_ranks_them(tmp_path):
    """Seats 0 and 1 hold the most a seat may, seat 2 as much, seat 3 nothing: the first team has the more."""
    game = mini(tmp_path, TO_THE_BIGGEST, 'scoring:\n  - {id: held, points: "0 if seat_number(me) == 3 else n"}\n')
    yaml = game.rules.folder / "game.yaml"
    text = yaml.read_text(encoding="utf-8").replace("{min: 2, max: 2}", "{min: 4, max: 4}")
    yaml.write_text(text + 'teams:\n  "4": [[0, 1], [2, 3]]\n', encoding="utf-8")
    game = load_game(yaml, reference=True)
    ref, generated = game.new_game(4, 0), load_game(yaml).new_game(4, 0)
    vm = _vm.VmGame(ir_bytes(game)).new_game(4, 0)
    assert ref.outcome.results == generated.outcome.results == ("win", "win", "loss", "loss")
    assert vm.outcome() == (list(ref.outcome.results), ref.outcome.reason)


def test_numbers_up_to_64_bits_and_a_sum_back_within_them_run_alike(tmp_path):
    game = mini(tmp_path, TO_THE_BIGGEST + 'xs = [n, 1, -2]\nn = sum(xs) - n\nn = n * sum(xs)\nlog "{n}"\n')
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert ref.to_data() == json.loads(vm.to_json()) and ref.log == [str(1 - BIGGEST)]
