"""Playtest lab: many bot games per arm (a variant and/or rule settings), recorded and measured.

Every arm plays the same seeds (common random numbers), so a difference between arms is the
rules' doing, not the dice's.  A game is recorded as plain data (``games.play_batch``: on the native
VM when the game lowers, else ``games.record_game``, the same record either way) by whichever backend
runs it — this process, forked processes, or Ray workers — and the figures are computed from the
records in seed order, so every backend and engine gives the same figures for the same seeds.
Each metric's definition is in ``METRICS`` (the report and ``--json`` carry it).
"""

from __future__ import annotations

import itertools
import math
import os
import platform
import re
import signal
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.bots import make_agent
from engine.lab.cards import MIN_SUPPORT, Uses
from engine.lab.games import PROGRESS_BINS, Arm, Batch, play_batch, played
from engine.lab.intervals import Resampler, SeatGames, paired
from engine.lab.simulate import DEFAULT_DECISION_LIMIT, vm_for, wilson_interval

RANDOM = "random"
DURATIONS = ("decisions", "turns", "rounds")

RESOLUTION = 0.05  # a win rate known to ± this tells arms apart that differ by about twice as much
BATCHES_PER_WORKER = 4  # enough batches to keep every worker busy to the end, few enough to make one worth its cost


@dataclass(frozen=True)
class Metric:
    """One figure of the report: what it says, how it is computed, and where it sits in each arm's
    figures (``keys``: ``section.key``, ``section.rows[].field``), so that no figure goes undefined."""

    ludii: str  # Ludii's name for the same idea, "" where it has none
    definition: str
    formula: str
    keys: tuple[str, ...]


