"""Helpers for the Cats' Mansion tests: building table positions by hand.

The mansion is a 9×11 grid named like a chessboard: column letter a–i from the west, row
1–11 from the north (e6 is x=4, y=5).  Rooms, 3 columns wide; those north of the hall 4 rows
deep, the others 3; the wine cellar one row (row 11):

    row 1-4   kitchen (a-c)        dining room (d-f)   salon (g-i)
    row 5-7   library (a-c)        hall (d-f)          conservatory (g-i)
    row 8-10  master bedroom (a-c) bathroom (d-f)      guest bedroom (g-i)
    row 11    wine cellar (a-i)

Doors: c3-d3, f3-g3, b4-b5, h4-h5, e4-e5, c6-d6, f6-g6, e7-e8, b7-b8, h7-h8, c9-d9, f9-g9,
e10-e11, a10-a11, i10-i11.  Start spaces (the cats' cushions, off limits): d5, d7, e6, f5, f7.
Object spaces, the corners of the house: a1, i1, a11, i11.  The bedrooms are "shared": several
pieces may stand on a space.

Zones are lists of card indexes with the TOP LAST; ``ids`` lists them TOP FIRST.

``Table`` starts a seeded game and plays quiet turns (steps onto empty spaces only, every
optional decision passed) until one seat's movement is about to begin; just before the last
decision that leads there, it lays out the pieces, the secret cards, the hands and the top of
the stack, so the movement options offered match the arranged table.
"""

from __future__ import annotations

from functools import cache

from table import put

from engine import load_game

CATS = ["black", "white", "grey", "ginger", "calico"]
OBJECTS = ["food-bowl", "cushion", "toy-mouse", "parcel"]
PIECES = CATS + OBJECTS
ROOMS = [
    "kitchen",
    "dining-room",
    "salon",
    "library",
    "hall",
    "conservatory",
    "master-bedroom",
    "bathroom",
    "guest-bedroom",
    "wine-cellar",
]
DIRS = ["north", "east", "south", "west"]
STARTS = {"black": "d5", "white": "d7", "grey": "e6", "ginger": "f5", "calico": "f7"}
OBJECT_SPACES = ["a1", "i1", "a11", "i11"]
# The layout a Table uses for every piece a scenario does not place itself.
HOME = {**STARTS, "food-bowl": "a1", "cushion": "i1", "toy-mouse": "a11", "parcel": "i11"}
# Default secret cards of a Table (seat -> cat colour / favourite object).
DEFAULT_CATS = {0: "black", 1: "white", 2: "grey", 3: "ginger"}
DEFAULT_LIKES = {0: "parcel", 1: "cushion", 2: "toy-mouse", 3: "food-bowl"}
# Hands for seats a scenario does not arrange: Miau cards for cats the scenario leaves alone.
IDLE_CATS = ("calico", "ginger")
# What ``deal`` pads each seat's hand with (the scenarios leave the calico and ginger cats alone).
FILLERS = {
    0: [f"miau-calico-{r}" for r in ROOMS[:5]],
    1: [f"miau-calico-{r}" for r in ROOMS[5:]],
    2: [f"miau-ginger-{r}" for r in ROOMS[:5]],
    3: [f"miau-ginger-{r}" for r in ROOMS[5:]],
}


@cache
def mansion():
    """The Cats' Mansion rules (loaded once)."""
    return load_game("cats-mansion")


def board():
    return mansion().board("mansion")


# ---------------------------------------------------------------------------- low level


def index(cid: str) -> int:
    """The index of the (first) card with this id: pieces and all cards but purr are unique."""
    return mansion().first_card[cid]


def cid(card: int) -> str:
    return mansion().card_ids[card]


def ids(st, zone: str) -> list[str]:
    """Card ids of a zone, TOP FIRST."""
    return [st.game.card_ids[c] for c in reversed(st.zones[zone])]


def where(st, piece: str) -> str:
    """The space a piece stands on (e.g. 'e6')."""
    zone = st.loc[index(piece)]
    assert zone.startswith("space:"), f"{piece} is in {zone}, not on the board"
    return zone.split(":", 1)[1]


def on(st, space: str) -> list[str]:
    """Ids of the pieces on a space."""
    return sorted(cid(c) for c in st.zones[f"space:{space}"])


def hand(st, seat: int) -> list[str]:
    """A seat's reaction cards, sorted."""
    return sorted(cid(c) for c in st.zones[f"hand:{seat}"])


def cat_of(st, seat: int) -> str:
    return st.game.attributes["cat"][st.zones[f"identity:{seat}"][0]]


def likes_of(st, seat: int) -> str:
    return st.game.attributes["likes"][st.zones[f"character:{seat}"][0]]


