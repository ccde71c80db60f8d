"""The playtest lab records the same games on the native VM as in Python, so a designer's report does not
depend on which engine played it.

For every shipped game, ``VmGame.records`` gives, seed for seed, the record ``record_game`` keeps: the
decisions, the turns and rounds by the rules' ``turn:``, every choice with the cards it offered, the points
at each turn, the branching over the game, the outcome and every ``stats:`` counter — with random, greedy
and searching bots (the VM's search is the Python bot's, so ``mcts:N`` plays the same games).
"""

from __future__ import annotations

import pytest
from test_language import make_game

from engine import load_game
from engine.bots import GreedyAgent
from engine.errors import TabletopError
from engine.lab.games import Arm, load_arm, play_batch, record_game
from engine.lab.playtest import Plan, run
from engine.load.documents import known_games

pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")


def on_vm(game, players: int, games: list[tuple[int, list[str]]], limit: int = 5000) -> list[dict]:
    from engine.runtime.lower import native_game

    vm, why = native_game(game)
    assert vm is not None, why
    out: list[dict] = []
    batch = [(i, seed, specs) for i, (seed, specs) in enumerate(games)]
    play_batch(game, vm, players, batch, limit, lambda index, rec, seconds: out.append(rec))
    return out


def greedy_plays(game) -> bool:
    try:
        GreedyAgent.check(game)
    except TabletopError:
        return False
    return True


def bots_for(game, players: int) -> list[tuple[int, list[str]]]:
    """(seed, bots) to compare: random bots on three seeds; greedy beside random, then a small search beside
    greedy (where greedy can play the game)."""
    games = [(seed, ["random"] * players) for seed in range(3)]
    if greedy_plays(game):
        games += [(3, ["greedy"] + ["random"] * (players - 1)), (4, ["mcts:3"] + ["greedy"] * (players - 1))]
    return games


@pytest.mark.parametrize("name", known_games())
def test_the_vm_records_every_shipped_game_as_python_does(name):
    game = load_game(name)
    players = game.min_players
    games = bots_for(game, players)
    expected = [record_game(game, players, seed, specs) for seed, specs in games]
    assert on_vm(game, players, games) == expected


@pytest.mark.parametrize("name, players", [("caty-mini", 4), ("cat-town", 3), ("cats-mansion", 3)])
def test_turns_rounds_and_counters_of_the_cat_games_are_the_same_on_the_vm(name, players):
    game = load_game(name)
    games = [(seed, ["greedy"] * players) for seed in range(3)]
    recorded = on_vm(game, players, games)
    assert recorded == [record_game(game, players, seed, specs) for seed, specs in games]
    assert all(rec["turns"] < rec["decisions"] for rec in recorded)  # a turn of several decisions counts once


def test_the_counters_of_caty_mini_are_those_python_counts():
    game = load_game("caty-mini")
    games = [(seed, ["greedy", "random", "random"]) for seed in range(4)]
    recorded = on_vm(game, 3, games)
    assert recorded == [record_game(game, 3, seed, specs) for seed, specs in games]
    assert all(list(rec["stats"]) == ["ran-out-of-string", "string-left"] for rec in recorded)
    assert all(len(rec["stats"]["string-left"]) == 3 for rec in recorded)


def test_a_game_cut_off_at_the_limit_is_recorded_alike():
    game = load_game("cat-town")
    games = [(1, ["random", "random"])]
    recorded = on_vm(game, 2, games, limit=20)
    assert recorded == [record_game(game, 2, 1, ["random", "random"], limit=20)]
    assert recorded[0]["cut_off"] and "results" not in recorded[0]


FAILS = """\
play: |
  x = choose "a" from [1, 2] by first(players())
  y = choose "b" from [1, 2] by last(players())
  z = x // (y - y)
  end_game "over"
"""


