"""Golden playthroughs: one seeded game of random bots per shipped game, variant and player count.

    python tools/playthroughs.py                 # rewrite tests/playthroughs/ from this tree
    python tools/playthroughs.py --check         # compare instead: the first step that differs, exit 1

Each transcript is JSON lines (tests/playthroughs/<game>[--<variant>]--<n>p.jsonl): a header, then
one line a decision — the seats asked, the seat answering, the kind of decision, its legal actions,
the action taken, and a digest of every seat's view — then the results.  Games stop after
MAX_STEPS decisions, so the folder stays small.  tests/test_playthroughs.py replays every
transcript; a change to the rules or the engine that alters any game shows *what* changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import load_game
from engine.bots import make_agent
from engine.load.documents import known_games, known_variants, resolve
from engine.runtime import rng

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
SEED = 1
MAX_STEPS = 120


def cases() -> list[tuple[str, str | None, int]]:
    """(game, variant, players) for every shipped game, variant and player count."""
    out = []
    for name in known_games():
        game_file, _ = resolve(name)
        for variant in [None, *known_variants(game_file.parent)]:
            game = load_game(name, variant)
            out += [(name, variant, n) for n in range(game.min_players, game.max_players + 1)]
    return out


def file_name(name: str, variant: str | None, players: int) -> str:
    return f"{name}{'--' + variant if variant else ''}--{players}p.jsonl"


def digest(view: dict) -> str:
    """A short fingerprint of a view: equal views, equal digests (keys sorted, no spaces)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def transcript(name: str, variant: str | None, players: int) -> list[str]:
    """The game's lines, as JSON texts: header, one per decision (at most MAX_STEPS), results."""
    state = load_game(name, variant).new_game(players=players, seed=SEED)
    bots = [make_agent("random", seed=rng.derive(SEED, "bot", seat)) for seat in range(players)]
    lines = [{"game": name, "variant": variant, "players": players, "seed": SEED, "bots": "random"}]
    step = 0
    while not state.is_terminal and step < MAX_STEPS:
        views = [state.view(seat) for seat in range(players)]
        seat = state.to_act[0]
        action = bots[seat].act(views[seat])
        lines.append(
            {
                "step": step,
                "to_act": list(state.to_act),
                "seat": seat,
                "kind": views[seat]["decision"]["kind"],
                "legal": state.legal_actions(seat),
                "action": action,
                "views": [digest(v) for v in views],
            }
        )
        state.apply(action, seat=seat)
        step += 1
    outcome = state.outcome
    lines.append(
        {
            "end": "finished" if state.is_terminal else f"stopped after {MAX_STEPS} decisions",
            "scores": state.scores,
            "outcome": outcome.to_data() if outcome is not None else None,
            "returns": state.returns(),
        }
    )
    return [json.dumps(line, ensure_ascii=False) for line in lines]


def first_difference(kept: list[str], now: list[str]) -> str | None:
    """Where two transcripts part: the first step (or line) that differs, both versions; None if they agree."""
    for i, (a, b) in enumerate(zip(kept, now)):
        if a != b:
            step = json.loads(a).get("step") if a.startswith("{") else None
            where = f"step {step}" if step is not None else f"line {i + 1}"
            return f"{where} differs:\n  kept: {a}\n  now:  {b}"
    if len(kept) != len(now):
        return f"the kept transcript has {len(kept)} lines, this tree gives {len(now)}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the kept transcripts, write nothing")
    args = parser.parse_args(argv)
    FOLDER.mkdir(parents=True, exist_ok=True)
    wanted, failed = set(), 0
    for name, variant, players in cases():
        path = FOLDER / file_name(name, variant, players)
        wanted.add(path.name)
        now = transcript(name, variant, players)
        if args.check:
            kept = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
            problem = first_difference(kept, now)
            if problem:
                print(f"{path.name}: {problem}")
                failed += 1
        else:
            path.write_text("\n".join(now) + "\n", encoding="utf-8")
    for stale in sorted(p for p in FOLDER.glob("*.jsonl") if p.name not in wanted):
        print(f"{stale.name}: no shipped game, variant and player count gives it" + ("" if args.check else "; removed"))
        if args.check:
            failed += 1
        else:
            stale.unlink()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
