"""Choosing several things at once: ``kept = choose "keep" several 0 to 5 from dice``.

The option is a list; its members are in the order of their ids, so an id names what is kept
(``keep 2, 6, 6``), two ways that print alike are one option, and the action space, listed from
the items' possible values, holds every id a decision offers.
"""

from __future__ import annotations

import random

import pytest
from language_helpers import assert_located, write_game

from engine import load_game

DICE = """\
id: dice
name: Dice
players: {min: 2, max: 2}
player_variables:
  score: {type: int}
play: |
  for p in players():
      dice = [random_from(range(1, 7)) for i in range(5)]
      repeat 2:
          kept = choose "keep" several 0 to 5 from dice by p
          dice = kept
          repeat 5 - size(kept):
              dice = dice + [random_from(range(1, 7))]
      p.score = max([size([d for d in dice if d == face]) * 10 + face for face in range(1, 7)])
  end_game
scoring:
  - {id: best-set, points: p.score}
"""


def test_keeping_dice_offers_each_kept_set_once_by_its_ids(tmp_path):
    state = load_game(write_game(tmp_path, DICE)).new_game(players=2, seed=3)
    ids = state.legal_actions()
    assert len(ids) == len(set(ids)) and "keep nothing" in ids
    kept = [sorted(i[len("keep ") :].split(", ")) for i in ids if i != "keep nothing"]
    assert all(k == sorted(k) for k in kept)  # members in id order: the id names what is kept


def test_both_paths_play_the_same_games_and_stay_in_the_action_space(tmp_path):
    path = write_game(tmp_path, DICE)
    fast, slow = load_game(path), load_game(path, reference=True)
    space = set(fast.action_space(2))
    for seed in range(12):
        a, b = fast.new_game(players=2, seed=seed), slow.new_game(players=2, seed=seed)
        rnd = random.Random(seed)
        for _ in range(10):  # two seats, two keeps each: the game ends within these decisions
            assert a.legal_actions() == b.legal_actions()
            if a.is_terminal:
                break
            assert set(a.legal_actions()) <= space
            action = rnd.choice(a.legal_actions())
            a.apply(action)
            b = slow.state_from_json(b.to_json())  # a list option goes to JSON and back
            b.apply(action)
        assert a.is_terminal and a.to_json() == b.to_json()


def test_a_kept_list_is_the_value_chosen(tmp_path):
    text = DICE.replace("dice = [random_from(range(1, 7)) for i in range(5)]", "dice = [6, 2, 6, 1, 3]")
    state = load_game(write_game(tmp_path, text)).new_game(players=2)
    assert "keep 6, 6" in state.legal_actions() and "keep 1, 2, 3, 6, 6" in state.legal_actions()
    assert len(state.legal_actions()) == 24  # 2^5 ways, the two sixes alike: 3 × 2^3
    state.apply("keep 6, 6")
    assert "keep 6, 6" in state.legal_actions()  # the two sixes are kept, three dice rolled again


def test_cards_need_no_bound_and_players_pick_a_subset_of_a_zone(tmp_path):
    text = """\
    id: mini
    name: Mini
    players: {min: 2, max: 2}
    components:
      - kind: chip
        start: box
        items: [{id: a}, {id: b}, {id: c}]
    zones:
      - {id: hand, per: player, visibility: owner}
      - {id: pile, visibility: public}
      - {id: box, visibility: public}
    play: |
      move_all(box, hand(me))
      given = choose "give" several from hand(me) where it.id != "c"
      for c in given:
          move(c, pile)
      end_game
    """
    game = load_game(write_game(tmp_path, text))
    state = game.new_game(players=2)
    assert state.legal_actions() == ["give nothing", "give a", "give b", "give a, b"]
    assert set(state.legal_actions()) <= set(game.action_space(2))
    state.apply("give a, b")
    assert [c["id"] if isinstance(c, dict) else c for c in state.view(0)["zones"]["pile"]] == ["a", "b"]


@pytest.mark.parametrize(
    "old, new, said",
    [
        ("several 0 to 5 from", "several from", "how many may be chosen: write 'several A to B'"),
        ("several 0 to 5 from", 'several 0 to "5" from', "how many to choose must be a number"),
    ],
)
def test_misuse_is_located(tmp_path, old, new, said):
    assert_located(tmp_path, DICE, "kept = choose", said, old, new)
