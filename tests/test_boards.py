"""Boards of spaces: declared grid adjacency, hex grids, graph boards, their operations and types.

Each construct runs on a small board written here, through the effect language on both backends
(the native VM and the reference interpreter): a rule computes the values into variables, and both
paths must agree with the expected values.  Position and direction literals are checked at load.
"""

import itertools
import random
import textwrap

import networkx as nx
import pytest

from engine import RulesError, RuntimeRuleError, load_game
from engine.tools.validate import validate_paths

HEADER = """\
id: mini
name: Mini
players: {min: 2, max: 2}
"""

GRID = """\
id: tiny
kind: grid
adjacency: {adjacency}
cells: {{width: 3, height: 3}}
rooms:
  - {{id: west, area: [0, 0, 0, 2]}}
  - {{id: east, area: [1, 0, 2, 2]}}
doors:
  - [[0, 1], [1, 1]]
"""

HEX = """\
id: honeycomb
kind: hexagons
cells: {width: 4, height: 3}
marks:
  - {area: [0, 0, 3, 0], tags: [north]}
  - {cell: [3, 2], tags: [corner]}
"""

# A track of five squares, one way, with a ladder from s2 up to s5, and a ring of four pits.
TRACK = """\
id: track
kind: graph
nodes: [s1, s2, s3, s4, {id: s5, tags: [goal]}]
edges:
  - {from: s1, to: s2, directed: true, label: next}
  - {from: s2, to: s3, directed: true, label: next}
  - {from: s3, to: s4, directed: true, label: next}
  - {from: s4, to: s5, directed: true, label: next}
  - {from: s2, to: s5, directed: true, label: ladder}
"""

RING = """\
id: ring
kind: graph
nodes: [p1, p2, p3, {id: p4, room: store}]
edges:
  - {from: p1, to: p2, label: across}
  - [p2, p3]
  - [p3, p4]
  - [p4, p1]
"""


