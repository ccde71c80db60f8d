"""A tiny seeded generator whose whole state is one int (plain data, cheap to copy).

splitmix64: fast, well mixed, and trivially serialisable, unlike
``random.Random`` whose state is 625 numbers.
"""

from __future__ import annotations

import hashlib
import secrets
import sys

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SURE = (1 << 64) - (1 << 32)  # a value below it is never refused by ``below(n)`` for n ≤ 2**32


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


class Deal:
    """The generator of a determinized copy's deal: splitmix64 from ``seed_state(seed)`` mixed once more,
    another stream than the copy's own draws (``seed_state(seed)``), so the deal and the copy's future chance
    are not the same numbers.  Its state changes in place.

    A pick is the high half of value × n (Lemire's method), a value refused where the low half falls below
    2**64 mod n, which keeps it exact: no division per card, which ``below`` pays.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = _mix(seed_state(seed))

    def pick(self, n: int) -> int:
        """A uniform number in [0, n), 0 < n < 2**64."""
        while True:
            self.state = (self.state + _GOLDEN) & _MASK
            product = _mix(self.state) * n
            low = product & _MASK
            if low >= n or low >= ((1 << 64) - n) % n:
                return product >> 64

    def shuffle(self, items: list) -> None:
        """Fisher–Yates: each place from the last down swapped with a pick at or below it."""
        pick = self.pick
        for i in range(len(items) - 1, 0, -1):
            j = pick(i + 1)
            items[i], items[j] = items[j], items[i]


def fresh_seed() -> int:
    """A seed from the operating system, for a run not given one: every game deals afresh, and 64 bits leave a
    bot no hope of searching its way back from its own seed (``derive``) to the game's."""
    return secrets.randbits(64)


def derive(seed: int, *labels: int | str) -> int:
    """A seed for one part of a run (a seat's bot, a bot's copy) that does not give the game's seed back.

    A one-way hash (BLAKE2b), not arithmetic: a bot holding its own seed cannot
    compute the game's seed from it, only search for it.  In-process bots are
    trusted code all the same; the information model guards what the engine
    hands them.
    """
    data = repr((int(seed), *labels)).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") >> 1


def shuffle(state: int, items: list) -> int:
    """Shuffle ``items`` in place (Fisher–Yates, the draws of ``below``); returns the next state.

    The results are the very same as drawing ``below(state, n)`` for each n from the length down.
    ``below`` refuses only values in the top ``2**64 % n`` of the range, all of them at or above
    ``_SURE`` (n < 2**32): a value below it is kept at once.  A long list's draws are made all at once
    (``_draws``); a short one's, or one with a value ``below`` might refuse, one by one.
    """
    if len(items) > _BY_ONE and _PACKED:
        draws = _draws(state, len(items) - 1)
        if max(draws) < _SURE:
            for last, z in zip(range(len(items) - 1, 0, -1), draws):
                j = z % (last + 1)
                items[last], items[j] = items[j], items[last]
            return (state + (len(items) - 1) * _GOLDEN) & _MASK
    return _shuffle_by_one(state, items)


def _shuffle_by_one(state: int, items: list) -> int:
    """``shuffle`` with ``next_u64`` written out inline; the rare value above ``_SURE`` goes to ``below``."""
    mask, golden = _MASK, _GOLDEN
    for n in range(len(items), 1, -1):
        state = (state + golden) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        if z < _SURE:
            j = z % n
        else:
            j, state = below((state - golden) & mask, n)
        items[n - 1], items[j] = items[j], items[n - 1]
    return state


_BY_ONE = 8  # lists up to this long are shuffled draw by draw: packing them costs more than it saves
_PACKED = sys.byteorder == "little"  # ``_draws`` reads the lanes back as the machine's 64-bit words
_LANES: dict[int, tuple[int, int, int]] = {}  # count → (the mask, the steps, a one in each 128-bit lane)
_LANES_KEPT = 256


def _draws(state: int, count: int) -> list[int]:
    """The next ``count`` values of ``next_u64`` from ``state``, computed together.

    The states are ``state + k·golden`` (k = 1…count); each goes in its own 128-bit lane of one big
    int, so that splitmix64's shifts, multiplications and masks run over all of them in a few
    operations without a bytecode per value: a 64-bit value times a 64-bit constant fits its lane, and
    a shift's bits that cross into the next lane are masked off.
    """
    lanes = _LANES.get(count)
    if lanes is None:
        if len(_LANES) >= _LANES_KEPT:
            _LANES.clear()
        ones = int.from_bytes((1).to_bytes(16, "little") * count, "little")
        steps = b"".join((k * _GOLDEN & _MASK).to_bytes(16, "little") for k in range(1, count + 1))
        lanes = _LANES[count] = (ones * _MASK, int.from_bytes(steps, "little"), ones)
    mask, golden_steps, ones = lanes
    s = (ones * state + golden_steps) & mask
    z = ((s ^ (s >> 30) & mask) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27) & mask) * 0x94D049BB133111EB) & mask
    z ^= (z >> 31) & mask
    return memoryview(z.to_bytes(16 * count, "little")).cast("Q")[::2].tolist()
