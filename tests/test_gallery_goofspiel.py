"""Goofspiel, as its rules read: every player bids at once in secret, the bids are revealed together.

Seat 0 bids with spades, seat 1 with hearts, seat 2 with clubs; the diamonds are the prizes.
"""

import random

import pytest
from gallery_helpers import game, ids, random_games
from table import accounted

from engine import IllegalAction
from engine.bots import GreedyAgent, MctsAgent
from engine.lab.simulate import bot_inputs
from engine.runtime import sight

GOOF = "goofspiel"


def new(players=2, seed=0):
    return game(GOOF).new_game(players=players, seed=seed)


def rank(st, cid):
    return st.game.attributes["rank"][st.game.first_card[cid]]


@pytest.mark.parametrize("players", [2, 3])
def test_each_player_holds_one_suit_and_the_diamonds_are_the_prizes(players):
    st = new(players)
    suits = ["spades", "hearts", "clubs"][:players]
    for seat, suit in enumerate(suits):
        assert sorted(ids(st, f"hand:{seat}")) == sorted(c for c in st.game.card_ids if c.endswith(f"-{suit}"))
    assert len(st.zones["prizes"]) == 12 and len(ids(st, "prize")) == 1  # one turned up
    assert ids(st, "prize")[0].endswith("-diamonds")
    assert len(st.zones["box"]) == 13 * (3 - players)
    assert st.current_player == 0 and st.legal_actions()[0] == "bid ace-spades"
    assert st.to_act == list(range(players))  # everyone bids at once
    assert st.legal_actions(1)[0] == "bid ace-hearts"
    assert accounted(st)


def test_nobody_sees_a_bid_before_the_reveal():
    """Ruling open-hands: the hands are open, the bid of the round is not.  Whatever seat 0 bids,
    everything seat 1 can read is the same until seat 1 has bid too — and the other way round."""
    for bidder, other, bids in (
        (0, 1, ("bid ace-spades", "bid king-spades")),
        (1, 0, ("bid 2-hearts", "bid queen-hearts")),
    ):
        seen = []
        for bid in bids:
            st = new(seed=4)
            st.apply(bid, seat=bidder)
            assert st.to_act == [other] and st.current_player == other
            copy = st.determinized(other, seed=1)
            seen.append(
                (
                    st.view(other),
                    st.visible_log(other),
                    st.history_for(other),
                    st.decision_for(other),
                    copy.to_json(),  # the bid in the copy is drawn from the bidder's options, not read
                )
            )
            assert st.decision_for(bidder)["chosen"] == bid  # the bidder sees its own bid
            assert "actions" not in st.decision_for(bidder) and bid in st.visible_log(bidder)[-1]
            assert st.decision_for(other)["to_act"] == [other] and "chosen" not in st.decision_for(other)
            assert f"seat {bidder}: bid …" in st.visible_log(other)
            assert not any(bid.split()[1] in line for line in st.visible_log(other))
        assert seen[0] == seen[1]


@pytest.mark.parametrize("players", [2, 3])
def test_the_bids_are_in_every_seats_history_once_shown_and_in_no_other_seats_before(players):
    """What the reveal shows everyone is in everyone's history.  Each round the seats bid in a random
    order: until the last bid, each seat's history (and an onlooker's) holds its own bid and only that
    others bid; after it, everyone's holds every bid of the round, in the order made, marked as made
    together."""
    for seed in range(3):
        st, rnd = new(players, seed), random.Random(seed)
        while not st.is_terminal:
            start, made = len(st.history), {}
            while len(made) < players:
                seat = rnd.choice(st.to_act)
                made[seat] = rnd.choice(st.legal_actions(seat))
                st.apply(made[seat], seat=seat)
                readers = [*range(players), None] if len(made) < players else []
                for s in readers:
                    shown = {e["seat"]: e.get("action") for e in sight.history_for(st, s)[start:]}
                    assert shown == {o: (bid if o == s else None) for o, bid in made.items()}
            together = [dict(seat=o, action=bid, kind="bid", secret=True, together=True) for o, bid in made.items()]
            for s in range(players):
                assert [e for e in st.history_for(s)[start:] if "seat" in e] == together
            assert [e for e in sight.history_for(st, None)[start:] if "seat" in e] == together


def test_bots_decide_on_their_own_bids_though_the_copy_asks_the_lowest_seat_first():
    """A copy for seat 1 asks seat 0 first, as the game does; seat 1's bots read their options with
    ``asked(1)``: greedy bids the heart nearest the prize, MCTS one of its hearts."""
    st = new(seed=4)
    prize = rank(st, ids(st, "prize")[0])
    greedy = GreedyAgent(0)
    greedy.explore = 0.0
    view, det = bot_inputs(st, 1, greedy)
    assert det.current_player == 0 and det.asked(1)["ids"] == st.legal_actions(1)
    nearest = min(abs(rank(st, a.split()[1]) - prize) for a in st.legal_actions(1))
    assert abs(rank(st, greedy.act(view, det).split()[1]) - prize) == nearest
    assert MctsAgent(0, "30").act(view, det) in st.legal_actions(1)


