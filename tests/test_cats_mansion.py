"""Cats' Mansion, rule by rule: a position from the rulebook, a few actions, what must follow.

Positions are built with ``Table`` (see mansion_helpers): a seeded game brought to the start of
one seat's movement with the pieces, secret cards and hands arranged.  Unless a test says
otherwise there are 3 players; seat 0 has the black cat and likes the parcel, seat 1 the white
cat and the cushion, seat 2 the grey cat and the toy mouse; the pieces not placed by a test stand
as in HOME (cats on their cushions d5 d7 e6 f5 f7, food bowl a1, cushion i1, mouse a11, parcel
i11).  Hands are padded with Miau cards for the calico and ginger cats, which the scenarios leave
alone.  Expected results come from the rulebook (and the rulings of game.yaml), never from the
engine.
"""

from __future__ import annotations

import pytest
from mansion_helpers import (
    CATS,
    OBJECT_SPACES,
    OBJECTS,
    ROOMS,
    STARTS,
    Table,
    at_turn_start,
    board,
    cat_of,
    deal,
    frame,
    ids,
    index,
    likes_of,
    mansion,
    on,
    pieces_on_board,
    where,
)
from table import accounted, put

from engine import IllegalAction


def places(t: Table) -> list[str]:
    """The spaces offered for a cat sent by a Miau card."""
    assert all(a.startswith("place ") for a in t.legal), t.legal
    return sorted(a.split()[1] for a in t.legal)


def reactions(t: Table) -> list[str]:
    return [a for a in t.legal if a.startswith("react ")]


# =========================================================================== set-up


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_pieces_secret_cards_and_hands(players):
    """The five cats on the five cushions of the hall, the four objects on the four marked
    spaces (one each), one cat card and one character card per player, the rest set aside face
    down, five reaction cards each, the stack face down."""
    game = mansion()
    for seed in range(6):
        st = game.new_game(players=players, seed=seed)
        for cat, space in STARTS.items():
            assert on(st, space) == [cat]
        assert sorted(where(st, o) for o in OBJECTS) == sorted(OBJECT_SPACES)
        assert all(len(st.zones[f"space:{s}"]) == 1 for s in OBJECT_SPACES)
        cat_cards = [ids(st, f"identity:{p}") for p in range(players)]
        characters = [ids(st, f"character:{p}") for p in range(players)]
        assert all(len(c) == 1 and c[0].startswith("card-") for c in cat_cards)
        assert all(len(c) == 1 and c[0].startswith("likes-") for c in characters)
        aside = ids(st, "aside")
        assert sorted([c for cs in cat_cards for c in cs] + [c for c in aside if c.startswith("card-")]) == sorted(
            f"card-{c}" for c in CATS
        )
        assert sorted([c for cs in characters for c in cs] + [c for c in aside if c.startswith("likes-")]) == sorted(
            f"likes-{o}" for o in OBJECTS
        )
        assert len(aside) == (5 - players) + (4 - players)
        assert st.zones["cat_cards"] == [] and st.zones["characters"] == [] and st.zones["supply"] == []
        for p in range(players):
            assert len(st.zones[f"hand:{p}"]) == 5
            assert all(game.card_kinds[c] in ("miau", "purr") for c in st.zones[f"hand:{p}"])
        assert len(st.zones["stack"]) == 60 - 5 * players and st.zones["played"] == []
        assert accounted(st) and pieces_on_board(st)
        assert st.current_player == 0 and all(pv["turns"] == 0 for pv in st.pvars)
        assert st.view(1)["zones"]["stack"] == [None] * len(st.zones["stack"])


def test_setup_objects_and_secret_cards_are_shuffled():
    """The objects go onto the marked spaces at random; the cat and character cards are shuffled."""
    game = mansion()
    layouts, secrets = set(), set()
    for seed in range(40):
        st = game.new_game(players=2, seed=seed)
        layouts.add(tuple(where(st, o) for o in OBJECTS))
        secrets.add((cat_of(st, 0), likes_of(st, 0)))
    assert len(layouts) >= 10
    assert {o for o, _ in secrets} == set(CATS) and {likes for _, likes in secrets} == set(OBJECTS)


def test_the_components():
    """5 cats, 4 objects, 50 Miau cards (one per cat and room), 10 purr cards, 5 cat cards, 4 characters."""
    game = mansion()
    kinds = [game.card_kinds[i] for i in range(len(game.card_ids))]
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "cat": 5,
        "object": 4,
        "miau": 50,
        "purr": 10,
        "cat-card": 5,
        "character": 4,
    }
    miau = {(game.attributes["cat"][i], game.attributes["room"][i]) for i, k in enumerate(kinds) if k == "miau"}
    assert miau == {(c, r) for c in CATS for r in ROOMS}


# =========================================================================== the floor plan


def steps_from(space: str) -> dict[str, int]:
    """Fewest steps from ``space`` to every space a piece may enter: through doors, never onto a
    cushion.  Other pieces are left out: standing in the way, they only make a way longer."""
    b = board()
    row, frontier = {space: 0}, [space]
    while frontier:
        reached = []
        for s in frontier:
            for n in b.neighbours(s):
                if n not in row and not b.has_tag(n, "start"):
                    row[n] = row[s] + 1
                    reached.append(n)
        frontier = reached
    return row


def fewest_steps_to_meet(cushion: str, object_space: str, object_steps: int) -> int:
    """Fewest steps in all that bring a cat from its cushion onto an object, the object coming to
    meet it with at most ``object_steps`` of them."""
    cat, thing = steps_from(cushion), steps_from(object_space)
    return min(cat[s] + thing[s] for s in cat if s in thing and thing[s] <= object_steps)


