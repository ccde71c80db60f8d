"""Saved games replay exactly — finished or not, mid-window or mid-effect — and say when they cannot."""

import json
import random

import pytest

from engine import StateError, load_game
from engine.cli import main
from engine.runtime.saves import digest, read_save, replay, save_data, write_save
from tests.test_cli import run


def _play(game, players, seed, stop=None, moves=10_000):
    """Random legal moves until ``stop(state)`` is true, the game ends or ``moves`` run out."""
    state = game.new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal or (stop is not None and stop(state)):
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "name,variant,players",
    [
        ("caty-mini", None, 3),
        ("caty-mini", "older-players", 2),
        ("cat-town", "advanced", 4),
        ("cats-mansion", None, 2),
    ],
)
def test_a_finished_game_replays_to_the_same_state(name, variant, players):
    """Rules + variant + seed + action ids rebuild the game byte for byte."""
    game = load_game(name, variant=variant)
    state = _play(game, players, seed=11)
    again = replay(game, json.loads(json.dumps(save_data(state))))
    assert again.to_json() == state.to_json()


def test_a_save_mid_card_effect_replays_there():
    """Saved while a Cat Town card's effect waits for a choice: the replay stops at that very choice."""
    game = load_game("cat-town")
    state = _play(game, 3, seed=5, stop=lambda s: s.stack and s.stack[-1][0].startswith("effect:"))
    assert state.stack[-1][0].startswith("effect:") and not state.is_terminal
    again = replay(game, save_data(state))
    assert again == state and again.legal_actions() == state.legal_actions()


def test_a_save_mid_reaction_window_replays_there():
    """Saved while a Cats' Mansion reaction window is open: same window, same player, same options."""
    game = load_game("cats-mansion")
    state = _play(game, 3, seed=3, stop=lambda s: s.pending and s.pending["ids"][0].startswith("react "))
    assert state.legal_actions()[0].startswith("react ")
    again = replay(game, save_data(state))
    assert again == state and again.current_player == state.current_player


def test_replay_until_a_step_stops_there():
    game = load_game("caty-mini")
    state = _play(game, 2, seed=2)
    partial = replay(game, save_data(state), until=10)
    assert partial.actions == state.actions[:10]


def test_a_save_of_other_rules_says_so():
    """A save whose rules hash differs is refused with a message, not replayed into something else."""
    game = load_game("caty-mini")
    data = save_data(_play(game, 2, seed=4))
    data["rules"] = "0000000000000000"
    with pytest.raises(StateError, match="other rules"):
        replay(game, data)
    assert replay(game, data, allow_other_rules=True).actions == data["actions"]


def test_a_diverging_save_stops_at_the_step():
    """An action that is not legal where it was taken names its step."""
    game = load_game("caty-mini")
    data = save_data(_play(game, 2, seed=4))
    data["actions"][5] = "fly away"
    with pytest.raises(StateError, match="diverged at step 6"):
        replay(game, data)


def test_a_tampered_final_state_is_noticed():
    game = load_game("caty-mini")
    data = save_data(_play(game, 2, seed=4))
    data["digest"] = "ffffffffffffffff"
    with pytest.raises(StateError, match="different state"):
        replay(game, data)


def test_save_and_replay_through_the_cli(tmp_path, capsys):
    """`play --save` keeps the game; `replay` reproduces it and prints the same result."""
    save = tmp_path / "game.json"
    assert (
        main(
            [
                "play",
                "caty-mini",
                "--players",
                "2",
                "--seed",
                "8",
                "--bot",
                "all=random",
                "--quiet",
                "--save",
                str(save),
            ]
        )
        == 0
    )
    played = capsys.readouterr().out
    data = read_save(save)
    assert data["finished"] and len(data["actions"]) > 12
    assert main(["replay", str(save), "--steps"]) == 0
    out = capsys.readouterr().out
    assert f"replayed {len(data['actions'])} actions: game over" in out
    winner_line = next(line for line in played.splitlines() if "wins" in line)
    assert f"seat {winner_line.split()[1].rstrip(':')}" in out


def test_unfinished_save_through_the_cli(tmp_path, capsys, monkeypatch):
    """A game stopped early is saved as far as it went and replays to its open decision."""
    import io

    save = tmp_path / "open.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n"))
    assert main(["play", "caty-mini", "--players", "2", "--seed", "1", "--save", str(save)]) == 1
    capsys.readouterr()
    data = read_save(save)
    assert len(data["actions"]) == 2 and not data["finished"]
    state = replay(load_game("caty-mini"), data)
    assert digest(state) == data["digest"]
    assert main(["replay", str(save)]) == 0
    assert "replayed 2 of 2 actions" in capsys.readouterr().out


def test_not_a_save_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    assert main(["replay", str(bad)]) == 1
    assert "not a save file" in capsys.readouterr().err
    write_save(_play(load_game("caty-mini"), 2, seed=1, moves=3), tmp_path / "ok.json")
    assert read_save(tmp_path / "ok.json")["players"] == 2


def test_a_save_without_a_variant_key_replays(tmp_path, capsys):
    """A save that names no variant is of the base game."""
    save = tmp_path / "save.json"
    data = save_data(_play(load_game("caty-mini"), 2, seed=1))
    del data["variant"]
    save.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", save)
    assert code == 0 and "replayed" in out


@pytest.mark.parametrize("rules_path", ["a-nul", "5000-characters", "a-name-too-long"])
def test_a_rules_path_that_cannot_name_a_folder_is_a_one_line_error(tmp_path, capsys, monkeypatch, rules_path):
    """Inside the save's folder, so not refused for where it is: refused because no folder can have that name."""
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "save.json"
    data = save_data(_play(load_game("caty-mini"), 2, seed=1, moves=3))
    data["rules_path"] = {
        "a-nul": str(tmp_path / "a\0b"),
        "5000-characters": "a/" * 2500,
        "a-name-too-long": str(tmp_path / ("b" * 300)),
    }[rules_path]
    save.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", save)
    assert code == 1 and err.count("\n") == 1
