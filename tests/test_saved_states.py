"""Reading a saved state is total: any JSON is a working state of the game or a one-line StateError.

Saves of every shipped game and variant, taken at random points of random games, are mutated
(keys deleted, values replaced by other JSON, cards swapped between zones, pending decisions
forged); each mutant must be refused in one line, or keep every invariant and play on.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table import GAMES

from engine import StateError, TabletopError, load_game
from engine.lab.conformance import check_state

_SAVES: dict = {}
# Goofspiel's bids are simultaneous: its saves hold joint decisions, some seats having chosen.
SAVED = GAMES + [("goofspiel", None)]
SHORT = {"goofspiel": 33}  # stop mid-game, where (seed 0) two seats of three have bid


def _saves(name, variant):
    """A few states of random games at random points (and at their end), as JSON data."""
    key = (name, variant)
    if key not in _SAVES:
        game = load_game(name, variant=variant)
        saves = []
        for seed in range(3):
            rnd = random.Random(seed)
            state = game.new_game(players=rnd.randint(game.min_players, game.max_players), seed=seed)
            stop = rnd.randrange(SHORT.get(name, 400)) if seed < 2 else None
            step = 0
            while not state.is_terminal and step != stop:
                state.apply(rnd.choice(state.legal_actions()))
                step += 1
            saves.append(json.loads(state.to_json()))
        _SAVES[key] = (game, saves)
    return _SAVES[key]


DEEP = {
    "\u0000deep": '[{"a": ' * 1500 + "0" + "}]" * 1500,
    "\u0000deep-list": "[" * 3000 + "]" * 3000,
    "\u0000nested": "[" * 900 + "]" * 900,
}


def _text(data) -> str:
    """The mutant as JSON text, with nesting deeper than json.dumps would write spliced in."""
    text = json.dumps(data)
    for mark, deep in DEEP.items():
        text = text.replace(json.dumps(mark), deep)
    return text


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from([2**64, -(2**70), 10**4000, "me", "hand:0", 0, 1, -1]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _value(draw, rnd):
    """Another JSON value; now and then one nested deeper than any rule builds."""
    return rnd.choice(sorted(DEEP)) if rnd.random() < 0.05 else draw(JSON)


STRUCTURED = {"zones", "variables", "player_variables", "stack", "pending", "log", "history", "seen", "know"}


def _place(rnd, data):
    """A container, one of its keys and the path there, reached from the root through a few random steps down."""
    box, path = data, []
    while True:
        keys = list(box) if isinstance(box, dict) else list(range(len(box)))
        if box is data:  # the parts with structure are where the mistakes hide
            keys = [k for k in keys if k in STRUCTURED] * 3 + keys
        key = rnd.choice(keys)
        path.append(key)
        inner = box[key]
        if not (isinstance(inner, (dict, list)) and inner) or rnd.random() < (0.1 if box is data else 0.3):
            return box, key, path
        box = inner


def _swap_cards(rnd, data) -> None:
    zones = [z for z in data["zones"].values() if isinstance(z, list) and z] if isinstance(data["zones"], dict) else []
    if len(zones) >= 2:
        a, b = rnd.sample(zones, 2)
        i, j = rnd.randrange(len(a)), rnd.randrange(len(b))
        a[i], b[j] = b[j], a[i]


def _forge_pending(draw, rnd, pending) -> str:
    field = rnd.choice(
        ["player", "player", "ids", "values", "values", "secret", "kind"] + ["together"] * 2 * ("together" in pending)
    )
    if field == "together":  # one seat's choice, or one of its options, forged
        together = pending["together"]
        # an earlier mutation may have deleted or replaced a part: only what is still a list of seats is forged
        lists = ("chosen", "ids", "values")
        parts = [p for p in lists if isinstance(together, dict) and isinstance(together.get(p), list) and together[p]]
        if not parts:
            pending["together"] = _value(draw, rnd)
            return "together"
        part = rnd.choice(parts)
        seat = rnd.randrange(len(together[part]))
        options = together[part][seat]
        if part == "chosen":
            together["chosen"][seat] = rnd.choice([None, 0, 1, -1, 99, "0", True])
        elif isinstance(options, list) and options:
            options[rnd.randrange(len(options))] = _value(draw, rnd)
        else:
            together[part][seat] = _value(draw, rnd)
        return f"together {part}"
    if field == "player":
        pending["player"] = rnd.randrange(-1, 5)
    elif field in ("ids", "values") and isinstance(pending.get(field), list) and pending[field]:
        other = "ids" if field == "values" else "values"
        i = rnd.randrange(len(pending[field]))
        forged = draw(st.integers(0, 120) | st.text(max_size=6)) if rnd.random() < 0.5 else _value(draw, rnd)
        # an option appended, its other half copied (an earlier mutation may have shortened the other list)
        if isinstance(pending.get(other), list) and i < len(pending[other]) and rnd.random() < 0.5:
            pending[other].append(pending[other][i])
            pending[field].append(forged)
        else:
            pending[field][i] = forged
    else:
        pending[field] = _value(draw, rnd)
    return field


class Mutant:
    """A mutated save; it prints as the mutations made, not as the whole save."""

    def __init__(self, game, data, steps):
        self.game, self.data, self.steps = game, data, steps

    def __repr__(self):
        return f"Mutant({self.game.id}, {self.game.variant}, {self.steps})"


@st.composite
def mutants(draw):
    name, variant = draw(st.sampled_from(SAVED))
    game, saves = _saves(name, variant)
    data = json.loads(json.dumps(draw(st.sampled_from(saves))))
    rnd = random.Random(draw(st.integers(0, 2**32)))  # the places to mutate; new values come from strategies
    steps = []
    for _ in range(rnd.randint(1, 3)):
        how = rnd.choice(["delete", "replace", "replace", "swap", "pending"])
        if how == "swap" and "zones" in data:
            _swap_cards(rnd, data)
            steps.append("swap")
        elif how == "pending" and isinstance(data.get("pending"), dict):
            steps.append("pending " + _forge_pending(draw, rnd, data["pending"]))
        elif data:
            box, key, path = _place(rnd, data)
            if how == "delete":
                del box[key]
                steps.append(f"delete {path}")
            else:
                box[key] = _value(draw, rnd)
                steps.append(f"replace {path} by {repr(box[key])[:60]}")
    return Mutant(game, data, steps)


def _plays_on(game, state) -> None:
    """The state keeps every invariant, every seat's view works or fails cleanly (a save may hold what the rules
    cannot score, such as none in a number), and a legal action plays or fails cleanly."""
    try:
        problem = check_state(game, state)
    except TabletopError as exc:
        assert "\n" not in str(exc).strip()
        return
    assert problem is None, problem
    for action in state.legal_actions()[:2]:
        copy = state.clone()
        try:
            copy.apply(action)
        except TabletopError as exc:
            assert "\n" not in str(exc).strip()


@settings(max_examples=600)
@given(mutants())
def test_a_mutated_save_is_refused_in_one_line_or_plays_on(case):
    game, data = case.game, case.data
    try:
        state = game.state_from_json(_text(data))
    except StateError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200, str(exc)
        return
    _plays_on(game, state)


@pytest.mark.parametrize("name,variant", SAVED)
def test_every_unmutated_save_reads_back_equal(name, variant):
    """Guards the mutation test: the saves it starts from are accepted as they are."""
    game, saves = _saves(name, variant)
    for data in saves:
        state = game.state_from_json(json.dumps(data))
        assert json.loads(state.to_json()) == data
        _plays_on(game, state)


def test_a_save_reads_back_through_the_class_of_the_state_it_was_taken_from(caty):
    """``State.from_json`` is a class method: called on a state's own class (on the VM, one of its game's), it
    reads the save as ``GameDef.state_from_json`` does."""
    state = _lay_decision(caty)
    back = type(state).from_json(caty, state.to_json())
    assert back == state and back.legal_actions() == state.legal_actions()
    back.apply(back.legal_actions()[0])
    assert back != state


def _lay_decision(game):
    """A Caty Mini state where seat 0 lays a tile from its hand."""
    state, rnd = game.new_game(players=2, seed=1), random.Random(1)
    while state.pending["kind"] != "lay" or state.current_player != 0:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def test_a_forged_decision_cannot_offer_another_seats_card(caty):
    """Seat 0 is offered seat 1's hand tile, with a well-formed id and value: the rules would not offer it."""
    state = _lay_decision(caty)
    data = json.loads(state.to_json())
    theirs = data["zones"]["hand:1"][0]
    data["pending"]["ids"].append("lay " + caty.card_ids[theirs])
    data["pending"]["values"].append(theirs)
    with pytest.raises(StateError, match="not the one the rules offer"):
        caty.state_from_json(json.dumps(data))


