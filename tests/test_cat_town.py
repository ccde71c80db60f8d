"""Cat Town, rule by rule: a position from the rulebook, a few actions, what must follow.

Positions are built with ``Table`` (see cat_town_helpers): a seeded game brought to the start
of one seat's turn with an arranged hand; piles are written TOP FIRST.  Seat 0's cat token
starts just counter-clockwise of Block 1, so "walk cw" crosses b1 and "walk ccw" crosses the
last Block of the ring.  Expected results come from the rulebook, never from the engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from cat_town_helpers import RING, STARTS, Table, cat_town, finish, skip_reveals
from table import accounted, random_playout

from engine import IllegalAction

CATS = ["tabby", "calico", "siamese", "persian", "black-cat", "ginger", "tuxedo", "sphynx", "maine-coon", "ragdoll"]


def neighbours_offered(t: Table) -> set[str]:
    """The Blocks a Neighbouring-Block effect offers: play Guiding tourists and read its choices."""
    t.apply("play guiding-tourists")
    return {a.split()[1] for a in t.legal}


def blocks(*names: str) -> set[str]:
    return set(names)


# =========================================================================== set-up


@pytest.mark.parametrize("players, count, size", [(2, 4, 15), (3, 6, 12), (4, 6, 12)])
def test_the_town_is_built_for_the_player_count(players, count, size):
    """Set-up: 4 Blocks of 15 at 2 players, 6 of 12 at 3-4; Station 5 face up; Discard pile
    5 face down; 2 cards per hand; the rest of the 100 cards leave the game."""
    st = cat_town().new_game(players=players, seed=11)
    assert st.vars["ring"] == RING[players][:count]
    assert [len(st.zones[b]) for b in st.vars["ring"]] == [size] * count
    for b in RING[4][count:]:
        assert st.zones[b] == []
    assert len(st.zones["station"]) == 5 and len(st.zones["discard"]) == 5
    assert all(len(st.zones[f"hand:{p}"]) == 2 for p in range(players))
    assert len(st.zones["box"]) == 100 - count * size - 10 - 2 * players
    assert len(st.game.card_ids) == 100 and accounted(st)
    view = st.view(0)
    assert view["zones"]["station"] == [st.game.card_ids[c] for c in st.zones["station"]]  # face up
    assert view["zones"]["discard"] == [None] * 5  # face down


def test_the_deck_holds_10_cats_30_items_60_actions():
    """Components: 100 game cards, Cat ×10, Item ×30 (10 names × 3), Action ×60."""
    game = cat_town()
    kinds = Counter(game.attributes["type"])
    assert kinds == {"cat": 10, "item": 30, "action": 60}
    items = Counter(c for i, c in enumerate(game.card_ids) if game.attributes["type"][i] == "item")
    assert len(items) == 10 and set(items.values()) == {3}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_teammates_start_opposite(players):
    """Ruling token-placement: tokens spread evenly round the ring; at 4 players teammates
    (seats 0 & 2, seats 1 & 3) sit opposite each other (3 Blocks apart on a ring of 6)."""
    st = cat_town().new_game(players=players, seed=3)
    ring = st.vars["ring"]
    where = [ring.index(pv["pos"]) for pv in st.pvars]
    assert [pv["pos"] for pv in st.pvars] == STARTS[players]
    if players == 4:
        assert (where[2] - where[0]) % 6 == 3 and (where[3] - where[1]) % 6 == 3
        assert st.game.team_of(4, 0) == [0, 2] and st.game.team_of(4, 1) == [1, 3]
    else:
        gaps = {(where[(p + 1) % players] - where[p]) % len(ring) for p in range(players)}
        assert gaps == {2}


@pytest.mark.parametrize("variant", [None, "easy", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealing_rule(players, variant):
    """Dealing: a player dealt a Cat or two Items redeals them, so no starting hand holds a
    Cat or two Items (ruling redeal) — checked over many seeds, where an unchecked deal would
    give such a hand to about a quarter of the players."""
    game = cat_town(variant)
    for seed in range(150):
        st = game.new_game(players=players, seed=seed)
        for p in range(players):
            hand = [game.attributes["type"][c] for c in st.zones[f"hand:{p}"]]
            assert len(hand) == 2, (seed, p)
            assert "cat" not in hand, (seed, p)
            assert hand.count("item") < 2, (seed, p)
        assert accounted(st)


# =========================================================================== walking


@pytest.mark.parametrize("players", [2, 3, 4])
def test_walking_clockwise_crosses_the_block_in_front(players):
    """Take a walk: the cat crosses one Block clockwise and draws its top card."""
    t = Table(players=players, hand=["feeding"]).pile("block:b1", ["tabby", "fish-can", "teaser"])
    t.apply("walk cw draw")
    assert "tabby" in t.ids("hand:0")
    assert t.ids("block:b1") == ["fish-can", "teaser"]
    assert t.st.pvars[0]["pos"] == "block:b2"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_walking_counter_clockwise_crosses_the_block_behind(players):
    """Take a walk counter-clockwise: the cat crosses the Block on its other side."""
    last = RING[players][-1]
    t = Table(players=players, hand=["feeding"]).pile(last, ["calico", "fish-can"])
    t.apply("walk ccw draw")
    assert "calico" in t.ids("hand:0")
    assert t.ids(last) == ["fish-can"]
    assert t.st.pvars[0]["pos"] == last


def test_two_walks_clockwise_cross_two_blocks():
    """Walking twice the same way crosses the next Block each time (Night patrol: 2 walks)."""
    t = Table(players=3, hand=["night-patrol"])
    t.pile("block:b1", ["tabby", "teaser"]).pile("block:b2", ["calico", "teaser"])
    t.apply("play night-patrol", "block b2", "walk cw draw", "walk cw draw")
    assert {"tabby", "calico"} <= set(t.ids("hand:0"))
    assert t.st.pvars[0]["pos"] == "block:b3"


@pytest.mark.parametrize(
    "top, found, discarded", [("feeding", [], "feeding"), ("tabby", ["tabby"], None), ("fish-can", ["fish-can"], None)]
)
def test_search_a_block(top, found, discarded):
    """Search a Block: the top card is revealed; an Action is discarded face down, a Cat or
    an Item is earned face up in front of the player."""
    t = Table(players=3, hand=["teaser"]).pile("block:b1", [top, "milk-bottle"])
    t.apply("walk cw search")
    assert t.ids("block:b1") == ["milk-bottle"]
    assert t.ids("found:0") == found
    assert t.ids("hand:0") == ["teaser"]
    if discarded:
        assert t.ids("discard")[0] == discarded
        assert t.st.view(1)["zones"]["discard"][-1] is None
    assert t.st.view(2)["zones"]["found:0"] == found
    assert t.st.pvars[0]["cats"] == (1 if top == "tabby" else 0)
    assert t.st.scores[0] == (1 if top == "tabby" else 0)


def test_search_hand_reveals_a_random_hand_card():
    """Search his own hand: a random hand card is revealed — a Cat is earned, an Action is
    discarded face down; which card comes up varies with the shuffle."""
    outcomes = set()
    for seed in range(1, 25):
        t = Table(players=2, hand=["tabby", "feeding"], seed=seed)
        t.apply("search hand")
        if t.ids("found:0") == ["tabby"]:
            assert t.ids("hand:0") == ["feeding"]
            assert t.st.scores[0] == 1 and t.st.pvars[0]["cats"] == 1
            outcomes.add("cat")
        else:
            assert t.ids("found:0") == [] and t.ids("hand:0") == ["tabby"]
            assert t.ids("discard")[0] == "feeding"
            outcomes.add("action")
    assert outcomes == {"cat", "action"}


def test_search_hand_needs_a_hand_card():
    """With an empty hand there is nothing to search: 'search hand' is not offered."""
    t = Table(players=2, hand=[])
    assert "search hand" not in t.legal
    assert {"walk cw draw", "walk ccw draw", "walk cw search", "walk ccw search"} == set(t.legal)


# =========================================================================== neighbouring blocks


def test_neighbouring_blocks_two_players_all():
    """All Blocks are Neighbouring Blocks in 2-player games, wherever the cat is."""
    t = Table(players=2, hand=["guiding-tourists"])
    t.st.pvars[0]["pos"] = "block:b3"
    assert neighbours_offered(t) == blocks("b1", "b2", "b3", "b4")


@pytest.mark.parametrize("players", [3, 4])
def test_neighbouring_blocks_two_each_side(players):
    """The four nearest Blocks: two on each side of the token (token between b6 and b1:
    b5, b6 | b1, b2)."""
    t = Table(players=players, hand=["guiding-tourists"])
    assert neighbours_offered(t) == blocks("b5", "b6", "b1", "b2")
    t = Table(players=players, hand=["guiding-tourists"])
    t.st.pvars[0]["pos"] = "block:b4"
    assert neighbours_offered(t) == blocks("b2", "b3", "b4", "b5")


def test_neighbouring_blocks_after_a_block_is_removed():
    """Removing a Block: the ring closes, so the next Block along becomes a neighbour."""
    t = Table(players=3, hand=["guiding-tourists"]).remove_block("block:b6")
    assert neighbours_offered(t) == blocks("b4", "b5", "b1", "b2")


def test_an_empty_block_leaves_the_town_and_the_ring_closes():
    """Removing a Block: a Block that runs out is removed for good; a token in front of it
    moves on to the next Block; the ring closes, so neighbours reach across the gap."""
    t = Table(players=3, hand=["feeding"], hands={2: ["guiding-tourists"]})
    t.pile("block:b6", ["tabby"])
    t.apply("walk ccw draw")  # seat 0 takes the last card of b6
    assert t.st.vars["ring"] == RING[3][:5]
    assert t.st.pvars[0]["pos"] == "block:b1"  # the token stands before b1 again
    assert "b6 is empty and leaves the town" in t.st.log
    t.apply("walk cw draw")  # seat 1
    assert t.st.current_player == 2
    assert neighbours_offered(t) == blocks("b3", "b4", "b5", "b1")  # seat 2 sits before b5


def test_other_tokens_in_front_of_an_emptied_block_move_on():
    """A token standing in front of a Block that runs out moves on to the next Block."""
    t = Table(players=3, hand=["fish-can"])
    t.st.pvars[1]["pos"] = "block:b2"
    t.pile("block:b2", ["tabby"])
    t.apply("play fish-can", "block b2")  # Fish can draws the last card of b2
    assert "block:b2" not in t.st.vars["ring"]
    assert t.st.pvars[1]["pos"] == "block:b3"


# =========================================================================== game end


def test_the_game_ends_when_only_three_blocks_are_left():
    """Game end: when only 3 Blocks are left, the game ends; the highest score wins."""
    t = Table(players=3, hand=["feeding"]).remove_block("block:b5").remove_block("block:b6")
    t.pile("found:1", ["tabby"])
    t.st.pvars[1]["cats"] = 1
    t.pile("block:b1", ["teaser"])
    assert not t.st.is_terminal  # 4 Blocks: the game goes on
    t.apply("walk cw draw")  # b1 runs out: 3 Blocks left
    assert t.st.vars["ring"] == ["block:b2", "block:b3", "block:b4"]
    assert t.st.is_terminal
    assert t.st.winners == [1]


def test_at_two_players_the_first_empty_block_ends_the_game():
    """With 4 Blocks at 2 players, the first Block to run out leaves 3: the game ends."""
    t = Table(players=2, hand=["feeding"]).pile("block:b1", ["teaser"])
    t.apply("walk cw draw")
    assert t.st.is_terminal and len(t.st.vars["ring"]) == 3


def test_travel_notes_sixth_point_ends_the_game():
    """Ruling six-point-check: the 6-point check follows every turn, so a sixth point scored
    with Travel notes (not a Search) ends the game at once."""
    t = Table(players=2, hand=["travel-notes", "feeding", "fish-can", "teaser"])
    t.pile("found:0", CATS[:5])
    t.st.pvars[0]["cats"] = 5
    assert t.st.scores[0] == 5
    t.apply("play travel-notes", "pay 3 cards", "discard feeding", "discard fish-can", "discard teaser")
    assert t.st.scores == [6, 0]
    assert t.st.is_terminal and t.st.winners == [0]


def test_five_points_do_not_end_the_game():
    """The game goes on until someone reaches 6."""
    t = Table(players=2, hand=["feeding"]).pile("found:0", CATS[:4]).pile("block:b1", ["ragdoll", "teaser"])
    t.st.pvars[0]["cats"] = 4
    t.apply("walk cw search")
    assert t.st.scores[0] == 5 and not t.st.is_terminal and t.st.current_player == 1


def test_a_team_reaching_six_together_wins():
    """4 players: the team's score is both teammates' scores; a team reaching 6 together wins,
    even though neither teammate has 6 and an opponent alone has more than one of them."""
    t = Table(players=4, hand=["feeding"])
    for seat, cats in {0: CATS[0:3], 2: CATS[3:5], 1: CATS[5:9]}.items():
        t.pile(f"found:{seat}", cats)
        t.st.pvars[seat]["cats"] = len(cats)
    t.pile("block:b1", ["ragdoll", "teaser"])
    t.apply("walk cw search")  # seat 0 finds a fourth Cat: 4 + 2 = 6
    assert t.st.scores == [4, 4, 2, 0]
    assert t.st.is_terminal
    assert t.st.winners == [0, 2]


def test_teammates_items_never_pair():
    """Scoring at 4 players: Item cards of teammates are not counted together; a pair must be
    owned by one player.  One Fish can each is worth nothing; a third makes one player's pair."""
    t = Table(players=4, hand=["feeding"])
    t.pile("found:0", ["fish-can"]).pile("found:2", ["fish-can"])
    assert t.st.scores == [0, 0, 0, 0]
    t.pile("block:b1", ["fish-can", "teaser"])
    t.apply("walk cw search")
    assert t.st.scores == [1, 0, 0, 0]


