"""Caty Mini, rule by rule: small positions from the rulebook and what must follow.

Every test builds a position (a seeded game, sometimes with cards moved by hand
through ``swap``/``give``/``set_pile``), plays a few actions and checks the
result against numbers worked out from the rulebook and the board coordinates,
never against numbers the engine computed.

The worked example used by several tests (room 1 = seat 0's room; 1 cell = 10):

    chair/right      at (4.5, 0)     on the north wall
    fireplace/left   at (12, 5.5)    on the east wall
    fireplace/right  at (12, 6.5)

    chair/right -> fireplace/left: y = 5.5 (x - 4.5) / 7.5, length sqrt(7.5² + 5.5²) = 9.30 cells -> 93.
    Between x = 8 and x = 9 the line climbs from y = 2.57 to 3.30: it crosses cells (8, 2) = ball
    and (8, 3) = bone and no other toy (spring (7, 3): there y < 2.57; mouse (8, 4): y >= 4 only past x = 9.9).
    chair/right -> fireplace/right: sqrt(7.5² + 6.5²) = 9.92 cells -> 99.
    fireplace/left -> fireplace/right: 1 cell -> 10.
    fireplace/right (12, 6.5) -> desk/right (6.5, 0): between y = 2 and y = 3 the line is at x = 8.2 .. 9.0,
    so it crosses the ball cell (8, 2) again.

In room 2 (seat 1): chair/right (8.5, 0) -> fireplace/left (12, 3.5) is the diagonal 3.5·√2 = 4.95 cells
-> 49, far from every toy (all toys of room 2 lie at x <= 7); fireplace/left -> fireplace/right is 10.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from table import all_strings

from engine import IllegalAction, load_game

COLOURS = ["yellow", "turquoise", "red", "blue"]
TOYS = ["ball", "mouse", "yarn", "feather", "fish", "bell", "sock", "spring", "bone", "duck"]
STRING = 1450  # constants.string_length
REPO = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- helpers


def idx(game, cid: str) -> int:
    """Card index of the (first) component with this id."""
    return game.card_ids.index(cid)


def names(game, st, zone: str) -> list[str]:
    """Component ids in a zone, bottom first (the top is the last one)."""
    return [game.card_ids[c] for c in st.zones[zone]]


def colour(game, cid: str) -> str:
    return game.attributes["colour"][idx(game, cid)]


def values(game, st, zone: str) -> list[int]:
    return [game.attributes["value"][c] for c in st.zones[zone]]


def toys_in(game, st, zone: str) -> list[str]:
    return [game.attributes["toy"][c] for c in st.zones[zone]]


def table_top(game, st) -> str:
    return names(game, st, "table")[-1]


def move(st, card: int, zone: str) -> None:
    """Put a card on top of a zone, keeping st.loc consistent."""
    st.zones[st.loc[card]].remove(card)
    st.zones[zone].append(card)
    st.loc[card] = zone


def swap(game, st, a: str, b: str) -> None:
    """Exchange the places (zone and position) of two tiles."""
    ia, ib = idx(game, a), idx(game, b)
    za, zb = st.loc[ia], st.loc[ib]
    pa, pb = st.zones[za].index(ia), st.zones[zb].index(ib)
    st.zones[za][pa], st.zones[zb][pb] = ib, ia
    st.loc[ia], st.loc[ib] = zb, za


def put_on_table(game, st, cid: str) -> None:
    """Make ``cid`` the visible tile (the old one takes its place)."""
    if table_top(game, st) != cid:
        swap(game, st, table_top(game, st), cid)


def give(game, st, seat: int, cid: str) -> None:
    """Put tile ``cid`` in seat's hand in place of the hand's tile of the same colour."""
    hand = f"hand:{seat}"
    if st.loc[idx(game, cid)] != hand:
        same = [t for t in names(game, st, hand) if colour(game, t) == colour(game, cid)]
        swap(game, st, same[0], cid)


def set_pile(game, st, toy: str, pile_values: list[int]) -> None:
    """Make token_pile:<toy> hold tokens of these values, bottom first; the others go to the box."""
    zone = f"token_pile:{toy}"
    pool = [c for c in range(len(game.card_ids)) if game.attributes["toy"][c] == toy and st.loc[c] in (zone, "box")]
    for c in pool:
        if st.loc[c] == zone:
            move(st, c, "box")
    for v in pile_values:
        move(st, next(c for c in pool if st.loc[c] == "box" and game.attributes["value"][c] == v), zone)


def set_won(game, st, seat: int, token_ids: list[str]) -> None:
    """Seat's won tokens become exactly these (taken from the piles or the box)."""
    won = f"won:{seat}"
    for c in list(st.zones[won]):
        move(st, c, "box")
    for tid in token_ids:
        card = next(
            c
            for c, cid in enumerate(game.card_ids)
            if cid == tid and (st.loc[c] == "box" or st.loc[c].startswith("token_pile:"))
        )
        move(st, card, won)


