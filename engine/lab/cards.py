"""The playtest's card section: which cards (and actions) decide games, told apart from luck.

A card's impact is the win rate of the seat-games that used it minus that of the others, with its
interval over whole games (``intervals.SeatGames``).  Three things keep a designer from reading luck
or the rules' own scoring as a card's strength:

- each use is measured apart (what was done with the card: played, put back, given, …), as one card
  may help when played and hurt when given away;
- cards identical but for their names (ten Cat cards) differ only by luck, so the spread of their
  impacts is the noise floor: a card is listed as deciding only beyond it;
- a decision the rules declare a scoring reveal (``scoring_reveals:``) scores the card it shows: its
  uses are listed apart, since scoring is how a game is won, not a sign that a card decides games.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from engine.lab.intervals import SeatGames

# seat-games on each side (used / not used) before a use's effect on winning is measured: fewer make the
# normal approximation of the interval, and the far tail the family-wise test reads, unsafe
MIN_SUPPORT = 30


class Uses:
    """What was done with each card and action over the games, as seat-games (game, seat) of finished games."""

    def __init__(self, game):
        self.cards = set(game.card_ids)
        self.reveals = game.scoring_reveals
        self.chosen: dict[str, int] = defaultdict(int)  # action id → times chosen
        self.offered: dict[str, list[int]] = {}  # card → [decisions offering it, times chosen] (reveals apart)
        self.offered_anywhere: set[str] = set()
        self.actions: dict[str, set] = defaultdict(set)
        self.revealing: set[str] = set()  # actions of scoring reveals
        self.by_card: dict[str, set] = defaultdict(set)  # every use but scoring reveals
        self.by_use: dict[tuple[str, str], set] = defaultdict(set)  # (card, use) → seat-games
        self.use_chosen: dict[tuple[str, str], int] = defaultdict(int)
        self.revealed: dict[tuple[str, str], set] = defaultdict(set)
        self.reveal_chosen: dict[tuple[str, str], int] = defaultdict(int)

    def add(self, g: int, finished: bool, choice: list) -> None:
        """One decision of game ``g``: (seat, action chosen, cards offered, kind of decision)."""
        seat, action, offered, kind = choice
        self.chosen[action] += 1
        self.offered_anywhere.update(offered)
        words = action.split()
        picked = [c for c in offered if c in words]
        use = kind if words[0] in self.cards else words[0]  # the verb of the option, else the decision's
        reveal = kind in self.reveals
        if reveal:
            self.revealing.add(action)
        if finished:
            self.actions[action].add((g, seat))
        for c in picked:
            (self.reveal_chosen if reveal else self.use_chosen)[(c, use)] += 1
            if finished:
                (self.revealed if reveal else self.by_use)[(c, use)].add((g, seat))
                if not reveal:
                    self.by_card[c].add((g, seat))
        if reveal:
            return
        for c in offered:
            self.offered.setdefault(c, [0, 0])[0] += 1
        for c in picked:
            self.offered[c][1] += 1

    def figures(self, game, seat_games: SeatGames) -> dict:
        """The choice section's rows: actions, cards, each card by use, scoring reveals, the noise floor
        of identical cards and what decides games."""
        actions = [
            {"action": a, "chosen": n, **impact(self.actions[a], seat_games)}
            for a, n in sorted(self.chosen.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        cards = [
            {"card": c, "offered": v[0], "chosen": v[1], **impact(self.by_card[c], seat_games)}
            for c, v in sorted(self.offered.items(), key=lambda kv: (-kv[1][1], kv[0]))
        ]
        uses = _use_rows(self.use_chosen, self.by_use, seat_games)
        floor = noise_floor(identical_cards(game), uses)
        return {
            "actions": actions,
            "cards": cards,
            "card_uses": uses,
            "scoring_reveals": _use_rows(self.reveal_chosen, self.revealed, seat_games),
            "noise_floor": floor,
            "cards_never_chosen": sorted(c for c, v in self.offered.items() if v[1] == 0),
            "cards_never_offered": sorted(self.cards - self.offered_anywhere),
            "deciding_actions": deciding(
                [a for a in actions if a["action"] not in self.revealing], ("action",), self.actions, seat_games
            ),
            "deciding_cards": deciding(uses, ("card", "use"), self.by_use, seat_games, floor),
        }


def _use_rows(chosen: dict[tuple[str, str], int], used: dict[tuple[str, str], set], seat_games) -> list[dict]:
    return [
        {"card": c, "use": u, "chosen": n, **impact(used[(c, u)], seat_games)}
        for (c, u), n in sorted(chosen.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def impact(used: set[tuple[int, int]], seat_games: SeatGames) -> dict:
    """Win rate of the seat-games that used something against those that did not, and the difference
    with its 95% interval over whole games once each side has ``MIN_SUPPORT`` seat-games."""
    n1, w1 = len(used), len(used & seat_games.won)
    n0, w0 = seat_games.games * seat_games.players - n1, len(seat_games.won) - w1
    measured = n1 >= MIN_SUPPORT and n0 >= MIN_SUPPORT
    d, interval = seat_games.difference(used) if measured else (None, None)
    return {
        "games": n1,
        "win_rate_when_used": round(w1 / n1, 4) if n1 else None,
        "win_rate_when_not_used": round(w0 / n0, 4) if n0 else None,
        "impact": None if d is None else round(d, 4),
        "impact_95": interval,
    }


def identical_cards(game) -> list[list[str]]:
    """Groups of two or more cards alike in all but their ids and names: kind, every attribute, effect."""
    names = [a for a in game.attributes if a not in ("id", "name")]
    groups: dict[tuple, list[str]] = defaultdict(list)
    for card, index in game.first_card.items():
        effect = game.card_texts[card].get("effect")
        groups[(game.card_kinds[index], effect, *(repr(game.attributes[a][index]) for a in names))].append(card)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def noise_floor(groups: list[list[str]], uses: list[dict]) -> dict:
    """How far luck alone sets identical cards apart: for each group and use measured for two or more
    of its cards, the largest distance of a card's impact from the group's mean.  A use's floor is the
    largest such spread in that use; the arm's floor, the largest of all (None without identical cards),
    holds for the uses no identical cards were measured in."""
    measured = {(r["card"], r["use"]): r["impact"] for r in uses if r["impact"] is not None}
    spreads = []
    for group in groups:
        for use in sorted({u for c, u in measured if c in group}):
            impacts = [measured[(c, use)] for c in group if (c, use) in measured]
            if len(impacts) >= 2:
                mean = statistics.fmean(impacts)
                spread = round(max(abs(x - mean) for x in impacts), 4)
                spreads.append({"cards": group, "use": use, "low": min(impacts), "high": max(impacts)})
                spreads[-1]["spread"] = spread
    by_use: dict[str, float] = {}
    for s in spreads:
        by_use[s["use"]] = max(by_use.get(s["use"], 0.0), s["spread"])
    return {"floor": max(by_use.values(), default=None), "by_use": by_use, "groups": spreads}


def deciding(
    rows: list[dict], keys: tuple[str, ...], used: dict, seat_games: SeatGames, floor: dict | None = None
) -> list[dict]:
    """The rows whose use changes the win rate beyond chance, largest effect first.

    With dozens of cards some 95% intervals miss 0 by luck alone, so a row is listed only when its
    interval at the family-wise level (Bonferroni: 5% shared among the rows measured) excludes 0, and
    its impact is beyond the ``floor`` identical cards show in its use (``noise_floor``)."""
    measured = [r for r in rows if r["impact"] is not None]
    if not measured:
        return []
    z = statistics.NormalDist().inv_cdf(1 - 0.05 / (2 * len(measured)))
    sure = []
    for r in measured:
        key = r[keys[0]] if len(keys) == 1 else tuple(r[k] for k in keys)
        low, high = seat_games.difference(used[key], z)[1]
        if (low > 0 or high < 0) and abs(r["impact"]) > _floor_of(floor, r.get("use")):
            sure.append(r)
    return [
        {**{k: r[k] for k in keys}, "impact": r["impact"], "impact_95": r["impact_95"], "games": r["games"]}
        for r in sorted(sure, key=lambda r: (-r["impact"], *(r[k] for k in keys)))
    ]


def _floor_of(floor: dict | None, use: str | None) -> float:
    """The noise floor a use is held to: its own, else the largest, else none."""
    if floor is None or floor["floor"] is None:
        return 0.0
    return floor["by_use"].get(use, floor["floor"])