def test_only_pairs_of_one_name_score():
    """Scoring: single Items of different names are worth 0; a pair of one name is worth 1."""
    t = Table(players=2, hand=["feeding"])
    t.pile("found:0", ["fish-can", "cat-bed", "milk-bottle", "bell-collar"])
    assert t.st.scores[0] == 0
    t.pile("found:0", ["fish-can", "cat-bed", "fish-can", "bell-collar", "bell-collar", "bell-collar"])
    assert t.st.scores[0] == 2


# =========================================================================== tie-breakers


def final(players=2, **per_seat):
    """A finished game: per_seat maps 'sN' to dict(found=[...], notes=n, hand=[...])."""
    t = Table(players=players, hand=[])
    for key, spec in per_seat.items():
        seat = int(key[1:])
        found = spec.get("found", [])
        t.pile(f"found:{seat}", found)
        t.st.pvars[seat]["cats"] = sum(1 for c in found if c in CATS)
        t.st.pvars[seat]["notes"] = spec.get("notes", 0)
        t.set_hand(seat, spec.get("hand", []))
    finish(t.st)
    return t.st


def test_tiebreak_travel_notes_first():
    """Tie-breaker 1: on equal scores, more Travel notes played wins (even with fewer Cats)."""
    st = final(s0=dict(found=["tabby", "calico"], notes=1), s1=dict(found=["siamese", "persian", "ginger"]))
    assert st.scores == [3, 3]
    assert st.winners == [0]