def finish_setup(st, notch: dict | None = None, piles: dict | None = None) -> None:
    """Answer the setup decisions: extra piles as given (else the first legal one),
    starting notches as given (else left); stops at round 1's "lay" decision."""
    notch = notch or {}
    piles = {seat: list(cs) for seat, cs in (piles or {}).items()}
    while st.vars["round"] == 0:
        seat, legal = st.current_player, st.legal_actions()
        if legal[0].startswith("pile "):
            wanted = piles.get(seat)
            action = f"pile {wanted.pop(0)}" if wanted else legal[0]
        else:
            action = f"notch {notch.get(seat, 'left')}"
        st.apply(action, seat=seat)
    assert st.legal_actions()[0].startswith("lay ")


def chair_fireplace(game, players: int = 4, seed: int = 5):
    """Visible tile: the turquoise chair; every cat hooked at chair/right; seat 0 holds the
    red fireplace (round 1, seat 0 is about to lay)."""
    st = game.new_game(players=players, seed=seed)
    put_on_table(game, st, "chair")
    give(game, st, 0, "fireplace")
    finish_setup(st, notch=dict.fromkeys(range(players), "right"))
    return st


def play_out(st, rnd: random.Random) -> list[tuple[int, int, str]]:
    """Play random legal actions to the end; return (round, seat, action) for each decision."""
    record = []
    while not st.is_terminal:
        seat, action = st.current_player, rnd.choice(st.legal_actions())
        record.append((st.vars["round"], seat, action))
        st.apply(action, seat=seat)
    return record


# ------------------------------------------------------------------- setup: tiles


def test_two_players_deal_seven_tiles_extras_from_three_different_piles(caty):
    """Setup D, 2 players: one tile from each pile, then 3 more from 3 *different* piles
    that the player chooses; the same pile may not be chosen twice by one player."""
    st = caty.new_game(players=2, seed=11)
    for seat in (0, 1):
        assert sorted(colour(caty, t) for t in names(caty, st, f"hand:{seat}")) == sorted(COLOURS)
    assert st.current_player == 0
    assert sorted(st.legal_actions()) == sorted(f"pile {c}" for c in COLOURS)

    red_pile = list(st.zones["pile:red"])
    st.apply("pile red", seat=0)
    assert st.zones["pile:red"] == red_pile[:-1]  # the top tile of the red pile ...
    assert st.loc[red_pile[-1]] == "hand:0"  # ... went to seat 0's hand
    assert "pile red" not in st.legal_actions()
    before = st.clone()
    with pytest.raises(IllegalAction):
        st.apply("pile red", seat=0)
    assert st == before  # a refused action changes nothing
    st.apply("pile blue", seat=0)
    assert sorted(st.legal_actions()) == ["pile turquoise", "pile yellow"]
    st.apply("pile yellow", seat=0)

    assert st.current_player == 1  # seat 1 chooses afresh:
    assert "pile red" in st.legal_actions()  # red is still allowed for them
    finish_setup(st, piles={1: ["red", "turquoise", "blue"]})
    hand0 = Counter(colour(caty, t) for t in names(caty, st, "hand:0"))
    hand1 = Counter(colour(caty, t) for t in names(caty, st, "hand:1"))
    assert hand0 == {"yellow": 2, "turquoise": 1, "red": 2, "blue": 2}
    assert hand1 == {"yellow": 1, "turquoise": 2, "red": 2, "blue": 2}


