"""Saves say which tabletop wrote them, so that an old save either replays or says what can replay it.

The user's situation: saves from last month did not replay, and nothing said why — the save format number had
not changed when the meaning of a save had.  A save records the engine version, its save format and the rules
format; an old save replays when the game comes out the same, else it is refused in one line naming the version
that wrote it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import StateError, load_game
from engine.cli import main
from engine.load.formats import CURRENT, ENGINE_VERSION, SAVE_FORMAT
from engine.runtime.saves import parse_save, read_save, replay, save_data

OLD_SAVE = Path(__file__).parent / "data" / "saves" / "no-thanks-format-1.json"


def played(seed: int = 3):
    game = load_game("no-thanks")
    state = game.new_game(players=3, seed=seed)
    rnd = random.Random(seed)
    while not state.is_terminal:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def as_format_1(data: dict) -> dict:
    """The same save as a build of 0.1.0 wrote it: no version, no rules format."""
    old = {k: v for k, v in data.items() if k not in ("engine", "rules_format")}
    old["format"] = 1
    return old


def test_a_save_records_the_engine_version_and_the_formats_it_was_written_with():
    data = save_data(played())
    assert (data["format"], data["engine"], data["rules_format"]) == (SAVE_FORMAT, ENGINE_VERSION, CURRENT)
    assert SAVE_FORMAT == 2


def test_an_old_save_that_comes_out_the_same_is_replayed(tmp_path, capsys):
    state = played()
    save = tmp_path / "old.json"
    save.write_text(json.dumps(as_format_1(save_data(state))), encoding="utf-8")
    assert replay(load_game("no-thanks"), read_save(save)).to_json() == state.to_json()
    assert main(["replay", str(save)]) == 0
    assert "game over" in capsys.readouterr().out


def test_last_months_save_that_does_not_replay_names_the_version_that_can(capsys):
    assert main(["replay", str(OLD_SAVE)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: the replay ended in a different state than the one saved: the save was written by ")
    assert "tabletop 0.1.0 (the builds of 2026-11-29 to 2026-12-04, which recorded no version) in save format 1" in err
    assert f"this is tabletop {ENGINE_VERSION}; replay it with tabletop 0.1.0" in err


def test_a_save_of_another_version_that_diverges_names_it():
    data = save_data(played())
    data["engine"], data["actions"] = "0.3.1", ["no thanks"] * 30 + data["actions"]
    with pytest.raises(StateError) as info:
        replay(load_game("no-thanks"), parse_save(json.dumps(data), "save.json"))
    said = str(info.value)
    assert said.startswith("the replay diverged at step ")
    assert said.endswith(
        f"written by tabletop 0.3.1 in save format 2, and this is tabletop {ENGINE_VERSION}; "
        "replay it with tabletop 0.3.1"
    )


def test_a_save_of_a_newer_save_format_is_refused_naming_its_writer(tmp_path):
    data = save_data(played())
    data["format"], data["engine"] = SAVE_FORMAT + 1, "9.0.0"
    with pytest.raises(StateError) as info:
        parse_save(json.dumps(data), "save.json")
    assert str(info.value) == (
        f"save.json: save format {SAVE_FORMAT + 1}, written by tabletop 9.0.0; this tabletop ({ENGINE_VERSION}) "
        f"reads save formats up to {SAVE_FORMAT}: upgrade tabletop"
    )


def test_a_save_of_format_2_without_its_version_is_refused():
    data = save_data(played())
    del data["engine"]
    with pytest.raises(StateError, match="'engine' must be a version"):
        parse_save(json.dumps(data), "save.json")


def test_a_save_whose_rules_changed_says_so_with_their_formats():
    data = save_data(played())
    data["rules"], data["rules_format"] = "0123456789abcdef", CURRENT - 1
    with pytest.raises(StateError) as info:
        replay(load_game("no-thanks"), parse_save(json.dumps(data), "save.json"))
    assert f"other rules (rules 0123456789abcdef of rules format {CURRENT - 1}, now " in str(info.value)
    assert f"of format {CURRENT}): the rule files changed since" in str(info.value)


def test_a_state_of_another_state_format_says_what_can_read_it():
    game = load_game("no-thanks")
    data = json.loads(played().to_json())
    data["format"] = 1
    with pytest.raises(StateError) as info:
        game.state_from_json(json.dumps(data))
    assert str(info.value) == (
        f"saved state rejected: state format 1; tabletop {ENGINE_VERSION} reads state format 2: replay the game's "
        "save instead"
    )
