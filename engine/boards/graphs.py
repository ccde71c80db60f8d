"""Board files → networkx graphs → precomputed lookup tables.

A *plane* board is a floor of unit cells (some labelled) and named points;
every pair of points is joined by a straight segment.  A segment's length and
the labels of the cells it touches (touching includes grazing an edge or a
corner: the closed segment meets the closed cell) are kept in tables.  Geometry
is exact: coordinates are scaled to integers.

A *grid* board is square spaces grouped in rectangular rooms; neighbouring
spaces of different rooms are separated by a wall unless a door joins them.
Its ``adjacency`` says which spaces neighbour: orthogonal (four directions, the
default), diagonal (four) or both (eight); a diagonal step stays inside a room.
A *hexagons* board is a rhombus of hexagons in axial coordinates (column q, row r),
six directions, rooms optional.  A *graph* board is nodes and edges as written
(an edge may be directed and labelled; a label is a direction of the board).
All three become one kind of table: at load we compute each space's neighbour
in every direction, its neighbours, the rooms and the tags.  Distances are kept
as one row per starting space, each filled by one breadth-first search.

A board whose tables cost at most EAGER_WORK fills them at load, so play never
pays for them; a larger one fills a row or a segment the first time play asks
for it, and keeps it (all pairs of a 200×200 room are 1.6 billion distances).
Play never calls networkx; a lookup is a dict read once its entry exists.

Nothing here knows which game uses a board.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from engine.errors import Diagnostic, did_you_mean, quoted
from engine.load.yaml_source import Document

if TYPE_CHECKING:  # the graph library loads only when a board file is compiled (or a kept board read back)
    import networkx as nx

KINDS_GUIDE = (  # kind, its spaces, its directions: the table of the language reference's Boards section
    (
        "plane",
        "points on a floor of labelled cells; `distance` and `touched` measure the straight line between two",
        "—",
    ),
    (
        "grid",
        "squares named `a1`, `b1`… (column letter from the west, row number from the north) in rectangular rooms; "
        "walls between rooms except at `doors`",
        "`adjacency: orthogonal` (the default: north, east, south, west), `diagonal` (northeast, southeast, "
        "southwest, northwest) or `both` (all eight); a diagonal step stays inside a room",
    ),
    (
        "hexagons",
        "a rhombus of hexagons, `cells: {width, height}`, named like a grid; each row sits half a hexagon east of "
        "the row above (axial coordinates)",
        "northeast, east, southeast, southwest, west, northwest",
    ),
    (
        "graph",
        "`nodes` as written (`s1` or `{id, room, tags}`)",
        "the `label`s of its `edges` (`[a, b]` both ways, or `{from, to, directed, label}`): a one-way track with "
        "a shortcut, a ring",
    ),
)
GUIDE = """\
Spaces get tags from their room, from `marks` (`cell: [x, y]` or `area: [x0, y0, x1, y1]`, e.g. one edge of the board)
or, on a graph, from the node. Every operation of the Boards group works on every kind except `plane`:
`neighbours` and `toward` follow the declared adjacency (a graph's edges leaving a node), `grid_distance` and
`shortest_path` count steps, and `connected(board, sources, targets, through)` asks whether a chain of neighbouring
spaces, all in `through`, joins the two sets: the condition the spaces must meet is the comprehension that builds
`through`, e.g. `connected(b, tagged(b, "north"), tagged(b, "south"), [s for s in spaces(b) if owner(s) == me])`.

Types: `position` is a space of a board and `direction` one of its directions; both are text, so they go where text
goes and back. A position or direction written in quotes (an argument of a board operation, a key of a zone family
per space, a comparison with a position, a variable's `initial`) must exist on the board: a typo is an error with its
line and column when the rules load, not when play reaches it. A choice among positions or directions offers at most
the board's spaces or directions, so the action space is bounded by the board.
"""

EAGER_WORK = 250_000  # table entries × their cost (cells per segment) that a board may fill at load


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


class _LazyGraph:
    """A board kept (pickled) with its graph as plain parts, rebuilt when a tool first asks for ``graph``.

    Play reads only the tables, so a game read back from the cache (or sent to a
    worker process) never loads the graph library for its boards.
    """

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        if "graph" in state:
            graph = state.pop("graph")
            state["_graph_parts"] = (
                dict(graph.graph),
                list(graph.nodes(data=True)),
                list(graph.edges(data=True)),
                graph.is_directed(),
            )
        return state

    def __getattr__(self, name: str):
        parts = self.__dict__.get("_graph_parts")
        if name != "graph" or parts is None:
            raise AttributeError(name)
        import networkx as nx

        graph: nx.Graph = (nx.DiGraph if parts[3] else nx.Graph)(**parts[0])
        graph.add_nodes_from(parts[1])
        graph.add_edges_from(parts[2])
        self.__dict__["graph"] = graph
        del self.__dict__["_graph_parts"]
        return graph


@dataclass(frozen=True)
class PlaneBoard(_LazyGraph):
    """Segment tables of one plane board (see EAGER_WORK for when they fill); the graph holds its cells and points."""

    id: str
    path: str
    graph: nx.Graph
    at: dict[str, tuple[int, int]]  # point → coordinates scaled by ``unit``
    cells: tuple[tuple[str, tuple[int, int, int, int]], ...]  # (label, box scaled by ``unit``)
    unit: int
    scale: float
    draw: dict = field(default_factory=dict, compare=False)  # the file's drawing hints
    lengths: dict[tuple[str, str], int] = field(default_factory=dict, repr=False, compare=False)
    touches: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    def distance(self, a: str, b: str) -> int:
        try:
            return self.lengths[(a, b)]
        except KeyError:
            pa, pb = self._ends(a, b)
            length = math.floor(math.dist(pa, pb) / self.unit * self.scale + 0.5)  # halves round up
            self.lengths[(a, b)] = self.lengths[(b, a)] = length
            return length

    def touched(self, a: str, b: str) -> tuple[str, ...]:
        try:
            return self.touches[(a, b)]
        except KeyError:
            hits = self.touches[(a, b)] = _touched_labels(*self._ends(a, b), self.cells)
            return hits

    def _ends(self, a: str, b: str) -> tuple[tuple[int, int], tuple[int, int]]:
        try:
            return self.at[a], self.at[b]
        except KeyError:
            raise _unknown_point(self, a, b) from None

    @property
    def points(self) -> list[str]:
        return list(self.at)

    @property
    def nodes(self) -> list[str]:
        return self.points


def _unknown_point(board: PlaneBoard, a: str, b: str):
    from engine.errors import RuleFault

    names = board.points
    bad = a if a not in names else b
    hint = did_you_mean(str(bad), names)
    return RuleFault(f"board '{board.id}' has no point {quoted(bad)}" + (f" ({hint})" if hint else ""))


def _exact(value) -> Fraction:
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def compile_plane(doc: Document) -> tuple[PlaneBoard | None, list[Diagnostic]]:
    """Build the graph and the segment tables of a schema-valid plane board file."""
    data = doc.data
    problems: list[Diagnostic] = []
    width, height = data["cells"]["width"], data["cells"]["height"]
    scale = data.get("length_scale", 1)
    import networkx as nx

    graph: nx.Graph = nx.Graph(id=data["id"], width=width, height=height)

    coords: list[Fraction] = []
    for i, cell in enumerate(data.get("labels", [])):
        x, y = cell["cell"]
        if not (0 <= x < width and 0 <= y < height):
            problems.append(
                doc.diag(("labels", i, "cell"), "E602", f"cell ({x}, {y}) is outside the {width}×{height} floor")
            )
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
            problems.append(
                doc.diag(
                    ("points", i, "at"), "E602", f"point '{pid}' at ({x}, {y}) is outside the {width}×{height} floor"
                )
            )
            continue
        graph.add_node(
            pid,
            kind="point",
            at=(x, y),
            tags=tuple(point.get("tags", ())),
            group=point.get("group", pid),
            label=point.get("label", pid),
        )
        coords += [x, y]
    if problems:
        return None, problems

    # Exact integer geometry: scale every coordinate by the common denominator.
    denominator = math.lcm(*(c.denominator for c in coords)) if coords else 1
    cells = tuple(
        (d["label"], tuple(v * denominator for v in d["box"])) for _, d in graph.nodes(data=True) if d["kind"] == "cell"
    )
    points = {
        n: (int(d["at"][0] * denominator), int(d["at"][1] * denominator))
        for n, d in graph.nodes(data=True)
        if d["kind"] == "point"
    }
    board = PlaneBoard(data["id"], doc.path, graph, points, cells, denominator, scale, data.get("draw") or {})
    if len(points) ** 2 * (len(cells) + 1) <= EAGER_WORK:
        for a in points:
            for b in points:
                board.distance(a, b)
                board.touched(a, b)
    return board, []


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


DIRECTIONS = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
DIAGONALS = {"northeast": (1, -1), "southeast": (1, 1), "southwest": (-1, 1), "northwest": (-1, -1)}
ADJACENCY = {  # a grid's declared adjacency → its directions, clockwise from the north
    "orthogonal": DIRECTIONS,
    "diagonal": DIAGONALS,
    "both": {
        d: {**DIRECTIONS, **DIAGONALS}[d]
        for d in ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
    },
}
# Axial coordinates (column q, row r) with pointy-top hexagons, each row half a hexagon right of the one above.
HEXAGON_DIRECTIONS = {
    "northeast": (1, -1),
    "east": (1, 0),
    "southeast": (0, 1),
    "southwest": (-1, 1),
    "west": (-1, 0),
    "northwest": (0, -1),
}


def space_name(x: int, y: int) -> str:
    """Chess-like space names: column letter from 'a', row number from 1 (top row)."""
    column = ""
    x += 1
    while x:
        x, r = divmod(x - 1, 26)
        column = chr(97 + r) + column
    return f"{column}{y + 1}"


@dataclass(frozen=True)
class GridBoard(_LazyGraph):
    """Tables of one board of spaces (a grid, a hexagon grid or a graph); the graph stays available for tools."""

    id: str
    path: str
    graph: nx.Graph
    step: dict[str, dict[str, str]]  # space → direction → neighbour (no wall between)
    rooms: dict[str, str]  # space → room
    spaces_in: dict[str, tuple[str, ...]]  # room → spaces
    tags: dict[str, frozenset]  # space → tags (its room's and its own)
    draw: dict = field(default_factory=dict, compare=False)  # the file's drawing hints; room names
    distances: dict[str, dict[str, int]] = field(default_factory=dict, repr=False, compare=False)  # rows, as asked
    _avoiding: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict, repr=False, compare=False)
    directions: tuple[str, ...] = tuple(DIRECTIONS)  # the board's directions, in a fixed order
    adjacent: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)  # one step away
    coords: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False, compare=False)  # (column, row)
    opposites: dict[str, str] = field(default_factory=dict, repr=False, compare=False)  # direction → its reverse

    @property
    def nodes(self) -> list[str]:
        return list(self.rooms)  # every space, in the graph's order

    def distance(self, a: str, b: str) -> int:
        """Fewest steps from a to b (-1: unreachable)."""
        return self._lookup(self.distances, a, b, None)

    def distance_avoiding(self, a: str, b: str, tag: str) -> int:
        """Fewest steps from a to b never crossing a space tagged ``tag`` (the ends may be tagged)."""
        try:
            return self._avoiding[tag][a][b]
        except KeyError:  # a row not filled yet, b out of reach, or no such space: _lookup says which
            pass
        return self._lookup(self._avoiding.setdefault(tag, {}), a, b, tag)

    def _lookup(self, rows: dict[str, dict[str, int]], a: str, b: str, tag: str | None) -> int:
        row = rows.get(a)
        if row is None:
            self._check(a)
            row = rows[a] = self._spread(a, tag)
        found = row.get(b)
        if found is None:
            self._check(b)
            return -1
        return found

    def _spread(self, start: str, tag: str | None) -> dict[str, int]:
        """Breadth-first distances from ``start``; a space tagged ``tag`` can be reached but not crossed."""
        adjacent, tags = self.adjacent, self.tags
        row = {start: 0}
        frontier, steps = [start], 0
        while frontier:
            steps += 1
            reached = []
            for space in frontier:
                for n in adjacent[space]:
                    if n not in row:
                        row[n] = steps
                        if tag is None or tag not in tags[n]:
                            reached.append(n)
            frontier = reached
        return row

    def _check(self, space: str) -> None:
        if space not in self.rooms:
            from engine.errors import RuleFault

            hint = did_you_mean(str(space), self.rooms)
            raise RuleFault(f"board '{self.id}' has no space {quoted(space)}" + (f" ({hint})" if hint else ""))

    def toward(self, space: str, direction: str) -> str:
        self._check(space)
        return self.step[space].get(direction, "")

    def neighbours(self, space: str) -> list[str]:
        self._check(space)
        return list(self.adjacent[space])

    def direction(self, a: str, b: str) -> str:
        self._check(a)
        for d, s in self.step[a].items():
            if s == b:
                return d
        return ""

    def room_of(self, space: str) -> str:
        self._check(space)
        return self.rooms[space]

    def has_tag(self, space: str, tag: str) -> bool:
        self._check(space)
        return tag in self.tags[space]

    def tagged(self, tag: str) -> list[str]:
        return [s for s, t in self.tags.items() if tag in t]

    def row(self, space: str) -> int:
        """The row of ``space``, counting from 0 at the north (-1 on a graph board, which has none)."""
        self._check(space)
        return self.coords.get(space, (-1, -1))[1]

    def column(self, space: str) -> int:
        """The column of ``space``, counting from 0 at the west (-1 on a graph board)."""
        self._check(space)
        return self.coords.get(space, (-1, -1))[0]

    def opposite(self, direction: str) -> str:
        """The direction back (south for north); "" if the board has none for it."""
        return self.opposites.get(direction, "")

    def line(self, space: str, direction: str, through: Iterable[str]) -> list[str]:
        """The spaces from the one next to ``space`` in ``direction`` on, while each is in ``through``."""
        self._check(space)
        open_, out, step = set(through), [], self.step
        nxt = step[space].get(direction, "")
        while nxt in open_ and nxt not in out:
            out.append(nxt)
            nxt = step[nxt].get(direction, "")
        return out

    def group(self, space: str, through: Iterable[str]) -> list[str]:
        """The spaces joined to ``space`` by neighbouring ``through`` spaces, ``space`` first ([]: it is not one)."""
        self._check(space)
        open_ = set(through)
        if space not in open_:
            return []
        found, frontier, adjacent = {space: None}, [space], self.adjacent
        while frontier:
            for n in adjacent[frontier.pop()]:
                if n in open_ and n not in found:
                    found[n] = None
                    frontier.append(n)
        return list(found)

    def liberties(self, spaces: Iterable[str], free: Iterable[str]) -> list[str]:
        """The spaces of ``free`` next to some space of ``spaces``, each once, in the board's order."""
        near = {n for s in spaces for n in self.adjacent.get(s, ())}
        return [s for s in free if s in near and s in self.rooms] if near else []

    def shortest_path(self, a: str, b: str) -> list[str]:
        """The spaces of a fewest-steps path from a to b, both included ([]: unreachable); ties go to the
        neighbour listed first."""
        self._check(a)
        self._check(b)
        came: dict[str, str] = {a: a}
        frontier = [a]
        while frontier and b not in came:
            reached = []
            for space in frontier:
                for n in self.adjacent[space]:
                    if n not in came:
                        came[n] = space
                        reached.append(n)
            frontier = reached
        if b not in came:
            return []
        path = [b]
        while path[-1] != a:
            path.append(came[path[-1]])
        return path[::-1]

    def connected(self, sources: Iterable[str], targets: Iterable[str], through: Iterable[str]) -> bool:
        """Is some space of ``sources`` joined to some space of ``targets`` by steps over ``through`` spaces
        only (the ends included)?  A search over the precomputed neighbours: play never calls networkx."""
        open_ = set(through)
        goal = set(targets) & open_
        if not goal:
            return False
        frontier = [s for s in dict.fromkeys(sources) if s in open_]
        seen = set(frontier)
        adjacent = self.adjacent
        while frontier:
            space = frontier.pop()
            if space in goal:
                return True
            for n in adjacent[space]:
                if n in open_ and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        return False

    def path_length(self, start: str, targets: list[str], through: list[str]) -> int:
        """Fewest steps from start to any target, passing only ``through`` spaces (0: start is a target;
        -1: none)."""
        self._check(start)
        goal, open_ = set(targets), set(through)
        if start in goal:
            return 0
        frontier, seen, steps = [start], {start}, 0
        while frontier:
            steps += 1
            nxt = []
            for s in frontier:
                for n in self.adjacent[s]:
                    if n in seen:
                        continue
                    if n in goal:
                        return steps
                    seen.add(n)
                    if n in open_:
                        nxt.append(n)
            frontier = nxt
        return -1


def compile_grid(doc: Document) -> tuple[GridBoard | None, list[Diagnostic]]:
    """Build the graph and tables of a schema-valid grid or hexagons board file."""
    data = doc.data
    problems: list[Diagnostic] = []
    kind = data["kind"]
    width, height = data["cells"]["width"], data["cells"]["height"]
    import networkx as nx

    table = HEXAGON_DIRECTIONS if kind == "hexagons" else ADJACENCY[data.get("adjacency", "orthogonal")]
    graph: nx.Graph = nx.Graph(id=data["id"], width=width, height=height, kind=kind, directions=tuple(table))
    where: dict[tuple[int, int], str] = {}
    room_tags: dict[str, set] = {}
    rooms_data = data.get("rooms") or [{"id": data["id"], "area": [0, 0, width - 1, height - 1]}]
    for i, room in enumerate(rooms_data):
        x0, y0, x1, y1 = room["area"]
        if not (0 <= x0 <= x1 < width and 0 <= y0 <= y1 < height):
            problems.append(
                doc.diag(("rooms", i, "area"), "E602", f"room '{room['id']}' does not fit on the {width}×{height} grid")
            )
            continue
        if room["id"] in room_tags:
            problems.append(doc.diag(("rooms", i, "id"), "E603", f"room '{room['id']}' is defined twice"))
        room_tags[room["id"]] = set(room.get("tags", ()))
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                if (x, y) in where:
                    problems.append(
                        doc.diag(
                            ("rooms", i, "area"),
                            "E603",
                            f"space {space_name(x, y)} is in rooms '{where[(x, y)]}' and '{room['id']}'",
                        )
                    )
                    continue
                where[(x, y)] = room["id"]
                graph.add_node(space_name(x, y), x=x, y=y, room=room["id"], tags=set(room.get("tags", ())))
    for (x, y), room in where.items():
        for dx, dy in table.values():
            if where.get((x + dx, y + dy)) == room:  # each edge is met from both ends; networkx keeps one
                graph.add_edge(space_name(x, y), space_name(x + dx, y + dy), door=False)
    for i, (a, b) in enumerate(data.get("doors", [])):
        a, b = tuple(a), tuple(b)
        if a not in where or b not in where or (b[0] - a[0], b[1] - a[1]) not in table.values():
            problems.append(
                doc.diag(
                    ("doors", i), "E602", f"door {list(a)}–{list(b)} must join two neighbouring spaces of the grid"
                )
            )
            continue
        graph.add_edge(space_name(*a), space_name(*b), door=True)
    for i, mark in enumerate(data.get("marks", [])):
        x0, y0, x1, y1 = mark["area"] if "area" in mark else mark["cell"] * 2
        cells = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
        outside = [c for c in cells if c not in where]
        if outside or not cells:
            where_ = ("marks", i, "area" if "area" in mark else "cell")
            problems.append(
                doc.diag(where_, "E602", f"mark on {list(outside[0] if outside else (x0, y0))}, which is in no room")
            )
            continue
        for cell in cells:
            graph.nodes[space_name(*cell)]["tags"] |= set(mark["tags"])
    if problems:
        return None, problems
    step: dict[str, dict[str, str]] = {}
    for node, d in graph.nodes(data=True):
        step[node] = {}
        for direction, (dx, dy) in table.items():
            other = space_name(d["x"] + dx, d["y"] + dy)
            if graph.has_edge(node, other):
                step[node][direction] = other
    rooms = {n: d["room"] for n, d in graph.nodes(data=True)}
    hints = dict(data.get("draw") or {})
    hints["names"] = {r["id"]: r.get("name", r["id"].replace("-", " ")) for r in rooms_data}
    return _spaces_board(doc, graph, step, rooms, hints, tuple(table)), []


def _spaces_board(doc: Document, graph, step, rooms, hints, directions) -> GridBoard:
    """The tables of a board of spaces, filled at load when they are small (EAGER_WORK)."""
    spaces_in: dict[str, list[str]] = {}
    for n, r in rooms.items():
        spaces_in.setdefault(r, []).append(n)
    tags = {n: frozenset(d["tags"]) for n, d in graph.nodes(data=True)}
    if graph.is_directed():  # a graph board: the edges leaving each node, as written
        adjacent = {n: tuple(graph.successors(n)) for n in graph}
    else:  # a grid lists its neighbours in the order of its directions
        adjacent = {n: tuple(steps.values()) for n, steps in step.items()}
    board = GridBoard(
        doc.data["id"],
        doc.path,
        graph,
        step,
        rooms,
        {r: tuple(s) for r, s in spaces_in.items()},
        tags,
        draw=hints,
        directions=directions,
        adjacent=adjacent,
        coords={n: (d["x"], d["y"]) for n, d in graph.nodes(data=True) if "x" in d},
        opposites=_opposites(step),
    )
    all_tags = set().union(*tags.values())
    if len(step) ** 2 * (len(all_tags) + 1) <= EAGER_WORK:
        for space in step:
            board.distance(space, space)
            for tag in all_tags:
                board.distance_avoiding(space, space, tag)
    return board


def _opposites(step: dict[str, dict[str, str]]) -> dict[str, str]:
    """Each direction's reverse, read from the board's steps: the one that leads back from where it leads."""
    out: dict[str, str] = {}
    for space, ways in step.items():
        for d, there in ways.items():
            if d not in out:
                back = next((b for b, s in step.get(there, {}).items() if s == space), None)
                if back is not None:
                    out[d] = back
    return out


def compile_graph(doc: Document) -> tuple[GridBoard | None, list[Diagnostic]]:
    """Build the tables of a schema-valid graph board file: nodes, and edges between them (an edge's label
    is a direction: ``toward`` follows it; a node may have one edge of each label leaving it)."""
    import networkx as nx

    data = doc.data
    problems: list[Diagnostic] = []
    graph: nx.DiGraph = nx.DiGraph(id=data["id"], kind="graph")
    for i, node in enumerate(data["nodes"]):
        node = {"id": node} if isinstance(node, str) else node
        if node["id"] in graph:
            problems.append(doc.diag(("nodes", i), "E603", f"node '{node['id']}' is defined twice"))
            continue
        graph.add_node(node["id"], room=node.get("room", data["id"]), tags=set(node.get("tags", ())), at=node.get("at"))
    step: dict[str, dict[str, str]] = {n: {} for n in graph}
    labels: dict[str, None] = {}
    for i, edge in enumerate(data.get("edges", [])):
        edge = {"from": edge[0], "to": edge[1]} if isinstance(edge, list) else edge
        ends = (edge["from"], edge["to"]) if edge.get("directed") else (edge["from"], edge["to"], edge["from"])
        missing = [n for n in ends if n not in graph]
        if missing:
            hint = did_you_mean(missing[0], list(graph))
            problems.append(
                doc.diag(
                    ("edges", i), "E602", f"edge names no node {quoted(missing[0])}" + (f" ({hint})" if hint else "")
                )
            )
            continue
        label = edge.get("label")
        for a, b in itertools.pairwise(ends):
            graph.add_edge(a, b, label=label)
            if label is None:
                continue
            if label in step[a] and step[a][label] != b:
                problems.append(doc.diag(("edges", i), "E603", f"two edges labelled '{label}' leave node '{a}'"))
            step[a][label] = b
            labels[label] = None
    if problems:
        return None, problems
    rooms = {n: d["room"] for n, d in graph.nodes(data=True)}
    hints = dict(data.get("draw") or {})
    return _spaces_board(doc, graph, step, rooms, hints, tuple(labels)), []


BOARD_KINDS = {"plane": compile_plane, "grid": compile_grid, "hexagons": compile_grid, "graph": compile_graph}
