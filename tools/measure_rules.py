"""Measure how the way a rule is written changes its speed (the numbers of "Writing fast rules" in
``tabletop doc --language``).

Each pair runs the same computation written two ways, 300 times over a deck of 300 cards, inside the
setup of a throw-away game; the time is the best of 5 runs of ``new_game`` (load and compile excluded),
and the ratio slow/fast is what the docs quote. Run: ``python tools/measure_rules.py``.
"""

from __future__ import annotations

import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import load_game

GAME = """\
id: bench
name: Bench
players: {{min: 2, max: 2}}
step_budget: 5000000
components:
  - kind: card
    attributes: {{power: int}}
    start: deck
    items:
      - {{id: low, power: 1, copies: 150}}
      - {{id: high, power: 3, copies: 150}}
zones:
  - {{id: deck, visibility: hidden}}
variables:
  n: {{type: int}}
functions:
  - id: threshold
    params: {{p: player}}
    returns: int
    value: seat_number(p) + 2
setup: |
  repeat 300:
{body}
play: |
  end_game
scoring:
  - {{id: n, points: n}}
"""

PAIRS = {
    "count a zone: size(deck) vs size(cards(deck))": ("n = size(deck)", "n = size(cards(deck))"),
    "a function called once, before the loop, vs inside it": (
        "t = threshold(me)\nn = 0\nfor c in deck:\n    if c.power > t:\n        n = n + 1",
        "n = 0\nfor c in deck:\n    if c.power > threshold(me):\n        n = n + 1",
    ),
    "build a list with a comprehension vs by adding in a loop": (
        "xs = [c for c in deck if c.power > 2]\nn = size(xs)",
        "xs = []\nfor c in deck:\n    if c.power > 2:\n        xs = xs + [c]\nn = size(xs)",
    ),
}


def game_for(body: str):
    """The throw-away game whose setup runs ``body`` 300 times (its score is the final n)."""
    with tempfile.TemporaryDirectory() as folder:
        game_file = Path(folder) / "rules" / "bench" / "game.yaml"
        game_file.parent.mkdir(parents=True)
        game_file.write_text(GAME.format(body=textwrap.indent(body, " " * 6)), encoding="utf-8")
        return load_game(game_file)


def seconds(body: str) -> float:
    """Best of 5 runs of the setup (loading and compiling excluded)."""
    game = game_for(body)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        game.new_game(players=2, seed=0)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for title, (fast, slow) in PAIRS.items():
        a, b = seconds(fast), seconds(slow)
        print(f"{title}: {a * 1000:.1f} ms vs {b * 1000:.1f} ms, {b / a:.1f}x")


if __name__ == "__main__":
    main()
