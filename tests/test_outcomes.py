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


@pytest.mark.parametrize("engine", ["python", "vm"])
def test_simulate_counts_a_win_level_seats_share_as_a_tie_and_a_teams_win_as_none(tmp_path, engine):
    """Level seats share the win (`ties: shared`): each is credited with it, and the game is one of `ties`; the
    partners of a team that wins together (Whist) are not a tie."""
    game = make_game(tmp_path, LEVEL.format(ties="shared"))
    r = simulate(game, 3, 10, seed=5, engine=engine)
    assert r["ties"] == 10 and r["wins"] == [10, 10, 10] and r["draws"] == 0
    assert r["scores"] == {"mean": [0, 0, 0], "min": [0, 0, 0], "max": [0, 0, 0]}
    whist = simulate(load_game("whist"), 4, 20, seed=5, engine=engine)
    assert whist["ties"] == 0 and whist["finished"] == 20
    assert whist["wins"][0] == whist["wins"][2] and whist["wins"][1] == whist["wins"][3]
    assert whist["wins"][0] + whist["wins"][1] == 20


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


FEWEST = """\
winner: lowest
{tiebreak}
variables:
  taken: {{type: int}}
play: |
  for p in players():
      x = choose "take" from [1, 5] by p
      if x == 5:
          taken = taken + 1
  end_game "everyone took"
scoring:
  - id: penalty
    points: "3 + seat_number(p)"
"""


@pytest.mark.parametrize("reference", [False, True])
def test_with_winner_lowest_the_fewest_points_win_and_points_stay_as_scored(tmp_path, reference):
    """Hearts-like scoring: penalty points stay positive in the scores, and the seat with fewest wins."""
    game = make_game(tmp_path, FEWEST.format(tiebreak=""), reference=reference)
    st = game.new_game(players=3)
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    assert st.scores == [3, 4, 5]
    assert st.outcome.results == ("win", "loss", "loss") and st.returns() == [2.0, -1.0, -1.0]


LEVEL_POINTS = """\
winner: lowest
tiebreakers:
  - id: cards
    value: "seat_number(p)"
    {own}
variables:
  taken: {{type: int}}
play: |
  x = choose "go" from [1]
  end_game "over"
scoring:
  - id: flat
    points: "7"
"""


@pytest.mark.parametrize("own, winner", [("", 0), ("winner: highest", 2)])
def test_a_tie_breaker_follows_the_games_winner_unless_it_says_otherwise(tmp_path, own, winner):
    """Level on points: the tie-breaker's lowest value wins in a lowest game; `winner: highest` on the
    tie-breaker itself turns that round."""
    game = make_game(tmp_path, LEVEL_POINTS.format(own=own))
    st = game.new_game(players=3)
    st.apply(st.legal_actions()[0])
    assert st.winners == [winner]


TAKE = """\
winner: lowest
play: |
  x = choose "take" from [5, 1, 3]
  taken = x
  end_game "taken"
variables:
  taken: {type: int}
scoring:
  - id: taken
    points: "taken if seat_number(p) == 0 else 2"
"""


def test_a_greedy_bot_takes_the_fewest_points_where_the_fewest_win(tmp_path):
    from engine.bots.greedy import GreedyAgent

    game = make_game(tmp_path, TAKE)
    picks = set()
    for seed in range(20):
        st = game.new_game(players=2, seed=seed)
        bot = GreedyAgent(seed)
        bot.explore = 0.0
        picks.add(bot.act(st.view(0), st.determinized(0, seed)))
    assert picks == {"take 1"}
