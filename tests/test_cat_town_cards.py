"""Cat Town, card by card: each card's text, its bonus icons and the FAQ answers about it.

Positions come from ``Table`` (cat_town_helpers): seat 0 to play, token just counter-clockwise
of Block 1.  At 2 players every Block is a Neighbouring Block; at 3 players seat 0's
neighbours are b5, b6, b1, b2.  Piles are written TOP FIRST.
"""

from __future__ import annotations

from collections import Counter

import pytest
from cat_town_helpers import RING, Table, cat_town
from table import accounted

WALKS = {"walk cw draw", "walk ccw draw", "walk cw search", "walk ccw search"}
STATION = ["bell-collar", "market-day", "night-patrol", "bus-ride", "sudden-storm"]  # top first


def zones_except(st, *skip: str) -> dict:
    return {z: list(c) for z, c in st.zones.items() if z not in skip}


def outcomes(st, done, key, limit: int = 2000) -> set:
    """Explore every sequence of decisions from ``st`` until ``done(state)``; the set of ``key(state)``."""
    found, todo, explored = set(), [st], 0
    while todo:
        s = todo.pop()
        if s.is_terminal or done(s):
            found.add(key(s))
            continue
        for action in s.legal_actions():
            explored += 1
            assert explored < limit
            nxt = s.clone()
            nxt.apply(action)
            todo.append(nxt)
    return found


# =========================================================================== named cards


def test_cat_map_looks_at_any_block():
    """Cat map: "Look at all cards from 1 chosen Block" — any Block, not only a Neighbouring
    one (ruling cat-map-any-block); the Block is unchanged; bonus: 1 walk."""
    t = Table(players=3, hand=["cat-map"]).pile("block:b4", ["tabby", "teaser", "fish-can"])
    t.apply("play cat-map")
    assert set(t.legal) == {f"block b{i}" for i in range(1, 7)}  # b3, b4 are not neighbours
    t.apply("block b4")
    assert t.st.view(0)["seen"][-1]["cards"] == [["block:b4", c] for c in ("tabby", "teaser", "fish-can")]
    assert t.ids("block:b4") == ["tabby", "teaser", "fish-can"]
    assert set(t.legal) == WALKS
    t.apply("walk cw draw")
    assert t.ids("discard")[0] == "cat-map" and t.st.current_player == 1


def test_sweeping_the_street_shuffles_two_blocks_and_divides_them():
    """Sweeping the street: shuffle 2 Neighbouring Blocks together and divide them into 2
    Blocks evenly; FAQ Q2: an odd total leaves one Block with one card more."""
    mixed = False
    for seed in range(1, 9):
        t = Table(players=3, hand=["sweeping-the-street"], seed=seed)
        t.pile("block:b1", ["tabby", "calico", "siamese", "ginger", "persian"])
        t.pile("block:b2", ["fish-can", "teaser", "feeding", "cat-bed"])
        t.apply("play sweeping-the-street")
        assert {a.split()[1] for a in t.legal} == {"b5", "b6", "b1", "b2"}
        t.apply("block b1")
        assert {a.split()[1] for a in t.legal} == {"b5", "b6", "b2"}  # two different Blocks
        t.apply("block b2")
        b1, b2 = t.ids("block:b1"), t.ids("block:b2")
        assert sorted([len(b1), len(b2)]) == [4, 5]
        assert Counter(b1 + b2) == Counter(
            ["tabby", "calico", "siamese", "ginger", "persian", "fish-can", "teaser", "feeding", "cat-bed"]
        )
        mixed |= bool(set(b2) & {"tabby", "calico", "siamese", "ginger", "persian"})
        assert set(t.legal) == WALKS  # bonus: 1 walk
    assert mixed, "the two Blocks were never shuffled together"


