"""Playtest lab: many bot games per arm (a variant and/or rule settings), recorded and measured.

Every arm plays the same seeds (common random numbers), so a difference between arms is the
rules' doing, not the dice's.  A game is recorded as plain data (``record_game``) by whichever
backend runs it — this process, forked processes, or Ray workers — and the figures are computed
from the records in seed order, so every backend gives the same figures for the same seeds.
Each metric's definition is in ``METRICS`` (the report and ``--json`` carry it).
"""

from __future__ import annotations

import itertools
import math
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from . import rng
from .bots import make_agent
from .errors import TabletopError
from .simulate import DEFAULT_DECISION_LIMIT, bot_inputs, wilson_interval

RANDOM = "random"
DURATIONS = ("decisions", "turns", "rounds")
PROGRESS_BINS = 10  # branching factor is averaged over tenths of a game

# name → (Ludii's name where it has one, definition and formula)
METRICS: dict[str, tuple[str, str]] = {
    "win_rate": (
        "",
        (
            "wins of the seat / finished games; a shared win counts for each winner, a draw for none; 95% "
            "Wilson score interval"
        ),
    ),
    "balance": ("Balance", "1 − (highest − lowest win rate over the seats); 1 is perfectly balanced"),
    "first_seat_advantage": ("Advantage", "win rate of seat 0 − mean win rate of all seats"),
    "draw_rate": ("Drawishness", "drawn games / finished games"),
    "completion_rate": ("Completion", "games that reached an end by the rules / games played"),
    "cut_off": ("Timeouts", "games stopped by the decision limit (no result)"),
    "end_reasons": ("", "finished games by the reason the rules gave for the end"),
    "decisions": ("Duration Actions", "decisions taken in a game (every choice of any seat)"),
    "turns": ("Duration Turns", "turns in a game: a turn is a run of consecutive decisions by one seat"),
    "rounds": ("", "rounds in a game: a round ends just before a seat starts its second turn in it"),
    "scores": ("", "each seat's points at the end, by the rules' scoring"),
    "margin": ("", "points of the winning side − the best other side's points, games with winners only"),
    "lead_changes": ("Lead Change", "times the sole leader (most points at the start of a turn) changes in a game"),
    "drama": ("Drama", "mean over the turns of (leader's points − eventual winner's points)"),
    "decisiveness": (
        "Decisiveness Turns",
        (
            "share of the turns played before the eventual winner was, for the "
            "rest of the game, never behind on points (0: from the start)"
        ),
    ),
    "branching": ("Branching Factor", "legal options per decision, mean over all decisions; also by tenth of a game"),
    "actions": ("", "per action id: times chosen, and the chooser's win rate in the games it chose it"),
    "cards": (
        "",
        ("per card named by an action: times offered and chosen, win rate when chosen; cards offered but never chosen"),
    ),
    "skill": (
        "Skill Trace (simplified)",
        (
            "win rate of the thinking bot in each seat against random bots; chance "
            "is 1 / players: near chance means luck decides"
        ),
    ),
    "stats": (
        "",
        (
            "the rules' own counters (stats:), evaluated at the end of each finished game: yes/no as the "
            "share of games, numbers as mean and range"
        ),
    ),
}


class PlaytestError(TabletopError):
    """Bad arms or settings for a playtest."""


# ---------------------------------------------------------------- arms
@dataclass(frozen=True)
class Arm:
    """One set of rules to measure: a variant (None: the base) and settings by dotted path."""

    variant: str | None = None
    settings: tuple[tuple[str, object], ...] = ()

    @property
    def label(self) -> str:
        parts = [self.variant or "base"] if self.variant or not self.settings else []
        return " ".join(parts + [f"{path.rsplit('.', 1)[-1]}={value}" for path, value in self.settings])


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
    from .gamedef import load_game

    return load_game(game, arm.variant, dict(arm.settings))


