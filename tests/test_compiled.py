"""A ``State`` on the native VM plays exactly the games of the reference path, and both tell their bugs from
the rules'.

Every game and variant, at every player count, plays seeded random games through
the ``State`` API on both backends (the VM, and the closures of runtime/reference.py):
the legal actions at every decision, the actions taken and the final state must be
identical.  Games are bounded by decisions, never by time.
"""

from __future__ import annotations

import dataclasses
import json
import random
import textwrap

import pytest

from engine import RuntimeRuleError, load_game
from engine.errors import EngineBug
from engine.lang.ops import OPS
from engine.runtime.program import LABELS_KEPT

# (game, variant, games per player count): a few hundred games in all
CASES = [
    ("caty-mini", None, 20),
    ("caty-mini", "older-players", 15),
    ("cat-town", None, 30),
    ("cat-town", "easy", 15),
    ("cat-town", "advanced", 20),
    ("cats-mansion", None, 15),
    ("goofspiel", None, 15),  # simultaneous bids, made in a random order of the seats
    ("breakthrough", None, 5),  # a grid with diagonal adjacency
    ("hex", None, 5),  # a hexagon grid and the connection test
]
DECISIONS = 150  # per game: enough to reach the end of most games and the middle of every one


def play_both(fast, reference, players: int, seed: int) -> int:
    """One seeded random game on both paths, compared decision by decision; returns decisions made."""
    a, b = fast.new_game(players=players, seed=seed), reference.new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    for step in range(DECISIONS):
        assert a.legal_actions() == b.legal_actions(), f"seed {seed}, decision {step}"
        if a.is_terminal:
            break
        assert a.to_act == b.to_act, f"seed {seed}, decision {step}"
        seat = rnd.choice(a.to_act) if len(a.to_act) > 1 else a.current_player
        assert a.legal_actions(seat) == b.legal_actions(seat)
        action = rnd.choice(a.legal_actions(seat))
        a.apply(action, seat=seat)
        b.apply(action, seat=seat)
    assert a.actions == b.actions
    assert json.loads(a.to_json()) == json.loads(b.to_json()), f"seed {seed}: final states differ"
    return step


@pytest.mark.parametrize("name, variant, games", CASES, ids=[f"{n}-{v or 'base'}" for n, v, _ in CASES])
def test_a_state_on_the_vm_plays_the_reference_games(name, variant, games):
    fast, reference = load_game(name, variant), load_game(name, variant, reference=True)
    assert fast.new_game(fast.min_players).vm is not None and reference.new_game(fast.min_players).vm is None
    for players in range(fast.min_players, fast.max_players + 1):
        for seed in range(games):
            play_both(fast, reference, players, seed)


def write_game(tmp_path, play: str):
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(
        textwrap.dedent("""\
        id: mini
        name: Mini
        players: {min: 2, max: 2}
        zones:
          - {id: deck, visibility: hidden}
        variables:
          n: {type: int}
        play: |
        """)
        + textwrap.indent(textwrap.dedent(play), "  "),
        encoding="utf-8",
    )
    return folder / "game.yaml"


def test_an_engine_failure_is_an_engine_bug_not_the_designers_error(tmp_path, monkeypatch):
    def broken(st, zone):
        return {}[zone]  # a KeyError inside the engine, not in the rules' code

    monkeypatch.setitem(OPS, "cards", dataclasses.replace(OPS["cards"], fn=broken))  # the reference calls it
    path = write_game(tmp_path, "x = cards(deck)\n")
    with pytest.raises(EngineBug, match="engine bug while running 'play'"):
        load_game(path, reference=True).new_game(players=2)


@pytest.mark.parametrize("reference", [False, True])
def test_a_rules_own_impossible_request_stays_the_designers_error(tmp_path, reference):
    path = write_game(tmp_path, "n = 1\nn = first([]) + n\n")
    with pytest.raises(RuntimeRuleError) as info:
        load_game(path, reference=reference).new_game(players=2)
    assert info.value.diagnostic.code == "E702" and info.value.diagnostic.line == 10


@pytest.mark.parametrize("reference", [False, True])
def test_a_decision_free_endless_loop_stops_at_its_line(tmp_path, reference):
    path = write_game(tmp_path, "n = 1\nwhile n > 0:\n    n = n + 1\n")
    with pytest.raises(RuntimeRuleError) as info:
        load_game(path, reference=reference).new_game(players=2)
    d = info.value.diagnostic  # the reference says where a setup fails, in the body or at the loop's head
    assert d.code == "E703" and d.line in (10, 11)


