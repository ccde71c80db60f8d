"""Bids and bets bounded by what the rules declare: a variable's min:/max:, the cards of a zone; where nothing
bounds them, E508 says which declaration to add."""

from __future__ import annotations

import pytest
from language_helpers import assert_located, write_game

from engine import RuntimeRuleError, load_game

BIDS = """\
id: mini
name: Mini
players: {min: 2, max: 2}
zones:
  - {id: deck, visibility: public}
player_variables:
  purse: {type: int, initial: 5, max: 5}
play: |
  repeat 3:
      bid = choose "bid" from range(1, me.purse + 1)
      me.purse = me.purse - bid + 1
      if me.purse <= 1:
          end_game
  end_game
"""


@pytest.mark.parametrize("reference", [False, True])
def test_a_bid_up_to_a_purse_declaring_its_max_is_listed_from_that_max(tmp_path, reference):
    """range(1, me.purse + 1): the purse starts at 5 and declares max: 5, so bids 1 to 5 are the space."""
    game = load_game(write_game(tmp_path, BIDS), reference=reference)
    assert game.action_space(2) == [f"bid {n}" for n in range(1, 6)]
    st = game.new_game(players=2)
    assert st.legal_actions() == [f"bid {n}" for n in range(1, 6)]
    st.apply("bid 3")
    assert st.pvars[0]["purse"] == 3 and st.legal_actions() == ["bid 1", "bid 2", "bid 3"]


@pytest.mark.parametrize("reference", [False, True])
def test_a_rule_that_sets_a_variable_past_its_max_is_stopped_where_it_does(tmp_path, reference):
    game = load_game(write_game(tmp_path, BIDS.replace("- bid + 1", "+ bid")), reference=reference)
    st = game.new_game(players=2)
    with pytest.raises(RuntimeRuleError, match=r"player variable 'purse' may hold 0 to 5 \(its min: and max:\), not 7"):
        st.apply("bid 2")


def test_without_a_max_the_message_names_the_declaration_to_add(tmp_path):
    assert_located(
        tmp_path,
        BIDS,
        'bid = choose "bid"',
        "'purse' is computed from its own value",
        "initial: 5, max: 5}",
        "initial: 5}",
    )
    with pytest.raises(Exception) as info:
        load_game(write_game(tmp_path, BIDS.replace("initial: 5, max: 5}", "initial: 5}")))
    [d] = info.value.diagnostics
    assert d.code == "E508" and "player_variables: purse: {type: int, max: N}" in d.hint and "several" in d.hint


@pytest.mark.parametrize(
    "spec, said",
    [
        ("{type: int, initial: 9, max: 5}", "'purse' starts at 9, outside its min: 0 and max: 5"),
        ("{type: int, min: 6, max: 5}", "min: 6 is more than max: 5"),
        ("{type: text, max: 5}", "min: and max: bound whole numbers only"),
        ("{type: int, min: 1}", "a min: needs a max:"),
    ],
)
def test_bounds_that_cannot_hold_are_refused_where_they_are_declared(tmp_path, spec, said):
    assert_located(tmp_path, BIDS, "purse: {", said, "{type: int, initial: 5, max: 5}", spec)


def test_a_count_of_a_zones_cards_is_bounded_by_the_cards_of_the_game(tmp_path):
    """How many to take from a zone: at most every card there is."""
    text = BIDS.replace(
        "zones:\n",
        "components:\n  - kind: chip\n    start: deck\n    items: [{id: chip, copies: 4}]\nzones:\n",
    ).replace('choose "bid" from range(1, me.purse + 1)', 'choose "take" from range(0, size(deck) + 1)')
    game = load_game(write_game(tmp_path, text))
    assert game.action_space(2) == [f"take {n}" for n in range(5)]


def test_the_language_reference_says_how_to_bound_a_bid():
    from engine.tools.doc import language_reference

    assert "`purse: {type: int, initial: 10, max: 10}`" in language_reference()
