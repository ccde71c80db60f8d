"""A game loaded with ``vm=True`` keeps the whole ``State`` API while the native VM runs its rules.

What a tool author reads of a state — legal actions, who acts, views, logs, histories, copies, saves,
outcomes — is the reference interpreter's, decision by decision; a caller that changes a field runs the
game on in Python and its next decision goes back to the VM; a step the VM fails is played by the
reference, whose words the error has (explicit chance: test_chance_on_vm.py).
"""

from __future__ import annotations

import copy
import json
import operator
import pickle
import random
import threading

import pytest
from language_helpers import write_game
from test_vm_differential import YARD, mini

from engine import IllegalAction, TabletopError, load_game
from engine.bots import make_agent
from engine.errors import Diagnostic, RuntimeRuleError, StateError
from engine.lab.simulate import play_out
from engine.runtime import observe
from engine.runtime.state import State

pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

GAMES = [("caty-mini", None), ("cat-town", "advanced"), ("goofspiel", None), ("liars-dice", None), ("whist", None)]


def looks(st) -> dict:
    """Everything a tool may read of a state without changing it."""
    seats = range(st.n)
    return {
        "to_act": st.to_act,
        "current": st.current_player,
        "terminal": st.is_terminal,
        "legal": [st.legal_actions(s) for s in seats] + [st.legal_actions()],
        "indices": st.legal_action_indices(),
        "asked": [st.asked(s) for s in seats],
        "views": [st.view(s) for s in seats] + [st.view(None)],
        "logs": [st.visible_log(s) for s in seats] + [st.log],
        "histories": [st.history_for(s) for s in seats],
        "decisions": [st.decision_for(s) for s in seats],
        "hidden": [st.hidden_from(s) for s in seats],
        "actions": st.actions,
        "pending": st.pending,
        "data": st.to_data(),
    }


@pytest.mark.parametrize("name, variant", GAMES, ids=[f"{n}-{v or 'base'}" for n, v in GAMES])
def test_a_state_on_the_vm_reads_as_the_reference_at_every_decision(name, variant):
    on_vm, reference = load_game(name, variant, vm=True), load_game(name, variant, reference=True)
    players = on_vm.max_players
    st, ref = on_vm.new_game(players, 3), reference.new_game(players, 3)
    assert st.vm is not None and ref.vm is None
    rnd = random.Random(3)
    for step in range(400):
        assert looks(st) == looks(ref), f"decision {step}"
        if ref.is_terminal:
            break
        if step % 5 == 0:
            seat = rnd.choice(ref.to_act)
            assert st.determinized(seat, step).to_data() == ref.determinized(seat, step).to_data()
            assert st.clone().to_data() == ref.clone().to_data()
            assert st.clone(log=False).to_data() == ref.clone(log=False).to_data()
        seat = rnd.choice(ref.to_act)
        action = rnd.choice(ref.legal_actions(seat))
        st.apply(action, seat=seat)
        ref.apply(action, seat=seat)
    assert st.is_terminal and st.vm is not None, "the game ran on the VM to its end"
    assert (st.outcome, st.scores, st.returns(), st.winners) == (ref.outcome, ref.scores, ref.returns(), ref.winners)
    assert pickle.loads(pickle.dumps(st)) == st and st.game.state_from_json(st.to_json()) == st


def test_an_illegal_action_is_refused_in_the_references_words_and_changes_nothing():
    st, ref = load_game("caty-mini", vm=True).new_game(2, 1), load_game("caty-mini", reference=True).new_game(2, 1)
    before = st.to_data()
    for action, seat in (("no such move", None), (st.legal_actions()[0], 1 - st.current_player), ("x", -1)):
        with pytest.raises(IllegalAction) as on_vm:
            st.apply(action, seat=seat)
        with pytest.raises(IllegalAction) as on_reference:
            ref.apply(action, seat=seat)
        assert (str(on_vm.value), on_vm.value.legal) == (str(on_reference.value), on_reference.value.legal)
    assert st.to_data() == before


