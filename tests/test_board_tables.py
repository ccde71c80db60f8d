"""The tables a board operation is lowered to (engine/runtime/lower.py): a row for each argument it takes."""

from __future__ import annotations

import engine
from engine.runtime.lower import _arguments, lower


def test_a_board_table_has_rows_only_for_the_arguments_its_operation_takes():
    """Spaces, pairs or triples of spaces, or rooms, directions or tags where the operation takes those: an
    operation of one space is given no pairs, and only the operation of three arguments triples."""
    board = engine.load_game("cats-mansion").board("mansion")
    spaces = list(board.nodes)
    tags = sorted(set().union(*board.tags.values()))
    assert len(spaces) > 50 and tags
    assert _arguments("spaces", 0, board, spaces, tags) == [[]]
    assert _arguments("neighbours", 1, board, spaces, tags) == [[s] for s in spaces]
    assert _arguments("tagged", 1, board, spaces, tags) == [[t] for t in tags]
    rooms = sorted({str(board.room_of(s)) for s in spaces})
    assert _arguments("spaces_of", 1, board, spaces, tags) == [[r] for r in rooms]
    assert _arguments("opposite", 1, board, spaces, tags) == [[d] for d in board.directions]
    assert _arguments("distance", 2, board, spaces, tags) == [[a, b] for a in spaces for b in spaces]
    assert _arguments("has_tag", 2, board, spaces, tags) == [[s, t] for s in spaces for t in tags]
    assert _arguments("toward", 2, board, spaces, tags) == [[s, d] for s in spaces for d in board.directions]
    triples = [[a, b, t] for a in spaces for b in spaces for t in tags]
    assert _arguments("distance_avoiding", 3, board, spaces, tags) == triples


def test_a_table_holds_rows_of_the_tag_no_space_has_only_where_a_call_may_give_a_tag_the_board_lacks():
    """Cats' Mansion names its tag "start", which its board has: no rows of the tag "" (they would be a fifth of
    the IR). A tag written as anything else may be one the board lacks, which the VM reads as ""."""
    ir = lower(engine.load_game("cats-mansion", reference=True))
    assert ir["tables"] and all("stand_in" not in m for m in ir["misses"])
    assert not any(key.endswith(',""]') for table in ir["tables"] for key in table)
