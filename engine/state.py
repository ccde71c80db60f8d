"""The running game: plain-data state and the interpreter loop.

A ``State`` holds only what changes: zones (lists of card indexes, top last),
variables, the generator's one-int state, the stack of program frames
``[procedure, pc, locals]``, the pending decision, the log and the action
history.  Everything is JSON-ready at every decision point, including in the
middle of a card effect.  The game's rules live in the shared ``GameDef``.
"""
from __future__ import annotations

import json
from typing import Any

from . import rng
from .dsl.compiler import NEXT, SUSPEND
from .errors import (BudgetExceeded, Diagnostic, IllegalAction, RuleFault, RuntimeRuleError, StateError,
                     TabletopError, plain_reason)

FORMAT = 1


def _copy(value: Any) -> Any:
    """Copy plain data (dicts and lists of scalars, nested)."""
    if isinstance(value, list):
        return [_copy(v) if isinstance(v, (list, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value


class State:
    """One game in progress.  Create with ``GameDef.new_game``."""

    __slots__ = ("game", "n", "seed", "zones", "loc", "vars", "pvars", "rng", "stack", "pending",
                 "log_entries", "history", "seen", "fault", "memo")

    # ---------------------------------------------------------------- create
    @classmethod
    def new(cls, game, players: int, seed: int = 0) -> "State":
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise TabletopError(f"{game.id} is for {game.min_players}–{game.max_players} players, not {players}")
        st = cls.__new__(cls)
        st.game, st.n, st.seed = game, players, int(seed)
        st.zones = {z: [] for z in game.zone_ids(players)}
        st.loc = [""] * len(game.card_ids)
        st.vars = _copy(game.variables)
        st.pvars = [_copy(game.player_variables) for _ in range(players)]
        st.rng = rng.seed_state(int(seed))
        st.stack = [["play", 0, {"me": 0}]]
        if "setup" in game.procedures:
            st.stack.append(["setup", 0, {"me": 0}])
        st.pending = None
        st.log_entries, st.history, st.fault, st.memo = [], [], None, {}
        st.seen = [[] for _ in range(players)]
        for index, start in enumerate(game.starts):
            zone = None
            try:
                zone = start(st, {"it": index, "me": 0})
                st.zones[zone].append(index)
            except (RuleFault, KeyError, TypeError) as exc:
                message = f"there is no zone '{zone}'" if isinstance(exc, KeyError) else str(exc)
                raise st._fault(Diagnostic(game.rules.documents[0].path, 1, 1, "E701",
                                           f"cannot place '{game.card_ids[index]}' at the start: {message}"))
            st.loc[index] = zone
        st._run()
        return st

    # ----------------------------------------------------------- inspection
    @property
    def current_player(self) -> int | None:
        """The seat that must decide now; None when the game is over."""
        return self.pending["player"] if self.pending is not None else None

    @property
    def is_terminal(self) -> bool:
        return self.pending is None

    def legal_actions(self) -> list[str]:
        """Stable action ids the current player may choose from (empty when over)."""
        return list(self.pending["ids"]) if self.pending is not None else []

    @property
    def log(self) -> list[str]:
        """Events everyone saw, oldest first."""
        return [text for audience, text in self.log_entries if audience is None]

    @property
    def scores(self) -> list[int]:
        """Each seat's own points by the scoring rules (teams add theirs up in ``winners``)."""
        return [self.score_of(p) for p in range(self.n)]

    def score_of(self, p: int) -> int:
        """Seat ``p``'s points by the scoring rules."""
        return sum(self._evaluate(s, p) for s in self.game.scoring)

    def _evaluate(self, scorer, p: int) -> int:
        """A scoring term or tie-breaker for seat ``p``; a failing rule is a RuntimeRuleError at its line."""
        self.memo.clear()
        try:
            return scorer.fn(self, {"p": p, "me": p})
        except TabletopError:
            raise
        except Exception as exc:  # RuleFault, or a rule asking for the impossible (e.g. endless recursion)
            path, line, col = scorer.where
            raise RuntimeRuleError(Diagnostic(path, line, col, "E701", f"'{scorer.id}' failed for seat {p}: "
                                                                       f"{plain_reason(exc)}")) from None

    @property
    def winners(self) -> list[int]:
        """Seats that won (several on a shared win or a team); empty until the end."""
        if not self.is_terminal:
            return []
        game = self.game
        per_seat = [[self.score_of(p)] + [self._evaluate(t, p) for t in game.tiebreakers]
                    for p in range(self.n)]
        keys = [tuple(sum(per_seat[m][i] for m in game.team_of(self.n, p)) for i in range(len(per_seat[p])))
                for p in range(self.n)]
        best = max(keys)
        return [p for p in range(self.n) if keys[p] == best]

    # ----------------------------------------------------------------- play
    def apply(self, action: str, seat: int | None = None) -> None:
        """Play ``action``; raises IllegalAction (state unchanged) if it is not legal now."""
        if self.fault is not None:
            raise StateError(f"this game stopped on a rule error: {self.fault.format(with_context=False)}")
        pending = self.pending
        if pending is None:
            raise IllegalAction("the game is over; no action is legal")
        player = pending["player"]
        if seat is not None and seat != player:
            raise IllegalAction(f"seat {seat} cannot act now: seat {player} is deciding", pending["ids"])
        try:
            i = pending["ids"].index(action)
        except ValueError:
            raise IllegalAction.not_legal(action, player, pending["ids"]) from None
        frame = self.stack[-1]
        proc = self.game.procedures[frame[0]]
        proc.choices[frame[1]](self, frame[2], pending["values"][i])
        frame[1] += 1
        self.pending = None
        self.history.append(action)
        if pending.get("secret"):
            verb = action.split(" ", 1)[0]
            self.log_entries.append([None, f"seat {player}: {verb} …"])
            self.log_entries.append([player, f"seat {player}: {action}"])
        else:
            self.log_entries.append([None, f"seat {player}: {action}"])
        self._run()

    def randbelow(self, n: int) -> int:
        value, self.rng = rng.below(self.rng, n)
        return value

    def _run(self) -> None:
        """Run the programs until a decision is pending or the game ends."""
        procedures = self.game.procedures
        stack = self.stack
        budget = self.game.step_budget
        memo = self.memo
        steps = 0
        while stack:
            frame = stack[-1]
            proc = procedures[frame[0]]
            code, env, pc = proc.code, frame[2], frame[1]
            last = pc
            try:
                while pc >= 0:
                    steps += 1
                    if steps > budget:
                        raise BudgetExceeded(self._where(proc, pc, "E703",
                                                         f"step budget of {budget} exhausted in '{proc.name}': "
                                                         f"does a loop never end?"))
                    last = pc
                    if memo:
                        memo.clear()
                    pc = code[pc](self, env)
            except RuleFault as exc:
                raise self._fault(self._where(proc, last, "E701", f"{exc} (in '{proc.name}')"))
            except BudgetExceeded as exc:
                self.fault = exc.diagnostic
                raise
            except TabletopError:
                raise
            except Exception as exc:  # a rule asked for something impossible (e.g. none + 1)
                raise self._fault(self._where(proc, last, "E702",
                                              f"rule failed in '{proc.name}': {plain_reason(exc)}"))
            if pc == SUSPEND:
                memo.clear()
                return
            # NEXT: a call or return changed the stack; read the new top frame.

    def _where(self, proc, pc: int, code: str, message: str) -> Diagnostic:
        line, col = proc.where[pc] if 0 <= pc < len(proc.where) else (1, 1)
        if proc.locate is not None:
            line, col = proc.locate(line, col)
        return Diagnostic(proc.source_path, line, col, code, message)

    def _fault(self, diagnostic: Diagnostic) -> RuntimeRuleError:
        self.fault = diagnostic
        return RuntimeRuleError(diagnostic)

    # ---------------------------------------------------------------- views
    def view(self, seat: int) -> dict:
        """What ``seat`` may know now, as plain data."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise TabletopError(f"no seat {seat!r}: seats are 0…{self.n - 1}")
        game = self.game
        ids, kinds, backs = game.card_ids, game.card_kinds, game.backs
        attributes = game.attributes

        def back(card: int):
            shown = backs.get(kinds[card])
            return {a: attributes[a][card] for a in shown} if shown else None

        zones = {}
        for zone, cards in self.zones.items():
            fam = game.zone_family(zone)
            vis = fam.visibility
            if vis == "public" or (vis == "owner" and game.zone_owner(zone) == seat):
                zones[zone] = [ids[c] for c in cards]
            elif vis == "top" and cards:
                zones[zone] = [back(c) for c in cards[:-1]] + [ids[cards[-1]]]
            else:
                zones[zone] = [back(c) for c in cards]
        private = game.private_player_variables
        vocab = game.vocabulary
        shown_var = game.labeller.plain_for_type
        players = [{k: shown_var(vocab.player_variables[k])(v) for k, v in pv.items() if p == seat or k not in private}
                   for p, pv in enumerate(self.pvars)]
        decision = None
        if self.pending is not None:
            decision = {"player": self.pending["player"]}
            if self.pending["player"] == seat:
                decision["actions"] = list(self.pending["ids"])
        out = {
            "game": game.id, "variant": game.variant, "players": self.n, "seat": seat,
            "current_player": self.current_player, "is_terminal": self.is_terminal,
            "decision": decision, "zones": zones,
            "variables": {k: shown_var(vocab.variables[k])(v) for k, v in self.vars.items()},
            "player_variables": players,
            "log": [text for audience, text in self.log_entries if audience is None or audience == seat],
            "seen": _copy(self.seen[seat]),
        }
        if self.is_terminal:
            out["scores"] = self.scores
            out["winners"] = self.winners
        return out

    def hidden_from(self, seat: int) -> list[tuple[str, int]]:
        """(zone, position) of every card whose face ``seat`` cannot see."""
        slots = []
        zones = self.zones
        for zone, top_shown in self.game.zones_hidden_from(self.n, seat):
            cards = zones[zone]
            slots += [(zone, i) for i in range(len(cards) - 1 if top_shown else len(cards))]
        return slots

    def determinized(self, seat: int, seed: int) -> "State":
        """A copy in which every card hidden from ``seat`` is dealt again at random.

        Cards only trade places with hidden cards that look the same from the back
        (same kind and back attributes), so the copy agrees with everything
        ``seat`` can see; a bot that reasons on it knows no more than its view.
        """
        import random
        game = self.game
        c = self.clone()
        groups: dict[tuple, list[tuple[str, int]]] = {}
        for zone, i in self.hidden_from(seat):
            card = self.zones[zone][i]
            kind = game.card_kinds[card]
            back = tuple(game.attributes[a][card] for a in game.backs.get(kind, ()))
            groups.setdefault((kind, back), []).append((zone, i))
        shuffler = random.Random(seed)
        for slots in groups.values():
            cards = [self.zones[z][i] for z, i in slots]
            shuffler.shuffle(cards)
            for (z, i), card in zip(slots, cards):
                c.zones[z][i] = card
                c.loc[card] = z
        return c

    # ----------------------------------------------------- copy and persist
    def clone(self) -> "State":
        """An independent copy (plain-data copy, no replay)."""
        c = State.__new__(State)
        c.game, c.n, c.seed, c.rng = self.game, self.n, self.seed, self.rng
        c.zones = {k: v[:] for k, v in self.zones.items()}
        c.loc = self.loc[:]
        c.vars = _copy(self.vars)
        c.pvars = [_copy(p) for p in self.pvars]
        c.stack = [[f[0], f[1], _copy(f[2])] for f in self.stack]
        c.pending = _copy(self.pending)
        c.log_entries = self.log_entries[:]
        c.history = self.history[:]
        c.seen = [s[:] for s in self.seen]  # entries are never changed once made
        c.fault = self.fault
        c.memo = {}
        return c

    def to_data(self) -> dict:
        return {
            "format": FORMAT, "game": self.game.id, "variant": self.game.variant, "rules": self.game.rules_hash,
            "players": self.n, "seed": self.seed, "rng": self.rng, "zones": self.zones, "variables": self.vars,
            "player_variables": self.pvars, "stack": self.stack, "pending": self.pending,
            "log": self.log_entries, "history": self.history, "seen": self.seen,
        }

    def to_json(self) -> str:
        """The whole state as JSON text (read back with ``GameDef.state_from_json``)."""
        return json.dumps(self.to_data(), separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game is self.game and other.to_data() == self.to_data()

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_json(cls, game, text: str) -> "State":
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise StateError(f"not a saved state: {exc}") from None
        from .state_check import check_saved_state
        check_saved_state(game, data)
        st = cls.__new__(cls)
        st.game, st.n, st.seed, st.rng = game, data["players"], data["seed"], data["rng"]
        st.zones = {z: list(cards) for z, cards in data["zones"].items()}
        st.loc = [""] * len(game.card_ids)
        for zone, cards in st.zones.items():
            for c in cards:
                st.loc[c] = zone
        st.vars, st.pvars = data["variables"], data["player_variables"]
        st.stack, st.pending = data["stack"], data["pending"]
        st.log_entries, st.history, st.fault, st.memo = data["log"], data["history"], None, {}
        st.seen = data["seen"]
        return st
