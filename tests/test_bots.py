"""Bots by name: specs, greedy on any game with scoring, and information-set MCTS."""
import pytest

from engine import TabletopError, load_game
from engine.bots import BotSpecError, make_agent
from engine.simulate import bot_inputs, simulate
from test_language import make_game

# Take 1 or 2 stones; who takes the last one wins.  From 5 the winning move is to take 2.
NIM = """\
constants:
  start: 5
variables:
  stones: {type: int, initial: start}
  last: {type: int}
play: |
  turn = 0
  while stones > 0:
      x = choose "take" from [1, 2] where it <= stones by item(players(), turn % num_players)
      stones = stones - x
      last = turn % num_players
      turn = turn + 1
  end_game "no stones left"
scoring:
  - id: took-last
    points: "1 if seat_number(p) == last else 0"
"""


def decide(game, spec, seed=0):
    state = game.new_game(players=2, seed=seed)
    bot = make_agent(spec, seed=seed, game=game)
    return bot.act(*bot_inputs(state, 0, bot))


@pytest.mark.parametrize("spec, message", [
    ("minimax", "unknown bot 'minimax'"), ("random:3", "takes no parameter"),
    ("mcts:lots", "expected iterations"), ("mcts:0", "expected iterations")])
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_agent(spec)


def test_mcts_finds_the_winning_move(tmp_path):
    game = make_game(tmp_path, NIM)
    assert all(decide(game, "mcts:300", seed) == "take 2" for seed in range(3))


def test_greedy_looks_ahead_on_the_scoring_when_the_rules_give_no_values(tmp_path):
    """From 2 stones, taking both wins at once: greedy sees it by playing each option on a copy."""
    game = make_game(tmp_path, NIM.replace("start: 5", "start: 2"))
    assert not game.bot_values
    assert all(decide(game, "greedy", seed) == "take 2" for seed in range(20))


def test_greedy_without_values_or_scoring_is_a_clear_error(tmp_path):
    game = make_game(tmp_path, 'play: |\n  x = choose "go" from [1]\n')
    with pytest.raises(TabletopError, match="neither a `bots: greedy` value nor `scoring`"):
        simulate(game, 2, 1, bots="greedy")


def test_mcts_beats_random_at_caty_mini():
    """A small budget, seats alternated, fixed seeds: the search wins most games (bigger runs:
    tools/bot_strength.py)."""
    game = load_game("caty-mini")
    first = simulate(game, 2, 2, seed=0, bots=["mcts:12", "random"])
    second = simulate(game, 2, 2, seed=100, bots=["random", "mcts:12"])
    assert first["wins"][0] + second["wins"][1] >= 3
