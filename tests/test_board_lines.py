"""Board operations read from the board's tables: rows and columns, the opposite direction, the spaces in a
line while a condition holds, the group of a space, and a group's liberties."""

from __future__ import annotations

import pytest

from engine import load_game
from engine.lang.ops import OPS


@pytest.fixture(name="ask", scope="module")
def ask_fixture():
    """An operation asked on a Breakthrough state (8×8, rows 1–8 from the north, diagonal adjacency)."""
    st = load_game("breakthrough").new_game(2, seed=1)
    return lambda name, *args: OPS[name].fn(st, "field", *args)


def test_rows_and_columns_count_from_the_north_west_corner(ask):
    assert (ask("row", "a1"), ask("column", "a1")) == (0, 0)
    assert (ask("row", "c8"), ask("column", "c8")) == (7, 2)


def test_the_opposite_of_a_direction_is_read_from_the_boards_steps(ask):
    assert [ask("opposite", d) for d in ("north", "east", "northeast", "southwest")] == [
        "south",
        "west",
        "southwest",
        "northeast",
    ]
    hexagons = load_game("hex").new_game(2, seed=1)
    assert OPS["opposite"].fn(hexagons, "cells", "northeast") == "southwest"


def test_a_line_runs_from_the_next_space_while_the_condition_holds(ask):
    """Where a disc dropped down a column lands: the empty spaces below it, the last one."""
    assert ask("line", "a1", "south", ["a2", "a3", "a5"]) == ["a2", "a3"]
    assert ask("line", "a1", "north", ["a2"]) == []  # off the board at once


def test_a_group_and_its_liberties(ask):
    """Stones on a1, b2, c3 touch diagonally: one group; h8 is not in it; its free neighbours are its liberties."""
    stones = ["a1", "b2", "c3", "h8"]
    assert ask("group", "a1", stones) == ["a1", "b2", "c3"]
    assert ask("group", "d4", stones) == []
    assert ask("liberties", ["a1", "b2", "c3"], ["a2", "c4", "h7", "b1"]) == ["a2", "c4", "b1"]


def test_the_language_reference_lists_the_new_board_operations():
    from engine.tools.doc import language_reference

    text = language_reference()
    for name in ("row", "column", "opposite", "line", "group", "liberties"):
        assert f"| `{name}(board: board" in text, name


@pytest.mark.parametrize("reference", [False, True])
def test_hex_is_won_by_the_group_of_the_stone_just_placed(reference):
    """Red fills the column b from north to south edge; Blue plays elsewhere: Red's seventh stone wins."""
    st = load_game("hex", reference=reference).new_game(2, seed=3)
    blue = iter(["d1", "d2", "d3", "d4", "d5", "d6"])
    for row in range(1, 8):
        st.apply(f"place b{row}")
        if not st.is_terminal:
            st.apply(f"place {next(blue)}")
    assert st.is_terminal and st.winners == [0]