def pieces_on_board(st) -> bool:
    """All 9 pieces stand on spaces; outside the bedrooms at most one piece per space, except a
    cat in the middle of passing an object (that cat and the object)."""
    b = board()
    for p in PIECES:
        if not st.loc[index(p)].startswith("space:"):
            return False
    passing = st.vars["passing"]
    for s in b.rooms:
        here = st.zones[f"space:{s}"]
        if len(here) > 1 and "shared" not in b.tags[s]:
            kinds = sorted(st.game.card_kinds[c] for c in here)
            if not (passing in here and kinds == ["cat", "object"]):
                return False
    return True


def neighbour(space: str, direction: str) -> str:
    """The space one step away, or '' through a wall or off the board."""
    return board().toward(space, direction)


def spaces_of(room: str) -> list[str]:
    return list(board().spaces_in[room])


def room_of(space: str) -> str:
    return board().room_of(space)


def frame(st) -> str:
    """The procedure that is deciding now ('movement', 'react_to', 'swaps', 'challenge')."""
    return st.stack[-1][0] if st.pending is not None else ""


def at_turn_start(st) -> bool:
    """A movement is about to begin: no step made yet this turn."""
    return frame(st) == "movement" and st.vars["steps"] == 0 and not st.vars["hissed"]


# ---------------------------------------------------------------------------- arranging


def set_pieces(st, layout: dict[str, str], rest: dict[str, str] | None = None) -> None:
    """Stand the pieces on these spaces: ``layout`` for the named ones, ``rest`` (HOME by default)
    for the others.  Raises if two pieces would share a space outside the bedrooms."""
    target = dict(HOME if rest is None else rest)
    target.update(layout)
    b = board()
    used: dict[str, str] = {}
    for piece, space in target.items():
        assert space in b.rooms, f"no space {space!r}"
        if space in used and "shared" not in b.tags[space]:
            raise AssertionError(f"{piece} and {used[space]} would both stand on {space}; place {used[space]} too")
        used[space] = piece
    for piece, space in target.items():
        put(st, index(piece), f"space:{space}")


def set_secret(st, seat: int, cat: str | None = None, likes: str | None = None) -> None:
    """Give ``seat`` this cat card and/or character card (swapping with whoever had it, or the aside pile)."""
    for wanted, zone in (
        (cat and f"card-{cat}", f"identity:{seat}"),
        (likes and f"likes-{likes}", f"character:{seat}"),
    ):
        if wanted is None:
            continue
        new = index(wanted)
        old = st.zones[zone][0]
        if new == old:
            continue
        other = st.loc[new]
        st.zones[zone][0] = new
        st.zones[other][st.zones[other].index(new)] = old
        st.loc[new], st.loc[old] = zone, other


def _copies(cid_: str) -> list[int]:
    return [i for i, c in enumerate(mansion().card_ids) if c == cid_]


def set_hands(st, hands: dict[int, list[str]], stack_top=(), idle=IDLE_CATS) -> None:
    """Make the hands hold exactly these reaction cards (ids); seats not named get Miau cards for
    the ``idle`` cats.  ``stack_top`` (ids, TOP FIRST) then lies on top of the stack.  The old
    hands go to the bottom of the stack first; the cards are then taken from the stack or the
    played pile, so every card stays accounted for."""
    hands = {s: list(h) for s, h in hands.items()}
    wanted_ids = [c for h in hands.values() for c in h] + list(stack_top)
    spare = [f"miau-{cat}-{room}" for cat in idle for room in ROOMS if f"miau-{cat}-{room}" not in wanted_ids]
    for s in range(st.n):
        if s not in hands:
            hands[s], spare = spare[:5], spare[5:]
    for s in range(st.n):
        for c in list(st.zones[f"hand:{s}"]):
            put(st, c, "stack", bottom=True)
    taken: set[int] = set()

    def fetch(c: str) -> int:
        for i in _copies(c):
            if i not in taken and st.loc[i] in ("stack", "played"):
                taken.add(i)
                return i
        raise AssertionError(f"no free copy of {c!r}")

    for s, h in hands.items():
        assert len(h) == 5, f"a hand holds 5 cards, not {len(h)}"
        for c in h:
            put(st, fetch(c), f"hand:{s}")
    for c in reversed(list(stack_top)):
        put(st, fetch(c), "stack")


def deal(players: int = 3, **cards) -> dict[int, list[str]]:
    """Hands for a Table: ``deal(s0=[...], s1=[...])`` pads each seat's cards up to 5 with
    Miau cards for the idle calico and ginger cats (FILLERS); seats not named get only those."""
    out = {}
    for s in range(players):
        mine = list(cards.get(f"s{s}", []))
        out[s] = mine + [c for c in FILLERS[s] if c not in mine][: 5 - len(mine)]
    return out


# ---------------------------------------------------------------------------- quiet turns


