"""Choosing several things at once: ``taken = choose "take" several 1 to 3 from xs``.

The options of such a choice are lists: every way to take between the least and the most of the
items, each item at most once.  A list's members are put in the order of their ids, so an option's
id (``take 1, 5, 5``; ``take nothing``) names what is taken, not where it lay; two ways that print
alike (the two 5s of ``[5, 3, 5]``) are one option.  The action space lists the same ids from the
items' possible values (engine/runtime/action_space.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from math import comb

from engine.errors import RuleFault

MAX_WAYS = 10_000  # ways to choose that one decision may weigh (5 items: 32; 13 items: 8,192)


def subsets(items: list, low: int | None, high: int | None, label: Callable[[object], str]) -> list[list]:
    """Every list of between ``low`` and ``high`` of ``items``, members ordered by id, one per id."""
    n = len(items)
    low = 0 if low is None else max(0, low)
    high = n if high is None else min(n, high)
    ways = sum(comb(n, k) for k in range(low, high + 1))
    if ways > MAX_WAYS:
        raise RuleFault(f"choosing {low} to {high} of {n} items makes {ways:,} options, more than {MAX_WAYS:,}")
    out, seen = [], set()
    for k in range(low, high + 1):
        for combo in itertools.combinations(items, k):
            members = sorted(combo, key=label)
            key = tuple(label(m) for m in members)
            if key not in seen:
                seen.add(key)
                out.append(members)
    return out


def subset_ids(labels: list[str], high: int, prefix: str, low: int = 0) -> list[str]:
    """Every id a choice of ``low`` to ``high`` items whose ids are among ``labels`` can print (an id may
    repeat: the same value twice in the list)."""
    ordered = sorted(set(labels))
    return [
        prefix + (", ".join(combo) or "nothing")
        for k in range(max(0, low), high + 1)
        for combo in itertools.combinations_with_replacement(ordered, k)
    ]
