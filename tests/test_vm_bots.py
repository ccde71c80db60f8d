"""Bots inside the native VM: whole games and whole searches in one call, choice for choice the Python bots'.

A designer's `simulate` with random or greedy bots gives the same games on the VM as in Python for the same
seeds (the same derived seeds, Python's generator, the same determinized copies); the VM's information-set
MCTS picks what the Python one picks for the same seed, and beats random and greedy bots.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import load_game
from engine.bots import make_agent
from engine.errors import TabletopError
from engine.lab.simulate import one_game, simulate
from engine.runtime import rng
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")


def both(name: str):
    game = load_game(name, reference=True)
    return game, _vm.VmGame(ir_bytes(game))


GAMES = [  # (game, players, bots, seeds): rules greedy looks ahead on, rules with greedy values, simultaneous
    ("cat-town", 2, "greedy", 4),
    ("cat-town", 2, "random", 6),
    ("cats-mansion", 3, "greedy", 2),
    ("caty-mini", 4, "greedy", 4),
    ("goofspiel", 2, "greedy", 6),
    ("whist", 4, "greedy", 2),
]


@pytest.mark.parametrize("name, players, kind, seeds", GAMES, ids=[f"{g[0]}-{g[1]}p-{g[2]}" for g in GAMES])
def test_the_vm_plays_the_games_python_plays_for_the_same_seeds(name, players, kind, seeds):
    game, vm_game = both(name)
    played = vm_game.playouts(players, list(range(seeds)), kind)
    for seed, on_vm in enumerate(played):
        expected = one_game(game, players, seed, [kind] * players)
        assert {k: on_vm[k] for k in expected} == expected, f"seed {seed}"


def test_a_greedy_value_reading_the_option_id_plays_on_the_vm_as_in_python(tmp_path):
    """`action` in a greedy value (deprecated, still accepted) is the option's id there too."""
    folder = tmp_path / "rules" / "pick"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(
        "id: pick\nname: Pick\nplayers: {min: 2, max: 2}\nplayer_variables:\n  points: {type: int}\n"
        'play: |\n  for p in players():\n    x = choose "take" from [1, 2, 3] by p\n    p.points = x\n  end_game\n'
        "scoring:\n  - {id: points, points: p.points}\n"
        "bots:\n  greedy:\n    value: '1 if action == \"take 1\" else 0'\n",
        encoding="utf-8",
    )
    game = load_game(folder / "game.yaml", reference=True)
    played = _vm.VmGame(ir_bytes(game)).playouts(2, list(range(12)), "greedy")
    for seed, on_vm in enumerate(played):
        expected = one_game(game, 2, seed, ["greedy", "greedy"])
        assert {k: on_vm[k] for k in expected} == expected, f"seed {seed}"
    assert sum(g["scores"] == [1, 1] for g in played) > len(played) / 2  # the option its value names, bar exploring


def test_each_seat_plays_its_own_bot():
    game, vm_game = both("caty-mini")
    kinds = ["greedy", "random"]
    (on_vm,) = vm_game.playouts(2, [3], kinds)
    expected = one_game(game, 2, 3, kinds)
    assert {k: on_vm[k] for k in expected} == expected


@pytest.mark.parametrize("name, players, budget", [("cat-town", 2, 12), ("cats-mansion", 3, 6)])
def test_the_vm_search_picks_what_the_python_search_picks(name, players, budget):
    """Random rollouts (Cat Town) and rollouts by the rules' greedy values (Cats' Mansion) alike."""
    game, vm_game = both(name)
    ref, vm = game.new_game(players, 2), vm_game.new_game(players, 2)
    compared = 0
    for step in range(40):
        if ref.is_terminal:
            break
        seat, actions = ref.pending["player"], ref.legal_actions()
        if step % 8 == 0 and len(actions) > 1:
            copy_seed = rng.derive(2, "copy", seat, step)
            agent = make_agent(f"mcts:{budget}", seed=step)
            chosen = agent.act({"decision": {"player": seat, "actions": actions}}, ref.determinized(seat, copy_seed))
            assert vm.determinized(seat, copy_seed).mcts(seat, budget, step) == chosen, f"decision {step}"
            compared += 1
        ref.apply(actions[step % len(actions)])
        vm.apply(actions[step % len(actions)])
    assert compared >= 2


