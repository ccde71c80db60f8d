"""Many games between bots, and the summary figures designers read."""
from __future__ import annotations

import math
import time
from typing import Callable

from .agents import make_agent
from .errors import TabletopError

DEFAULT_DECISION_LIMIT = 5_000


def bot_inputs(state, seat: int, bot, salt: int = 0) -> tuple[dict, object]:
    """What a bot gets to decide with: its view (or just its options) and, if it asks, a determinized state."""
    view = state.view(seat) if bot.needs_view else {"decision": {"player": seat, "actions": state.legal_actions()}}
    det = state.determinized(seat, seed=state.seed * 7919 + salt) if bot.needs_state else None
    return view, det


def play_out(game, players: int, seed: int, bots: list, limit: int = DEFAULT_DECISION_LIMIT):
    """Play one game between ``bots`` (one per seat); returns (state, cut_off)."""
    state = game.new_game(players=players, seed=seed)
    decisions = 0
    while not state.is_terminal:
        if decisions >= limit:
            return state, True
        seat = state.current_player
        bot = bots[seat]
        state.apply(bot.act(*bot_inputs(state, seat, bot, decisions)))
        decisions += 1
    return state, False


def simulate(game, players: int, games: int, seed: int = 0, bots: str | list[str] = "random",
             limit: int = DEFAULT_DECISION_LIMIT, progress: Callable[[int], None] | None = None) -> dict:
    """Run ``games`` games; the summary has the keys promised in DESIGN.md §10."""
    kinds = [bots] * players if isinstance(bots, str) else list(bots)
    wins = [0] * players
    totals, lows, highs = [0] * players, [None] * players, [None] * players
    ties = cut = errors = decisions = finished = 0
    samples: list[str] = []
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        agents = [make_agent(kinds[s], seed=game_seed * 131 + s) for s in range(players)]
        try:
            state, cut_off = play_out(game, players, game_seed, agents, limit)
        except TabletopError as exc:
            errors += 1
            if len(samples) < 5:
                samples.append(f"seed {game_seed}: {exc}")
            continue
        decisions += len(state.history)
        if cut_off:
            cut += 1
        else:
            finished += 1
            winners = state.winners
            for w in winners:
                wins[w] += 1
            ties += len(winners) > 1 and len({tuple(game.team_of(players, w)) for w in winners}) > 1
            for s, score in enumerate(state.scores):
                totals[s] += score
                lows[s] = score if lows[s] is None else min(lows[s], score)
                highs[s] = score if highs[s] is None else max(highs[s], score)
        if progress is not None:
            progress(i + 1)
    elapsed = time.perf_counter() - start
    played = max(1, games - errors)
    return {
        "game": game.id, "variant": game.variant, "players": players, "games": games, "finished": finished, "seed": seed,
        "bots": kinds, "wins": wins, "ties": ties,
        "win_rate_95": [wilson_interval(w, finished) for w in wins],
        "scores": {"mean": [round(t / max(1, finished), 3) for t in totals], "min": lows, "max": highs},
        "decisions_per_game": round(decisions / played, 2), "cut_off": cut, "errors": errors,
        "error_samples": samples, "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
        "seconds": round(elapsed, 3),
    }


def wilson_interval(wins: int, games: int, z: float = 1.96) -> list[float] | None:
    """95% interval of a seat's true win rate from ``wins`` in ``games`` (Wilson score interval).

    Designers compare seats: is seat 0's 36% against seat 2's 30% a real edge or noise?
    The Wilson interval stays sensible near 0% and 100% and for few games, unlike p ± 1.96·se.
    """
    if games == 0:
        return None
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]
