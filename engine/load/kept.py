"""The last results of a pure function, kept by key: what a process reads, checks or parses again (a game's
files as each variant loads, a game loaded again) is worked out once."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most ``size`` results, the oldest forgotten first; safe to share between threads (each step is one
    call into the ordered dict, and two threads forgetting at once forget two)."""

    def __init__(self, size: int):
        self._items: OrderedDict[K, V] = OrderedDict()
        self._size = size

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def keep(self, key: K, value: V) -> None:
        self._items[key] = value
        while len(self._items) > self._size:
            with contextlib.suppress(KeyError):
                self._items.popitem(last=False)