def test_sweeping_the_street_even_split():
    """Sweeping the street: an even total splits into two equal Blocks."""
    t = Table(players=2, hand=["sweeping-the-street"])
    t.pile("block:b3", ["tabby", "calico", "siamese"]).pile("block:b4", ["fish-can", "teaser", "feeding"])
    t.apply("play sweeping-the-street", "block b3", "block b4")
    assert len(t.ids("block:b3")) == len(t.ids("block:b4")) == 3


def test_guiding_tourists_reverses_a_block():
    """Guiding tourists, FAQ Q1: reverse the order of all cards in a Neighbouring Block, one by
    one; bonus: 1 walk."""
    t = Table(players=3, hand=["guiding-tourists"]).pile("block:b2", ["tabby", "teaser", "fish-can", "calico"])
    t.apply("play guiding-tourists")
    assert "block b4" not in t.legal
    t.apply("block b2")
    assert t.ids("block:b2") == ["calico", "fish-can", "teaser", "tabby"]
    assert set(t.legal) == WALKS


def test_cat_house_puts_two_cards_and_draws_three():
    """Cat house: put 2 hand cards on top of 1 Neighbouring Block, in the chosen order; bonus:
    draw 3 from the Station."""
    t = Table(players=2, hand=["cat-house", "fish-can", "teaser"]).pile("station", STATION)
    t.pile("block:b2", ["feeding"])
    t.apply("play cat-house", "block b2", "put fish-can", "put teaser")
    assert t.ids("block:b2") == ["teaser", "fish-can", "feeding"]
    assert Counter(t.ids("hand:0")) == Counter(STATION[:3])
    assert t.ids("station") == STATION[3:]


@pytest.mark.parametrize("others", [["fish-can"], []])
def test_cat_house_q3_with_fewer_than_two_hand_cards(others):
    """FAQ Q3: with only one hand card (or none) Cat house puts that card (or nothing) on the
    Block, and still draws three cards from the Station."""
    t = Table(players=2, hand=["cat-house"] + others).pile("station", STATION).pile("block:b2", ["feeding"])
    t.apply("play cat-house", "block b2")
    if others:
        assert t.legal == ["put fish-can"]
        t.apply("put fish-can")
    assert t.ids("block:b2") == others + ["feeding"]
    assert Counter(t.ids("hand:0")) == Counter(STATION[:3])
    assert t.st.current_player == 1


def test_cat_house_two_cards_are_compulsory():
    """FAQ Q3 asks what happens *without* two hand cards — so with two the player must put two."""
    t = Table(players=2, hand=["cat-house", "fish-can", "teaser"])
    t.apply("play cat-house", "block b2")
    assert "pass" not in t.legal


def test_feeding_q4_draw_two_and_put_two_back_on_the_same_block():
    """Feeding: draw 2 cards from a Neighbouring Block, then put 2 hand cards on top of a
    Neighbouring Block; FAQ Q4: it may be the original Block.  Bonus: Station ×1."""
    t = Table(players=3, hand=["feeding", "fish-can"]).pile("station", STATION)
    t.pile("block:b2", ["tabby", "calico", "teaser"])
    t.apply("play feeding", "block b2")
    assert Counter(t.ids("hand:0")) == {"fish-can": 1, "tabby": 1, "calico": 1}
    assert "block b2" in t.legal  # Q4: the same Block
    t.apply("block b2", "put fish-can", "put tabby")
    assert t.ids("block:b2") == ["tabby", "fish-can", "teaser"]
    assert Counter(t.ids("hand:0")) == {"calico": 1, STATION[0]: 1}  # calico kept + the Station top
    assert t.ids("station") == STATION[1:]


