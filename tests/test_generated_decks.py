"""Decks generated from the product of enums: ids, names and attributes from templates."""

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
  faces: ["1", "2", ace]
components:
  - kind: chip
    attributes: {colour: colours, value: int}
    start: deck
    generate:
      from: {colour: colours, face: faces}
      id: "{face}-{colour}"
      name: "{Face} of {colour}"
      copies: 2
      attributes:
        colour: "{colour}"
        value: {face: {ace: 11}, else: "{face}"}
zones:
  - {id: deck, visibility: public}
play: |
  end_game
"""


def test_one_card_per_combination_in_enum_order_with_copies(tmp_path):
    game = load_game(write_game(tmp_path, GAME))
    assert game.card_ids == [c for c in ["1-red", "2-red", "ace-red", "1-blue", "2-blue", "ace-blue"] for _ in (0, 1)]
    assert game.attributes["name"][4:6] == ["Ace of red", "Ace of red"]
    assert game.attributes["value"][::2] == [1, 2, 11, 1, 2, 11]
    assert game.attributes["colour"][::2] == ["red"] * 3 + ["blue"] * 3


@pytest.mark.parametrize(
    "old, new, at, said",
    [
        ("face: faces}", "face: ranks}", "      from:", "'ranks' is no enum of the game"),
        ('id: "{face}-{colour}"', 'id: "{face}"', "      id:", "component id '1' is used twice"),
        ('id: "{face}-{colour}"', 'id: "{face}-{suit}"', "      id:", "'{suit}' names no field of 'from'"),
        ("{ace: 11}", "{jack: 11}", "        value:", "'jack' is not one of the faces"),
        ('{ace: 11}, else: "{face}"}', "{ace: 11}}", "        value:", "the table gives nothing for face '1'"),
        ('value: {face: {ace: 11}, else: "{face}"}', 'value: "{face}"', "        value:", "'ace' is not"),
        ('name: "{Face} of {colour}"', 'name: "{Face} of {colour}"\n      id: "x"', "      id:", "duplicate"),
    ],
)
def test_misuse_is_located(tmp_path, old, new, at, said):
    assert_located(tmp_path, GAME, at, said, old, new)
