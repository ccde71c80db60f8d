"""Outcomes: a game ends in wins, losses or a draw, with the reason the rules give, and its returns."""

import random

import pytest
from test_language import make_game

from engine import load_game
from engine.lab.simulate import simulate

LEVEL = """\
ties: {ties}
variables:
  turns: {{type: int}}
play: |
  while turns < 3:
      x = choose "tick" from [1, 2] by item(players(), turns % num_players)
      turns = turns + 1
  end_game "three ticks"
scoring:
  - id: nothing
    points: "0"
"""

FIRST_WINS = """\
play: |
  x = choose "go" from [1]
  end_game "seat 0 went"
scoring:
  - id: first
    points: "1 if seat_number(p) == 0 else 0"
"""


def test_level_seats_draw_when_the_rules_say_so(tmp_path):
    """With `ties: draw`, seats still level after the tie-breakers draw: no winner, returns all 0."""
    game = make_game(tmp_path, LEVEL.format(ties="draw"))
    st = game.new_game(players=2)
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    assert st.outcome.results == ("draw", "draw") and st.outcome.is_draw
    assert st.outcome.reason == "three ticks"
    assert st.winners == [] and st.returns() == [0.0, 0.0]
    assert st.view(1)["outcome"] == {"results": ["draw", "draw"], "winners": [], "reason": "three ticks"}


def test_level_seats_share_the_win_by_default(tmp_path):
    """Without `ties`, level seats share the win (as Cat Town's rulebook says): all win, returns 0."""
    game = make_game(tmp_path, LEVEL.format(ties="shared"))
    st = game.new_game(players=3)
    while not st.is_terminal:
        st.apply(st.legal_actions()[-1])
    assert st.outcome.results == ("win", "win", "win") and not st.outcome.is_draw
    assert st.winners == [0, 1, 2] and st.returns() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_are_zero_sum_and_plus_minus_one_for_two(tmp_path, players):
    """One winner of n: n-1 for the winner, -1 for each other seat; two players: +1/-1."""
    st = make_game(tmp_path / str(players), FIRST_WINS).new_game(players=players)
    st.apply("go 1")
    assert st.outcome.results == ("win",) + ("loss",) * (players - 1)
    assert st.returns() == [players - 1.0] + [-1.0] * (players - 1) and sum(st.returns()) == 0
    assert st.outcome.reason == "seat 0 went"


def test_simulate_counts_draws_apart_and_never_as_wins(tmp_path):
    """simulate: a drawn game is in `draws`, in no seat's wins; games are counted by end reason."""
    game = make_game(tmp_path, LEVEL.format(ties="draw"))
    r = simulate(game, 2, 20, seed=5)
    assert r["draws"] == 20 and r["wins"] == [0, 0] and r["ties"] == 0
    assert r["end_reasons"] == {"three ticks": 20}


def test_unfinished_game_has_no_outcome():
    st = load_game("caty-mini").new_game(players=2, seed=1)
    assert st.outcome is None and st.winners == [] and st.returns() == [0.0, 0.0]


def test_caty_mini_level_on_points_and_string_share_the_win():
    """Ruling level-after-string: seats level on tokens and on string left share the win."""
    game = load_game("caty-mini")
    st = game.new_game(players=3, seed=4)
    rnd = random.Random(4)
    while not st.is_terminal:
        st.apply(rnd.choice(st.legal_actions()))
    assert st.outcome.reason == "all rounds played"
    for seat in range(3):  # give every token back and make the strings equal
        for c in list(st.zones[f"won:{seat}"]):
            st.zones[f"won:{seat}"].remove(c)
            st.zones[f"token_pile:{game.attributes['toy'][c]}"].append(c)
            st.loc[c] = f"token_pile:{game.attributes['toy'][c]}"
        st.pvars[seat]["string"] = 100
    st.pvars[2]["string"] = 99
    assert st.scores == [0, 0, 0]
    assert st.outcome.results == ("win", "win", "loss") and st.winners == [0, 1]
    assert st.returns() == [0.5, 0.5, -1.0]
