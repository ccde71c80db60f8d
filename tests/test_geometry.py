"""Plane-board geometry, checked against cases worked out by hand.

A segment *touches* a cell when the closed segment meets the closed unit square: crossing it,
running along one of its edges or passing through one of its corners all count. Lengths are
Euclidean, times the board's length_scale, rounded to an integer.
"""

from __future__ import annotations

import textwrap

import pytest

from engine.boards.graphs import compile_plane, segment_touches_box
from engine.load.schemas import check_document
from engine.load.yaml_source import parse_yaml

# --------------------------------------------------------------------------- helpers


def cell(x: int, y: int, unit: int = 1) -> tuple[int, int, int, int]:
    """The box of cell (x, y) with coordinates multiplied by ``unit``."""
    return (x * unit, y * unit, (x + 1) * unit, (y + 1) * unit)


def touches(p, q, x: int, y: int, unit: int = 1) -> bool:
    return segment_touches_box(p, q, cell(x, y, unit))


def board_doc(body: str, path: str = "test-board.yaml"):
    text = "id: test\nkind: plane\n" + textwrap.dedent(body)
    doc = parse_yaml(text, path)
    assert check_document(doc, "board") == []  # the test boards themselves are schema-valid
    return doc, text


def build(body: str):
    doc, _ = board_doc(body)
    board, problems = compile_plane(doc)
    assert problems == []
    return board


def line_of(text: str, fragment: str) -> int:
    """1-based line of the only line of ``text`` containing ``fragment``."""
    lines = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(lines) == 1
    return lines[0]


# ------------------------------------------------------- the primitive, on integers


def test_segment_along_an_edge_touches_both_cells_sharing_it():
    """The vertical edge x = 1 (from y = 0 to 1) is shared by cells (0, 0) and (1, 0)."""
    p, q = (1, 0), (1, 1)
    assert touches(p, q, 0, 0) and touches(p, q, 1, 0)
    assert touches(p, q, 0, 1) and touches(p, q, 1, 1)  # the end point (1, 1) is their corner
    assert not touches(p, q, 2, 0)
    assert not touches(p, q, 1, 2) and not touches(p, q, -1, 0)
    # A longer horizontal run along y = 2 grazes the row above and the row below.
    p, q = (0, 2), (3, 2)
    for x in range(3):
        assert touches(p, q, x, 1) and touches(p, q, x, 2)
        assert not touches(p, q, x, 0) and not touches(p, q, x, 3)
    assert touches(p, q, 3, 1)  # corner at (3, 2)
    assert not touches(p, q, 4, 1)


def test_segment_through_a_corner_touches_the_cells_meeting_there():
    """x + y = 2 from (0, 2) to (2, 0) passes the corner (1, 1) shared by four cells."""
    p, q = (0, 2), (2, 0)
    for x, y in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        assert touches(p, q, x, y)
    assert not touches(p, q, 2, 1) and not touches(p, q, 1, 2) and not touches(p, q, 2, 2)
    # The main diagonal crosses (0, 0) and (1, 1) and only grazes (1, 0) and (0, 1) at (1, 1).
    p, q = (0, 0), (2, 2)
    for x, y in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        assert touches(p, q, x, y)
    assert not touches(p, q, 2, 0) and not touches(p, q, 0, 2)


def test_segment_missing_a_cell_by_a_hair_does_not_touch_it():
    """In thousandths: x + y = 1999 passes 1/2000 of a cell from the corner (1, 1) of cell (1, 1)."""
    unit = 1000
    assert not touches((0, 1999), (1999, 0), 1, 1, unit)
    assert touches((0, 2000), (2000, 0), 1, 1, unit)  # through the corner: touches
    assert touches((0, 2001), (2001, 0), 1, 1, unit)  # just inside
    # The line would reach the cell, but the segment stops a hair short of it.
    assert not touches((0, 0), (999, 999), 1, 1, unit)
    assert touches((0, 0), (1000, 1000), 1, 1, unit)
    # Parallel to an edge, a hair outside.
    assert not touches((0, 2001), (3000, 2001), 1, 1, unit)
    assert touches((0, 2000), (3000, 2000), 1, 1, unit)


def test_degenerate_segment_is_a_point():
    """A zero-length segment touches exactly the cells containing its point (edges included)."""
    assert touches((1, 1), (1, 1), 0, 0) and touches((1, 1), (1, 1), 1, 1)
    assert not touches((1, 1), (1, 1), 2, 2)
    assert touches((3, 5), (3, 5), 1, 2, unit=2) and not touches((3, 5), (3, 5), 0, 2, unit=2)


# ------------------------------------------------------- boards built from YAML text