def test_a_variable_changed_by_hand_plays_on_from_the_change_and_goes_back_to_the_vm():
    st = load_game("caty-mini", vm=True).new_game(2, 2)
    ref = load_game("caty-mini", reference=True).new_game(2, 2)
    for state in (st, ref):
        state.pvars[0]["string"] = 5
    assert st.vm is None  # a field handed out: the game runs on in Python
    rnd = random.Random(2)
    while not ref.is_terminal:
        action = rnd.choice(ref.legal_actions())
        st.apply(action)
        ref.apply(action)
        assert st.vm is not None and st.to_data() == ref.to_data()
    assert st.scores == ref.scores


def test_a_state_and_its_copies_keep_their_game_seats_sight_and_seed_off_the_vm_and_back():
    game = load_game("cat-town", vm=True)
    st = game.new_game(3, 4)
    copies = [st.clone(), st.clone(log=False), st.determinized(1, 9)]
    for state, seed in zip([st, *copies], [4, 4, 4, 9]):
        assert state.seed == seed and state.to_data()["seed"] == seed
        state.pvars[0]["notes"] = 1  # a field handed out: the game runs on in Python
        assert state.vm is None and type(state) is State
        assert (state.game, state.n, state.sight, state.on_python, state.seed) == (game, 3, game.sight(3), False, seed)
        assert [state.view(s) for s in range(3)]  # read by what each seat sees
        state.apply(state.legal_actions()[0])
        assert state.vm is not None  # back on the VM
        assert (state.game, state.n, state.sight, state.on_python, state.seed) == (game, 3, game.sight(3), False, seed)
        assert type(state) is type(st.clone())


def test_a_seed_set_by_hand_is_the_states_own_and_the_game_plays_on_from_it():
    game = load_game("cat-town", vm=True)
    st = game.new_game(2, 4)
    st.seed = 12
    assert st.seed == 12 and st.to_data()["seed"] == 12
    st.apply(st.legal_actions()[0])
    assert st.vm is not None and st.seed == 12 and st.clone().seed == 12
    again = game.state_from_json(st.to_json())
    assert again.vm is not None and again.seed == 12 and again.to_data() == st.to_data()


def test_a_fault_set_by_hand_stops_the_game_in_python_with_it():
    st = load_game("cat-town", vm=True).new_game(2, 4)
    fault = Diagnostic("rules/cat-town/game.yaml", 3, 5, "E701", "stopped by a tool")
    st.fault = fault
    assert st.vm is None and st.fault == fault and st.clone().fault == fault
    with pytest.raises(StateError) as refused:
        st.apply(st.legal_actions()[0])
    assert (
        str(refused.value) == "this game stopped on a rule error: rules/cat-town/game.yaml:3:5: E701 stopped by a tool"
    )
    assert st.vm is None  # a stopped game does not go back to the VM


class _Seat(int):
    """A seat number of a tool's own int type."""


@pytest.mark.parametrize("backend", ["vm", "reference"])
def test_a_seat_is_a_number_of_the_table_on_either_backend(backend):
    st = load_game("cat-town", vm=backend == "vm", reference=backend == "reference").new_game(2, 4)
    assert (st.vm is not None) == (backend == "vm")
    for seat in (True, False, -1, 2, "0", 0.0):
        for read in (lambda s: st.determinized(s, 1), st.view, st.history_for):
            with pytest.raises(TabletopError, match=f"no seat {seat!r}: seats are 0…1"):
                read(seat)
    with pytest.raises(TabletopError, match="no seat None"):
        st.determinized(None, 1)
    assert st.determinized(_Seat(1), _Seat(5)).to_data() == st.determinized(1, 5).to_data()
    assert st.view(_Seat(0)) == st.view(0)


def test_a_field_set_by_hand_plays_on_from_the_change():
    st = load_game("caty-mini", vm=True).new_game(2, 2)
    assert st.vm is not None
    st.pending = None  # a test's way to end a game where it stands
    assert st.vm is None and st.is_terminal and st.legal_actions() == []


def test_a_field_never_changed_in_place_is_read_and_the_game_stays_on_the_vm():
    st = load_game("caty-mini", vm=True).new_game(2, 2)
    ref = load_game("caty-mini", reference=True).new_game(2, 2)
    assert (st.pending, st.history, st.reason) == (ref.pending, ref.history, ref.reason)
    assert st.vm is not None
    assert st.zones == ref.zones  # handed out: it may be changed in place
    assert st.vm is None