def make_game(tmp_path, body: str, boards: dict[str, str], reference: bool = False):
    """Write rules/mini/game.yaml beside its board files and load it."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    for name, text in boards.items():
        (folder / name).write_text(text, encoding="utf-8")
    return load_game(folder / "game.yaml", reference=reference)


def computed(tmp_path, boards: dict[str, str], values: dict[str, tuple[str, str]]) -> dict:
    """The values of these expressions (name → (type, expression)), on both code paths, which must agree."""
    uses = "".join(f"  - {{id: b{i}, files: [{name}]}}\n" for i, name in enumerate(boards))
    body = (
        f"boards:\n{uses}variables:\n"
        + "".join(f'  {name}: {{type: "{t}"}}\n' for name, (t, _) in values.items())
        + "play: |\n"
        + "".join(f"  {name} = {expr}\n" for name, (_, expr) in values.items())
        + '  end_game "done"\n'
    )
    results = []
    for reference in (False, True):
        folder = tmp_path / ("reference" if reference else "fast")
        st = make_game(folder, body, boards, reference).new_game(players=2, seed=0)
        assert st.is_terminal
        results.append({name: st.vars[name] for name in values})
    assert results[0] == results[1]
    return results[0]


@pytest.mark.parametrize(
    "adjacency, directions, around",
    [
        ("orthogonal", ["north", "east", "south", "west"], ["b1", "c2", "b3"]),
        ("diagonal", ["northeast", "southeast", "southwest", "northwest"], ["c1", "c3"]),
        (
            "both",
            ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"],
            ["b1", "c1", "c2", "c3", "b3"],
        ),
    ],
)
def test_a_grid_declares_its_adjacency(tmp_path, adjacency, directions, around):
    """The centre b2 of the east room: its neighbours by the declared adjacency, never through the
    wall to the west room (a1, a3 diagonally; a2 only by the door, orthogonally)."""
    grid = GRID.format(adjacency=adjacency)
    if adjacency == "diagonal":  # a door joins orthogonal neighbours: none on this board
        grid = grid.split("doors:")[0]
    got = computed(
        tmp_path,
        {"tiny.yaml": grid},
        {
            "dirs": ("list[direction]", "directions(b0)"),
            "near": ("list[position]", 'neighbours(b0, "b2")'),
            "door": ("list[position]", 'neighbours(b0, "a2")'),
        },
    )
    assert got["dirs"] == directions
    assert sorted(got["near"]) == sorted(around + (["a2"] if adjacency != "diagonal" else []))
    assert ("b2" in got["door"]) == (adjacency != "diagonal")
    assert all(s.startswith("a") for s in got["door"] if s != "b2")


def test_diagonal_steps_by_toward_and_the_default_stays_orthogonal(tmp_path):
    both = GRID.format(adjacency="both")
    default = GRID.format(adjacency="orthogonal").replace("adjacency: orthogonal\n", "")
    got = computed(
        tmp_path,
        {"both.yaml": both, "plain.yaml": default},
        {
            "ne": ("position", 'toward(b0, "b2", "northeast")'),
            "wall": ("position", 'toward(b0, "b2", "southwest")'),
            "far": ("int", 'grid_distance(b0, "b3", "c1")'),
            "plain": ("int", 'grid_distance(b1, "b3", "c1")'),
            "dir": ("direction", 'direction(b0, "b2", "c3")'),
            "plain_dirs": ("list[direction]", "directions(b1)"),
        },
    )
    assert got["ne"] == "c1" and got["wall"] == ""  # a3 is in the other room
    assert got["far"] == 2 and got["plain"] == 3 and got["dir"] == "southeast"
    assert got["plain_dirs"] == ["north", "east", "south", "west"]


def test_a_hex_grid_has_six_directions_in_axial_coordinates(tmp_path):
    got = computed(
        tmp_path,
        {"hex.yaml": HEX},
        {
            "dirs": ("list[direction]", "directions(b0)"),
            "inner": ("list[position]", 'neighbours(b0, "b2")'),
            "corner": ("list[position]", 'neighbours(b0, "a1")'),
            "ne": ("position", 'toward(b0, "b2", "northeast")'),
            "far": ("int", 'grid_distance(b0, "a3", "d1")'),
            "across": ("int", 'grid_distance(b0, "a1", "d3")'),
            "north": ("list[position]", 'tagged(b0, "north")'),
            "all": ("int", "count(spaces(b0))"),
        },
    )
    assert got["dirs"] == ["northeast", "east", "southeast", "southwest", "west", "northwest"]
    assert got["inner"] == ["c1", "c2", "b3", "a3", "a2", "b1"]  # in the order of the directions
    assert got["corner"] == ["b1", "a2"]
    assert got["ne"] == "c1"
    assert got["far"] == 3  # the rising diagonal: three steps northeast
    assert got["across"] == 5  # the falling one: no shortcut, 3 east and 2 southeast
    assert got["north"] == ["a1", "b1", "c1", "d1"] and got["all"] == 12


def test_a_graph_board_follows_its_directed_and_labelled_edges(tmp_path):
    """A label is a direction (toward follows it); a node's room is the board's id unless it names one."""
    got = computed(
        tmp_path,
        {"track.yaml": TRACK, "ring.yaml": RING},
        {
            "dirs": ("list[direction]", "directions(b0)"),
            "ladder": ("position", 'toward(b0, "s2", "ladder")'),
            "no_ladder": ("position", 'toward(b0, "s3", "ladder")'),
            "next": ("list[position]", 'neighbours(b0, "s2")'),
            "back": ("int", 'grid_distance(b0, "s5", "s1")'),
            "route": ("list[position]", 'shortest_path(b0, "s1", "s5")'),
            "goal": ("list[position]", 'tagged(b0, "goal")'),
            "across": ("position", 'toward(b1, "p2", "across")'),
            "round": ("list[position]", 'neighbours(b1, "p1")'),
            "store": ("text", 'room_of(b1, "p4")'),
            "rest": ("list[position]", 'spaces_of(b1, "ring")'),
            "ring": ("list[position]", 'shortest_path(b1, "p1", "p3")'),
        },
    )
    assert got["dirs"] == ["next", "ladder"]
    assert got["ladder"] == "s5" and got["no_ladder"] == ""
    assert got["next"] == ["s3", "s5"]
    assert got["back"] == -1  # one way only
    assert got["route"] == ["s1", "s2", "s5"]  # up the ladder
    assert got["goal"] == ["s5"]
    assert got["across"] == "p1"  # an undirected labelled edge is followed both ways
    assert sorted(got["round"]) == ["p2", "p4"]
    assert got["store"] == "store" and got["rest"] == ["p1", "p2", "p3"]
    assert len(got["ring"]) == 3 and got["ring"][0] == "p1" and got["ring"][-1] == "p3"


def test_connected_joins_two_sets_through_the_spaces_given(tmp_path):
    got = computed(
        tmp_path,
        {"hex.yaml": HEX},
        {
            "rising": ("bool", 'connected(b0, ["a3"], ["d1"], ["a3", "b2", "c1", "d1"])'),
            "falling": ("bool", 'connected(b0, ["a1"], ["c3"], ["a1", "b2", "c3"])'),
            "end_outside": ("bool", 'connected(b0, ["a3"], ["c1"], ["a3", "b2"])'),
            "edge": ("bool", 'connected(b0, tagged(b0, "north"), ["c3"], [s for s in spaces(b0) if s != "b2"])'),
        },
    )
    assert got == {"rising": True, "falling": False, "end_outside": False, "edge": True}


@pytest.mark.parametrize("seed", range(30))
def test_connected_agrees_with_networkx_on_the_subgraph(tmp_path_factory, seed):
    """The search over the precomputed neighbours answers as networkx does on the subgraph."""
    board = _board(tmp_path_factory, HEX if seed % 3 else GRID.format(adjacency="both"))
    rnd = random.Random(seed)
    through = [s for s in board.nodes if rnd.random() < 0.6]
    sources, targets = rnd.sample(board.nodes, 2), rnd.sample(board.nodes, 2)
    sub = board.graph.subgraph(through)
    expected = any(a in sub and b in sub and nx.has_path(sub, a, b) for a, b in itertools.product(sources, targets))
    assert board.connected(sources, targets, through) == expected


def _board(tmp_path_factory, text: str):
    folder = tmp_path_factory.mktemp("board")
    game = make_game(folder, "boards:\n  - {id: b, files: [b.yaml]}\nplay: |\n  pass\n", {"b.yaml": text})
    return game.board("b")


@pytest.mark.parametrize(
    "line, message",
    [
        ('x = toward(b0, "z9", "north")', "'z9' is not a space of board 'b0'"),
        ('x = toward(b0, "b2", "northeast")', "'northeast' is not a direction of board 'b0'"),
        ('x = neighbours(b0, "b 2")', "'b 2' is not a space of board 'b0'"),
        ('if pos == "q7":\n      pass', "'q7' is not a space of the game's boards"),
        ('x = size(square("k1"))', "'k1' is not a space of the game's boards"),
        ('x = "c9" in neighbours(b0, "b2")', "'c9' is not a space of the game's boards"),
    ],
)
def test_a_position_or_direction_not_on_the_board_is_an_error_at_load(tmp_path, line, message):
    body = (
        "boards:\n  - {id: b0, files: [tiny.yaml]}\n"
        "zones:\n  - {id: square, per: b0, visibility: public}\n"
        "variables:\n  pos: {type: position}\n"
        f"play: |\n  {line}\n"
    )
    with pytest.raises(RulesError) as err:
        make_game(tmp_path, body, {"tiny.yaml": GRID.format(adjacency="orthogonal")})
    problems = [p for p in err.value.diagnostics if p.code == "E507"]
    assert len(problems) == 1 and message in problems[0].message
    assert problems[0].path.endswith("game.yaml") and problems[0].line > 1 and problems[0].col > 1


def test_a_variable_starting_off_the_board_is_an_error_at_load(tmp_path):
    body = (
        "boards:\n  - {id: b0, files: [tiny.yaml]}\n"
        'variables:\n  pos: {type: position, initial: "z9"}\n'
        "play: |\n  pass\n"
    )
    with pytest.raises(RulesError, match="'z9' is no position of the game's boards"):
        make_game(tmp_path, body, {"tiny.yaml": GRID.format(adjacency="orthogonal")})


def test_positions_and_directions_in_the_action_space_are_bounded_by_the_board(tmp_path):
    body = """\
        boards:
          - {id: b0, files: [hex.yaml]}
        variables:
          at: {type: position, initial: "a1"}
        functions:
          - {id: ways, params: {s: position}, returns: "list[direction]", value: "directions(b0)"}
        play: |
          d = choose "go" from ways(at) by me
          s = choose "to" from [toward(b0, at, d)] by me
        """
    game = make_game(tmp_path, body, {"hex.yaml": HEX})
    space = game.action_space(2)
    directions = ["northeast", "east", "southeast", "southwest", "west", "northwest"]
    assert [a for a in space if a.startswith("go ")] == [f"go {d}" for d in directions]
    assert {a for a in space if a.startswith("to ")} <= {"to", "to "} | {f"to {s}" for s in game.board("b0").nodes}
    st = game.new_game(players=2, seed=0)
    assert sorted(st.legal_actions()) == sorted(f"go {d}" for d in directions)


@pytest.mark.parametrize(
    "board, message",
    [
        (TRACK.replace("to: s5, directed: true, label: ladder", "to: s9, directed: true"), "edge names no node 's9'"),
        (TRACK.replace("label: ladder", "label: next"), "two edges labelled 'next' leave node 's2'"),
        (HEX.replace("[3, 2]", "[4, 2]"), "mark on [4, 2], which is in no room"),
        (GRID.format(adjacency="diagonal"), "door [0, 1]–[1, 1] must join two neighbouring spaces"),
    ],
)
def test_a_bad_board_is_a_located_one_line_error(tmp_path, board, message):
    path = tmp_path / "boards" / "mini" / "bad.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(board, encoding="utf-8")
    problems = validate_paths([path])
    assert len(problems) == 1 and problems[0].message.startswith(message)
    assert problems[0].line > 1 and "\n" not in problems[0].message


def test_the_language_reference_documents_the_boards():
    from engine.tools.doc import language_reference

    text = language_reference()
    boards = text[text.index("## Boards") : text.index("## Writing fast rules")]
    for kind in ("`plane`", "`grid`", "`hexagons`", "`graph`"):
        assert kind in boards
    for word in ("adjacency: orthogonal", "connected(board, sources, targets, through)", "`position`", "`direction`"):
        assert word in boards
    assert "`connected(board: board, sources: list[position]" in text and "`spaces(board: board)`" in text


@pytest.mark.parametrize("text", [HEX, TRACK, RING, GRID.format(adjacency="diagonal").split("doors:")[0]])
def test_lint_reads_every_kind_of_board_without_warnings(tmp_path, text):
    """No room warnings where a board has no rooms, and none for a diagonal grid's two colours of squares."""
    from engine.tools.lint.checks import lint_paths

    path = tmp_path / "boards" / "mini" / "b.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    found, _ = lint_paths([path])
    assert found == []


@pytest.mark.parametrize("reference", [False, True])
def test_a_zone_of_a_space_that_is_not_there_is_the_rules_error_at_its_line(tmp_path, reference):
    """A step off the board gives "" (no space): the zone of that space is no zone, said in the rules'
    words at the statement's line, on both backends."""
    body = (
        "boards:\n  - {id: b0, files: [tiny.yaml]}\nzones:\n  - {id: spot, per: b0, visibility: public}\n"
        "variables:\n  n: {type: int}\nplay: |\n  n = 1\n"
        '  n = n + size(spot(toward(b0, "a1", "north")))\n  end_game "done"\n'
    )
    game = make_game(tmp_path, body, {"tiny.yaml": GRID.format(adjacency="orthogonal")}, reference)
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(players=2)
    d = info.value.diagnostic
    assert (d.code, d.line, d.message) == ("E701", 12, "there is no zone 'spot:' (in 'play')")
