"""The generator's fast shuffle draws exactly what a place-by-place shuffle with ``below`` draws."""

from __future__ import annotations

import random

from engine.runtime import rng


def place_by_place(state: int, size: int) -> tuple[int, list[int]]:
    """(next state, order) of ``range(size)`` shuffled by ``below`` for each place from the top down."""
    order, after = list(range(size)), state
    for i in range(size - 1, 0, -1):
        j, after = rng.below(after, i + 1)
        order[i], order[j] = order[j], order[i]
    return after, order


def shuffled(state: int, size: int) -> tuple[int, list[int]]:
    order = list(range(size))
    return rng.shuffle(state, order), order


def test_shuffle_is_below_for_each_place_from_the_top_down():
    """Same order and same next state for any length and state, short lists drawn one by one and long
    ones all at once: games keep their seeds' deals."""
    trials = random.Random(3)
    for _ in range(300):
        size, state = trials.randrange(0, 300), trials.getrandbits(64)
        assert shuffled(state, size) == place_by_place(state, size)


def test_a_long_shuffle_with_a_value_that_may_be_refused_draws_as_below_does(monkeypatch):
    """A long list's draws are made all at once, unless one of them is a value ``below`` may refuse: then
    one by one.  With the bar lowered to half the range most long shuffles meet such a value."""
    monkeypatch.setattr(rng, "_SURE", 1 << 63)
    trials = random.Random(4)
    for _ in range(100):
        size, state = trials.randrange(rng._BY_ONE + 1, 100), trials.getrandbits(64)
        assert shuffled(state, size) == place_by_place(state, size)


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
    for size in (3, 3 * rng._BY_ONE):  # drawn one by one, and all at once
        after, order = place_by_place(state, size)
        assert after != (state + (size - 1) * rng._GOLDEN) & top  # the refused value cost a draw
        assert shuffled(state, size) == (after, order)


def test_a_stream_draws_what_the_functions_draw_in_turn():
    """``Stream`` (a copy's deal) keeps the state between draws: a shuffle, then a pick, as the functions give."""
    trials = random.Random(5)
    for _ in range(200):
        size, n, state = trials.randrange(0, 40), trials.randrange(1, 10), trials.getrandbits(64)
        stream, cards = rng.Stream(state), list(range(size))
        stream.shuffle(cards)
        after, order = place_by_place(state, size)
        assert (cards, stream.below(n)) == (order, rng.below(after, n)[0])


def test_a_copys_deal_draws_other_numbers_than_the_copys_own_chance():
    """A determinized copy is dealt from ``deal_state(seed)`` and then draws its chance from ``seed_state(seed)``:
    the two streams share no number, so what was dealt says nothing of what the copy will draw."""
    for seed in range(300):
        deal, own = rng.deal_state(seed), rng.seed_state(seed)
        dealt, drawn = set(), set()
        for _ in range(16):
            value, deal = rng.next_u64(deal)
            dealt.add(value)
            value, own = rng.next_u64(own)
            drawn.add(value)
        assert not dealt & drawn
