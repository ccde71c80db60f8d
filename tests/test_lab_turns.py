"""Turns as the rules count them: a game may say what a turn is; otherwise a run of one seat's decisions is one."""

import itertools

import pytest
from test_language import make_game

from engine.lab.games import record_game
from engine.runtime.gamedef import load_game


def runs_of_moves(choices: list) -> int:
    """Cats' Mansion's turns by its rulebook: "Whoever is on turn may move any cat and any favourite
    object" (the decisions 'act': steps, hisses, done), then the others' Miau and purr cards, every
    player's swap and the challenge, "Then the next player is on turn."  So each turn opens with a run
    of moves, and only a turn opens one."""
    return sum(kind == "act" for kind, _ in itertools.groupby(c[3] for c in choices))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_cats_mansion_counts_a_turn_for_the_mover_and_the_reactions_to_it(seed):
    game = load_game("cats-mansion")
    rec = record_game(game, 3, seed, ["random"] * 3, limit=2000)
    seats = [seat for seat, _ in itertools.groupby(c[0] for c in rec["choices"])]
    assert len(seats) > rec["turns"]  # others' reactions and swaps fall between a mover's decisions
    assert rec["turns"] == runs_of_moves(rec["choices"])


# Seat 0 bids; seat 1 answers within seat 0's turn; then seat 0 ends it.  Two such turns, one per seat.
ANSWERED = """\
variables:
  current: {type: player, initial: 0}
play: |
  repeat 2:
      x = choose "bid" from [1, 2] by current
      y = choose "answer" from [1, 2] by left_of(current)
      z = choose "close" from [1] by current
      current = left_of(current)
  end_game "over"
"""


def test_a_game_that_says_whose_turn_it_is_counts_its_turns(tmp_path):
    game = make_game(tmp_path / "a", ANSWERED + "turn: current\n")
    assert record_game(game, 2, 1, ["random"] * 2)["turns"] == 2


def test_without_a_word_from_the_game_each_run_of_one_seats_decisions_is_a_turn(tmp_path):
    """The seats take turns deciding here, so each decision is a turn of its own: six where the game,
    told, counts two."""
    game = make_game(tmp_path / "b", ANSWERED)
    assert record_game(game, 2, 1, ["random"] * 2)["turns"] == 6


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 7), (3, 2), (4, 3)])
def test_caty_mini_counts_the_rulebooks_twelve_rounds_of_one_turn_a_player(players, seed):
    """Caty Mini's rulebook: "The game lasts 12 rounds"; in each the marker holder lays a tile and runs, then
    each player to the left runs ("The player's turn ends. The player sitting to the left begins their
    turn"), and "the round ends when all players have taken their move"."""
    rec = record_game(load_game("caty-mini"), players, seed, ["random"] * players)
    assert (rec["turns"], rec["rounds"]) == (12 * players, 12)
