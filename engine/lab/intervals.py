"""95% intervals that resample whole games, and paired comparisons of arms on the same seeds.

A game is the unit that is independent of the others: the seats of one game are not (in a
two-seat game one seat's win is the other's loss), so every interval here draws whole games
with replacement (the bootstrap; Efron & Tibshirani 1993) and recomputes the figure on them.
The resampling is seeded, so a report is the same on every run.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

RESAMPLES = 1000
LEVEL = 0.95


class Resampler:
    """``RESAMPLES`` redraws of ``games`` games with replacement, as weights (how often each game is drawn)."""

    def __init__(self, games: int, seed: int = 0):
        self.games = games
        rng = np.random.default_rng(seed)
        self.weights = rng.multinomial(games, [1 / games] * games, size=RESAMPLES) if games else None

    def mean_95(self, values: Sequence[float | None]) -> list[float] | None:
        """Interval of the mean of the games' values; a game whose value is None does not count."""
        if self.weights is None or len(values) != self.games:
            return None
        known = np.array([v is not None for v in values], dtype=float)
        if known.sum() < 2:
            return None
        x = np.array([0.0 if v is None else float(v) for v in values])
        counts = self.weights @ known
        means = (self.weights @ x)[counts > 0] / counts[counts > 0]  # a redraw with no such game has no mean
        low, high = np.quantile(means, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
        return [round(float(low), 4), round(float(high), 4)]


def paired(first: Sequence[float | None], other: Sequence[float | None], seed: int = 0) -> dict | None:
    """``other`` − ``first`` on the games where both have a value (the same seed in two arms).

    The interval resamples the pairs, so the luck both arms share cancels; ``correlation`` says how
    much it shared (near 0: pairing did not help; near 1: the paired interval is much narrower than
    two separate ones would be).
    """
    pairs = [(a, b) for a, b in zip(first, other) if a is not None and b is not None]
    if len(pairs) < 2:
        return None
    a = np.array([p[0] for p in pairs], dtype=float)
    b = np.array([p[1] for p in pairs], dtype=float)
    corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else None
    return {
        "difference": round(float((b - a).mean()), 4),
        "difference_95": Resampler(len(pairs), seed).mean_95(list(b - a)),
        "correlation": None if corr is None or math.isnan(corr) else round(corr, 3),
        "games": len(pairs),
    }


class SeatGames:
    """The seat-games (game, seat) of the finished games and which of them won, for the difference a
    use makes to winning, with its interval over whole games.

    Seats of one game are not independent samples (in a two-seat game one seat's win is the other's
    loss), so the variance of p₁ − p₀ is the cluster-robust one, with the games as clusters (the
    linearization of the two ratios; Cameron & Miller 2015): Σ_g z_g² · G/(G−1),
    z_g = (w₁g − p₁·n₁g)/N₁ − (w₀g − p₀·n₀g)/N₀.
    """

    def __init__(self, games: int, players: int, won: set[tuple[int, int]]):
        self.games, self.players, self.won = games, players, won
        self.wins = Counter(g for g, _ in won)  # game → winning seats
        self.sum = len(won)
        self.squares = sum(n * n for n in self.wins.values())

    def difference(self, used: set[tuple[int, int]], z: float = 1.96) -> tuple[float, list[float]]:
        """p₁ − p₀ (win rate of the seat-games in ``used`` minus that of the others) and its interval."""
        n1 = Counter(g for g, _ in used)
        w1 = Counter(g for g, _ in used & self.won)
        big_n1, big_w1 = len(used), sum(w1.values())
        big_n0, big_w0 = self.games * self.players - big_n1, self.sum - big_w1
        p1, p0 = big_w1 / big_n1, big_w0 / big_n0
        c = p0 * self.players  # a game where nothing was used: z_g = −(wins_g − c)/N₀
        unused = self.squares - 2 * c * self.sum + self.games * c * c
        used_games = 0.0
        for g, n in n1.items():
            unused -= (self.wins[g] - c) ** 2
            w0 = self.wins[g] - w1[g]
            used_games += ((w1[g] - p1 * n) / big_n1 - (w0 - p0 * (self.players - n)) / big_n0) ** 2
        variance = (used_games + max(0.0, unused) / big_n0**2) * self.games / max(1, self.games - 1)
        d, half = p1 - p0, z * math.sqrt(variance)
        return d, [round(max(-1.0, d - half), 4), round(min(1.0, d + half), 4)]
