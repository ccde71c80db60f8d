#!/usr/bin/env python
"""Soak: generated rule programs (tools/program_gen.py) played on the reference interpreter and on the VM.

    python tools/vm_program_fuzz.py --games 5000 --seed 1
    python tools/vm_program_fuzz.py --seed 1 --replay 1234        # one game: its text and where it parts

Every generated game that loads and lowers is played for each player count from seeded random choices on
both backends.  At every decision: the same seats to act and legal actions, the same state (JSON, the log
with it), the same scores, every seat's view (the VM's state read back by the reference) and, every few
decisions, every seat's determinized copy for the same seed; once per game, the reference's save read by
the VM.  A rule fault must be the same located diagnostic on both; at the end, the same outcome.  The run
reports every game where the backends part and ends non-zero if any did.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from a checkout

from program_gen import BOARD_FILE, HIVE_FILE, game_text  # beside this file (tools/), or loaded first by the tests

from engine import load_game
from engine.errors import RulesError, RuntimeRuleError, TabletopError
from engine.runtime.lower import Unsupported, diagnostic_of, ir_bytes, vm_module

DECISIONS = 120  # decisions played at most per game
DETERMINIZE_EVERY = 4


@dataclass
class Built:
    """One generated game: its text, and the game on both backends when it loads and lowers."""

    text: str
    status: str  # "ok", "diagnostics" (the checker refused it), "unsupported" (the VM does not run it)
    game: object = None
    vm_game: object = None
    why: str = ""


def build(seed: int, index: int, root: Path) -> Built:
    """Generated game ``index`` of ``seed``, written under ``root`` and loaded on both backends."""
    text = game_text(seed, index)
    folder = root / "rules" / f"g{seed}-{index}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    for name, board in (BOARD_FILE, HIVE_FILE):  # read where the game names it
        (folder / name).write_text(board, encoding="utf-8")
    try:
        game = load_game(folder / "game.yaml", reference=True)
    except RulesError as exc:
        return Built(text, "diagnostics", why=str(exc.diagnostics[0]))
    try:
        vm_game = vm_module().VmGame(ir_bytes(game))
    except Unsupported as exc:
        return Built(text, "unsupported", why=str(exc))
    return Built(text, "ok", game, vm_game)


@dataclass
class Played:
    """How one game went on both backends: ``parted`` says where they differ (None: nowhere)."""

    decisions: int = 0
    fault: str = ""  # the code of the rule fault both gave, if any
    ended: bool = False
    parted: str | None = None


def attempt(fn):
    """("ok", value), ("fault", diagnostic) of a rule fault, or ("error", its kind) of another failure of the
    engine's (a state that cannot be, an engine bug) of a call on either backend."""
    vm = vm_module()
    try:
        return "ok", fn()
    except RuntimeRuleError as exc:
        return "fault", exc.diagnostic
    except vm.VmRuleError as exc:
        return "fault", diagnostic_of(exc)
    except (TabletopError, vm.VmError) as exc:
        return "error", ERRORS.get(type(exc).__name__, type(exc).__name__)


ERRORS = {"VmStateError": "StateError", "VmIllegalAction": "IllegalAction", "VmEngineBug": "EngineBug"}


def outcome_of(ref) -> tuple | None:
    out = ref.outcome
    return None if out is None else (list(out.results), out.reason)


def play(game, vm_game, players: int, seed: int, decisions: int = DECISIONS) -> Played:
    """One game from seeded random choices on both backends, compared at every decision."""
    rnd = random.Random(seed)
    got = Played()
    ref_start = attempt(lambda: game.new_game(players, seed))
    vm_start = attempt(lambda: vm_game.new_game(players, seed))
    if ref_start[0] != vm_start[0] or ref_start[0] == "fault":
        return _faulted(got, ref_start, vm_start, "the start")
    ref, vm = ref_start[1], vm_start[1]
    for step in range(decisions):
        got.decisions = step
        parted = _differs(game, vm_game, ref, vm, step, rnd)
        if parted:
            got.parted = f"decision {step}: {parted}"
            return got
        if ref.is_terminal:
            got.ended = True
            return got
        seat = rnd.choice(ref.to_act)
        action = rnd.choice(ref.legal_actions(seat))
        ref_did = attempt(lambda action=action, seat=seat: ref.apply(action, seat=seat))
        vm_did = attempt(lambda action=action, seat=seat: vm.apply(action, seat))
        if ref_did[0] != vm_did[0] or ref_did[0] == "fault":
            return _faulted(got, ref_did, vm_did, f"decision {step} ({action!r} by seat {seat})")
    return got


