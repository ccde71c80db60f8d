"""One arm's games: the arms a playtest measures, and one game played and kept as plain data.

Both a local run and a Ray worker play games through ``play_batch``: on the native VM when the game
lowers (``VmGame.records``, a whole batch in one call), else ``record_game`` in Python — the same record
for the same seed either way, on every backend.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.bots import GreedyAgent
from engine.errors import TabletopError, did_you_mean
from engine.lab.simulate import DEFAULT_DECISION_LIMIT, bot_inputs, seated

PROGRESS_BINS = 10  # branching factor is averaged over tenths of a game
_START = object()  # the turn before the first: unlike any turn
Batch = list[tuple[int, int, list[str]]]  # games of one arm to play in one go: (task index, seed, bots per seat)


class PlaytestError(TabletopError):
    """Bad arms or settings for a playtest."""


# ---------------------------------------------------------------- arms
@dataclass(frozen=True)
class Arm:
    """One set of rules to measure: a variant (None: the base), settings by dotted path, and cards left
    out (every copy of each)."""

    variant: str | None = None
    settings: tuple[tuple[str, object], ...] = ()
    without: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        parts = [self.variant or "base"] if self.variant or not (self.settings or self.without) else []
        parts += [f"{path.rsplit('.', 1)[-1]}={value}" for path, value in self.settings]
        return " ".join(parts + ([f"without {', '.join(self.without)}"] if self.without else []))


def parse_set(text: str) -> tuple[str, list]:
    """``NAME=VALUES`` → (path, values).  VALUES: ``900..1600/100`` (a range, ends included), ``a,b,c`` or one."""
    name, sep, values = text.partition("=")
    if not sep or not name or not values:
        raise PlaytestError(f"--set expects NAME=VALUES (e.g. constants.length=900..1600/100), got '{text}'")
    if ".." in values:
        low, _, rest = values.partition("..")
        high, _, step = rest.partition("/")
        try:
            a, b, s = int(low), int(high), int(step or 1)
        except ValueError:
            raise PlaytestError(f"--set {name}: a range is LOW..HIGH[/STEP] in whole numbers, got '{values}'") from None
        if s <= 0 or b < a or (b - a) // s > 1000:
            raise PlaytestError(f"--set {name}: '{values}' is no range of 1 to 1,000 values")
        return name, list(range(a, b + 1, s))
    return name, [_scalar(v) for v in values.split(",")]


def _scalar(text: str) -> object:
    """A setting's value as YAML would read it: a whole number, a decimal, true/false, or text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def arms_of(variants: list[str | None], sets: list[tuple[str, list]]) -> list[Arm]:
    """Every combination of a variant and one value per setting."""
    names = [name for name, _ in sets]
    return [
        Arm(v, tuple(zip(names, combo)))
        for v in (variants or [None])
        for combo in itertools.product(*[values for _, values in sets])
    ]


def load_arm(game: str, arm: Arm):
    from engine.runtime.gamedef import load_game

    settings = dict(arm.settings)
    if arm.without:
        settings.update(_leaving_out(load_game(game, arm.variant, settings), arm.without))
    return load_game(game, arm.variant, settings)


def _leaving_out(game, cards: tuple[str, ...]) -> dict[str, list]:
    """The settings that take ``cards`` out of ``game``'s rules: each component's items without them."""
    items: dict[str, list] = {}
    for card in cards:
        if card not in game.card_texts:
            hint = did_you_mean(card, game.card_texts)
            raise PlaytestError(f"--without {card}: {game.id} has no card '{card}'" + (f" ({hint})" if hint else ""))
        kind = game.card_texts[card]["kind"]
        comp = next(c for c in game.rules.data["components"] if c["kind"] == kind)
        path = f"components.{kind}.items"
        if not any(item.get("id") == card for item in comp.get("items") or []):
            raise PlaytestError(f"--without {card}: '{card}' is made by 'generate:', so it cannot be left out alone")
        items[path] = [item for item in items.get(path, comp["items"]) if item.get("id") != card]
    return items