@pytest.mark.parametrize("seat", [0, 1])
def test_no_cat_reaches_an_object_in_its_owners_first_turn(seat):
    """In each player's first turn no reaction card may be played, so a cat that could reach an
    object then would win before anyone could answer.  A turn is four steps, at most two of them
    for objects.  Whose cat stands on which cushion is secret and the objects lie at random on
    the marked spaces, so every cushion and every object space counts.  Seat 1's first turn comes
    after seat 0's, which may have moved any cat and any object closer: two turns together,
    eight steps, at most four for objects.  Ruling first-turn-out-of-reach."""
    turns = seat + 1
    b = board()
    near = [
        (cushion, space, fewest_steps_to_meet(cushion, space, 2 * turns))
        for cushion in b.tagged("start")
        for space in b.tagged("object")
    ]
    assert [n for n in near if n[2] <= 4 * turns] == []


# =========================================================================== movement


def test_done_only_after_four_steps():
    """He must move four spaces in all: "done" is not offered before the fourth step, and after it
    no further step is.  Ruling no-step-possible: when no legal step is left, the player may end
    early."""
    t = Table()
    for n, (piece, d) in enumerate([("white", "north"), ("white", "west"), ("white", "west"), ("white", "north")]):
        assert "done" not in t.legal
        assert t.st.vars["steps"] == n
        t.step(piece, d)
    assert [a for a in t.legal if a.startswith("step ")] == []
    assert "done" in t.legal
    t.apply("done")
    assert frame(t.st) == "react_to"  # movement over: the others may react

    # A jam in the hall: four cats on the four free hall spaces, the fifth on the middle cushion,
    # objects in the four doorways.  After three steps (two of them for objects) no cat can
    # pass an object any more (it would need a step to get off it) and no object may move.
    t = Table(
        pieces={
            "black": "e5",
            "white": "d6",
            "grey": "f6",
            "ginger": "e8",
            "calico": "e6",
            "toy-mouse": "e3",
            "cushion": "c6",
            "parcel": "g6",
            "food-bowl": "e9",
        }
    )
    t.step("ginger", "north")
    assert "done" not in t.legal
    t.step("food-bowl", "north")
    assert "done" not in t.legal
    t.step("toy-mouse", "south")
    assert t.st.vars["steps"] == 3
    assert t.legal == ["done"]
    t.apply("done")
    assert frame(t.st) in ("react_to", "swaps")


def test_a_turn_is_four_steps_spread_over_any_pieces():
    """ "He may move one cat four spaces, or four cats one space each, or one cat three spaces and
    one object one space" — every split is allowed, the total is four."""
    for plan in (
        [("black", "east"), ("black", "north"), ("black", "north"), ("black", "west")],
        [("black", "east"), ("white", "north"), ("ginger", "south"), ("calico", "west")],
        [("white", "north"), ("white", "west"), ("white", "west"), ("food-bowl", "south")],
    ):
        t = Table()
        for piece, d in plan:
            t.step(piece, d)
        assert t.st.vars["steps"] == 4
        assert [a for a in t.legal if a.startswith("step ")] == [] and "done" in t.legal


def test_objects_move_at_most_two_steps():
    """Only two of the four steps may be used for the objects."""
    t = Table()
    t.step("food-bowl", "south").step("cushion", "south")
    assert not any(a.startswith(("step food-bowl", "step cushion", "step toy-mouse", "step parcel")) for a in t.legal)
    assert any(a.startswith("step black") for a in t.legal)
    t = Table()
    t.step("toy-mouse", "east", "east")
    assert where(t.st, "toy-mouse") == "c11"
    assert not any(a.startswith(("step food-bowl", "step cushion", "step toy-mouse", "step parcel")) for a in t.legal)
    t.step("black", "east", "north")
    assert "done" in t.legal


def test_walls_block_steps_and_doors_let_through():
    """Not through walls: from c2 the dining room is behind a wall; c3–d3 is a door; no
    diagonal steps (only north, east, south, west)."""
    t = Table(pieces={"grey": "c1", "black": "c2", "white": "c3", "toy-mouse": "c4"})
    assert sorted(t.steps_of("black")) == ["west"]  # c2: c1 grey, d2 behind a wall, c3 white
    assert sorted(t.steps_of("white")) == ["east", "south", "west"]  # d3 through the door; b3; over the mouse
    assert sorted(t.steps_of("toy-mouse")) == ["west"]  # c4: c5 behind a wall (door b4-b5), d4 wall
    t.step("white", "east")
    assert where(t.st, "white") == "d3"
    assert all(a.split()[2] in ("north", "east", "south", "west") for a in t.legal if a.startswith("step "))


def test_start_spaces_are_off_limits():
    """The starting spaces (the cats' cushions) are off limits, for cats and objects alike;
    a cat standing on one may leave it."""
    t = Table(pieces={"black": "e5", "grey": "a4", "ginger": "b4", "parcel": "f6"})
    # e5: d5, f5 and e6 are empty start spaces; e4 is the door to the dining room.
    assert t.steps_of("black") == ["north"]
    # f6: f5 and e6 empty start spaces, f7 the calico cat, g6 the door to the conservatory.
    assert t.steps_of("parcel") == ["east"]
    # The white cat still stands on its cushion (d7) and may step off it, but not back.
    assert sorted(t.steps_of("white")) == ["east", "north"]
    t.step("white", "north")
    assert where(t.st, "white") == "d6" and "south" not in t.steps_of("white")


def test_one_piece_per_space_outside_the_bedrooms():
    """Only one piece per space: no step onto a cat, and no object onto any piece."""
    t = Table(pieces={"black": "e3", "grey": "e2", "white": "d3", "food-bowl": "f3", "cushion": "f2"})
    assert "north" not in t.steps_of("black") and "west" not in t.steps_of("black")
    assert "south" not in t.steps_of("cushion")  # onto the food bowl
    assert "west" not in t.steps_of("cushion")  # onto the grey cat
    assert "west" not in t.steps_of("food-bowl")  # onto the black cat