def test_a_history_is_saved_with_the_references_keys_in_its_order():
    """A secret decision's entry reads seat, action, kind, secret in the saved text on either backend."""
    st, ref = load_game("cat-town").new_game(2, 0), load_game("cat-town", vm=False).new_game(2, 0)
    moves = random.Random(0)
    for _ in range(12):
        action = moves.choice(ref.legal_actions())
        st.apply(action)
        ref.apply(action)
    keys = [[list(entry) for entry in json.loads(s.to_json())["history"]] for s in (st, ref)]
    assert ["seat", "action", "kind", "secret"] in keys[1] and keys[0] == keys[1]


NO_SPACE = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 2}
boards:
  - {id: yard, files: [board.yaml]}
variables:
  p: {type: position}
play: |
  p = choose "claim" from spaces(yard)
  p = first([x for x in spaces(yard) if row(yard, x) > 5])
  log "{neighbours(yard, p)}"
"""


def test_a_step_the_vm_fails_is_the_references_fault_in_its_words(tmp_path):
    """A board operation given none faults on both backends, in other words on the VM; a tool author reads the
    reference's, located alike, and the game stays stopped on it."""
    path = write_game(tmp_path, NO_SPACE)
    (path.parent / "board.yaml").write_text(YARD, encoding="utf-8")
    faults = []
    for game in (load_game(path, vm=True), load_game(path, reference=True)):
        st = game.new_game(players=2)
        claim = st.legal_actions()[0]
        with pytest.raises(RuntimeRuleError) as fault:
            st.apply(claim)
        faults.append(fault.value.diagnostic)
        with pytest.raises(StateError, match="this game stopped on a rule error"):
            st.apply(claim)
    assert faults[0] == faults[1] and "board 'yard' has no space None" in faults[0].message


def test_a_game_the_vm_stopped_on_a_rule_error_keeps_its_fault_in_its_copies_and_refuses_every_step(tmp_path):
    """Where the reference cannot play the failed step again (a save whose history does not replay), the game
    stops on the VM: its fault is the VM state's, as the reference's is its own, in every copy (clones and a
    determinized one) and after it leaves the VM; every further step is refused with the reference's words."""
    path = write_game(
        tmp_path, NO_SPACE.replace("  p = first(", '  p = choose "again" from spaces(yard)\n  p = first(')
    )
    (path.parent / "board.yaml").write_text(YARD, encoding="utf-8")
    seen = []
    for game in (load_game(path, vm=True), load_game(path, reference=True)):
        data = game.new_game(players=2).to_data()
        data["history"] = [{"seat": 0, "action": "nowhere"}]
        st = game.state_from_json(json.dumps(data))
        st.apply(st.legal_actions()[0])
        claim = st.legal_actions()[0]
        with pytest.raises(RuntimeRuleError) as fault:
            st.apply(claim)
        on_vm = st.vm is not None
        copies = [st.clone(), st.clone(log=False)]
        refusals = []
        for state, step in [(st, (claim,)), (st, (claim, 5)), (st, (3,)), (copies[0], (claim,))]:
            with pytest.raises(StateError, match="this game stopped on a rule error: ") as refused:
                state.apply(*step)
            refusals.append(str(refused.value))
        copies[1].pvars[0]["notes"] = 1  # a field handed out: a copy on the VM leaves it
        assert copies[1].vm is None
        with pytest.raises(StateError) as refused:
            copies[1].apply(claim)
        refusals.append(str(refused.value))
        seen.append((on_vm, fault.value.diagnostic, [c.fault for c in [st, *copies, st.determinized(0, 3)]], refusals))
    (on_vm, fault, faults, refusals), reference = seen
    assert on_vm and not reference[0]
    assert faults == [fault] * 4 and (fault, faults, refusals) == reference[1:]
    assert refusals == [f"this game stopped on a rule error: {fault.format(with_context=False)}"] * 5


def test_a_bots_search_on_a_copy_the_vm_runs_chooses_as_on_the_reference_and_leaves_the_copy_as_it_was():
    """The search copies a state the VM runs there, not through a save: the same choice, the copy untouched."""
    game, reference = load_game("cat-town", vm=True), load_game("cat-town", reference=True)
    st, ref = game.new_game(2, 3), reference.new_game(2, 3)
    for _ in range(4):
        seat = st.current_player
        copy, ref_copy = st.determinized(seat, 9), ref.determinized(seat, 9)
        before = copy.to_data()
        chosen = make_agent("mcts:60", seed=5).search(copy, seat)
        assert copy.vm is not None and chosen == make_agent("mcts:60", seed=5).search(ref_copy, seat)
        assert copy.to_data() == before
        st.apply(chosen)
        ref.apply(chosen)


