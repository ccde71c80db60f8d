"""An operation called on a state with what a broken rule or a tampered save may pass is a rule fault, and
changes nothing."""

from __future__ import annotations

import pytest

from engine import load_game
from engine.errors import RuleFault


def test_a_move_of_no_card_or_to_no_zone_is_a_rule_fault_and_moves_nothing():
    st = load_game("caty-mini").new_game(players=2, seed=1)
    before = st.to_json()
    with pytest.raises(RuleFault, match=r"^move: no card given$"):
        st.move(None, "box")
    with pytest.raises(RuleFault, match=r"^move_bottom: no card given$"):
        st.move(None, "box", False)
    with pytest.raises(RuleFault, match=r"^there is no zone 'nowhere'$"):
        st.move(st.zones["table"][-1], "nowhere")
    assert st.to_json() == before