FUSED = """\
x = 1
if n == 1:
    y = 5
else:
    x = x + 1
double = x + x
for i in [1, 2, 3]:
    x = x + i
    if i == 2:
        i = 10
        x = x + i + i
    x = x + i
k = 0
while k < 3:
    k = k + 1
    x = x + k + k
c = choose from [1, 2] by me
x = x + c + c
if c == 1:
    z = c + c
    x = x + z
elif c == 2:
    x = x + 100
n = x + double + x
"""


@pytest.mark.parametrize("action", ["1", "2"])
def test_stores_in_branches_and_loops_compute_on_the_vm_what_the_reference_does(tmp_path, action):
    """Stores in branches and loops, a loop variable changed in its body, a choice's local read after it."""
    path = write_game(tmp_path, FUSED)
    fast, reference = load_game(path).new_game(players=2), load_game(path, reference=True).new_game(players=2)
    assert fast.to_json() == reference.to_json() and fast.legal_actions() == ["1", "2"]
    fast.apply(action)
    reference.apply(action)
    assert fast.to_json() == reference.to_json() and fast.is_terminal


@pytest.mark.parametrize("reference", [False, True])
def test_a_local_stored_only_in_a_branch_not_taken_has_no_value_after_it(tmp_path, reference):
    path = write_game(tmp_path, "if n == 1:\n    y = 5\n    n = y + y\nn = y + y\n")
    with pytest.raises(RuntimeRuleError) as info:
        load_game(path, reference=reference).new_game(players=2)
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E701", 12) and "'y' has no value yet" in d.message, d.format()


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize(
    "loop",
    [
        "while true:\n    if false:\n        c = choose from [1] by me\n",  # its only decision never asked
        'repeat 1000000:\n    n = n + 1\nx = choose "go" from [1]\n',  # a million rounds that only count
    ],
)
def test_a_loop_past_the_budget_of_steps_stops_at_its_line(tmp_path, reference, loop):
    """The budget of 200,000 steps bounds every loop, one that asks nothing too: E703 at the loop or in its body."""
    path = write_game(tmp_path, loop)
    with pytest.raises(RuntimeRuleError) as info:
        load_game(path, reference=reference).new_game(players=2)
    assert info.value.diagnostic.code == "E703" and info.value.diagnostic.line in (9, 10)


IDLE_HOOKS = """\
procedures:
  - id: before
    params: {k: int}
    does: |
      pass
  - id: later
    params: {k: int}
    does: |
      before(k // (k - 1))
  - id: after
    params: {k: int}
    does: |
      pass
play: |
  before(n)
  after(n + 1)
  c = choose from [1, 2, 3] by me
  n = c
  later(c)
  after(n // (c - 2))
"""


@pytest.mark.parametrize("action, line", [("1", 16), ("2", 27), ("3", None)])
@pytest.mark.parametrize("reference", [False, True])
def test_a_call_of_a_procedure_with_nothing_to_do_still_computes_its_arguments(tmp_path, reference, action, line):
    """An empty hook (compiled before its caller or after it) is skipped, but its arguments are computed."""
    path = write_game(tmp_path, "")
    text = path.read_text(encoding="utf-8").replace("play: |\n", IDLE_HOOKS)
    path.write_text(text, encoding="utf-8")
    st = load_game(path, reference=reference).new_game(players=2)
    assert st.legal_actions() == ["1", "2", "3"]
    if line is None:
        st.apply(action)
        assert st.is_terminal and st.to_json() == st.game.state_from_json(st.to_json()).to_json()
        return
    with pytest.raises(RuntimeRuleError) as info:
        st.apply(action)
    assert (info.value.diagnostic.line, info.value.diagnostic.code) == (line, "E701"), info.value.diagnostic.format()


STARTS = """\
id: mini
name: Mini
players: {min: 2, max: 3}
components:
  - kind: card
    start: START
    items: [{id: a, copies: 12}]
zones:
  - {id: deck, visibility: hidden}
  - {id: table, visibility: public}
  - {id: hand, per: player, visibility: owner}
play: |
  x = choose "go" from [1]
"""


