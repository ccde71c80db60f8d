"""An operation's inline code (``Op.inline``, written by the generated code instead of a call) gives the
same value and the same error as the operation's function, for good arguments and bad ones."""

from __future__ import annotations

import itertools

import pytest

from engine import load_game
from engine.errors import RuleFault
from engine.lang.ops import OPS
from engine.lang.types import CARD, PLAYER

SAMPLES = {  # per parameter type: values a rule may pass, and ones a broken rule or a tampered save may
    PLAYER: [0, 1, 2, -1, None, "x"],
    CARD: [0, 5, None, -1, 10_000],
}
LIST_SAMPLES = [[], [3, 1, 2], None, "ab", 7]
INLINED = sorted(name for name, op in OPS.items() if op.inline is not None)


def outcome(thunk):
    """What calling ``thunk`` gives: ("value", v) or ("error", class, message)."""
    try:
        return ("value", thunk())
    except Exception as exc:  # the very error matters, whatever it is
        return ("error", type(exc), str(exc))


def test_the_hot_operations_are_inlined():
    assert {"size", "is_empty", "num_players", "players", "left_of", "right_of", "zone_of"} <= set(INLINED)


@pytest.mark.parametrize("name", INLINED)
def test_inline_code_computes_what_the_operation_does(name):
    op = OPS[name]
    st = load_game("caty-mini").new_game(players=3, seed=1)
    choices = [LIST_SAMPLES if t.is_list else SAMPLES.get(t, [0, "a", None]) for _, t in op.params]
    for args in itertools.product(*choices):
        names = {f"_a{i}": a for i, a in enumerate(args)}
        code = op.inline.format(*names)
        inline = outcome(lambda: eval(code, {}, {"st": st, **names}))  # noqa: B023 - run at once
        called = outcome(lambda: op.fn(st, *args))  # noqa: B023 - run at once
        assert inline == called, (name, args)


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