def test_tiebreak_cats_searched_second():
    """Tie-breaker 2: equal scores and Travel notes: more Cats searched wins."""
    st = final(
        s0=dict(found=["tabby", "fish-can", "fish-can"], hand=["feeding"] * 3), s1=dict(found=["siamese", "persian"])
    )
    assert st.scores == [2, 2]
    assert st.winners == [1]  # more Cats beats more cards in hand


def test_tiebreak_cards_in_hand_third():
    """Tie-breaker 3: still tied: more cards in hand wins."""
    st = final(
        s0=dict(found=["tabby"], notes=1, hand=["feeding", "teaser"]),
        s1=dict(found=["calico"], notes=1, hand=["fish-can"]),
    )
    assert st.scores == [2, 2]
    assert st.winners == [0]


def test_tiebreak_shared_victory_last():
    """Tie-breaker 4: still tied: the players share victory."""
    st = final(s0=dict(found=["tabby"], hand=["feeding"]), s1=dict(found=["calico"], hand=["fish-can"]))
    assert st.winners == [0, 1]


def test_tiebreak_counts_teams_together():
    """At 4 players the tie-breakers compare teams: team 1 & 3's Travel notes are summed."""
    st = final(
        players=4,
        s0=dict(found=["tabby", "calico"]),
        s2=dict(found=["siamese"]),
        s1=dict(found=["persian"], notes=1),
        s3=dict(notes=1),
    )
    assert sum(st.scores[0::2]) == sum(st.scores[1::2]) == 3
    assert st.winners == [1, 3]


