"""Schema checks (engine/load/schemas.py): a file's problems are worked out once per content, and each file
that holds that content is told them at its own places."""

from __future__ import annotations

from cache_helpers import counter

import engine
from engine.load import schemas
from engine.load.kept import Kept
from engine.load.schemas import check_document
from engine.load.yaml_source import parse_yaml


def test_the_files_a_variant_shares_with_its_game_are_checked_once(monkeypatch):
    """Loading a variant after its game checks only the variant file and the game they make together: the
    game's own files and boards, read again, were checked as the game loaded."""
    monkeypatch.setattr(schemas, "_CHECKED", Kept(64))  # none kept from the tests before
    engine.load_game("caty-mini")
    checks = counter(monkeypatch, schemas, "validator")
    engine.load_game("caty-mini", "older-players")
    assert checks[0] == 2


def test_two_files_with_the_same_mistake_are_each_told_it_at_their_own_place():
    """The problems of a content found once are said of each file that holds it, in that file, on its lines."""
    text = "id: room\nname: Room\nkind: plane\ncells: {width: 12, height: 12}\nlength_scale: -1\n"
    first = check_document(parse_yaml(text, "boards/a.yaml"), "board")
    second = check_document(parse_yaml("# the same\n" + text, "boards/b.yaml"), "board")
    assert len(first) == 2  # the plane's points are missing, and its length scale is below zero
    assert [(d.line + 1, d.col, d.message) for d in first] == [(d.line, d.col, d.message) for d in second]
    assert {d.path for d in first} == {"boards/a.yaml"} and {d.path for d in second} == {"boards/b.yaml"}
