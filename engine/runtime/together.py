"""Simultaneous decisions: several seats choose in secret, in any order, and the choices are revealed together.

``x = choose … by each p in SEATS simultaneously`` suspends once, with one pending
decision for all of SEATS.  Beside the usual keys of a pending decision it holds

    "together": {"seats": [seat, …], "ids": [[id, …] per seat], "values": [[value, …] per seat],
                 "chosen": [option index or None, per seat]}

and ``player``/``ids``/``values`` are those of the seat *asked next*: a seat still to
act, the lowest one in a live game (a copy made for a seat asks that seat first).
So a driver that serves one seat at a time (``current_player``, ``legal_actions()``,
``apply(action)``) needs to know nothing of this; one that serves several asks
``State.to_act`` and passes ``seat=``.  A choice made is kept as an option index
in ``chosen`` until the last seat chose; then the target gets the chosen values,
one per seat in the order of SEATS, and the program goes on.  Nobody reads
``chosen`` on another seat's behalf (see ``sight``).  A plain, single-seat
pending decision has no "together".
"""

from __future__ import annotations

from engine.errors import IllegalAction, RuleFault
from engine.runtime.program import SUSPEND, Choice

__all__ = ["ask_each", "asked_next", "chosen_values", "pick", "to_act", "with_choice"]


def ask_each(choice: Choice, st, asked: list[tuple[int, list]]) -> int:
    """Make the options of every (seat, items) in ``asked`` one pending decision; SUSPEND."""
    if not asked:
        raise RuleFault(f'nobody is to choose "{choice.what}"')
    ids, values = [], []
    for seat, items in asked:
        choice.ask(st, items, seat)  # one seat's options, checked as a single choice's are
        ids.append(st.pending["ids"])
        values.append(st.pending["values"])
    seats = [seat for seat, _ in asked]
    if len(set(seats)) != len(seats):
        raise RuleFault(f'a player is asked twice to choose "{choice.what}" at the same time')
    pending = dict(st.pending)
    pending["together"] = {"seats": seats, "ids": ids, "values": values, "chosen": [None] * len(seats)}
    st.pending = asked_next(pending)
    return SUSPEND


def to_act(pending: dict | None) -> list[int]:
    """The seats still to choose, lowest first (empty when no decision is pending)."""
    if pending is None:
        return []
    together = pending.get("together")
    if together is None:
        return [pending["player"]]
    return sorted(s for s, c in zip(together["seats"], together["chosen"]) if c is None)


def asked_next(pending: dict, player: int | None = None) -> dict:
    """``pending`` asking ``player`` (default: the lowest seat still to act) with that seat's options."""
    together = pending["together"]
    if player is None:
        player = min(to_act(pending))
    i = together["seats"].index(player)
    return dict(pending, player=player, ids=together["ids"][i], values=together["values"][i])


def with_choice(pending: dict, seat: int, index: int | None) -> dict:
    """``pending`` after ``seat`` chose option ``index`` (None: forget its choice), asking the next seat."""
    together = pending["together"]
    chosen = list(together["chosen"])
    chosen[together["seats"].index(seat)] = index
    out = dict(pending, together=dict(together, chosen=chosen))
    return asked_next(out) if to_act(out) else out


def chosen_values(pending: dict) -> list:
    """The values every seat chose, in the order of the seats (once all have)."""
    together = pending["together"]
    return [values[c] for values, c in zip(together["values"], together["chosen"])]


def pick(pending: dict, action: str, seat: int | None) -> tuple[int, int]:
    """(seat, option index) of ``action``; IllegalAction naming only who still decides.

    Without a seat, the action is the one seat's still to act that offers it (so a list of actions
    replays alone); where several or none offer it, the asked seat's.
    """
    together = pending["together"]
    waiting = to_act(pending)
    if seat is None:
        offering = [s for s in waiting if action in together["ids"][together["seats"].index(s)]]
        seat = offering[0] if len(offering) == 1 else pending["player"]
    if seat not in waiting:
        who = ", ".join(str(s) for s in waiting)
        done = "has chosen already" if seat in together["seats"] else "cannot act now"
        raise IllegalAction(f"seat {seat} {done}: seat{'s' if len(waiting) > 1 else ''} {who} still deciding")
    ids = together["ids"][together["seats"].index(seat)]
    try:
        return seat, ids.index(action)
    except ValueError:
        raise IllegalAction.not_legal(action, seat, ids) from None