ORDER_BOARD = """\
cells: {width: 8, height: 8}
labels:
  - {cell: [4, 0], label: a-far}
  - {cell: [1, 0], label: z-near}
  - {cell: [2, 0], label: m-middle}
  - {cell: [0, 7], label: corner}
  - {cell: [3, 3], label: c-diag}
  - {cell: [5, 5], label: b-diag}
points:
  - {id: w, at: [0, 0.5]}
  - {id: e, at: [6, 0.5]}
  - {id: nw, at: [0, 0]}
  - {id: se, at: [7, 7]}
"""


def test_touched_order_follows_the_segment_and_reverses_with_it():
    """Labels come in the order the segment meets them (not file or name order), reversed when the
    segment is run the other way."""
    board = build(ORDER_BOARD)
    assert board.touched("w", "e") == ("z-near", "m-middle", "a-far")
    assert board.touched("e", "w") == ("a-far", "m-middle", "z-near")
    # y = x crosses (3, 3) and (5, 5) and grazes (1, 0) = z-near at its corner (1, 1)
    assert board.touched("nw", "se") == ("z-near", "c-diag", "b-diag")
    assert board.touched("se", "nw") == ("b-diag", "c-diag", "z-near")
    assert board.touched("w", "nw") == ()


LENGTH_BOARD = """\
cells: {width: 4, height: 3}
length_scale: 10
labels:
  - {cell: [1, 1], label: rug}
  - {cell: [2, 1], label: ball}
  - {cell: [0, 1], label: far}
  - {cell: [3, 0], label: cat}
points:
  - {id: a, at: [0, 0]}
  - {id: b, at: [4, 3]}
  - {id: c, at: [0, 1.5]}
  - {id: d, at: [4, 1.5]}
  - {id: e, at: [1, 0]}
  - {id: f, at: [2, 1]}
  - {id: top, at: [2, 0]}
  - {id: bottom, at: [2, 3]}
"""


def test_plane_board_lengths_scale_and_round():
    """Lengths are Euclidean in cells, times length_scale (10), rounded."""
    board = build(LENGTH_BOARD)
    assert board.distance("a", "b") == 50  # 3-4-5 triangle
    assert board.distance("b", "a") == 50
    assert board.distance("c", "d") == 40
    assert board.distance("e", "f") == 14  # sqrt(2) * 10 = 14.14
    assert board.distance("a", "f") == 22  # sqrt(5) * 10 = 22.36
    assert board.distance("c", "b") == 43  # sqrt(16 + 2.25) = 4.27 -> 42.7
    assert board.distance("a", "a") == 0


def test_plane_board_length_scale_other_than_ten():
    """length_scale multiplies before rounding: sqrt(2) * 3 = 4.24 -> 4; 5 * 3 = 15."""
    board = build(LENGTH_BOARD.replace("length_scale: 10", "length_scale: 3"))
    assert board.distance("e", "f") == 4
    assert board.distance("a", "b") == 15
    assert build(LENGTH_BOARD.replace("length_scale: 10\n", "")).distance("a", "b") == 5  # default 1


def test_plane_board_touched_labels():
    """Touched labels of segments on the small board, worked out by hand."""
    board = build(LENGTH_BOARD)
    # c -> d runs along y = 1.5 through the middle row: far, rug, ball (and the unlabelled (3, 1)).
    assert board.touched("c", "d") == ("far", "rug", "ball")
    # top -> bottom runs along the edge x = 2 between rug (1, 1) and ball (2, 1): both.
    assert set(board.touched("top", "bottom")) == {"rug", "ball"}
    # e (1, 0) -> f (2, 1) crosses cell (1, 0) and grazes (2, 1) = ball, (1, 1) = rug, (2, 0) at (2, 1).
    assert set(board.touched("e", "f")) == {"rug", "ball"}
    # a (0, 0) -> b (4, 3): y = 0.75 x; cell (3, 0) = cat has y <= 1 only for x <= 1.33: not touched;
    # (0, 1) = far needs y >= 1 for x <= 1: no; rug (1, 1) from x = 1.33; ball (2, 1) for x in [2, 2.67].
    assert board.touched("a", "b") == ("rug", "ball")
    assert board.touched("b", "a") == ("ball", "rug")