def test_where_cards_start_is_worked_out_once_per_player_count_unless_it_is_drawn(tmp_path):
    """A start that draws nothing puts the cards where it did in the first game of that size; one that
    draws puts them anew in every game, as its seed says."""
    fixed = load_game(
        write_game_text(tmp_path / "fixed", STARTS.replace("START", "hand(item(players(), num_players - 1))"))
    )
    assert len(fixed.new_game(players=2).zones["hand:1"]) == 12
    assert len(fixed.new_game(players=3, seed=4).zones["hand:2"]) == 12
    assert len(fixed.new_game(players=2, seed=9).zones["hand:1"]) == 12
    drawn = load_game(write_game_text(tmp_path / "drawn", STARTS.replace("START", "random_from([deck, table])")))
    deals = [tuple(drawn.new_game(players=2, seed=s).zones["table"]) for s in (1, 2, 3, 1)]
    assert deals[0] == deals[3] and len(set(deals)) == 3
    first = drawn.new_game(players=2, seed=1)
    assert sum("chance" in e for e in first.history) == 12 and first.to_json() == drawn.new_game(2, 1).to_json()


def test_a_start_that_names_no_zone_is_located_at_the_start(tmp_path):
    game = load_game(write_game_text(tmp_path, STARTS.replace("START", "hand(item(players(), 7))")))
    with pytest.raises(RuntimeRuleError, match="E701 cannot place 'a' at the start: "):
        game.new_game(players=2)


def write_game_text(folder, text: str):
    path = folder / "rules" / "mini" / "game.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return path


CALLS = """\
id: mini
name: Mini
players: {min: 2, max: 2}
variables:
  total: {type: int}
  seen: {type: int}
procedures:
  - id: count_down
    params: {n: int}
    returns: int
    does: |
      if n == 0:
          pick = choose "pick" from [1, 2]
          return pick
      rest = count_down(n - 1)
      return rest + 1
  - id: broken
    params: {n: int}
    does: |
      seen = n
      seen = seen // (n - n)
play: |
  total = count_down(DEPTH)
  FAIL
  x = choose "go" from [1]
  end_game
"""


def calls_game(tmp_path, depth: int, fail: str = "seen = 0"):
    return load_game(write_game_text(tmp_path, CALLS.replace("DEPTH", str(depth)).replace("FAIL", fail)))


@pytest.mark.parametrize("depth", [0, 5, 600])
def test_calls_run_inside_their_callers_to_any_depth_and_stop_at_a_decision_with_every_frame(tmp_path, depth):
    """A chain of calls of any depth stops at the decision at its bottom with every frame on the stack, which
    goes to JSON and back, and the values come back up the same on both paths."""
    game = calls_game(tmp_path, depth)
    reference = load_game(game.rules.documents[0].path, reference=True)
    for g in (game, reference):
        state = g.new_game(players=2)
        assert len(state.stack) == depth + 2 and state.legal_actions() == ["pick 1", "pick 2"]
        state = g.state_from_json(state.to_json())
        state.apply("pick 2")
        assert state.vars["total"] == depth + 2 and state.legal_actions() == ["go 1"]


def test_a_rule_failing_in_a_called_procedure_is_located_in_it(tmp_path):
    game = calls_game(tmp_path, 2, "broken(3)")
    for g in (game, load_game(game.rules.documents[0].path, reference=True)):
        state = g.new_game(players=2)
        with pytest.raises(RuntimeRuleError) as info:
            state.apply("pick 1")
        d = info.value.diagnostic
        assert (d.code, d.line) == ("E701", 21) and "division by zero (in 'broken')" in d.message


@pytest.mark.parametrize("reference", [False, True])
def test_an_endless_loop_in_a_called_procedure_stops_at_its_line(tmp_path, reference):
    """A called procedure runs inside its caller's instruction, yet its loop's rounds are counted and the
    budget's end is located in it."""
    spin = "  - id: spin\n    does: |\n      while true:\n          if false:\n              c = choose from [1]\n"
    text = CALLS.replace("DEPTH", "0").replace("FAIL", "spin()").replace("procedures:\n", "procedures:\n" + spin)
    state = load_game(write_game_text(tmp_path, text), reference=reference).new_game(players=2)
    with pytest.raises(RuntimeRuleError) as info:
        state.apply("pick 1")
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E703", 10) and "in 'spin'" in d.message


