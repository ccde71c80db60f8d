"""Paths into a JSON value, for the tests that mutate saves and IRs part by part."""

from __future__ import annotations

import copy


def places(value, path=()):
    """Every path into a JSON value (lists and objects), the value's own included."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, (*path, i))


def part(value, path):
    """The part of ``value`` at ``path``."""
    for k in path:
        value = value[k]
    return value


def replaced(value, path, new):
    """A copy of ``value`` with its part at ``path`` replaced by ``new``."""
    if not path:
        return new
    copied = copy.deepcopy(value)
    part(copied, path[:-1])[path[-1]] = new
    return copied