def test_hair_miss_with_decimal_coordinates_is_exact():
    """Decimal coordinates are read exactly: a corridor 1/1000 cell wide is not closed by rounding."""
    body = """\
    cells: {width: 3, height: 3}
    labels:
      - {cell: [1, 1], label: toy}
    points:
      - {id: miss-a, at: [0, 1.999]}
      - {id: miss-b, at: [1.999, 0]}
      - {id: hit-a, at: [0, 2]}
      - {id: hit-b, at: [2, 0]}
      - {id: tiny-a, at: [0, 0.9999999]}
      - {id: tiny-b, at: [3, 0.9999999]}
    """
    board = build(body)
    assert board.touched("miss-a", "miss-b") == ()
    assert board.touched("hit-a", "hit-b") == ("toy",)  # through the corner (1, 1)
    assert board.touched("tiny-a", "tiny-b") == ()  # 1e-7 short of the cell's edge y = 1


# -------------------------------------------------------------------- diagnostics


def test_label_cell_outside_the_floor_is_E602():
    doc, text = board_doc("""\
    cells: {width: 4, height: 3}
    labels:
      - {cell: [1, 1], label: rug}
      - {cell: [4, 0], label: outside}
    points:
      - {id: a, at: [0, 0]}
    """)
    board, problems = compile_plane(doc)
    assert board is None
    assert [(p.code, p.line) for p in problems] == [("E602", line_of(text, "outside"))]
    assert "outside the 4×3 floor" in problems[0].message


def test_point_outside_the_floor_is_E602():
    doc, text = board_doc("""\
    cells: {width: 4, height: 3}
    points:
      - {id: a, at: [0, 0]}
      - {id: edge, at: [4, 3]}
      - {id: beyond, at: [4.5, 1]}
      - {id: below, at: [1, -0.001]}
    """)
    board, problems = compile_plane(doc)
    assert board is None
    assert [(p.code, p.line) for p in problems] == [("E602", line_of(text, "beyond")), ("E602", line_of(text, "below"))]


def test_duplicated_label_cell_and_point_are_E603():
    doc, text = board_doc("""\
    cells: {width: 4, height: 3}
    labels:
      - {cell: [1, 1], label: rug}
      - {cell: [1, 1], label: ball}
    points:
      - {id: a, at: [0, 0]}
      - {id: b, at: [1, 0]}
      - {id: a, at: [2, 0]}
    """)
    board, problems = compile_plane(doc)
    assert board is None
    assert [(p.code, p.line) for p in problems] == [
        ("E603", line_of(text, "label: ball")),
        ("E603", line_of(text, "at: [2, 0]")),
    ]
    assert "labelled twice" in problems[0].message and "defined twice" in problems[1].message


def test_same_label_on_two_cells_is_allowed_and_reported_once():
    """Two cells may carry the same label; a segment touching both lists it once, where first met."""
    board = build("""\
    cells: {width: 5, height: 1}
    labels:
      - {cell: [0, 0], label: ball}
      - {cell: [2, 0], label: mouse}
      - {cell: [4, 0], label: ball}
    points:
      - {id: w, at: [0, 0.5]}
      - {id: e, at: [5, 0.5]}
      - {id: mid, at: [3, 0.5]}
    """)
    assert board.touched("w", "e") == ("ball", "mouse")
    assert board.touched("e", "w") == ("ball", "mouse")
    assert board.touched("mid", "e") == ("mouse", "ball")  # starts on the edge of (2, 0)


# ------------------------------------------------------------------ the Caty rooms


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_caty_rooms_notches_one_cell_apart_left_as_seen_facing_the_wall(caty, seat):
    """Each furniture's two notches are one cell (10) apart on its wall; 'left' is on the left of a
    cat facing that wall (north: west, east: north, south: east, west: south)."""
    board = caty.board(f"room:{seat}")
    furniture = {p.split("/")[0] for p in board.points}
    assert len(furniture) == 20
    for f in furniture:
        left, right = (board.graph.nodes[f"{f}/{side}"] for side in ("left", "right"))
        (lx, ly), (rx, ry) = left["at"], right["at"]
        wall = next(t for t in left["tags"] if t in ("north", "east", "south", "west"))
        assert {
            "north": ly == ry == 0 and lx < rx,
            "south": ly == ry == 12 and lx > rx,
            "east": lx == rx == 12 and ly < ry,
            "west": lx == rx == 0 and ly > ry,
        }[wall], f
        assert board.distance(f"{f}/left", f"{f}/right") == 10


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_caty_rooms_furniture_stands_at_the_wall_of_its_tile_colour(caty, seat):
    """Rulebook example: the yellow table tile sends the cats to the table at the yellow wall."""
    board = caty.board(f"room:{seat}")
    for i, kind in enumerate(caty.card_kinds):
        if kind == "tile":
            f = caty.attributes["furniture"][i]
            assert caty.attributes["colour"][i] in board.graph.nodes[f"{f}/left"]["tags"]
            assert caty.attributes["colour"][i] in board.graph.nodes[f"{f}/right"]["tags"]