def test_three_players_deal_five_tiles_one_extra_from_any_non_empty_pile(caty):
    """Setup D, 3 players: one tile from each pile plus 1 from any pile (one that still has tiles)."""
    st = caty.new_game(players=3, seed=2)
    shown = colour(caty, table_top(caty, st))
    # 5 tiles a colour; the visible one came from one colour; 3 players took one of each.
    for c in COLOURS:
        assert len(st.zones[f"pile:{c}"]) == (1 if c == shown else 2)
    assert sorted(st.legal_actions()) == sorted(f"pile {c}" for c in COLOURS)
    st.apply(f"pile {shown}", seat=0)  # takes the last tile of that colour
    assert st.zones[f"pile:{shown}"] == []
    assert st.current_player == 1
    assert sorted(st.legal_actions()) == sorted(f"pile {c}" for c in COLOURS if c != shown)
    finish_setup(st)
    for seat in range(3):
        assert len(st.zones[f"hand:{seat}"]) == 5
    assert Counter(colour(caty, t) for t in names(caty, st, "hand:0"))[shown] == 2


def test_four_players_deal_one_tile_of_each_colour_and_no_extra(caty):
    """Setup D, 4 players: one tile from each pile, no extra; the first decision is the starting notch."""
    st = caty.new_game(players=4, seed=3)
    assert st.current_player == 0
    assert sorted(st.legal_actions()) == ["notch left", "notch right"]
    finish_setup(st)
    for seat in range(4):
        assert sorted(colour(caty, t) for t in names(caty, st, f"hand:{seat}")) == sorted(COLOURS)


@pytest.mark.parametrize("players, hand_size", [(2, 7), (3, 5), (4, 4)])
def test_unused_tiles_go_to_the_box_and_one_tile_is_on_the_table(caty, players, hand_size):
    """Setup B and D: one tile in the middle, the hands, and the rest of the piles back in the box."""
    for seed in range(4):
        st = caty.new_game(players=players, seed=seed)
        finish_setup(st)
        assert len(st.zones["table"]) == 1
        assert st.zones["tiles"] == []
        assert all(st.zones[f"pile:{c}"] == [] for c in COLOURS)
        hands = [names(caty, st, f"hand:{s}") for s in range(players)]
        assert [len(h) for h in hands] == [hand_size] * players
        boxed_tiles = [t for t in names(caty, st, "box") if caty.card_kinds[idx(caty, t)] == "tile"]
        assert len(boxed_tiles) == 20 - 1 - players * hand_size
        everything = names(caty, st, "table") + boxed_tiles + [t for h in hands for t in h]
        assert sorted(everything) == sorted(cid for cid, k in zip(caty.card_ids, caty.card_kinds) if k == "tile")


def test_four_players_box_holds_one_tile_of_each_other_colour(caty):
    """Setup C/D at 4 players: the visible tile's pile had 4 tiles and was dealt out; the other piles
    had 5 and keep 1 each, which go back in the box."""
    for seed in range(6):
        st = caty.new_game(players=4, seed=seed)
        finish_setup(st)
        boxed = sorted(colour(caty, t) for t in names(caty, st, "box"))
        assert boxed == sorted(c for c in COLOURS if c != colour(caty, table_top(caty, st)))


def test_first_tile_on_the_table_is_random_of_any_colour(caty):
    """Setup B: the tile in the middle is chosen at random, of any colour."""
    shown = [table_top(caty, caty.new_game(players=4, seed=seed)) for seed in range(40)]
    assert {colour(caty, t) for t in shown} == set(COLOURS)
    assert len(set(shown)) >= 10


# ------------------------------------------------------------------ setup: tokens


@pytest.mark.parametrize("players, removed", [(2, 2), (3, 1), (4, 0)])
def test_token_piles_lose_random_tokens_and_sit_smallest_on_top(caty, players, removed):
    """Setup G: remove 2/1/0 tokens from each pile at 2/3/4 players, put them in the box, and
    stack the rest with the smallest value on top (the last element)."""
    for seed in range(5):
        st = caty.new_game(players=players, seed=seed)
        finish_setup(st)
        boxed = Counter(caty.card_ids[c] for c in st.zones["box"] if caty.card_kinds[c] == "token")
        for toy in TOYS:
            pile = values(caty, st, f"token_pile:{toy}")
            assert set(toys_in(caty, st, f"token_pile:{toy}")) <= {toy}
            out = [
                int(cid.rsplit("-", 1)[1]) for cid, k in boxed.items() if cid.startswith(toy + "-") for _ in range(k)
            ]
            assert len(pile) == 5 - removed and len(out) == removed
            assert sorted(pile + out) == [2, 2, 3, 3, 4]
            assert pile == sorted(pile, reverse=True)  # read from the top (end): smallest first