# =========================================================================== station


def test_station_refill_flips_the_discard_pile():
    """Station: whenever it runs out it is replenished by flipping the Discard pile over, so
    the Discard pile's bottom card becomes the Station's top card."""
    t = Table(players=2, hand=["fish-can"])
    t.pile("station", ["milk-bottle"]).pile("discard", ["tabby", "calico", "siamese"])  # tabby on top
    t.pile("block:b2", ["teaser", "feeding"])
    t.apply("play fish-can", "block b2")  # Fish can: draw b2's top, then 1 from the Station
    assert set(t.ids("hand:0")) == {"teaser", "milk-bottle"}
    assert t.ids("station") == ["siamese", "calico", "tabby"]
    assert t.ids("discard") == ["fish-can"]  # the played card: Station no longer empty
    t.apply("walk cw draw")  # seat 1 (ends the turn: state stays sane)
    assert accounted(t.st)


def test_station_is_drawn_from_the_top():
    """Station draws take the top card, in order."""
    t = Table(players=2, hand=["milk-bottle"]).pile("station", ["tabby", "calico", "siamese", "ginger"])
    t.apply("play milk-bottle", "block b2")  # Milk bottle from an empty hand: puts none; Station ×2
    assert t.ids("hand:0") == ["calico", "tabby"]
    assert t.ids("station") == ["siamese", "ginger"]