def test_bedrooms_hold_several_pieces():
    """In the bedrooms several pieces may stand on one space; stepping there is no passing."""
    t = Table(pieces={"black": "b8", "white": "b9", "food-bowl": "a9"})
    t.step("black", "south")
    assert on(t.st, "b9") == ["black", "white"]
    assert t.st.vars["passing"] is None
    t.step("food-bowl", "east")
    assert on(t.st, "b9") == ["black", "food-bowl", "white"]
    t.step("white", "west")  # leaves the crowd to a9
    assert on(t.st, "a9") == ["white"]
    t.step("black", "west")
    assert on(t.st, "a9") == ["black", "white"] and t.st.vars["passing"] is None
    assert "done" in t.legal and pieces_on_board(t.st)


def test_cat_passes_through_an_object_but_not_a_cat():
    """Occupied spaces may not be passed, except that a cat may move through a space where an
    object lies.  Ruling passing-objects: it steps onto the object's space only with steps left
    to go on to a free space; until it has left, only that cat may move (no other piece, no
    hissing, no "done")."""
    # The wine cellar is a corridor: black on b11, the food bowl on c11, grey two spaces further.
    t = Table(pieces={"black": "b11", "food-bowl": "c11", "grey": "e11", "white": "c9"})
    assert "east" in t.steps_of("black")
    t.step("black", "east")
    assert on(t.st, "c11") == ["black", "food-bowl"]
    assert t.st.vars["passing"] == index("black")
    assert sorted(t.legal) == ["step black east", "step black west"]
    t.step("black", "east")
    assert on(t.st, "d11") == ["black"] and on(t.st, "c11") == ["food-bowl"]
    assert t.st.vars["passing"] is None
    assert "east" not in t.steps_of("black")  # e11: the grey cat, never passed
    assert any(a.startswith("step white") for a in t.legal)  # the others may move again

    # Not through a cat, whatever lies beyond.
    t = Table(pieces={"black": "b11", "grey": "c11"})
    assert "east" not in t.steps_of("black")

    # Through two objects in a row, with the steps for it.
    t = Table(pieces={"black": "a11", "food-bowl": "b11", "toy-mouse": "c11"})
    t.step("black", "east", "east")
    assert sorted(t.legal) == ["step black east", "step black west"]
    t.step("black", "east")
    assert where(t.st, "black") == "d11"

    # No step onto an object with the last step (nothing left to get off it again).
    t = Table(pieces={"black": "c11", "food-bowl": "d11"})
    t.step("black", "west", "east").step("white", "north")
    assert t.st.vars["steps"] == 3 and where(t.st, "black") == "c11"
    assert "east" not in t.steps_of("black")


def test_own_cat_wins_with_the_last_step_onto_its_favourite_object():
    """Ruling last-step-win: seat 0 (black cat, likes the parcel on i11) may step the black cat onto the
    parcel with its fourth step, and wins at once; a seat whose cat or favourite object it is not is
    offered no such step (its legal actions depend only on its own secret)."""
    t = Table(pieces={"black": "e11"})
    t.step("black", "east", "east", "east")
    assert "step black east" in t.legal
    t.step("black", "east")
    assert t.st.is_terminal and t.st.winners == [0] and where(t.st, "black") == "i11"

    for cats, likes in (({0: "white", 1: "black"}, {}), ({}, {0: "cushion", 1: "parcel"})):
        t = Table(pieces={"black": "e11"}, cats=cats, likes=likes)
        t.step("black", "east", "east", "east")
        assert "step black east" not in t.legal


def test_a_cat_on_an_object_cannot_step_onto_a_second_without_a_way_off():
    """Ruling second-object (the E701 of `simulate cats-mansion --players 3 --games 1 --seed 66`): a cat on
    the food bowl with one step left after the next may not step onto the toy mouse when the grey cat blocks
    the way beyond: the bowl's space it left is no free space.  It goes back instead and can finish."""
    t = Table(pieces={"black": "a11", "food-bowl": "b11", "toy-mouse": "c11", "grey": "d11"})
    t.step("white", "north").step("black", "east")
    assert sorted(t.legal) == ["step black west"]
    t.step("black", "west")
    assert where(t.st, "black") == "a11" and t.st.vars["passing"] is None
    assert any(a.startswith("step ") for a in t.legal)


def test_a_cat_leaving_its_cushion_cannot_count_it_as_a_way_off_an_object():
    """Ruling second-object, the start-space case: a cat stepping from a start cushion onto an object may
    not count the cushion as the free space it will go on to (no piece steps onto a start space).  Seed 517
    with these random moves once stranded the white cat on an object with no step and no "done" (E701)."""
    import random

    st = mansion().new_game(players=3, seed=517)
    rnd = random.Random(514)
    for _ in range(200):
        if st.is_terminal:
            break
        assert st.legal_actions()
        st.apply(rnd.choice(st.legal_actions()))


def test_objects_never_pass_through_anything():
    """Only a cat may move through an object's space; an object never passes a piece."""
    t = Table(pieces={"food-bowl": "c11", "toy-mouse": "d11", "black": "c10"})
    assert "east" not in t.steps_of("food-bowl")  # onto the mouse
    t = Table(pieces={"food-bowl": "c11", "grey": "d11"})
    assert "east" not in t.steps_of("food-bowl")  # onto the grey cat
    assert t.steps_of("food-bowl") == ["west"]


def test_illegal_steps_raise_and_change_nothing():
    t = Table(pieces={"black": "c2"})
    before = t.st.clone()
    with pytest.raises(IllegalAction):
        t.st.apply("step black east")
    with pytest.raises(IllegalAction):
        t.st.apply("done")
    assert t.st == before


# =========================================================================== hissing


def hisses_at(t: Table, hisser: str, hissed: str) -> list[str]:
    """The retreat directions offered for ``hisser`` hissing at ``hissed``."""
    return sorted(a.split()[3] for a in t.legal if a.startswith(f"hiss {hisser} {hissed} "))