# One entry per metric, in the report's order: the report, ``--json`` and ``tabletop doc --metrics`` read it.
METRICS: dict[str, Metric] = {
    "win_rate": Metric(
        "",
        "How often each seat wins. A shared win counts for each winner, a draw for none.",
        "wins(s) / finished games, with a 95% Wilson score interval "
        "(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96",
        ("outcomes.wins", "outcomes.win_rate", "outcomes.win_rate_95"),
    ),
    "balance": Metric(
        "Balance",
        "How alike the seats' chances are; 1 is perfectly balanced.",
        "1 − (max over seats of win_rate − min over seats of win_rate)",
        ("outcomes.balance",),
    ),
    "first_seat_advantage": Metric(
        "AdvantageP1",
        "How much better the first seat does than the average seat (Ludii's AdvantageP1 is seat 0's win rate itself).",
        "win_rate(0) − mean over seats of win_rate(s); 95% interval: the 2.5th and 97.5th percentiles over "
        "1,000 seeded redraws of whole games with replacement (the bootstrap; seats of a game stay together)",
        ("outcomes.first_seat_advantage", "outcomes.first_seat_advantage_95"),
    ),
    "draw_rate": Metric(
        "Drawishness",
        "How often a game ends with no winner.",
        "drawn games / finished games, with a 95% Wilson interval",
        ("outcomes.draws", "outcomes.draw_rate", "outcomes.draw_rate_95"),
    ),
    "completion_rate": Metric(
        "Completion",
        "How often a game reaches an end by the rules.",
        "finished games / games played (played = finished + cut off + errors), with a 95% Wilson interval",
        ("outcomes.played", "outcomes.finished", "outcomes.completion_rate", "outcomes.completion_rate_95"),
    ),
    "cut_off": Metric(
        "Timeouts",
        "Games stopped by the decision limit, which have no result.",
        "count of games with decisions ≥ limit before the end",
        ("outcomes.cut_off",),
    ),
    "errors": Metric(
        "",
        "Games stopped by a rule error (with the first few messages), which have no result.",
        "count of games that raised a rule error",
        ("outcomes.errors", "outcomes.error_samples"),
    ),
    "end_reasons": Metric(
        "",
        'Why games ended, by the reason the rules gave (`end_game "reason"`).',
        "finished games per reason",
        ("outcomes.end_reasons",),
    ),
    "decisions": Metric(
        "DurationActions",
        "Length of a game in decisions: every choice of any seat, over the finished games (games cut off at "
        "the limit are counted apart, under cut_off).",
        "decisions per game: mean with its 95% interval (bootstrap over whole games), median, min, max "
        "(and each finished game's value)",
        ("duration.decisions", "duration.values"),
    ),
    "turns": Metric(
        "DurationTurns",
        "Length of a game in turns, as the rules count them: where the game says what a turn is (`turn:`, "
        "e.g. whose turn it is), others' replies within a turn do not split it; else a turn is a run of "
        "consecutive decisions by one seat.",
        "1 + number of times the value of the game's `turn:` changes between decisions (without one: the "
        "deciding seat), per game",
        ("duration.turns",),
    ),
    "rounds": Metric(
        "",
        "Length of a game in rounds: a round ends just before a seat starts its second turn in it.",
        "rounds per game, counted as turns are taken",
        ("duration.rounds",),
    ),
    "scores": Metric(
        "",
        "Each seat's points at the end, by the rules' scoring.",
        "per seat: mean, median, min, max over finished games (and each game's value)",
        ("scores.per_seat", "scores.values"),
    ),
    "margin": Metric(
        "",
        "By how much the winner won, in games with a winner; none in a game whose points stay 0 throughout.",
        "points of the winning side − the best other side's points (a team's points are its members' sum)",
        ("scores.margin", "scores.margins"),
    ),
    "lead_changes": Metric(
        "LeadChange",
        "How often the lead changes hands (Ludii judges the leader by a search's evaluation; here by points); "
        "none (—) in a game whose points stay 0 until the end, as lead, drama and decisiveness do not apply to it.",
        "number of times the sole leader (most points at the start of a turn) differs from the previous "
        "sole leader, per game",
        ("scores.lead_changes",),
    ),
    "drama": Metric(
        "Drama",
        "How far behind the eventual winner was, on average over the game.",
        "mean over turns t of (leader's points(t) − eventual winner's points(t)), mean over games with a winner",
        ("scores.drama",),
    ),
    "decisiveness": Metric(
        "DecisivenessTurns",
        "How early the eventual winner took a lead it never lost; 0: from the start.",
        "(index of the last turn at which the eventual winner was behind + 1) / turns, mean over games with a winner",
        ("scores.decisiveness",),
    ),
    "branching": Metric(
        "BranchingFactor",
        "How many options a decision offers, over the whole game and by tenth of a game.",
        "sum of legal options over all decisions / decisions; per tenth: the same over the decisions "
        "in that tenth of each game",
        ("choice.branching", "choice.branching_by_progress"),
    ),
    "actions": Metric(
        "",
        "How often each action is chosen, and the chooser's win rate in the finished games it chose it.",
        "chosen: times picked; games: seat-games (one seat in one finished game) that picked it; "
        "win rate when used: wins among those seat-games / games",
        ("choice.actions", "choice.actions[].action", "choice.actions[].chosen", "choice.actions[].games"),
    ),
    "cards": Metric(
        "",
        "How often each card named by an action is offered and chosen; cards offered but never chosen, "
        "and cards never offered at all.",
        "offered: decisions offering an action that names it; chosen: of them, times an action naming it "
        "was picked; games: seat-games that chose it",
        (
            "choice.cards",
            "choice.cards[].card",
            "choice.cards[].offered",
            "choice.cards[].chosen",
            "choice.cards[].games",
            "choice.cards_never_chosen",
            "choice.cards_never_offered",
        ),
    ),
    "impact": Metric(
        "",
        "Cards and actions that decide games: how much more often a seat wins when it uses a card "
        "(or action) in a game than when it does not; a card's uses are also measured one by one, by what "
        "was done with it (the option's verb: played, put, given, …). Measured only with at least "
        f"{MIN_SUPPORT} seat-games on each side. A card's use is listed as deciding when the interval at the "
        "family-wise level excludes 0 (Bonferroni: the 5% shared among the m uses, or actions, measured), so "
        "that luck alone rarely lists one, and its impact is beyond the noise floor of its use.",
        "d = win rate when used − win rate when not used, over the seat-games of finished games; 95% interval "
        "d ± 1.96·se over whole games (the seats of a game are not independent: one's win is another's loss): "
        "se² = G/(G−1) · Σ_g z_g², z_g = (w₁g − p₁n₁g)/N₁ − (w₀g − p₀n₀g)/N₀ over the G games (cluster-robust); "
        "deciding: the same with z = Φ⁻¹(1 − 0.05/2m) excludes 0, and d lies beyond ± the noise floor",
        (
            "choice.actions[].win_rate_when_used",
            "choice.actions[].win_rate_when_not_used",
            "choice.actions[].impact",
            "choice.actions[].impact_95",
            "choice.cards[].win_rate_when_used",
            "choice.cards[].win_rate_when_not_used",
            "choice.cards[].impact",
            "choice.cards[].impact_95",
            "choice.card_uses",
            "choice.card_uses[].card",
            "choice.card_uses[].use",
            "choice.card_uses[].chosen",
            "choice.card_uses[].games",
            "choice.card_uses[].win_rate_when_used",
            "choice.card_uses[].win_rate_when_not_used",
            "choice.card_uses[].impact",
            "choice.card_uses[].impact_95",
            "choice.deciding_actions",
            "choice.deciding_actions[].action",
            "choice.deciding_actions[].impact",
            "choice.deciding_actions[].impact_95",
            "choice.deciding_actions[].games",
            "choice.deciding_cards",
            "choice.deciding_cards[].card",
            "choice.deciding_cards[].use",
            "choice.deciding_cards[].impact",
            "choice.deciding_cards[].impact_95",
            "choice.deciding_cards[].games",
        ),
    ),
    "noise_floor": Metric(
        "",
        "How far luck alone sets apart cards that are identical but for their names (same kind, attributes "
        "and effect): no card's use is listed as deciding by less than the floor of that use (the largest "
        "floor where no identical cards were measured in it). None (—) where a game has no identical cards.",
        "per group of identical cards and use measured for two or more of them: the largest distance of a "
        "card's impact from the group's mean impact (its spread), with the lowest and highest impact; a "
        "use's floor (by_use): the largest spread in it; the floor: the largest of all",
        (
            "choice.noise_floor",
            "choice.noise_floor.floor",
            "choice.noise_floor.by_use",
            "choice.noise_floor.groups",
            "choice.noise_floor.groups[].cards",
            "choice.noise_floor.groups[].use",
            "choice.noise_floor.groups[].low",
            "choice.noise_floor.groups[].high",
            "choice.noise_floor.groups[].spread",
        ),
    ),
    "scoring_reveals": Metric(
        "",
        "Uses of cards in the decisions the rules declare as scoring reveals (`scoring_reveals:`, e.g. showing "
        "a card from hand to score it): listed apart, since scoring is how a game is won, not a sign that a "
        "card decides games; left out of the cards' other figures.",
        "as a card's use: chosen, seat-games, win rate when used and not, impact with its 95% interval",
        (
            "choice.scoring_reveals",
            "choice.scoring_reveals[].card",
            "choice.scoring_reveals[].use",
            "choice.scoring_reveals[].chosen",
            "choice.scoring_reveals[].games",
            "choice.scoring_reveals[].win_rate_when_used",
            "choice.scoring_reveals[].win_rate_when_not_used",
            "choice.scoring_reveals[].impact",
            "choice.scoring_reveals[].impact_95",
        ),
    ),
    "paired": Metric(
        "",
        "Each arm against the first on the same seeds: how much each figure differs, game by game, and "
        "whether that is more than luck; the correlation says how much luck the two arms shared (near 0: "
        "pairing did not help; near 1: the interval is much narrower than comparing the arms apart).",
        "per figure: mean over the seeds finished in both arms of (value in the arm − value in the first arm); "
        "95% interval: the 2.5th and 97.5th percentiles of that mean over 1,000 seeded redraws of the pairs "
        "with replacement; correlation: Pearson's r of the two arms' values over the same pairs",
        (
            "paired",
            "paired[].arm",
            "paired[].against",
            "paired[].rows[].figure",
            "paired[].rows[].difference",
            "paired[].rows[].difference_95",
            "paired[].rows[].correlation",
            "paired[].rows[].games",
        ),
    ),
    "warnings": Metric(
        "",
        "Bots that decide by time (the same seeds no longer replay the same games), and arms with too few "
        "finished games to tell their differences apart: a seat's win rate is known only to more than "
        f"±{RESOLUTION:.0%}.",
        "half the width of the widest Wilson 95% interval of a seat's win rate > "
        f"{RESOLUTION}; games for ±{RESOLUTION:.0%}: 1.96² · 0.25 / {RESOLUTION}²",
        ("warnings",),
    ),
    "skill": Metric(
        "Skill Trace (simplified)",
        "How much a thinking bot gains over random bots, per seat; near chance means luck decides.",
        "wins of the thinking bot in seat s against random bots in the others / its finished games there, "
        "with a 95% Wilson interval; chance = the seat's team size / players (1 / players without teams). "
        "Trace (with --skill mcts:N; Ludii's skill trace): greedy, mcts:N and mcts:2N each against the one "
        "before, the stronger in each seat in turn: its wins / finished games, with a 95% Wilson interval; a "
        "game where skill pays shows rates above chance that grow, or hold, as the bots think more",
        (
            "skill.trace",
            "skill.trace[].bot",
            "skill.trace[].against",
            "skill.trace[].games",
            "skill.trace[].wins",
            "skill.trace[].win_rate",
            "skill.trace[].win_rate_95",
            "skill.bot",
            "skill.chance",
            "skill.seats",
            "skill.seats[].seat",
            "skill.seats[].games",
            "skill.seats[].wins",
            "skill.seats[].win_rate",
            "skill.seats[].win_rate_95",
        ),
    ),
    "stats": Metric(
        "",
        "The rules' own counters (`stats:`), evaluated at the end of each finished game.",
        "yes/no: share of games (or seat-games, per seat) where it holds; numbers: mean, median, min, max; "
        "95% intervals of shares and means by the bootstrap over whole games (a per-seat counter's game value: "
        "its seats' mean)",
        (
            "stats",
            "stats[].id",
            "stats[].text",
            "stats[].kind",
            "stats[].per_seat",
            "stats[].share",
            "stats[].share_95",
            "stats[].summary",
            "stats[].seats",
        ),
    ),
}


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
    trace: tuple[str, ...] = ()  # bots from weakest to strongest: each plays the one before, seats rotated

    def tasks(self) -> list[tuple[int, str, int, list[str]]]:
        """(arm index, role, seed, bots per seat); role "main", "skill:SEAT" or "trace:LEVEL:SEAT"."""
        out = [(a, "main", self.seed + i, self.bots) for a in range(len(self.arms)) for i in range(self.games)]
        if self.skill_bot:
            for a in range(len(self.arms)):
                for seat in range(self.players):
                    specs = [RANDOM] * self.players
                    specs[seat] = self.skill_bot
                    out += [(a, f"skill:{seat}", self.seed + i, specs) for i in range(self.skill_games)]
                for level in range(1, len(self.trace)):
                    for seat in range(self.players):
                        specs = [self.trace[level - 1]] * self.players
                        specs[seat] = self.trace[level]
                        out += [(a, f"trace:{level}:{seat}", self.seed + i, specs) for i in range(self.skill_games)]
        return out

    def order(self) -> list[int]:
        """The tasks' indices in the order they are played: seed by seed across the arms, the skill games
        spread evenly among them, so a run stopped early has every arm on the same seeds."""
        tasks = self.tasks()

        def key(index: int) -> tuple:
            arm, role, seed, _ = tasks[index]
            share = (seed - self.seed) / (self.games if role == "main" else self.skill_games)
            return (share, role != "main", role, arm)

        return sorted(range(len(tasks)), key=key)

    def batches(self, workers: int = 0) -> list[tuple[int, Batch]]:
        """The tasks in ``order`` as (arm, batch) for ``workers`` other processes (0: this one alone).  Alone,
        game by game, so that an interrupted run has every arm on the same seeds; shared, windows of the
        order split by arm, so that a worker gets a batch it plays in one call (the arms stay paired to
        within a window)."""
        tasks, order = self.tasks(), self.order()
        size = max(1, min(50, len(order) // (BATCHES_PER_WORKER * workers))) if workers else 1
        out: list[tuple[int, Batch]] = []
        for first in range(0, len(order), size):
            by_arm: dict[int, Batch] = {}
            for index in order[first : first + size]:
                arm, _, seed, specs = tasks[index]
                by_arm.setdefault(arm, []).append((index, seed, specs))
            out += by_arm.items()
        return out

    def engines(self, games: list, engine: str) -> list:
        """Each arm's VM game, or None where Python plays it (``simulate.vm_for``: ``engine`` auto, python, vm)."""
        tasks = self.tasks()
        seeds = range(self.seed, self.seed + max(self.games, self.skill_games))
        return [
            vm_for(game, sorted({k for i, _, _, specs in tasks if i == a for k in specs}), seeds, engine)
            for a, game in enumerate(games)
        ]


def skill_trace(spec: str | None, with_greedy: bool) -> tuple[str, ...]:
    """The bots of a skill trace for ``--skill mcts:N[/R]``: greedy (where it can play), mcts:N, mcts:2N (with
    the same rollouts); none for other bots, whose strength has no knob to turn."""
    found = re.fullmatch(r"mcts:(\d+)(/\d+)?", spec or "")
    if not found:
        return ()
    n, rollout = int(found[1]), found[2] or ""
    return ("greedy",) * with_greedy + (f"mcts:{n}{rollout}", f"mcts:{2 * n}{rollout}")


@dataclass
class RunInfo:
    backend: str
    workers: int
    engine: str = "python"  # who played the games: vm, python, or both (some arms' rules do not lower)
    seconds: float = 0.0
    host: str = field(default_factory=platform.node)
    cpus: int = field(default_factory=lambda: os.cpu_count() or 1)
    address: str | None = None
    interrupted: bool = False

    def to_data(self, games: int) -> dict:
        return {
            "interrupted": self.interrupted,
            "backend": self.backend,
            "workers": self.workers,
            "host": self.host,
            "cpus": self.cpus,
            "address": self.address,
            "engine": self.engine,
            "seconds": round(self.seconds, 2),
            "games": games,
            "games_per_second": round(games / self.seconds, 2) if self.seconds > 0 else None,
            "python": platform.python_version(),
        }


_FORKED: tuple = ()  # (plan, compiled games per arm, VM games per arm) for forked workers


def _run_forked(arm_batch: tuple[int, Batch]) -> list[tuple[int, dict, float]]:
    plan, games, vms = _FORKED
    arm, batch = arm_batch
    return played(games[arm], vms[arm], plan.players, batch, plan.limit)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the run and keeps the games finished so far."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Work:
    """How much of a run is done, weighed by what its games cost so far: a game of thinking bots may
    take a hundred times a game of random ones, and a variant's games may be three times as long, so
    counting games would misjudge the time left.  A kind of game is an arm with its bots."""

    def __init__(self, kinds: list):
        self.left = Counter(kinds)  # kind of game → games still to play
        self.spent: defaultdict = defaultdict(float)  # kind → seconds its played games took
        self.played: Counter = Counter()
        self.decisions = 0  # made in the games played

    def add(self, kind, seconds: float, decisions: int = 0) -> None:
        self.left[kind] -= 1
        self.played[kind] += 1
        self.spent[kind] += seconds
        self.decisions += decisions

    def fraction(self) -> float:
        """Share of the work done: seconds spent / (seconds spent + games left × their kind's mean cost)."""
        spent = sum(self.spent.values())
        if not spent:
            return 0.0
        overall = spent / sum(self.played.values())
        left = sum(n * (self.spent[k] / self.played[k] if self.played[k] else overall) for k, n in self.left.items())
        return spent / (spent + left)


def run(
    plan: Plan,
    games: list,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int, int, int, float], None] | None = None,
    engine: str = "auto",
) -> tuple[list[dict | None], RunInfo]:
    """Play every task of ``plan``; records in task order, and where and how fast they ran.

    Games are played seed by seed across the arms, so an interrupted run (Ctrl-C) has compared the
    arms on the same seeds: it stops, marks ``info.interrupted``, and returns the games finished
    (None for the others).  ``progress(games done, games, decisions made, share of the work done)``.
    ``engine`` picks who plays each arm's games (``Plan.engines``): the same records either way.
    """
    global _FORKED
    tasks = plan.tasks()
    records: list = [None] * len(tasks)
    vms = plan.engines(games, engine)
    engines = " and ".join(sorted({"python" if vm is None else "vm" for vm in vms}, reverse=True))
    info = RunInfo(backend, jobs if backend == "local" else 0, engines, address=address)
    work = Work([(t[0], *t[3]) for t in tasks])
    start = time.perf_counter()
    done = 0

    def finished(index: int, rec: dict, seconds: float) -> None:
        nonlocal done
        records[index] = rec
        done += 1
        work.add((tasks[index][0], *tasks[index][3]), seconds, rec["decisions"])
        if progress is not None:
            progress(done, len(tasks), work.decisions, work.fraction())

    try:
        if backend == "ray":
            from engine.lab.ray_backend import run_on_ray

            info.workers = run_on_ray(plan, [vm is not None for vm in vms], address, finished)
        elif jobs > 1:
            import multiprocessing

            _FORKED = (plan, games, vms)
            try:  # forked workers inherit the compiled games: nothing is pickled or loaded again
                with multiprocessing.get_context("fork").Pool(jobs, _ignore_interrupts) as pool:
                    for results in pool.imap_unordered(_run_forked, plan.batches(jobs), chunksize=1):
                        for game_played in results:
                            finished(*game_played)
            finally:
                _FORKED = ()
        else:
            for arm, batch in plan.batches():
                play_batch(games[arm], vms[arm], plan.players, batch, plan.limit, finished)
    except KeyboardInterrupt:
        info.interrupted = True
    info.seconds = time.perf_counter() - start
    return records, info