def test_removed_tokens_are_chosen_at_random(caty):
    """Setup G: the removed tokens are random, not always the same values."""
    removed = set()
    for seed in range(30):
        st = caty.new_game(players=2, seed=seed)
        finish_setup(st)
        removed.add(
            tuple(sorted(caty.attributes["value"][c] for c in st.zones["box"] if caty.attributes["toy"][c] == "ball"))
        )
    assert len(removed) >= 3  # of the pairs (2,2) (2,3) (2,4) (3,3) (3,4)


# --------------------------------------------------------------- setup: the notch


def test_starting_notch_is_chosen_at_setup(caty):
    """Setup F: each player hooks the string in the left or right notch of the visible furniture."""
    st = caty.new_game(players=3, seed=8)
    put_on_table(caty, st, "piano")
    finish_setup(st, notch={0: "left", 1: "right", 2: "left"})
    assert [p["end"] for p in st.pvars] == ["piano/left", "piano/right", "piano/left"]
    assert [p["string"] for p in st.pvars] == [STRING] * 3
    for seat in range(3):
        assert st.pvars[seat]["end"] in caty.board(f"room:{seat}").points


# ------------------------------------------------------------------ laying a tile


def test_laid_tile_must_differ_in_colour_from_the_visible_one(caty):
    """Course A: the chosen tile must be a different colour than the visible one."""
    st = chair_fireplace(caty, players=4)
    hand = names(caty, st, "hand:0")
    assert sorted(st.legal_actions()) == sorted(f"lay {t}" for t in hand if colour(caty, t) != "turquoise")
    own_turquoise = next(t for t in hand if colour(caty, t) == "turquoise")
    before = st.clone()
    with pytest.raises(IllegalAction):
        st.apply(f"lay {own_turquoise}", seat=0)
    assert st == before
    st.apply("lay fireplace", seat=0)
    assert table_top(caty, st) == "fireplace"
    assert names(caty, st, "table") == ["chair", "fireplace"]  # the old tile stays under it
    assert "fireplace" not in names(caty, st, "hand:0")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lay_choices_over_a_whole_game(caty, players):
    """Course A in every round of random games: the lay choices are exactly the hand's tiles of
    another colour than the visible one (all of them if there is none, see the ruling)."""
    for seed in range(3):
        st = caty.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            if legal[0].startswith("lay "):
                shown = colour(caty, table_top(caty, st))
                hand = names(caty, st, f"hand:{st.current_player}")
                other = [t for t in hand if colour(caty, t) != shown]
                assert sorted(legal) == sorted(f"lay {t}" for t in (other or hand))
            st.apply(rnd.choice(legal))


def test_ruling_no_other_colour_allows_same_colour(caty):
    """Ruling no-other-colour: a marker holder with only tiles of the visible colour lays one of them,
    the round counts and the cats run to that furniture."""
    st = caty.new_game(players=4, seed=6)
    put_on_table(caty, st, "table")  # yellow
    yellows = ["lamp", "bookshelf", "clock", "plant"]
    for t in yellows:
        if st.loc[idx(caty, t)] != "hand:0":
            other = next(h for h in names(caty, st, "hand:0") if colour(caty, h) != "yellow")
            swap(caty, st, other, t)
    finish_setup(st)
    assert sorted(names(caty, st, "hand:0")) == sorted(yellows)
    assert sorted(st.legal_actions()) == sorted(f"lay {t}" for t in yellows)
    st.apply("lay clock", seat=0)
    assert table_top(caty, st) == "clock" and st.vars["round"] == 1
    st.apply("notch left", seat=0)
    assert st.pvars[0]["end"] == "clock/right"
    play_out(st, random.Random(1))
    assert sum(a.startswith("lay ") for a in st.actions) == 12


