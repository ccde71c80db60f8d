"""The greedy bot: the best option now, by the rules' own bot values or by their scoring."""

from __future__ import annotations

import random

from engine.errors import TabletopError


class GreedyAgent:
    """Takes the option the game rates highest for its seat, one decision ahead.

    It rates the options on a determinized copy of the state
    (``State.determinized``): hidden cards are re-dealt, so it knows only what
    its seat may know, and the copy's generator is not the game's.

    With a ``bots: greedy`` section, each option is rated by the value the
    rules give its kind of decision (``choices``), else by the general
    ``value``; ``choice`` is the option itself, ``action`` its id.  Without one,
    it looks one decision ahead on the game's own scoring: it plays each option
    on a clone of the copy (chance comes from the copy's generator) and rates
    it by the result if that ends the game, then by its team's points minus
    the best other team's (fewer points are better where the fewest win).  A
    game with neither is an error, never a silent random bot.  Ties go to a
    seeded random pick among the best, except that
    declining (an option that is no value) wins ties: a bot with nothing to
    gain does not meddle.  Like any epsilon-greedy player it makes a random
    move now and then (``explore``), so two bots whose best moves block each
    other cannot stall forever.
    """

    name = "greedy"
    needs_view = False
    needs_state = True
    explore = 0.05

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    @staticmethod
    def check(game) -> None:
        """Raise unless ``game`` gives greedy something to rate by."""
        if not game.bot_values.get("greedy") and not game.scoring:
            raise TabletopError(
                f"bot 'greedy' cannot play {game.id}: its rules have neither a `bots: greedy` "
                f"value nor `scoring` to look ahead on"
            )

    def act(self, view: dict, state=None) -> str:
        actions = view["decision"]["actions"]
        if state is None or state.pending is None:
            return self.rng.choice(actions)
        self.check(state.game)
        if self.rng.random() < self.explore:
            return self.rng.choice(actions)
        seat = view["decision"]["player"]
        values = state.game.bot_values.get("greedy")
        scored = self.by_values(state, seat, actions, values) if values else self._by_lookahead(state, seat, actions)
        if not scored:
            return self.rng.choice(actions)
        best = max(v for v, _, _ in scored)
        top = [(a, declines) for v, a, declines in scored if v == best]
        declining = [a for a, declines in top if declines]
        return declining[0] if declining else self.rng.choice([a for a, _ in top])

    @staticmethod
    def by_values(state, seat: int, actions: list[str], values: dict) -> list[tuple]:
        """(the rules' value, option, whether it declines) of each of ``actions`` offered to ``seat``."""
        state = state.for_reading()
        pending = state.asked(seat)
        if pending is None:
            return []
        value = values.get(pending["kind"]) or values[""]
        options = dict(zip(pending["ids"], pending["values"]))
        return [
            (value(state, {"p": seat, "me": seat, "action": a, "choice": options[a]}), a, options[a] is None)
            for a in actions
            if a in options
        ]

    @staticmethod
    def _by_lookahead(state, seat: int, actions: list[str]) -> list[tuple]:
        team = state.game.team(state.n, seat)
        teams = {state.game.team(state.n, p) for p in range(state.n)}
        scored = []
        offered = state.legal_actions(seat)
        for a in actions:
            if a not in offered:  # the copy need not offer what hangs on unseen cards
                continue
            after = state.clone(log=False)
            after.apply(a, seat=seat)
            scores = after.scores
            others = [sum(scores[m] for m in t) for t in teams if seat not in t]
            sign = state.game.points_sign  # the fewest points win: a lead is fewer points
            margin = sign * sum(scores[m] for m in team) - max((sign * o for o in others), default=0)
            scored.append(((after.returns()[seat] if after.is_terminal else 0.0, margin), a, False))
        return scored