LONG_FUNCTION = """\
functions:
  - id: counted
    params: {xs: "list[int]"}
    returns: int
    does: |
      seen = 0
      for x in xs:
          seen = seen + 1
      return seen
"""


def test_a_setup_over_the_budget_fails_alike_on_every_backend(tmp_path):
    """Three loops of 90,000 rounds run over the budget of 200,000 steps wherever the game runs: the game on the
    VM (whose failed setup the reference tells) fails as the reference's does, with no other backend that
    counts differently letting it load."""
    path = write_game(tmp_path, "n = counted(range(90000)) + counted(range(90000)) + counted(range(90000))\n")
    path.write_text(path.read_text(encoding="utf-8").replace("play: |", LONG_FUNCTION + "play: |"), encoding="utf-8")
    found = []
    for game in (load_game(path), load_game(path, vm=False), load_game(path, reference=True)):
        with pytest.raises(RuntimeRuleError) as info:
            game.new_game(players=2)
        found.append(info.value.diagnostic.format())
    assert len(set(found)) == 1 and " E703 " in found[0], found


@pytest.mark.parametrize("reference", [False, True])
def test_a_verb_with_braces_or_percent_signs_prints_as_written(tmp_path, reference):
    """An option's id is the verb and the option's label joined: a verb with braces in it is text, not a format."""
    path = write_game(tmp_path, 'x = choose "take{0}%s" from ["a", "b"]\nn = choose "count{}" from [1, 2]\n')
    state = load_game(path, reference=reference).new_game(players=2)
    assert state.legal_actions() == ["take{0}%s a", "take{0}%s b"]
    state.apply("take{0}%s b")
    assert state.legal_actions() == ["count{} 1", "count{} 2"]


def test_ids_kept_by_value_are_the_labels_of_the_options_past_the_number_kept(tmp_path):
    """The ids of options that are each one piece are made once and looked up after: more options than are
    kept, none among them, and copies of a card, still give each option its own label."""
    path = write_game(
        tmp_path,
        'n = choose "n" from range(LABELS_KEPT + 10)\n'
        'm = choose "again" from [n, n - 1]\n'
        'who = choose "give" from [none] + players()\n'.replace("LABELS_KEPT", str(LABELS_KEPT)),
    )
    state = load_game(path).new_game(players=2)
    assert state.legal_actions() == [f"n {i}" for i in range(LABELS_KEPT + 10)]
    state.apply(f"n {LABELS_KEPT + 9}")
    assert state.legal_actions() == [f"again {LABELS_KEPT + 9}", f"again {LABELS_KEPT + 8}"]
    state.apply(f"again {LABELS_KEPT + 8}")
    assert state.legal_actions() == ["give nobody", "give seat 0", "give seat 1"]


RECORDS = """\
id: mini
name: Mini
players: {min: 2, max: 2}
components:
  - kind: card
    start: deck
    items:
      - {id: spark}
      - {id: dud, copies: 2}
zones:
  - {id: deck, visibility: public}
play: |
  x = choose "take" from [{card: c, way: "up"} for c in deck] + [{way: "up", card: c} for c in deck]
  y = choose "give" from [{card: c} for c in deck] + [{who: p} for p in players()]
"""


def test_options_made_of_the_same_values_print_alike_only_where_their_fields_print_alike(tmp_path):
    """A record's id is kept by its values when they alone say how it prints: fields in the order written, and
    a card's index and a player's (both numbers) never taken one for the other.  Copies of a card merge into one
    option; equal records written in another order print apart, and stay two options."""
    state = load_game(write_game_text(tmp_path, RECORDS)).new_game(players=2)
    assert state.legal_actions() == ["take spark up", "take dud up", "take up spark", "take up dud"]
    state.apply("take up dud")
    assert state.legal_actions() == ["give spark", "give dud", "give seat 0", "give seat 1"]


@pytest.mark.parametrize("reference", [False, True])
def test_an_item_that_may_be_none_is_still_checked_where_a_field_is_read(tmp_path, reference):
    """Items of a list written out of records are never none; a list that may hold none is checked where a
    field is read: reading a field of none is the rules' error at its line."""
    fine = 'n = size([r.a for r in [{a: 1}, {a: 2}] if r.a > 1])\nx = choose "go" from [1]\n'
    assert load_game(write_game(tmp_path / "fine", fine), reference=reference).new_game(players=2).vars["n"] == 1
    path = write_game(tmp_path / "none", "n = size([r.a for r in [{a: 1}, item([none, {a: 2}], 0)]])\n")
    with pytest.raises(RuntimeRuleError) as info:
        load_game(path, reference=reference).new_game(players=2)
    assert (info.value.diagnostic.line, "no record to read 'a' of") == (
        9,
        info.value.diagnostic.message.split(" (in")[0],
    )


