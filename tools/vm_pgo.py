#!/usr/bin/env python
"""Make the VM's execution profile (engine/vm/pgo), which the build compiles the VM against.

    python tools/vm_pgo.py [--check]

Builds this tree's wheel with an instrumented VM (``-Cprofile-generate``, the very build that pip makes, so the
profile names the functions of that build), plays the training below on it, merges the counts with the
``llvm-profdata`` of rustc's LLVM (Debian: ``apt-get install llvm-22`` for rustc 1.95) and writes the profile,
compressed, with what made it: rustc, and the digest of the VM's sources that the suite compares with the tree's
(tests/test_vm_build.py). Run it after changing the VM. ``--check`` then builds with the profile and counts the
build's functions it has no counts for (those the training never ran: a few hundred, entry points and error
paths; nearly all, if the profile named another build's functions) and those whose counts are stale.

The training is the product's own use, so that no path a user takes is laid out as cold: every shipped game,
variant and player count played by random bots, the three published games at length (random and greedy through
``simulate``, the API loop a decision at a time with views, copies, determinized copies and saves, and an MCTS
search each).
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from build_backend import (
    MANIFEST,
    PROFILE,
    profile_env,
    rustc_identity,
    sources_digest,
)  # beside this file, on sys.path

REPO = Path(__file__).resolve().parents[1]
TARGET = Path(tempfile.gettempdir()) / "tabletop-pgo-target"  # deps kept between runs
PUBLISHED = [
    ("caty-mini", 2, "random", 300),
    ("caty-mini", 4, "random", 100),
    ("cat-town", 2, "random", 200),
    ("cat-town", 4, "random", 60),
    ("cats-mansion", 3, "greedy", 20),
    ("cats-mansion", 2, "greedy", 10),
]


def train() -> None:
    """The training, run inside the instrumented build."""
    import random

    from engine import load_game
    from engine.bots import make_agent
    from engine.lab.simulate import simulate
    from engine.load.documents import data_root, known_games, known_variants

    for name in known_games():
        for variant in [None, *known_variants(data_root() / "rules" / name)]:
            game = load_game(name, variant)
            for players in range(game.min_players, game.max_players + 1):
                simulate(game, players, 5, seed=1, bots="random")
    for name, players, bots, games in PUBLISHED:
        game = load_game(name)
        simulate(game, players, games, seed=1, bots=bots)
        rnd = random.Random(1)
        for i in range(games // 4):
            state = game.new_game(players, i)
            while not state.is_terminal:
                state.apply(rnd.choice(state.legal_actions()))
                if rnd.random() < 0.05:
                    seat = state.current_player or 0
                    state.clone().determinized(seat, i).view(seat)
                    type(state).from_json(game, state.to_json())
        state = game.new_game(players, 3)
        for _ in range(10):
            state.apply(rnd.choice(state.legal_actions()))
        seat = state.current_player
        make_agent("mcts:300", seed=1).search(state.determinized(seat, 1), seat)


def llvm_profdata(llvm: str) -> str:
    """The llvm-profdata of LLVM ``llvm`` (rustc's), which alone reads the counts its build writes."""
    major = llvm.split(".")[0]
    for name in (f"llvm-profdata-{major}", "llvm-profdata"):
        path = shutil.which(name)
        if path:
            version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
            if re.search(rf"LLVM version {major}\.", version):
                return path
    raise SystemExit(f"no llvm-profdata of LLVM {major} (rustc's): apt-get install llvm-{major}")


def wheel(tree: Path, out: Path, rustflags: str) -> str:
    """This tree's wheel, built by pip through the project's backend with ``rustflags``; the build's output."""
    env = {**os.environ, "RUSTFLAGS": rustflags, "CARGO_TARGET_DIR": str(TARGET)}
    command = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "-w", str(out), "."]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the build failed: {done.stderr.strip()[-600:]}")
    return done.stdout + done.stderr


def copy_tree(into: Path) -> None:
    """The working tree's files (committed or not, ignored ones left out) copied into ``into``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)


def make() -> None:
    rustc = rustc_identity()
    profdata = llvm_profdata(rustc["LLVM version"])
    with tempfile.TemporaryDirectory(prefix="tabletop-pgo-") as tmp:
        work = Path(tmp)
        copy_tree(work / "tree")
        print("building the instrumented VM (a few minutes) ...", flush=True)
        wheel(work / "tree", work / "wheel", f"-Cprofile-generate={work / 'counts'}")
        [built] = (work / "wheel").glob("*.whl")
        zipfile.ZipFile(built).extractall(work / "site")
        print("training ...", flush=True)
        env = {**os.environ, "PYTHONPATH": str(work / "site")}
        subprocess.run([sys.executable, __file__, "--train"], cwd=work / "site", env=env, check=True)
        merged = work / "vm.profdata"
        counts = sorted(str(p) for p in (work / "counts").glob("*.profraw"))
        subprocess.run([profdata, "merge", "--sparse", "-o", str(merged), *counts], check=True)
        PROFILE.parent.mkdir(exist_ok=True)
        PROFILE.write_bytes(lzma.compress(merged.read_bytes(), preset=9))
    manifest = {"rustc": rustc, "sources": sources_digest(), "training": __doc__.split("\n\n")[-1].strip()}
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {PROFILE.relative_to(REPO)} ({PROFILE.stat().st_size // 1024} KB) and {MANIFEST.name}")


def check() -> None:
    """Builds with the profile and counts the build's functions the profile has no counts for."""
    variables, why = profile_env({}, rustc_identity())
    if variables is None:
        raise SystemExit(why)
    flags = variables["RUSTFLAGS"]
    with tempfile.TemporaryDirectory(prefix="tabletop-pgo-") as tmp:
        copy_tree(Path(tmp) / "tree")
        output = wheel(Path(tmp) / "tree", Path(tmp) / "wheel", f"{flags} -Cllvm-args=-pgo-warn-missing-function")
    missing = re.findall(r"no profile data available for function (\S+)", output)
    stale = re.findall(r"function control flow change detected \(hash mismatch\) (\S+)", output)
    print(f"functions without counts: {len(missing)}; with stale counts: {len(stale)}")
    for name in (missing + stale)[:20]:
        print(f"  {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="build with the profile and count what it lacks")
    parser.add_argument("--train", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.train:
        import engine

        if not Path(engine.__file__).is_relative_to(Path.cwd()):
            raise SystemExit(f"training the wrong build: {engine.__file__}")
        train()
    elif args.check:
        check()
    else:
        make()
    return 0


if __name__ == "__main__":
    sys.exit(main())
