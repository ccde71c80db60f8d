"""What each seat may know: the one model every channel a seat reads is derived from.

A seat may know
- the faces of the cards in zones it sees (public zones, its own zones, the
  top of a ``top`` zone), the backs of all others, and what it was shown;
- every game variable, every player variable but another seat's private ones;
- the log lines addressed to everyone, to it, or to everyone but another seat;
- every decision taken, but not the option another seat chose secretly
  (only who chose, and what kind of choice it was) — except the choices
  of a simultaneous decision once all are made: they are shown together;
- who is deciding now and what kind of decision it is — never another
  seat's options; of a simultaneous decision, which seats have still to
  choose — a seat that chose shows only that it did, never what;
- every chance event (a shuffle, a random draw's index): their results show
  only through the zones above; a die rolled in a zone it does not see is
  in its history without the face (``_as_seen``);
- which die is where, always, and the face of a die only if it saw the roll
  or the die since (``Sight.rolled``: ``know`` of a die is who knows its face).

It also remembers where cards are: ``know[card]`` is a bit mask of the seats
that know which zone a card is in (they saw it there, or saw it move there),
``pinned[card]`` of those that also know its place in that zone (a shuffle
or a sort forgets it).  One ``Sight`` per game and table size holds which
faces each seat sees, and is the one place that changes ``know`` and
``pinned`` as cards move.  ``view``, ``visible_log``, ``history_for``,
``decision_for`` and ``determinize`` below are the only readers of a state on
a seat's behalf; errors name only the deciding seat.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cache
from typing import Any

from engine.errors import RuntimeRuleError, StateError
from engine.lang.types import CARD, Type, list_of
from engine.runtime import rng, together
from engine.runtime.logtext import log_text


class Sight:
    """Which faces each seat sees in a game at one table size, and how what each knows of the cards changes.

    One per (game, players) (``GameDef.sight``), read by ``view``, by the hidden zones a copy deals again
    (``hidden_from``) and by the moves of cards: ``State.move``, ``reordered`` and ``shown`` leave the
    bookkeeping of ``know`` and ``pinned`` to it.  A state made with ``knowledge=False`` has neither, and
    nothing is followed.
    """

    __slots__ = ("everyone", "hidden", "masks", "tops")

    def __init__(self, game, n: int):
        self.everyone = everyone = (1 << n) - 1
        masks: dict[str, int] = {}  # zone → bit mask of the seats that see the faces of its cards
        tops = set()  # zones whose top card everyone sees
        for zone in game.zone_ids(n):
            vis = game.zone_family(zone).visibility
            if vis == "public":
                masks[zone] = everyone
            elif vis == "owner":
                owner = game.zone_owner(zone)
                masks[zone] = 1 << owner if owner is not None else 0
            else:
                masks[zone] = 0
                if vis == "top":
                    tops.add(zone)
        self.masks, self.tops = masks, frozenset(tops)
        # per seat: (zone, top face up?) of every zone whose cards it may not all see
        self.hidden = [[(z, z in tops) for z, mask in masks.items() if not mask >> seat & 1] for seat in range(n)]

    def hidden_from(self, seat: int) -> list[tuple[str, bool]]:
        """(zone, top face up?) for every zone whose cards ``seat`` may not all see."""
        return self.hidden[seat]

    def face_down(self, zone: str, count: int, seat: int | None) -> int:
        """How many of the ``count`` cards of ``zone``, from the bottom, ``seat`` (None: an onlooker, who sees
        what everyone sees) sees only the backs of."""
        if self.masks[zone] == self.everyone if seat is None else self.masks[zone] >> seat & 1:
            return 0
        return count - 1 if zone in self.tops and count else count

    def placed(self, zones: dict[str, list[int]], cards: int) -> list[int]:
        """Who knows each card once all are where they start: those who see its zone (all, a ``top`` card)."""
        masks, everyone = self.masks, self.everyone
        know = [0] * cards
        for zone, here in zones.items():
            for c in here:
                know[c] = masks[zone]
            if zone in self.tops and here:
                know[here[-1]] = everyone
        return know

    def moved(self, st, card: int, source: str, to: str, on_top: bool) -> None:
        """``card`` went from ``source`` to ``to`` (on top, or at the bottom): who knows it, and what is known
        of the cards left behind.

        Everyone sees a card move; only those who knew the card's place (or see
        where it lands) know which card it is.  The others can no longer be
        sure of any card in the zone it left whose place they did not know: it
        may be the one that left.  A card laid on a ``top`` zone is seen by all,
        and so is the card a move uncovers there.

        ``settled[zone]`` holds seats known to be sure of no card there whose place they do not
        know: a draw from a hidden pile forgets for them at once, not card by card (a deck of 100 was
        walked at every draw).  It only saves work: an empty ``settled`` gives the same sight.
        """
        know, pinned = st.know, st.pinned
        if know is None or pinned is None:  # not followed (``State.new(knowledge=False)``)
            return
        masks, tops, everyone = self.masks, self.tops, self.everyone
        seen_by_all = to in tops and (on_top or len(st.zones[to]) == 1)
        known = everyone if seen_by_all else pinned[card] | masks[to]
        unsure = everyone & ~known & ~masks[source]
        cards = st.zones[source]
        if unsure:
            settled = st.settled
            done = settled.get(source, 0)
            if unsure & ~done:
                for c in cards:
                    if know[c] & unsure:
                        know[c] &= ~unsure | pinned[c]
                settled[source] = done | unsure
        know[card] = pinned[card] = known
        if cards and source in tops:
            know[cards[-1]] = pinned[cards[-1]] = everyone

    def moved_all(self, st, cards: list[int], to: str) -> None:
        """``cards`` were laid on ``to`` in their order: they come with what seats knew of them, and those
        who see ``to`` know them now."""
        know, pinned = st.know, st.pinned
        if know is None or pinned is None:
            return
        seeing = self.masks[to]
        for card in cards:
            know[card] |= seeing
            pinned[card] |= seeing
        st.settled.pop(to, None)  # the cards come with what seats half-knew of them
        if cards and to in self.tops:  # its new top card is seen by all
            top = st.zones[to][-1]
            know[top] = pinned[top] = self.everyone

    def reordered(self, st, zone: str) -> None:
        """``zone`` was shuffled or sorted: nobody who cannot see it knows the places of its cards any more."""
        know, pinned = st.know, st.pinned
        if know is None or pinned is None:
            return
        cards = st.zones[zone]
        seeing = self.masks[zone]
        for c in cards:
            pinned[c] = seeing
        if zone in st.settled:  # seats that knew places here and not any more may now be unsure
            st.settled[zone] &= seeing
        if zone in self.tops and cards:
            know[cards[-1]] = pinned[cards[-1]] = self.everyone

    def rolled(self, st, die: int) -> int:
        """``die`` was rolled where it lies: those who see its zone (all, on top of a ``top`` zone) see its new
        face, and nobody else knows it; gives their bit mask."""
        zone = st.loc[die]
        seeing = self.everyone if zone in self.tops and st.zones[zone][-1] == die else self.masks[zone]
        if st.know is not None and st.pinned is not None:
            st.know[die] = st.pinned[die] = seeing
        return seeing

    @staticmethod
    def shown(st, cards: list[int], seat: int) -> None:
        """``seat`` was shown ``cards``: it knows them and where they lie."""
        know, pinned = st.know, st.pinned
        if know is None or pinned is None:
            return
        bit = 1 << seat
        for c in cards:
            know[c] |= bit
            pinned[c] |= bit


def hears(audience: int | None, seat: int | None) -> bool:
    """Whether ``seat`` (None: an onlooker) reads a log line addressed to ``audience``: None is everyone,
    a seat that seat alone, ``~seat`` everyone but that seat (the masked line of a secret choice, which
    its chooser reads in full instead: once, not twice)."""
    if audience is None:
        return True
    if audience < 0:
        return seat is None or audience != ~seat
    return audience == seat


def visible_log(state, seat: int | None) -> list[str]:
    """Log lines ``seat`` saw (None: an onlooker), oldest first."""
    return [log_text(e) for e in state.log_entries if hears(e[0], seat)]


def _as_seen(entry: dict, seat: int | None, revealed: bool = True) -> dict:
    """``entry`` itself if ``seat`` may see all of it, else its masked copy (a copy's history shares the
    entries it may see: entries are never changed once made).  A choice made together with others
    (``together``) is masked only until it is ``revealed``: then everyone saw every choice."""
    if entry.get("secret") and entry.get("seat") != seat and not (revealed and "together" in entry):
        return {k: v for k, v in entry.items() if k != "action"}
    if "seen" in entry and seat not in entry["seen"]:  # a die rolled in secret: only its face is hidden
        return {k: v for k, v in entry.items() if k != "index"}
    return entry


def unrevealed(state) -> int:
    """Where the choices not yet revealed begin in ``state.history``: those made of the simultaneous
    decision still pending, which are its last entries (no other entry is made while it waits)."""
    pending = state.pending
    chosen = pending["together"]["chosen"] if pending is not None and "together" in pending else []
    return len(state.history) - sum(c is not None for c in chosen)


def history_for(state, seat: int | None) -> list[dict]:
    """Every decision and chance event, as ``seat`` may know them (None: as an onlooker)."""
    history, cut = state.history, unrevealed(state)
    return [dict(_as_seen(e, seat)) for e in history[:cut]] + [dict(_as_seen(e, seat, False)) for e in history[cut:]]


def decision_for(state, seat: int | None) -> dict | None:
    """The pending decision as ``seat`` may know it: who decides and what kind; the options only to the decider."""
    pending = state.pending
    if pending is None:
        return None
    player = pending["player"]
    out = {"player": player, "kind": pending["kind"], "secret": pending["secret"]}
    if "together" in pending:  # all of them choose at once: who still has to, never what the others chose
        waiting = together.to_act(pending)
        out["to_act"] = waiting
        out["seats"] = list(pending["together"]["seats"])
        if seat in waiting:
            out["player"] = player = seat
            pending = together.asked_next(pending, seat)
        elif seat in out["seats"]:  # its own choice, made and kept until the reveal
            i = out["seats"].index(seat)
            out["chosen"] = pending["together"]["ids"][i][pending["together"]["chosen"][i]]
    if player == seat:
        out["actions"] = list(pending["ids"])
    return out


def variables_for(state, seat: int | None) -> tuple[dict, list[dict]]:
    """The game variables and, per seat, the player variables ``seat`` may know, as plain data (a part of
    ``view``, on its own for readers that need no more: an observation tensor at every step)."""
    game = state.game
    private = game.private_player_variables
    vocab = game.vocabulary
    shown_var = game.labeller.plain_for_type
    players = [
        {k: shown_var(vocab.player_variables[k])(v) for k, v in pv.items() if p == seat or k not in private}
        for p, pv in enumerate(state.pvars)
    ]
    return {k: shown_var(vocab.variables[k])(v) for k, v in state.vars.items()}, players


def view(state, seat: int | None) -> dict:
    """What ``seat`` may know now, as plain data (None: an onlooker, who knows what every seat knows)."""
    game = state.game
    ids, kinds, backs = game.card_ids, game.card_kinds, game.backs
    attributes = game.attributes

    def back(card: int):
        shown = backs.get(kinds[card])
        return {a: attributes[a][card] for a in shown} if shown else None

    face_down = state.sight.face_down
    zones = {}
    for zone, cards in state.zones.items():
        hidden = face_down(zone, len(cards), seat)
        zones[zone] = [back(c) for c in cards[:hidden]] + [ids[c] for c in cards[hidden:]]
    if state.faces is not None:
        dice_seen(state, seat, zones)
    decision = decision_for(state, seat)
    variables, players = variables_for(state, seat)
    out = {
        "game": game.id,
        "variant": game.variant,
        "players": state.n,
        "seat": seat,
        "current_player": decision["player"] if decision is not None else None,  # itself, if it is to act
        "to_act": state.to_act,
        "is_terminal": state.is_terminal,
        "decision": decision,
        "zones": zones,
        "variables": variables,
        "player_variables": players,
        "log": visible_log(state, seat),
        "seen": [dict(e) for e in state.seen[seat]] if seat is not None else [],
    }
    if state.is_terminal:
        out["scores"] = state.scores
        outcome = state.outcome
        out["winners"] = outcome.winners
        out["outcome"] = outcome.to_data()
    return out


def dice_seen(state, seat: int | None, zones: dict[str, list]) -> None:
    """Each die of ``zones`` as ``seat`` sees it: which die it is, always, and the face it shows only to
    those who saw it (``Sight.rolled``; an onlooker, what everyone saw)."""
    state._knowledge()
    faces, know, ids = state.faces, state.know, state.game.card_ids
    everyone = state.sight.everyone
    for zone, cards in state.zones.items():
        shown = zones[zone]
        for i, c in enumerate(cards):
            face = faces[c]
            if face is not None:
                seen = know[c] == everyone if seat is None else know[c] >> seat & 1
                shown[i] = {"die": ids[c], "face": face} if seen else {"die": ids[c]}


def _reroll(copy, seat: int, shuffler: rng.Deal) -> None:
    """The dice whose faces ``seat`` does not know, rolled again in its copy (each face as likely)."""
    bit, know, faces = 1 << seat, copy.know, copy.faces
    for die, options in enumerate(copy.game.die_faces):
        if options is not None and not know[die] & bit:
            faces[die] = options[shuffler.pick(len(options))]


# ------------------------------------------------------------ determinizing
Remapper = Callable[[Any, Callable[[int, int], int]], Any]  # (value, relabelling's get) → value relabelled


class _Tables:
    """What determinizing reads of a game's rules, made once per game: the back each card shows
    (as a small int), and the variables and program locals whose type can hold a card."""

    __slots__ = ("grown", "hidden", "locals", "looks", "player_variables", "procedures", "variables")

    def __init__(self, game):
        backs: dict[tuple, int] = {}
        self.looks = [backs.setdefault(game.back_key(c), len(backs)) for c in range(len(game.card_ids))]
        vocab = game.vocabulary
        self.variables = _with_cards(vocab.variables)
        self.player_variables = _with_cards(vocab.player_variables)
        self.procedures = game.procedures
        self.locals: dict[str, tuple[tuple[str, Remapper], ...]] = {}
        self.hidden: dict[tuple[int, int], tuple] = {}  # see _hidden
        self.grown: dict[tuple[str, int], tuple[list, int, Any, list]] = {}  # see _grown

    def locals_of(self, procedure: str) -> tuple[tuple[str, Remapper], ...]:
        found = self.locals.get(procedure)
        if found is None:
            found = self.locals[procedure] = _with_cards(self.procedures[procedure].local_types)
        return found


def _with_cards(types: dict[str, Type]) -> tuple[tuple[str, Remapper], ...]:
    """(name, how to relabel it) of the names whose type can hold a card: the only values a relabelling
    changes."""
    return tuple((name, f) for name, t in types.items() if t is not None and (f := _remapper(t)) is not None)


_TABLES: dict[int, _Tables] = {}  # id(game) → its tables, dropped with the game


def _tables(game) -> _Tables:
    found = _TABLES.get(id(game))
    if found is None:
        found = _TABLES[id(game)] = _Tables(game)
        weakref.finalize(game, _TABLES.pop, id(game), None)
    return found


DEAL_TRIES = 16  # deals drawn until the copy offers the seat its own options (see determinize)


def determinize(state, seat: int, seed: int):
    """A copy of ``state`` that agrees with all ``seat`` knows and holds nothing more.

    Cards hidden from ``seat`` are dealt again at random among the hidden
    places whose backs match: a card the seat knows the place of stays; a
    card it knows the zone of stays in that zone, anywhere in it; the rest go
    anywhere hidden.  The deal is a relabelling of cards, applied to every
    card the copy's variables and running programs hold, so the programs
    still see one consistent game.  The copy keeps no other seat's private
    variables, private log lines, seen cards or secret choices, and its
    generator is seeded from ``seed``: nothing in it reproduces the true
    hidden cards or the true future draws.  The results of a finished game
    are public: its copy keeps the true scores and outcome, whatever cards
    its scoring would read after the new deal.

    Being asked is seen too: the copy must ask the same seat the same kind
    of decision, and offer the seat its own options.  A deal that cannot (the
    rules asked a seat because of the cards it holds, or a running program
    holds a card whose face the seat saw, now hidden again) is drawn anew, up
    to ``DEAL_TRIES`` times; then once more with the programs keeping the
    very cards they hold.  If no deal agrees, the rules reveal nearly all
    that is hidden by whom they ask, and that is an error, not a guess.

    A bot asks for a copy at every decision, so what does not change between
    two of them is kept (``_hidden``, ``_grown``): the same seed deals the same
    copy either way (tests/test_determinize.py).  The deal draws from
    ``rng.Deal(seed)`` (splitmix64, as the game's own draws): a copy is made
    at every iteration of a search, and Python's own generator costs more to
    seed than a whole deal.
    """
    state._knowledge()
    shuffler = rng.Deal(seed)
    told = decision_for(state, seat) if state.pending is not None else None
    for attempt in range(DEAL_TRIES + 1):
        copy = _dealt(state, seat, seed, _deal(state, seat, shuffler), attempt == DEAL_TRIES, shuffler)
        if copy is not None and (told is None or decision_for(copy, seat) == told):
            return copy
    raise StateError(
        f"no deal of the cards hidden from seat {seat} agrees with what it knows "
        f"(tried {DEAL_TRIES + 1}): the rules reveal the hidden cards by whom they ask"
    )


def _deal(state, seat: int, shuffler: rng.Deal) -> dict[int, int]:
    """A random relabelling of the cards hidden from ``seat`` that keeps all it knows of them."""
    groups, loose = _hidden(state, seat)
    zones = state.zones
    relabel: dict[int, int] = {}
    for look, by_zone in groups.items():
        pool = loose[look][:] if look in loose else []
        shuffler.shuffle(pool)
        taken = 0
        for zone, (places, kept) in by_zone.items():
            take = len(places) - len(kept)
            dealt = kept + pool[taken : taken + take]
            taken += take
            if kept:  # the pool's share alone is in a random order already
                shuffler.shuffle(dealt)
            cards = zones[zone]
            relabel.update(zip(map(cards.__getitem__, places), dealt))  # a card dealt to its own place maps to itself
    return relabel


Groups = dict[int, dict[str, tuple[list[int], list[int]]]]  # back → zone → (places dealt anew, cards kept there)


def _hidden(state, seat: int) -> tuple[Groups, dict[int, list[int]]]:
    """What a deal for ``seat`` draws from: per back, the hidden places not pinned, per zone, and the cards
    known to be in that zone; per back, the cards whose zone ``seat`` does not know.  Shared between
    deals: read them, copy before shuffling.

    Made again only when the hidden zones or what is known of cards changed since the last deal for the
    same seat of this game (most decisions move no hidden card: a turn of moves, a window of reactions)."""
    game = state.game
    zones, know, pinned = state.zones, state.know, state.pinned
    hidden = state.sight.hidden_from(seat)
    seen = [zones[zone] for zone, _ in hidden]
    memo = _tables(game).hidden
    last = memo.get((state.n, seat))
    if last is not None and last[0] == seen and last[1] == know and last[2] == pinned:
        return last[3], last[4]
    bit = 1 << seat
    looks = _tables(game).looks
    dice = game.die_faces
    groups: Groups = {}
    loose: dict[int, list[int]] = {}
    for zone, top_shown in hidden:
        cards = zones[zone]
        if not cards:
            continue
        here: dict[int, tuple[list[int], list[int]]] = {}
        for i, card in enumerate(cards[:-1] if top_shown else cards):
            if pinned[card] & bit or (dice and dice[card] is not None):  # a die is known; its face is rolled again
                continue
            look = looks[card]
            if look in here:
                places, kept = here[look]
            else:
                places, kept = here[look] = groups.setdefault(look, {})[zone] = ([], [])
            places.append(i)
            if know[card] & bit:
                kept.append(card)
            elif look in loose:
                loose[look].append(card)
            else:
                loose[look] = [card]
    memo[(state.n, seat)] = ([cards[:] for cards in seen], know[:], pinned[:], groups, loose)
    return groups, loose


def _dealt(state, seat: int, seed: int, relabel: dict[int, int], hold: bool, shuffler: rng.Deal):
    """``state`` copied with ``relabel`` applied and all ``seat`` may not know left out (the choices others
    made of a simultaneous decision drawn with ``shuffler``); None if the rules could not have asked the
    pending decision of those cards."""
    game = state.game
    copy = state.clone(log=False)
    if relabel:
        _relabel(copy, relabel, seat, hold)
    if copy.faces is not None:
        _reroll(copy, seat, shuffler)
    private = game.private_player_variables
    for p, pv in enumerate(copy.pvars):
        if p != seat:
            for name in private:
                pv[name] = _fresh(game.player_variables[name])
    copy.seen = [s if p == seat else [] for p, s in enumerate(copy.seen)]
    grown = _tables(game).grown
    copy.log_entries = _grown(
        grown, ("log", seat), state.log_entries, lambda new: [e for e in new if hears(e[0], seat)]
    )
    cut = unrevealed(state)  # the choices not yet revealed are masked apart: their image changes at the reveal
    copy.history = _grown(grown, ("history", seat), state.history, lambda new: [_as_seen(e, seat) for e in new], cut)
    copy.history += [_as_seen(e, seat, False) for e in state.history[cut:]]
    copy.seed = seed
    copy.rng = rng.seed_state(seed)
    if copy.pending is None:  # the end is public: the true results, not those of the cards dealt again
        copy.final = (state.scores, state.outcome)
    else:  # ask again: the options of another seat come from the re-dealt cards
        saved = copy.pending
        copy.pending = None
        try:
            copy._run()
        except RuntimeRuleError:  # these cards could not have been dealt: the rules would not ask this
            return None
        if "together" in saved:
            copy.pending = _chosen_again(saved, copy.pending, seat, shuffler)
    return copy


def _grown(
    memo: dict, key: tuple[str, int], source: list, image: Callable[[list], list], end: int | None = None
) -> list:
    """``image(source[:end])`` as a new list, reusing the image made last time of the part of ``source``
    seen then.

    The log and the history only grow (their entries are never changed once made), and a copy is dealt
    at every decision: without this a long game would filter its whole past at every one of them.  The
    part seen is recognised by the list itself, its length then and its last entry, else it is all made
    anew."""
    end = len(source) if end is None else end
    last = memo.get(key)
    if last is not None and last[0] is source and end >= last[1] > 0 and source[last[1] - 1] is last[2]:
        made, upto = last[3], last[1]
    else:
        made, upto = [], 0
    if end > upto:
        made = made + image(source[upto:end])
        memo[key] = (source, end, source[end - 1], made)
    return made[:]


def _chosen_again(saved: dict, asked: dict, seat: int, shuffler: rng.Deal) -> dict:
    """A simultaneous decision asked again in a copy for ``seat``: the seats that chose have chosen.

    ``seat`` keeps its own choice (by its id); another seat's is unknown to it, so the copy
    takes one of that seat's options at random.  The copy asks whom the true state asks (the lowest
    seat still to act): who is asked is public; ``seat`` reads its own options with ``State.asked``.
    """
    pending = asked
    for s, chosen, ids in zip(saved["together"]["seats"], saved["together"]["chosen"], saved["together"]["ids"]):
        if chosen is None:
            continue
        options = pending["together"]["ids"][pending["together"]["seats"].index(s)]
        own = ids[chosen] if s == seat and ids[chosen] in options else None
        pending = together.with_choice(
            pending, s, options.index(own) if own is not None else shuffler.pick(len(options))
        )
    return pending


def _fresh(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _relabel(st, relabel: dict[int, int], seat: int, hold: bool = False) -> None:
    """Apply a relabelling of cards, dealt for ``seat``, to the zones and, unless ``hold``, to every card
    variables and frames hold.

    A card takes the place of the one it replaces, and what the other seats knew of that place: the copy
    is a game ``seat`` cannot tell from the true one, where they saw the card now there.  What ``seat``
    knows stays with the card: the deal kept the cards whose pile it knows in that pile (anywhere in it),
    and no other card may be credited to it as known there."""
    get = relabel.get
    loc, know, pinned = st.loc, st.know, st.pinned
    places, was_known, was_pinned = loc[:], know[:], pinned[:]
    for zone in set(map(places.__getitem__, relabel)):  # only zones that hold a relabelled card change
        cards = st.zones[zone]
        cards[:] = map(get, cards, cards)
    own = 1 << seat
    for old, new in relabel.items():
        loc[new] = places[old]
        know[new] = was_known[old] & ~own | was_known[new] & own
        pinned[new] = was_pinned[old] & ~own | was_pinned[new] & own
    if hold:
        return
    tables = _tables(st.game)
    for values, names in ((st.vars, tables.variables), *((pv, tables.player_variables) for pv in st.pvars)):
        _remap_all(values, names, get)
    for frame in st.stack:
        _remap_all(frame[2], tables.locals_of(frame[0]), get)


def _remap_all(values: dict, names: tuple[tuple[str, Remapper], ...], get) -> None:
    """Relabel, in place, the cards held by the values of ``names`` in ``values``."""
    for name, change in names:
        v = values.get(name)
        if v is not None:
            values[name] = change(v, get)


def remap(value: Any, t: Type | None, relabel: dict[int, int]) -> Any:
    """``value`` of type ``t`` with every card in it relabelled, as a new value (a copy shares the values
    of the state it was made from: none is changed in place)."""
    change = _remapper(t) if t is not None else None
    return value if value is None or change is None else change(value, relabel.get)


@cache
def _remapper(t: Type) -> Remapper | None:
    """How to relabel the cards in a value of type ``t`` (None: it holds none), made once per type:
    determinizing relabels every value of the copy, and the type says where its cards are."""
    if not t.holds_cards:
        return None
    if t is CARD:
        return lambda card, get: get(card, card)
    if t.is_loop and t.item is not None:  # a running 'for' loop: [next index, items]
        items = _remapper(list_of(t.item))
        return None if items is None else lambda loop, get: [loop[0], items(loop[1], get)]
    if t.is_list:
        inner = t.element
        if inner is CARD:
            return lambda cards, get: list(map(get, cards, cards))
        each = _remapper(inner)
        return None if each is None else lambda values, get: [None if v is None else each(v, get) for v in values]
    if t.is_record:
        fields = [(name, f) for name, ft in t.fields if (f := _remapper(ft)) is not None]

        def record(value: dict, get) -> dict:
            out = value
            for name, f in fields:
                v = value.get(name)
                if v is not None and (w := f(v, get)) != v:
                    if out is value:
                        out = dict(value)  # a new record: the one relabelled may be shared with the original
                    out[name] = w
            return out

        return record
    return None


__all__ = [
    "Sight",
    "decision_for",
    "determinize",
    "hears",
    "history_for",
    "remap",
    "variables_for",
    "view",
    "visible_log",
]