def test_a_game_begun_in_one_thread_plays_on_in_another():
    """A server makes a table's game where a request comes in and plays it where the next one does: the state,
    and the game the VM loaded for it, are used from each thread alike (never at once: the GIL orders them)."""
    game, reference = load_game("caty-mini"), load_game("caty-mini", reference=True)
    st, ref = game.new_game(2, 4), reference.new_game(2, 4)
    seen: list = []

    def play_a_decision() -> None:
        try:
            action = st.legal_actions()[0]
            st.apply(action)
            ref.apply(action)
            seen.append((st.view(0), st.clone().to_data()))
        except BaseException as exc:  # a failure in the thread, read by the test
            seen.append(exc)

    for _ in range(3):
        thread = threading.Thread(target=play_a_decision)
        thread.start()
        thread.join()
    assert st.vm is not None and seen[-1] == (ref.view(0), ref.to_data())


def test_an_observation_or_a_turn_read_at_every_decision_keeps_the_game_on_the_vm():
    """An RL adapter encodes what the deciding seat knows at every step, and the lab reads the rules' `turn:`:
    both only read the state, so its game stays on the VM (leaving it costs a save and a load each step)."""
    game, python = load_game("cat-town"), load_game("cat-town", vm=False)
    st, twin = game.new_game(2, 4), python.new_game(2, 4)
    seen, past = observe.encoding(game, 2), observe.information_encoding(game, 2, 100)
    for _ in range(30):
        seat = st.current_player
        assert (seen.encode(st, seat) == seen.encode(twin, seat)).all()
        assert (past.encode(st, seat) == past.encode(twin, seat)).all()
        assert observe.known_cards(st, seat) == observe.known_cards(twin, seat)
        assert game.turn(st, {"me": seat}) == python.turn(twin, {"me": seat})
        assert st.vm is not None
        action = st.legal_actions()[0]
        st.apply(action)
        twin.apply(action)


def seen_by_each(st, encoding) -> list:
    """All a seat, then an onlooker, reads of a state: its view, log, history, decision, options, observation."""
    seen = []
    for seat in range(st.n):
        seen += [st.view(seat), st.visible_log(seat), st.history_for(seat), st.decision_for(seat), st.asked(seat)]
        seen += [encoding.encode(st, seat).tolist(), observe.known_cards(st, seat), st.hidden_from(seat)]
    return [*seen, st.view(None), st.log, st.actions]


@pytest.mark.parametrize(
    "name, players", [("caty-mini", 2), ("cat-town", 2), ("cat-town", 4), ("cats-mansion", 3), ("liars-dice", 3)]
)
def test_what_every_seat_reads_of_a_game_on_the_vm_is_what_it_reads_on_python_at_every_decision(name, players):
    """The VM hands a reader back only what changed since the decision before: every view, log, history,
    decision and observation is still the one the Python backend gives, seat by seat, decision by decision."""
    game, python = load_game(name), load_game(name, vm=False)
    encoding = observe.encoding(game, players)
    decisions = 0
    for seed in range(3):
        st, twin = game.new_game(players, seed), python.new_game(players, seed)
        rnd = random.Random(seed)
        for _ in range(120):
            assert seen_by_each(st, encoding) == seen_by_each(twin, encoding), f"seed {seed}, decision {decisions}"
            if twin.is_terminal:
                break
            seat = rnd.choice(twin.to_act)
            action = rnd.choice(twin.legal_actions(seat))
            st.apply(action, seat=seat)
            twin.apply(action, seat=seat)
            decisions += 1
        assert st.vm is not None and twin.vm is None
    assert decisions > 100