def test_town_stamp_takes_a_random_card_and_the_opponent_draws():
    """Town stamp: take 1 random card from an opponent's hand; FAQ Q5: a teammate is not an
    opponent; red icon: the affected opponent draws 1 from the Station."""
    t = Table(players=4, hand=["town-stamp"], hands={3: ["tabby"], 1: ["teaser"]}).pile("station", STATION)
    t.apply("play town-stamp")
    assert set(t.legal) == {"opponent seat 1", "opponent seat 3"}
    t.apply("opponent seat 3")
    assert t.ids("hand:0") == ["tabby"]
    assert t.ids("hand:3") == [STATION[0]]  # the Station's top card
    assert t.ids("hand:1") == ["teaser"]  # the other opponent: nothing


def test_teaser_opponent_discards_a_card_of_their_choice():
    """Teaser: an opponent (FAQ Q5: not a teammate) discards 1 card of their choice; grey
    mouse: an opponent must hold their Mouse."""
    t = Table(players=4, hand=["teaser"], hands={1: ["tabby", "fish-can"]})
    t.apply("play teaser")
    assert set(t.legal) == {"opponent seat 1", "opponent seat 3"}
    t.apply("opponent seat 1")
    assert t.st.current_player == 1  # seat 1 chooses
    assert set(t.legal) == {"discard tabby", "discard fish-can"}
    t.apply("discard fish-can")
    assert t.st.current_player == 0
    assert set(t.legal) == {"mouse seat 1", "mouse seat 3"}
    t.apply("mouse seat 3")
    assert t.ids("hand:1") == ["tabby"]
    assert t.ids("discard")[:2] == ["teaser", "fish-can"]
    assert [pv["mouse"] for pv in t.st.pvars] == [False, False, False, True]


def test_taking_a_photo_looks_at_an_opponents_hand():
    """Taking a photo: look at an opponent's hand (only you see it); bonus: 1 walk, and the
    affected opponent draws 1 from the Station."""
    t = Table(players=3, hand=["taking-a-photo"], hands={2: ["tabby", "teaser"], 1: ["fish-can"]})
    t.pile("station", STATION)
    t.apply("play taking-a-photo", "opponent seat 2")
    assert Counter(c for _, c in t.st.view(0)["seen"][-1]["cards"]) == {"tabby": 1, "teaser": 1}
    assert t.st.view(1)["seen"] == [] and t.st.view(2)["seen"] == []
    assert set(t.legal) == WALKS
    t.apply("walk ccw draw")
    assert Counter(t.ids("hand:2")) == {"tabby": 1, "teaser": 1, STATION[0]: 1}
    assert t.ids("hand:1") == ["fish-can"]


