"""Breakthrough, as its rules read.

The board is named like a chessboard with rows counted from the north: White (seat 0) starts on
rows 7–8 and runs north to row 1; Black (seat 1) starts on rows 1–2 and runs south to row 8.
"""

import pytest
from gallery_helpers import fetch, game, ids, random_games, reoffer
from table import accounted, put

WHITE, BLACK = 0, 1


def new(seed=0):
    return game("breakthrough").new_game(players=2, seed=seed)


def arrange(st, white=(), black=()):
    """Clear the board, then stand pawns on these squares (White's and Black's)."""
    for zone in [z for z in st.zones if z.startswith("square:")]:
        for c in list(st.zones[zone]):
            put(st, c, "box")
    for colour, seat, squares in (("white", WHITE, white), ("black", BLACK, black)):
        for s in squares:
            fetch(st, colour, f"square:{s}", source="box")
        st.pvars[seat]["at"] = list(squares)
    reoffer(st)


def to_move(st, seat):
    """Play quiet first moves until ``seat`` is to move (Black's turn needs one White move)."""
    if st.current_player != seat:
        st.apply("move a7 a6")
    assert st.current_player == seat


def moves_from(st, square):
    return sorted(a for a in st.legal_actions() if a.split()[1] == square)


def test_setup_two_rows_each_and_white_moves_first():
    st = new()
    assert all(ids(st, f"square:{c}{r}") == ["white"] for c in "abcdefgh" for r in (7, 8))
    assert all(ids(st, f"square:{c}{r}") == ["black"] for c in "abcdefgh" for r in (1, 2))
    assert all(ids(st, f"square:{c}{r}") == [] for c in "abcdefgh" for r in (3, 4, 5, 6))
    assert st.current_player == WHITE
    # Only the front row can move: 2 options for each edge pawn, 3 for the six others.
    assert len(st.legal_actions()) == 22
    assert accounted(st)


def test_a_pawn_steps_forward_or_diagonally_forward_onto_empty_squares():
    st = new()
    arrange(st, white=["d5"], black=["h1"])
    assert moves_from(st, "d5") == ["move d5 c4", "move d5 d4", "move d5 e4"]


def test_black_runs_the_other_way():
    st = new()
    to_move(st, BLACK)
    arrange(st, white=["a8"], black=["d4"])
    assert moves_from(st, "d4") == ["move d4 c5", "move d4 d5", "move d4 e5"]


def test_a_pawn_is_blocked_straight_ahead_but_captures_diagonally():
    st = new()
    arrange(st, white=["d5"], black=["d4", "e4"])
    # Straight ahead is blocked by the black pawn; diagonally it may step (c4) or capture (e4).
    assert moves_from(st, "d5") == ["move d5 c4", "move d5 e4"]
    st.apply("move d5 e4")
    assert ids(st, "square:e4") == ["white"]
    assert ids(st, "square:d5") == []
    assert ids(st, "captured:0") == ["black"]
    assert st.pvars[BLACK]["at"] == ["d4"]
    assert "seat 0 captures on e4" in st.log
    assert accounted(st)


def test_a_pawn_may_not_capture_its_own_side_nor_leave_the_board():
    st = new()
    arrange(st, white=["a5", "b4"], black=["h1"])
    assert moves_from(st, "a5") == ["move a5 a4"]  # b4 is White's own; no square west of a
    assert moves_from(st, "b4") == ["move b4 a3", "move b4 b3", "move b4 c3"]


def test_reaching_the_far_row_wins_at_once():
    st = new()
    arrange(st, white=["c2"], black=["h2", "g3"])
    st.apply("move c2 c1")
    assert st.is_terminal
    assert st.winners == [WHITE]
    assert st.outcome.reason == "a pawn reached the far row"


def test_capturing_every_enemy_pawn_wins():
    st = new()
    arrange(st, white=["d5"], black=["e4"])
    st.apply("move d5 e4")
    assert st.is_terminal and st.winners == [WHITE]
    assert st.outcome.reason == "every enemy pawn was captured"


def test_a_pawn_blocked_head_on_still_has_a_diagonal_move():
    """Ruling no-move: the most advanced pawn always has a diagonal square free of its own pawns."""
    st = new()
    arrange(st, white=["a5"], black=["a4", "b4", "h1"])
    assert moves_from(st, "a5") == ["move a5 b4"]  # a capture
    arrange(st, white=["a5", "b4"], black=["a4", "b3", "h1"])
    assert moves_from(st, "a5") == []
    assert moves_from(st, "b4") == ["move b4 a3", "move b4 c3"]


def test_greedy_bot_takes_the_winning_step():
    from engine.bots import make_agent

    st = new()
    arrange(st, white=["c2", "f6"], black=["a2", "h3"])
    bot = make_agent("greedy", seed=1)
    bot.explore = 0
    assert bot.act(st.view(WHITE), st.determinized(WHITE, 1)) in ("move c2 b1", "move c2 c1", "move c2 d1")


@pytest.mark.parametrize("part", range(2))
def test_seeded_random_games_end_with_one_winner(part):
    for st in random_games("breakthrough", 2, range(part * 10, part * 10 + 10)):
        assert len(st.winners) == 1
        assert st.outcome.reason in ("a pawn reached the far row", "every enemy pawn was captured")
        assert accounted(st)