def test_a_copy_read_at_every_decision_shares_the_zones_no_move_touched_with_the_copy_before():
    """A view read after every move copies the cards of the zones that move changed, not of every zone; a copy
    read earlier keeps the cards as they were when it was read."""
    game = load_game("cat-town")
    st, twin = game.new_game(2, 5), load_game("cat-town", vm=False).new_game(2, 5)
    rnd = random.Random(5)
    shared = 0
    for _ in range(40):
        before = st.for_reading()
        cards_then = {zone: list(cards) for zone, cards in before.zones.items()}
        action = rnd.choice(twin.legal_actions())
        st.apply(action)
        twin.apply(action)
        after = st.for_reading()
        assert after.zones == twin.zones and after.loc == twin.loc
        assert (after.know, after.pinned) == (twin.know, twin.pinned)
        assert before.zones == cards_then, "an earlier copy keeps its cards"
        shared += sum(cards is before.zones[zone] for zone, cards in after.zones.items())
    assert shared > 40 * 10


def values_of(st) -> tuple:
    return st.vars, st.pvars, st.stack, st.pending


def test_a_copy_read_at_every_decision_shares_the_variables_and_waiting_frames_unchanged_with_the_copy_before():
    """Nor does it make again the variables no move changed, the frames waiting for the one that runs, the
    decision's options its frame holds: a copy read earlier keeps them as they were."""
    game = load_game("cat-town")
    st, twin = game.new_game(2, 6), load_game("cat-town", vm=False).new_game(2, 6)
    rnd = random.Random(6)
    shared = {"variables": 0, "frames": 0, "options": 0}
    for _ in range(40):
        before = st.for_reading()
        then = copy.deepcopy(values_of(before))
        action = rnd.choice(twin.legal_actions())
        st.apply(action)
        twin.apply(action)
        after = st.for_reading()
        assert values_of(after) == values_of(twin)
        assert values_of(before) == then, "an earlier copy keeps its values"
        shared["variables"] += (after.vars is before.vars) + sum(map(operator.is_, after.pvars, before.pvars))
        shared["frames"] += sum(map(operator.is_, after.stack, before.stack))
        held = after.stack[-1][2].values()
        shared["options"] += after.pending is not None and any(v is after.pending["values"] for v in held)
    assert min(shared.values()) > 20, shared


def test_a_copy_read_at_every_decision_holds_each_text_made_and_each_loops_place_as_they_are_now(tmp_path):
    """A variable holding a text the rules made while playing, then another such text, and a loop at its next
    item read as they are now: the copy before is not taken as the same for holding a text too, or the loop over
    the same items."""
    play = (
        'for i in range(2):\n    k = choose "pick" from [1, 2]\n    said = "n" + text(k)\nk = choose "end" from [6]\n'
    )
    twin = mini(tmp_path, play, rules="variables:\n  said: {type: text}\n").new_game(2, 1)
    st = load_game(tmp_path / "rules" / "mini" / "game.yaml", vm=True).new_game(2, 1)
    for action in ["pick 1", "pick 2", None]:
        assert (st.for_reading().vars, st.for_reading().stack) == (twin.vars, twin.stack)
        if action:
            st.apply(action)
            twin.apply(action)
    assert st.vm is not None and st.for_reading().vars["said"] == "n2"


def test_the_greedy_bot_rating_options_by_the_rules_values_keeps_the_game_on_the_vm():
    """Rating each option by the rules' `bots: greedy` values only reads the state it is handed."""
    game, python = load_game("cats-mansion"), load_game("cats-mansion", vm=False)
    st, twin = game.new_game(3, 2), python.new_game(3, 2)
    for _ in range(12):
        seat = st.current_player
        on_vm, on_python = make_agent("greedy", seed=seat), make_agent("greedy", seed=seat)
        action = on_vm.act(st.view(seat), st)
        assert action == on_python.act(twin.view(seat), twin)
        assert st.vm is not None
        st.apply(action)
        twin.apply(action)


def test_a_playout_between_bots_that_read_no_view_reads_no_copy_of_the_state_back(monkeypatch):
    """`simulate`'s Python loop and lint's empty-choice check play random bots on the State API: who acts and
    what they may choose are asked of the VM, never read from a copy of the whole state made each decision."""
    copies = []
    real = State.for_reading
    monkeypatch.setattr(State, "for_reading", lambda st: copies.append(1) or real(st))
    game = load_game("cats-mansion")
    state, decisions, _ = play_out(game, 3, 5, [make_agent("random", seed=s) for s in range(3)], 60)
    assert decisions == 60 and state.vm is not None
    assert not copies