# ---------------------------------------------------------------- one game
def record_game(game, players: int, seed: int, specs: list[str], limit: int = DEFAULT_DECISION_LIMIT) -> dict:
    """Play one game and keep, as plain data, all the metrics need."""
    agents = [make_agent(specs[s], seed=rng.derive(seed, "bot", s)) for s in range(players)]
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
        last: int | None = None
        in_round: set[int] = set()
        legal_counts: list[int] = []
        while not state.is_terminal:
            if rec["decisions"] >= limit:
                rec["cut_off"] = True
                break
            seat = state.current_player
            if seat != last:
                rec["turns"] += 1
                if seat in in_round or not in_round:
                    rec["rounds"] += 1
                    in_round = set()
                in_round.add(seat)
                rec["trace"].append(_team_scores(state))
                last = seat
            ids = state.pending["ids"]
            legal_counts.append(len(ids))
            bot = agents[seat]
            action = bot.act(*bot_inputs(state, seat, bot, rec["decisions"]))
            offered = sorted({w for a in ids for w in a.split() if w in cards})
            rec["choices"].append([seat, action, offered])
            state.apply(action)
            rec["decisions"] += 1
        for i, n in enumerate(legal_counts):
            b = i * PROGRESS_BINS // len(legal_counts)
            rec["branching"][b] += n
            rec["branch_counts"][b] += 1
        if not rec["cut_off"]:
            outcome = state.outcome
            rec.update(
                results=list(outcome.results),
                reason=outcome.reason,
                scores=state.scores,
                final=_team_scores(state),
                stats=_stats(game, state),
            )
    except TabletopError as exc:
        rec["error"] = str(exc)
    return rec


def _team_scores(state) -> list[int]:
    """Each seat's side's points (a team's sum; a seat alone its own)."""
    scores = state.scores
    return [sum(scores[m] for m in state.game.team_of(state.n, p)) for p in range(state.n)]


def _stats(game, state) -> dict:
    values: dict[str, object] = {}
    for stat in game.stats:
        state.memo.clear()
        if stat.per_seat:
            values[stat.id] = [_number(stat.fn(state, {"p": p, "me": p})) for p in range(state.n)]
        else:
            values[stat.id] = _number(stat.fn(state, {"me": 0}))
    return values


def _number(value) -> int | float:
    return int(value) if isinstance(value, bool) else value


# ---------------------------------------------------------------- running
@dataclass
class Plan:
    """What to play: arms × seeds with the main bots, and seats × seeds with one thinking bot."""

    game: str
    arms: list[Arm]
    players: int
    games: int
    seed: int
    bots: list[str]
    limit: int = DEFAULT_DECISION_LIMIT
    skill_bot: str | None = None
    skill_games: int = 0

    def tasks(self) -> list[tuple[int, str, int, list[str]]]:
        """(arm index, role, seed, bots per seat); role "main" or "skill:SEAT"."""
        out = [(a, "main", self.seed + i, self.bots) for a in range(len(self.arms)) for i in range(self.games)]
        if self.skill_bot:
            for a in range(len(self.arms)):
                for seat in range(self.players):
                    specs = [RANDOM] * self.players
                    specs[seat] = self.skill_bot
                    out += [(a, f"skill:{seat}", self.seed + i, specs) for i in range(self.skill_games)]
        return out


@dataclass
class RunInfo:
    backend: str
    workers: int
    seconds: float = 0.0
    host: str = field(default_factory=platform.node)
    cpus: int = field(default_factory=lambda: os.cpu_count() or 1)
    address: str | None = None

    def to_data(self, games: int) -> dict:
        return {
            "backend": self.backend,
            "workers": self.workers,
            "host": self.host,
            "cpus": self.cpus,
            "address": self.address,
            "seconds": round(self.seconds, 2),
            "games": games,
            "games_per_second": round(games / self.seconds, 2) if self.seconds > 0 else None,
            "python": platform.python_version(),
        }


_FORKED: tuple = ()  # (plan, compiled games per arm) for forked workers


def _run_forked(index_task: tuple) -> tuple[int, dict]:
    plan, games = _FORKED
    index, (arm, _, seed, specs) = index_task
    return index, record_game(games[arm], plan.players, seed, specs, plan.limit)


def run(
    plan: Plan,
    games: list,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[dict], RunInfo]:
    """Play every task of ``plan``; records in task order, and where and how fast they ran."""
    global _FORKED
    tasks = plan.tasks()
    records: list = [None] * len(tasks)
    info = RunInfo(backend, jobs if backend == "local" else 0, address=address)
    start = time.perf_counter()
    done = 0

    def finished(index: int, rec: dict) -> None:
        nonlocal done
        records[index] = rec
        done += 1
        if progress is not None:
            progress(done, len(tasks))

    if backend == "ray":
        from .ray_backend import run_on_ray

        info.workers = run_on_ray(plan, tasks, address, finished)
    elif jobs > 1:
        import multiprocessing

        _FORKED = (plan, games)
        try:  # forked workers inherit the compiled games: nothing is pickled or loaded again
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for index, rec in pool.imap_unordered(_run_forked, enumerate(tasks), chunksize=1):
                    finished(index, rec)
        finally:
            _FORKED = ()
    else:
        for index, (arm, _, seed, specs) in enumerate(tasks):
            finished(index, record_game(games[arm], plan.players, seed, specs, plan.limit))
    info.seconds = time.perf_counter() - start
    return records, info


