"""Long runs of the adapters' checks: thousands of games over every game, variant and player count.

    python tools/interop_soak.py                          # 100 games a cell (about 3,000 in all)
    python tools/interop_soak.py --games 1000 --only goofspiel
    python tools/interop_soak.py --bound 200              # cut games without a declared bound later
    python tools/interop_soak.py --speed --only goofspiel # steps per CPU second through each adapter instead

Per cell: OpenSpiel's ``random_sim_test`` with serialization (``--games`` games; the simultaneous
form too where the game has simultaneous decisions), PettingZoo's ``api_test`` and Gymnasium's env
checker once, and the information-set check along ``--games`` random games: at every decision, for
every seat, a determinized copy gives the same information key, observation, information-state
tensor, legal actions and player to move.  Failures print the cell and seed; exit status 1 on any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pyspiel
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from engine import load_game
from engine.interop import gymnasium, open_spiel, pettingzoo
from engine.load.documents import known_games, known_variants, resolve
from engine.runtime.observe import encoding, information_encoding, information_key


def cells(only: list[str]) -> list[tuple[str, str | None, int]]:
    found = []
    for name in known_games():
        if only and name not in only:
            continue
        for variant in [None, *known_variants(resolve(name)[0].parent)]:
            game = load_game(name, variant)
            found += [(name, variant, n) for n in range(game.min_players, game.max_players + 1)]
    return found


def information_sets(game, players: int, seed: int, bound: int) -> int:
    """The information-set check along one random game; the number of copies checked."""
    layout, past = encoding(game, players), information_encoding(game, players, bound)
    state, moves, checks = game.new_game(players, seed=seed), random.Random(seed), 0
    for step in range(bound):
        if state.is_terminal:
            break
        for seat in range(players):
            copy = state.determinized(seat, seed=step)
            same = (
                information_key(copy, seat) == information_key(state, seat)
                and (layout.encode(copy, seat) == layout.encode(state, seat)).all()
                and (past.encode(copy, seat) == past.encode(state, seat)).all()
                and copy.legal_actions(seat) == state.legal_actions(seat)
                and copy.to_act == state.to_act
            )
            if not same:
                raise AssertionError(f"seat {seat}'s copy differs after {step} decisions")
            checks += 1
        seat = state.to_act[0]
        state.apply(moves.choice(state.legal_actions(seat)), seat=seat)
    return checks


def soak(cell, games: int, bound: int) -> int:
    name, variant, players = cell
    game = load_game(name, variant)
    for simultaneous in sorted({False, game.info(players).simultaneous}):
        spiel = open_spiel.load(name, players=players, variant=variant, simultaneous=simultaneous, max_decisions=bound)
        pyspiel.random_sim_test(spiel, num_sims=games, serialize=True, verbose=False)
    api_test(pettingzoo.env(name, players=players, variant=variant, max_decisions=bound), num_cycles=bound)
    check_env(gymnasium.make(name, players, opponents="random", variant=variant, illegal="lose", max_decisions=bound))
    return sum(information_sets(game, players, seed, bound) for seed in range(games))


def speed(name: str, steps: int = 3000) -> None:
    """Random steps per CPU second through each adapter (chance outcomes count as OpenSpiel steps; its
    ``rl_environment`` draws them itself and hands every seat its information-state tensor at each step)."""
    moves = np.random.default_rng(0)

    def pick(mask) -> int:
        return int(moves.choice(np.flatnonzero(mask)))

    def spiel(simultaneous: bool):
        state = open_spiel.load(name, simultaneous=simultaneous).new_initial_state()
        for _ in range(steps):
            if state.is_terminal():
                state = state.get_game().new_initial_state()
            if state.is_chance_node():
                state.apply_action(int(moves.integers(len(state.chance_outcomes()))))
            elif state.is_simultaneous_node():
                state.apply_actions(
                    [
                        int(moves.choice(state.legal_actions(p)) if state.legal_actions(p) else 0)
                        for p in range(state.num_players())
                    ]
                )
            else:
                state.apply_action(int(moves.choice(state.legal_actions())))

    def rl():
        from open_spiel.python import rl_environment

        env = rl_environment.Environment(open_spiel.load(name), seed=0)
        step = env.reset()
        for _ in range(steps):
            if step.last():
                step = env.reset()
            seat = step.observations["current_player"]
            step = env.step([int(moves.choice(step.observations["legal_actions"][seat]))])

    def aec():
        env = pettingzoo.env(name)
        env.reset(seed=0)
        for done in range(steps):
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset(seed=done)
                observation = env.observe(env.agent_selection)
            env.step(pick(observation["action_mask"]))

    def gym():
        env = gymnasium.make(name, opponents="random")
        observation, _ = env.reset(seed=0)
        for done in range(steps):
            observation, _, terminated, truncated, _ = env.step(pick(observation["action_mask"]))
            if terminated or truncated:
                observation, _ = env.reset(seed=done)

    for label, run in [
        ("OpenSpiel", lambda: spiel(False)),
        ("OpenSpiel simultaneous", lambda: spiel(True)),
        ("OpenSpiel rl_environment", rl),
        ("PettingZoo AEC", aec),
        ("Gymnasium (random opponents)", gym),
    ]:
        started = time.process_time()
        run()
        print(f"{name:12} {label:30} {steps / (time.process_time() - started):8.0f} steps/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a cell, for each check")
    parser.add_argument("--bound", type=int, default=100, help="decisions after which an unbounded game is cut off")
    parser.add_argument("--only", action="append", default=[], help="a game's name (repeatable)")
    parser.add_argument("--speed", action="store_true", help="measure steps per CPU second instead")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    if args.speed:
        for name in args.only or ["goofspiel", "caty-mini", "cat-town"]:
            speed(name)
        return 0
    failed, checks, started = 0, 0, time.perf_counter()
    for cell in cells(args.only):
        try:
            checks += soak(cell, args.games, args.bound)
            print(f"ok    {cell}", flush=True)
        except Exception as exc:  # every failure is reported with its cell, and the soak goes on
            failed += 1
            print(f"FAIL  {cell}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", flush=True)
    print(f"{checks} information-set checks, {failed} cells failed, {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
