"""A tiny seeded generator whose whole state is one int (plain data, cheap to copy).

splitmix64: fast, well mixed, and trivially serialisable, unlike
``random.Random`` whose state is 625 numbers.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    """splitmix64's finaliser: every input bit changes about half the output bits."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """Initial generator state for a user seed (any int).

    The seed is mixed, not used as a position: the stream of seed s+1 must not
    be the stream of seed s one draw later (neighbouring seeds give unrelated
    games, so a run of seeds is a run of independent games).
    """
    return _mix((seed ^ 0x632BE59BD9B4E019) & _MASK)


def next_u64(state: int) -> tuple[int, int]:
    """(random 64-bit value, next state)."""
    state = (state + _GOLDEN) & _MASK
    return _mix(state), state


def below(state: int, n: int) -> tuple[int, int]:
    """(uniform int in [0, n), next state), without modulo bias."""
    if n <= 0:
        raise ValueError("below() needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def derive(seed: int, *labels: int | str) -> int:
    """A seed for one part of a run (a seat's bot, a bot's copy) that does not give the game's seed back.

    A one-way hash (BLAKE2b), not arithmetic: a bot holding its own seed cannot
    compute the game's seed from it, only search for it.  In-process bots are
    trusted code all the same; the information model guards what the engine
    hands them.
    """
    data = repr((int(seed), *labels)).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") >> 1
