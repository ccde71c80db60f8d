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


def _unmix(z: int) -> int:
    """The input of splitmix64's finaliser that gives ``z`` (each of its steps can be undone)."""
    mask = (1 << 64) - 1
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    return z ^ (z >> 30) ^ (z >> 60)


def test_shuffle_draws_again_where_below_refuses_a_value():
    """The one value in 2**64 that ``below(3)`` refuses (it would favour 0) is refused by the shuffle too."""
    top = (1 << 64) - 1
    state = (_unmix(top) - rng._GOLDEN) & top  # the next draw gives the largest value
    assert rng.next_u64(state)[0] == top
    slow, fast = [0, 1, 2], [0, 1, 2]
    after = state
    for i in (2, 1):
        j, after = rng.below(after, i + 1)
        slow[i], slow[j] = slow[j], slow[i]
    assert after != (state + 2 * rng._GOLDEN) & top  # the refused value cost a draw
    assert (rng.shuffle(state, fast), fast) == (after, slow)