def quiet_step(st, keep=()) -> str | None:
    """A step onto an empty space outside the bedrooms (never onto or through a piece) of a piece
    not in ``keep``, or None."""
    b = board()
    for a in st.legal_actions():
        if not a.startswith("step "):
            continue
        _, piece, d = a.split()
        target = b.toward(where(st, piece), d)
        if piece not in keep and not st.zones[f"space:{target}"] and "shared" not in b.tags[target]:
            return a
    return None


def quiet_movement(st, keep=()) -> None:
    """The player on turn makes up to 4 quiet steps (never moving the ``keep`` pieces), then ends the movement."""
    while True:
        legal = st.legal_actions()
        if "done" in legal:
            st.apply("done")
            return
        step = quiet_step(st, keep)
        assert step is not None, f"no quiet step among {legal}"
        st.apply(step)


def pass_to_next_turn(st, before_last=None) -> None:
    """Pass every decision until the next movement starts; ``before_last(st)`` runs just before
    the decision that leads there."""
    while not at_turn_start(st):
        assert not st.is_terminal
        assert "pass" in st.legal_actions(), st.legal_actions()
        if before_last is not None:
            ahead = st.clone()
            ahead.apply("pass")
            if at_turn_start(ahead):
                before_last(st)
        st.apply("pass")


class Table:
    """A game brought to the start of ``seat``'s movement, with the table arranged.

    ``first_turn``: it is the seat's first turn (seat ≥ 1: the seats before it have played
    theirs); otherwise every seat has played one turn already (turns ≥ 1) and the seats before
    ``seat`` a second one.  ``pieces``: piece -> space (the rest stand as in HOME, or keep where
    they are with ``rest='keep'``).  ``cats``/``likes``: seat -> colour / object (defaults
    DEFAULT_CATS / DEFAULT_LIKES).  ``hands``: seat -> 5 card ids (other seats: idle Miau cards);
    ``stack``: ids on top of the stack, top first.  ``identified``: cat colours whose owner is
    known; ``challenged``: seats that used their challenge.
    """

    def __init__(
        self,
        players: int = 3,
        seat: int = 0,
        pieces: dict | None = None,
        *,
        first_turn: bool = False,
        cats: dict | None = None,
        likes: dict | None = None,
        hands: dict | None = None,
        stack=(),
        identified=(),
        challenged=(),
        rest="home",
        seed: int = 1,
    ):
        self.game = mansion()
        self.st = st = self.game.new_game(players=players, seed=seed)
        if first_turn:
            assert seat >= 1, "seat 0's first turn is the opening position; use a later seat"
            turns = seat
        else:
            turns = players + seat
        cats = {**{s: DEFAULT_CATS[s] for s in range(players)}, **(cats or {})}
        likes = {**{s: DEFAULT_LIKES[s] for s in range(players)}, **(likes or {})}

        def arrange(st):
            if rest == "keep":
                set_pieces(st, pieces or {}, rest={p: where(st, p) for p in PIECES})
            else:
                set_pieces(st, pieces or {})
            for s in range(players):
                set_secret(st, s, cats[s], likes[s])
            set_hands(st, hands or {}, stack)
            st.vars["identified"] = [index(c) for c in identified]
            for s in challenged:
                st.pvars[s]["challenged"] = True

        for t in range(turns):
            quiet_movement(st)
            pass_to_next_turn(st, arrange if t == turns - 1 else None)
        assert st.current_player == seat and at_turn_start(st)
        assert (st.pvars[seat]["turns"] == 0) == first_turn

    # -- reading
    @property
    def legal(self) -> list[str]:
        return self.st.legal_actions()

    @property
    def player(self) -> int | None:
        return self.st.current_player

    def where(self, piece: str) -> str:
        return where(self.st, piece)

    def hand(self, seat: int) -> list[str]:
        return hand(self.st, seat)

    def steps_of(self, piece: str) -> list[str]:
        """The directions ``piece`` may step in now."""
        return [a.split()[2] for a in self.legal if a.startswith(f"step {piece} ")]

    def hisses(self) -> list[str]:
        return [a for a in self.legal if a.startswith("hiss ")]

    # -- playing
    def apply(self, *actions: str) -> Table:
        for a in actions:
            self.st.apply(a)
        return self

    def step(self, piece: str, *directions: str) -> Table:
        for d in directions:
            self.st.apply(f"step {piece} {d}")
        return self

    def pass_to_next_turn(self) -> Table:
        """Pass every remaining decision of this turn (reactions, swaps, challenge)."""
        pass_to_next_turn(self.st)
        return self

    def quiet_turns_until(self, seat: int, keep=()) -> Table:
        """Finish this turn passing, then play quiet turns (not moving ``keep``) until ``seat``'s movement."""
        self.pass_to_next_turn()
        while self.st.current_player != seat:
            quiet_movement(self.st, keep)
            pass_to_next_turn(self.st)
        return self
