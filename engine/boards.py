"""Board files → networkx graphs → precomputed lookup tables.

A *plane* board is a floor of unit cells (some labelled) and named points;
every pair of points is joined by a straight segment.  At load we compute,
once, each segment's length and the labels of the cells it touches (touching
includes grazing an edge or a corner: the closed segment meets the closed
cell).  Geometry is exact: coordinates are scaled to integers.

Nothing here knows which game uses a board.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

import networkx as nx

from .errors import Diagnostic, did_you_mean
from .yaml_source import Document


def segment_touches_box(p: tuple[int, int], q: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    """Does the closed segment p–q meet the closed axis-aligned box (x0, y0, x1, y1)?

    Separating-axis test with integers only: the segment's bounding box must
    overlap the box, and the box's corners must not all lie strictly on one side
    of the segment's line.
    """
    x0, y0, x1, y1 = box
    (px, py), (qx, qy) = p, q
    if max(px, qx) < x0 or min(px, qx) > x1 or max(py, qy) < y0 or min(py, qy) > y1:
        return False
    dx, dy = qx - px, qy - py
    sides = [dx * (cy - py) - dy * (cx - px) for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return not (all(s > 0 for s in sides) or all(s < 0 for s in sides))


@dataclass(frozen=True)
class PlaneBoard:
    """Segment tables of one plane board; the graph stays available for tools."""

    id: str
    path: str
    graph: nx.Graph
    lengths: dict[tuple[str, str], int]
    touches: dict[tuple[str, str], tuple[str, ...]]

    def distance(self, a: str, b: str) -> int:
        try:
            return self.lengths[(a, b)]
        except KeyError:
            raise _unknown_point(self, a, b) from None

    def touched(self, a: str, b: str) -> tuple[str, ...]:
        try:
            return self.touches[(a, b)]
        except KeyError:
            raise _unknown_point(self, a, b) from None

    @property
    def points(self) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d["kind"] == "point"]


def _unknown_point(board: PlaneBoard, a: str, b: str):
    from .errors import RuleFault
    names = board.points
    bad = a if a not in names else b
    hint = did_you_mean(str(bad), names)
    return RuleFault(f"board '{board.id}' has no point '{bad}'" + (f" ({hint})" if hint else ""))


def _exact(value) -> Fraction:
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def compile_plane(doc: Document) -> tuple[PlaneBoard | None, list[Diagnostic]]:
    """Build the graph and the segment tables of a schema-valid plane board file."""
    data = doc.data
    problems: list[Diagnostic] = []
    width, height = data["cells"]["width"], data["cells"]["height"]
    scale = data.get("length_scale", 1)
    graph = nx.Graph(id=data["id"], width=width, height=height)

    coords: list[Fraction] = []
    for i, cell in enumerate(data.get("labels", [])):
        x, y = cell["cell"]
        if not (0 <= x < width and 0 <= y < height):
            problems.append(doc.diag(("labels", i, "cell"), "E602",
                                     f"cell ({x}, {y}) is outside the {width}×{height} floor"))
            continue
        node = ("cell", x, y)
        if node in graph:
            problems.append(doc.diag(("labels", i, "cell"), "E603", f"cell ({x}, {y}) is labelled twice"))
            continue
        graph.add_node(node, kind="cell", label=cell["label"], box=(x, y, x + 1, y + 1))
    for i, point in enumerate(data.get("points", [])):
        pid = point["id"]
        x, y = (_exact(v) for v in point["at"])
        if pid in graph:
            problems.append(doc.diag(("points", i, "id"), "E603", f"point '{pid}' is defined twice"))
            continue
        if not (0 <= x <= width and 0 <= y <= height):
            problems.append(doc.diag(("points", i, "at"), "E602",
                                     f"point '{pid}' at ({x}, {y}) is outside the {width}×{height} floor"))
            continue
        graph.add_node(pid, kind="point", at=(x, y), tags=tuple(point.get("tags", ())))
        coords += [x, y]
    if problems:
        return None, problems

    # Exact integer geometry: scale every coordinate by the common denominator.
    denominator = math.lcm(*(c.denominator for c in coords)) if coords else 1
    cells = [(d["label"], tuple(v * denominator for v in d["box"]))
             for _, d in graph.nodes(data=True) if d["kind"] == "cell"]
    points = {n: (int(d["at"][0] * denominator), int(d["at"][1] * denominator))
              for n, d in graph.nodes(data=True) if d["kind"] == "point"}
    lengths: dict[tuple[str, str], int] = {}
    touches: dict[tuple[str, str], tuple[str, ...]] = {}
    for a, pa in points.items():
        for b, pb in points.items():
            if b < a:
                continue
            length = round(math.dist(pa, pb) / denominator * scale)
            hits = _touched_labels(pa, pb, cells)
            lengths[(a, b)] = lengths[(b, a)] = length
            touches[(a, b)] = hits
            touches[(b, a)] = _touched_labels(pb, pa, cells)
            if a != b:
                graph.add_edge(a, b, length=length, touches=hits)
    return PlaneBoard(data["id"], doc.path, graph, lengths, touches), []


def _touched_labels(p, q, cells: Iterable) -> tuple[str, ...]:
    """Labels met by p→q, each once, ordered by where the segment first meets them."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    met = []
    for label, box in cells:
        if segment_touches_box(p, q, box):
            cx2, cy2 = box[0] + box[2], box[1] + box[3]  # twice the centre, stays integral
            met.append(((cx2 - 2 * p[0]) * dx + (cy2 - 2 * p[1]) * dy, label))
    met.sort()
    return tuple(dict.fromkeys(label for _, label in met))


BOARD_KINDS = {"plane": compile_plane}
