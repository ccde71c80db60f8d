"""Crazy Eights, as its rules read.

The stock is the zone ``deck``; the discard pile shows its top card only.  Seat 0 plays first.
"""

import pytest
from gallery_helpers import card, game, ids, random_games, reoffer
from table import accounted, put

C8 = "crazy-eights"


def new(players=2, seed=0):
    return game(C8).new_game(players=players, seed=seed)


def set_hand(st, seat, cids):
    """``seat`` holds exactly these cards: the old hand goes under the stock, the wanted cards come
    from wherever they are (not the top of the discard pile)."""
    for c in list(st.zones[f"hand:{seat}"]):
        put(st, c, "deck", bottom=True)
    for cid in cids:
        put(st, card(st, cid), f"hand:{seat}")


def set_top(st, cid):
    put(st, card(st, cid), "discard")


def stack_stock(st, top_first):
    """These cards on top of the stock, the first on top."""
    for cid in reversed(top_first):
        put(st, card(st, cid), "deck")


def test_deal_and_starter():
    """Seven cards each at two players, five at three or more; the starter is never an eight (ruling
    eight-as-starter: an eight turned up goes back into the stock, which is shuffled again)."""
    for players, dealt in ((2, 7), (3, 5), (5, 5)):
        st = new(players)
        assert [len(st.zones[f"hand:{p}"]) for p in range(players)] == [dealt] * players
        assert len(st.zones["discard"]) == 1
        assert len(st.zones["deck"]) == 52 - dealt * players - 1
        assert st.current_player == 0  # ruling who-starts
    reburied = [s for s in range(80) if sum(1 for e in new(seed=s).history if e.get("chance") == "shuffle") > 1]
    assert reburied, "some seed turns up an eight as the starter"
    for s in reburied:
        st = new(seed=s)
        assert st.game.attributes["rank"][st.zones["discard"][-1]] != 8
        assert accounted(st)


def test_match_the_suit_or_the_rank_or_play_an_eight():
    st = new()
    set_top(st, "7-hearts")
    set_hand(st, 0, ["7-clubs", "2-hearts", "king-spades", "8-diamonds"])
    reoffer(st)
    assert sorted(st.legal_actions()) == ["draw", "play 2-hearts", "play 7-clubs", "play 8-diamonds"]


def test_an_eight_is_wild_and_names_the_suit_to_follow():
    st = new()
    set_top(st, "7-hearts")
    set_hand(st, 0, ["8-diamonds", "3-clubs"])
    set_hand(st, 1, ["5-spades", "5-diamonds", "7-clubs", "8-clubs"])
    reoffer(st)
    st.apply("play 8-diamonds")
    assert st.current_player == 0 and sorted(st.legal_actions()) == [
        f"name {s}" for s in ("clubs", "diamonds", "hearts", "spades")
    ]
    st.apply("name spades")
    assert "seat 0 plays the 8-diamonds and names spades" in st.log
    # Seat 1 must follow spades (the eight's own diamonds and the old rank no longer count), or play an eight.
    assert sorted(st.legal_actions()) == ["draw", "play 5-spades", "play 8-clubs"]


def test_a_player_who_cannot_play_draws_until_a_card_can_be_played_and_plays():
    """Ruling drawing: seat 0 cannot match; the 4 of clubs does not match either, so a second card
    comes, the 9 of hearts, and seat 0 must play it."""
    st = new()
    set_top(st, "7-hearts")
    set_hand(st, 0, ["king-spades"])
    stack_stock(st, ["4-clubs", "9-hearts", "jack-diamonds"])
    reoffer(st)
    assert st.legal_actions() == ["draw"]
    st.apply("draw")
    assert sorted(ids(st, "hand:0")) == ["4-clubs", "9-hearts", "king-spades"]
    assert ids(st, "deck")[0] == "jack-diamonds"
    assert st.current_player == 0 and st.legal_actions() == ["play 9-hearts"]
    st.apply("play 9-hearts")
    assert st.current_player == 1