def _faulted(got: Played, ref_did: tuple, vm_did: tuple, when: str) -> Played:
    if ref_did[0] != vm_did[0] or ref_did[1] != vm_did[1]:
        ref_says = ref_did[1] if ref_did[0] == "fault" else "no fault"
        vm_says = vm_did[1] if vm_did[0] == "fault" else "no fault"
        got.parted = f"at {when}: the reference gives {ref_says}, the VM {vm_says}"
    else:
        got.fault = ref_did[1].code
    return got


def _differs(game, vm_game, ref, vm, step: int, rnd: random.Random) -> str | None:
    """What differs between the two states at this decision (None: nothing)."""
    if ref.to_act != vm.to_act() or ref.is_terminal != vm.is_terminal():
        return f"seats to act {ref.to_act} / {vm.to_act()}"
    for seat in ref.to_act or [None]:
        if ref.legal_actions(seat) != vm.legal_actions(seat):
            return f"legal actions of seat {seat}: {ref.legal_actions(seat)} / {vm.legal_actions(seat)}"
    text = vm.to_json()
    if ref.to_data() != json.loads(text):
        return "the states differ: " + _first_difference(ref.to_data(), json.loads(text))
    ref_scores, vm_scores = attempt(lambda: ref.scores), attempt(vm.scores)
    if ref_scores != vm_scores:
        return f"scores {ref_scores} / {vm_scores}"
    if ref.is_terminal and attempt(lambda: outcome_of(ref)) != attempt(vm.outcome):
        return f"outcome {attempt(lambda: outcome_of(ref))} / {attempt(vm.outcome)}"
    back = game.state_from_json(text)
    for seat in [None, *range(ref.n)]:
        if attempt(lambda seat=seat: ref.view(seat)) != attempt(lambda seat=seat: back.view(seat)):
            return f"the view of seat {seat}"
    if step == 1 and json.loads(vm_game.state_from_json(ref.to_json()).to_json()) != json.loads(text):
        return "the reference's save read by the VM"
    if step % DETERMINIZE_EVERY == 0 and not ref.is_terminal:
        for seat in range(ref.n):
            seed = rnd.getrandbits(31)
            ref_copy = attempt(lambda seat=seat, seed=seed: ref.determinized(seat, seed).to_data())
            vm_copy = attempt(lambda seat=seat, seed=seed: json.loads(vm.determinized(seat, seed).to_json()))
            if ref_copy != vm_copy:
                return f"the determinized copy of seat {seat} (seed {seed})"
    return None


def _first_difference(a, b, path: str = "") -> str:
    """Where two JSON values first differ, as a path and the two values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'the whole'}: {json.dumps(a)[:200]} / {json.dumps(b)[:200]}"


def run(seed: int, games: int, root: Path, start: int = 0) -> dict:
    """Generate, load and play ``games`` games of ``seed``; counts and every parting."""
    counts: Counter = Counter()
    partings: list[dict] = []
    for index in range(start, start + games):
        built = build(seed, index, root)
        counts[built.status] += 1
        if built.status != "ok":
            continue
        game = built.game
        for players in range(game.min_players, game.max_players + 1):
            got = play(game, built.vm_game, players, seed * 1000 + index)
            counts["played"] += 1
            counts["decisions"] += got.decisions
            counts["ended" if got.ended else "faulted" if got.fault else "cut short"] += 1
            if got.decisions >= 3:
                counts["non-trivial"] += 1
            if got.parted:
                counts["parted"] += 1
                partings.append({"index": index, "players": players, "where": got.parted})
    return {"counts": counts, "partings": partings}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="the index of the first game")
    parser.add_argument("--replay", type=int, help="one game: print its text and how it went")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.replay is not None:
            print(game_text(args.seed, args.replay))
            args.start, args.games = args.replay, 1
        began = time.process_time()
        result = run(args.seed, args.games, Path(tmp), args.start)
    counts = result["counts"]
    print(
        f"{args.games} games generated (seed {args.seed}): {counts['ok']} load and lower, "
        f"{counts['diagnostics']} refused by the checker, {counts['unsupported']} not run by the VM; "
        f"{counts['played']} played ({counts['non-trivial']} of 3+ decisions, {counts['decisions']} decisions; "
        f"{counts['ended']} ended, {counts['faulted']} stopped on the same rule fault, {counts['cut short']} cut "
        f"short); {counts['parted']} parted; {time.process_time() - began:.0f} CPU-s"
    )
    for p in result["partings"]:
        print(f"  game {p['index']}, {p['players']} players: {p['where']}")
        print(f"    replay: python tools/vm_program_fuzz.py --seed {args.seed} --replay {p['index']}")
    return 1 if result["partings"] else 0


if __name__ == "__main__":
    sys.exit(main())