# ----------------------------------------------------------------------- the run


def test_entry_notch_chosen_by_the_player_exit_is_the_other(caty):
    """Course B: the string enters through one notch and exits through the other, as the player chooses."""
    st = chair_fireplace(caty, players=4)
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.pvars[0]["end"] == "fireplace/right"
    st.apply("notch right", seat=1)
    assert st.pvars[1]["end"] == "fireplace/left"


@pytest.mark.parametrize("entry, cost", [("left", 93 + 10), ("right", 99 + 10)])
def test_run_uses_segment_plus_notch_gap(caty, entry, cost):
    """Ruling string-cost: a run uses the straight segment from the string's end to the entry notch
    plus the gap from the entry to the exit notch (hand-computed, see the module docstring)."""
    board = caty.board("room:0")
    assert (
        board.distance("chair/right", f"fireplace/{entry}") + board.distance("fireplace/left", "fireplace/right")
        == cost
    )
    st = chair_fireplace(caty, players=4)
    st.apply("lay fireplace", seat=0)
    st.apply(f"notch {entry}", seat=0)
    assert st.pvars[0]["string"] == STRING - cost


def test_each_seat_runs_in_its_own_room(caty):
    """Setup A: seat 1 plays on room 2, where the same notches lie elsewhere (49 + 10, no toy)."""
    st = chair_fireplace(caty, players=4)
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.pvars[0]["string"] == STRING - 103
    st.apply("notch left", seat=1)
    assert st.pvars[1]["string"] == STRING - 59
    assert st.zones["won:1"] == []


def test_run_touching_two_toys_scores_two_tokens(caty):
    """Course B: chair/right -> fireplace/left crosses the ball and the bone: the player takes the top
    token of each of those two piles and nothing else."""
    st = chair_fireplace(caty, players=4)
    piles = {toy: list(st.zones[f"token_pile:{toy}"]) for toy in TOYS}
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.zones["won:0"] == [piles["ball"][-1], piles["bone"][-1]]
    for toy in TOYS:
        expected = piles[toy][:-1] if toy in ("ball", "bone") else piles[toy]
        assert st.zones[f"token_pile:{toy}"] == expected
    assert st.scores[0] == 2 + 2  # 4 players: full piles, a 2 on top of each
    assert "seat 0's cat runs past the ball" in st.log and "seat 0's cat runs past the bone" in st.log


def test_run_touching_two_cells_of_one_toy_scores_one_token(tmp_path):
    """Ruling same-toy-once-per-run: on a copy of room 1 where the bone's cell (8, 3) holds a second ball,
    chair/right -> fireplace/left crosses two ball cells and no other toy: one ball token, no bone."""
    for folder in ("rules", "boards"):
        shutil.copytree(REPO / folder / "caty-mini", tmp_path / folder / "caty-mini")
    room = tmp_path / "boards" / "caty-mini" / "room-1.yaml"
    text = room.read_text(encoding="utf-8")
    assert text.count("{cell: [8, 3], label: bone}") == 1
    room.write_text(text.replace("{cell: [8, 3], label: bone}", "{cell: [8, 3], label: ball}"), encoding="utf-8")
    game = load_game(tmp_path / "rules" / "caty-mini" / "game.yaml")
    st = chair_fireplace(game, players=4)
    ball_top = st.zones["token_pile:ball"][-1]
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.zones["won:0"] == [ball_top]
    assert st.scores[0] == 2


def test_same_toy_touched_twice_in_a_game_scores_twice(caty):
    """Course B: the same toy scores each time the cat runs past it; the second token comes from
    the top of what is left, so it is worth as much or more."""
    st = caty.new_game(players=2, seed=5)
    put_on_table(caty, st, "chair")
    give(caty, st, 0, "fireplace")
    give(caty, st, 1, "desk")
    finish_setup(st, notch={0: "right"})
    set_pile(caty, st, "ball", [4, 3, 2])
    st.pvars[1]["string"] = 0  # seat 1 is out of string: only seat 0 takes tokens
    st.apply("lay fireplace", seat=0)  # round 1
    st.apply("notch left", seat=0)  # chair/right -> fireplace/left: ball and bone
    st.apply("notch left", seat=1)
    st.apply("lay desk", seat=1)  # round 2
    st.apply("notch left", seat=1)
    st.apply("notch right", seat=0)  # fireplace/right -> desk/right: the ball again
    balls = [caty.attributes["value"][c] for c in st.zones["won:0"] if caty.attributes["toy"][c] == "ball"]
    assert balls == [2, 3]
    assert values(caty, st, "token_pile:ball") == [4]