# ---------------------------------------------------------------- metrics
def measure(plan: Plan, games: list, records: list[dict | None], info: RunInfo) -> dict:
    """The figures of a run, per arm, as plain data (what ``--json`` prints and the report draws).

    Games an interrupted run did not play (None) are left out; the figures are those of the games
    played, and ``partial`` says so."""
    tasks = plan.tasks()
    arms = []
    per_game = []
    for a, arm in enumerate(plan.arms):
        main = [r for (i, role, _, _), r in zip(tasks, records) if i == a and role == "main"]
        per_game.append(game_values(games[a], plan.players, main))
        entry = {
            "label": arm.label,
            "variant": arm.variant,
            "settings": dict(arm.settings),
            **_arm_metrics(games[a], plan.players, [r for r in main if r is not None], plan.seed),
        }
        if plan.skill_bot:
            roles = [(role, r) for (i, role, _, _), r in zip(tasks, records) if i == a and r is not None]
            entry["skill"] = _skill(plan, games[a], roles)
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
        "partial": info.interrupted,
        "run": info.to_data(sum(r is not None for r in records)),
        "sweep": _sweep_axis(plan.arms),
        "warnings": timed_bots(plan) + [w for a in arms if (w := _too_few(a)) is not None],
        "paired": [
            {"arm": arm.label, "against": plan.arms[0].label, "rows": _paired_rows(per_game[0], per_game[a], plan.seed)}
            for a, arm in enumerate(plan.arms)
            if a > 0
        ],
        "definitions": {
            k: {"ludii": m.ludii, "definition": m.definition, "formula": m.formula, "keys": list(m.keys)}
            for k, m in METRICS.items()
        },
    }