def test_hissed_cat_retreats_backwards_or_sideways():
    """A cat next to another (not diagonally) may hiss at it; the hissed cat retreats one space
    backwards or to the side, not diagonally and not towards the hisser."""
    t = Table(pieces={"grey": "d3", "black": "e3"})
    assert hisses_at(t, "grey", "black") == ["east", "north", "south"]
    assert hisses_at(t, "black", "grey") == ["north", "south", "west"]  # west: c3 through the door
    t = Table(pieces={"grey": "d2", "black": "e3"})  # diagonal: no hissing
    assert hisses_at(t, "grey", "black") == [] and hisses_at(t, "black", "grey") == []


def test_hiss_retreat_only_onto_free_spaces():
    """The retreat goes onto an empty space: not onto a piece, not onto a start space."""
    t = Table(pieces={"grey": "d3", "black": "e3", "white": "f3", "food-bowl": "e2"})
    assert hisses_at(t, "grey", "black") == ["south"]
    t = Table(pieces={"black": "e4", "grey": "e3", "white": "d4", "cushion": "f4"})
    # black (e4) retreats from grey (e3): backwards to e5 through the door; d4 and f4 are taken.
    assert hisses_at(t, "grey", "black") == ["south"]
    t.apply("hiss grey black south")
    assert where(t.st, "black") == "e5"
    t = Table(pieces={"black": "e5", "grey": "e4"})
    # grey on e4 hisses at black on e5: e6 (south), d5 and f5 are start spaces.
    assert hisses_at(t, "grey", "black") == []


def test_no_hissing_through_a_wall():
    """A cat cannot be hissed at through a wall, nor retreat through one."""
    t = Table(pieces={"black": "c1", "grey": "d1"})  # neighbours across a wall
    assert hisses_at(t, "black", "grey") == [] and hisses_at(t, "grey", "black") == []
    t = Table(pieces={"grey": "b1", "black": "c1"})
    assert hisses_at(t, "grey", "black") == ["south"]  # east of c1 is a wall, north the edge


def test_no_hissing_into_or_out_of_a_bedroom():
    """Nor can a cat be driven into or out of the bedroom by hissing."""
    t = Table(pieces={"grey": "b6", "white": "b7"})  # backwards from b7 is b8, the bedroom
    assert hisses_at(t, "grey", "white") == ["east", "west"]
    t = Table(pieces={"grey": "b9", "white": "b8"})  # backwards from b8 is b7: out of it
    assert "north" not in hisses_at(t, "grey", "white")
    t = Table(pieces={"grey": "b8", "white": "b7"})  # hisser in the bedroom, hissed outside
    assert hisses_at(t, "grey", "white") == ["east", "north", "west"]


def test_hissed_cat_may_retreat_within_a_bedroom():
    """A retreat from one bedroom space to another neither enters nor leaves the bedroom."""
    t = Table(pieces={"grey": "b9", "white": "b8"})
    assert hisses_at(t, "grey", "white") == ["east", "west"]


def test_hissing_is_free_once_per_cat_and_the_hissed_cat_stays_put():
    """The retreat does not count against the four steps; each cat may be hissed at only once a
    turn; a hissed cat may not be moved again by that player in that turn; any number of cats
    may be hissed at."""
    t = Table(pieces={"grey": "d3", "black": "e3", "white": "d2"})
    t.apply("hiss grey black north")
    assert where(t.st, "black") == "e2" and t.st.vars["steps"] == 0
    assert t.st.log[-1] == "black is hissed at and retreats north"
    assert t.steps_of("black") == []
    assert not any(a.startswith("hiss ") and a.split()[2] == "black" for a in t.legal)
    t.step("grey", "east")  # grey now on e3, next to black (e2)
    assert hisses_at(t, "grey", "black") == []  # black was hissed at already
    assert hisses_at(t, "black", "grey") != []  # grey was not
    assert hisses_at(t, "white", "black") == []
    t.apply("hiss black grey south")  # a second cat hissed at this turn
    assert where(t.st, "grey") == "e4" and t.st.vars["steps"] == 1
    assert t.steps_of("grey") == []  # it moved, but it was hissed at since
    t.step("white", "south", "north", "south")
    assert t.st.vars["steps"] == 4 and "done" in t.legal
    assert sorted(t.st.vars["hissed"]) == sorted([index("black"), index("grey")])


def test_hissed_cat_gets_no_reaction_window():
    """The reaction phase does not apply to hissed cats, even one moved before being hissed."""
    hands = deal(s1=["miau-black-salon", "miau-grey-salon"], s2=["miau-black-hall", "miau-grey-kitchen"])
    t = Table(pieces={"grey": "d3", "black": "e3"}, hands=hands)
    t.step("black", "south", "north")  # black moved (e4 and back)...
    t.apply("hiss grey black north")  # ... then hissed at: no window
    t.step("grey", "south", "north")  # grey moved: its window opens
    t.apply("done")
    assert t.st.vars["reacting"] == index("grey")
    assert sorted(reactions(t)) == ["react miau-grey-salon"]
    t.apply("pass")
    assert reactions(t) == ["react miau-grey-kitchen"] and t.player == 2
    t.apply("pass")
    assert frame(t.st) == "swaps"


# =========================================================================== reactions


EXAMPLE_HANDS = {
    0: ["purr", "miau-white-kitchen", "miau-white-salon", "miau-white-hall", "miau-white-library"],
    1: ["miau-black-salon", "purr", "miau-black-hall", "miau-grey-kitchen", "miau-grey-salon"],
    2: ["miau-black-dining-room", "miau-grey-hall", "miau-grey-library", "miau-ginger-salon", "miau-ginger-hall"],
}
EXAMPLE_STACK = ["miau-grey-bathroom", "miau-grey-wine-cellar", "miau-grey-conservatory", "miau-grey-guest-bedroom"]


def black_into_the_kitchen(hands=None, stack=EXAMPLE_STACK) -> Table:
    """Seat 0 walks the black cat from the dining room (f3) into the kitchen (b3) and ends."""
    t = Table(pieces={"black": "f3"}, hands=hands or EXAMPLE_HANDS, stack=stack)
    t.step("black", "west", "west", "west", "west")
    assert where(t.st, "black") == "b3"
    t.apply("done")
    return t