def test_q7_station_and_discard_both_empty():
    """FAQ Q7: with both the Station and the Discard pile empty nothing is drawn, and a card
    put into the Discard pile then goes straight to the Station (later ones to the pile)."""
    t = Table(players=2, hand=["fish-can"], hands={1: ["tabby", "teaser"]})
    t.clear("station").clear("discard").pile("block:b2", ["feeding", "calico"])
    t.apply("play fish-can", "block b2")
    assert t.ids("hand:0") == ["feeding"]  # only the Block's card, no Station draw
    assert t.ids("station") == ["fish-can"]
    assert t.ids("discard") == []
    t.apply("play teaser", "opponent seat 0", "discard feeding", "mouse seat 0")
    assert t.ids("station") == ["fish-can"]
    assert t.ids("discard") == ["teaser", "feeding"]


# =========================================================================== mouse


def test_mouse_rules():
    """Grey mouse: the holder may only play a card; with an empty hand they may only walk
    and draw, still holding the Mouse; a second Mouse on a holder changes nothing (ruling
    mouse-opponent); the Mouse is put back after the holder plays a card."""
    # holding the Mouse with cards in hand: only plays
    t = Table(players=2, hand=["fish-can", "tabby"], mouse=True)
    assert set(t.legal) == {"play fish-can", "play tabby"}
    with pytest.raises(IllegalAction):
        t.apply("walk cw draw")
    # with no hand cards: only a walk that draws, and the Mouse stays in hand
    t = Table(players=2, hand=[], mouse=True)
    assert set(t.legal) == {"walk cw draw", "walk ccw draw"}
    t.apply("walk cw draw")
    assert t.st.pvars[0]["mouse"] is True
    # a Mouse icon aimed at a holder: still one Mouse; one card played puts it back
    t = Table(players=2, hand=["teaser"], hands={1: ["tabby", "fish-can"]})
    t.st.pvars[1]["mouse"] = True
    t.apply("play teaser", "opponent seat 1", "discard tabby")
    assert t.legal == ["mouse seat 1"]
    t.apply("mouse seat 1")
    assert t.st.pvars[1]["mouse"] is True
    assert t.st.current_player == 1 and t.legal == ["play fish-can"]
    t.apply("play fish-can", "block b1")
    assert t.st.pvars[1]["mouse"] is False
    assert t.st.current_player == 0