# ---------------------------------------------------------------- one game
def record_game(game, players: int, seed: int, specs: list[str], limit: int = DEFAULT_DECISION_LIMIT) -> dict:
    """Play one game and keep, as plain data, all the metrics need."""
    agents = seated(specs, players, seed)
    rec: dict = {
        "seed": seed,
        "bots": list(specs),
        "error": None,
        "cut_off": False,
        "decisions": 0,
        "turns": 0,
        "rounds": 0,
        "branching": [0] * PROGRESS_BINS,
        "branch_counts": [0] * PROGRESS_BINS,
        "choices": [],
        "trace": [],
    }
    cards = set(game.card_ids)
    try:
        state = game.new_game(players=players, seed=seed)
        last: object = _START
        in_round: set[int] = set()
        legal_counts: list[int] = []
        while not state.is_terminal:
            if rec["decisions"] >= limit:
                rec["cut_off"] = True
                break
            seat = state.current_player
            mark = _turn_mark(game, state, seat)
            if mark != last:
                rec["turns"] += 1
                if seat in in_round or not in_round:
                    rec["rounds"] += 1
                    in_round = set()
                in_round.add(seat)
                rec["trace"].append(_team_scores(state))
                last = mark
            ids = state.pending["ids"]
            legal_counts.append(len(ids))
            bot = agents[seat]
            action = bot.act(*bot_inputs(state, seat, bot, rec["decisions"]))
            offered = sorted({w for a in ids for w in a.split() if w in cards})
            rec["choices"].append([seat, action, offered, state.pending["kind"]])
            state.apply(action)
            rec["decisions"] += 1
        if not rec["cut_off"]:
            outcome = state.outcome
            rec.update(
                results=list(outcome.results),
                reason=outcome.reason,
                scores=state.scores,
                final=_team_scores(state),
                stats=_stats(game, state),
            )
        rec["branching"], rec["branch_counts"] = _branching(legal_counts)  # a game that faulted counts none
    except TabletopError as exc:
        rec["error"] = str(exc)
    return rec


def _branching(legal_counts: list[int]) -> tuple[list[int], list[int]]:
    """The options offered and the decisions taken in each tenth of a game, from the options at each decision."""
    offered, taken = [0] * PROGRESS_BINS, [0] * PROGRESS_BINS
    for i, n in enumerate(legal_counts):
        b = i * PROGRESS_BINS // len(legal_counts)
        offered[b] += n
        taken[b] += 1
    return offered, taken


def play_batch(game, vm, players: int, batch: Batch, limit: int, finished: Callable[[int, dict, float], None]) -> None:
    """Play ``batch``, calling ``finished(task index, record, seconds it took)`` as each game ends (the seconds
    are the work a progress estimate weighs): all in one call on the VM game ``vm`` (see ``simulate.vm_for``),
    else one ``record_game`` after the other."""
    if vm is None:
        for index, seed, specs in batch:
            start = time.perf_counter()
            rec = record_game(game, players, seed, specs, limit)
            finished(index, rec, time.perf_counter() - start)
        return
    indices = iter([index for index, _, _ in batch])
    start = time.perf_counter()

    def done(rec: dict) -> None:
        nonlocal start
        seconds = time.perf_counter() - start
        legal = rec.pop("legal")
        rec["branching"], rec["branch_counts"] = _branching(legal if rec["error"] is None else [])
        finished(next(indices), rec, seconds)
        start = time.perf_counter()

    vm.records(players, [(seed, specs) for _, seed, specs in batch], done, limit, GreedyAgent.explore)


def played(game, vm, players: int, batch: Batch, limit: int) -> list[tuple[int, dict, float]]:
    """``play_batch`` in a worker: its (task index, record, seconds) in a list for the parent."""
    out: list[tuple[int, dict, float]] = []
    play_batch(game, vm, players, batch, limit, lambda *game_played: out.append(game_played))
    return out


def _turn_mark(game, state, seat: int) -> object:
    """What changes when a new turn begins: the value of the game's ``turn:`` (whose turn it is, so that
    others' reactions do not split it), else the deciding seat."""
    if game.turn is None:
        return seat
    return game.turn(state, {"me": seat})


def _team_scores(state) -> list[int]:
    """Each seat's side's points (a team's sum; a seat alone its own)."""
    scores = state.scores
    return [sum(scores[m] for m in state.game.team_of(state.n, p)) for p in range(state.n)]


def _stats(game, state) -> dict:
    values: dict[str, object] = {}
    for stat in game.stats:
        if stat.per_seat:
            values[stat.id] = [_number(stat.fn(state, {"p": p, "me": p})) for p in range(state.n)]
        else:
            values[stat.id] = _number(stat.fn(state, {"me": 0}))
    return values


def _number(value) -> int | float:
    return int(value) if isinstance(value, bool) else value