def _finished(r: dict | None) -> bool:
    return r is not None and r["error"] is None and not r["cut_off"]


def game_values(game, players: int, recs: Sequence[dict | None]) -> dict[str, list]:
    """Each estimated figure as one value per game (None where it does not apply: a game cut off, a
    margin without a winner), so that intervals and pairings resample games, never seats."""
    done = [r if _finished(r) else None for r in recs]
    wins = [None if r is None else [x == "win" for x in r["results"]] for r in done]
    out: dict[str, list] = {f"win rate, seat {s}": [None if w is None else w[s] for w in wins] for s in range(players)}
    out["first-seat advantage"] = [None if w is None else w[0] - sum(w) / players for w in wins]
    for k in DURATIONS:
        out[k] = [None if r is None else r[k] for r in done]
    for s in range(players):
        out[f"score, seat {s}"] = [None if r is None else r["scores"][s] for r in done]
    # a game without points is won or lost, not by so much: the margin does not apply; and where points
    # come only at the end (a win/lose game scored 1/0), neither do who leads, drama nor decisiveness
    finished = [r for r in done if r is not None]
    scored = any(any(r["final"]) for r in finished)
    led = any(any(t) for r in finished for t in r["trace"])
    sign = game.points_sign
    out["margin"] = [None if r is None or not scored else _margin(r, sign) for r in done]
    stories = [None if r is None or not led else _lead_story(r, sign) for r in done]
    for i, name in enumerate(("lead changes", "drama", "decisiveness")):
        out[name] = [None if story is None else story[i] for story in stories]
    for stat in game.stats:
        if stat.per_seat:
            for s in range(players):
                out[f"{stat.id}, seat {s}"] = [None if r is None else r["stats"][stat.id][s] for r in done]
        else:
            out[stat.id] = [None if r is None else r["stats"][stat.id] for r in done]
    return out