def test_mouse_holder_plays_then_is_free_next_turn():
    """After playing a card the Mouse is back in front: the next turn offers walks again."""
    t = Table(players=2, hand=["feeding", "tabby"], mouse=True)
    t.apply("play tabby")
    assert t.st.pvars[0]["mouse"] is False
    t.apply("walk cw draw")  # seat 1
    assert "walk cw search" in t.legal and "search hand" in t.legal


# =========================================================================== easy mode


def test_easy_mode_reveals_cats_and_pairs():
    """Easy mode: no Search actions; at the end of the turn the player may reveal Cat cards
    and pairs of same-name Items from hand, one at a time or none; they score as usual."""
    t = Table(players=2, variant="easy", hand=["tabby", "calico", "fish-can", "fish-can", "milk-bottle", "feeding"])
    assert set(t.legal) == {
        "walk cw draw",
        "walk ccw draw",
        "play tabby",
        "play calico",
        "play fish-can",
        "play milk-bottle",
        "play feeding",
    }
    t.pile("block:b1", ["teaser", "ginger"])
    t.apply("walk cw draw")
    assert set(t.legal) == {"reveal tabby", "reveal calico", "reveal fish-can", "pass"}
    t.apply("reveal tabby")
    assert set(t.legal) == {"reveal calico", "reveal fish-can", "pass"}
    t.apply("reveal fish-can", "pass")
    assert Counter(t.ids("found:0")) == {"tabby": 1, "fish-can": 2}
    assert Counter(t.ids("hand:0")) == {"calico": 1, "milk-bottle": 1, "feeding": 1, "teaser": 1}
    assert t.st.scores == [2, 0] and t.st.pvars[0]["cats"] == 1
    assert t.st.current_player == 1
    assert t.st.view(1)["zones"]["found:0"] == t.ids("found:0")[::-1]


def test_easy_mode_single_item_is_not_offered():
    """Easy mode: a single Item is not a pair, so nothing is offered and the turn just ends."""
    t = Table(players=2, variant="easy", hand=["milk-bottle", "fish-can"]).pile("block:b1", ["teaser", "feeding"])
    t.apply("walk cw draw")
    assert t.st.current_player == 1


def test_easy_mode_reveal_reaching_six_ends_the_game():
    """Easy mode: revealed cards count at once, so a sixth point revealed ends the game."""
    t = Table(players=2, variant="easy", hand=["tabby", "feeding"]).pile("found:0", CATS[1:6])
    t.st.pvars[0]["cats"] = 5
    t.pile("block:b1", ["teaser", "feeding"])
    t.apply("walk cw draw", "reveal tabby")
    assert t.st.is_terminal and t.st.winners == [0]


# =========================================================================== advanced mode


