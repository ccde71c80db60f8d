"""The tables a board operation is lowered to (engine/runtime/lower.py): a row for each argument it takes."""

from __future__ import annotations

import engine
from engine.runtime.lower import _arguments


def test_a_board_table_has_rows_only_for_the_arguments_its_operation_takes():
    """Spaces, pairs or triples of spaces, or rooms, directions or tags where the operation takes those: an
    operation of one space is given no pairs, and only the operation of three arguments triples."""
    board = engine.load_game("cats-mansion").board("mansion")
    spaces = list(board.nodes)
    tags = sorted(set().union(*board.tags.values(), {""}))  # and "", which no space has: a tag the board lacks
    assert len(spaces) > 50 and len(tags) > 1
    assert _arguments("spaces", 0, board, spaces) == [[]]
    assert _arguments("neighbours", 1, board, spaces) == [[s] for s in spaces]
    assert _arguments("tagged", 1, board, spaces) == [[t] for t in tags]
    assert _arguments("spaces_of", 1, board, spaces) == [[r] for r in sorted({str(board.room_of(s)) for s in spaces})]
    assert _arguments("opposite", 1, board, spaces) == [[d] for d in board.directions]
    assert _arguments("distance", 2, board, spaces) == [[a, b] for a in spaces for b in spaces]
    assert _arguments("has_tag", 2, board, spaces) == [[s, t] for s in spaces for t in tags]
    assert _arguments("toward", 2, board, spaces) == [[s, d] for s in spaces for d in board.directions]
    triples = [[a, b, t] for a in spaces for b in spaces for t in tags]
    assert _arguments("distance_avoiding", 3, board, spaces) == triples