# ---------------------------------------------------------------- metrics
def measure(plan: Plan, games: list, records: list[dict], info: RunInfo) -> dict:
    """The figures of a run, per arm, as plain data (what ``--json`` prints and the report draws)."""
    tasks = plan.tasks()
    arms = []
    for a, arm in enumerate(plan.arms):
        main = [r for (i, role, _, _), r in zip(tasks, records) if i == a and role == "main"]
        entry = {
            "label": arm.label,
            "variant": arm.variant,
            "settings": dict(arm.settings),
            **_arm_metrics(games[a], plan.players, main),
        }
        if plan.skill_bot:
            entry["skill"] = _skill(plan, [(role, r) for (i, role, _, _), r in zip(tasks, records) if i == a])
        arms.append(entry)
    return {
        "game": plan.game,
        "name": games[0].name,
        "players": plan.players,
        "games": plan.games,
        "seed": plan.seed,
        "bots": plan.bots,
        "limit": plan.limit,
        "skill_bot": plan.skill_bot,
        "skill_games": plan.skill_games,
        "arms": arms,
        "run": info.to_data(len(records)),
        "sweep": _sweep_axis(plan.arms),
        "definitions": {k: {"ludii": v[0], "definition": v[1]} for k, v in METRICS.items()},
    }


def _arm_metrics(game, players: int, recs: list[dict]) -> dict:
    done = [r for r in recs if r["error"] is None and not r["cut_off"]]
    n = len(done)
    wins = [sum(r["results"][s] == "win" for r in done) for s in range(players)]
    rates = [w / n if n else None for w in wins]
    draws = sum(all(x == "draw" for x in r["results"]) for r in done)
    reasons: dict[str, int] = {}
    for r in done:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    known = [x for x in rates if x is not None]
    return {
        "outcomes": {
            "played": len(recs),
            "finished": n,
            "errors": sum(r["error"] is not None for r in recs),
            "error_samples": [f"seed {r['seed']}: {r['error']}" for r in recs if r["error"]][:5],
            "cut_off": sum(r["cut_off"] for r in recs),
            "completion_rate": _ratio(n, len(recs)),
            "wins": wins,
            "win_rate": [_round(x) for x in rates],
            "win_rate_95": [wilson_interval(w, n) for w in wins],
            "balance": _round(1 - (max(known) - min(known))) if known else None,
            "first_seat_advantage": _round(rates[0] - sum(known) / len(known)) if known else None,
            "draws": draws,
            "draw_rate": _ratio(draws, n),
            "end_reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        },
        "duration": {
            **{k: _summary([r[k] for r in recs if r["error"] is None]) for k in DURATIONS},
            "values": {k: [r[k] for r in recs if r["error"] is None] for k in DURATIONS},
        },
        "scores": _scores(players, done),
        "choice": _choice(game, players, [r for r in recs if r["error"] is None]),
        "stats": _stat_figures(game, done),
    }


def _scores(players: int, done: list[dict]) -> dict:
    margins, changes, drama, decisive = [], [], [], []
    for r in done:
        winners = [s for s, x in enumerate(r["results"]) if x == "win"]
        trace = r["trace"] + [r["final"]]
        if winners:
            best = r["final"][winners[0]]
            others = [v for s, v in enumerate(r["final"]) if s not in winners]
            margins.append(best - max(others) if others else 0)
            w = winners[0]
            drama.append(statistics.fmean(max(t) - t[w] for t in trace))
            behind = [i for i, t in enumerate(trace) if t[w] < max(t)]
            decisive.append((behind[-1] + 1) / len(trace) if behind else 0.0)
        leaders = [t.index(max(t)) for t in trace if t.count(max(t)) == 1]
        changes.append(sum(a != b for a, b in itertools.pairwise(leaders)))
    return {
        "per_seat": [_summary([r["scores"][s] for r in done]) for s in range(players)],
        "values": [[r["scores"][s] for r in done] for s in range(players)],
        "margin": _summary(margins),
        "margins": margins,
        "lead_changes": _summary(changes),
        "drama": _round(statistics.fmean(drama)) if drama else None,
        "decisiveness": _round(statistics.fmean(decisive)) if decisive else None,
    }


def _choice(game, players: int, recs: list[dict]) -> dict:
    totals, counts = [0] * PROGRESS_BINS, [0] * PROGRESS_BINS
    actions: dict[str, list] = {}  # id → [times chosen, seat-games used, of them won]
    cards: dict[str, list] = {}  # id → [offered, chosen, seat-games chosen, of them won]
    for r in recs:
        totals = [a + b for a, b in zip(totals, r["branching"])]
        counts = [a + b for a, b in zip(counts, r["branch_counts"])]
        won = [x == "win" for x in r.get("results", [False] * players)] if not r["cut_off"] else [False] * players
        used: set[tuple[int, str]] = set()
        chosen_cards: set[tuple[int, str]] = set()
        for seat, action, offered in r["choices"]:
            actions.setdefault(action, [0, 0, 0])[0] += 1
            used.add((seat, action))
            words = set(action.split())
            for c in offered:
                entry = cards.setdefault(c, [0, 0, 0, 0])
                entry[0] += 1
                if c in words:
                    entry[1] += 1
                    chosen_cards.add((seat, c))
        for seat, action in used:
            actions[action][1] += 1
            actions[action][2] += won[seat]
        for seat, c in chosen_cards:
            cards[c][2] += 1
            cards[c][3] += won[seat]
    rows = sorted(actions.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return {
        "branching": _ratio(sum(totals), sum(counts), 2),
        "branching_by_progress": [_ratio(t, c, 2) for t, c in zip(totals, counts)],
        "actions": [
            {"action": a, "chosen": v[0], "games": v[1], "win_rate_when_used": _ratio(v[2], v[1])} for a, v in rows
        ],
        "cards": [
            {"card": c, "offered": v[0], "chosen": v[1], "win_rate_when_chosen": _ratio(v[3], v[2])}
            for c, v in sorted(cards.items(), key=lambda kv: (-kv[1][1], kv[0]))
        ],
        "cards_never_chosen": sorted(c for c, v in cards.items() if v[1] == 0),
        "cards_never_offered": sorted(set(game.card_ids) - set(cards)),
    }


def _stat_figures(game, done: list[dict]) -> list[dict]:
    out = []
    for stat in game.stats:
        values = [r["stats"][stat.id] for r in done]
        entry = {
            "id": stat.id,
            "text": stat.text,
            "kind": "yes/no" if stat.is_flag else "number",
            "per_seat": stat.per_seat,
        }
        if stat.per_seat:
            seats = list(zip(*values)) if values else []
            entry["seats"] = [_summary(list(v)) for v in seats]
            flat = [x for v in values for x in v]
        else:
            flat = values
        entry["share" if stat.is_flag else "summary"] = _ratio(sum(flat), len(flat)) if stat.is_flag else _summary(flat)
        out.append(entry)
    return out


def _skill(plan: Plan, roles: list[tuple[str, dict]]) -> dict:
    seats = []
    for seat in range(plan.players):
        done = [r for role, r in roles if role == f"skill:{seat}" and r["error"] is None and not r["cut_off"]]
        wins = sum(r["results"][seat] == "win" for r in done)
        seats.append(
            {
                "seat": seat,
                "games": len(done),
                "wins": wins,
                "win_rate": _ratio(wins, len(done)),
                "win_rate_95": wilson_interval(wins, len(done)),
            }
        )
    return {"bot": plan.skill_bot, "chance": _round(1 / plan.players), "seats": seats}


def _sweep_axis(arms: list[Arm]) -> dict | None:
    """The setting that varies across arms, when one numeric setting does and nothing else."""
    if len(arms) < 2 or len({a.variant for a in arms}) > 1 or not arms[0].settings:
        return None
    varying = [i for i in range(len(arms[0].settings)) if len({a.settings[i][1] for a in arms}) > 1]
    if len(varying) != 1 or not all(isinstance(a.settings[varying[0]][1], (int, float)) for a in arms):
        return None
    return {"name": arms[0].settings[varying[0]][0], "values": [a.settings[varying[0]][1] for a in arms]}


def _summary(values: list) -> dict | None:
    if not values:
        return None
    return {
        "mean": _round(statistics.fmean(values)),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "n": len(values),
    }


def _ratio(a: float, b: float, digits: int = 4) -> float | None:
    return round(a / b, digits) if b else None


def _round(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, 4)
