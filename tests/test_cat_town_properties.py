"""Cat Town properties over random games (hypothesis): every mode, 2-4 players.

Hypothesis picks the seed of the deal, the seed of the random players, the player count,
the mode and the points where a game is saved, cloned or inspected; the games themselves
are played with random legal actions.
"""

from __future__ import annotations

import json
import random

from cat_town_helpers import MODES, cat_town
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table import accounted, shows_only_own

# Sized for the suite: about 20 s in all on one core.
WHOLE_GAMES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.tuples(st.integers(0, 2**31 - 1), st.integers(2, 4), st.sampled_from(MODES), st.integers(0, 2**31 - 1))


def start(game_spec):
    seed, players, mode, bot_seed = game_spec
    return cat_town(mode).new_game(players=players, seed=seed), random.Random(bot_seed)


def advance(state, rnd: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal:
            return
        state.apply(rnd.choice(state.legal_actions()))


@WHOLE_GAMES
@given(games)
def test_every_state_is_sound(game_spec):
    """In every state of a random game: all 100 cards are in exactly one zone each; a
    non-terminal state offers a legal action to a real seat; every view shows that seat's
    hand and no other seat's hand ids; the game ends with winners."""
    state, rnd = start(game_spec)
    steps = 0
    while True:
        assert accounted(state)
        assert all(shows_only_own(state, s) for s in range(state.n))
        if state.is_terminal:
            break
        assert state.legal_actions() and 0 <= state.current_player < state.n
        assert len(set(state.legal_actions())) == len(state.legal_actions())
        state.apply(rnd.choice(state.legal_actions()))
        steps += 1
        assert steps < 5000
    team = [sum(state.scores[m] for m in state.game.team_of(state.n, p)) for p in range(state.n)]
    assert state.winners and all(team[w] == max(team) for w in state.winners)


@SETTINGS
@given(games, st.integers(0, 300), st.integers(1, 40))
def test_json_round_trip_continues_identically(game_spec, at, then):
    """A state saved to JSON and read back equals the original, and the same actions from
    both give equal states (and equal JSON) afterwards."""
    state, rnd = start(game_spec)
    advance(state, rnd, at)
    text = state.to_json()
    copy = state.game.state_from_json(text)
    assert copy == state
    assert copy.to_json() == text
    assert copy.loc == state.loc
    plan = random.Random(at * 7 + then)
    for _ in range(then):
        if state.is_terminal:
            assert copy.is_terminal
            break
        assert copy.legal_actions() == state.legal_actions()
        action = plan.choice(state.legal_actions())
        state.apply(action)
        copy.apply(action)
        assert copy == state
    assert json.loads(copy.to_json()) == json.loads(state.to_json())
    assert copy.winners == state.winners


@SETTINGS
@given(games, st.integers(0, 300))
def test_clone_is_equal_and_independent(game_spec, at):
    """A clone equals its original; playing on either leaves the other exactly as it was."""
    state, rnd = start(game_spec)
    advance(state, rnd, at)
    twin = state.clone()
    assert twin == state
    if state.is_terminal:
        return
    saved = state.to_json()
    action = rnd.choice(twin.legal_actions())
    twin.apply(action)
    assert state.to_json() == saved  # the original did not move
    assert twin != state
    state.apply(action)
    assert state == twin  # the same action gives the same state
    advance(state, random.Random(1), 5)
    moved = twin.to_json()
    assert twin.to_json() == moved and accounted(twin) and accounted(state)


@SETTINGS
@given(games, st.integers(0, 300))
def test_a_clone_for_searching_differs_only_in_its_log(game_spec, at):
    """``clone(log=False)`` starts with an empty log; the same moves then give the same state otherwise."""
    state, rnd = start(game_spec)
    advance(state, rnd, at)
    quick = state.clone(log=False)
    assert quick.log == [] and quick.history == state.history
    full = state.clone()
    for _ in range(5):
        if full.is_terminal:
            break
        action = rnd.choice(full.legal_actions())
        full.apply(action)
        quick.apply(action)
    ours, theirs = full.to_data(), quick.to_data()
    assert ours.pop("log")[len(state.log_entries) :] == theirs.pop("log")
    assert ours == theirs


@SETTINGS
@given(games, st.integers(0, 300), st.integers(0, 3), st.integers(0, 2**31 - 1))
def test_a_view_is_blind_to_cards_its_seat_cannot_see(game_spec, at, seat, swap_seed):
    """Exchanging two cards that a seat cannot see (in other hands, Blocks, the Discard pile,
    the box) never changes that seat's view."""
    state, rnd = start(game_spec)
    advance(state, rnd, at)
    seat %= state.n
    hidden = [
        c
        for z, cards in state.zones.items()
        for c in cards
        if z.startswith(("block:", "discard", "box")) or (z.startswith("hand:") and z != f"hand:{seat}")
    ]
    pick = random.Random(swap_seed)
    a, b = pick.sample(hidden, 2)
    before = state.view(seat)
    za, zb = state.loc[a], state.loc[b]
    ia, ib = state.zones[za].index(a), state.zones[zb].index(b)
    state.zones[za][ia], state.zones[zb][ib] = b, a
    state.loc[a], state.loc[b] = zb, za
    assert state.view(seat) == before