def _margin(r: dict, sign: int = 1) -> int | None:
    """Points of the winning side over the best other side (under them where the fewest win: ``sign`` -1);
    None in a game without a winner."""
    winners = [s for s, x in enumerate(r["results"]) if x == "win"]
    if not winners:
        return None
    others = [sign * v for s, v in enumerate(r["final"]) if s not in winners]
    return sign * r["final"][winners[0]] - max(others) if others else 0


def timed_bots(plan: Plan) -> list[str]:
    """A warning for each bot that thinks for a time, not a number of steps: its choices depend on the
    machine's speed and load, so the same seeds no longer give the same games (nor the arms pairs)."""
    specs = dict.fromkeys([*plan.bots, *([plan.skill_bot] if plan.skill_bot else [])])
    return [
        f"{spec} decides by time: the same seeds do not replay the same games, and arms are paired only in "
        "their deals; give it a number of iterations to compare arms game by game"
        for spec in specs
        if getattr(make_agent(spec), "seconds", None) is not None
    ]


def _too_few(arm: dict) -> str | None:
    """A warning when an arm's win rates are too loose to tell it from another arm."""
    o = arm["outcomes"]
    widths = [(ci[1] - ci[0]) / 2 for ci in o["win_rate_95"] if ci is not None]
    if widths and max(widths) <= RESOLUTION:
        return None
    need = math.ceil(1.96**2 * 0.25 / RESOLUTION**2)
    known = f"to ±{max(widths):.0%}" if widths else "not at all"
    return (
        f"{arm['label']}: {o['finished']} finished games tell a seat's win rate only {known}; "
        f"smaller differences are luck as likely as not (about {need} games give ±{RESOLUTION:.0%})"
    )


