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


def deal_at(state: int) -> rng.Deal:
    deal = rng.Deal(0)
    deal.state = state
    return deal


def picked(state: int, n: int) -> tuple[int, int]:
    """(pick, next state) by the definition: values drawn until value × n's low half is not below 2**64 mod n;
    the pick is its high half."""
    while True:
        value, state = rng.next_u64(state)
        if value * n % 2**64 >= 2**64 % n:
            return value * n >> 64, state


def test_a_deals_pick_is_the_high_half_of_value_times_n_and_refuses_the_values_that_would_bias_it():
    """Bounds from 1 to past 2**63, where about half the values are refused."""
    trials = random.Random(6)
    for _ in range(2000):
        n = trials.choice([trials.randrange(1, 60), trials.randrange(1, 2**64), 2**63 + trials.randrange(2**62)])
        state = trials.getrandbits(64)
        deal = deal_at(state)
        assert (deal.pick(n), deal.state) == picked(state, n)


def test_a_deal_refuses_the_value_that_would_favour_a_pick_and_draws_again():
    """Of the 2**64 values, 0 is the one ``pick(3)`` refuses (2**64 mod 3 = 1): kept, it would make 0 likelier."""
    top = (1 << 64) - 1
    state = (_unmix(0) - rng._GOLDEN) & top  # the next draw gives 0
    assert rng.next_u64(state)[0] == 0
    deal = deal_at(state)
    deal.pick(3)
    assert deal.state == (state + 2 * rng._GOLDEN) & top


def test_a_deals_shuffle_picks_each_place_from_the_top_down():
    trials = random.Random(5)
    for _ in range(200):
        size, state = trials.randrange(0, 40), trials.getrandbits(64)
        deal, cards, order, after = deal_at(state), list(range(size)), list(range(size)), state
        deal.shuffle(cards)
        for i in range(size - 1, 0, -1):
            j, after = picked(after, i + 1)
            order[i], order[j] = order[j], order[i]
        assert (cards, deal.state) == (order, after)


def test_a_copys_deal_draws_other_numbers_than_the_copys_own_chance():
    """A determinized copy is dealt by ``Deal(seed)`` and then draws its chance from ``seed_state(seed)``: the
    two streams share no number, so what was dealt says nothing of what the copy will draw."""
    for seed in range(300):
        deal, own = rng.Deal(seed).state, rng.seed_state(seed)
        dealt, drawn = set(), set()
        for _ in range(16):
            value, deal = rng.next_u64(deal)
            dealt.add(value)
            value, own = rng.next_u64(own)
            drawn.add(value)
        assert not dealt & drawn
