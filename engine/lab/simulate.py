"""Many games between bots, and the summary figures designers read."""

from __future__ import annotations

import math
import multiprocessing
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.bots import GreedyAgent, check_spec, make_agent
from engine.errors import TabletopError
from engine.runtime import rng
from engine.runtime.lower import native_game

DEFAULT_DECISION_LIMIT = 5_000
ENGINES = ("auto", "python", "vm")  # who plays the games: the VM when it can, Python, or the VM only
VM_BOTS = re.compile(r"random|greedy|mcts(:[0-9.]+s?(/[0-9]+)?)?")  # the bots the VM plays itself


def bot_inputs(state, seat: int, bot, salt: int = 0) -> tuple[dict, object]:
    """What a bot gets to decide with: its view (or just its options) and, if it asks, a determinized state."""
    view = state.view(seat) if bot.needs_view else {"decision": {"player": seat, "actions": state.legal_actions(seat)}}
    det = state.determinized(seat, seed=rng.derive(state.seed, "copy", seat, salt)) if bot.needs_state else None
    return view, det


def seated(kinds: Sequence[str], players: int, game_seed: int) -> list:
    """The bots of one game, one per seat, each seeded from the game's seed and its seat."""
    return [make_agent(kinds[s], seed=rng.derive(game_seed, "bot", s)) for s in range(players)]


def one_game(game, players: int, seed: int, kinds: Sequence[str]) -> dict:
    """One game as `simulate` plays it, told as the VM's playouts tell one: its decisions, whether it was cut
    off, and the scores, results and reason it ended with. A rule fault is raised."""
    state, decisions, cut = play_out(game, players, seed, seated(kinds, players, seed))
    out = {"decisions": decisions, "cut_off": cut, "error": None}
    if not cut:
        out.update(scores=state.scores, results=list(state.outcome.results), reason=state.outcome.reason)
    return out


def play_out(game, players: int, seed: int, bots: list, limit: int = DEFAULT_DECISION_LIMIT):
    """Play one game between ``bots`` (one per seat); returns (state, decisions taken, cut_off)."""
    # what seats know is followed only for bots that ask for copies (else worked out if ever asked)
    state = game.new_game(players=players, seed=seed, knowledge=any(b.needs_state for b in bots))
    decisions = 0
    while not state.is_terminal:  # asked of the state, not read from its fields: a state the VM runs answers itself
        if decisions >= limit:
            return state, decisions, True
        seat = state.current_player
        bot = bots[seat]
        if bot.needs_view or bot.needs_state:
            state.apply(bot.act(*bot_inputs(state, seat, bot, decisions)))
        else:  # what bot_inputs gives such a bot, made here: it is asked at every decision
            state.apply(bot.act({"decision": {"player": seat, "actions": state.legal_actions(seat)}}))
        decisions += 1
    return state, decisions, False