def test_empty_pile_scores_nothing(caty):
    """Course B: if the pile of a toy has run out, the player takes no token for it."""
    st = chair_fireplace(caty, players=4)
    set_pile(caty, st, "ball", [])
    bone_top = st.zones["token_pile:bone"][-1]
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.zones["won:0"] == [bone_top]
    assert st.pvars[0]["string"] == STRING - 103  # the run still happened


def test_out_of_string_scores_nothing_and_uses_the_rest(caty):
    """Ruling out-of-string: a run longer than the string left scores nothing and leaves 0 string,
    so every later run of that player scores nothing either."""
    st = chair_fireplace(caty, players=4)
    st.pvars[0]["string"] = 102  # the run needs 93 + 10 = 103
    piles = {toy: list(st.zones[f"token_pile:{toy}"]) for toy in TOYS}
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.pvars[0]["string"] == 0
    assert st.zones["won:0"] == []
    assert {toy: st.zones[f"token_pile:{toy}"] for toy in TOYS} == piles
    assert "seat 0 runs out of string and scores nothing" in st.log

    # Play on; whenever seat 0 runs, aim at a toy whose pile still has tokens.
    board, tempting = caty.board("room:0"), 0
    rnd = random.Random(3)
    while not st.is_terminal:
        legal = st.legal_actions()
        action = rnd.choice(legal)
        if st.current_player == 0 and legal[0].startswith("notch "):
            target = caty.attributes["furniture"][st.zones["table"][-1]]
            for side in ("left", "right"):
                if any(st.zones[f"token_pile:{t}"] for t in board.touched(st.pvars[0]["end"], f"{target}/{side}")):
                    action, tempting = f"notch {side}", tempting + 1
                    break
        st.apply(action)
        assert st.zones["won:0"] == [] and st.pvars[0]["string"] == 0
    assert tempting >= 3
    assert st.scores[0] == 0


def test_run_with_exactly_enough_string_still_scores(caty):
    """Out-of-string is only for a run *longer* than the string left: exactly enough still scores."""
    st = chair_fireplace(caty, players=4)
    st.pvars[0]["string"] = 103
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    assert st.pvars[0]["string"] == 0
    assert sorted(toys_in(caty, st, "won:0")) == ["ball", "bone"]
    assert st.pvars[0]["end"] == "fireplace/right"


# ------------------------------------------------------------- rounds and marker


@pytest.mark.parametrize("players", [2, 3, 4])
def test_twelve_rounds_marker_passes_left_and_runs_go_clockwise(caty, players):
    """Course of the game: 12 rounds; the marker holder lays the tile and runs first, then the
    players to their left; the marker passes left each round."""
    st = caty.new_game(players=players, seed=20 + players)
    record = play_out(st, random.Random(players))
    play = [(rnd, seat, a.split()[0]) for rnd, seat, a in record if rnd >= 1]
    expected = []
    for r in range(1, 13):
        marker = (r - 1) % players
        expected.append((r, marker, "lay"))
        expected += [(r, (marker + k) % players, "notch") for k in range(players)]
    assert play == expected
    assert st.is_terminal and st.legal_actions() == []
    assert st.vars["round"] == 12 and st.vars["marker"] == 12 % players
    assert len(st.zones["table"]) == 13
    # hands of 7/5/4 tiles lose 6/4/3 to the table: one tile each is left
    assert [len(st.zones[f"hand:{s}"]) for s in range(players)] == [1] * players
    with pytest.raises(IllegalAction):
        st.apply("notch left")


# ------------------------------------------------------------------------ scoring


def _finished(game, players=2, seed=9):
    st = game.new_game(players=players, seed=seed)
    play_out(st, random.Random(seed))
    return st


