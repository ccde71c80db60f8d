"""Nested lists and maps as types, on both paths, through JSON and a decision.

A map has text keys (an enum's members, names) and values of one type, never cards; it is a value:
``with_key``/``without_key`` give a new map.  Lists nest: ``list[list[int]]``.
"""

from __future__ import annotations

import pytest
from language_helpers import assert_located, write_game

from engine import load_game

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2}
enums:
  colours: [red, blue]
variables:
  grid: {type: "list[list[int]]"}
  tally: {type: "map[int]"}
  out: {type: "list[int]"}
  names: {type: "list[text]"}
play: |
  grid = [[1, 2], [3, 4, 5]]
  for c in colours:
      tally = with_key(tally, c, index_of(colours, c) + 1)
  more = {"a": [1], "b": []}
  pick = choose "add" from colours
  tally = with_key(without_key(tally, "blue"), pick, 9)
  out = [size(row) for row in grid] + [sum(item(grid, 1))] + values(tally) + [get(tally, "red")]
  names = keys(tally) + ["yes" if "blue" in tally else "no"] + keys(more) + keys({})
  end_game
"""


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("answer, tally", [("add red", {"red": 9}), ("add blue", {"red": 1, "blue": 9})])
def test_maps_and_nested_lists(tmp_path, reference, answer, tally):
    game = load_game(write_game(tmp_path, GAME), reference=reference)
    state = game.state_from_json(game.new_game(players=2).to_json())  # a map local in the frame, through JSON
    state.apply(answer)
    got = state.view(0)["variables"]
    assert got["tally"] == tally
    assert got["out"] == [2, 3, 12, *tally.values(), tally["red"]]
    assert got["names"] == [*tally, "yes" if "blue" in tally else "no", "a", "b"]
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize(
    "old, new, at, said",
    [
        ('tally: {type: "map[int]"}', 'tally: {type: "map[card]"}', "  tally:", "unknown type"),
        ('more = {"a": [1], "b": []}', 'more = {"a": 1, "a": 2}', "  more =", 'key "a" is given twice'),
        ('more = {"a": [1], "b": []}', 'more = {"a": 1, "b": "x"}', "  more =", "a map holds one kind of value"),
        ('"yes" if "blue" in tally', '"yes" if 3 in tally', "  names =", "left of 'in' a map must be text"),
    ],
)
def test_misuse_is_located(tmp_path, old, new, at, said):
    assert_located(tmp_path, GAME, at, said, old, new)
