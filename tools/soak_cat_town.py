"""Soak test for Cat Town: many seeded random games per mode and player count.

    python tools/soak_cat_town.py                   # 10,000 games per (mode, players), 2 workers
    python tools/soak_cat_town.py --games 1000      # a quicker run
    python tools/soak_cat_town.py --modes easy --players 3 --first-seed 5000

Game ``seed`` is dealt with ``seed`` and played by random players drawing from
``random.Random(seed)`` — the scheme of tests/test_cat_town_long.py, so a failing seed
reproduces there (and with ``play_one`` below).  A game fails if the engine raises, if it
takes more than LIMIT decisions, or if it ends without a reason (a team with 6 points or
only 3 Blocks left), without winners, or with cards lost or doubled.  Exit status 1 on any
failure.
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

from engine import load_game

LIMIT = 5000
MODES = {"normal": None, "easy": "easy", "advanced": "advanced"}
_GAMES: dict = {}


def _game(mode: str):
    if mode not in _GAMES:
        _GAMES[mode] = load_game("cat-town", variant=MODES[mode])
    return _GAMES[mode]


def play_one(mode: str, players: int, seed: int) -> tuple[int, list[int]]:
    """Play one game; returns (decisions, winners) or raises describing what went wrong."""
    game = _game(mode)
    state = game.new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    decisions = 0
    while not state.is_terminal:
        if decisions >= LIMIT:
            raise AssertionError(f"cut off: no end after {LIMIT} decisions")
        state.apply(rnd.choice(state.legal_actions()))
        decisions += 1
    best = max(sum(state.scores[m] for m in game.team_of(players, p)) for p in range(players))
    if best < 6 and len(state.vars["ring"]) > 3:
        raise AssertionError("ended with no team at 6 and more than 3 Blocks")
    if not state.winners:
        raise AssertionError("no winners")
    where = sorted(c for cards in state.zones.values() for c in cards)
    if where != list(range(len(game.card_ids))):
        raise AssertionError("cards lost or doubled")
    return decisions, state.winners


def run_chunk(task: tuple[str, int, int, int]) -> dict:
    mode, players, first, last = task
    out = {"mode": mode, "players": players, "games": 0, "decisions": 0, "failures": [], "longest": 0}
    for seed in range(first, last):
        out["games"] += 1
        try:
            decisions, _ = play_one(mode, players, seed)
        except Exception as exc:  # noqa: BLE001 — every failure is reported with its seed
            out["failures"].append((seed, f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"))
            continue
        out["decisions"] += decisions
        out["longest"] = max(out["longest"], decisions)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per (mode, players) (default 10000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--players", nargs="+", type=int, choices=[2, 3, 4], default=[2, 3, 4])
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=250, help="games per task (default 250)")
    args = parser.parse_args(argv)

    tasks = [(mode, p, s, min(s + args.chunk, args.first_seed + args.games))
             for mode in args.modes for p in args.players
             for s in range(args.first_seed, args.first_seed + args.games, args.chunk)]
    cells = {(m, p): {"games": 0, "decisions": 0, "failures": [], "longest": 0}
             for m in args.modes for p in args.players}
    start = time.perf_counter()
    total = len(tasks)
    with multiprocessing.Pool(args.workers) as pool:
        for i, out in enumerate(pool.imap_unordered(run_chunk, tasks), 1):
            cell = cells[(out["mode"], out["players"])]
            cell["games"] += out["games"]
            cell["decisions"] += out["decisions"]
            cell["failures"] += out["failures"]
            cell["longest"] = max(cell["longest"], out["longest"])
            print(f"\r{i}/{total} chunks, {time.perf_counter() - start:.0f} s", end="", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(file=sys.stderr)

    print(f"{'mode':<9} {'players':>7} {'games':>7} {'ended':>7} {'failed':>6} {'decisions/game':>14} {'longest':>7}")
    games = failed = 0
    for (mode, players), cell in cells.items():
        bad = len(cell["failures"])
        ended = cell["games"] - bad
        games += cell["games"]
        failed += bad
        print(f"{mode:<9} {players:>7} {cell['games']:>7} {ended:>7} {bad:>6} "
              f"{cell['decisions'] / max(1, ended):>14.1f} {cell['longest']:>7}")
    print(f"{games} games in {elapsed:.0f} s ({games / elapsed:.0f} games/s, {args.workers} workers); {failed} failed")
    for (mode, players), cell in cells.items():
        for seed, message in sorted(cell["failures"])[:20]:
            print(f"FAIL {mode} players={players} seed={seed}: {message}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
