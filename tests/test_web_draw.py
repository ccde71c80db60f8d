"""SVG drawing of each board kind, from small board files and hints."""

from xml.etree import ElementTree

from engine.boards.graphs import compile_graph, compile_grid, compile_plane
from engine.load.yaml_source import read_yaml
from engine.ui.options import path_summary
from engine.web.draw import Hints, grid_svg, plane_svg, ring_svg, spaces_svg

SVG = "{http://www.w3.org/2000/svg}"


def board(tmp_path, text, compile_):
    path = tmp_path / "b.yaml"
    path.write_text(text)
    built, problems = compile_(read_yaml(path, "b.yaml"))
    assert not problems
    return built


def parse(svg: str):
    return ElementTree.fromstring(svg)


PLANE = """
id: tiny
kind: plane
cells: {width: 3, height: 2}
labels: [{cell: [1, 0], label: star}]
points:
  - {id: box/left, group: box, label: left, at: [0.5, 0], tags: [north]}
  - {id: box/right, group: box, label: right, at: [1.5, 0], tags: [north]}
  - {id: pot/left, group: pot, label: left, at: [2.5, 2], tags: [south]}
"""


def test_plane_board_draws_labels_anchors_fixtures_trail_and_previews(tmp_path):
    b = board(tmp_path, PLANE, compile_plane)
    hints = Hints.merged({"colours": {"north": "#123456"}, "icons": {"star": "*"}})
    svg = parse(
        plane_svg(
            b,
            hints,
            {0: ["box/left", "pot/left"]},
            [{"action": "go", "points": ["pot/left", "box/right"], "summary": "7: star"}],
        )
    )
    texts = [t.text for t in svg.iter(SVG + "text")]
    assert "star" in texts and "*" in texts  # the labelled cell, with its icon
    assert {"box", "pot"} <= set(texts)  # one fixture per declared group, named once
    assert texts.count("L") == 2 and "R" in texts  # each point labelled
    assert any(r.get("fill") == "#123456" for r in svg.iter(SVG + "rect"))  # colour from the tag's hint
    trail = next(e for e in svg.iter(SVG + "polyline") if e.get("class") == "trail")
    assert len(trail.get("points").split()) == 2
    preview = next(g for g in svg.iter(SVG + "g") if g.get("class") == "preview")
    assert preview.get("data-action") == "go"
    assert "go: 7: star" in "".join(preview.itertext())


def test_a_path_reads_in_the_words_of_the_game_s_paths_hint():
    hint = {"board": "room", "points": "f", "says": "{cost} string, {touched}", "nothing": "no toys"}
    assert path_summary(hint, 134, ["sock", "yarn"]) == "134 string, sock, yarn"
    assert path_summary(hint, 0, []) == "0 string, no toys"


def test_a_path_without_words_in_its_hint_reads_neutrally():
    assert path_summary({"board": "b", "points": "f"}, 7, ["star"]) == "7: star"
    assert path_summary({"board": "b", "points": "f"}, 7, []) == "7: —"


def test_a_paths_hint_is_text_filled_in_never_a_format_string():
    assert path_summary({"says": "{cost.real} {touched!r} {0}"}, 7, []) == "{cost.real} {touched!r} {0}"


def test_ring_draws_piles_in_order_with_counts_tokens_and_highlight():
    piles = [{"zone": f"pile:p{i}", "count": i, "top": None} for i in range(4)]
    svg = parse(ring_svg(piles, {"pile:p2": [0, 1]}, {"pile:p1"}, Hints()))
    groups = [g for g in svg.iter(SVG + "g") if (g.get("class") or "").startswith("pile")]
    assert [g.get("data-zone") for g in groups] == [p["zone"] for p in piles]
    assert [g.get("class") for g in groups].count("pile lit") == 1
    counts = [t.text for t in svg.iter(SVG + "text") if t.get("class") == "count"]
    assert counts == ["0", "1", "2", "3"]
    tokens = [g.get("data-seat") for g in svg.iter(SVG + "g") if g.get("class") == "token"]
    assert tokens == ["0", "1"]


def test_each_ring_pile_is_a_target_named_by_its_zone():
    piles = [{"zone": f"pile:p{i}", "count": 1, "top": None} for i in range(3)]
    svg = parse(ring_svg(piles, {}, set(), Hints()))
    targets = [g.get("data-target") for g in svg.iter(SVG + "g") if g.get("data-zone")]
    assert targets == ["zone:pile:p0", "zone:pile:p1", "zone:pile:p2"]


GRID = """
id: flat
kind: grid
cells: {width: 3, height: 2}
rooms:
  - {id: den, name: The den, area: [0, 0, 1, 1]}
  - {id: nook, area: [2, 0, 2, 1]}
doors: [[[1, 0], [2, 0]]]
marks: [{cell: [0, 1], tags: [start]}]
"""