def wins(vm_game, players: int, kinds: list[str], seeds: range) -> list[int]:
    """Wins per seat over the seeds (no game may fail)."""
    tally = [0] * players
    for game in vm_game.playouts(players, list(seeds), kinds):
        assert game["error"] is None
        for seat, result in enumerate(game["results"]):
            tally[seat] += result == "win"
    return tally


def test_the_vm_search_beats_random_and_greedy_bots_with_seats_swapped():
    _, vm_game = both("caty-mini")
    seeds = range(8)
    for rival in ("random", "greedy"):
        first = wins(vm_game, 2, ["mcts:30", rival], seeds)
        second = wins(vm_game, 2, [rival, "mcts:30"], seeds)
        assert first[0] + second[1] > first[1] + second[0] + 4, rival


def test_a_bot_the_vm_does_not_play_is_refused_in_one_line():
    _, vm_game = both("caty-mini")
    with pytest.raises(
        _vm.VmStateError, match=r"the VM plays random, greedy and mcts\[:BUDGET\[/ROLLOUT\]\] bots, not 'mcts:2x'"
    ):
        vm_game.playouts(2, [0], "mcts:2x")
    with pytest.raises(_vm.VmStateError, match="3 bots for 2 players"):
        vm_game.playouts(2, [0], ["random"] * 3)


def summary_of(game, engine: str, bots, players: int = 2, games: int = 12) -> dict:
    summary = simulate(game, players, games, seed=5, bots=bots, engine=engine)
    assert summary.pop("engine") == engine
    for timing in ("seconds", "games_per_second"):
        summary.pop(timing)
    return summary


@pytest.mark.parametrize("bots", ["random", "greedy", ["greedy", "mcts:4"]], ids=["random", "greedy", "mixed"])
def test_simulate_on_the_vm_gives_the_summary_python_gives_for_the_same_seed(bots):
    game = load_game("caty-mini")
    assert summary_of(game, "vm", bots) == summary_of(game, "python", bots)


def test_simulate_says_in_one_line_why_a_game_cannot_run_on_the_vm(monkeypatch):
    """A bot a tool author wrote in Python is played by Python."""
    from engine import bots

    monkeypatch.setitem(bots.AGENTS, "mine", bots.RandomAgent)
    game = load_game("caty-mini")
    with pytest.raises(TabletopError, match=r"caty-mini cannot be simulated on the VM: .* bot 'mine'$"):
        simulate(game, 2, 1, bots="mine", engine="vm")
    assert simulate(game, 2, 1, bots="mine")["engine"] == "python"  # auto: Python plays what the VM does not


def test_the_vm_plays_a_search_by_cpu_time_and_with_short_rollouts():
    """`mcts:0.01s` (a hundredth of a CPU second a decision) and `mcts:4/3` (rollouts of three decisions) are
    played on the VM; a game by time is not fixed by its seed, but it is a whole game."""
    game = load_game("caty-mini")
    for bots in ("mcts:0.01s", ["mcts:4/3", "greedy"], ["random", "mcts:0.005s/10"]):
        summary = simulate(game, 2, 1, seed=3, bots=bots, engine="vm")
        assert summary["engine"] == "vm" and summary["finished"] == 1, bots


