"""Rule files say which rules format they are written in, and the engine says what it makes of it.

A game declares `format:` at the top of its game.yaml.  A newer format than this tabletop reads is refused
in one located line; an older one, or none (read as the oldest), loads with a located warning saying the
fix; a form deprecated in one format is still accepted, with its warning, until the format it is removed in.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine import RulesError, load_game
from engine.cli import main
from engine.load.catalogue import list_games
from engine.load.formats import CURRENT, DEPRECATIONS, ENGINE_VERSION, OLDEST, RULES_FORMATS
from engine.tools.codes import CODES
from engine.tools.lint.checks import lint_game

ROOT = Path(__file__).resolve().parents[1]

GAME = f"""\
# a small game for the format checks
format: {CURRENT}
id: tiny
name: Tiny
players: {{min: 2, max: 2}}
player_variables:
  points: {{type: int}}
play: |
  choice = choose "take" from [1, 2]
  me.points = choice
  end_game
scoring:
  - {{id: points, points: p.points}}
"""


def write(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "rules" / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_shipped_game_declares_the_current_format_and_loads_without_a_warning():
    games = list_games()
    assert games
    for entry in games:
        game = load_game(entry["id"])
        assert game.rules_format == CURRENT, entry["id"]
        assert game.warnings == (), [w.format() for w in game.warnings]


def test_a_game_of_a_newer_format_is_refused_in_one_located_line(tmp_path, capsys):
    path = write(tmp_path, GAME.replace(f"format: {CURRENT}", f"format: {CURRENT + 1}") + "a_key_of_the_future: 1\n")
    with pytest.raises(RulesError) as info:
        load_game(path)
    [d] = info.value.diagnostics  # its shape is not judged by this engine's schema: no E201 for the new key
    assert d.code == "E111" and (d.line, d.col) == (2, 9)
    assert d.message == f"rules format {CURRENT + 1}, this tabletop reads up to {CURRENT}: upgrade tabletop"
    assert main(["validate", str(path)]) == 1
    assert f"game.yaml:2:9: E111 rules format {CURRENT + 1}" in capsys.readouterr().out


def test_a_game_without_a_format_is_read_as_the_oldest_with_a_warning_saying_the_fix(tmp_path, capsys):
    path = write(tmp_path, GAME.replace(f"format: {CURRENT}\n", ""))
    game = load_game(path)
    assert game.rules_format == OLDEST
    [w] = game.warnings
    assert w.code == "W310" and w.severity == "warning" and (w.line, w.col) == (2, 1)
    assert f"read as rules format {OLDEST}" in w.message and f"format: {CURRENT}" in w.hint
    assert "tabletop upgrade" in w.hint
    assert main(["validate", str(path)]) == 0  # a warning: the game still loads and validates
    assert "W310" in capsys.readouterr().out
    assert [d.code for d in lint_game(game)] == ["W310"]


def test_an_older_declared_format_loads_with_a_warning_at_its_line(tmp_path):
    path = write(tmp_path, GAME.replace(f"format: {CURRENT}", f"format: {CURRENT - 1}"))
    [w] = load_game(path).warnings
    assert w.code == "W311" and (w.line, w.col) == (2, 9) and "tabletop upgrade" in w.hint


def test_play_says_what_loading_warns_of_on_stderr(tmp_path, capsys):
    path = write(tmp_path, GAME.replace(f"format: {CURRENT}\n", ""))
    assert main(["simulate", str(path), "--players", "2", "--games", "2", "--seed", "1", "--json"]) == 0
    err = capsys.readouterr().err
    assert "game.yaml:2:1: W310 no `format:`" in err


def test_declaring_the_format_keeps_the_rules_hash_so_saves_still_replay(tmp_path):
    path = write(tmp_path, GAME)
    declared = load_game(path).rules_hash
    path.write_text(GAME.replace(f"format: {CURRENT}\n", ""), encoding="utf-8")
    assert load_game(path).rules_hash == declared


def test_a_deprecated_name_is_accepted_with_a_located_warning_at_load_and_in_lint(tmp_path):
    path = write(tmp_path, GAME.replace("me.points = choice", "me.points = choice + count([3, 4])"))
    game = load_game(path)
    [w] = game.warnings
    assert w.code == "W308" and (w.line, w.col) == (10, 24) and "size(…)" in w.hint
    assert w.context == ("  me.points = choice + count([3, 4])", " " * 23 + "^")
    assert [d.code for d in lint_game(game)] == ["W308"]
    state = game.new_game(players=2, seed=1)
    state.apply("take 2")
    assert state.scores == [4, 0]  # count still counts


def test_a_greedy_value_reading_the_option_id_is_deprecated(tmp_path):
    bots = 'bots:\n  greedy:\n    value: "1 if action == \\"2\\" else 0"\n'
    [w] = load_game(write(tmp_path, GAME + bots)).warnings
    assert w.code == "W312" and w.line == 16 and "choices:" in w.hint and "`choice`" in w.hint


def test_each_deprecated_form_is_still_accepted_a_release_before_its_removal_and_explained():
    for row in DEPRECATIONS:
        assert OLDEST <= row.deprecated_in <= CURRENT < row.removed_in, row
        assert row.code in CODES and f"format {row.removed_in}" in CODES[row.code][1]


def test_the_formats_are_numbered_in_order_from_the_oldest_to_the_current():
    assert [f.number for f in RULES_FORMATS] == list(range(OLDEST, CURRENT + 1))
    assert all(f.changes for f in RULES_FORMATS[1:])  # a new format is made by a change


def test_the_engine_version_is_the_package_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == ENGINE_VERSION and re.fullmatch(r"\d+\.\d+\.\d+", ENGINE_VERSION)