def test_a_player_may_draw_instead_of_playing_but_then_must_play():
    """Ruling drawing: seat 0 could play the 2 of hearts but draws; one card comes (seat 0 already holds a
    card that can be played), and then seat 0 must play: the 2 of hearts, or the drawn card if it matches."""
    st = new()
    set_top(st, "7-hearts")
    set_hand(st, 0, ["2-hearts", "king-spades"])
    stack_stock(st, ["4-clubs", "9-hearts"])
    reoffer(st)
    st.apply("draw")
    assert sorted(ids(st, "hand:0")) == ["2-hearts", "4-clubs", "king-spades"]
    assert st.legal_actions() == ["play 2-hearts"]


def test_an_empty_stock_is_made_again_from_the_discard_pile_but_its_top():
    """Ruling reshuffle."""
    st = new()
    set_hand(st, 0, ["king-spades"])
    for c in list(st.zones["deck"]):  # every stock card under the discard pile
        put(st, c, "discard", bottom=True)
    set_top(st, "7-hearts")
    under = len(st.zones["discard"]) - 1
    reoffer(st)
    st.apply("draw")
    assert ids(st, "discard") == ["7-hearts"]
    assert len(st.zones["deck"]) + len(st.zones["hand:0"]) - 1 == under
    assert any("shuffled into a new stock" in line for line in st.log)
    assert accounted(st)


def test_a_player_who_can_neither_play_nor_draw_passes():
    """Ruling blocked: seat 0 cannot match and nothing is left to draw: seat 0 passes; seat 1 holds the
    eights and plays on."""
    st = new()
    set_top(st, "7-hearts")
    rest = [st.game.card_ids[c] for c in st.zones["deck"]] + [st.game.card_ids[c] for c in st.zones["discard"][:-1]]
    eights = ["8-clubs", "8-diamonds", "8-spades"]
    no_match = [c for c in rest if c not in eights and not c.endswith("-hearts") and not c.startswith("7-")]
    set_hand(st, 0, ["king-spades"])
    for c in list(st.zones["deck"]) + list(st.zones["discard"][:-1]):  # nothing left to draw
        put(st, c, "hand:1")
    for c in no_match[:10]:  # seat 0 holds ten cards, none of which matches
        put(st, card(st, c), "hand:0")
    reoffer(st)
    assert st.legal_actions() == ["pass"]
    st.apply("pass")
    assert "seat 0 can neither play nor draw and passes" in st.log
    assert st.current_player == 1 and not st.is_terminal
    assert "play 8-clubs" in st.legal_actions()
    assert accounted(st)


def test_the_first_player_out_wins_the_penalty_points_left_in_the_other_hands():
    st = new(players=3)
    set_top(st, "7-hearts")
    set_hand(st, 0, ["queen-hearts"])
    set_hand(st, 1, ["8-clubs", "ace-spades", "5-diamonds"])  # 50 + 1 + 5
    set_hand(st, 2, ["king-clubs", "10-spades"])  # 10 + 10
    reoffer(st)
    st.apply("play queen-hearts")
    assert st.is_terminal
    assert st.outcome.reason == "a player went out"
    assert st.winners == [0]
    assert st.scores == [76, 0, 0]


def test_the_greedy_bot_keeps_its_eights_and_sheds_court_cards():
    from engine.bots import make_agent

    st = new()
    set_top(st, "7-hearts")
    set_hand(st, 0, ["8-clubs", "2-hearts", "king-hearts"])
    reoffer(st)
    bot = make_agent("greedy", seed=0)
    bot.explore = 0
    assert bot.act(st.view(0), st.determinized(0, 1)) == "play king-hearts"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_seeded_random_games_end_with_a_player_out(players):
    for st in random_games(C8, players, range(6), limit=4000):
        assert st.outcome.reason == "a player went out"
        assert len(st.winners) == 1
        assert ids(st, f"hand:{st.winners[0]}") == []
        assert accounted(st)