SEAT_LOOP = """\
id: mini
name: Mini
players: {min: 2, max: 2}
player_variables:
  points: {type: int}
play: |
  for p in players():
      p.points = p.points + 1
  x = choose "go" from [1]
"""


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("store", ["", "    p = none\n"])
def test_a_loop_variable_is_checked_for_none_once_its_body_stores_into_it(tmp_path, reference, store):
    """A loop over players() gives no none; a body that stores none into the loop variable and then reads its
    player variables is the rules' E701 at its line."""
    text = SEAT_LOOP.replace("  for p in players():\n", "  for p in players():\n  " + store)
    game = load_game(write_game_text(tmp_path, text), reference=reference)
    if not store:
        assert [pv["points"] for pv in game.new_game(players=2).pvars] == [1, 1]
        return
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(players=2)
    d = info.value.diagnostic
    assert (d.code, d.line, d.message.split(" (in")[0]) == ("E701", 9, "no player to read 'points' of")


INLINED = """\
id: mini
name: Mini
players: {min: 2, max: 2}
variables:
  n: {type: int}
  got: {type: "list[int]"}
functions:
  - id: twice
    params: {x: int}
    returns: int
    value: x + x
  - id: ignore
    params: {x: int}
    returns: int
    value: n
  - id: count_down
    params: {x: int}
    returns: int
    value: 0 if x <= 0 else count_down(x - 1) + 1
play: |
  n = 3
  got = [twice(twice(n + 1)), twice(random_from([10, 20, 30, 40])), ignore(n * 2), count_down(40)]
  LAST
  x = choose "go" from [1]
"""


@pytest.mark.parametrize("reference", [False, True])
def test_a_function_evaluates_each_argument_once(tmp_path, reference):
    """An argument that draws at random is drawn once though the body reads it twice, one the body never reads
    still fails as the call's would, and a function calls itself.  Both paths agree."""
    game = load_game(write_game_text(tmp_path / "fine", INLINED.replace("LAST", "n = n")), reference=reference)
    state = game.new_game(players=2, seed=4)
    drawn = [e for e in state.history if e.get("chance") == "random"]
    assert len(drawn) == 1
    assert state.vars["got"] == [16, 2 * [10, 20, 30, 40][drawn[0]["index"]], 3, 40]
    failing = INLINED.replace("LAST", "n = ignore(first([]) + 1)")
    with pytest.raises(RuntimeRuleError) as info:
        load_game(write_game_text(tmp_path / "failing", failing), reference=reference).new_game(players=2)
    assert (info.value.diagnostic.code, info.value.diagnostic.line) == ("E702", 23)


MEMO = """\
id: mini
name: Mini
players: {min: 2, max: 2}
variables:
  n: {type: int}
  got: {type: "list[int]"}
player_variables:
  points: {type: int}
functions:
  - id: now
    returns: int
    value: "sum([n for x in [1]]) + 10 * sum([p.points for p in players()])"
play: |
  seen = [now()]
  n = n + 1
  seen = seen + [now()]
  if n > 0:
      n = n + 1
  seen = seen + [now()]
  repeat 2:
      seen = seen + [now()]
      n = n + 1
  for p in players():
      seen = seen + [now()]
      p.points = p.points + 1
  while now() < 25:
      seen = seen + [now()]
      n = n + 1
  got = seen + [now()]
  x = choose "go" from [1]
"""


@pytest.mark.parametrize("reference", [False, True])
def test_a_function_called_again_after_the_state_changed_sees_the_change(tmp_path, reference):
    """A function's values are kept between two calls only while nothing changed the state: a variable
    set, in a branch or in a loop's round, a player variable set in a loop over the seats."""
    game = load_game(write_game_text(tmp_path, MEMO), reference=reference)
    assert game.new_game(players=2).vars["got"] == [0, 1, 2, 2, 3, 4, 14, 24, 25]