def test_score_is_the_sum_of_token_values(caty):
    """End of the game: add up the values of the tokens gained."""
    st = _finished(caty)
    set_won(caty, st, 0, ["ball-4", "duck-2", "fish-3"])
    set_won(caty, st, 1, ["mouse-2"])
    assert st.scores == [9, 2]
    assert st.winners == [0]


def test_tie_break_by_string_left(caty):
    """End of the game: on equal points the longer string left wins; equal on both is a shared win;
    more points beat more string."""
    st = _finished(caty)
    set_won(caty, st, 0, ["ball-4", "duck-2"])  # 6
    set_won(caty, st, 1, ["mouse-3", "fish-3"])  # 6
    st.pvars[0]["string"], st.pvars[1]["string"] = 120, 80
    assert st.scores == [6, 6] and st.winners == [0]
    st.pvars[0]["string"], st.pvars[1]["string"] = 80, 120
    assert st.winners == [1]
    st.pvars[0]["string"] = 120
    assert st.winners == [0, 1]
    set_won(caty, st, 1, ["mouse-3", "fish-4"])  # 7 points beat 6 ...
    st.pvars[1]["string"] = 0  # ... even with no string left
    assert st.scores == [6, 7] and st.winners == [1]


def test_winners_empty_until_the_end(caty):
    """The winner is decided after the last round only."""
    st = caty.new_game(players=2, seed=1)
    finish_setup(st)
    assert st.winners == []


def test_older_players_one_point_per_kind(caty, caty_older):
    """Variant for older players: token values plus 1 point per kind of toy (not per token)."""
    for game, bonus in ((caty, 0), (caty_older, 3)):
        st = game.new_game(players=4, seed=1)
        finish_setup(st)
        set_won(game, st, 0, ["ball-2", "ball-3", "duck-4", "sock-2"])
        assert st.scores[0] == 11 + bonus
    st = caty_older.new_game(players=4, seed=1)
    finish_setup(st)
    nine = [f"{toy}-2" for toy in TOYS[:9]]
    set_won(caty_older, st, 1, nine)
    assert st.scores[1] == 18 + 9


def test_older_players_all_kinds_gives_15_not_25(caty_older):
    """Ruling all-kinds-bonus: all ten kinds give 15 for the kinds in place of 10, not 10 + 15."""
    st = caty_older.new_game(players=4, seed=2)
    finish_setup(st)
    set_won(caty_older, st, 0, [f"{toy}-2" for toy in TOYS])  # values 20
    assert st.scores[0] == 20 + 15
    set_won(caty_older, st, 0, [f"{toy}-2" for toy in TOYS] + ["ball-4"])  # a second ball: still 15
    assert st.scores[0] == 24 + 15


# -------------------------------------------------------------------------- views


def test_view_hides_other_hands(caty):
    """Ruling tile-backs: a seat sees its own tiles; other hands only as unknown tiles, counted."""
    st = caty.new_game(players=3, seed=4)
    finish_setup(st)
    play = random.Random(4)
    for _ in range(10):  # into round 3
        st.apply(play.choice(st.legal_actions()))
    for seat in range(3):
        view = st.view(seat)
        words = {w for s in all_strings(view) for w in s.replace("/", " ").replace(":", " ").split()}
        for other in range(3):
            hand = names(caty, st, f"hand:{other}")
            if other == seat:
                assert view["zones"][f"hand:{other}"] == hand
            else:
                assert view["zones"][f"hand:{other}"] == [None] * len(hand)
                assert not words & set(hand)


def test_view_hides_token_values_of_others_and_of_the_piles(caty):
    """Tokens lie numbers face down: others see only which toy; the owner sees its own tokens."""
    st = chair_fireplace(caty, players=4)
    st.apply("lay fireplace", seat=0)
    st.apply("notch left", seat=0)
    own = st.view(0)["zones"]
    assert own["won:0"] == names(caty, st, "won:0")
    other = st.view(1)["zones"]
    assert other["won:0"] == [{"toy": "ball"}, {"toy": "bone"}]
    assert other["token_pile:ball"] == [{"toy": "ball"}] * 4
    assert st.view(1)["decision"] == {
        "player": 1,
        "kind": "notch",
        "secret": False,
        "actions": ["notch left", "notch right"],
    }
    assert "actions" not in st.view(0)["decision"]