def test_advanced_place_item_in_front():
    """Advanced mode: an Item may be placed in front instead of being played (no effect, and
    no bonus icons — ruling placed-items-no-bonus); Actions cannot be placed; a player may
    not place an Item of a name already in front of them."""
    t = Table(players=2, variant="advanced", hand=["cat-house", "fish-can", "feeding"], front=["fish-can"])
    assert "place cat-house" in t.legal
    assert "place fish-can" not in t.legal  # a Fish can is already in front
    assert "place feeding" not in t.legal  # an Action
    assert "play fish-can" in t.legal  # it may still be played for its effect
    with pytest.raises(IllegalAction):
        t.apply("place fish-can")
    station = t.ids("station")
    t.apply("place cat-house")
    assert Counter(t.ids("front:0")) == {"cat-house": 1, "fish-can": 1}
    assert Counter(t.ids("hand:0")) == {"fish-can": 1, "feeding": 1}
    assert t.ids("station") == station  # no Station ×3 bonus
    assert t.st.current_player == 1
    assert t.st.scores[0] == 0


def test_advanced_search_needs_an_item_in_front():
    """Advanced mode: a player may not choose Search without at least one Item in front."""
    t = Table(players=2, variant="advanced", hand=["fish-can", "feeding"])
    assert not any("search" in a for a in t.legal)
    t = Table(players=2, variant="advanced", hand=["fish-can", "feeding"], front=["cat-bed"])
    assert {"walk cw search", "walk ccw search", "search hand"} <= set(t.legal)


def test_advanced_search_reveals_one_card_per_item_type():
    """Advanced mode: one reveal per type of Item in front, one at a time, with the choice to
    stop before each next reveal."""
    t = Table(players=2, variant="advanced", hand=["feeding"], front=["cat-house", "fish-can"])
    t.pile("block:b1", ["tabby", "calico", "siamese", "teaser"])
    t.apply("walk cw search")
    assert t.ids("found:0") == ["tabby"]
    assert set(t.legal) == {"search reveal", "search stop"}
    t.apply("search reveal")
    assert t.ids("found:0") == ["calico", "tabby"]
    assert t.st.current_player == 1  # two types: two reveals, then the turn ends
    assert t.ids("block:b1") == ["siamese", "teaser"]


def test_advanced_search_may_stop():
    """Advanced mode: the player may stop Searching before revealing the next card."""
    t = Table(players=2, variant="advanced", hand=["feeding"], front=["cat-house", "fish-can"])
    t.pile("block:b1", ["teaser", "tabby", "siamese"])
    t.apply("walk cw search", "search stop")
    assert t.ids("found:0") == [] and t.ids("discard")[0] == "teaser"
    assert t.ids("block:b1") == ["tabby", "siamese"]
    assert t.st.current_player == 1


def test_rulebook_advanced_example():
    """Advanced mode, the rulebook's example: Cat house, Tourist ticket and Souvenirs in
    front; Search a Block whose top cards are Tourist ticket then Shelter from rain.  The
    Tourist ticket pair is set aside as 1 point; the next card, Broken, stops the search and
    Shelter from rain, Cat house and Souvenirs go to the Discard pile (ruling search-allowance)."""
    t = Table(players=2, variant="advanced", hand=["feeding"], front=["cat-house", "tourist-ticket", "souvenirs"])
    t.pile("block:b1", ["tourist-ticket", "shelter-from-rain", "tabby", "teaser"])
    discard_before = t.ids("discard")
    t.apply("walk cw search")
    assert t.ids("scored:0") == ["tourist-ticket", "tourist-ticket"]
    assert Counter(t.ids("front:0")) == {"cat-house": 1, "souvenirs": 1}
    assert t.st.scores[0] == 1
    t.apply("search reveal")
    assert set(t.legal) == {"discard shelter-from-rain", "discard cat-house", "discard souvenirs"}  # FAQ Q9
    t.apply("discard cat-house", "discard shelter-from-rain")
    assert t.ids("discard")[:3] == ["souvenirs", "shelter-from-rain", "cat-house"]
    assert Counter(t.ids("discard")[:3]) == {"shelter-from-rain": 1, "cat-house": 1, "souvenirs": 1}
    assert t.ids("discard")[3:] == discard_before
    assert t.ids("front:0") == []
    assert t.ids("scored:0") == ["tourist-ticket", "tourist-ticket"]
    assert t.ids("block:b1") == ["tabby", "teaser"]  # the search stopped: a third reveal was due
    assert t.st.current_player == 1
    assert t.st.scores[0] == 1