def test_a_game_whose_rules_fail_keeps_what_came_before_as_python_does(tmp_path):
    """A rule fault stops the game with its located one-line error; the choices up to it stay recorded (the
    second one's, which ran into the fault, is not counted a decision taken)."""
    game = make_game(tmp_path, FAILS)
    games = [(seed, ["random", "random"]) for seed in range(4)]
    recorded = on_vm(game, 2, games)
    assert recorded == [record_game(game, 2, seed, specs) for seed, specs in games]
    assert all("E701 division by zero" in rec["error"] for rec in recorded)
    assert all((rec["decisions"], len(rec["choices"])) == (1, 2) for rec in recorded)


LAB_FAULTS = {
    "turn:": 'turn: "n // (n - n)"\nstats:\n  - {id: picks, value: n}\n',
    "a counter": "stats:\n  - {id: picks, value: n}\n  - {id: ratio, per: seat, value: n // (n - n)}\n",
}


@pytest.mark.parametrize("rules", LAB_FAULTS.values(), ids=list(LAB_FAULTS))
def test_a_fault_in_the_turn_or_a_counter_is_located_at_its_own_line_on_both_engines(tmp_path, rules):
    """The lab reads ``turn:`` at every decision and each ``stats:`` counter at the end: a rule fault in one
    is a diagnostic at that expression, as for a scoring term, and not a failure of the tool."""
    text = 'variables:\n  n: {type: int}\nplay: |\n  n = choose "pick" from [1, 2]\n' + rules
    game = make_game(tmp_path, text)
    games = [(seed, ["random", "random"]) for seed in range(2)]
    recorded = on_vm(game, 2, games)
    on_python = [record_game(game, 2, seed, specs) for seed, specs in games]
    assert recorded == on_python
    lines = (tmp_path / "rules" / "mini" / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "n // (n - n)" in text)
    assert all(f"game.yaml:{line}:" in rec["error"] and "failed: division by zero" in rec["error"] for rec in recorded)


def test_a_playtest_records_the_same_games_on_either_engine():
    """Two arms, greedy against random, and the skill games of a small search against greedy."""
    plan = Plan("caty-mini", [Arm(), Arm("older-players")], 2, 4, 3, ["greedy", "random"], 5000, "mcts:3", 2)
    games = [load_arm(plan.game, arm) for arm in plan.arms]
    on_python, python_info = run(plan, games, engine="python")
    on_the_vm, vm_info = run(plan, games, engine="vm")
    assert (python_info.engine, vm_info.engine) == ("python", "vm")
    assert on_the_vm == on_python


def test_a_playtest_on_the_vm_only_refuses_a_bot_the_vm_does_not_play(tmp_path, capsys, monkeypatch):
    """A bot a tool author wrote in Python is played by Python only."""
    from engine import bots
    from engine.cli import main

    monkeypatch.setitem(bots.AGENTS, "mine", bots.RandomAgent)
    args = ["playtest", "caty-mini", "--players", "2", "--games", "2", "--seed", "1", "--skill", "none"]
    assert main([*args, "--bots", "mine", "--engine", "vm", "-o", str(tmp_path / "r.html")]) != 0
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith("caty-mini cannot be simulated on the VM: the VM does not play bot 'mine'")
    assert main([*args, "--json", "-o", str(tmp_path / "r.html")]) == 0
    assert '"engine": "vm"' in capsys.readouterr().out  # the VM plays where it can, unasked


def test_a_counter_per_seat_is_read_as_that_seat_on_both_engines(tmp_path):
    """A counter per seat is worked out for each seat as `p` and as `me` (the seat it is read for), as a
    scoring term is."""
    text = (
        'variables:\n  n: {type: int}\nplay: |\n  n = choose "pick" from [1, 2]\n'
        'stats:\n  - {id: seat, per: seat, value: "seat_number(me) * 10 + seat_number(p)"}\n'
    )
    game = make_game(tmp_path, text)
    games = [(seed, ["random", "random"]) for seed in range(2)]
    recorded = on_vm(game, 2, games)
    assert recorded == [record_game(game, 2, seed, specs) for seed, specs in games]
    assert all(rec["stats"]["seat"] == [0, 11] for rec in recorded)
