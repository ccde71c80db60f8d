"""Cats' Mansion properties over random games (hypothesis): 2-4 players, random legal actions.

Hypothesis picks the seed of the deal, the seed of the random players, the player count and the
points where a game is saved, cloned or inspected; the games themselves are played with random
legal actions, at most ``CAP`` of them (a random game rarely ends that soon: the properties are
about the states on the way).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mansion_helpers import mansion, pieces_on_board
from table import accounted, shows_only_own

CAP = 150
# Sized for the suite: well under a minute in all on one core.
WHOLE_GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.tuples(st.integers(0, 2**31 - 1), st.integers(2, 4), st.integers(0, 2**31 - 1))
SECRET = ("hand", "identity", "character")


def start(game_spec):
    seed, players, bot_seed = game_spec
    return mansion().new_game(players=players, seed=seed), random.Random(bot_seed)


def advance(state, rnd: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal:
            return
        state.apply(rnd.choice(state.legal_actions()))


def in_window(state) -> bool:
    """A reaction window is open: a "react …" or "place …" decision is pending."""
    return any(a.startswith(("react ", "place ")) for a in state.legal_actions())


def view_keeps_secrets(state, seat: int) -> bool:
    """The seat's view shows its own hand, cat and character card, and none of another seat's."""
    if not shows_only_own(state, seat, SECRET):
        return False
    # No cat or character card id of another seat anywhere in the view, unless shown by a wrong
    # challenge (then the colour is public through shown_cat, never the card zone itself).
    text = json.dumps(state.view(seat)["zones"])
    ids = state.game.card_ids
    return not any(
        f'"{ids[state.zones[f"{family}:{p}"][0]]}"' in text
        for p in range(state.n)
        if p != seat
        for family in ("identity", "character")
    )


@WHOLE_GAMES
@given(games)
def test_every_state_is_sound(game_spec):
    """In every state of a random game: the 9 pieces stand on spaces (one per space outside the
    bedrooms, but for a cat passing an object) and all 69 cards with them are in exactly one zone
    each; the hands hold 5; a non-terminal state offers distinct legal actions to a real seat;
    every view keeps the other seats' secrets."""
    state, rnd = start(game_spec)
    for _ in range(CAP):
        assert accounted(state) and len(state.game.card_ids) == 78
        assert pieces_on_board(state)
        assert all(len(state.zones[f"hand:{p}"]) == 5 for p in range(state.n))
        assert all(view_keeps_secrets(state, s) for s in range(state.n))
        if state.is_terminal:
            assert len(state.winners) == 1 and state.scores[state.winners[0]] == 1 and sum(state.scores) == 1
            return
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        assert 0 <= state.current_player < state.n
        state.apply(rnd.choice(legal))


@SETTINGS
@given(games, st.integers(0, CAP), st.integers(1, 40), st.booleans())
def test_json_round_trip_continues_identically(game_spec, at, then, window):
    """A state saved to JSON and read back equals the original, also in the middle of a reaction
    window, and the same actions from both give equal states (and equal JSON) afterwards."""
    state, rnd = start(game_spec)
    advance(state, rnd, at)
    if window:  # go on to the next reaction window
        for _ in range(CAP):
            if state.is_terminal or in_window(state):
                break
            state.apply(rnd.choice(state.legal_actions()))
    text = state.to_json()
    copy = state.game.state_from_json(text)
    assert copy == state and copy.to_json() == text and copy.loc == state.loc
    assert copy.legal_actions() == state.legal_actions()
    plan = random.Random(at * 7 + then)
    for _ in range(then):
        if state.is_terminal:
            break
        action = plan.choice(state.legal_actions())
        state.apply(action)
        copy.apply(action)
        assert copy == state
    assert copy.to_json() == state.to_json()


def test_round_trips_inside_reaction_windows_happen():
    """The window case above is really exercised: random games reach react/place decisions."""
    found = 0
    for seed in range(10):
        state, rnd = start((seed, 2 + seed % 3, seed))
        for _ in range(CAP):
            if state.is_terminal:
                break
            if in_window(state):
                copy = state.game.state_from_json(state.to_json())
                assert copy == state
                action = rnd.choice(state.legal_actions())
                state.apply(action)
                copy.apply(action)
                assert copy == state
                found += 1
            else:
                state.apply(rnd.choice(state.legal_actions()))
    assert found >= 10


@SETTINGS
@given(games, st.integers(0, CAP), st.integers(1, 30))
def test_clone_is_equal_and_independent(game_spec, at, then):
    """A clone equals its original; playing on the clone leaves the original as it was."""
    state, rnd = start(game_spec)
    advance(state, rnd, at)
    before = state.to_json()
    other = state.clone()
    assert other == state
    advance(other, random.Random(then), then)
    assert state.to_json() == before  # playing the clone left the original alone
    if not state.is_terminal:
        after = other.to_json()
        state.apply(state.legal_actions()[0])  # and playing the original leaves the clone alone
        assert other.to_json() == after


@SETTINGS
@given(games, st.integers(0, CAP), st.integers(0, 3), st.integers(0, 2**31 - 1))
def test_views_do_not_depend_on_hidden_cards(game_spec, at, seat, swap_seed):
    """Swapping cards that ``seat`` cannot see (other hands, cat and character cards, the stack,
    the cards set aside) leaves its view unchanged."""
    state, rnd = start(game_spec)
    seat %= state.n
    advance(state, rnd, at)
    slots = state.hidden_from(seat)
    assert all(
        zone.split(":")[0] in ("stack", "hand", "identity", "character", "aside", "supply", "cat_cards", "characters")
        for zone, _ in slots
    )
    assert not any(zone in (f"hand:{seat}", f"identity:{seat}", f"character:{seat}") for zone, _ in slots)
    other = state.clone()
    shuffler = random.Random(swap_seed)
    for _ in range(20):
        (za, ia), (zb, ib) = shuffler.choice(slots), shuffler.choice(slots)
        a, b = other.zones[za][ia], other.zones[zb][ib]
        other.zones[za][ia], other.zones[zb][ib] = b, a
        other.loc[a], other.loc[b] = zb, za
    assert other.view(seat) == state.view(seat)
    assert state.determinized(seat, swap_seed).view(seat) == state.view(seat)
