"""The generator's fast shuffle draws exactly what a place-by-place shuffle with ``below`` draws."""

from __future__ import annotations

import random

from engine import rng


def test_shuffle_is_below_for_each_place_from_the_top_down():
    """Same order and same next state for any length and state: games keep their seeds' deals."""
    trials = random.Random(3)
    for _ in range(300):
        size, state = trials.randrange(0, 60), trials.getrandbits(64)
        slow, fast = list(range(size)), list(range(size))
        after = state
        for i in range(size - 1, 0, -1):
            j, after = rng.below(after, i + 1)
            slow[i], slow[j] = slow[j], slow[i]
        assert (rng.shuffle(state, fast), fast) == (after, slow)