def test_advanced_scored_items_give_no_search():
    """Advanced mode: scored Items are set aside and provide no Search action."""
    t = Table(players=2, variant="advanced", hand=["feeding"], front=["fish-can"])
    t.pile("block:b1", ["fish-can", "teaser"])
    t.apply("walk cw search")
    assert t.ids("scored:0") == ["fish-can", "fish-can"] and t.ids("front:0") == []
    t.apply("walk cw draw")  # seat 1
    assert not any("search" in a for a in t.legal)


# =========================================================================== hidden information


def _hidden_swap_keeps_views(st, a: int, b: int, seats) -> None:
    """Exchanging two cards the given seats cannot see must not change what they see."""
    before = [st.view(s) for s in seats]
    za, zb = st.loc[a], st.loc[b]
    ia, ib = st.zones[za].index(a), st.zones[zb].index(b)
    st.zones[za][ia], st.zones[zb][ib] = b, a
    st.loc[a], st.loc[b] = zb, za
    assert [st.view(s) for s in seats] == before


@pytest.mark.parametrize("variant", [None, "easy", "advanced"])
def test_view_hides_hands_blocks_and_discard(variant):
    """Hidden information: a seat never sees another hand's cards, the cards of a Block, or
    the Discard pile's cards and order — only how many there are."""
    st = cat_town(variant).new_game(players=4, seed=5)
    rnd = random.Random(5)
    for _ in range(12):
        st.apply(rnd.choice(st.legal_actions()))
        skip_reveals(st)
    for seat in range(4):
        view = st.view(seat)["zones"]
        for zone, cards in st.zones.items():
            if zone.startswith(("block:", "discard", "box")) or (zone.startswith("hand:") and zone != f"hand:{seat}"):
                assert view[zone] == [None] * len(cards), zone
        assert view[f"hand:{seat}"] == [st.game.card_ids[c] for c in st.zones[f"hand:{seat}"]]
    z = st.zones
    _hidden_swap_keeps_views(st, z["block:b1"][-1], z["block:b2"][0], range(4))  # two Blocks
    _hidden_swap_keeps_views(st, z["discard"][0], z["discard"][-1], range(4))  # discard order
    _hidden_swap_keeps_views(st, z["hand:1"][0], z["block:b3"][-1], [0, 2, 3])  # seat 1's hand


def test_cat_map_view_shows_the_block_to_that_seat_as_seen():
    """Knowledge: a Block looked at with Cat map appears in that seat's view["seen"] as it was
    seen (ids top first), and in no one else's view."""
    t = Table(players=3, hand=["cat-map"]).pile("block:b4", ["tabby", "teaser", "fish-can"])
    t.apply("play cat-map", "block b4", "walk cw draw")
    seen = t.st.view(0)["seen"]
    assert seen[-1]["cards"] == [["block:b4", "tabby"], ["block:b4", "teaser"], ["block:b4", "fish-can"]]
    assert t.st.view(1)["seen"] == [] and t.st.view(2)["seen"] == []
    assert t.st.view(1)["zones"]["block:b4"] == [None] * 3


# =========================================================================== whole games


@pytest.mark.parametrize("variant", [None, "easy", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_game_ends_with_a_winner(players, variant):
    """A random game ends by the rules: 6 points for a player (team) or 3 Blocks left."""
    st = cat_town(variant).new_game(players=players, seed=42)
    random_playout(st, random.Random(42))
    game = st.game
    team_best = max(sum(st.scores[m] for m in game.team_of(players, p)) for p in range(players))
    assert team_best >= 6 or len(st.vars["ring"]) <= 3
    assert st.outcome.reason == ("a player (team) reached the goal" if team_best >= 6 else "only 3 Blocks were left")
    leaders = {p for p in range(players) if sum(st.scores[m] for m in game.team_of(players, p)) == team_best}
    assert set(st.winners) <= leaders and accounted(st)
