"""Hex, as its rules read.

Cells are named like a chessboard: columns a–g from the west, rows 1–7 from the north, each row half
a cell further east than the one above.  A cell's six neighbours are west/east in its row, the two
above it (same column, and one column east) and the two below (same column, and one column west).
Red (seat 0) joins north and south, Blue (seat 1) west and east.
"""

import random

import pytest
from gallery_helpers import game, ids, random_games
from table import accounted

RED, BLUE = 0, 1
CELLS = [f"{c}{r}" for c in "abcdefg" for r in range(1, 8)]


def new(seed=0):
    return game("hex").new_game(players=2, seed=seed)


def play(st, *cells):
    """Place stones on these cells, the players taking turns from whoever is to move."""
    for cell in cells:
        st.apply(f"place {cell}")


def test_red_places_first_anywhere():
    """Ruling no-swap: Red places first, on any of the 49 cells."""
    st = new()
    assert st.current_player == RED
    assert sorted(st.legal_actions()) == sorted(f"place {c}" for c in CELLS)
    play(st, "d4")
    assert ids(st, "cell:d4") == ["red"]
    assert st.current_player == BLUE
    assert "place d4" not in st.legal_actions() and len(st.legal_actions()) == 48
    assert accounted(st)


def test_a_chain_from_north_to_south_wins_at_its_last_stone():
    st = new()
    # Red runs down column a (each cell touches the one below it); Blue wanders along column g.
    play(st, "a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6")
    assert not st.is_terminal
    play(st, "a7")
    assert st.is_terminal and st.winners == [RED]
    assert st.outcome.reason == "a chain of stones joined two edges"


def test_the_rising_diagonal_is_a_chain_the_falling_one_is_not():
    """Hexagons touch along one diagonal only: a7–b6–…–g1 joins west and east, a1–b2–…–g7 does not."""
    st = new()
    falling = ["a1", "b2", "c3", "d4", "e5", "f6", "g7"]
    red = ["c1", "c2", "d1", "d2", "e1", "e2", "f1"]  # Red's replies stay near the north edge
    for r, b in zip(red, falling):
        play(st, r, b)
    assert not st.is_terminal  # Blue touches west and east, but the cells of a falling diagonal do not touch
    st = new()
    rising = ["a7", "b6", "c5", "d4", "e3", "f2", "g1"]
    for r, b in zip(red, rising):
        play(st, r, b)
    assert st.is_terminal and st.winners == [BLUE]


def test_stones_on_both_edges_win_only_when_joined():
    st = new()
    play(st, "d1", "a1", "d2", "a2", "d3", "b1", "d5", "b2", "d6", "c1", "d7", "c2")
    assert not st.is_terminal  # Red holds north and south, but d4 is missing
    play(st, "d4")
    assert st.winners == [RED]


def test_every_game_ends_with_one_winner_before_the_board_is_full():
    """Ruling no-draw: random games end with one winner, never a draw, with stones still to place."""
    for st in random_games("hex", 2, range(12)):
        assert len(st.winners) == 1 and not st.outcome.is_draw
        assert st.outcome.reason == "a chain of stones joined two edges"
        assert accounted(st)


@pytest.mark.parametrize("seed", range(20))
def test_a_full_board_joins_exactly_one_player(seed):
    """The Hex theorem, through the board's connection test: colour every cell at random (25 red, 24
    blue); exactly one player is joined.  With four or eight neighbours a cell this would fail."""
    board = game("hex").board("cells")
    cells = list(board.nodes)
    random.Random(seed).shuffle(cells)
    red, blue = cells[:25], cells[25:]
    red_joined = board.connected(board.tagged("north"), board.tagged("south"), red)
    blue_joined = board.connected(board.tagged("west"), board.tagged("east"), blue)
    assert red_joined != blue_joined


def test_greedy_takes_the_winning_cell_and_blocks_the_opponents():
    from engine.bots import make_agent

    bot = make_agent("greedy", seed=1)
    bot.explore = 0
    st = new()
    play(st, "a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6")
    assert bot.act(st.view(RED), st.determinized(RED, 1)) == "place a7"
    st = new()
    play(st, "a1", "b3", "a2", "c3", "a3", "d3", "a4", "e3", "a5", "f3", "a6")
    assert bot.act(st.view(BLUE), st.determinized(BLUE, 1)) == "place a7"  # Red would win there


@pytest.mark.parametrize("bots", ["random", "greedy", "mcts:6"])
def test_every_bot_plays_hex_to_the_end(bots):
    from engine.lab.simulate import simulate

    summary = simulate(game("hex"), 2, 2, seed=3, bots=bots, limit=100)
    assert summary["errors"] == 0 and summary["cut_off"] == 0 and summary["draws"] == 0
    assert sum(summary["wins"]) == 2 and summary["ties"] == 0


def test_the_board_is_drawn_with_its_rows_shifted_and_its_stones():
    """The terminal draws the stones on their cells; the browser sets each row half a cell east of the last."""
    import xml.etree.ElementTree as ET

    from rich.console import Console

    from engine.ui.terminal import render_view
    from engine.web.draw import CELL, Hints, spaces_svg

    st = new()
    play(st, "d4")
    console = Console(width=200, record=True)
    render_view(st.game, st.view(BLUE), console)
    assert "red" in console.export_text()
    board = st.game.board("cells")
    svg = ET.fromstring(spaces_svg(board, {}, [], Hints()))
    x = {}  # each hexagon's centre, the mean of its six corners
    for g in svg.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("data-space"):
            corners = [
                float(p.split(",")[0]) for p in g.find("{http://www.w3.org/2000/svg}polygon").get("points").split()
            ]
            x[g.get("data-space")] = sum(corners) / 6
    assert round(x["a2"] - x["a1"], 6) == CELL / 2 and round(x["b1"] - x["a1"], 6) == CELL


def test_a_saved_state_with_a_stone_off_the_board_is_refused():
    """A position in a save must be a cell of the board, as in the rules."""
    import json

    from engine.errors import StateError

    st = new()
    play(st, "d4")
    data = json.loads(st.to_json())
    assert st.game.state_from_json(json.dumps(data)).to_json() == st.to_json()
    data["player_variables"][RED]["stones"] = ["z9"]
    with pytest.raises(StateError):
        st.game.state_from_json(json.dumps(data))