def test_rulebook_example():
    """A player moves the black cat into the kitchen.  The second plays "black cat – salon" and
    the player on turn places it in the salon; the third plays "black cat – dining room"; the
    first plays a purr card: the black cat stays in the salon and the first player's turn ends.
    Every card played is replaced at once.  Ruling every-seat-asked: a player with no playable
    card is asked all the same, and can only pass."""
    t = black_into_the_kitchen()
    assert t.player == 1 and t.st.vars["reacting"] == index("black")
    assert t.legal == ["react miau-black-salon", "react miau-black-hall", "pass"]  # no purr before a Miau
    t.apply("react miau-black-salon")
    assert len(t.st.zones["hand:1"]) == 5 and "miau-grey-bathroom" in t.hand(1)  # replaced at once
    assert t.player == 0  # the player on turn places the cat
    assert places(t) == ["g1", "g2", "g3", "g4", "h1", "h2", "h3", "h4", "i2", "i3", "i4"]  # i1: the cushion
    t.apply("place h3")
    assert where(t.st, "black") == "h3"
    assert t.player == 2
    assert t.legal == ["react miau-black-dining-room", "pass"]
    t.apply("react miau-black-dining-room")
    assert t.player == 0 and "d2" in places(t)
    t.apply("place e3")
    assert where(t.st, "black") == "e3"
    assert t.player == 0
    assert t.legal == ["react purr", "pass"]
    t.apply("react purr")
    assert where(t.st, "black") == "h3"  # back in the salon
    assert t.st.log[-1] == "seat 0 purrs: black stays in salon"
    # No further card for the black cat: seat 1 still holds miau-black-hall and a purr, unasked.
    assert frame(t.st) == "swaps" and t.player == 0
    assert ids(t.st, "played") == ["purr", "miau-black-dining-room", "miau-black-salon"]
    assert t.st.view(2)["zones"]["played"] == [mansion().card_ids[c] for c in t.st.zones["played"]]
    assert [len(t.st.zones[f"hand:{p}"]) for p in range(3)] == [5, 5, 5]
    assert "miau-grey-wine-cellar" in t.hand(2) and "miau-grey-conservatory" in t.hand(0)

    # Had the second player held nothing for the black cat, he would be asked all the same.
    hands = {
        **EXAMPLE_HANDS,
        1: [
            "miau-white-dining-room",
            "miau-white-bathroom",
            "miau-white-wine-cellar",
            "purr",
            "miau-white-conservatory",
        ],
    }
    t = black_into_the_kitchen(hands)
    assert t.player == 1 and t.legal == ["pass"]  # asked: the table learns nothing
    t.apply("pass")
    assert t.player == 2 and t.legal == ["react miau-black-dining-room", "pass"]


def test_every_seat_that_may_react_is_asked_even_with_no_usable_card():
    """Ruling every-seat-asked: whether a seat is asked depends only on what the table knows (who
    played the last Miau, whether anyone has reacted), never on its hand; a seat with no usable
    card is asked and can only pass, and the others learn only that it was asked."""
    hands = deal(s1=["miau-white-salon"], s2=["miau-grey-hall"])  # nothing for the black cat
    t = black_into_the_kitchen(hands)
    for seat in (1, 2):
        assert t.player == seat and t.legal == ["pass"]
        for other in range(3):
            decision = t.st.view(other)["decision"]
            assert decision["player"] == seat and decision["kind"] == "react"
            assert ("actions" in decision) == (other == seat)
        t.apply("pass")
    assert frame(t.st) == "swaps"  # the mover may not react first


def test_player_on_turn_may_not_play_the_first_card_but_later_ones():
    """Any number of Miau cards may be played for a cat, including by the player on turn; but
    not as the first card for that cat."""
    hands = {
        0: ["miau-black-salon", "purr", "miau-white-kitchen", "miau-white-salon", "miau-white-hall"],
        1: [
            "miau-white-library",
            "miau-white-dining-room",
            "miau-white-bathroom",
            "miau-white-wine-cellar",
            "miau-white-conservatory",
        ],
        2: [
            "miau-ginger-salon",
            "miau-ginger-kitchen",
            "miau-ginger-hall",
            "miau-ginger-library",
            "miau-ginger-bathroom",
        ],
    }
    t = black_into_the_kitchen(hands)
    t.apply("pass", "pass")  # seats 1 and 2 hold nothing for it
    assert frame(t.st) == "swaps"  # seat 0 was not asked: nobody else played

    hands[1] = ["miau-black-wine-cellar"] + hands[1][1:]
    t = black_into_the_kitchen(hands)
    assert t.player == 1
    t.apply("react miau-black-wine-cellar", "place c11")
    t.apply("pass")  # seat 2 holds nothing for black
    assert t.player == 0  # now seat 0 may play
    assert t.legal == ["react miau-black-salon", "react purr", "pass"]
    t.apply("react miau-black-salon", "place g2")
    assert where(t.st, "black") == "g2"


def test_nobody_moves_the_same_cat_twice_in_a_row():
    """A player may not move the same cat with a Miau card twice in a row unless another player
    has moved it in the meantime."""
    hands = deal(s1=["miau-black-salon", "miau-black-hall", "miau-black-library"], s2=["miau-black-dining-room"])
    t = black_into_the_kitchen(hands, stack=["miau-grey-hall", "miau-grey-salon", "miau-grey-kitchen"])
    t.apply("react miau-black-salon", "place g3")
    assert t.player == 2
    t.apply("pass")
    assert t.player == 0 and t.legal == ["pass"]  # seat 0 holds nothing: asked all the same
    t.apply("pass")
    assert frame(t.st) == "swaps"  # seat 1 may not play again: not asked

    t = black_into_the_kitchen(hands, stack=["miau-grey-hall", "miau-grey-salon", "miau-grey-kitchen"])
    t.apply("react miau-black-salon", "place g3")
    t.apply("react miau-black-dining-room", "place d2")  # seat 2 moved it in between
    assert t.player == 0 and t.legal == ["pass"]  # seat 0 holds nothing for black
    t.apply("pass")
    assert t.player == 1
    assert sorted(t.legal) == ["pass", "react miau-black-hall", "react miau-black-library"]
    t.apply("react miau-black-library", "place a5")
    assert where(t.st, "black") == "a5"
    t.apply("pass", "pass")  # seats 2 and 0 have nothing left for it
    assert frame(t.st) == "swaps"  # seat 1 played last: not asked again


