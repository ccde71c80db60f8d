#!/usr/bin/env python
"""Benchmark: random full games per second, time per decision, cold `tabletop validate rules/`.

    python tools/bench.py [--games K] [--seed S] [--budget SEC] [--runs R]
    python tools/bench.py --against REV [--repeats R] [--target SEC] [--only TEXT] [--instructions]

``--against REV`` compares this tree with revision REV (exported with ``git
archive`` into a temporary folder): one worker process per tree
(tools/bench_worker.py, each importing its own engine), the same jobs sent to
both in alternating order, CPU time measured in the workers.  It reports, per
measure, the median speed ratio (this tree / REV) over the repeats and its
range.  A shared or virtual machine can make CPU time vary by half from one run
to the next; ``--instructions`` counts instead the machine instructions each
job takes under valgrind (callgrind): the same count on every run, whatever
else the machine does.  A job is run for K and for 3K units (K fixed per
measure, the same games and rollouts every time), each in a fresh process,
and the difference divided by 2K, so that starting Python and loading the game
do not count (the job is run once before, uncounted, so that both counts load
the game from a warm code cache: a tree just changed once counted its compile).

Every row of GAMES is (game id, variant or None, player counts, bot kind, decision
limit).  Add a game by adding a row; rows whose game (or variant) is not in rules/ are skipped, so the table may list
games that are still being written.  Games are played by random bots through
``engine.lab.simulate.simulate``, the same code as ``tabletop simulate``; a row stops early
(marked *) once its games have taken ``--budget`` seconds, so a slow game cannot stall the run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GAMES: list[tuple[str, str | None, list[int], str, int]] = [
    ("caty-mini", None, [2, 4], "random", 5000),
    ("caty-mini", "older-players", [2, 4], "random", 5000),
    ("cat-town", None, [2, 4], "random", 5000),
    ("cat-town", "easy", [2, 4], "random", 5000),
    ("cat-town", "advanced", [2, 4], "random", 5000),
    ("cats-mansion", None, [2, 4], "random", 1000),  # random bots wander: cut off after 1,000 decisions
    ("cats-mansion", None, [2, 3, 4], "greedy", 5000),
]


def present(game: str, variant: str | None) -> bool:
    folder = REPO / "rules" / game
    if not (folder / "game.yaml").is_file():
        return False
    return variant is None or (folder / "variants" / f"{variant}.yaml").is_file()


def play_row(game, players: int, games: int, seed: int, budget: float, bots: str = "random", limit: int = 5000) -> dict:
    """Up to ``games`` random games in growing batches, stopping early past ``budget`` seconds."""
    from engine.lab.simulate import simulate

    played = errors = cut_off = 0
    seconds = decisions = 0.0
    batch = 1
    while played < games:
        n = min(batch, games - played)
        s = simulate(game, players, n, seed=seed + played, bots=bots, limit=limit)
        seconds += s["seconds"]
        decisions += s["decisions_per_game"] * (n - s["errors"])
        errors += s["errors"]
        cut_off += s["cut_off"]
        played += n
        batch *= 2
        if seconds >= budget:
            break
    return {
        "games": played,
        "stopped": played < games,
        "games_per_second": played / seconds if seconds else float("inf"),
        "decisions_per_game": decisions / max(1, played - errors),
        "us_per_decision": 1e6 * seconds / decisions if decisions else None,
        "errors": errors,
        "cut_off": cut_off,
    }


def bench_games(games: int, seed: int, budget: float) -> list[dict]:
    from engine import RulesError, load_game
    from engine.lab.simulate import simulate

    rows = []
    for game_id, variant, player_counts, bots, limit in GAMES:
        if not present(game_id, variant):
            rows.append({"game": game_id, "variant": variant, "note": "skipped: not in rules/"})
            continue
        try:
            game = load_game(REPO / "rules" / game_id / "game.yaml", variant)
        except RulesError as exc:
            rows.append({"game": game_id, "variant": variant, "note": f"does not load: {exc}"})
            continue
        for players in player_counts:
            if not game.min_players <= players <= game.max_players:
                rows.append(
                    {
                        "game": game_id,
                        "variant": variant,
                        "players": players,
                        "note": f"skipped: game is for {game.min_players}-{game.max_players} players",
                    }
                )
                continue
            simulate(game, players, 1, seed=seed + 10_000)  # warm up caches and lazy tables
            row = play_row(game, players, games, seed, budget, bots, limit)
            rows.append({"game": game_id, "variant": variant, "players": players, "bots": bots, **row})
    return rows


def tabletop_command() -> list[str]:
    script = shutil.which("tabletop")
    return [script] if script else [sys.executable, "-m", "engine.cli"]


def bench_validate(runs: int) -> tuple[float, int, str]:
    """Best wall time of a fresh `tabletop validate rules/` process, its exit code and last line."""
    command = tabletop_command() + ["validate", "rules/"]
    # The installed script imports the engine it was installed from: make it this tree's.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    best, code, last = float("inf"), 0, ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=env)
        best = min(best, time.perf_counter() - start)
        code = done.returncode
        lines = (done.stdout or done.stderr).strip().splitlines()
        last = lines[-1] if lines else ""
    return best, code, last


def print_table(rows: list[dict]) -> None:
    header = (
        "game",
        "variant",
        "bots",
        "seats",
        "games",
        "games/s",
        "decisions/game",
        "µs/decision",
        "errors",
        "cut off",
    )
    table = [header]
    notes = []
    for r in rows:
        if "note" in r:
            notes.append(
                f"{r['game']}{' / ' + r['variant'] if r['variant'] else ''}"
                f"{' at ' + str(r['players']) if 'players' in r else ''}: {r['note']}"
            )
            continue
        us = r["us_per_decision"]
        table.append(
            (
                r["game"],
                r["variant"] or "-",
                r["bots"],
                str(r["players"]),
                f"{r['games']}{'*' * r['stopped']}",
                f"{r['games_per_second']:.1f}",
                f"{r['decisions_per_game']:.1f}",
                f"{us:.0f}" if us is not None else "-",
                str(r["errors"]),
                str(r["cut_off"]),
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for n, row in enumerate(table):
        cells = [c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    if any(r.get("stopped") for r in rows):
        notes.insert(0, "* stopped early at the time budget of the row")
    for note in notes:
        print(note)


# (label, job) measured by --against: full games, then the search-shaped measure on every game. The API loop,
# clone and determinized are measured on the public `State` and on the VM's own `VmState` under it (what the
# engine's bots and simulate call): the difference is the cost of the Python wrapper.
# ("units": how many games, rollouts, copies or MCTS decisions --instructions counts, fixed so that every run
# counts the same work)
AGAINST: list[tuple[str, dict]] = [
    ("games caty-mini 2p random", {"kind": "games", "game": "caty-mini", "players": 2, "bots": "random", "units": 16}),
    ("games caty-mini 4p random", {"kind": "games", "game": "caty-mini", "players": 4, "bots": "random", "units": 16}),
    ("games cat-town 2p random", {"kind": "games", "game": "cat-town", "players": 2, "bots": "random", "units": 8}),
    ("games cat-town 4p random", {"kind": "games", "game": "cat-town", "players": 4, "bots": "random", "units": 8}),
    (
        "games cats-mansion 2p greedy",
        {"kind": "games", "game": "cats-mansion", "players": 2, "bots": "greedy", "units": 2},
    ),
    (
        "games cats-mansion 3p greedy",
        {"kind": "games", "game": "cats-mansion", "players": 3, "bots": "greedy", "units": 2},
    ),
    *[
        (f"{label} ({surface})", {**job, "surface": surface})
        for surface in ("State", "VmState")
        for label, job in [
            ("api caty-mini 2p", {"kind": "api", "game": "caty-mini", "players": 2, "units": 16}),
            ("api cat-town 2p", {"kind": "api", "game": "cat-town", "players": 2, "units": 8}),
            ("clone cat-town 2p", {"kind": "clone", "game": "cat-town", "players": 2, "units": 2000}),
            ("determinized cat-town 2p", {"kind": "determinized", "game": "cat-town", "players": 2, "units": 200}),
            (
                "determinized cats-mansion 3p",
                {"kind": "determinized", "game": "cats-mansion", "players": 3, "units": 50},
            ),
        ]
    ],
    ("mcts cat-town 2p (iterations)", {"kind": "mcts", "game": "cat-town", "players": 2, "units": 1}),
    ("mcts cats-mansion 3p (iterations)", {"kind": "mcts", "game": "cats-mansion", "players": 3, "units": 1}),
    ("search caty-mini 2p", {"kind": "search", "game": "caty-mini", "players": 2, "units": 128}),
    ("search cat-town 2p", {"kind": "search", "game": "cat-town", "players": 2, "units": 64}),
    ("search cat-town 4p", {"kind": "search", "game": "cat-town", "players": 4, "units": 64}),
    ("search cats-mansion 2p", {"kind": "search", "game": "cats-mansion", "players": 2, "units": 16}),
]
# search's rollout: clone, then up to 30 random decisions; mcts: decisions of 1,000 iterations each
SEARCH_DEFAULTS = {"warmup": 10, "depth": 30, "iterations": 1000}


class Worker:
    """A bench_worker.py process importing the engine of ``tree``."""

    def __init__(self, tree: Path):
        self.proc = subprocess.Popen(
            [sys.executable, str(REPO / "tools" / "bench_worker.py"), str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )

    def run(self, job: dict) -> float:
        """Units of work per CPU second."""
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"bench worker for {job} died")
        answer = json.loads(line)
        return answer["units"] / max(answer["seconds"], 1e-9)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def export(rev: str, folder: Path) -> None:
    """Revision ``rev`` of this repository, as files in ``folder``, with its native VM if it has one."""
    archive = subprocess.run(["git", "archive", rev], cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    if (folder / "engine" / "vm" / "Cargo.toml").is_file():
        build_vm(rev, folder)


def build_vm(rev: str, folder: Path) -> None:
    """``rev``'s VM built into its exported tree (without it, that tree would play on Python): this tree's
    build where the crate is the same, else ``rev``'s own build, pip through its build backend (with its VM's
    profile where it has one, as its users get it; deps kept between runs)."""
    library = folder / "engine" / "_vm.abi3.so"
    same = subprocess.run(["git", "diff", "--quiet", rev, "--", "engine/vm"], cwd=REPO).returncode == 0
    if same and (REPO / "engine" / "_vm.abi3.so").is_file():
        shutil.copy(REPO / "engine" / "_vm.abi3.so", library)
        return
    target = Path(tempfile.gettempdir()) / "tabletop-bench-target"
    print(f"building {rev}'s VM (pip, a minute or more) ...", flush=True)
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", "wheel", "."]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"could not build {rev}'s VM: {done.stderr.strip()[-300:]}")
    [wheel] = (folder / "wheel").glob("*.whl")
    library.write_bytes(zipfile.ZipFile(wheel).read("engine/_vm.abi3.so"))


@contextlib.contextmanager
def trees(rev: str):
    """(REV's folder, a worker of REV, a worker of this tree), REV exported for the time of the block."""
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as tmp:
        export(rev, Path(tmp))
        old, new = Worker(Path(tmp)), Worker(REPO)
        try:
            yield Path(tmp), old, new
        finally:
            old.close()
            new.close()


def measures(only: str, old, new):
    """(label, job) of the measures whose label contains ``only``; both workers have run each job once
    (the game loaded, lazy tables and the code cache filled)."""
    for label, base in AGAINST:
        if only in label:
            job = {**SEARCH_DEFAULTS, "variant": None, "limit": 5000, "seed": 0, "count": 1, **base}
            old.run(job), new.run(job)
            yield label, job


def against(rev: str, repeats: int, target: float, only: str = "") -> None:
    """Both trees measured interleaved; prints the median ratio per measure and its range.

    ``only`` keeps the measures whose label contains it (e.g. ``search`` or ``cat-town``)."""
    with trees(rev) as (_, old, new):
        print(f"tabletop bench: this tree against {rev}, {repeats} repeats, ~{target:g} CPU s per job on {rev}")
        print(f"{'measure':32} {'unit/s ' + rev:>14} {'unit/s now':>11} {'median ratio':>13} {'range':>14}")
        for label, job in measures(only, old, new):
            per_count = job["iterations"] if job["kind"] == "mcts" else 1  # an MCTS decision is many units
            job["count"] = max(1, round(target * old.run(job) / per_count))
            ratios, rates_old, rates_new = [], [], []
            for r in range(repeats):
                job["seed"] = 1000 * (r + 1)
                pair = (old, new) if r % 2 == 0 else (new, old)
                rates = {w: w.run(job) for w in pair}
                rates_old.append(rates[old])
                rates_new.append(rates[new])
                ratios.append(rates[new] / rates[old])
            print(
                f"{label:32} {statistics.median(rates_old):14.2f} {statistics.median(rates_new):11.2f} "
                f"{statistics.median(ratios):12.2f}× {min(ratios):6.2f}–{max(ratios):.2f}×",
                flush=True,
            )


def instructions(tree: Path, job: dict, counted: bool = True) -> int:
    """Machine instructions of one run of ``job`` in a fresh worker for ``tree``, counted by callgrind
    (``counted=False``: run it plainly, 0)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] if counted else []
    command += [sys.executable, str(REPO / "tools" / "bench_worker.py"), str(tree), json.dumps(job)]
    # one hash seed for every run: Python's randomised hashing moves a unit's count by up to 2%, as much as a change
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=environment)
    if not counted:
        if done.returncode != 0:
            raise SystemExit(f"{job} failed on {tree}: {done.stderr.strip()[-300:]}")
        return 0
    found = re.search(r"Collected : ([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind could not count {job} on {tree}: {done.stderr.strip()[-300:]}")
    return int(found.group(1).replace(",", ""))


def against_instructions(rev: str, only: str = "") -> None:
    """Both trees' instructions per unit of work, and the ratio (REV's / this tree's: how many times fewer)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    with trees(rev) as (old_tree, old, new):
        print(f"tabletop bench: this tree against {rev}, machine instructions per unit (callgrind)")
        print(f"{'measure':32} {'M instr ' + rev:>15} {'M instr now':>12} {'ratio':>8}")
        for label, job in measures(only, old, new):
            count = job["units"]
            per_unit = []
            for tree in (old_tree, REPO):
                instructions(tree, {**job, "count": 1}, counted=False)  # a cold code cache: compiled once here
                small = instructions(tree, {**job, "count": count})
                large = instructions(tree, {**job, "count": 3 * count})
                if large <= small:
                    raise SystemExit(f"{label}: {3 * count} units took no more instructions than {count} on {tree}")
                per_unit.append((large - small) / (2 * count))
            print(
                f"{label:32} {per_unit[0] / 1e6:15.3f} {per_unit[1] / 1e6:12.3f} {per_unit[0] / per_unit[1]:7.2f}×",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, metavar="K", help="games per row (default 200)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (default 0)")
    p.add_argument(
        "--budget",
        type=float,
        default=10.0,
        metavar="SEC",
        help="stop a row after this many seconds of play (default 10)",
    )
    p.add_argument("--runs", type=int, default=3, metavar="R", help="validate runs, best is kept (default 3)")
    p.add_argument("--against", metavar="REV", help="compare with git revision REV (e.g. a9f35bd)")
    p.add_argument("--repeats", type=int, default=5, metavar="R", help="--against: repeats per measure (default 5)")
    p.add_argument(
        "--target",
        type=float,
        default=2.0,
        metavar="SEC",
        help="--against: CPU seconds per job on REV (default 2; at 0.5 a ratio moved by up to 10%% between runs)",
    )
    p.add_argument("--only", default="", metavar="TEXT", help="--against: only measures whose label contains TEXT")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="--against: count machine instructions under valgrind instead of CPU time (slow, but the same "
        "count on every run, of the same games and rollouts: --repeats and --target do not apply)",
    )
    args = p.parse_args(argv)
    if args.against:
        if args.repeats < 1 or args.target <= 0:
            p.error("--repeats and --target must be positive")
        if args.instructions:
            against_instructions(args.against, args.only)
        else:
            against(args.against, args.repeats, args.target, args.only)
        return 0
    if args.games < 1 or args.runs < 1 or args.budget <= 0:
        p.error("--games, --runs and --budget must be positive")

    print(
        f"tabletop bench: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"up to {args.games} random games per row (seeds from {args.seed}, at most {args.budget:g} s a row)"
    )
    print()
    print_table(bench_games(args.games, args.seed, args.budget))
    print()
    best, code, last = bench_validate(args.runs)
    status = "ok" if code == 0 else f"exit {code}: {last}"
    runs = f"best of {args.runs} fresh processes" if args.runs > 1 else "one fresh process"
    print(f"cold `tabletop validate rules/`: {best:.2f} s ({runs}; {status})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
