"""What a seat may know, both ways, on a small game holding one secret of each kind.

tests/data/information/game.yaml: hands held face down (``owner``), a discard pile showing its top
card (``top``), a guess chosen ``secretly`` into a private player variable, and a draw pile nobody
sees.  At every step of seeded games, for every seat, each channel (view, visible log, history,
determinized copies) must show NO MORE than the seat may know — no other hand, no card under the
discard's top, no deck, no other seat's guess — and AT LEAST all it may know: its own hand and
guess, the discard's top card, everyone's points, every public line and its own secret choices.
"""

import re
from pathlib import Path

import pytest

from engine import load_game

FIXTURE = Path(__file__).parent / "data" / "information" / "game.yaml"
SEEDS = range(6)
COPIES = 3
GUESS = re.compile(r"seat (\d+): guess (\d)\Z")


@pytest.fixture(scope="module")
def game():
    return load_game(FIXTURE)


def positions(game, players: int):
    """Every position of seeded games, each played by taking the options in a seeded order."""
    for seed in SEEDS:
        state = game.new_game(players=players, seed=seed)
        yield state.clone()
        step = 0
        while not state.is_terminal:
            options = state.legal_actions()
            state.apply(options[(seed + step) % len(options)])
            step += 1
            yield state.clone()


def everyone(game, players: int):
    """(position, seat) for every seat at every position."""
    for state in positions(game, players):
        for seat in range(players):
            yield state, seat


def ids(state, zone: str) -> list[str]:
    return [state.game.card_ids[c] for c in state.zones[zone]]


def others(state, seat: int) -> list[int]:
    return [o for o in range(state.n) if o != seat]


PLAYERS = pytest.mark.parametrize("players", [2, 3])


# ---------------------------------------------------------------- no more
@PLAYERS
def test_a_view_shows_no_other_hand_no_card_under_the_top_and_no_deck(game, players):
    for state, seat in everyone(game, players):
        zones = state.view(seat)["zones"]
        for o in others(state, seat):
            assert zones[f"hand:{o}"] == [None] * len(state.zones[f"hand:{o}"])
        assert zones["deck"] == [None] * len(state.zones["deck"])
        assert zones["discard"][:-1] == [None] * (len(state.zones["discard"]) - 1)


@PLAYERS
def test_no_channel_tells_a_seat_another_seats_guess(game, players):
    guesses = 0
    for state, seat in everyone(game, players):
        view = state.view(seat)
        for o in others(state, seat):
            assert "guess" not in view["player_variables"][o]
        for line in state.visible_log(seat):
            told = GUESS.match(line)
            assert told is None or int(told.group(1)) == seat, f"seat {seat} reads {line!r}"
        for entry in state.history_for(seat):
            if entry.get("kind") == "guess" and entry["seat"] != seat:
                assert "action" not in entry
                guesses += 1
    assert guesses > 0


@PLAYERS
def test_a_copy_for_a_seat_holds_no_other_seats_guess(game, players):
    guessed = 0
    for state, seat in everyone(game, players):
        for k in range(COPIES):
            copy = state.determinized(seat, seed=k)
            for o in others(state, seat):
                guessed += state.pvars[o]["guess"] != 0
                assert copy.pvars[o]["guess"] == game.player_variables["guess"]
            assert all(GUESS.match(line) is None or line.startswith(f"seat {seat}:") for line in copy.log)
            assert copy.history == state.history_for(seat)
    assert guessed > 0, "no other seat ever guessed: the test would prove nothing"


@PLAYERS
def test_a_copy_deals_again_what_the_seat_cannot_see(game, players):
    """Other hands and the deck are re-dealt: copies differ from the game, and so the copy says nothing."""
    redealt = 0
    for state, seat in everyone(game, players):
        hidden = [z for z in state.zones if z == "deck" or (z.startswith("hand:") and z != f"hand:{seat}")]
        truth = {z: ids(state, z) for z in hidden}
        redealt += any({z: ids(state.determinized(seat, seed=k), z) for z in hidden} != truth for k in range(COPIES))
    assert redealt > 10


@PLAYERS
def test_a_seat_cannot_tell_the_game_from_its_copies(game, players):
    for state, seat in everyone(game, players):
        seen = (state.view(seat), state.visible_log(seat), state.history_for(seat), state.decision_for(seat))
        for k in range(COPIES):
            copy = state.determinized(seat, seed=k)
            assert (copy.view(seat), copy.visible_log(seat), copy.history_for(seat), copy.decision_for(seat)) == seen


# ---------------------------------------------------------------- at least
@PLAYERS
def test_a_view_shows_the_seats_hand_the_discards_top_and_every_score(game, players):
    for state, seat in everyone(game, players):
        view = state.view(seat)
        assert view["zones"][f"hand:{seat}"] == ids(state, f"hand:{seat}")
        assert view["zones"]["discard"][-1] == ids(state, "discard")[-1]
        assert view["player_variables"][seat]["guess"] == state.pvars[seat]["guess"]
        assert [pv["points"] for pv in view["player_variables"]] == [pv["points"] for pv in state.pvars]


@PLAYERS
def test_a_seat_reads_every_card_played_and_its_own_guesses(game, players):
    own = 0
    for state, seat in everyone(game, players):
        log = state.visible_log(seat)
        assert [line for line in state.log if " plays " in line] == [line for line in log if " plays " in line]
        for entry in state.history_for(seat):
            if entry.get("kind") == "guess" and entry["seat"] == seat:
                assert f"seat {seat}: {entry['action']}" in log
                own += 1
    assert own > 0


@PLAYERS
def test_a_copy_keeps_all_the_seat_may_know(game, players):
    for state, seat in everyone(game, players):
        for k in range(COPIES):
            copy = state.determinized(seat, seed=k)
            assert ids(copy, f"hand:{seat}") == ids(state, f"hand:{seat}")
            assert ids(copy, "discard")[-1] == ids(state, "discard")[-1]
            assert copy.pvars[seat] == state.pvars[seat]
            assert [pv["points"] for pv in copy.pvars] == [pv["points"] for pv in state.pvars]
            assert [len(cards) for cards in copy.zones.values()] == [len(cards) for cards in state.zones.values()]
            assert copy.visible_log(seat) == state.visible_log(seat)
            assert copy.history == state.history_for(seat)
            assert copy.legal_actions(seat) == state.legal_actions(seat)