def test_purr_cancels_the_only_miau():
    """A purr card cancels the effect of the Miau card and leaves the cat in its place: with one
    Miau played, the cat goes back where the player on turn left it."""
    hands = deal(s1=["miau-black-wine-cellar"], s2=["purr"])
    t = black_into_the_kitchen(hands)
    t.apply("react miau-black-wine-cellar", "place e11")
    assert where(t.st, "black") == "e11"
    assert t.player == 2 and t.legal == ["react purr", "pass"]
    t.apply("react purr")
    assert where(t.st, "black") == "b3" and on(t.st, "e11") == []
    assert frame(t.st) == "swaps"


def test_miau_needs_another_room_with_a_free_space():
    """The Miau card sends the cat into another room: not one it is in, and only where a free
    space is left (the hall's cushions are off limits)."""
    hands = deal(s1=["miau-black-kitchen", "miau-black-hall", "miau-black-salon"])
    # The hall's four free spaces are taken.
    t = Table(pieces={"black": "f3", "grey": "d6", "white": "e5", "ginger": "f6", "calico": "e7"}, hands=hands)
    t.step("black", "west", "west", "west", "west").apply("done")
    assert t.player == 1 and t.legal == ["react miau-black-salon", "pass"]
    # With a free hall space, the hall's places exclude the cushions.
    t = Table(pieces={"black": "f3", "grey": "d6", "white": "e5", "ginger": "f6", "calico": "g8"}, hands=hands)
    t.step("black", "west", "west", "west", "west").apply("done")
    assert t.legal == ["react miau-black-hall", "react miau-black-salon", "pass"]
    t.apply("react miau-black-hall")
    assert places(t) == ["e7"]


def test_miau_cannot_place_a_cat_on_an_object():
    """Ruling miau-onto-goal: the cat goes onto a free space of the room; a space with an object
    is not free, so a Miau card cannot put a cat on its favourite object (no win); only the cat's
    own movement can."""
    hands = deal(s1=["miau-black-kitchen"])
    # The parcel (black's favourite) lies in the kitchen on b1, the food bowl on a1.
    t = Table(pieces={"black": "h3", "parcel": "b1"}, hands=hands)
    t.step("black", "south", "north", "south", "north").apply("done")
    t.apply("react miau-black-kitchen")
    assert places(t) == ["a2", "a3", "a4", "b2", "b3", "b4", "c1", "c2", "c3", "c4"]
    t.apply("place c1")
    assert where(t.st, "black") == "c1" and not t.st.is_terminal
    t.quiet_turns_until(0, keep=["black"])  # seats 1 and 2 play
    t.step("black", "west")  # c1 -> b1: its own step wins
    assert t.st.is_terminal and t.st.winners == [0]


def test_each_moved_cat_gets_its_own_window():
    """The other players are asked about every cat the player on turn moved, one after another."""
    hands = deal(s1=["miau-black-salon", "miau-white-salon"], s2=["miau-white-hall"])
    t = Table(pieces={"black": "f3", "white": "e4"}, hands=hands, stack=EXAMPLE_STACK)
    t.step("black", "west", "west").step("white", "south", "north")
    t.apply("done")
    assert t.st.vars["reacting"] == index("black") and t.player == 1
    assert t.legal == ["react miau-black-salon", "pass"]
    t.apply("pass", "pass")  # nobody else has a card for black
    assert t.st.vars["reacting"] == index("white") and t.player == 1
    assert t.legal == ["react miau-white-salon", "pass"]
    t.apply("pass")
    assert t.player == 2 and t.legal == ["react miau-white-hall", "pass"]
    t.apply("react miau-white-hall", "place d6")
    assert where(t.st, "white") == "d6" and where(t.st, "black") == "d3"


def test_played_cards_lie_face_up_and_are_replaced_at_once():
    """All reaction cards are placed face up; for each card played a new one is drawn at once."""
    hands = deal(s1=["miau-black-wine-cellar"], s2=["purr"])
    t = black_into_the_kitchen(hands, stack=["miau-grey-hall", "miau-grey-salon"])
    t.apply("react miau-black-wine-cellar")
    assert t.hand(1) == sorted(hands[1][1:] + ["miau-grey-hall"])  # during the placing already
    for seat in range(3):
        assert t.st.view(seat)["zones"]["played"] == ["miau-black-wine-cellar"]
    t.apply("place b11", "react purr")
    assert t.hand(2) == sorted(hands[2][1:] + ["miau-grey-salon"])
    assert ids(t.st, "played") == ["purr", "miau-black-wine-cellar"]


def test_hands_always_hold_five():
    """Players always hold five cards.  Ruling stack-empty: when the stack runs out, the played
    reaction cards are shuffled into a new stack."""
    hands = deal(s1=["miau-black-salon"], s2=["purr"])
    t = Table(pieces={"black": "f3"}, hands=hands)
    st = t.st
    for c in list(st.zones["stack"]):  # the stack has run out
        put(st, c, "played")
    assert len(st.zones["played"]) == 45 and accounted(st)
    t.step("black", "west", "west", "west", "west").apply("done")
    t.apply("react miau-black-salon")
    assert len(st.zones["hand:1"]) == 5
    assert st.zones["played"] == [] and len(st.zones["stack"]) == 45
    t.apply("place g3", "react purr")
    assert len(st.zones["hand:2"]) == 5 and ids(st, "played") == ["purr"] and len(st.zones["stack"]) == 44
    assert accounted(st)
    # ... and so on through whole games.
    import random

    for seed in range(3):
        st = mansion().new_game(players=4, seed=seed)
        rnd = random.Random(seed)
        for _ in range(600):
            if st.is_terminal:
                break
            assert [len(st.zones[f"hand:{p}"]) for p in range(4)] == [5] * 4
            st.apply(rnd.choice(st.legal_actions()))