def _lead_story(r: dict, sign: int = 1) -> tuple[int, float | None, float | None]:
    """Lead changes, drama and decisiveness of one game (the last two None without a winner); ``sign`` -1:
    the fewest points lead."""
    trace = [[sign * v for v in t] for t in r["trace"] + [r["final"]]]
    leaders = [t.index(max(t)) for t in trace if t.count(max(t)) == 1]
    changes = sum(a != b for a, b in itertools.pairwise(leaders))
    winners = [s for s, x in enumerate(r["results"]) if x == "win"]
    if not winners:
        return changes, None, None
    w = winners[0]
    behind = [i for i, t in enumerate(trace) if t[w] < max(t)]
    return changes, statistics.fmean(max(t) - t[w] for t in trace), (behind[-1] + 1) / len(trace) if behind else 0.0


def _paired_rows(first: dict[str, list], other: dict[str, list], seed: int) -> list[dict]:
    """Every figure of one arm against the first arm's, game by game on the same seeds."""
    rows = []
    for name, values in first.items():
        found = paired(values, other.get(name, []), seed)
        if found is not None:
            rows.append({"figure": name, **found})
    return rows


def _arm_metrics(game, players: int, recs: list[dict], seed: int) -> dict:
    done = [r for r in recs if _finished(r)]
    n = len(done)
    wins = [sum(r["results"][s] == "win" for r in done) for s in range(players)]
    rates = [w / n if n else None for w in wins]
    draws = sum(all(x == "draw" for x in r["results"]) for r in done)
    reasons: dict[str, int] = {}
    for r in done:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    known = [x for x in rates if x is not None]
    values = game_values(game, players, recs)
    resample = Resampler(len(recs), seed)

    def estimate(name: str) -> dict | None:
        return _summary([v for v in values[name] if v is not None], resample.mean_95(values[name]))

    def mean(name: str) -> float | None:
        return (estimate(name) or {}).get("mean")

    return {
        "outcomes": {
            "played": len(recs),
            "finished": n,
            "errors": sum(r["error"] is not None for r in recs),
            "error_samples": [f"seed {r['seed']}: {r['error']}" for r in recs if r["error"]][:5],
            "cut_off": sum(r["cut_off"] for r in recs),
            "completion_rate": _ratio(n, len(recs)),
            "completion_rate_95": wilson_interval(n, len(recs)),
            "wins": wins,
            "win_rate": [_round(x) for x in rates],
            "win_rate_95": [wilson_interval(w, n) for w in wins],
            "balance": _round(1 - (max(known) - min(known))) if known else None,
            "first_seat_advantage": mean("first-seat advantage"),
            "first_seat_advantage_95": resample.mean_95(values["first-seat advantage"]),
            "draws": draws,
            "draw_rate": _ratio(draws, n),
            "draw_rate_95": wilson_interval(draws, n),
            "end_reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        },
        "duration": {
            **{k: estimate(k) for k in DURATIONS},
            "values": {k: [r[k] for r in done] for k in DURATIONS},
        },
        "scores": {
            "per_seat": [estimate(f"score, seat {s}") for s in range(players)],
            "values": [[r["scores"][s] for r in done] for s in range(players)],
            "margin": estimate("margin"),
            "margins": [v for v in values["margin"] if v is not None],
            "lead_changes": estimate("lead changes"),
            "drama": mean("drama"),
            "decisiveness": mean("decisiveness"),
        },
        "choice": _choice(game, players, [r for r in recs if r["error"] is None]),
        "stats": _stat_figures(game, players, values, resample),
    }


def _choice(game, players: int, recs: list[dict]) -> dict:
    totals, counts = [0] * PROGRESS_BINS, [0] * PROGRESS_BINS
    uses = Uses(game)
    won: set[tuple[int, int]] = set()
    finished = 0
    for g, r in enumerate(recs):
        totals = [a + b for a, b in zip(totals, r["branching"])]
        counts = [a + b for a, b in zip(counts, r["branch_counts"])]
        if not r["cut_off"]:
            finished += 1
            won |= {(g, s) for s, x in enumerate(r["results"]) if x == "win"}
        for choice in r["choices"]:
            uses.add(g, not r["cut_off"], choice)
    return {
        "branching": _ratio(sum(totals), sum(counts), 2),
        "branching_by_progress": [_ratio(t, c, 2) for t, c in zip(totals, counts)],
        **uses.figures(game, SeatGames(finished, players, won)),
    }


def _stat_figures(game, players: int, values: dict[str, list], resample: Resampler) -> list[dict]:
    """Each counter over the finished games; a per-seat counter also seat by seat.  Intervals resample
    games: a game's value of a per-seat counter is its seats' mean."""
    out = []
    for stat in game.stats:
        entry: dict = {
            "id": stat.id,
            "text": stat.text,
            "kind": "yes/no" if stat.is_flag else "number",
            "per_seat": stat.per_seat,
        }
        if stat.per_seat:
            seats = [values[f"{stat.id}, seat {s}"] for s in range(players)]
            entry["seats"] = [_summary([v for v in x if v is not None], resample.mean_95(x)) for x in seats]
            flat = [v for x in seats for v in x if v is not None]
            per_game = [None if v[0] is None else statistics.fmean(v) for v in zip(*seats)]
        else:
            per_game = values[stat.id]
            flat = [v for v in per_game if v is not None]
        if stat.is_flag:
            entry["share"] = _ratio(sum(flat), len(flat))
            entry["share_95"] = resample.mean_95(per_game)
        else:
            entry["summary"] = _summary(flat, resample.mean_95(per_game))
        out.append(entry)
    return out


def _skill(plan: Plan, game, roles: list[tuple[str, dict]]) -> dict:
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
    # A seat wins with its team: by chance, a seat in one of two partnerships wins half the games.
    chance = statistics.fmean(len(game.team_of(plan.players, s)) / plan.players for s in range(plan.players))
    return {"bot": plan.skill_bot, "chance": _round(chance), "seats": seats, "trace": _trace(plan, roles)}


def _trace(plan: Plan, roles: list[tuple[str, dict]]) -> list[dict]:
    """Each bot of the trace against the one before it, in every seat in turn: how often the stronger wins."""
    out = []
    for level in range(1, len(plan.trace)):
        games = wins = 0
        for seat in range(plan.players):
            done = [r for role, r in roles if role == f"trace:{level}:{seat}" and _finished(r)]
            games += len(done)
            wins += sum(r["results"][seat] == "win" for r in done)
        out.append(
            {
                "bot": plan.trace[level],
                "against": plan.trace[level - 1],
                "games": games,
                "wins": wins,
                "win_rate": _ratio(wins, games),
                "win_rate_95": wilson_interval(wins, games),
            }
        )
    return out


def _sweep_axis(arms: list[Arm]) -> dict | None:
    """The setting that varies across arms, when one numeric setting does and nothing else."""
    if len(arms) < 2 or len({a.variant for a in arms}) > 1 or not arms[0].settings or any(a.without for a in arms):
        return None
    varying = [i for i in range(len(arms[0].settings)) if len({a.settings[i][1] for a in arms}) > 1]
    if len(varying) != 1 or not all(isinstance(a.settings[varying[0]][1], (int, float)) for a in arms):
        return None
    return {"name": arms[0].settings[varying[0]][0], "values": [a.settings[varying[0]][1] for a in arms]}


def _summary(values: list, mean_95: list[float] | None = None) -> dict | None:
    """Mean (with the 95% interval of the mean, from whole games), median, min, max and count."""
    if not values:
        return None
    return {
        "mean": _round(statistics.fmean(values)),
        "mean_95": mean_95,
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "n": len(values),
    }


def _ratio(a: float, b: float, digits: int = 4) -> float | None:
    return round(a / b, digits) if b else None


def _round(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, 4)
