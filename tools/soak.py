"""Long runs: many seeded random games of every game, variant and player count, invariants on.

    python tools/soak.py                                  # 100,000+ games over everything, 2 workers
    python tools/soak.py --games 1000                     # games per (game, variant, players)
    python tools/soak.py --only cat-town --games 10000    # one game, every variant
    python tools/soak.py --only cat-town:advanced --players 3 --first-seed 500

Every game is checked by engine.lab.conformance.playout (cards conserved, a legal action
exactly when not over, JSON round trip and clone at random points, determinism, a
winner at the end).  Game ``seed`` deals with ``seed`` and moves with
``random.Random(seed)``, so a failure prints everything needed to replay it.
Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import TabletopError, load_game
from engine.lab.conformance import ConformanceError, playout
from engine.load.documents import known_games, known_variants, resolve

_LOADED: dict = {}


def cells(only: list[str] | None, players: list[int] | None) -> list[tuple[str, str | None, int]]:
    """(game, variant, players) for everything shipped, or for the ``only`` selection."""
    out = []
    for name in known_games():
        game_file, _ = resolve(name)
        for variant in [None] + known_variants(game_file.parent):
            label = name if variant is None else f"{name}:{variant}"
            if only and name not in only and label not in only:
                continue
            game = load_game(name, variant)
            for n in range(game.min_players, game.max_players + 1):
                if players is None or n in players:
                    out.append((name, variant, n))
    return out


def _run(task: tuple) -> tuple[tuple, int, int, int, list[str]]:
    name, variant, players, first, count, limit = task
    key = (name, variant)
    if key not in _LOADED:
        _LOADED[key] = load_game(name, variant)
    game = _LOADED[key]
    finished = decisions = 0
    failures = []
    for seed in range(first, first + count):
        try:
            result = playout(game, players, seed, limit=limit)
        except ConformanceError as exc:
            failures.append(str(exc))
            continue
        except TabletopError as exc:
            failures.append(f"{name} {variant or ''} {players}p seed {seed}: {type(exc).__name__}: {exc}")
            continue
        finished += result.finished
        decisions += result.decisions
    return (name, variant, players), count, finished, decisions, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per (game, variant, players)")
    parser.add_argument("--only", help="comma-separated games or game:variant")
    parser.add_argument("--players", help="comma-separated player counts")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=250)
    parser.add_argument(
        "--limit",
        type=int,
        default=400,
        help="decisions before a game is cut off (its invariants still checked); random "
        "Cats' Mansion games wander for thousands of decisions",
    )
    parser.add_argument(
        "--games-for",
        action="append",
        default=[],
        metavar="GAME=K",
        help="a different number of games per cell for one game, e.g. cats-mansion=1000",
    )
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    players = [int(p) for p in args.players.split(",")] if args.players else None
    selected = cells(only, players)
    per_game = {k: int(v) for k, v in (spec.split("=") for spec in args.games_for)}
    tasks = []
    for name, variant, n in selected:
        games = per_game.get(name, args.games)
        end = args.first_seed + games
        tasks += [
            (name, variant, n, first, min(args.chunk, end - first), args.limit)
            for first in range(args.first_seed, end, args.chunk)
        ]
    totals: dict[tuple, list[int]] = {cell: [0, 0, 0] for cell in selected}
    failures: list[str] = []
    start = time.perf_counter()
    planned, done, shown = sum(t[4] for t in tasks), 0, 0.0
    with multiprocessing.Pool(args.workers) as pool:
        for cell, count, finished, decisions, failed in pool.imap_unordered(_run, tasks):
            totals[cell][0] += count
            totals[cell][1] += finished
            totals[cell][2] += decisions
            failures += failed
            done += count
            elapsed = time.perf_counter() - start
            if elapsed - shown >= 30 or done == planned:  # a long run says how far it is
                shown = elapsed
                rate = done / elapsed
                print(
                    f"{done:,}/{planned:,} games, {len(failures)} failures, {rate:.0f}/s, "
                    f"about {(planned - done) / rate / 60:.0f} min to go",
                    file=sys.stderr,
                    flush=True,
                )
    elapsed = time.perf_counter() - start
    print(f"{'game':<14}{'variant':<15}{'players':>8}{'games':>9}{'finished':>10}{'decisions/game':>16}")
    for (name, variant, n), (count, finished, decisions) in totals.items():
        print(f"{name:<14}{variant or '-':<15}{n:>8}{count:>9}{finished:>10}{decisions / max(1, count):>16.1f}")
    games = sum(t[0] for t in totals.values())
    print(f"{games} games in {elapsed:.0f} s ({games / elapsed:.0f}/s), {len(failures)} failures")
    for failure in failures[:50]:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