@dataclass
class _Tally:
    """What a run of games adds up to; runs in other processes are merged into one."""

    players: int
    wins: list = field(default_factory=list)
    totals: list = field(default_factory=list)
    lows: list = field(default_factory=list)
    highs: list = field(default_factory=list)
    games: int = 0
    finished: int = 0
    ties: int = 0
    draws: int = 0
    cut: int = 0
    errors: int = 0
    decisions: int = 0
    samples: list = field(default_factory=list)  # (seed, message) of the first errors
    reasons: dict = field(default_factory=dict)  # why games ended → how many

    def __post_init__(self):
        n = self.players
        self.wins, self.totals, self.lows, self.highs = [0] * n, [0] * n, [None] * n, [None] * n

    def play(self, game, players: int, kinds: list[str], limit: int, game_seed: int) -> None:
        agents = seated(kinds, players, game_seed)
        try:
            state, decisions, cut_off = play_out(game, players, game_seed, agents, limit)
        except TabletopError as exc:
            self.failed(game_seed, str(exc))
            return
        outcome = None if cut_off else state.outcome
        self.ended(game, decisions, None if outcome is None else (outcome.results, outcome.reason, state.scores))

    def played(self, game, result: dict) -> None:
        """A game the VM played (``VmGame.playouts``): the same game, for the same seed, as ``play``."""
        if result["error"] is not None:
            self.failed(result["seed"], result["error"])
        else:
            end = None if result["cut_off"] else (result["results"], result["reason"], result["scores"])
            self.ended(game, result["decisions"], end)

    def failed(self, game_seed: int, message: str) -> None:
        self.games += 1
        self.errors += 1
        self.samples.append((game_seed, message))
        del self.samples[5:]

    def ended(self, game, decisions: int, end: tuple[Sequence[str], str, list[int]] | None) -> None:
        """A game played to its end (``end``: each seat's result, the reason and the scores, as ``Outcome`` and
        ``State.scores`` give them) or cut off (None). It runs once a game, a VM's game of a few dozen
        microseconds among them: the locals are read once and no object is made."""
        self.games += 1
        self.decisions += decisions
        if end is None:
            self.cut += 1
            return
        self.finished += 1
        results, reason, scores = end
        reasons = self.reasons
        reasons[reason] = reasons.get(reason, 0) + 1
        winners = [seat for seat, result in enumerate(results) if result == "win"]
        if not winners and all(result == "draw" for result in results):
            self.draws += 1
        wins = self.wins
        for w in winners:
            wins[w] += 1
        if len(winners) > 1:
            players = self.players
            self.ties += len({game.team(players, w) for w in winners}) > 1
        totals, lows, highs = self.totals, self.lows, self.highs
        for seat, score in enumerate(scores):
            totals[seat] += score
            low, high = lows[seat], highs[seat]
            if low is None or score < low:
                lows[seat] = score
            if high is None or score > high:
                highs[seat] = score

    def add(self, other: _Tally) -> None:
        for name in ("games", "finished", "ties", "draws", "cut", "errors", "decisions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for reason, count in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + count
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.totals = [a + b for a, b in zip(self.totals, other.totals)]
        self.lows = [b if a is None else a if b is None else min(a, b) for a, b in zip(self.lows, other.lows)]
        self.highs = [b if a is None else a if b is None else max(a, b) for a, b in zip(self.highs, other.highs)]
        self.samples = sorted(self.samples + other.samples)[:5]


_JOB: tuple = ()  # (game, players, kinds, limit, VM game or None) for the forked workers of one simulate call


def _play_seeds(seeds: range) -> _Tally:
    game, players, kinds, limit, vm = _JOB
    tally = _Tally(players)
    if vm is not None:  # the whole range in one call
        for result in vm.playouts(players, list(seeds), kinds, limit, GreedyAgent.explore):
            tally.played(game, result)
    else:
        for game_seed in seeds:
            tally.play(game, players, kinds, limit, game_seed)
    return tally


def vm_for(game, kinds: list[str], seeds: range, engine: str = "auto"):
    """The VM game to play ``game`` between bots of ``kinds`` on, or None to play it in Python.

    ``auto`` takes the VM when the game lowers, it plays every bot and the seeds fit in 64 bits; ``vm``
    insists (a one-line error says why it cannot); ``python`` never takes it."""
    if engine not in ENGINES:
        raise TabletopError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if engine == "python":
        return None
    others = sorted({k for k in kinds if not VM_BOTS.fullmatch(k)})
    vm, why = native_game(game)
    if others:
        why = f"the VM does not play bot {others[0]!r}"
    elif not seeds or seeds[0] < -(2**63) or seeds[-1] >= 2**64:
        why = "a seed is over 64 bits"
    else:
        return vm if vm is not None else _refuse(engine, game, why)
    return _refuse(engine, game, why)


def _refuse(engine: str, game, why: str) -> None:
    """None (Python plays), unless the VM was insisted on: then why it cannot, in one line."""
    if engine == "vm":
        raise TabletopError(f"{game.id} cannot be simulated on the VM: {why}")
    return None


def simulate(
    game,
    players: int,
    games: int,
    seed: int = 0,
    bots: str | list[str] = "random",
    limit: int = DEFAULT_DECISION_LIMIT,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    engine: str = "auto",
) -> dict:
    """Run ``games`` games (seeds ``seed`` on); the summary has the keys promised in DESIGN.md §10.

    Win rates count wins only: a drawn game is in ``draws`` and in no seat's wins.

    With ``jobs`` > 1 the games are shared among that many processes; game ``seed + i`` is the same
    game either way, so the summary is too (but for the time taken).  ``engine`` picks who plays them
    (``vm_for``): the native VM plays the same games as Python for the same seeds, faster.
    """
    global _JOB
    kinds = [bots] * players if isinstance(bots, str) else list(bots)
    for kind in set(kinds):
        check_spec(kind, game)
    vm = vm_for(game, kinds, range(seed, seed + games), engine)
    tally = _Tally(players)
    start = time.perf_counter()
    chunk = max(1, min(50, games // (4 * jobs) or 1))
    parts = [range(first, min(first + chunk, seed + games)) for first in range(seed, seed + games, chunk)]
    _JOB = (game, players, kinds, limit, vm)
    try:
        if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            # Forked workers inherit the compiled game: nothing is pickled or loaded again.
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for part in pool.imap_unordered(_play_seeds, parts):
                    tally.add(part)
                    if progress is not None:
                        progress(tally.games)
        else:
            for seeds in parts:
                tally.add(_play_seeds(seeds))
                if progress is not None:
                    progress(tally.games)
    finally:
        _JOB = ()
    elapsed = time.perf_counter() - start
    played = max(1, games - tally.errors)
    finished = tally.finished
    return {
        "game": game.id,
        "variant": game.variant,
        "players": players,
        "games": games,
        "finished": finished,
        "seed": seed,
        "bots": kinds,
        "wins": tally.wins,
        "ties": tally.ties,
        "draws": tally.draws,
        "end_reasons": dict(sorted(tally.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "win_rate_95": [wilson_interval(w, finished) for w in tally.wins],
        "scores": {
            "mean": [round(t / max(1, finished), 3) for t in tally.totals],
            "min": tally.lows,
            "max": tally.highs,
        },
        "decisions_per_game": round(tally.decisions / played, 2),
        "cut_off": tally.cut,
        "errors": tally.errors,
        "error_samples": [f"seed {s}: {message}" for s, message in tally.samples],
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
        "seconds": round(elapsed, 3),
        "jobs": jobs,
        "engine": "vm" if vm is not None else "python",
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
