"""One game at the table: seats, keys, bots, undo, reload, and what each seat is sent.

No web framework here (app.py adds the routes), so the session logic is
tested directly.  Every message for a seat is built from ``state.view(seat)``
and from the game's static definition; the few extras (a candidate run's
path, the highlighted piles, scores while playing) are computed on the seat's
determinized copy, which holds nothing that seat may not know.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path

from engine.errors import IllegalAction, RulesError, RuntimeRuleError, StateError, TabletopError
from engine.lang.types import PLAYER
from engine.runtime import rng, together
from engine.ui.options import (
    DETERMINIZE_SEED,
    card_face,
    describe_options,
    hint_function,
    ring_highlight,
    traced_path,
)
from engine.web import draw
from engine.web.draw import Hints


class Refusal(TabletopError):
    """A request the table turns down; its message is sent back as is."""


# ------------------------------------------------------------------ the table
class Table:
    """The game being played, its seats and their keys; every change bumps ``version``."""

    def __init__(
        self,
        source: str,
        variant: str | None = None,
        players: int | None = None,
        seed: int | None = None,
        bots: dict[int, str] | None = None,
        keys: dict | None = None,
    ):
        from engine.runtime.gamedef import load_game

        self.source, self.variant = source, variant
        self.seed = rng.fresh_seed() if seed is None else seed  # the first game's; "New game" draws a fresh one
        self.game = load_game(source, variant)
        self.players = players or self.game.min_players
        if not self.game.min_players <= self.players <= self.game.max_players:
            raise Refusal(
                f"{self.game.id} is for {self.game.min_players}–{self.game.max_players} players, not {self.players}"
            )
        self.bots = dict(bots or {})
        keys = keys or {}  # a table brought back keeps its links (``keys()``)
        self.host_key = keys.get("host") or secrets.token_urlsafe(24)
        seat_keys = {int(s): k for s, k in (keys.get("seats") or {}).items()}
        self.seat_keys = {
            seat: seat_keys.get(seat) or secrets.token_urlsafe(24)
            for seat in range(self.players)
            if seat not in self.bots
        }
        self.spectator_key = keys.get("spectator") or secrets.token_urlsafe(24)
        self.undo_request: dict | None = None  # a seat's wish to take back its last move: {by, accepted}
        self.redo: list[str] = []
        self.problems: list[str] = []
        self.notice = ""
        self.version = 0
        self.keeper: Callable[[Table], None] | None = None  # told of every change (a lobby keeping the table)
        self.decision_number = 0  # of the decision asked now: a move names it, so a stale move is refused
        self.stopped = ""  # the located rule error play stopped on: the game pauses before it until a restart
        self.folders = self._folders()
        self.mtimes = self._mtimes()
        self._restart([])

    # ------------------------------------------------------------- keys
    def keys(self) -> dict:
        """The table's links' keys, as a table brought back after a restart takes them (``keys=``)."""
        return {
            "host": self.host_key,
            "spectator": self.spectator_key,
            "seats": {str(s): k for s, k in self.seat_keys.items()},
        }

    def _changed(self) -> None:
        """Every change: the pages see a new version, and a keeper (a lobby's folder) keeps the table."""
        self.version += 1
        if self.keeper is not None:
            self.keeper(self)

    def resume(self, actions: list[str]) -> None:
        """Go on with the game from the table's seed after ``actions`` (a saved game brought back)."""
        self._restart(actions)

    def is_host(self, key: str) -> bool:
        """Is ``key`` the host's (the table's link, printed for whoever runs the server)?"""
        return isinstance(key, str) and secrets.compare_digest(key, self.host_key)

    def is_spectator(self, key: str) -> bool:
        """Is ``key`` the onlookers' link (it sees what is public and acts for no seat)?"""
        return isinstance(key, str) and secrets.compare_digest(key, self.spectator_key)

    def seats_of(self, key: str) -> list[int]:
        """The human seats a key may act for: all of them for the host (hot-seat), none for an onlooker, else
        its one seat."""
        if self.is_host(key):
            return sorted(self.seat_keys)
        if self.is_spectator(key):
            return []
        for seat, k in self.seat_keys.items():
            if isinstance(key, str) and secrets.compare_digest(key, k):
                return [seat]
        raise Refusal("unknown key: open the link the server printed")

    # ------------------------------------------------------------- play
    def _agents(self):
        from engine.bots import make_agent

        return {seat: make_agent(kind, seed=rng.derive(self.seed, "bot", seat)) for seat, kind in self.bots.items()}

    def _apply(self, action: str, seat: int | None = None) -> None:
        """Apply one action (of ``seat``, or the seat asked), recording the path it traces (for the trails drawn
        on plane boards).

        On a rule error (RuntimeRuleError, raised on), scoring included, ``state`` is the game as it was
        before the action, which can still be shown, undone and saved: the failed one has no next
        decision, so it would end with a made-up result.

        The decision number moves on once the decision is taken: one seat of several choosing at once
        leaves the others answering the same decision.
        """
        state = self.state
        asked, done = state.to_act, len(state.history)
        seat = state.current_player if seat is None else seat
        path = self._run_of(state, seat, action)
        try:
            state.apply(action, seat=seat)
            # Scored at once (the end with its tie-breakers): a scoring rule that fails then stops the game
            # at this move, instead of failing every message to the pages from now on.
            _ = state.outcome if state.is_terminal else state.scores
        except RuntimeRuleError:
            self._rewind(done)
            raise
        if path is not None:
            _extend(self.trails, seat, path["points"])
        if len(asked) == 1:
            self.decision_number += 1

    def _run_of(self, state, seat: int, action: str) -> dict | None:
        """The run ``action`` of ``seat`` takes on a plane board, if its kind of decision draws one."""
        pending = state.pending if seat in state.to_act else None
        if pending is not None and "together" in pending:
            pending = together.asked_next(pending, seat)
        if (
            pending is None
            or action not in pending["ids"]
            or pending["kind"] not in (self.game.draw.get("paths") or {})
        ):
            return None
        value = pending["values"][pending["ids"].index(action)]
        return traced_path(state.determinized(seat, DETERMINIZE_SEED), seat, pending["kind"], value)

    def replayed(self, actions: list[str]):
        """The game from the table's seed after ``actions`` (bots not asked, no runs drawn)."""
        state = self.game.new_game(players=self.players, seed=self.seed)
        for action in actions:
            state.apply(action)
        return state

    def past(self, index: int) -> tuple:
        """The game as it was after its first ``index`` actions, with the runs drawn by then: (state, trails)."""
        state = self.game.new_game(players=self.players, seed=self.seed)
        trails: dict[int, list[str]] = {}
        for entry in [e for e in self.state.history if "action" in e][:index]:
            path = self._run_of(state, entry["seat"], entry["action"])
            state.apply(entry["action"], seat=entry["seat"])
            if path is not None:
                _extend(trails, entry["seat"], path["points"])
        return state, trails

    def _stop(self, exc: RuntimeRuleError) -> None:
        """Pause the game on a rule error: every page shows where it is, until a restart (undo, new game,
        open a save, changed rules)."""
        self.stopped = exc.diagnostic.format(with_context=False)

    def _run_bots(self) -> None:
        from engine.lab.simulate import bot_inputs

        while not self.stopped and (
            bots := [s for s in self.state.to_act if s in self.agents]
        ):  # a bot may bid before a human who is still thinking
            seat = bots[0]
            agent = self.agents[seat]
            try:
                self._apply(agent.act(*bot_inputs(self.state, seat, agent, len(self.state.history))), seat)
            except RuntimeRuleError as exc:
                self._stop(exc)

    def _restart(self, actions: list[str]) -> None:
        """A new game from the seed, replaying ``actions`` (raises IllegalAction if they no longer fit)."""
        self.state = self.game.new_game(players=self.players, seed=self.seed)
        self.trails: dict[int, list[str]] = {}
        self.agents = self._agents()
        self.decision_number += 1  # a game started again asks its decisions anew
        self.stopped = ""
        for action in actions:
            self._apply(action)
        self._run_bots()
        self._changed()

    def _rewind(self, done: int) -> None:
        """Back to the game as it was with the first ``done`` entries of its history (before a failed move)."""
        self.state = self.replayed([e["action"] for e in self.state.history[:done] if "action" in e])

    def _snapshot(self) -> tuple:
        """All that a restart replaces, to put back if it fails: then nothing changed, not even the number of
        the decision asked (the pages' moves still answer it)."""
        return self.game, self.seed, self.state, self.trails, self.agents, self.decision_number, self.stopped

    def _restore(self, snapshot: tuple) -> None:
        self.game, self.seed, self.state, self.trails, self.agents, self.decision_number, self.stopped = snapshot

    def act(self, key: str, seat, action, decision_number) -> None:
        """Take ``action`` for ``seat`` if ``key`` may act for it, it is that seat's turn, and the move answers
        the decision asked now (``decision_number``: two pages of one seat may send a move each at once)."""
        seats = self.seats_of(key)
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats:
            raise Refusal(f"this link cannot act for seat {seat}" if isinstance(seat, int) else "no seat given")
        if not isinstance(action, str):
            raise Refusal("the action must be an option id (text)")
        if not isinstance(decision_number, int) or isinstance(decision_number, bool):
            raise Refusal("a move must name the decision it answers (decision_number)")
        if decision_number != self.decision_number:
            raise Refusal(
                f"this move answers decision {decision_number}, which is no longer asked "
                f"(now decision {self.decision_number}): nothing was done"
            )
        if self.problems:
            raise Refusal("the rules have errors: fix them first")
        if self.stopped:
            raise Refusal("the game stopped on a rule error: fix the rules (they are reloaded), undo or start anew")
        try:
            if seat not in self.state.to_act:
                raise Refusal(f"it is not seat {seat}'s turn")
            self._apply(action, seat)
        except IllegalAction as exc:
            raise Refusal(_first_line(exc)) from None
        except RuntimeRuleError as exc:
            self._stop(exc)
        else:
            self.redo.clear()
            self.notice = ""
            self.undo_request = None  # the table moved on: a wish to take back a move is void
            self._run_bots()
        self._changed()

    def _may_rewind(self, key: str) -> None:
        if not self.is_host(key):
            raise Refusal("only the host's link may undo, redo or start anew: a seat asks the others to undo")

    def _last_move(self, seats) -> int | None:
        """Where the last action of one of ``seats`` is among the actions taken (None: they took none)."""
        history = [e for e in self.state.history if "action" in e]
        return next((i for i in range(len(history) - 1, -1, -1) if history[i]["seat"] in seats), None)

    def _take_back(self, cut: int) -> None:
        """Back to the game before its action ``cut``: the actions from there on may be redone."""
        actions = self.state.actions
        self.redo = actions[cut:] + self.redo
        self.undo_request = None
        self._restart(actions[:cut])

    def undo(self, key: str) -> None:
        """Take back the last human action and the bots' replies to it (the host's link)."""
        self._may_rewind(key)
        cut = self._last_move(set(self.seat_keys))
        if cut is None:
            raise Refusal("nothing to undo")
        self._take_back(cut)

    def can_ask_undo(self, key: str) -> bool:
        """May this link ask to take back its seat's last move (a seat's link, a move of its own, no wish pending)?"""
        seats = self.seats_of(key)
        return (
            len(seats) == 1
            and not self.is_host(key)
            and self.undo_request is None
            and self._last_move(seats) is not None
        )

    def ask_undo(self, key: str) -> None:
        """A seat asks to take back its last move; the other human seats accept or refuse (none: granted)."""
        if not self.can_ask_undo(key):
            raise Refusal("this link cannot ask to undo now (no move of its own, or a request is waiting)")
        self.undo_request = {"by": self.seats_of(key)[0], "accepted": []}
        self._grant_if_all_accepted()
        self._changed()

    def to_answer(self, key: str) -> list[int]:
        """The seats of this link that have still to answer the pending wish to undo."""
        request = self.undo_request
        if request is None:
            return []
        return [s for s in self.seats_of(key) if s != request["by"] and s not in request["accepted"]]

    def answer_undo(self, key: str, accept) -> None:
        """Accept or refuse another seat's wish to undo: one refusal ends it; when all accept, it is done."""
        seats, request = self.to_answer(key), self.undo_request
        if not seats or request is None:
            raise Refusal("no wish to undo is waiting for this link's answer")
        if accept is not True:
            self.undo_request = None
        else:
            request["accepted"] += seats
            self._grant_if_all_accepted()
        self._changed()

    def _grant_if_all_accepted(self) -> None:
        request = self.undo_request
        if request is not None and set(self.seat_keys) - {request["by"]} <= set(request["accepted"]):
            cut = self._last_move({request["by"]})
            if cut is not None:
                self._take_back(cut)

    def redo_one(self, key: str) -> None:
        """Take again the last undone human action and the bots' replies it had."""
        self._may_rewind(key)
        if not self.redo:
            raise Refusal("nothing to redo")
        state = self.state
        first = True
        while self.redo and (first or state.current_player in self.bots):
            self._apply(self.redo.pop(0))
            first = False
        self._run_bots()
        self._changed()

    def new_game(self, key: str) -> None:
        """Deal afresh from a fresh seed (a seed given to the server is its first game's only)."""
        self._may_rewind(key)
        self.redo.clear()
        self.notice = ""
        self.undo_request = None
        self.seed = rng.fresh_seed()
        self._restart([])

    def _host_only(self, key: str, what: str) -> None:
        """Saves are the host's: one holds the seed and every move, from which every hidden card is rebuilt."""
        self.seats_of(key)
        if not self.is_host(key):
            raise Refusal(f"only the table's link may {what}: a save holds every card, hidden ones too")

    def load_save(self, key: str, text) -> None:
        """Continue a saved game of these rules (the page's 'open save'), from the save file's text as is: parsed
        here, not in the page, whose numbers would round a 64-bit seed."""
        self._host_only(key, "open a save")
        from engine.runtime.saves import parse_save

        if not isinstance(text, str):
            raise Refusal("a save is sent as the text of its file")
        try:
            data = parse_save(text, "the save")
        except StateError as exc:
            raise Refusal(str(exc)) from None
        if (data["game"], data["variant"], data["players"]) != (self.game.id, self.game.variant, self.players):
            raise Refusal(f"not a save of this {self.game.id} table ({self.players} players)")
        old = self._snapshot()
        self.seed = data["seed"]
        try:
            self._restart(data["actions"])
        except (IllegalAction, TabletopError) as exc:
            self._restore(old)
            raise Refusal(f"the save does not replay on these rules: {_first_line(exc)}") from None
        self.redo.clear()

    def save_text(self, key: str) -> str:
        """The save file (seed and every action, as a replay rebuilds the game), for the host's link only: sent as
        text that the page writes as is, so a 64-bit seed is never rounded by the page's numbers."""
        self._host_only(key, "save")
        from engine.runtime.saves import save_text

        return save_text(self.state)

    # ------------------------------------------------------------- reload
    def _folders(self) -> list[Path]:
        from engine.load.documents import game_folders

        return [f for f in game_folders(Path(self.game.rules.folder), self.game.id) if f.is_dir()]

    def _mtimes(self) -> dict[str, float]:
        return {str(p): p.stat().st_mtime_ns for folder in self.folders for p in sorted(folder.rglob("*.yaml"))}

    def reload_if_changed(self) -> bool:
        """Reload the rules if a file changed: the game goes on if its actions replay, else it restarts."""
        now = self._mtimes()
        if now == self.mtimes:
            return False
        self.mtimes = now
        from engine.runtime.gamedef import load_game

        try:
            game = load_game(self.source, self.variant)
        except RulesError as exc:
            self.problems = [d.format() for d in exc.diagnostics if d.is_error] or [str(exc)]
            self._changed()
            return True
        except TabletopError as exc:
            self.problems = [str(exc)]
            self._changed()
            return True
        self.problems = []
        old = self._snapshot()
        self.game = game
        actions = self.state.actions
        try:
            self._restart(actions)
            self.notice = "the rules changed; the game goes on"
        except (IllegalAction, StateError, TabletopError) as exc:
            try:
                self._restart([])
            except TabletopError as fresh:  # the new rules cannot even start: keep the old game, show why
                self._restore(old)
                self.problems = [f"the changed rules cannot start a game: {_first_line(fresh)}"]
                self._changed()
                return True
            self.notice = f"the rules changed and the game could not go on ({_first_line(exc)}): new game"
        self.redo.clear()
        return True

    # ------------------------------------------------------------- messages
    def message_for(self, seat: int | None, state=None, trails: dict[int, list[str]] | None = None) -> dict:
        """Everything ``seat`` (None: an onlooker) is shown now, or of the past ``state`` with its ``trails``:
        its view, drawn boards, options explained, cards it sees."""
        state = state if state is not None else self.state
        trails = trails if trails is not None else self.trails
        game = state.game
        view = state.view(seat)
        det = _seat_copy(state, seat) if seat is not None else None
        live = seat is not None and state is self.state and not self.stopped
        options = describe_options(state, seat, view, det) if live and seat is not None else []
        faces: dict[str, dict] = {}
        for cards in view["zones"].values():
            for c in cards:
                if isinstance(c, str) and c not in faces:
                    faces[c] = card_face(game, c)
        for o in options:
            for c in o["cards"]:
                faces.setdefault(c["id"], c)
        return {
            "type": "state",
            "game": game.id,
            "name": game.name,
            "variant": game.variant,
            "seat": seat,
            "bots": {str(s): k for s, k in self.bots.items()},
            "view": view,
            "cards": faces,
            "options": options,
            "boards": self._boards(state, seat, view, det, options, trails),
            "scores": view["scores"] if state.is_terminal else _known_scores(state, seat, det),
            "notice": self.notice,
            "problems": self.problems,
            "can_undo": any(e.get("seat") not in self.bots for e in state.history if "action" in e),
            "undo_request": self.undo_request,
            "can_redo": bool(self.redo),
            "actions_taken": len(state.actions),
            "decision_number": self.decision_number,
            "stopped": self.stopped,
            "table": _layout(state, view, det),
        }

    def _boards(self, state, seat: int | None, view: dict, det, options: list[dict], trails: dict) -> list[dict]:
        game = state.game
        out = []
        ring = game.draw.get("ring")
        if ring:
            order = view["variables"].get(ring["order"]) or []
            tokens: dict[str, list[int]] = {}
            if "tokens" in ring:
                for p, pv in enumerate(view["player_variables"]):
                    tokens.setdefault(pv.get(ring["tokens"]), []).append(p)
            lit = ring_highlight(state, seat, det) if det is not None and seat is not None else set()
            piles = [
                {"zone": z, "count": len(view["zones"].get(z, [])), "top": (view["zones"].get(z) or [None])[-1]}
                for z in order
            ]
            svg = draw.ring_svg(piles, tokens, lit, Hints.merged(game.draw))
            out.append({"id": ring["order"], "svg": svg, "zones": order})
        for family, boards in game.board_files.items():
            per_seat = game.vocabulary.boards.get(family) is PLAYER
            for i, board in enumerate(boards[: state.n] if per_seat else boards[:1]):
                hints = Hints.merged(game.draw, board.draw)
                if hasattr(board, "at"):
                    drawn = {i: trails.get(i, [])} if per_seat else dict(trails)
                    previews = [
                        dict(o["run"], action=o["id"]) for o in options if "run" in o and (not per_seat or i == seat)
                    ]
                    title = f"{family} of seat {i} ({board.id})" if per_seat else board.id
                    out.append(
                        {
                            "id": f"{family}:{i}",
                            "seat": i if per_seat else None,
                            "svg": draw.plane_svg(board, hints, drawn, previews, title, f"{family}:{i}"),
                        }
                    )
                else:
                    out.append(
                        {
                            "id": family,
                            "svg": draw.spaces_svg(
                                board,
                                _pieces(game, family, view),
                                [dict(o["destination"], action=o["id"]) for o in options if "destination" in o],
                                hints,
                            ),
                        }
                    )
        return out


def _status(state, view: dict, det) -> list[dict]:
    """What the game's ``status`` hints say matters now, in words (a seat as "seat 1", a yes as the label alone):
    variables from the seat's view, functions of the seat deciding from the seat's own copy ``det``."""
    game = state.game
    vocab = game.vocabulary
    deciding = view["current_player"]
    out = []
    for hint in game.draw.get("status") or []:
        value, t = None, None
        if "variable" in hint:
            value, t = view["variables"].get(hint["variable"]), vocab.variables[hint["variable"]]
        elif deciding is not None and "player_variable" in hint:
            name = hint["player_variable"]
            value, t = view["player_variables"][deciding].get(name), vocab.player_variables[name]
        elif deciding is not None and det is not None and "function" in hint:
            t = vocab.functions[hint["function"]][1]
            value = hint_function(game, hint["function"], det, deciding, deciding)
        if value is None or value is False or value == []:
            continue
        shown = "" if value is True else value if t is None or t.is_list else game.labeller.for_type(t)(value)
        out.append({"label": hint["label"], "value": shown if isinstance(shown, str) else str(shown)})
    return out


def _layout(state, view: dict, det) -> dict:
    """Where things sit at the table: each zone's owner (None: the middle) or the board it is drawn on, the
    teams, what matters now (``_status``), and the cards the seat was shown last."""
    game = state.game
    on_boards = {f for f, fam in game.zone_families.items() if fam.key in game.board_files}
    ring = game.draw.get("ring")
    drawn = set(view["variables"].get(ring["order"]) or []) if ring else set()
    seen = view["seen"][-1]["cards"] if view["seen"] else []
    return {
        "owners": {z: game.zone_owner(z) for z in view["zones"]},
        "drawn": sorted(z for z in view["zones"] if z.partition(":")[0] in on_boards or z in drawn),
        "status": _status(state, view, det),
        "teams": [list(game.team(state.n, p)) for p in range(state.n)],
        "shown": [card for _, card in seen],
    }


def _extend(trails: dict[int, list[str]], seat: int, points: list[str]) -> None:
    """Add a run's points to ``seat``'s trail (a run starting where the trail ends joins it)."""
    trail = trails.setdefault(seat, [])
    trail += points[1:] if trail and points and trail[-1] == points[0] else points


def _seat_copy(state, seat: int, seed: int = DETERMINIZE_SEED):
    """``seat``'s determinized copy, or None if the rules admit none (``knowledge.determinize``: the page then
    goes without the extras computed on it: runs, highlighted piles)."""
    try:
        return state.determinized(seat, seed)
    except StateError:
        return None


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _pieces(game, family: str, view: dict) -> dict[str, list[dict]]:
    spaces = [f for f, fam in game.zone_families.items() if fam.key == family]
    out = {}
    for zone, cards in view["zones"].items():
        name, _, space = zone.partition(":")
        if name in spaces and cards:
            faces = [card_face(game, c) if isinstance(c, str) else None for c in cards]
            out[space] = [
                {"id": f["id"], "label": f["name"], "colour": f["colour"], "icon": f["icon"]}
                if f
                else {"id": "", "label": "?", "colour": draw.NEUTRAL, "icon": "?"}
                for f in faces
            ]
    return out


def _known_scores(state, seat: int | None, det) -> list[int | None]:
    """Scores as far as ``seat`` can tell: a seat's score where its copy ``det`` and a second, differently
    dealt copy agree, else None.

    Computed only on determinized copies, so a score never reveals a hidden card.
    """
    other = _seat_copy(state, seat, DETERMINIZE_SEED + 1) if det is not None and seat is not None else None
    if other is None:
        return [None] * state.n
    return [x if x == y else None for x, y in zip(det.scores, other.scores)]
