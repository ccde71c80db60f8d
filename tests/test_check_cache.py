"""A second validation of unchanged files does no work; a changed, stale or corrupt entry is checked again."""

from __future__ import annotations

import pytest

from engine import gamedef, validate_paths

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2}
play: |
  pass
"""


@pytest.fixture
def builds(monkeypatch):
    """How many times rules were compiled."""
    count = [0]
    real = gamedef.build

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(gamedef, "build", counting)
    return count


@pytest.fixture
def rules(tmp_path):
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    return folder / "game.yaml"


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


def test_a_corrupt_entry_is_rebuilt_not_trusted(rules, builds, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_CACHE", str(tmp_path / "cache"))
    assert validate_paths([rules]) == []
    for entry in (tmp_path / "cache").glob("*.json"):
        entry.write_text('{"files": {"/elsewhere": "0"', encoding="utf-8")  # cut short
    assert validate_paths([rules]) == [] and builds[0] == 2
    for entry in (tmp_path / "cache").glob("*.json"):
        entry.write_text('{"files": {"/nowhere/at/all.yaml": "00"}}', encoding="utf-8")
    assert validate_paths([rules]) == [] and builds[0] == 3
