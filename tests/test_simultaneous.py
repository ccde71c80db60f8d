"""Simultaneous decisions on small games that use only them: ``choose … by each p in SEATS simultaneously``.

Every seat of SEATS chooses in secret and in any order; the choices come back together as a
list in the order of SEATS.  Checked on both backends (the VM and the reference), with the
API that says who still has to act, saves made between two choices, the action space, and the
errors a designer or a player can meet.
"""

import json
import random
import textwrap

import pytest
from test_language import HEADER

from engine import IllegalAction, RulesError, RuntimeRuleError, StateError, load_game
from engine.lang.ast import format_block
from engine.lang.parser import parse_program

SHOW = """\
enums:
  signs: [low, mid, high]
variables:
  shown: {type: "list[signs]"}
  rounds: {type: int}
play: |
  repeat 2:
      rounds = rounds + 1
      shown = choose "show" from signs where it != barred(p) by each p in players_from(left_of(me)) simultaneously
      log "shown: {shown}"
functions:
  - id: barred
    params: {p: player}
    returns: signs
    text: the sign a seat may not show this round
    value: item(signs, (seat_number(p) + rounds) % 3)
"""


def make(tmp_path, body: str, reference: bool = False, name: str = "mini"):
    folder = tmp_path / name / "rules" / "mini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return load_game(folder / "game.yaml", reference=reference)


@pytest.fixture(params=[False, True], ids=["vm", "reference"])
def show(request, tmp_path):
    return make(tmp_path, SHOW, reference=request.param)


def test_every_seat_is_asked_at_once_with_its_own_options(show):
    st = show.new_game(players=3)
    assert st.to_act == [0, 1, 2] and st.current_player == 0
    assert st.legal_actions(2) == ["show mid", "show high"]  # round 1: seat s is not offered sign s + 1
    assert st.legal_actions() == st.legal_actions(0) == ["show low", "show high"]
    space = show.action_space(3)
    assert [space[i] for i in st.legal_action_indices(1)] == st.legal_actions(1) == ["show low", "show mid"]


def test_the_choices_come_in_the_order_of_the_seats_whatever_order_they_are_made_in(show):
    """players_from(left_of(0)) does not start at seat 0: the list follows it, not who chose first."""
    st = show.new_game(players=3)
    seats = st.decision_for(0)["seats"]
    assert seats != [0, 1, 2] and sorted(seats) == [0, 1, 2]
    made = {0: "high", 2: "mid", 1: "low"}
    st.apply("show high", seat=0)
    assert st.to_act == [1, 2] and st.current_player == 1
    st.apply("show mid", seat=2)
    assert st.to_act == [1] and not any(line.startswith("shown") for line in st.log)
    st.apply("show low", seat=1)
    assert f"shown: {', '.join(made[s] for s in seats)}" in st.log
    assert st.to_act == [0, 1, 2]  # the second round
    assert st.legal_actions(1) == ["show mid", "show high"]


def test_without_a_seat_an_action_goes_to_the_asked_seat_or_the_one_seat_offering_it(show):
    """So a list of actions replays alone, whoever acted first."""
    st = show.new_game(players=2)
    st.apply("show mid")  # only seat 1 offers it
    assert st.to_act == [0]
    st = show.new_game(players=2)
    st.apply("show low")  # both do: the asked seat
    assert st.to_act == [1]


def test_a_seat_that_is_not_asked_or_has_chosen_is_told_only_who_still_decides(show):
    st = show.new_game(players=2)
    st.apply("show high", seat=0)
    with pytest.raises(IllegalAction) as err:
        st.apply("show low", seat=0)
    assert str(err.value) == "seat 0 has chosen already: seat 1 still deciding" and err.value.legal == []
    with pytest.raises(IllegalAction) as err:
        st.apply("show high", seat=1)
    assert "'show high' is not a legal action for seat 1" in str(err.value) and "show mid" in str(err.value)
    assert st.legal_actions(0) == [] and st.decision_for(0)["chosen"] == "show high"
    assert st.decision_for(1) == {
        "player": 1,
        "kind": "show",
        "secret": True,
        "to_act": [1],
        "seats": [1, 0],
        "actions": ["show low", "show mid"],
    }
    assert "chosen" not in st.decision_for(1) and "high" not in json.dumps(st.view(1))


def test_a_game_saved_between_two_choices_reads_back_and_plays_on_alike(show):
    st = show.new_game(players=3, seed=4)
    st.apply("show mid", seat=2)
    back = show.state_from_json(st.to_json())
    assert back == st and back.to_act == [0, 1]
    rnd = random.Random(1)
    while not st.is_terminal:
        seat = rnd.choice(st.to_act)
        action = rnd.choice(st.legal_actions(seat))
        st.apply(action, seat=seat)
        back.apply(action, seat=seat)
        assert show.state_from_json(st.to_json()) == st
    assert back.to_json() == st.to_json()


