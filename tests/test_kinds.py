"""Choosing among identical copies: one option per kind (``kinds``), and one card of the chosen kind back
(``card_of``), without the filter-and-first idiom."""

from __future__ import annotations

import pytest
from language_helpers import write_game

from engine import load_game

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2}
components:
  - kind: card
    start: hand
    items: [{id: guard, copies: 3}, {id: king}, {id: priest}]
zones:
  - {id: hand, visibility: public}
  - {id: table, visibility: public}
play: |
  move(card_named("guard"), table)
  g = choose "guess" from kinds(hand) + kinds(table) where it != "priest"
  move(card_of(hand, g), table)
  end_game
"""


@pytest.mark.parametrize("reference", [False, True])
def test_copies_in_two_zones_are_one_option_per_kind_and_card_of_gives_one_back(tmp_path, reference):
    """Before: `choose from cards(hand) + cards(table)` offered 'guard (hand)' and 'guard (table)'."""
    game = load_game(write_game(tmp_path, GAME), reference=reference)
    st = game.new_game(players=2)
    assert game.action_space(2) == ["guess guard", "guess king", "guess priest"]
    assert st.legal_actions() == ["guess guard", "guess king"]  # the guard of either zone is one option
    st.apply("guess guard")
    assert [game.card_ids[c] for c in st.zones["table"]] == ["guard", "guard"]
    assert [game.card_ids[c] for c in st.zones["hand"]] == ["guard", "king", "priest"]


def test_card_of_a_kind_not_there_is_none(tmp_path):
    from engine.lang.ops import OPS

    st = load_game(write_game(tmp_path, GAME)).new_game(players=2)
    assert OPS["card_of"].fn(st, list(st.zones["table"]), "king") is None
    assert OPS["kinds"].fn(st, list(st.zones["hand"])) == ["guard", "king", "priest"]
