"""Caty Mini properties over random games (hypothesis): whatever the seed, player count, variant
and legal actions chosen, the components are conserved, the state saves and copies exactly,
play is reproducible and views keep secrets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from table import all_strings

from engine import IllegalAction, load_game

STRING = 1450
PLAYERS = [2, 3, 4]
VARIANTS = [None, "older-players"]
TILE_ZONES = ("tiles", "table", "pile:", "hand:")


# --------------------------------------------------------------------------- helpers


@cache
def game_of(variant):
    return load_game("caty-mini", variant=variant)


games = hs.tuples(hs.integers(0, 2**64 - 1), hs.sampled_from(PLAYERS), hs.sampled_from(VARIANTS))


def new(setup):
    seed, players, variant = setup
    game = game_of(variant)
    return game, game.new_game(players=players, seed=seed)


def step(st, rnd) -> str:
    """Apply one random legal action; return it."""
    action = rnd.choice(st.legal_actions())
    st.apply(action)
    return action


def check_conservation(game, st) -> None:
    """Every card in exactly one zone, st.loc agrees, 20 tiles and 50 tokens where they may be."""
    placed = [c for cards in st.zones.values() for c in cards]
    assert sorted(placed) == list(range(len(game.card_ids)))
    for zone, cards in st.zones.items():
        assert all(st.loc[c] == zone for c in cards)
        kinds = {game.card_kinds[c] for c in cards}
        if zone.startswith(TILE_ZONES):
            assert kinds <= {"tile"}, zone
        elif zone.startswith("token_pile:"):
            assert {game.attributes["toy"][c] for c in cards} <= {zone.split(":")[1]}
            assert kinds <= {"token"}
        elif zone.startswith("won:"):
            assert kinds <= {"token"}
    assert Counter(game.card_kinds[c] for c in placed) == {"tile": 20, "token": 50}
    assert Counter(game.card_ids[c] for c in placed) == Counter(game.card_ids)


def check_decisions(st) -> None:
    """A legal action in every non-terminal state, none when the game is over."""
    if st.is_terminal:
        assert st.legal_actions() == [] and st.current_player is None
        assert st.winners and all(st.scores[w] == max(st.scores) for w in st.winners)
        with pytest.raises(IllegalAction):
            st.apply("notch left")
    else:
        legal = st.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        assert 0 <= st.current_player < st.n
        assert st.winners == []


def check_view(game, st, seat: int) -> None:
    """What ``seat`` sees: own hand and won tokens; of the rest only backs (toy pictures) and counts."""
    view = st.view(seat)
    zones = view["zones"]
    toy = game.attributes["toy"]
    for zone, cards in st.zones.items():
        shown = zones[zone]
        assert len(shown) == len(cards)
        own = zone in (f"hand:{seat}", f"won:{seat}")
        if zone == "table" or own:
            assert shown == [game.card_ids[c] for c in cards]
        else:  # hidden: tiles have a plain back, tokens show their toy
            assert shown == [{"toy": toy[c]} if game.card_kinds[c] == "token" else None for c in cards]
    strings = all_strings(view)
    words = {w for s in strings for w in s.replace("/", " ").replace(":", " ").split()}
    for other in range(st.n):
        if other != seat:
            assert not words & {game.card_ids[c] for c in st.zones[f"hand:{other}"]}
    token_ids = {cid for cid, kind in zip(game.card_ids, game.card_kinds) if kind == "token"}
    assert Counter(s for s in strings if s in token_ids) == Counter(game.card_ids[c] for c in st.zones[f"won:{seat}"])
    if view["decision"] is not None and view["decision"]["player"] != seat:
        assert "actions" not in view["decision"]


# ------------------------------------------------------------------------ properties


@settings(max_examples=150, deadline=None)
@given(setup=games, rnd=hs.randoms(use_true_random=False))
def test_components_conserved_string_never_negative_and_decisions_exist(setup, rnd):
    """Tiles (20) and tokens (50) are conserved; the string only shrinks and never below 0;
    a non-terminal state always offers a legal action, a terminal one none."""
    game, st = new(setup)
    strings = [STRING] * st.n
    while True:
        check_conservation(game, st)
        check_decisions(st)
        now = [p["string"] for p in st.pvars]
        assert all(0 <= a <= b for a, b in zip(now, strings))
        strings = now
        if st.is_terminal:
            break
        step(st, rnd)
    assert sum(a.startswith("lay ") for a in st.actions) == 12


@settings(max_examples=150, deadline=None)
@given(setup=games, rnd=hs.randoms(use_true_random=False), cut=hs.integers(0, 70))
def test_json_round_trip_equals_and_continues_identically(setup, rnd, cut):
    """Saving to JSON and reading back gives an equal state, which then plays on identically."""
    game, st = new(setup)
    for _ in range(cut):
        if st.is_terminal:
            break
        step(st, rnd)
    text = st.to_json()
    back = game.state_from_json(text)
    assert back == st
    assert back.to_json() == text
    while not st.is_terminal:
        action = step(st, rnd)
        back.apply(action)
        assert back.to_json() == st.to_json()
    assert back.is_terminal and back.scores == st.scores and back.winners == st.winners


@settings(max_examples=100, deadline=None)
@given(setup=games, rnd=hs.randoms(use_true_random=False), cut=hs.integers(0, 60))
def test_clone_is_equal_and_independent(setup, rnd, cut):
    """A clone equals its original; playing on or changing either leaves the other untouched."""
    _, st = new(setup)
    for _ in range(cut):
        if st.is_terminal:
            break
        step(st, rnd)
    copy = st.clone()
    assert copy == st
    if st.is_terminal:
        return
    original = st.to_json()
    copy.pvars[0]["string"] -= 1
    copy.vars["round"] += 1
    step(copy, rnd)
    assert st.to_json() == original
    assert copy != st
    copy_text = copy.to_json()
    step(st, rnd)
    assert copy.to_json() == copy_text


@settings(max_examples=80, deadline=None)
@given(setup=games, rnd=hs.randoms(use_true_random=False))
def test_same_seed_and_actions_give_the_same_game(setup, rnd):
    """Replaying the same actions on a game with the same seed gives byte-identical states."""
    _, first = new(setup)
    snapshots = [first.to_json()]
    while not first.is_terminal:
        step(first, rnd)
        snapshots.append(first.to_json())
    _, again = new(setup)
    assert again.to_json() == snapshots[0]
    for action, snapshot in zip(first.actions, snapshots[1:]):
        again.apply(action)
        assert again.to_json() == snapshot


@settings(max_examples=80, deadline=None)
@given(setup=games, rnd=hs.randoms(use_true_random=False))
def test_views_keep_hands_and_token_values_secret(setup, rnd):
    """view(seat) never shows another seat's tiles, nor the values of others' won tokens or of the piles."""
    game, st = new(setup)
    while True:
        for seat in range(st.n):
            check_view(game, st, seat)
        if st.is_terminal:
            break
        step(st, rnd)


_REPLAY = """
import hashlib, random
from engine import load_game
st = load_game("caty-mini", variant={variant!r}).new_game(players={players}, seed={seed})
rnd = random.Random({seed})
while not st.is_terminal:
    st.apply(rnd.choice(st.legal_actions()))
print(hashlib.sha256(st.to_json().encode()).hexdigest())
"""


@pytest.mark.parametrize("players, variant", [(3, None), (4, "older-players")])
def test_same_game_in_another_process(players, variant):
    """Reproducible across processes too (another PYTHONHASHSEED must not change anything)."""
    code = _REPLAY.format(variant=variant, players=players, seed=4242)
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    here = {}
    exec(code.replace("print(", "here['digest'] = ("), {"here": here})
    assert out.stdout.strip() == here["digest"]