@pytest.mark.parametrize(
    "forge, why",
    [
        (lambda p: p["together"]["chosen"].__setitem__(0, 7), "bad choices of a joint decision"),
        (lambda p: p.update(player=2), "bad deciding player"),  # seat 2 has chosen: it cannot be asked
        (lambda p: p["together"]["ids"][0].reverse(), "not the one the rules offer"),
        (lambda p: p["together"]["values"][1].reverse(), "not the one the rules offer"),
        (lambda p: p["together"]["seats"].__setitem__(0, 2), "bad seats of a joint decision"),
        (lambda p: p.pop("together"), "not the one the rules offer"),
    ],
)
def test_a_forged_joint_decision_is_refused_in_one_line(show, forge, why):
    st = show.new_game(players=3, seed=4)
    st.apply("show mid", seat=2)
    data = json.loads(st.to_json())
    forge(data["pending"])
    with pytest.raises(StateError, match=why) as err:
        show.state_from_json(json.dumps(data))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "statement, code, message",
    [
        ('x = choose "a" from [1] by each p in players()', "E505", "go together"),
        ('x = choose "a" from [1] simultaneously', "E505", "go together"),
        ('x = choose "a" from [1] by each p in 3 simultaneously', "E502", "must be a list of"),
        ('x = choose "a" from hand(q) by each p in players() simultaneously', "E50", "q"),
        ('x = choose "a" from [1] by each p in players() optional simultaneously', "E505", "cannot be optional"),
    ],
)
def test_a_badly_written_simultaneous_choice_is_reported_at_its_line(tmp_path, statement, code, message):
    body = f"zones:\n  - {{id: hand, per: player, visibility: owner}}\nplay: |\n  pass\n  {statement}\n"
    with pytest.raises(RulesError) as err:
        make(tmp_path, body)
    text = str(err.value)
    assert code in text and message in text and "game.yaml:8:" in text


@pytest.mark.parametrize("reference", [False, True], ids=["vm", "reference"])
@pytest.mark.parametrize(
    "seats, message",
    [("[me, me]", "asked twice"), ("[p for p in players() if false]", "nobody is to choose")],
)
def test_a_seat_asked_twice_or_nobody_asked_stops_at_the_line(tmp_path, reference, seats, message):
    game = make(tmp_path, f'play: |\n  x = choose "a" from [1] by each p in {seats} simultaneously\n', reference)
    with pytest.raises(RuntimeRuleError, match=message) as err:
        game.new_game(players=2)
    assert "E701" in str(err.value) and "game.yaml:5:3:" in str(err.value)


def test_it_prints_back_as_written():
    text = 'got = choose "take" from hand(p) where it.rank > 2 by each p in players() simultaneously'
    assert format_block(parse_program(text)) == text


def test_a_joint_decision_with_options_drawn_at_random_reads_back_between_two_choices(tmp_path):
    game = make(
        tmp_path,
        'play: |\n  x = choose "pick" from [random_from([1, 2, 3, 4]), 7] by each p in players() simultaneously\n',
    )
    state = game.new_game(players=2, seed=3)
    state.apply("pick 7", seat=1)
    back = game.state_from_json(state.to_json())
    assert back == state and back.to_act == [0]
    data = json.loads(state.to_json())
    data["pending"]["together"]["chosen"] = [None, None]  # seat 1's choice forgotten: not who the rules ask
    data["pending"]["player"] = 1
    assert game.state_from_json(json.dumps(data)).to_act == [0, 1]
    data["pending"]["together"]["seats"] = [1, 0]  # other seats than the rules ask
    with pytest.raises(StateError, match="not the one the rules offer"):
        game.state_from_json(json.dumps(data))


def test_every_option_of_every_seat_is_in_the_action_space():
    """Random goofspiel games, the seats bidding in random order: each seat's legal ids are in the space."""
    game = load_game("goofspiel")
    for players in (2, 3):
        space = game.action_space(players)
        for seed in range(3):
            st, rnd = game.new_game(players=players, seed=seed), random.Random(seed)
            while not st.is_terminal:
                for seat in st.to_act:
                    assert [space[i] for i in st.legal_action_indices(seat)] == st.legal_actions(seat)
                seat = rnd.choice(st.to_act)
                st.apply(rnd.choice(st.legal_actions(seat)), seat=seat)