def test_each_player_may_swap_one_card():
    """When no more reaction cards are played, each player (from the player on turn, clockwise)
    may discard one reaction card and draw a new one."""
    t = Table(stack=["miau-grey-hall", "miau-grey-salon", "purr"])
    t.step("white", "north", "west", "west", "north").apply("done")
    while frame(t.st) == "react_to":  # nobody plays a card for white
        t.apply("pass")
    assert frame(t.st) == "swaps" and t.player == 0
    assert t.legal == [f"swap {c}" for c in ids(t.st, "hand:0")[::-1]] + ["pass"]
    before = t.hand(0)
    t.apply("swap miau-calico-kitchen")
    assert t.hand(0) == sorted([c for c in before if c != "miau-calico-kitchen"] + ["miau-grey-hall"])
    assert ids(t.st, "played") == ["miau-calico-kitchen"]
    assert t.player == 1 and t.legal[-1] == "pass"
    t.apply("pass")
    assert t.player == 2
    t.apply("swap miau-ginger-salon")
    assert "miau-grey-salon" in t.hand(2) and len(t.st.zones["hand:2"]) == 5
    assert frame(t.st) == "challenge" and t.player == 0  # only one swap each
    t.apply("pass")
    assert at_turn_start(t.st) and t.player == 1


# =========================================================================== first turns


def test_first_turn_limits():
    """In each player's first turn no cat may be hissed at, no reaction card may be played and no
    challenge may be issued (ruling first-round: for the moves of that player, by anyone)."""
    st = mansion().new_game(players=3, seed=5)
    st.apply("step black east")  # black on e5, next to grey and ginger
    assert not any(a.startswith("hiss ") for a in st.legal_actions())

    hands = deal(s0=["miau-black-salon", "purr"], s2=["miau-black-hall", "purr"])
    for first in (True, False):
        t = Table(seat=1, first_turn=first, pieces={"black": "e4", "grey": "e3"}, hands=hands)
        assert bool(t.hisses()) != first  # black and grey are neighbours
        t.step("black", "west", "north", "north", "east")
        assert where(t.st, "black") == "e2"  # next to grey again
        assert (t.legal == ["done"]) == first
        t.apply("done")
        if first:
            assert frame(t.st) == "swaps" and t.player == 1  # nobody is asked about black
            assert len(t.legal) == 6  # the swap is allowed
            t.apply("pass", "pass", "pass")
            assert at_turn_start(t.st) and t.player == 2  # no challenge
        else:
            assert frame(t.st) == "react_to" and t.player == 2
            t.apply("pass")
            assert t.player == 0 and t.legal == ["react miau-black-salon", "pass"]
            t.apply("pass", "pass", "pass", "pass")
            assert frame(t.st) == "challenge" and t.player == 1


# =========================================================================== the challenge


def walk_white_and_end(t: Table) -> Table:
    """Seat 0 walks the white cat d7-d6-c6-b6-b5, ends, and everybody declines the swap."""
    t.step("white", "north", "west", "west", "north").apply("done")
    while frame(t.st) != "challenge":
        t.apply("pass")
    return t


def test_challenge_right():
    """At the end of his turn, once a game, a player may name another player's cat; if he is
    right, that cat is identified and he immediately plays another turn."""
    t = walk_white_and_end(Table())
    assert t.player == 0
    assert sorted(t.legal) == sorted(
        [f"challenge seat {q} {c}" for q in (1, 2) for c in CATS if c != "black"] + ["pass"]
    )
    t.apply("challenge seat 1 white")
    assert t.st.vars["identified"] == [index("white")]
    assert t.st.log[-1] == "seat 0 names seat 1's cat right: it is the white cat; seat 0 plays again"
    assert at_turn_start(t.st) and t.player == 0
    assert t.st.pvars[0]["challenged"] and t.st.pvars[0]["turns"] == 2
    assert t.steps_of("white") == []  # moved only by its owner now
    t.step("black", "east", "north", "north", "west").apply("done")
    t.pass_to_next_turn()  # reactions and swaps: no challenge left
    assert at_turn_start(t.st) and t.player == 1  # no second challenge
    assert t.steps_of("white") != []  # its owner may move it


def test_challenge_wrong():
    """If he guessed wrongly, he must reveal his own cat card.  Ruling wrong-challenge-identifies:
    his cat is then identified: no reaction cards for it, no hissing at it, only he moves it."""
    hands = deal(s1=["miau-black-salon"], s2=["miau-black-hall"])
    t = Table(pieces={"grey": "e5"}, hands=hands)  # grey next to black (d5)
    assert "hiss grey black south" in t.legal
    walk_white_and_end(t)
    t.apply("challenge seat 1 grey")  # seat 1 has the white cat
    assert t.st.pvars[0]["shown_cat"] == "black"
    assert t.st.vars["identified"] == [index("black")]
    line = "seat 0 guessed wrong and shows their cat: the black cat"
    assert t.st.log[-1] == line
    for seat in (1, 2):
        view = t.st.view(seat)
        assert view["player_variables"][0]["shown_cat"] == "black" and line in view["log"]
    assert at_turn_start(t.st) and t.player == 1  # no extra turn
    assert t.steps_of("black") == []  # only its owner moves it
    assert hisses_at(t, "grey", "black") == []  # no hissing at it
    assert hisses_at(t, "black", "grey") != []  # it may still hiss
    t.quiet_turns_until(0, keep=["black", "grey"])
    assert t.steps_of("black") == ["south"]
    t.step("black", "south", "west", "west", "south").apply("done")
    assert frame(t.st) == "swaps"  # no reaction card for black
    t.apply("pass", "pass", "pass")
    assert at_turn_start(t.st) and t.player == 1  # only once per game


