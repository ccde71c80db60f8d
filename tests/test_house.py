"""A seat run by the rules (``house:``): it plays by a procedure that asks no one anything, is never among the
seats asked, and every player wins, loses or draws against it by points (Blackjack's dealer is the full
example: tests/test_gallery_blackjack.py)."""

from __future__ import annotations

import pytest
from language_helpers import assert_located, write_game

from engine import load_game

BANK = """\
    id: mini
    name: Against the bank
    players: {min: 1, max: 3}
    variables:
      bank: {type: int}
    player_variables:
      n: {type: int}
    house:
      name: Bank
      plays: bank_plays
      points: bank
    play: |
      for p in players():
          p.n = choose "take" from range(0, 4) by p
      bank_plays()
      end_game "the bank has played"
    procedures:
      - id: bank_plays
        does: |
          bank = 2
    scoring:
      - {id: n, points: p.n}
"""


@pytest.mark.parametrize("reference", [False, True])
def test_each_player_wins_draws_or_loses_against_the_house(tmp_path, reference):
    game = load_game(write_game(tmp_path, BANK), reference=reference)
    st = game.new_game(3)
    for take in ("take 3", "take 2", "take 1"):
        st.apply(take)
    assert st.house_points() == 2 and st.outcome.results == ("win", "draw", "loss")
    assert st.returns() == [1.0, 0.0, -1.0] and st.winners == [0]


def test_a_solo_player_can_lose_and_where_the_fewest_win_the_house_wins_with_fewer(tmp_path):
    solo = load_game(write_game(tmp_path, BANK)).new_game(1)
    solo.apply("take 0")
    assert solo.outcome.results == ("loss",) and solo.returns() == [-1.0]
    lowest = load_game(write_game(tmp_path, BANK.replace("    house:", "    winner: lowest\n    house:"))).new_game(1)
    lowest.apply("take 0")
    assert lowest.outcome.results == ("win",)


def test_a_house_that_would_ask_a_decision_is_located(tmp_path):
    text = BANK.replace("          bank = 2\n", '          bank = choose "draw" from [1, 2]\n')
    assert_located(tmp_path, text, "bank = choose", 'the house plays by the rules, but "draw" asks here')
    deal = '      - id: deal\n        does: |\n          bank = choose "card" from [1, 2]\n'
    nested = BANK.replace("          bank = 2\n", "          deal()\n").replace("    scoring:", deal + "    scoring:")
    assert_located(tmp_path, nested, "bank = choose", "(in 'deal', which 'bank_plays' runs)")


def test_a_house_playing_by_no_procedure_is_located_with_a_suggestion(tmp_path):
    assert_located(tmp_path, BANK, "plays: bank_play", "the house plays by 'bank_play', which is no procedure",
                   "plays: bank_plays", "plays: bank_play")  # fmt: skip


def test_a_house_playing_by_a_procedure_with_parameters_is_located(tmp_path):
    text = BANK.replace("      - id: bank_plays\n", "      - id: bank_plays\n        params: {n: int}\n")
    text = text.replace("      bank_plays()\n", "      bank_plays(2)\n")
    assert_located(tmp_path, text, "plays: bank_plays", "which must take no parameters")