def test_a_decision_forged_for_another_seat_is_refused(caty):
    state = _lay_decision(caty)
    data = json.loads(state.to_json())
    data["pending"]["player"] = 1
    with pytest.raises(StateError, match="not the one the rules offer"):
        caty.state_from_json(json.dumps(data))


MUTATIONS = {  # each once a traceback or a state that failed later
    "frame-name-a-list": lambda d: d["stack"][0].__setitem__(0, ["play"]),
    "frame-local-nested": lambda d: d["stack"][0][2].__setitem__("me", [[0]]),
    "non-string-variant": lambda d: d.__setitem__("variant", {"a": 1}),
    "nested-data-in-seen": lambda d: d["seen"][0].append({"turn": 1, "cards": [[[["x"]]]]}),
    "seen-card-unknown": lambda d: d["seen"][0].append({"turn": 1, "cards": [["hand:0", "no-such-card"]]}),
    "variable-nested-900-deep": lambda d: d["variables"].__setitem__("round", "\u0000nested"),
    "whole-state-3000-deep": lambda d: d.__setitem__("log", "\u0000deep-list"),
    "int-variable-text": lambda d: d["variables"].__setitem__("round", "three"),
    "huge-player": lambda d: d["variables"].__setitem__("marker", 10**4000),
    "secret-without-kind": lambda d: d["history"].append({"seat": 0, "action": "x", "secret": True, "kind": 1}),
    "shuffle-of-no-zone": lambda d: d["history"].append({"chance": "shuffle", "zone": ["deck"]}),
    "unknown-part": lambda d: d.__setitem__("extra", 1),
    "pending-value-nested": lambda d: d["pending"]["values"].__setitem__(0, "\u0000nested"),
}