def test_souvenirs_swaps_cards_never_with_a_teammate():
    """Souvenirs: swap 1 card of your hand with 1 random card of an opponent's hand; FAQ Q5:
    a teammate is never offered as the opponent at 4 players; red icon: they draw 1."""
    t = Table(players=4, hand=["souvenirs", "fish-can", "teaser"], hands={1: ["tabby"], 2: ["calico"]})
    t.pile("station", STATION)
    t.apply("play souvenirs")
    assert set(t.legal) == {"opponent seat 1", "opponent seat 3"}  # not seat 2, the teammate
    t.apply("opponent seat 1")
    assert set(t.legal) == {"give fish-can", "give teaser"}
    t.apply("give teaser")
    assert Counter(t.ids("hand:0")) == {"fish-can": 1, "tabby": 1}
    assert Counter(t.ids("hand:1")) == {"teaser": 1, STATION[0]: 1}
    assert t.ids("hand:2") == ["calico"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_opponent_choices_exclude_teammates(players):
    """FAQ Q5 for every opponent card: at 2-3 players everyone else is an opponent; at 4 the
    teammate opposite is not."""
    expected = {2: {1}, 3: {1, 2}, 4: {1, 3}}[players]
    for card in ["town-stamp", "teaser", "taking-a-photo", "souvenirs"]:
        t = Table(players=players, hand=[card, "fish-can"])
        t.apply(f"play {card}")
        assert {int(a.split()[-1]) for a in t.legal} == expected, card


def test_tourist_ticket_take_one_of_the_top_four():
    """Tourist ticket: look at the top 4 cards of a Neighbouring Block, take 1 into your hand,
    put the others back in any order; bonus: 1 walk."""
    t = Table(players=3, hand=["tourist-ticket"])
    t.pile("block:b2", ["tabby", "teaser", "fish-can", "calico", "siamese"])
    t.apply("play tourist-ticket", "block b2")
    assert [c for _, c in t.st.view(0)["seen"][-1]["cards"]] == ["tabby", "teaser", "fish-can", "calico"]
    assert set(t.legal) == {"take tabby", "take teaser", "take fish-can", "take calico"}
    t.apply("take fish-can")
    assert set(t.legal) == {"next tabby", "next teaser", "next calico"}
    t.apply("next calico", "next tabby", "next teaser")  # each next one goes on top
    assert t.ids("block:b2") == ["teaser", "tabby", "calico", "siamese"]
    assert t.ids("hand:0") == ["fish-can"]
    assert set(t.legal) == WALKS


def test_tourist_ticket_q6_fewer_than_four_cards():
    """FAQ Q6: a Block with fewer than 4 cards: look at as many as there are."""
    t = Table(players=2, hand=["tourist-ticket"]).pile("block:b2", ["tabby", "teaser"])
    t.apply("play tourist-ticket", "block b2")
    assert [c for _, c in t.st.view(0)["seen"][-1]["cards"]] == ["tabby", "teaser"]
    t.apply("take tabby", "next teaser")
    assert t.ids("block:b2") == ["teaser"] and t.ids("hand:0") == ["tabby"]


def test_tourist_ticket_taking_the_last_card_removes_the_block():
    """Tourist ticket on a one-card Block empties it: the Block leaves the town."""
    t = Table(players=3, hand=["tourist-ticket"]).pile("block:b2", ["tabby"])
    t.apply("play tourist-ticket", "block b2", "take tabby")
    assert "block:b2" not in t.st.vars["ring"]
    assert set(t.legal) == WALKS


def test_picking_up_litters_discards_the_actions_among_the_top_four():
    """Picking up litters: look at the top 4 cards of a Neighbouring Block, discard the Action
    cards among them, put the others back in any order; bonus: 1 walk."""
    t = Table(players=3, hand=["picking-up-litters"])
    t.pile("block:b2", ["feeding", "tabby", "teaser", "fish-can", "calico"])
    t.apply("play picking-up-litters", "block b2", "discard teaser")
    assert t.ids("discard")[:2] == ["feeding", "teaser"]
    assert set(t.legal) == {"next tabby", "next fish-can"}
    t.apply("next fish-can", "next tabby")
    assert t.ids("block:b2") == ["tabby", "fish-can", "calico"]
    assert set(t.legal) == WALKS


def test_picking_up_litters_q6_fewer_than_four_cards():
    """FAQ Q6: with fewer than 4 cards, look at all of them; a Block left empty is removed."""
    t = Table(players=3, hand=["picking-up-litters"]).pile("block:b2", ["teaser", "tabby"])
    t.apply("play picking-up-litters", "block b2", "next tabby")
    assert t.ids("block:b2") == ["tabby"] and t.ids("discard")[0] == "teaser"
    t = Table(players=3, hand=["picking-up-litters"]).pile("block:b2", ["teaser", "feeding"])
    t.apply("play picking-up-litters", "block b2", "discard feeding")
    assert "block:b2" not in t.st.vars["ring"]
    assert set(t.legal) == WALKS


def test_travel_notes_scores_one_point_after_paying_three():
    """Travel notes: pay 3 more hand cards to the Discard pile to score 1 point."""
    t = Table(players=2, hand=["travel-notes", "tabby", "fish-can", "teaser", "feeding"])
    t.apply("play travel-notes")
    assert set(t.legal) == {"pay 3 cards", "pay nothing"}
    t.apply("pay 3 cards", "discard teaser", "discard tabby", "discard feeding")
    assert t.ids("hand:0") == ["fish-can"]
    assert t.st.pvars[0]["notes"] == 1 and t.st.scores[0] == 1
    assert t.st.current_player == 1


def test_q9_travel_notes_payment_order_is_the_discard_order():
    """FAQ Q9: the current player puts the cards into the Discard pile in any order: the
    payment order of Travel notes is the order they land in (then Travel notes on top)."""
    for order in (["tabby", "teaser", "feeding"], ["feeding", "tabby", "teaser"]):
        t = Table(players=2, hand=["travel-notes", "tabby", "teaser", "feeding"])
        t.apply("play travel-notes", "pay 3 cards", *[f"discard {c}" for c in order])
        assert t.ids("discard")[:4] == ["travel-notes"] + order[::-1]


def test_travel_notes_without_payment_does_nothing():
    """FAQ Q8 / ruling notes-tiebreak: a Travel notes played (forced by the Mouse) with fewer
    than 3 other hand cards takes no effect: no payment, no point, not counted as played for
    the tie-breaker.  With 3 or more the player may still decline."""
    t = Table(players=2, hand=["travel-notes", "tabby", "fish-can"], mouse=True)
    assert set(t.legal) == {"play travel-notes", "play tabby", "play fish-can"}
    t.apply("play travel-notes")
    assert t.st.current_player == 1  # no payment decision
    assert Counter(t.ids("hand:0")) == {"tabby": 1, "fish-can": 1}
    assert t.st.pvars[0]["notes"] == 0 and t.st.scores[0] == 0
    assert t.ids("discard")[0] == "travel-notes"
    t = Table(players=2, hand=["travel-notes", "tabby", "fish-can", "teaser"])
    t.apply("play travel-notes", "pay nothing")
    assert len(t.ids("hand:0")) == 3 and t.st.pvars[0]["notes"] == 0


def test_imitating_meow_plays_another_card():
    """Imitating Meow: play 1 more hand card, with its effect and its bonus icons."""
    t = Table(players=3, hand=["imitating-meow", "guiding-tourists", "tabby"])
    t.pile("block:b2", ["teaser", "fish-can", "calico"])
    t.apply("play imitating-meow")
    assert set(t.legal) == {"imitate guiding-tourists", "imitate tabby", "pass"}
    t.apply("imitate guiding-tourists", "block b2")
    assert t.ids("block:b2") == ["calico", "fish-can", "teaser"]
    assert set(t.legal) == WALKS  # Guiding tourists' walk
    t.apply("walk ccw draw")
    assert Counter(t.ids("discard")[:2]) == {"imitating-meow": 1, "guiding-tourists": 1}
    assert t.st.current_player == 1


def test_imitating_meow_q8_with_no_other_card_does_nothing():
    """FAQ Q8: forced by the Mouse to play Imitating Meow with no other hand card: no effect."""
    t = Table(players=2, hand=["imitating-meow"], mouse=True)
    before = zones_except(t.st, "hand:0", "played", "discard")
    t.apply("play imitating-meow")
    assert t.legal == ["pass"]
    t.apply("pass")
    assert t.st.current_player == 1 and t.ids("discard")[0] == "imitating-meow"
    assert zones_except(t.st, "hand:0", "played", "discard") == before


def test_shelter_from_rain_puts_a_card_at_the_bottom():
    """Shelter from rain: a Broken card (Advanced mode); its effect puts 1 hand card at the
    bottom of a Neighbouring Block; bonus: Station ×2."""
    game = cat_town()
    assert game.attributes["broken"][game.card_ids.index("shelter-from-rain")] is True
    t = Table(players=2, hand=["shelter-from-rain", "tabby"]).pile("station", STATION)
    t.pile("block:b2", ["teaser", "fish-can"])
    t.apply("play shelter-from-rain", "block b2")
    assert t.legal == ["put tabby"]  # "Put 1 card": no passing while the hand holds one
    t.apply("put tabby")
    assert t.ids("block:b2") == ["teaser", "fish-can", "tabby"]
    assert Counter(t.ids("hand:0")) == Counter(STATION[:2])


@pytest.mark.parametrize("card", ["milk-bottle", "shelter-from-rain"])
def test_putting_one_card_from_an_empty_hand_puts_none(card):
    """Milk bottle / Shelter from rain played as the last hand card: the Block is chosen, nothing
    is put (as FAQ Q3 rules for Cat house), and the bonus icons still act."""
    t = Table(players=2, hand=[card]).pile("station", STATION)
    t.pile("block:b2", ["teaser", "fish-can"])
    t.apply(f"play {card}", "block b2")
    assert t.ids("block:b2") == ["teaser", "fish-can"]
    assert Counter(t.ids("hand:0")) == Counter(STATION[:2]) and t.st.current_player == 1


def test_broken_cards_do_nothing_special_in_normal_mode():
    """The Broken icon applies only in Advanced mode: searched in Normal mode, Shelter from rain
    is an Action like any other and what the player found stays."""
    t = Table(players=2, hand=["teaser"]).pile("found:0", ["fish-can", "cat-bed"])
    t.pile("block:b1", ["shelter-from-rain", "tabby"])
    t.apply("walk cw search")
    assert Counter(t.ids("found:0")) == {"fish-can": 1, "cat-bed": 1}
    assert t.ids("discard")[0] == "shelter-from-rain"


def test_only_shelter_from_rain_and_sudden_storm_are_broken():
    game = cat_town()
    broken = {c for i, c in enumerate(game.card_ids) if game.attributes["broken"][i]}
    assert broken == {"shelter-from-rain", "sudden-storm"}
    assert {game.attributes["type"][i] for i, c in enumerate(game.card_ids) if c in broken} == {"action"}


# =========================================================================== bonus icons


def test_bonus_walk_times_two_asks_two_walks():
    """Blue paw ×2 (Ball of yarn): two bonus walks, each announced (direction, draw or search)
    before it is taken."""
    t = Table(players=3, hand=["ball-of-yarn"])
    t.pile("block:b1", ["calico", "feeding"]).pile("block:b2", ["siamese", "feeding", "teaser"])
    t.apply("play ball-of-yarn")
    assert set(t.legal) == {"block b5", "block b6", "block b1", "block b2"}
    t.apply("block b2")
    assert t.ids("block:b2") == ["feeding", "teaser", "siamese"]  # top card to the bottom
    assert set(t.legal) == WALKS
    t.apply("walk cw draw")
    assert set(t.legal) == WALKS
    t.apply("walk cw search")
    assert "calico" in t.ids("hand:0") and t.ids("discard")[0] == "ball-of-yarn"
    assert t.ids("discard")[1] == "feeding"  # the searched Action
    assert t.st.pvars[0]["pos"] == "block:b3" and t.st.current_player == 1


def test_bonus_station_times_two_draws_two():
    """Green train ×2 (Milk bottle): draw 2 cards from the top of the Station."""
    t = Table(players=2, hand=["milk-bottle", "fish-can"]).pile("station", STATION)
    t.apply("play milk-bottle", "block b1")
    assert t.legal == ["put fish-can"]  # "Put 1 card": no passing while the hand holds one
    t.apply("put fish-can")
    assert Counter(t.ids("hand:0")) == Counter(STATION[:2])
    assert t.ids("station") == STATION[2:]


def test_bonus_opponent_station_goes_to_the_affected_opponent():
    """Red icon: the affected opponent — the one chosen by the card — draws from the Station."""
    t = Table(players=3, hand=["town-stamp"], hands={1: ["teaser"], 2: ["feeding"]}).pile("station", STATION)
    t.apply("play town-stamp", "opponent seat 2")
    assert t.ids("hand:2") == [STATION[0]]
    assert t.ids("hand:1") == ["teaser"]
    assert t.ids("hand:0") == ["feeding"]


def test_bonus_mouse_makes_an_opponent_hold_their_mouse():
    """Grey mouse (Feather wand: walk 1, mouse): after the walk, choose an opponent; they hold
    their Mouse and on their turn may only play a card."""
    t = Table(players=3, hand=["feather-wand"], hands={1: ["fish-can", "teaser"]})
    t.apply("play feather-wand", "walk cw draw")
    assert set(t.legal) == {"mouse seat 1", "mouse seat 2"}
    t.apply("mouse seat 1")
    assert t.st.pvars[1]["mouse"] is True
    assert t.st.current_player == 1 and set(t.legal) == {"play fish-can", "play teaser"}


def test_bonus_mouse_never_targets_a_teammate():
    """FAQ Q5 for the grey mouse: at 4 players only the two opponents may be given the Mouse."""
    t = Table(players=4, hand=["feather-wand"])
    t.apply("play feather-wand", "walk cw draw")
    assert set(t.legal) == {"mouse seat 1", "mouse seat 3"}


def test_a_cat_card_played_has_no_effect_and_is_discarded():
    """Playing a Cat card is legal, but it has no effect and is discarded."""
    t = Table(players=2, hand=["tabby", "fish-can"])
    before = zones_except(t.st, "hand:0", "discard")
    t.apply("play tabby")
    assert t.st.current_player == 1
    assert t.ids("hand:0") == ["fish-can"] and t.ids("discard")[0] == "tabby"
    assert t.ids("found:0") == [] and t.st.scores[0] == 0
    assert zones_except(t.st, "hand:0", "discard") == before


def test_played_card_is_discarded_face_down():
    """After playing a card, it goes face down on the Discard pile."""
    t = Table(players=2, hand=["guiding-tourists"])
    t.apply("play guiding-tourists", "block b1", "walk ccw draw")
    assert t.ids("discard")[0] == "guiding-tourists"
    assert t.st.view(1)["zones"]["discard"][-1] is None and t.ids("played") == []


# =========================================================================== FAQ Q9 elsewhere


def _discard_orders(t: Table, cards: list[int], done) -> set[tuple]:
    """Every order in which the cards with these indexes can end up in the Discard pile."""
    return outcomes(t.st, done, lambda s: tuple(c for c in s.zones["discard"] if c in cards))


def test_q9_picking_up_litters_discard_order_is_chosen():
    """FAQ Q9: discarded cards go to the Discard pile in the order the current player likes."""
    t = Table(players=3, hand=["picking-up-litters"]).pile("block:b2", ["feeding", "tabby", "teaser", "calico"])
    cards = [t.index("feeding", "block:b2"), t.index("teaser", "block:b2")]
    t.apply("play picking-up-litters", "block b2")
    orders = _discard_orders(t, cards, lambda s: s.current_player == 1)
    assert len(orders) == 2  # feeding above teaser, or teaser above feeding


def test_q9_broken_search_discard_order_is_chosen():
    """FAQ Q9 for the Advanced Broken card: the discarded cards' order is the player's choice."""
    t = Table(players=2, variant="advanced", hand=["feeding"], front=["cat-house", "souvenirs"])
    t.pile("block:b1", ["shelter-from-rain", "tabby"])
    cards = list(t.st.zones["front:0"]) + [t.index("shelter-from-rain", "block:b1")]
    t.apply("walk cw search")
    orders = _discard_orders(t, cards, lambda s: s.current_player == 1 or s.is_terminal)
    assert len(orders) == 6  # any order of the three cards


# =========================================================================== reconstructed cards


def test_fish_can_draws_the_top_of_a_block():
    """Fish can (reconstructed): draw the top card of a Neighbouring Block; Station ×1."""
    t = Table(players=2, hand=["fish-can"]).pile("station", STATION).pile("block:b3", ["teaser", "feeding"])
    t.apply("play fish-can", "block b3")
    assert Counter(t.ids("hand:0")) == {"teaser": 1, STATION[0]: 1}


def test_bell_collar_shows_the_top_card():
    """Bell collar (reconstructed): look at the top card of a Neighbouring Block; mouse."""
    t = Table(players=2, hand=["bell-collar"]).pile("block:b3", ["teaser", "feeding"])
    t.apply("play bell-collar", "block b3")
    assert t.st.view(0)["seen"][-1]["cards"] == [["block:b3", "teaser"]]
    assert t.legal == ["mouse seat 1"]


def test_scratching_post_discard_one_draw_two():
    """Scratching post (reconstructed): may discard 1 hand card to draw 2 from the Station; walk 1."""
    t = Table(players=2, hand=["scratching-post", "teaser"]).pile("station", STATION)
    t.apply("play scratching-post", "discard teaser")
    assert Counter(t.ids("hand:0")) == Counter(STATION[:2]) and t.ids("discard")[0] == "teaser"
    assert set(t.legal) == WALKS


def test_cat_bed_takes_the_top_of_the_discard_pile():
    """Cat bed (reconstructed): take the Discard pile's top card into hand; Station ×1."""
    t = Table(players=2, hand=["cat-bed"]).pile("station", STATION).pile("discard", ["teaser", "feeding"])
    t.apply("play cat-bed")
    assert Counter(t.ids("hand:0")) == {"teaser": 1, STATION[0]: 1}
    assert t.ids("discard") == ["cat-bed", "feeding"]


def test_sudden_storm_shuffles_a_block():
    """Sudden storm (reconstructed, Broken): shuffle a Neighbouring Block; walk 1."""
    pile = ["tabby", "calico", "siamese", "ginger", "persian", "teaser"]
    orders = set()
    for seed in range(1, 6):
        t = Table(players=2, hand=["sudden-storm"], seed=seed).pile("block:b2", pile)
        t.apply("play sudden-storm", "block b2")
        assert Counter(t.ids("block:b2")) == Counter(pile)
        orders.add(tuple(t.ids("block:b2")))
    assert len(orders) > 1


def test_night_patrol_shows_the_top_two():
    """Night patrol (reconstructed): look at the top 2 cards of a Neighbouring Block; walk 2."""
    t = Table(players=2, hand=["night-patrol"]).pile("block:b3", ["teaser", "tabby", "feeding"])
    t.apply("play night-patrol", "block b3")
    assert [c for _, c in t.st.view(0)["seen"][-1]["cards"]] == ["teaser", "tabby"]
    assert set(t.legal) == WALKS


@pytest.mark.parametrize(
    "ride, pos",
    [("ride cw 1", "block:b2"), ("ride cw 2", "block:b3"), ("ride ccw 1", "block:b6"), ("ride ccw 2", "block:b5")],
)
def test_bus_ride_moves_the_token_without_drawing(ride, pos):
    """Bus ride (reconstructed): move the cat across up to 2 Blocks in one direction, no draw."""
    t = Table(players=3, hand=["bus-ride"]).pile("station", STATION)
    blocks = {b: t.ids(b) for b in RING[3]}
    t.apply("play bus-ride", ride)
    assert t.st.pvars[0]["pos"] == pos
    assert {b: t.ids(b) for b in RING[3]} == blocks
    assert t.ids("hand:0") == [STATION[0]]


def test_market_day_moves_the_station_top_under_a_block():
    """Market day (reconstructed): the Station's top card goes to the bottom of a
    Neighbouring Block; Station ×2."""
    t = Table(players=2, hand=["market-day"]).pile("station", STATION).pile("block:b2", ["teaser"])
    t.apply("play market-day", "block b2")
    assert t.ids("block:b2") == ["teaser", STATION[0]]
    assert Counter(t.ids("hand:0")) == Counter(STATION[1:3])
    assert accounted(t.st)