def test_a_seat_that_has_bid_cannot_bid_again_and_is_told_nothing_of_the_others():
    st = new(seed=4)
    st.apply("bid 5-hearts", seat=1)
    with pytest.raises(IllegalAction) as err:
        st.apply("bid 6-hearts", seat=1)
    assert "seat 1 has chosen already" in str(err.value) and "spades" not in str(err.value)
    with pytest.raises(IllegalAction) as err:
        st.apply("bid 5-spades", seat=1)
    assert "spades" not in str(err.value).split(":", 1)[1]
    assert st.legal_actions(1) == [] and st.legal_action_indices(1) == []
    assert st.to_act == [0]


def test_the_bids_wait_for_the_last_bidder_then_show_together():
    """The later seat bids first: nothing moves and nothing is logged until seat 0 has bid too."""
    st = new(seed=4)
    prize = ids(st, "prize")[0]
    st.apply("bid 3-hearts", seat=1)
    assert ids(st, "bids:1") == [] and "3-hearts" in ids(st, "hand:1") and ids(st, "prize") == [prize]
    assert not any(line.startswith("the bids") for line in st.log)
    st.apply("bid 8-spades", seat=0)
    assert ids(st, "bids:0") == ["8-spades"] and ids(st, "bids:1") == ["3-hearts"]
    assert ids(st, "won:0") == [prize]
    assert st.log[-3:-1] == ["the bids: 8-spades, 3-hearts", "seat 0 takes the prize"]
    assert st.to_act == [0, 1]  # the next round: both bid again


def test_a_game_saved_between_two_bids_goes_on_alike():
    st = new(players=3, seed=5)
    st.apply("bid 7-clubs", seat=2)
    back = st.game.state_from_json(st.to_json())
    assert back == st and back.to_act == [0, 1]
    for s in (st, back):
        s.apply("bid 2-spades", seat=0)
        s.apply("bid jack-hearts", seat=1)
    assert back.to_json() == st.to_json() and ids(st, "bids:2") == ["7-clubs"]


def test_the_bids_are_revealed_together_and_the_highest_takes_the_prize():
    st = new(seed=4)
    prize = ids(st, "prize")[0]
    st.apply("bid 9-spades")
    st.apply("bid 4-hearts")
    assert ids(st, "bids:0") == ["9-spades"] and ids(st, "bids:1") == ["4-hearts"]
    assert ids(st, "won:0") == [prize]
    assert "the bids: 9-spades, 4-hearts" in st.log
    assert "9-spades" not in ids(st, "hand:0")
    assert st.view(1)["player_variables"][0].get("bid") is None


def test_tied_highest_bids_lose_the_prize():
    """Ruling tied-bids, with three players: two tie high, the third bid lower; nobody gets the prize."""
    st = new(players=3, seed=2)
    prize = ids(st, "prize")[0]
    st.apply("bid queen-spades")
    st.apply("bid queen-hearts")
    st.apply("bid king-clubs")
    assert ids(st, "won:2") == [prize]  # a single highest bid wins even against a tie below
    prize = ids(st, "prize")[0]
    st.apply("bid king-spades")
    st.apply("bid king-hearts")
    st.apply("bid 2-clubs")
    assert ids(st, "lost") == [prize]
    assert all(ids(st, f"won:{s}") == [] for s in (0, 1))
    assert "the highest bids tie: the prize is lost" in st.log


def test_level_totals_are_a_draw():
    """Both players bid the same value every round: every prize is lost, 0 to 0, a draw."""
    st = new(seed=6)
    for r in range(1, 14):
        st.apply(f"bid {ids_rank(r)}-spades")
        st.apply(f"bid {ids_rank(r)}-hearts")
    assert st.is_terminal
    assert st.outcome.is_draw and st.winners == []
    assert st.scores == [0, 0]
    assert st.outcome.reason == "all 13 prizes were bid for"


def ids_rank(r):
    return {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(r, str(r))


def test_after_thirteen_rounds_the_most_prize_points_wins():
    st = new(seed=8)
    for r in range(13, 0, -1):  # seat 0 bids high first, seat 1 its lowest card
        st.apply(f"bid {ids_rank(r)}-spades")
        st.apply(st.legal_actions()[0])
    assert st.is_terminal
    totals = [sum(rank(st, c) for c in ids(st, f"won:{s}")) for s in (0, 1)]
    assert st.scores == totals
    assert sum(totals) + sum(rank(st, c) for c in ids(st, "lost")) == 91
    assert st.winners == ([0] if totals[0] > totals[1] else [1] if totals[1] > totals[0] else [])


def test_greedy_bids_the_card_nearest_the_prize():
    from engine.bots import make_agent

    st = new(seed=4)
    prize = rank(st, ids(st, "prize")[0])
    bot = make_agent("greedy", seed=0)
    bot.explore = 0
    choice = bot.act(st.view(0), st.determinized(0, 3))
    assert rank(st, choice.split()[1]) == prize


@pytest.mark.parametrize("players", [2, 3])
def test_seeded_random_games_play_thirteen_rounds(players):
    for st in random_games(GOOF, players, range(15)):
        assert len(st.actions) == 13 * players
        assert all(ids(st, f"hand:{s}") == [] for s in range(players))
        assert accounted(st)
