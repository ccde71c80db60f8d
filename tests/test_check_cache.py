"""A second validation of unchanged files does no work; a changed, stale or corrupt entry is checked again."""

from __future__ import annotations

import hashlib

import pytest
from cache_helpers import counter, write_rules

from engine import validate_paths
from engine.runtime import gamedef

GAME = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 2}
play: |
  pass
"""
BOARD_USE = """\
boards:
  - {id: room, files: [room.yaml]}
"""
ROOM = """\
id: room
kind: grid
source: original
cells: {width: 2, height: 1}
rooms:
  - {id: all, area: [0, 0, 1, 0]}
"""


@pytest.fixture
def builds(monkeypatch):
    """How many times rules were compiled."""
    return counter(monkeypatch, gamedef, "check")


@pytest.fixture
def checks(monkeypatch):
    """How many times a game was loaded to be checked (a compiled game may still come from code_cache)."""
    return counter(monkeypatch, gamedef, "load_game")


@pytest.fixture
def rules(tmp_path):
    return write_rules(tmp_path, GAME)


def test_a_second_validation_of_unchanged_rules_builds_nothing(rules, builds, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_CACHE", str(tmp_path / "cache"))
    assert validate_paths([rules.parent]) == [] and builds[0] == 1
    assert validate_paths([rules.parent]) == [] and builds[0] == 1
    assert list((tmp_path / "cache").glob("*.json"))


def test_a_changed_file_is_checked_again(rules, builds):
    assert validate_paths([rules]) == []
    rules.write_text(GAME.replace("pass", "nonsense(1)"), encoding="utf-8")
    found = validate_paths([rules])
    assert builds[0] == 2 and found and all(d.is_error for d in found)


def test_a_corrupt_entry_is_checked_again_not_trusted(rules, checks, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_CACHE", str(tmp_path / "cache"))
    assert validate_paths([rules]) == []
    for entry in (tmp_path / "cache").glob("*.json"):
        entry.write_text('{"files": {"/elsewhere": "0"', encoding="utf-8")  # cut short
    assert validate_paths([rules]) == [] and checks[0] == 2
    for entry in (tmp_path / "cache").glob("*.json"):
        entry.write_text('{"files": {"/nowhere/at/all.yaml": "00"}}', encoding="utf-8")
    assert validate_paths([rules]) == [] and checks[0] == 3


def test_an_entry_rewritten_to_vouch_for_broken_rules_is_not_believed(rules, checks, tmp_path, monkeypatch):
    """Whoever writes an entry without the user's key cannot make validation skip a file: it is checked again."""
    monkeypatch.setenv("TABLETOP_CACHE", str(tmp_path / "cache"))
    clean = hashlib.sha256(rules.read_bytes()).hexdigest().encode()
    assert validate_paths([rules]) == []
    rules.write_text(GAME.replace("pass", "nonsense(1)"), encoding="utf-8")
    broken = hashlib.sha256(rules.read_bytes()).hexdigest().encode()
    for entry in (tmp_path / "cache").glob("*.json"):
        entry.write_bytes(entry.read_bytes().replace(clean, broken))
    found = validate_paths([rules])
    assert checks[0] == 2 and found and all(d.is_error for d in found)


def test_a_file_made_where_it_is_looked_for_first_is_seen(tmp_path, checks):
    """A board file found in the second folder is shadowed by one made later in the first: not a stale hit."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    boards = tmp_path / "boards" / "mini"
    boards.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME + BOARD_USE, encoding="utf-8")
    (boards / "room.yaml").write_text(ROOM, encoding="utf-8")
    assert validate_paths([folder]) == []
    assert validate_paths([folder]) == [] and checks[0] == 1
    (folder / "room.yaml").write_text("kind: grid\n", encoding="utf-8")  # found first now, and broken
    found = validate_paths([folder])
    assert checks[0] == 2 and found and all(d.path.endswith("room.yaml") for d in found)
