"""Helpers for the Cat Town tests: building table positions by hand.

Zones are lists of card indexes with the TOP LAST.  The helpers here speak in card ids and,
for piles, list them TOP FIRST, the way the rulebook talks ("the top cards are Tourist ticket
then Shelter from rain").

``Table`` starts a seeded game and brings it to the start of one seat's turn with a hand
(and, in Advanced mode, Items in front, or a Mouse held) arranged *before* that turn's
choices are computed, so the offered actions match the arranged hand.  Cards taken out of
a zone by the arrangement go to the box, so all 100 cards stay accounted for.
"""

from __future__ import annotations

from functools import cache

from table import put

from engine import load_game

# The Block just clockwise of each seat's cat token at the start (ruling token-placement).
STARTS = {
    2: ["block:b1", "block:b3"],
    3: ["block:b1", "block:b3", "block:b5"],
    4: ["block:b1", "block:b2", "block:b4", "block:b5"],
}
RING = {
    2: [f"block:b{i}" for i in range(1, 5)],
    3: [f"block:b{i}" for i in range(1, 7)],
    4: [f"block:b{i}" for i in range(1, 7)],
}
MODES = [None, "easy", "advanced"]


@cache
def cat_town(variant: str | None = None):
    """The Cat Town rules (loaded once per variant)."""
    return load_game("cat-town", variant=variant)


# ---------------------------------------------------------------------------- low level


def ids(st, zone: str) -> list[str]:
    """Card ids of a zone, TOP FIRST."""
    return [st.game.card_ids[c] for c in reversed(st.zones[zone])]


def finish(st) -> None:
    """Stop the game here (a test device to read ``winners`` of a hand-built final position)."""
    st.pending = None
    st.stack = []


def skip_reveals(st) -> None:
    """Easy mode: decline the end-of-turn reveal offers of the player who just moved."""
    while (
        st.pending is not None
        and st.legal_actions()[-1] == "pass"
        and all(a.startswith("reveal ") for a in st.legal_actions()[:-1])
    ):
        st.apply("pass")


# ---------------------------------------------------------------------------- positions


class Table:
    """A game brought to the start of ``seat``'s turn with an arranged hand.

    ``hand``: that seat's hand (ids); ``front``: Items in front (Advanced); ``mouse``: holding the
    Mouse.  Other seats get a dealt-looking hand unless ``hands`` gives theirs.  Cat tokens are
    put back on their starting places.  Further zones are arranged with ``pile``.
    """

    def __init__(
        self,
        players: int = 2,
        variant: str | None = None,
        seat: int = 0,
        hand=(),
        front=(),
        mouse: bool = False,
        hands: dict | None = None,
        seed: int = 1,
    ):
        self.game = cat_town(variant)
        self.st = st = self.game.new_game(players=players, seed=seed)
        self.arranged: set[str] = set()
        # Everyone plays "walk cw draw" until it is `seat`'s turn; the seat's hand is arranged
        # just before the last of these walks, so its turn's options are computed from it.
        steps = seat if seat > 0 else players
        for step in range(steps):
            if step == steps - 1:
                self.set_hand(seat, hand)
                if front:  # Advanced mode only
                    self.pile(f"front:{seat}", list(front))
                st.pvars[seat]["mouse"] = mouse
            st.apply("walk cw draw")
            skip_reveals(st)
        assert st.current_player == seat and not st.is_terminal
        for p, pos in enumerate(STARTS[players]):
            st.pvars[p]["pos"] = pos
        for p, cards in (hands or {}).items():
            self.set_hand(p, cards)

    # -- reading
    def ids(self, zone: str) -> list[str]:
        return ids(self.st, zone)

    @property
    def legal(self) -> list[str]:
        return self.st.legal_actions()

    def apply(self, *actions: str) -> Table:
        for a in actions:
            self.st.apply(a)
        return self

    def index(self, cid: str, zone: str) -> int:
        """The index of a card with this id in ``zone``."""
        return next(c for c in self.st.zones[zone] if self.game.card_ids[c] == cid)

    # -- arranging
    def _fetch(self, cid: str, target: str) -> int:
        """A copy of ``cid`` that is not part of an arranged zone (the box first, then the town)."""
        st, game = self.st, self.game
        copies = [i for i, c in enumerate(game.card_ids) if c == cid]
        assert copies, f"no card {cid!r}"
        order = ["box", "deck"] + [z for z in st.zones if z.startswith("block:")] + ["discard", "station"]
        order += [z for z in st.zones if z not in order]
        for zone in order:
            if zone in self.arranged or zone == "played":
                continue
            for i in copies:
                if st.loc[i] == zone:
                    return i
        raise AssertionError(f"every copy of {cid!r} is already placed by the scenario")

    def put(self, cid: str, zone: str, bottom: bool = False) -> int:
        """Move a free copy of ``cid`` onto ``zone`` (top, or bottom); returns its index."""
        i = self._fetch(cid, zone)
        put(self.st, i, zone, bottom)
        return i

    def pile(self, zone: str, top_first) -> Table:
        """Make ``zone`` hold exactly these cards (ids, TOP FIRST); what was there goes to the box."""
        st = self.st
        for c in list(st.zones[zone]):
            put(st, c, "box")
        self.arranged.add(zone)
        for cid in reversed(list(top_first)):
            put(st, self._fetch(cid, zone), zone)
        return self

    def set_hand(self, seat: int, cards) -> Table:
        return self.pile(f"hand:{seat}", list(cards))

    def clear(self, zone: str) -> Table:
        return self.pile(zone, [])

    def remove_block(self, zone: str) -> Table:
        """Take a Block out of the town as if it had run out (its cards go to the box)."""
        st = self.st
        self.clear(zone)
        ring = st.vars["ring"]
        after = ring[(ring.index(zone) + 1) % len(ring)]
        for pv in st.pvars:
            if pv["pos"] == zone:
                pv["pos"] = after
        st.vars["ring"] = [b for b in ring if b != zone]
        return self
