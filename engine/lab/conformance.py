"""The invariants every game and variant must keep, checked along seeded playouts.

One check for all games (the same spirit as PettingZoo's api_test): cards
conserved, a legal action exactly when the game is not over, every view
printable as JSON, JSON round trip and clone equal to the original at random
points, and the same seed and actions giving the same game.  Used by the test
suite and by ``tools/soak.py``; a failure names the game, players and seed so
that it can be replayed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from engine.errors import TabletopError


class ConformanceError(AssertionError):
    """An invariant broke; the message says which, where and how to replay it."""


@dataclass(frozen=True)
class Playout:
    decisions: int
    finished: bool
    winners: tuple[int, ...]


def _fail(game, players: int, seed: int, step: int, what: str) -> None:
    variant = f" --variant {game.variant}" if game.variant else ""
    raise ConformanceError(
        f"{game.id}{variant}, {players} players, seed {seed}, after {step} actions: {what} "
        f"(replay: random moves from random.Random({seed}))"
    )


def check_cards(game, state) -> str | None:
    """None if every card is in exactly one zone and the location table agrees."""
    seen = [0] * len(game.card_ids)
    for zone, cards in state.zones.items():
        for c in cards:
            seen[c] += 1
            if state.loc[c] != zone:
                return f"card {c} ({game.card_ids[c]}) is in {zone} but recorded in {state.loc[c]}"
    lost = [game.card_ids[c] for c, k in enumerate(seen) if k != 1]
    return f"cards lost or doubled: {lost[:5]}" if lost else None


def playout(game, players: int, seed: int, *, limit: int = 5000, deep_every: int = 7) -> Playout:
    """One random game with every invariant checked; raises ConformanceError."""
    state = game.new_game(players=players, seed=seed)
    moves = random.Random(seed)
    checks = random.Random(seed ^ 0x5EED)
    step = 0
    while True:
        problem = check_cards(game, state)
        if problem:
            _fail(game, players, seed, step, problem)
        legal = state.legal_actions()
        if state.is_terminal != (not legal):
            _fail(game, players, seed, step, "a legal action must exist exactly when the game is not over")
        if state.is_terminal or step >= limit:
            break
        if checks.randrange(deep_every) == 0:
            _deep_checks(game, state, players, seed, step)
        state.apply(moves.choice(legal))
        step += 1
    _deep_checks(game, state, players, seed, step)
    again = game.new_game(players=players, seed=seed)
    for action in state.actions:
        again.apply(action)
    if again.to_json() != state.to_json():
        _fail(game, players, seed, step, "the same seed and actions gave a different game")
    outcome = state.outcome
    if outcome is not None and not (outcome.winners or outcome.is_draw or outcome.house):  # all may lose to a house
        _fail(game, players, seed, step, "the game ended with neither a winner nor a draw")
    if outcome is not None and not outcome.house and abs(sum(outcome.returns())) > 1e-9:
        _fail(game, players, seed, step, "the returns of a finished game do not sum to zero")
    return Playout(step, state.is_terminal, tuple(state.winners))


def check_state(game, state) -> str | None:
    """None if ``state`` keeps the invariants of any state, else what broke.

    Cards conserved, a legal action exactly when not over, the JSON round trip
    and a clone equal to the original, every seat's view plain data.
    """
    problem = check_cards(game, state)
    if problem:
        return problem
    if state.is_terminal != (not state.legal_actions()):
        return "a legal action must exist exactly when the game is not over"
    text = state.to_json()
    try:
        back = game.state_from_json(text)
    except TabletopError as exc:
        return f"its own JSON was refused: {exc}"
    if back != state or back.to_json() != text:
        return "the JSON round trip changed the state"
    if state.clone() != state:
        return "a clone differs from its original"
    for seat in range(state.n):
        try:
            json.dumps(state.view(seat))
        except (TypeError, ValueError) as exc:
            return f"the view of seat {seat} is not plain data: {exc}"
    return None


def _deep_checks(game, state, players: int, seed: int, step: int) -> None:
    problem = check_state(game, state)
    if problem:
        _fail(game, players, seed, step, problem)
    if not state.is_terminal:
        text = state.to_json()
        copy = state.clone()
        copy.apply(copy.legal_actions()[0])
        if state.to_json() != text:
            _fail(game, players, seed, step, "playing on a clone changed the original")
        for seat in state.to_act:  # a copy shares the values it did not relabel: none may change in place
            copy = state.determinized(seat, seed + step)
            copy.apply(copy.legal_actions(seat)[0], seat=seat)
            if state.to_json() != text:
                _fail(game, players, seed, step, f"playing on a copy dealt for seat {seat} changed the original")
