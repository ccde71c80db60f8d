"""The running game: plain-data state and the interpreter loop.

A ``State`` holds only what changes: zones (lists of card indexes, top last),
variables, the generator's one-int state, the stack of program frames
``[procedure, pc, locals]``, the pending decision, the log, the history of
decisions and chance events, and what each seat knows of where cards are.
Everything is JSON-ready at every decision point, including in the middle of
a card effect.  The game's rules live in the shared ``GameDef``; what a seat
may read of a state is decided in ``sight``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import (
    BudgetExceeded,
    Diagnostic,
    EngineBug,
    IllegalAction,
    RuleFault,
    RuntimeRuleError,
    StateError,
    TabletopError,
    is_rules_fault,
    plain_reason,
)
from engine.runtime import rng, sight, together
from engine.runtime.logtext import log_text, seat_did
from engine.runtime.lower import native_game, raise_as_engine, vm_module
from engine.runtime.numbers import LIMIT, PAST, in_range
from engine.runtime.program import DEFAULT_END, SUSPEND, Overrun
from engine.runtime.saved_state import FORMAT, check_pending, check_saved_state

if TYPE_CHECKING:
    from engine.runtime.gamedef import GameDef


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: each seat's result and the reason, named by the rules."""

    results: tuple[str, ...]  # per seat: "win", "loss" or "draw"
    reason: str
    house: bool = False  # each seat's result is against the house, not against the other seats

    @property
    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.results) if r == "win"]

    @property
    def is_draw(self) -> bool:
        return all(r == "draw" for r in self.results)

    def returns(self) -> list[float]:
        """Per-seat numbers that sum to zero: k winners of n seats get n/k − 1 each, the others −1; a draw 0.

        Two players: +1 for the win, −1 for the loss.  Against a house each seat has its own result, and
        they need not sum to zero: +1 for a win, −1 for a loss, 0 for a draw.
        """
        if self.house:
            return [1.0 if r == "win" else -1.0 if r == "loss" else 0.0 for r in self.results]
        n, k = len(self.results), len(self.winners)
        if k == 0:
            return [0.0] * n
        return [n / k - 1 if r == "win" else -1.0 for r in self.results]

    def to_data(self) -> dict:
        data = {"results": list(self.results), "winners": self.winners, "reason": self.reason}
        if self.house:
            data["against"] = "house"
        return data


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """A draw at random the rules are about to make: one of ``size`` outcomes, all equally likely.

    ``kind`` is "random" (``random_from`` picks item ``outcome``; ``roll`` turns a die to its face number
    ``outcome``) or "shuffle" (one step of Fisher–Yates: the card at place ``size − 1`` of the zone changes
    places with the one at ``outcome``).
    """

    kind: str
    size: int

    def outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of every outcome."""
        p = 1.0 / self.size
        return [(i, p) for i in range(self.size)]

    def __deepcopy__(self, memo: dict) -> ChanceEvent:
        """Itself: it is never changed (a tool's copy of a chance node shares it)."""
        return self


class ChanceNeeded(TabletopError):
    """Explicit chance: the rules came to a draw that the outcomes given did not cover (the state is as it was)."""

    def __init__(self, event: ChanceEvent):
        super().__init__(f"the rules draw at random next: {event.kind}, one of {event.size} outcomes")
        self.event = event


def _scorer_fault(scorer, p, reason: str) -> RuntimeRuleError:
    """A scoring term or tie-breaker that failed for seat ``p``, located at the term."""
    path, line, col = scorer.where
    return RuntimeRuleError(Diagnostic(path, line, col, "E701", f"'{scorer.id}' failed for seat {p}: {reason}"))


def _copied(zones: dict[str, list]) -> dict[str, list]:
    """Zones with their lists copied, with no bytecode per zone (a game may have a hundred)."""
    return dict(zip(zones, map(list.copy, zones.values())))


# The fields the Python backend runs on.  While the VM runs a game they are not set: a read or a change of one is
# answered by ``_python_field``.
_FIELDS = frozenset(
    ("draws", "faces", "final", "history", "know", "loc", "log_entries", "pending", "pinned", "pvars", "reason")
    + ("rng", "seen", "settled", "stack", "steps", "vars", "zones")
)
# Of those, the ones never changed in place (a clone shares them): read from a copy, the VM runs on.
_LOOKS = frozenset(("history", "pending", "reason"))


def _on_vm(game) -> Any:
    """The game's ``engine._vm.VmGame`` if its states run on the VM (not ``load_game(..., vm=False)`` nor the
    reference) and the VM runs it: None for a construct the VM does not run (``lower.Unsupported``), or where no VM
    is built."""
    return native_game(game)[0] if game.vm else None


class State:
    """One game in progress.  Create with ``GameDef.new_game``.

    The native VM runs a game's rules wherever it runs the game (``vm``; not of ``load_game(..., vm=False)``),
    explicit chance (``draws``) included; the Python backend (the fields below) where it does not, and for a
    caller that takes a field to change it in place.  Reading such a field
    reads the VM's state back and the game runs on in Python; its next decision played goes back
    to the VM through the saved-state format, which both read alike.  What only looks at a state
    (views, logs, the pending decision, the history) reads a copy made from the VM's and keeps it.
    """

    __slots__ = (
        "draws",
        "faces",
        "fault",
        "final",
        "game",
        "history",
        "know",
        "loc",
        "log_entries",
        "n",
        "on_python",
        "pending",
        "pinned",
        "pvars",
        "reason",
        "rng",
        "seed",
        "seen",
        "settled",
        "sight",
        "stack",
        "steps",
        "vars",
        "vm",
        "zones",
    )
    game: GameDef
    n: int  # seats
    seed: int
    rng: int  # the generator's state
    zones: dict[str, list[int]]  # cards by zone, top last
    loc: list[str]  # each card's zone
    vars: dict[str, Any]
    pvars: list[dict[str, Any]]
    stack: list[list[Any]]  # frames [procedure name, pc, locals]
    pending: dict | None  # the decision asked, None once the game is over
    reason: str | None  # why the game ended, as the rules say
    log_entries: list[list[Any]]  # [who reads it (None: all, ~seat: all but seat), text or (format, *args)]
    history: list[dict]
    fault: Diagnostic | None  # the rule error that stopped this game
    steps: int
    seen: list[list[Any]]
    settled: dict[str, int]
    final: tuple[list[int], Outcome | None] | None
    sight: sight.Sight  # what each seat sees, shared by the states of one table size
    know: list[int] | None  # per card: bit mask of the seats that know it
    draws: list[int] | None  # explicit chance: the outcomes still to use, last first (only while a run uses them)
    pinned: list[int] | None  # per card: bit mask of the seats that know where it lies
    faces: list[Any] | None  # per card: the face a die shows (None for other cards); None in a game without dice
    vm: Any  # the native VM's state (``engine._vm.VmState``) while it runs this game, else None
    on_python: bool  # runs on the Python backend for good: the reference's replay of a step the VM failed

    # ---------------------------------------------------------------- create
    @classmethod
    def new(cls, game, players: int, seed: int = 0, knowledge: bool = True, draws: list[int] | None = None) -> State:
        """A new game, advanced to its first decision.  ``knowledge=False``: what each seat knows of the
        cards is not followed move by move, but worked out when first needed, by playing the game again
        from its seed (``_knowledge``): a simulation between bots that ask for no copy never needs it.  The VM
        follows it anyway, at little cost.
        ``draws``: explicit chance, the outcomes of the setup's draws (see ``apply``)."""
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise TabletopError(f"{game.id} is for {game.min_players}–{game.max_players} players, not {players}")
        if draws is not None and not knowledge:
            raise TabletopError("a game of explicit chance follows what seats know: it cannot be replayed from a seed")
        vm_game = _on_vm(game)
        if vm_game is not None:
            try:
                vm = vm_game.new_game(players, int(seed), draws)
                return State._running(_OnVm.of(game, players), vm)
            except vm_module().VmChanceNeeded as exc:
                raise ChanceNeeded(ChanceEvent(*exc.args)) from None
            except (OverflowError, TypeError):  # a seed past the VM's 128 bits, outcomes that are no 64-bit numbers
                pass
            except vm_module().VmError:  # a setup that fails, or outcomes that do not fit: the reference says how
                pass
        return cls._in_python(game, players, seed, knowledge, draws)

    @classmethod
    def _in_python(cls, game, players: int, seed: int, knowledge: bool = True, draws: list[int] | None = None) -> State:
        """``new`` on the Python backend."""
        st = cls.__new__(cls)
        st.vm, st.on_python = None, False
        st.draws = None if draws is None else draws[::-1]
        st.game, st.n, st.seed = game, players, int(seed)
        st.vars = game.variables.copy()  # values are never changed in place: the initial ones are shared
        st.pvars = [game.player_variables.copy() for _ in range(players)]
        st.rng = rng.seed_state(int(seed))
        st.stack = [["play", 0, {"me": 0}]]
        if "setup" in game.procedures:
            st.stack.append(["setup", 0, {"me": 0}])
        st.pending, st.reason = None, None
        st.log_entries, st.history, st.fault, st.steps = [], [], None, 0
        st.seen = [[] for _ in range(players)]
        st.settled = {}
        st.final = None  # (scores, outcome) a finished game's copy keeps from the game (sight._dealt)
        st.sight = game.sight(players)
        st.faces = [f[0] if f is not None else None for f in game.die_faces] if game.die_faces else None
        placed = game.cache.starts.get(players)
        if placed is None:
            cards = len(game.card_ids)
            st.zones, st.loc = {z: [] for z in game.zone_ids(players)}, [""] * cards
            know = st._place_starts()
            if st.rng == rng.seed_state(int(seed)) and (draws is None or len(st.draws or ()) == len(draws)):
                # the starts drew nothing: every game of this size starts so
                game.cache.starts[players] = (_copied(st.zones), st.loc[:], know[:])
            if not knowledge:
                st.know = st.pinned = None
        else:
            zones, loc, know = placed
            st.zones, st.loc = _copied(zones), loc[:]
            st.know, st.pinned = (know[:], know[:]) if knowledge else (None, None)
        st._run()
        st._all_drawn()
        return st

    def _place_starts(self) -> list[int]:
        """Every card where its ``start`` puts it, known as its zone is seen (``Sight.placed``); gives who knows
        each card."""
        game = self.game
        for index, start in enumerate(game.starts):
            zone = None
            try:
                zone = start(self, {"it": index, "me": 0})
                self.zones[zone].append(index)
            except (RuleFault, KeyError, TypeError) as exc:
                message = f"there is no zone '{zone}'" if isinstance(exc, KeyError) else str(exc)
                raise self._fault(
                    Diagnostic(
                        game.rules.documents[0].path,
                        1,
                        1,
                        "E701",
                        f"cannot place '{game.card_ids[index]}' at the start: {message}",
                    )
                ) from exc
            self.loc[index] = zone
        know = self.sight.placed(self.zones, len(self.loc))
        self.know, self.pinned = know, know[:]
        return know

    # ------------------------------------------------------- on the VM
    @staticmethod
    def _running(table: type[State], vm) -> State:
        """A state the VM runs: ``vm``, an ``engine._vm.VmState`` of the game of ``table`` (``_OnVm.of``)."""
        st = table()  # a class called makes its object faster than its __new__ called
        st.vm = vm
        return st

    def for_reading(self) -> State:
        """This state as the Python backend holds it, for code that only reads its fields (an observation's
        encoding, a rule function a tool evaluates): itself, or while the VM runs it a copy read back from the
        VM's state, made once a decision. Reading a field of the state itself would move its game off the VM.

        The copy shares with the copy of the decision before what has not changed since (``VmState.look``: the
        zones no move touched, the variables, the frames waiting), and with all earlier copies the log and
        history lists, which it extends.  The VM's state keeps both copies (``reading``, ``read_before``): its
        step drops the first, whichever way the step is taken."""
        vm = self.vm
        if vm is None:
            return self
        look = vm.reading
        if look is None:
            look = State.__new__(State)
            look.vm, look.on_python = None, True
            look.game, look.n, look.seed, look.fault = self.game, self.n, self.seed, self.fault
            look.steps, look.settled, look.sight = 0, {}, self.sight
            look.final, look.draws = None, None
            past = vm.read_before
            # the log and history grow as the game goes on: only what is new since the last look is handed over
            had = (len(past.log_entries), len(past.history)) if past is not None else (0, 0)
            (
                look.rng,
                look.zones,
                look.loc,
                look.vars,
                look.pvars,
                look.stack,
                look.pending,
                log,
                history,
                look.seen,
                look.reason,
                look.know,
                look.pinned,
                look.faces,
                log_from,
                history_from,
            ) = vm.look(*had)
            if past is not None and log_from:
                past.log_entries += log
                log = past.log_entries
            if past is not None and history_from:
                past.history += history
                history = past.history
            look.log_entries, look.history = log, history
            vm.reading = look
        return look

    def _vm_data(self) -> dict:
        """The VM's state as the plain data of a saved state (``to_data``), made with no JSON text between."""
        return self.vm.data()

    def _leave_vm(self) -> None:
        """Run on in Python from the VM's state."""
        data = self._vm_data()
        # its game and seats are its class's, its seed and fault its VM's: now its own, as its sight (_fill)
        game, n, seed, fault = self.game, self.n, self.seed, self.fault
        self.vm = None
        object.__setattr__(self, "__class__", State)
        self.game, self.n, self.seed, self.fault, self.on_python = game, n, seed, fault, False
        self._fill(data)

    def _back_to_vm(self) -> None:
        """Run on the VM again from this state's fields, where the VM runs the game and reads the state; a
        state the VM does not read runs on in Python."""
        vm_game = _on_vm(self.game)
        if (
            vm_game is None
            or self.on_python
            or self.draws is not None
            or self.pending is None
            or self.fault is not None
        ):
            return
        try:
            vm = vm_game.state_from_json(self.to_json())
        except vm_module().VmError:
            return
        look = State.__new__(State)  # the fields as they are: the state's look until it changes
        for name in State.__slots__:
            object.__setattr__(look, name, getattr(self, name))
        look.on_python = True
        for name in _FIELDS:
            object.__delattr__(self, name)
        vm.reading = look
        self.vm = vm
        object.__setattr__(self, "__class__", _OnVm.of(self.game, self.n))

    def _fill(self, data: dict) -> None:
        """The Python backend's fields from a saved state's plain data (checked, or the VM's own)."""
        game, n = self.game, self.n
        self.rng = data["rng"]
        # In the game's own order, as a new game has them: iteration order never depends on the file.
        self.zones = {z: data["zones"][z] for z in game.zone_ids(n)}
        self.loc = [""] * len(game.card_ids)
        for zone, cards in self.zones.items():
            for c in cards:
                self.loc[c] = zone
        self.vars = {k: data["variables"][k] for k in game.variables}
        self.pvars = [{k: p[k] for k in game.player_variables} for p in data["player_variables"]]
        self.stack, self.pending = data["stack"], data["pending"]
        self.log_entries, self.history, self.steps = data["log"], data["history"], 0
        self.seen, self.reason = data["seen"], data["reason"]
        self.know, self.pinned, self.settled, self.sight = data["know"], data["pinned"], {}, game.sight(n)
        self.final, self.draws = None, None
        self.faces = data.get("faces")

    # ----------------------------------------------------------- inspection
    @property
    def current_player(self) -> int | None:
        """The seat that must decide now (of a simultaneous decision: the one asked next, see ``to_act``);
        None when the game is over."""
        if self.vm is not None:
            return self.vm.current_player
        return self.pending["player"] if self.pending is not None else None

    @property
    def to_act(self) -> list[int]:
        """The seats that still have to decide, lowest first: ``[current_player]``, or several while a
        simultaneous decision waits for them (any of them may act first, ``apply(…, seat=s)``); [] when over.

        ``current_player`` is always one of them (the lowest, in a live game), so a driver serving one
        seat at a time needs nothing else.
        """
        if self.vm is not None:
            return self.vm.to_act()
        return together.to_act(self.pending)

    @property
    def is_terminal(self) -> bool:
        if self.vm is not None:
            return self.vm.is_terminal()
        return self.pending is None

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Stable action ids the current player (or ``seat``) may choose from (empty when over or not asked)."""
        vm = self.vm
        if vm is not None and (seat is None or self._vm_seat(seat)):
            return vm.legal_actions(seat)
        return list(self._options_of(seat))

    def legal_action_indices(self, seat: int | None = None) -> list[int]:
        """The legal actions as indexes into ``game.action_space(players)``, ascending: a mask or a
        network's outputs are numbered by the space, not by the order the rules list the options in."""
        index = self.game.action_index(self.n)
        return sorted([index[a] for a in self.legal_actions(seat)])

    def legal_action_mask(self, seat: int | None = None) -> list[int]:
        """1 for each legal action of ``game.action_space(players)``, 0 for the others (all 0 when not asked)."""
        mask = [0] * len(self.game.action_space(self.n))
        for i in self.legal_action_indices(seat):
            mask[i] = 1
        return mask

    def asked(self, seat: int) -> dict | None:
        """The pending decision as it is put to ``seat`` (its ``kind``, option ``ids`` and their ``values``),
        None if ``seat`` is not to act.  ``pending`` asks ``current_player``; of a simultaneous decision a
        bot deciding for another seat still to act reads its own options here."""
        self._check_seat(seat)
        pending = self.for_reading().pending
        if pending is None or seat not in together.to_act(pending):
            return None
        return together.asked_next(pending, seat) if seat != pending["player"] else pending

    def _options_of(self, seat: int | None) -> list[str]:
        pending = self.pending if self.vm is None else self.for_reading().pending
        if pending is None:
            return []
        if seat is None or seat == pending["player"]:
            return pending["ids"]
        self._check_seat(seat)
        if seat not in together.to_act(pending):
            return []
        return together.asked_next(pending, seat)["ids"]

    @property
    def actions(self) -> list[str]:
        """Every action taken so far, oldest first: with the seed, all a replay needs."""
        return [e["action"] for e in self.for_reading().history if "action" in e]

    @property
    def log(self) -> list[str]:
        """Events as an onlooker saw them, oldest first: what everyone saw, secret choices masked."""
        return sight.visible_log(self.for_reading(), None)

    @property
    def scores(self) -> list[int]:
        """Each seat's own points by the scoring rules (teams add theirs up in ``outcome``)."""
        if self.vm is not None:
            try:
                return self.vm.scores()
            except vm_module().VmError:  # the reference says what fails
                return self.for_reading().scores
        return [self.score_of(p) for p in range(self.n)]

    def standings(self) -> list[int]:
        """Each seat's standing by the rules' ``bots: mcts: standing`` (higher is better): how a search judges a
        rollout it stops short in a game whose points come only with its end."""
        state = self.for_reading()
        assert state.game.standing is not None, "the rules give no standing"
        return [state._evaluate(state.game.standing, p) for p in range(self.n)]

    def score_of(self, p: int) -> int:
        """Seat ``p``'s points by the scoring rules (a finished game's copy keeps them from the game)."""
        if self.vm is not None:
            return self.scores[p]
        if self.final is not None:
            return self.final[0][p]
        return self._points(p)

    def _points(self, p: int) -> int:
        """Seat ``p``'s scoring terms added up, worked out (a loop: a generator here cost more than some terms)."""
        total = 0
        for scorer in self.game.scoring:
            total += self._evaluate(scorer, p)
            if not -LIMIT <= total <= LIMIT:  # points add up as `+` does: 64-bit on every backend
                raise _scorer_fault(scorer, p, PAST)
        return total

    def house_points(self) -> int:
        """The house's points (``house: points:``), which every seat's are set against."""
        house = self.game.house
        if house is None:
            raise TabletopError(f"{self.game.id} has no house")
        return self.for_reading()._evaluate(house.points, 0)

    def team_score(self, p: int) -> int:
        """The points of seat ``p``'s team (just ``p``'s when there are no teams)."""
        team = self.game.team(self.n, p)
        if len(team) == 1:
            return self.score_of(p)
        total = 0
        for member in team:
            total += self.score_of(member)
        return in_range(total)

    def _evaluate(self, scorer, p: int) -> int:
        """A scoring term or tie-breaker for seat ``p``; a failing rule is a RuntimeRuleError at its line."""
        try:
            points = scorer.fn(self, {"p": p, "me": p})
            if points is None:  # a number the rules left out (the seat of no one): no points to add up
                raise RuleFault("none is no number")
            return points
        except TabletopError:
            raise
        except Exception as exc:  # RuleFault, or a rule asking for the impossible (e.g. endless recursion)
            raise _scorer_fault(scorer, p, plain_reason(exc)) from None

    @property
    def outcome(self) -> Outcome | None:
        """Each seat's result and why the game ended; None until it has.

        Seats (teams add up) are ranked by points, then by the tie-breakers in order
        (the most wins, or the fewest where the rules say ``winner: lowest``); the best
        win.  If several seats of different teams are still level, the rules' ``ties``
        says whether they share the win or the game is a draw for everyone.
        """
        if not self.is_terminal:
            return None
        if self.vm is not None:
            try:
                ended = self.vm.outcome()
            except vm_module().VmError:  # the reference says what fails
                return self.for_reading().outcome
            return Outcome(tuple(ended[0]), ended[1], house=self.game.house is not None)
        if self.final is not None:
            return self.final[1]
        game, n = self.game, self.n
        if game.house is not None:  # each seat against the house, on points alone
            bar = game.ranking(self.house_points(), ())
            keys = [game.ranking(self.score_of(p), ()) for p in range(n)]
            results = tuple("win" if k > bar else "draw" if k == bar else "loss" for k in keys)
            return Outcome(results, self.reason or DEFAULT_END, house=True)
        tiebreakers = game.tiebreakers
        per_seat = [[self.score_of(p), *[self._evaluate(t, p) for t in tiebreakers]] for p in range(n)]
        team = [game.team(n, p) for p in range(n)]
        sums = [tuple(map(sum, zip(*[per_seat[m] for m in team[p]]))) for p in range(n)]  # the team's sums
        keys = [game.ranking(s[0], s[1:]) for s in sums]
        best = max(keys)
        top = [p for p in range(n) if keys[p] == best]
        if len({team[p] for p in top}) > 1 and game.ties == "draw":
            results = ("draw",) * n
        else:
            results = tuple(["win" if key == best else "loss" for key in keys])
        return Outcome(results, self.reason or DEFAULT_END)

    @property
    def winners(self) -> list[int]:
        """Seats that won (several on a shared win or a team); empty until the end and on a draw."""
        outcome = self.outcome
        return outcome.winners if outcome is not None else []

    def returns(self) -> list[float]:
        """Per-seat results as numbers (see ``Outcome.returns``); all zero until the end."""
        if self.vm is not None:
            try:
                return self.vm.returns()
            except vm_module().VmError:  # the reference says what fails
                return self.for_reading().returns()
        outcome = self.outcome
        return outcome.returns() if outcome is not None else [0.0] * self.n

    # ----------------------------------------------------------------- play
    def apply(self, action: str, seat: int | None = None, draws: list[int] | None = None) -> None:
        """Play ``action``; raises IllegalAction (state unchanged) if it is not legal now.

        A wrong seat is told only who is deciding: the options are the decider's.  While a
        simultaneous decision waits, any seat of ``to_act`` may act (without ``seat``: the asked
        seat, or the one seat still to act that offers ``action``).

        ``draws`` makes chance explicit: the rules' draws at random until the next decision take these
        outcomes, in order, instead of the generator's.  If the rules draw more, ChanceNeeded says what
        the next draw is (its ``event``: kind and number of outcomes) and the state is as it was; a tool
        then tries again with one outcome more.  Outcomes left over are a StateError.
        """
        if draws is not None:
            if self.vm is None and self.game.vm:
                self._back_to_vm()
            if self.vm is not None and self._drawn_on_vm(action, seat, draws):
                return
            if self.vm is not None:
                self._leave_vm()
            before = self.clone()
            self.draws = draws[::-1]
            try:
                self.apply(action, seat)
                self._all_drawn()
            except TabletopError:
                for name in State.__slots__:
                    setattr(self, name, getattr(before, name))
                raise
            return
        vm = self.vm
        if vm is None and self.fault is None and self.game.vm:
            self._back_to_vm()
            vm = self.vm
        if vm is not None and action.__class__ is str and (seat is None or self._vm_seat(seat)):
            try:
                vm.apply(action, seat)  # refused if the game stopped on a rule error (VmStopped)
            except vm_module().VmError as exc:
                self._refused(exc, action, seat)
            return
        fault = self.fault
        if fault is not None:
            raise State._stopped(fault)
        if vm is not None:
            self._leave_vm()  # what the VM takes no argument of: the Python backend says why it is no action
        pending, player, i = self._chosen(action, seat)
        if "together" in pending:
            after = together.with_choice(pending, player, i)
            if together.to_act(after):  # the others still choose: nothing is revealed yet
                self.pending = after
                self._record(pending, player, action)
                return
            value = together.chosen_values(after)
        else:
            value = pending["values"][i]
        frame = self.stack[-1]
        proc = self.game.procedures[frame[0]]
        store = proc.choices[frame[1]]
        try:
            if isinstance(store, str):  # a local of the procedure
                frame[2][store] = value
            else:
                store(self, frame[2], value)
        except RuleFault as exc:
            raise self._fault(self._where(proc, frame[1], "E701", f"{exc} (in '{proc.name}')")) from exc
        except Exception as exc:  # a stored value the rules cannot hold (a tampered state)
            if not is_rules_fault(exc):
                raise EngineBug(f"engine bug while storing a choice in '{proc.name}': {exc!r}") from exc
            reason = f"rule failed in '{proc.name}': {plain_reason(exc)}"
            raise self._fault(self._where(proc, frame[1], "E702", reason)) from exc
        frame[1] += 1
        self.pending = None
        if pending["secret"]:
            self._record(pending, player, action)
        else:  # _record's common case, written out: it runs at every decision
            self.history.append({"seat": player, "action": action})
            self.log_entries.append([None, (seat_did, self.game.seat_name(player), action)])
        self._run()

    def _drawn_on_vm(self, action: str, seat: int | None, draws: list[int]) -> bool:
        """``apply`` with explicit chance on the VM, which works on a copy (the state is as it was if it fails);
        False where the reference is to play it: arguments the VM takes none of, or a step the VM failed, which
        the reference plays again to say why in its words."""
        if action.__class__ is not str or not self._vm_seat(seat):
            return False
        _vm = vm_module()
        try:
            self.vm.apply(action, seat, draws)
        except (OverflowError, TypeError):  # outcomes that are no 64-bit numbers
            return False
        except _vm.VmChanceNeeded as exc:
            raise ChanceNeeded(ChanceEvent(*exc.args)) from None
        except (_vm.VmIllegalAction, _vm.VmStateError) as exc:  # no action now; outcomes that do not fit
            if isinstance(exc, _vm.VmIllegalAction):
                self.for_reading()._chosen(action, seat)
            raise_as_engine(exc)
        except _vm.VmError:
            return False
        return True

    @staticmethod
    def _stopped(fault: Diagnostic) -> StateError:
        """The error of a step asked of a game that stopped on rule error ``fault``."""
        return StateError(f"this game stopped on a rule error: {fault.format(with_context=False)}")

    def _vm_seat(self, seat) -> bool:
        """``seat`` is one the VM takes: none, or one of the table's (the Python backend says what is wrong
        with another)."""
        return seat is None or (seat.__class__ is int and 0 <= seat < self.n)

    def _chosen(self, action: str, seat: int | None) -> tuple[dict, int, int]:
        """The decision pending, the seat that plays ``action`` and which option of its it is; IllegalAction
        if it is none."""
        pending = self.pending
        if pending is None:
            raise IllegalAction("the game is over; no action is legal")
        player = pending["player"]
        if "together" in pending:
            return (pending, *together.pick(pending, action, seat))
        if seat is not None and seat != player:
            raise IllegalAction(f"seat {seat} cannot act now: seat {player} is deciding")
        try:
            return pending, player, pending["ids"].index(action)
        except ValueError:
            raise IllegalAction.not_legal(action, player, pending["ids"]) from None

    def _refused(self, exc: BaseException, action: str, seat: int | None) -> None:
        """A failure of the VM's ``apply`` as the Python backend has it: an illegal action refused with the
        same words and legal options (nothing changed); a step the VM failed played by the reference from the
        state before it (a copy of ``look``, whose lists the looks of other decisions share, or the game replayed
        from its seed), whose fault stops the game, with the reference's words.  The state runs on in Python; it
        is the VM's fault where the reference cannot play."""
        if isinstance(exc, vm_module().VmIllegalAction):
            self.for_reading()._chosen(action, seat)
            raise_as_engine(exc)
        if isinstance(exc, vm_module().VmStopped) and (fault := self.fault) is not None:
            raise State._stopped(fault) from None  # the VM state's fault, on which the game stopped before this step
        look = self.vm.reading
        before = look.clone() if look is not None else self._replayed(action)
        if before is None:
            self.vm.reading = None
            raise_as_engine(exc)  # a rule error is the VM state's fault now, as the game stopped on it
        self.vm = None
        object.__setattr__(self, "__class__", State)
        for name in State.__slots__:
            if name != "vm":
                object.__setattr__(self, name, getattr(before, name))
        self.on_python = True
        self.apply(action, seat)

    def _replayed(self, action: str) -> State | None:
        """The game before ``action`` played again on the Python backend from its seed and actions; None if the
        actions cannot be played again so (a state read back without its first actions)."""
        entries = [e for e in self.for_reading().history if "action" in e]
        if entries and entries[-1]["action"] == action:
            entries.pop()
        try:
            again = State._in_python(self.game, self.n, self.seed)
            again.on_python = True
            for entry in entries:
                again.apply(entry["action"], seat=entry["seat"])
        except (TabletopError, EngineBug):
            return None
        return again

    def _record(self, pending: dict, player: int, action: str) -> None:
        """History and log of a decision taken: a secret one shows the others only its kind, and its
        chooser, who reads its own line in full, not the masked one too."""
        if pending["secret"]:
            entry = {"seat": player, "action": action, "kind": pending["kind"], "secret": True}
            if "together" in pending:  # shown to all with the others' at the reveal (``sight.unrevealed``)
                entry["together"] = True
            self.history.append(entry)
            name = self.game.seat_name(player)
            self.log_entries.append([~player, (seat_did, name, f"{pending['kind']} …")])
            self.log_entries.append([player, (seat_did, name, action)])
        else:
            self.history.append({"seat": player, "action": action})
            self.log_entries.append([None, (seat_did, self.game.seat_name(player), action)])

    def randbelow(self, n: int) -> int:
        if self.draws is not None:
            return self._drawn(ChanceEvent("random", n))
        value, self.rng = rng.below(self.rng, n)
        return value

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place with the game's generator (as ``randbelow`` for each place, faster)."""
        if self.draws is None:
            self.rng = rng.shuffle(self.rng, items)
            return
        for n in range(len(items), 1, -1):  # the same Fisher–Yates, its draws given
            j = self._drawn(ChanceEvent("shuffle", n))
            items[n - 1], items[j] = items[j], items[n - 1]

    def _drawn(self, event: ChanceEvent) -> int:
        """The next outcome given for an explicit draw; ChanceNeeded once they are used up."""
        draws = self.draws
        if not draws:
            raise ChanceNeeded(event)
        outcome = draws.pop()
        if not isinstance(outcome, int) or not 0 <= outcome < event.size:
            raise StateError(f"no outcome {outcome!r} of a draw of {event.size} ({event.kind})")
        return outcome

    def _all_drawn(self) -> None:
        """End a run of explicit chance: every outcome given must have been drawn."""
        left, self.draws = self.draws, None
        if left:
            raise StateError(f"{len(left)} outcome(s) given but not drawn: the rules drew fewer times")

    def chance(self, event: dict) -> None:
        """Record a chance event (a shuffle, a random draw) in the history."""
        self.history.append(event)

    def _run(self) -> None:
        """Run the programs until a decision is pending or the game ends."""
        procedures = self.game.procedures
        stack = self.stack
        budget = self.game.step_budget
        steps = self.steps = 0  # instructions run here; a function's own count in self.steps while it runs
        while stack:
            frame = stack[-1]
            proc = procedures[frame[0]]
            code, env, pc = proc.code, frame[2], frame[1]  # a failing instruction leaves pc at itself
            try:
                while pc >= 0:
                    steps += 1
                    if steps > budget:
                        raise BudgetExceeded(
                            self._where(
                                proc,
                                pc,
                                "E703",
                                f"step budget of {budget} exhausted in '{proc.name}': does a loop never end?",
                            )
                        )
                    pc = code[pc](self, env)
            except RuleFault as exc:
                raise self._fault(self._where(proc, pc, "E701", f"{exc} (in '{proc.name}')")) from exc
            except Overrun as exc:
                raise self._fault(
                    self._where(
                        proc,
                        pc,
                        "E703",
                        f"step budget of {budget} exhausted in '{proc.name}': does a loop never end?",
                    ),
                    BudgetExceeded,
                ) from exc
            except BudgetExceeded as exc:
                self.fault = exc.diagnostic
                raise
            except TabletopError:
                raise
            except Exception as exc:  # the rules asked for something impossible (none + 1), or an engine bug
                if not is_rules_fault(exc):
                    raise EngineBug(f"engine bug while running '{proc.name}': {exc!r}") from exc
                raise self._fault(
                    self._where(proc, pc, "E702", f"rule failed in '{proc.name}': {plain_reason(exc)}")
                ) from exc
            if pc == SUSPEND:
                return
            # NEXT: a call or return changed the stack; read the new top frame.

    def _where(self, proc, pc: int, code: str, message: str) -> Diagnostic:
        """The rule's place: instruction ``pc``'s statement, in its file."""
        line, col = proc.where[pc] if 0 <= pc < len(proc.where) else (1, 1)
        if proc.locate is not None:
            line, col = proc.locate(line, col)
        return Diagnostic(proc.source_path, line, col, code, message)

    def _fault(self, diagnostic: Diagnostic, kind: type = RuntimeRuleError) -> RuntimeRuleError:
        self.fault = diagnostic
        return kind(diagnostic)

    # -------------------------------------------------- what cards are known
    def move(self, card: int, to: str, on_top: bool = True) -> None:
        """Put ``card`` on top of zone ``to`` (at its bottom unless ``on_top``); ``Sight.moved`` says who knows it."""
        if card is None:
            raise RuleFault(f"{'move' if on_top else 'move_bottom'}: no card given")
        zones, loc = self.zones, self.loc
        try:
            target = zones[to]
        except KeyError:
            raise RuleFault(f"there is no zone '{to}'") from None
        source = loc[card]
        cards = zones[source]
        if on_top:
            if cards[-1] == card:  # most moves take the top card: no search from the bottom of a long pile
                cards.pop()
            else:
                cards.remove(card)
            target.append(card)
        else:
            cards.remove(card)
            target.insert(0, card)
        loc[card] = to
        self.sight.moved(self, card, source, to, on_top)

    def reordered(self, zone: str) -> None:
        """A zone was shuffled or sorted (``Sight.reordered``)."""
        self.sight.reordered(self, zone)

    def shown(self, cards: list[int], seat: int) -> None:
        """``seat`` was shown ``cards``: it knows them and where they lie."""
        self.sight.shown(self, cards, seat)

    # ---------------------------------------------------------------- views
    def _knowledge(self) -> None:
        """Follow what each seat knows from now on, working out what it knows now if this game did not
        (``new(knowledge=False)``): the game played again from its seed with the same actions, followed."""
        if self.know is not None:
            return
        again = State.new(self.game, self.n, self.seed)
        for entry in self.history:
            if "action" in entry:
                again.apply(entry["action"], seat=entry["seat"])
        self.know, self.pinned = again.know, again.pinned
        self.settled.clear()

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know now, as plain data (see ``sight``); None: what an onlooker may know, which is
        what is public."""
        if seat is not None:
            self._check_seat(seat)
        return sight.view(self.for_reading(), seat)

    def visible_log(self, seat: int) -> list[str]:
        """The log lines ``seat`` saw."""
        self._check_seat(seat)
        return sight.visible_log(self.for_reading(), seat)

    def history_for(self, seat: int) -> list[dict]:
        """Every decision and chance event as ``seat`` may know it: others' secret options masked, but
        those of a simultaneous decision only until all have chosen (then everyone saw them)."""
        self._check_seat(seat)
        return sight.history_for(self.for_reading(), seat)

    def decision_for(self, seat: int) -> dict | None:
        """The pending decision as ``seat`` may know it (options only for the decider)."""
        self._check_seat(seat)
        return sight.decision_for(self.for_reading(), seat)

    def determinized(self, seat: int, seed: int) -> State:
        """A copy consistent with all ``seat`` knows and with nothing more (see ``sight.determinize``)."""
        self._check_seat(seat)
        if seed.__class__ is not int:
            seed = int(seed)
        vm = self.vm
        if vm is not None:
            try:
                copy = vm.determinized(seat, seed)
            except (OverflowError, vm_module().VmError):  # a seed wider than the VM's 64 bits; the reference's fault
                return sight.determinize(self.for_reading(), seat, seed)
            return State._running(type(self), copy)
        return sight.determinize(self, seat, seed)

    def _check_seat(self, seat) -> None:
        if seat.__class__ is int and 0 <= seat < self.n:  # the common case, told without isinstance
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise TabletopError(f"no seat {seat!r}: seats are 0…{self.n - 1}")

    def hidden_from(self, seat: int) -> list[tuple[str, int]]:
        """(zone, position) of every card whose face ``seat`` cannot see."""
        slots = []
        zones = self.for_reading().zones
        for zone, top_shown in self.sight.hidden_from(seat):
            cards = zones[zone]
            slots += [(zone, i) for i in range(len(cards) - 1 if top_shown else len(cards))]
        return slots

    # ----------------------------------------------------- copy and persist
    def clone(self, log: bool = True) -> State:
        """An independent copy (plain-data copy, no replay); ``log=False`` starts its log empty (for searches,
        which read no log: a long game's log is then not copied at every rollout).

        Only what changes in place is copied: zones, and the dicts of variables and program locals.
        The values they hold (lists, records, maps) are never changed in place once made, so the copy
        shares them; so it does the pending decision, which is replaced, never changed.
        """
        c = State.__new__(State)
        c.vm, c.on_python = None, self.on_python
        c.game, c.n, c.seed, c.rng = self.game, self.n, self.seed, self.rng
        c.zones = _copied(self.zones)
        c.loc = self.loc[:]
        c.vars = self.vars.copy()
        c.pvars = list(map(dict.copy, self.pvars))
        c.stack = [[f[0], f[1], f[2].copy()] for f in self.stack]
        c.pending = self.pending
        c.log_entries = self.log_entries[:] if log else []
        c.history = self.history[:]  # entries are never changed once made
        c.seen = list(map(list.copy, self.seen))
        c.fault, c.reason = self.fault, self.reason
        c.know = self.know[:] if self.know is not None else None
        c.pinned = self.pinned[:] if self.pinned is not None else None
        c.settled, c.sight = self.settled.copy(), self.sight
        c.steps, c.final, c.draws = 0, self.final, None
        c.faces = self.faces[:] if self.faces is not None else None
        return c

    def __deepcopy__(self, memo: dict) -> State:
        """``clone()``: equal to the original, at the cost of a copy of what changes (not ``copy.deepcopy``'s walk)."""
        return self.clone()

    def __reduce__(self) -> tuple:
        """Pickled as its plain data with where its rules are (``GameDef.unpickled_state`` reads it back)."""
        game = self.game
        folder, variant, rules, loaded = game.pickled()
        return (type(game).unpickled_state, (folder, variant, rules, self.to_json(), loaded))

    def to_data(self) -> dict:
        if self.vm is not None:
            return self._vm_data()
        self._knowledge()
        data = {
            "format": FORMAT,
            "game": self.game.id,
            "variant": self.game.variant,
            "rules": self.game.rules_hash,
            "players": self.n,
            "seed": self.seed,
            "rng": self.rng,
            "zones": self.zones,
            "variables": self.vars,
            "player_variables": self.pvars,
            "stack": self.stack,
            "pending": self.pending,
            "log": [[e[0], log_text(e)] for e in self.log_entries],
            "history": self.history,
            "seen": self.seen,
            "reason": self.reason,
            "know": self.know,
            "pinned": self.pinned,
        }
        if self.faces is not None:  # a game with dice: what each shows
            data["faces"] = self.faces
        return data

    def to_json(self) -> str:
        """The whole state as JSON text (read back with ``GameDef.state_from_json``)."""
        return json.dumps(self.to_data(), separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game is self.game and other.to_data() == self.to_data()

    # A state changes in place, so it has no hash; mypy takes None for a wrong type of the method
    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_json(cls, game, text: str) -> State:
        """A state read back from ``to_json``: every part checked (``saved_state``), StateError in one line."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            message = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:80]
            raise StateError(f"not a saved state: {message}") from None
        check_saved_state(game, data)
        st = State.__new__(State)  # read through a state's own class too: on the VM, a class of its game's
        st.vm, st.fault, st.on_python = None, None, False
        st.game, st.n, st.seed = game, data["players"], data["seed"]
        st._fill(data)
        check_pending(st)
        st._back_to_vm()
        return st


class _OnVm(State):
    """A state while the VM runs it: the Python backend's fields are unset, and a read or a change of one is
    answered by ``_python_field``, so that a state on the Python backend (a plain ``State``) pays nothing for it.

    Those fields alone are properties: any other attribute is a plain slot, read as fast as a ``State``'s (a
    class with ``__getattr__`` would slow every attribute of the API's loop), or what all states of one game at
    one table size share, which never changes while the VM runs them: their game, seats and sight are attributes
    of their own subclass (``of``), so that a copy has fewer fields to set (a tenth of its time).  Its seed and
    fault are its VM's.  A state leaving the VM gets them as its own."""

    __slots__ = ()
    on_python = False  # a state runs on the VM only while it is not on the Python backend for good

    @staticmethod
    def of(game, players: int) -> type[_OnVm]:
        """The class of the states the VM runs of ``game`` at ``players`` seats, made once."""
        found = game.cache.tables.get(players)
        if found is None:
            shared = {"__slots__": (), "game": game, "n": players, "sight": game.sight(players)}
            found = game.cache.tables[players] = type("_OnVm", (_OnVm,), shared)
        return found

    def clone(self, log: bool = True) -> State:
        """``State.clone`` of the VM's state, which it copies on write: a new object over it is most of the cost,
        so ``_running``'s two lines are written out here (a call would cost a fifth of a copy), and the class is
        ``type(self)``, read faster than ``self.__class__``."""
        copy = type(self)()
        copy.vm = self.vm.clone() if log else self.vm.clone_without_log()
        return copy

    @property
    def seed(self) -> int:
        """The seed of the game, or of the copy it was dealt as."""
        return self.vm.seed

    @seed.setter
    def seed(self, value: int) -> None:
        _changed(self, "seed", value)

    @property
    def fault(self) -> Diagnostic | None:
        """The rule error that stopped the game: its VM state's."""
        found = self.vm.fault
        return None if found is None else Diagnostic(*found)

    @fault.setter
    def fault(self, value: Diagnostic | None) -> None:
        _changed(self, "fault", value)


def _python_field(name: str) -> property:
    """Field ``name`` of the Python backend on a state the VM runs (it is then not set): one never changed in place
    is read from ``for_reading``; any other may be changed by the caller, so the game runs on in Python; a change
    of any of them likewise."""
    slot = State.__dict__[name]

    def read(self: State) -> Any:
        if self.vm is None:  # a state being made, or failed: the field as it is (unset: AttributeError)
            return slot.__get__(self, State)
        if name in _LOOKS:
            return getattr(self.for_reading(), name)
        self._leave_vm()
        return slot.__get__(self, State)

    def change(self: State, value: Any) -> None:
        _changed(self, name, value)

    return property(read, change, doc=f"the Python backend's ``{name}``")


def _changed(state: State, name: str, value: Any) -> None:
    """Field ``name`` of a state the VM runs set by hand: the game runs on in Python with the change (the VM
    reads no field of a state)."""
    if getattr(state, "vm", None) is not None:  # unset while a state is being made
        state._leave_vm()
    State.__dict__[name].__set__(state, value)


for _name in _FIELDS:
    setattr(_OnVm, _name, _python_field(_name))
