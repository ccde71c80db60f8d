"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Strength against random bots: the docstring of ``MctsAgent``, measured by tools/bot_strength.py.
"""

from __future__ import annotations

import json
import math
import random
import time

from engine.bots.greedy import GreedyAgent
from engine.errors import RuntimeRuleError, quoted
from engine.runtime.lower import native_game, raise_as_engine, vm_module

DEFAULT_ITERATIONS = 200
DEFAULT_ROLLOUT = 10  # decisions a rollout takes before it is scored by the points so far (longer ones, measured
# against greedy, won no more games and cost several times the time)
SCORELESS_ROLLOUT = 200  # ... and on while no seat has points, where it would say nothing (unless its cap is higher)
MAX_ITERATIONS, MAX_SECONDS, MAX_ROLLOUT = 10_000_000, 3600, 1_000_000  # the most a spec may ask for
LEAD_WEIGHT = 0.5  # a lead in points when a rollout stops counts for half a win: it is not one yet
EXPLORATION = 0.7  # UCB's constant for the returns of two sides (a win +1, a loss -1); see ``_exploration``
PRIOR_WEIGHT = 1.5  # progressive bias: a new node's greedy value, from 0 (its siblings' worst) to 1 (their best),
# adds PRIOR_WEIGHT * prior / (visits + 1) to its score, so the rules' knowledge steers the first visits and fades


class _Node:
    """Statistics of one action in the tree, from the view of the seat that took it."""

    __slots__ = ("avail", "children", "mover", "prior", "total", "visits")

    def __init__(self, mover: int, prior: float = 0.0):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.mover = mover
        self.prior = prior


class MctsAgent:
    """Searches a tree of decisions over many determinized copies, then takes the most visited option.

    Each iteration deals a fresh copy consistent with what its seat knows (``determinized``
    of the copy it was given, so never the true state), walks the tree by UCB1 with
    availability counts among the options legal in that copy, adds one node, plays on
    (``rollout`` decisions, and on while no seat has any points, up to ``SCORELESS_ROLLOUT``; a game
    still running then is scored by who leads on points, at half weight; where the rules give a standing,
    ``bots: mcts``, for a game whose points come only with its end, it stops after ``rollout`` decisions and is
    scored by who stands best: an evaluation cut-off) and backs up
    ``state.returns()``, each node scored for the seat that chose it.  Rollouts play at random, or,
    when the rules declare ``bots: greedy`` values, by those
    values (epsilon-greedy: the cheap default policy of the MCTS literature), which then also
    choose the next option to expand, so that a small budget tries the promising options first — knowledge the rules
    give, no game-specific code.  The same values bias UCB towards the options they rate best (progressive bias,
    ``PRIOR_WEIGHT``), a pull that fades as the returns come in; UCB's constant grows with the spread of the
    returns (``_exploration``), so three seats explore as much for a win as two.  Chance inside an action comes
    from the copy's own generator.

    Budget: ``mcts:N`` runs N iterations a decision (default 200), reproducibly for a seed;
    ``mcts:Ts`` runs for T seconds of the searching thread's CPU time instead (faster machines search
    deeper; other load on the machine does not shorten it).  ``/R`` after either caps a rollout at R
    decisions (default ``DEFAULT_ROLLOUT``): ``mcts:1000/30``, ``mcts:0.2s/30``.

    Strength against random bots and search speed per game: ``tools/bot_strength.py`` measures
    them (2 players or a game's smallest count, seats rotated, 95% Wilson intervals); the figures
    are kept in the project's notes, not here.  The suite checks that a small budget beats random
    bots, and wins nearly every game of a small Nim (tests/test_bots.py).
    """

    name = "mcts"
    needs_view = False
    needs_state = True
    takes = "iterations (200) or CPU seconds (0.2s), then optionally /ROLLOUT (1000/30)"

    def __init__(self, seed: int = 0, budget: str | None = None, rollout: int = DEFAULT_ROLLOUT):
        self.rng = random.Random(seed)
        self.iterations: int | None = DEFAULT_ITERATIONS
        self.seconds: float | None = None
        self.rollout = rollout
        if budget is not None:
            self._read_budget(budget)
        self.policy = GreedyAgent(seed)
        self.failed = 0  # iterations whose copy broke a rule (see ``_iterate``)

    def _read_budget(self, budget: str) -> None:
        """The parameter of ``mcts:PARAM``, as the VM's ``Budget::parse`` reads it."""
        text, slash, rollout = budget.strip().partition("/")
        text = text.strip()
        try:
            if text.endswith("s"):
                self.seconds, self.iterations = float(text[:-1]), None
                ok = 0 < self.seconds <= MAX_SECONDS
            else:
                self.iterations = int(text)
                ok = 1 <= self.iterations <= MAX_ITERATIONS
            if slash:
                self.rollout = int(rollout)
                ok = ok and 0 <= self.rollout <= MAX_ROLLOUT
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(
                "expected iterations (e.g. 200) or CPU seconds (e.g. 0.2s), then optionally /ROLLOUT "
                f"(e.g. 1000/30), got {quoted(budget)}"
            )

    def act(self, view: dict, state=None) -> str:
        actions = view["decision"]["actions"]
        if len(actions) == 1:
            return actions[0]
        if state is None:
            return self.rng.choice(actions)
        return self.search(state, view["decision"]["player"], actions)

    def search(self, state, seat: int, actions: list[str] | None = None) -> str:
        """The most visited of ``actions`` (default: the copy's options) at ``state``, a copy that knows
        what ``seat`` knows, after the search.  The options come from the seat's view: a copy may
        offer others where they hang on what the seat cannot see.

        A game the native VM runs is searched there, in one call, drawing from this bot's very
        generators: for a budget of iterations the same choice, many times faster."""
        found = self._on_vm(state, seat, actions)
        if found is not None:
            return found
        root = _Node(-1)
        rng = self.rng
        deadline = None if self.seconds is None else time.thread_time() + self.seconds
        done = 0
        while (done < (self.iterations or 0)) if deadline is None else (time.thread_time() < deadline or done == 0):
            self._iterate(root, state.determinized(seat, rng.getrandbits(31)), rng, seat)
            done += 1
        legal = actions or state.legal_actions(seat)
        if not any(a in root.children and root.children[a].visits for a in legal):
            return self._pick(state, legal, seat) if state.game.bot_values.get("greedy") else rng.choice(legal)
        return max(
            legal, key=lambda a: (root.children[a].visits, root.children[a].total) if a in root.children else (-1, 0.0)
        )

    def _on_vm(self, state, seat: int, actions: list[str] | None) -> str | None:
        """``search`` run by the VM on a copy of ``state`` (None: the game does not run there)."""
        vm, _ = native_game(state.game)
        if vm is None:
            return None
        own, policy = self.rng.getstate(), self.policy.rng.getstate()
        try:
            # a state the VM already runs is copied there; another is read in through the saved-state format
            copy = state.vm.clone() if state.vm is not None else vm.state_from_json(json.dumps(state.to_data()))
            budget = f"{self.iterations}" if self.seconds is None else f"{self.seconds!r}s"
            action, (own_after, policy_after), failed = copy.search(
                seat, actions or [], f"{budget}/{self.rollout}", [list(own[1]), list(policy[1])], self.policy.explore
            )
        except vm_module().VmError as exc:
            raise_as_engine(exc)
        self.rng.setstate((own[0], tuple(own_after), own[2]))
        self.policy.rng.setstate((policy[0], tuple(policy_after), policy[2]))
        self.failed += failed
        return action

    def _iterate(self, root: _Node, det, rng: random.Random, seat: int) -> None:
        """One iteration on the copy ``det``: select, expand one node, roll out, back up.

        The root is ``seat``'s decision: of a simultaneous one, ``seat`` chooses first in the tree,
        whoever the copy asks first; below it, the seat asked.

        A copy can break a rule the true game would not, where it forgets what another seat holds
        privately (a secret choice made before this decision): such an iteration teaches nothing,
        so it is dropped with the node it added, and counted in ``failed``.
        """
        node, path = root, []
        guided = bool(det.game.bot_values.get("greedy"))
        standing = det.game.standing is not None
        added: tuple[dict, str] | None = None
        mover = seat
        explore = _exploration(det, seat)
        try:
            while not det.is_terminal:
                legal = det.legal_actions(mover)
                children = node.children
                untried = [a for a in legal if a not in children]
                for a in legal:
                    if a in children:
                        children[a].avail += 1
                if untried:
                    action = self._pick(det, untried, mover) if guided else rng.choice(untried)
                    node = children[action] = _Node(mover, _prior(det, legal, mover, action) if guided else 0.0)
                    added = (children, action)
                    det.apply(action, seat=mover)
                    path.append(node)
                    break
                action = max(legal, key=lambda a: _ucb(children[a], explore))
                node = children[action]
                det.apply(action, seat=mover)
                path.append(node)
                mover = det.current_player
            steps = 0
            while not det.is_terminal:
                if steps >= self.rollout and (standing or steps >= SCORELESS_ROLLOUT or any(det.scores)):
                    break
                ids = det.pending["ids"]
                det.apply(self._pick(det, ids, det.current_player) if guided else rng.choice(ids))
                steps += 1
        except RuntimeRuleError:
            self.failed += 1
            if added is not None:
                del added[0][added[1]]
            return
        returns = det.returns() if det.is_terminal else _by_lead(det)
        for n in path:
            n.visits += 1
            n.total += returns[n.mover]

    def _pick(self, det, actions: list[str], mover: int) -> str:
        """The default policy's choice among ``actions`` of ``mover``: the rules' greedy values, epsilon-greedy."""
        return self.policy.act({"decision": {"player": mover, "actions": actions}}, det)


def _by_lead(det) -> list[float]:
    """Returns for a copy still running when its rollout stops, from the rules' standing (``bots: mcts``), else
    from their points.

    Scored as level, such rollouts said nothing: in a game of many hands or rounds almost half
    of those from the first decisions stop (measured on a 4-player card game: 9 of 20 at 200
    decisions).  The side(s) ahead count as winners, at ``LEAD_WEIGHT``, the others
    as losers, the shape ``returns()`` gives a finished game; all level is 0.  Where the fewest points win
    (``winner: lowest``) the side with fewest is ahead; the highest standing is always ahead.
    """
    n, game = det.n, det.game
    sign, values = (1, det.standings()) if game.standing is not None else (game.points_sign, det.scores)
    side = [sign * sum(values[m] for m in game.team_of(n, p)) for p in range(n)]
    top = max(side)
    leaders = [p for p in range(n) if side[p] == top]
    if len(leaders) == n:
        return [0.0] * n
    win = n / len(leaders) - 1
    return [LEAD_WEIGHT * (win if p in leaders else -1.0) for p in range(n)]


def _prior(det, legal: list[str], mover: int, action: str) -> float:
    """Where the rules' greedy value of ``action`` lies among those of ``legal``: 0 the worst, 1 the best (all
    alike: 0)."""
    rated = {a: v for v, a, _ in GreedyAgent.by_values(det, mover, legal, det.game.bot_values["greedy"])}
    low, high = min(rated.values(), default=0), max(rated.values(), default=0)
    return (rated[action] - low) / (high - low) if high > low and action in rated else 0.0


def _exploration(det, seat: int) -> float:
    """UCB's constant for ``seat``'s game: the returns of n seats in sides of k spread over n / k (a lone winner
    of three gets +2, the others -1), so it grows with that spread from ``EXPLORATION`` at two sides, to explore
    as much for what a win is worth."""
    return EXPLORATION * (det.n / len(det.game.team_of(det.n, seat))) / 2


def _ucb(node: _Node, c: float) -> float:
    """UCB1 with availability counts (``c`` the constant), plus the progressive bias of the node's prior."""
    visits = node.visits
    return node.total / visits + c * math.sqrt(math.log(node.avail) / visits) + PRIOR_WEIGHT * node.prior / (visits + 1)