def test_identified_cat_limits():
    """As soon as the owner of a cat is identified, no reaction card may be played for it, it
    may not be hissed at, and only its owner may move it."""
    hands = deal(s1=["miau-grey-salon"], s2=["miau-white-salon", "miau-white-hall"])
    t = Table(pieces={"white": "e3", "grey": "e4"}, identified=["white"], hands=hands)
    assert t.steps_of("white") == []
    assert hisses_at(t, "grey", "white") == []
    assert hisses_at(t, "white", "grey") == ["east", "south", "west"]
    t.step("grey", "west", "north", "north", "east")  # d4 d3 d2 e2: grey next to white
    assert hisses_at(t, "grey", "white") == []
    t.apply("done")
    assert t.player == 1 and t.legal == ["react miau-grey-salon", "pass"]
    t.apply("pass")
    t.pass_to_next_turn()
    assert t.player == 1
    assert sorted(t.steps_of("white")) == ["east", "south", "west"]  # its owner may move it
    t.step("white", "west", "west", "south", "west")
    t.apply("done")
    assert frame(t.st) == "swaps"  # seat 2's white cards: not asked


def test_challenge_options_and_no_challenge_for_identified_cats():
    """A challenge names another seat and a cat: never one's own cat, never an identified one."""
    t = walk_white_and_end(Table(players=4, identified=["grey"]))
    expected = [f"challenge seat {q} {c}" for q in (1, 2, 3) for c in CATS if c not in ("black", "grey")]
    assert sorted(t.legal) == sorted(expected + ["pass"])


# =========================================================================== the end


def test_a_cat_reaching_its_favourite_object_wins_at_once():
    """The player whose cat moves onto the space of its favourite object wins; the game ends
    immediately (in the middle of the movement, before any reaction)."""
    t = Table(pieces={"black": "h11"})  # the parcel lies on i11
    t.step("black", "east")
    assert t.st.is_terminal and t.legal == []
    assert t.st.winners == [0] and t.st.scores == [1, 0, 0]
    assert t.st.log[-1] == "black reaches the parcel: seat 0 wins"
    assert t.st.view(2)["winners"] == [0]


def test_moving_another_players_cat_onto_its_object_wins_for_the_owner():
    """Everyone may move every cat: the player on turn who walks the white cat onto the cushion
    makes seat 1 (white, likes the cushion) win."""
    t = Table(pieces={"white": "h1"})  # the cushion lies on i1
    t.step("white", "east")
    assert t.st.is_terminal and t.st.winners == [1] and t.st.scores == [0, 1, 0]


def test_an_object_that_is_not_the_favourite_is_only_passed():
    t = Table(pieces={"black": "h1"})  # the cushion is white's object
    t.step("black", "east")
    assert not t.st.is_terminal and t.st.vars["passing"] == index("black")
    t = Table(players=2, pieces={"grey": "h1"})  # nobody's cat at 2 players
    t.step("grey", "east")
    assert not t.st.is_terminal


def test_a_cat_stepping_onto_its_object_in_a_bedroom_wins():
    """Objects may be moved into a bedroom; a cat stepping onto its favourite object there wins."""
    t = Table(pieces={"black": "b8", "parcel": "b9"})
    t.step("black", "south")
    assert t.st.is_terminal and t.st.winners == [0]


def test_an_object_brought_onto_a_cat_in_a_bedroom_does_not_win():
    """Ruling miau-onto-goal: an object brought onto a cat in a bedroom does not count, since the
    rule speaks of the cat moving."""
    t = Table(pieces={"black": "b9", "parcel": "b7"})
    t.step("parcel", "south")  # b7 -> b8, into the bedroom
    if "south" in t.steps_of("parcel"):  # (a fix may also forbid this step)
        t.step("parcel", "south")  # b8 -> b9: onto the black cat
        assert on(t.st, "b9") == ["black", "parcel"] and not t.st.is_terminal
        t.step("grey", "north")  # an unrelated cat moves
        assert not t.st.is_terminal


def test_a_miau_into_a_bedroom_onto_the_favourite_object_wins():
    """Ruling miau-onto-goal: a Miau moves the cat; if the player on turn places it on its favourite
    object (possible only in a bedroom), its owner wins at once."""
    hands = deal(s2=["miau-black-master-bedroom"])
    t = Table(seat=1, pieces={"black": "e4", "parcel": "b9"}, hands=hands)
    t.step("black", "north", "north", "west", "east").apply("done")
    t.apply("react miau-black-master-bedroom")
    assert "place b9" in t.legal
    t.apply("place b9")
    assert t.st.is_terminal and t.st.winners == [0]


def test_a_cat_may_step_onto_an_object_and_back():
    """Ruling passing-objects: a cat may step onto an object's space if, with the steps left, it
    can go on to a free space; the space it comes from is free once it has left."""
    t = Table(pieces={"black": "b1", "parcel": "a1", "food-bowl": "i11", "grey": "a2"})
    assert "west" in t.steps_of("black")
    t.step("black", "west")
    assert t.st.is_terminal and t.st.winners == [0]


# =========================================================================== hidden information


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_show_only_ones_own_secrets(players):
    """Each player knows his own cat and character and his hand, not the others'; the stack and
    the cards set aside are face down."""
    import json

    st = mansion().new_game(players=players, seed=3)
    for seat in range(players):
        view = st.view(seat)
        zones = view["zones"]
        for p in range(players):
            for zone in (f"identity:{p}", f"character:{p}", f"hand:{p}"):
                real = [mansion().card_ids[c] for c in st.zones[zone]]
                assert zones[zone] == (real if p == seat else [None] * len(real))
        assert set(zones["aside"]) == {None} and set(zones["stack"]) == {None}
        text = json.dumps(view)
        for p in range(players):
            if p != seat:
                for zone in (f"identity:{p}", f"character:{p}"):
                    assert f'"{mansion().card_ids[st.zones[zone][0]]}"' not in text
        assert ("actions" in view["decision"]) == (seat == st.current_player)