def test_the_simulate_command_picks_its_engine(capsys):
    from engine.cli import main

    assert main(["simulate", "caty-mini", "--players", "2", "--games", "2", "--engine", "vm", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == "vm"


@pytest.mark.parametrize(
    "name, players, spec",
    [
        ("cat-town", 2, "mcts:8"),
        ("cats-mansion", 3, "mcts:8"),
        ("cat-town", 2, "mcts:8/0"),
        ("cats-mansion", 3, "mcts:8/5"),
        ("cats-mansion", 3, "mcts:60/5"),
    ],
)
def test_the_mcts_bot_searches_on_the_vm_and_chooses_as_in_python(name, players, spec, monkeypatch):
    """`play --bot mcts:N[/ROLLOUT]` through the State API: the search runs in the VM, from the bot's own
    generators, so decision after decision it chooses what the Python search chooses, with rollouts cut
    short (or none: each new node scored by the points at once) alike, and, where a budget goes past trying
    each option once, by the same exploration for three seats and the same bias from the greedy values."""
    import engine.bots.mcts as mcts

    game = load_game(name)
    state = game.new_game(players, 6)
    native, python = make_agent(spec, seed=1), make_agent(spec, seed=1)
    for step in range(24):
        seat, actions = state.pending["player"], state.legal_actions()
        copy = state.determinized(seat, step)
        on_vm = native.search(copy, seat, actions)
        with monkeypatch.context() as patched:
            patched.setattr(mcts, "native_game", lambda _game: (None, "kept in Python"))
            assert python.search(copy, seat, actions) == on_vm, f"decision {step}"
        state.apply(on_vm)
    assert native.rng.getstate() == python.rng.getstate() and native.failed == python.failed


def test_where_the_fewest_points_win_a_rollout_cut_short_counts_the_fewest_as_ahead(monkeypatch):
    """No Thanks!: a search whose rollouts stop after three decisions judges them by who leads, and the lead
    is the fewest points — in Python and on the VM alike, choice for choice."""
    import engine.bots.mcts as mcts

    game = load_game("no-thanks")
    state = game.new_game(3, 4)
    rnd = random.Random(4)
    while len(set(state.scores)) == 1:
        state.apply(rnd.choice(state.legal_actions()))
    fewest = state.scores.index(min(state.scores))
    assert mcts._by_lead(state)[fewest] > 0
    native, python = mcts.MctsAgent(seed=1, budget="30", rollout=3), mcts.MctsAgent(seed=1, budget="30", rollout=3)
    for step in range(12):
        if state.is_terminal:
            break
        seat, actions = state.pending["player"], state.legal_actions()
        copy = state.determinized(seat, step)
        on_vm = native.search(copy, seat, actions)
        with monkeypatch.context() as patched:
            patched.setattr(mcts, "native_game", lambda _game: (None, "kept in Python"))
            assert python.search(copy, seat, actions) == on_vm, f"decision {step}"
        state.apply(on_vm)


def test_a_search_by_cpu_time_through_the_state_api_runs_on_the_vm(monkeypatch):
    """`play --bot mcts:0.001s/3`: the bot hands its budget to the VM's search, which answers with an option."""
    import engine.bots.mcts as mcts

    state = load_game("caty-mini").new_game(2, 3)
    seat, actions = state.pending["player"], state.legal_actions()
    agent = make_agent("mcts:0.001s/3", seed=1)
    monkeypatch.setattr(mcts.MctsAgent, "_iterate", None)  # Python's own search is not reached
    assert agent.search(state.determinized(seat, 1), seat, actions) in actions


def test_games_cut_off_at_the_decision_limit_stop_at_the_same_decision_on_the_vm():
    """``limit`` decisions are played, and not one more, on either engine."""
    game = load_game("cat-town")
    on_vm, in_python = (simulate(game, 2, 4, seed=2, limit=12, engine=engine) for engine in ("vm", "python"))
    assert on_vm["engine"] == "vm" and in_python["engine"] == "python"
    assert on_vm["cut_off"] == in_python["cut_off"] == 4
    assert on_vm["decisions_per_game"] == in_python["decisions_per_game"] == 12
