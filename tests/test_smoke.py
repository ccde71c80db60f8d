"""Every shipped game loads and plays to the end with random bots."""

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import load_game


@pytest.mark.parametrize("variant", [None, "older-players"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_caty_mini_plays_to_the_end(players, variant):
    game = load_game("caty-mini", variant=variant)
    state = game.new_game(players=players, seed=players)
    rnd = random.Random(players)
    while not state.is_terminal:
        state.apply(rnd.choice(state.legal_actions()))
    best = max(state.scores)
    assert state.outcome.reason == "all rounds played"
    assert state.winners == [
        p
        for p in range(players)
        if state.scores[p] == best
        and state.pvars[p]["string"] == max(state.pvars[q]["string"] for q in range(players) if state.scores[q] == best)
    ]
    assert len(state.actions) > 12


def test_the_benchmark_compares_this_tree_with_a_revision():
    """tools/bench.py --against builds the revision beside this tree and measures both in one run (a few
    games, and a game driven a decision at a time: only that it runs and says a ratio, never how fast)."""
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [
            sys.executable,
            "tools/bench.py",
            "--against",
            "HEAD",
            "--repeats",
            "1",
            "--target",
            "0.01",
            "--only",
            "mini 2p",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-500:]
    kinds = ("games caty-mini 2p", "search caty-mini 2p", "api caty-mini 2p (State)", "api caty-mini 2p (VmState)")
    rows = [line for line in done.stdout.splitlines() if line.startswith(kinds)]
    assert len(rows) == 4 and all(re.search(r"\d+\.\d\d× ", row) for row in rows), done.stdout