def test_grid_draws_named_rooms_walls_doors_marks_pieces_and_destinations(tmp_path):
    b = board(tmp_path, GRID, compile_grid)
    hints = Hints.merged({"colours": {"den": "#abcdef"}}, b.draw, {"marks": {"start": {"icon": "S"}}})
    pieces = {"a1": [{"id": "cat", "label": "cat", "colour": "#000000", "icon": "C"}]}
    svg = parse(grid_svg(b, pieces, [{"action": "step cat east", "space": "b1", "piece": "cat"}], hints))
    texts = [t.text for t in svg.iter(SVG + "text")]
    assert "The den" in texts and "nook" in texts and "S" in texts and "C" in texts
    assert sum(1 for r in svg.iter(SVG + "rect") if r.get("fill") == "#abcdef") == 4
    walls = [line for line in svg.iter(SVG + "line") if line.get("class") == "wall"]
    doors = [line for line in svg.iter(SVG + "line") if line.get("class") == "door"]
    assert len(doors) == 1
    assert len(walls) == 10 + 1  # the outline (3 + 3 + 2 + 2 sides of spaces) and den|nook below the door
    dest = next(g for g in svg.iter(SVG + "g") if g.get("class") == "dest")
    assert dest.get("data-action") == "step cat east" and dest.get("data-piece") == "cat"


HEXAGONS = """
id: rhombus
kind: hexagons
cells: {width: 3, height: 3}
marks:
  - {area: [0, 0, 2, 0], tags: [north]}
  - {area: [0, 0, 0, 2], tags: [west]}
"""


def test_a_hexagons_board_is_drawn_as_hexagons_with_coloured_edges_and_its_coordinates(tmp_path):
    b = board(tmp_path, HEXAGONS, compile_grid)
    hints = Hints.merged({"colours": {"north": "#ff0000", "west": "#0000ff"}})
    pieces = {"b2": [{"id": "red", "label": "Red stone", "colour": "#ff0000", "icon": ""}]}
    svg = parse(spaces_svg(b, pieces, [], hints))
    cells = [g for g in svg.iter(SVG + "g") if g.get("class") == "space"]
    assert [g.get("data-target") for g in cells][:3] == ["space:a1", "space:a2", "space:a3"]
    assert all(len(g.find(SVG + "polygon").get("points").split()) == 6 for g in cells)  # six corners each
    assert len(cells) == 9 and not list(svg.iter(SVG + "rect"))
    edges = [e for e in svg.iter(SVG + "line") if e.get("class") == "edge"]
    # the north row's three cells show two sides each to the north, the west column's two to the west
    assert sorted(e.get("stroke") for e in edges) == ["#0000ff"] * 6 + ["#ff0000"] * 6
    coords = [t.text for t in svg.iter(SVG + "text") if "coord" in (t.get("class") or "")]
    assert {"a", "b", "c", "1", "2", "3", "b2"} <= set(coords)  # on the rim and in each cell, shown on demand
    stone = next(g for g in svg.iter(SVG + "g") if g.get("class") == "piece")
    assert stone.find(SVG + "circle").get("fill") == "#ff0000" and stone.find(SVG + "text") is None


GRAPH = """
id: track
kind: graph
nodes: [{id: start, at: [0, 0]}, {id: middle, at: [2, 0]}, {id: end, at: [2, 2]}]
edges: [[start, middle], {from: middle, to: end, directed: true, label: down}]
"""


def test_a_graph_board_is_drawn_as_its_nodes_and_edges_one_way_ones_with_an_arrow(tmp_path):
    b = board(tmp_path, GRAPH, compile_graph)
    svg = parse(spaces_svg(b, {}, [{"action": "go end", "space": "end", "piece": "x"}], Hints()))
    nodes = {g.get("data-space"): g.find(SVG + "circle") for g in svg.iter(SVG + "g") if g.get("class") == "space"}
    assert set(nodes) == {"start", "middle", "end"}
    assert nodes["start"].get("cy") == nodes["middle"].get("cy") != nodes["end"].get("cy")  # where the file puts them
    links = [e for e in svg.iter(SVG + "line") if e.get("class") == "link"]
    assert len(links) == 2 and sum(1 for e in links if e.get("marker-end")) == 1
    assert "down" in [t.text for t in svg.iter(SVG + "text")]
    assert next(g for g in svg.iter(SVG + "g") if g.get("class") == "dest").get("data-action") == "go end"


def test_a_grid_whose_hints_say_intersections_puts_its_spaces_on_the_crossings(tmp_path):
    b = board(
        tmp_path,
        "id: go\nkind: grid\ncells: {width: 3, height: 3}\nrooms: [{id: go, area: [0, 0, 2, 2]}]\n"
        "draw: {on: intersections}\n",
        compile_grid,
    )
    svg = parse(spaces_svg(b, {}, [], Hints.merged(b.draw)))
    links = [e for e in svg.iter(SVG + "line") if e.get("class") == "link"]
    assert len(links) == 12  # 3 rows and 3 columns of 2 segments each
    spaces = [g for g in svg.iter(SVG + "g") if g.get("class") == "space"]
    assert len(spaces) == 9 and all(g.find(SVG + "circle") is not None for g in spaces)
    assert not [e for e in svg.iter(SVG + "line") if e.get("class") == "wall"]