@pytest.mark.parametrize("how", sorted(MUTATIONS))
def test_a_bad_part_is_one_line(caty, how):
    data = json.loads(_lay_decision(caty).to_json())
    MUTATIONS[how](data)
    with pytest.raises(StateError) as info:
        caty.state_from_json(_text(data))
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_a_decision_with_options_drawn_at_random_reads_back(tmp_path):
    """Options drawn at random cannot be drawn again from the saved generator: who decides is still checked."""
    folder = tmp_path / "rules" / "lucky"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(
        "id: lucky\nname: Lucky\nplayers: {min: 2, max: 2}\n"
        'play: |\n  x = choose "pick" from [random_from([1, 2, 3, 4, 5, 6]), 7]\n',
        encoding="utf-8",
    )
    game = load_game(folder / "game.yaml")
    state = game.new_game(players=2, seed=3)
    assert game.state_from_json(state.to_json()) == state
    data = json.loads(state.to_json())
    data["pending"]["player"] = 1
    with pytest.raises(StateError, match="not the one the rules offer"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("vm", [True, False])
def test_a_local_of_spaces_or_directions_holding_a_text_the_rules_made_reads_back(tmp_path, vm):
    """A text is taken where a direction is wanted (it fails only where it is used), so a record of either
    branch is one type: a save of the game holding the text reads back."""
    folder = tmp_path / "rules" / "walk"
    folder.mkdir(parents=True)
    (folder / "grid.yaml").write_text("id: grid\nkind: grid\ncells: {width: 2, height: 2}\nrooms: []\n")
    (folder / "game.yaml").write_text(
        "id: walk\nname: Walk\nplayers: {min: 2, max: 2}\nboards:\n  - {id: b, files: [grid.yaml]}\n"
        "play: |\n"
        '  step = ({do: direction(b, "a1", "a2"), at: "a1"} if false else {do: "sideways", at: "here"})\n'
        '  x = choose "pick" from [1, 2]\n',
        encoding="utf-8",
    )
    game = load_game(folder / "game.yaml", vm=vm)
    state = game.new_game(players=2, seed=3)
    assert json.loads(state.to_json())["stack"][0][2]["step"] == {"do": "sideways", "at": "here"}
    assert game.state_from_json(state.to_json()) == state
