"""Numbers in the rules are 64-bit on every backend.

The native VM holds a number in 64 bits; Python's are unbounded.  So that a rule counting past the range
means the same everywhere, each backend checks the same operations — ``+``, ``-``, ``*`` and ``sum`` — and
a result past ±(2⁶³ − 1) is a rule fault located at its rule, on every backend.  Other operations cannot
leave the range from numbers within it (``//``, ``%``, a negation, ``max``, sizes and counts), so they are
not checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from engine.errors import RuleFault
from engine.lang.ops import OPS

LIMIT = 2**63 - 1
PAST = f"a number past ±{LIMIT:,} (numbers in the rules are 64-bit)"


def in_range(value):
    """``value``, unless it is a number past ±LIMIT (any other value passes)."""
    if value.__class__ is int and not -LIMIT <= value <= LIMIT:
        raise RuleFault(PAST)
    return value


_SUM = cast(Callable, OPS["sum"].fn)


def _sum(st, numbers):
    return in_range(_SUM(st, numbers))  # the operation's own: what fails in it is the rule's, not the engine's


# Operations whose value is checked, by name: the function the backends call instead of the operation's own
# (engine/lang/ops.py).
CHECKED_OPS = {"sum": _sum}

__all__ = ["CHECKED_OPS", "LIMIT", "PAST", "in_range"]
