"""Connect Four, as its rules read.

The rack's spaces are named like a grid: columns a–g from the west, rows 1–6 from the TOP.  A player
drops into a column by naming its top space (``drop c1``); the disc lands in the lowest empty space.
Red is seat 0, Yellow seat 1, and the logs call them so.
"""

import pytest
from gallery_helpers import game, ids, random_games, reoffer
from table import accounted

RED, YELLOW = 0, 1


def new(seed=0, reference=False):
    from engine import load_game

    return (
        load_game("connect-four", reference=True).new_game(2, seed)
        if reference
        else game("connect-four").new_game(2, seed)
    )


def drop(st, *columns):
    """Drop discs into these columns (letters), the players taking turns from whoever is to move."""
    for c in columns:
        st.apply(f"drop {c}1")


def test_red_drops_first_and_the_disc_falls_to_the_bottom():
    """Ruling red-first; a disc falls through the empty spaces to row 6, the next one lands on it."""
    st = new()
    assert st.current_player == RED
    assert st.legal_actions() == [f"drop {c}1" for c in "abcdefg"]
    drop(st, "d")
    assert ids(st, "space:d6") == ["red"] and ids(st, "space:d1") == []
    drop(st, "d")
    assert ids(st, "space:d5") == ["yellow"]
    assert st.visible_log(0)[-1] == "Yellow drops a disc in column 4: it lands in row 5"
    assert accounted(st)


@pytest.mark.parametrize("reference", [False, True])
def test_four_in_a_column_wins_at_the_fourth_disc(reference):
    st = new(reference=reference)
    drop(st, "a", "b", "a", "b", "a", "b")
    assert not st.is_terminal
    drop(st, "a")
    assert st.is_terminal and st.winners == [RED] and st.outcome.reason == "four discs in a row"


def test_four_on_a_diagonal_wins():
    """Yellow builds a staircase for Red: Red's discs on a6, b5, c4, d3 make a rising diagonal."""
    st = new()
    drop(st, "a", "b", "b", "c", "c", "d", "c", "d", "d", "g", "d")
    assert st.is_terminal and st.winners == [RED]


def test_a_full_column_is_no_longer_offered():
    st = new()
    drop(st, "a", "a", "a", "a", "a", "a")
    assert "drop a1" not in st.legal_actions() and len(st.legal_actions()) == 6


def _last_drop(st, space: str, mine: list[str]):
    """The rack as it is but for one empty space left; the player to move holds ``mine``."""
    st.vars["empty"], st.vars["in_rack"] = [space], 41
    st.pvars[st.current_player]["discs"] = mine
    reoffer(st)


def test_the_last_disc_that_makes_four_wins_rather_than_draws():
    """Ruling four-at-once: the 42nd disc completes a column of four: a win, not a full-rack draw."""
    st = new()
    _last_drop(st, "a1", ["a2", "a3", "a4"])
    drop(st, "a")
    assert st.winners == [RED] and st.outcome.reason == "four discs in a row"


def test_a_full_rack_without_four_is_a_draw():
    """Ruling full-rack-draws."""
    st = new()
    _last_drop(st, "g1", ["a2", "a3", "c5"])
    drop(st, "g")
    assert st.outcome.is_draw and st.outcome.reason == "the rack is full"


def test_random_games_end_in_a_four_or_a_full_rack_with_every_disc_accounted_for():
    reasons = set()
    for st in random_games("connect-four", 2, range(20)):
        reasons.add(st.outcome.reason)
        assert st.outcome.is_draw or len(st.winners) == 1
        assert accounted(st)
    assert "four discs in a row" in reasons


def test_greedy_takes_a_winning_drop_and_blocks_one():
    from engine.bots.greedy import GreedyAgent

    st = new()
    drop(st, "a", "b", "a", "b", "a")  # Red threatens a1…a4; Yellow to move must block
    bot = GreedyAgent(0)
    bot.explore = 0.0
    assert bot.act(st.view(YELLOW), st.determinized(YELLOW, 0)) == "drop a1"
    drop(st, "c")  # Yellow does not: Red wins in column a
    assert bot.act(st.view(RED), st.determinized(RED, 0)) == "drop a1"
