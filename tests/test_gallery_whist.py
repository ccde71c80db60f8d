"""Whist (short whist, four players in two partnerships), as its rules read.

Seats 0 and 2 are partners against seats 1 and 3.  Seat 3 deals the first hand, so seat 0 leads.
"""

import pytest
from gallery_helpers import card, game, ids, random_games, reoffer
from table import accounted

WHIST = "whist"


def new(seed=0):
    return game(WHIST).new_game(players=4, seed=seed)


def give(st, seat, cids):
    """Make ``seat``'s hand hold exactly these cards, swapping each with a card of the hand that is
    not wanted (the swapped card goes where the wanted one was), so every card stays accounted for."""
    zone = f"hand:{seat}"
    wanted = [card(st, c) for c in cids]
    assert len(wanted) == len(st.zones[zone])
    spare = [c for c in st.zones[zone] if c not in wanted]
    for w in wanted:
        if st.loc[w] == zone:
            continue
        old, where = spare.pop(), st.loc[w]
        st.zones[zone][st.zones[zone].index(old)] = w
        st.zones[where][st.zones[where].index(w)] = old
        st.loc[w], st.loc[old] = zone, where


def fill(st, seat, cids):
    """``seat`` holds these cards and, for the rest, cards it already held."""
    rest = [c for c in ids(st, f"hand:{seat}") if c not in cids]
    give(st, seat, list(cids) + rest[: 13 - len(cids)])


def to_last_trick(st):
    """Play the first legal card throughout until the 13th trick is about to be led."""
    while not (all(len(st.zones[f"hand:{p}"]) == 1 for p in range(4)) and not st.zones["trick"]):
        st.apply(st.legal_actions()[0])


def test_deal_thirteen_each_and_the_last_card_names_trumps():
    st = new(seed=3)
    assert [len(st.zones[f"hand:{p}"]) for p in range(4)] == [13, 13, 13, 13]
    turned = ids(st, "hand:3")[0]  # the dealer's last card is on top of the hand
    assert st.vars["trump"] == st.game.attributes["suit"][card(st, turned)]
    assert any(f"turns up the {turned}" in line for line in st.visible_log(1))
    # Everyone saw it: a copy made for another seat keeps it in the dealer's hand.
    other = st.determinized(1, seed=9)
    assert card(st, turned) in other.zones["hand:3"]
    assert st.current_player == 0  # the player left of the dealer leads
    assert accounted(st)


def test_a_player_must_follow_suit_when_able():
    """Seat 0 leads a heart; seat 1, holding hearts, may play only a heart (not its ace of trumps)."""
    st = new()
    st.vars["trump"] = "spades"
    fill(st, 1, ["king-hearts", "3-hearts", "ace-spades", "ace-clubs"])
    fill(st, 0, ["2-hearts"])
    reoffer(st)
    st.apply("play 2-hearts")
    assert st.current_player == 1
    hearts = sorted(f"play {c}" for c in ids(st, "hand:1") if c.endswith("-hearts"))
    assert sorted(st.legal_actions()) == hearts
    assert "play 3-hearts" in hearts and "play king-hearts" in hearts


def last_trick(st, in_order, trump="spades"):
    """Go to the last trick and give the four players, from the leader on, these cards; returns the
    seats in playing order."""
    to_last_trick(st)
    st.vars["trump"] = trump
    leader = st.vars["leader"]
    order = [(leader + i) % 4 for i in range(4)]
    for seat, c in zip(order, in_order):
        give(st, seat, [c])
    reoffer(st)
    assert st.current_player == leader
    return order


def play_out(st, order):
    for seat in order:
        st.apply(f"play {ids(st, f'hand:{seat}')[0]}")


def trick_winner(st):
    return next(int(line.split()[1]) for line in reversed(st.log) if "wins the trick" in line)


def test_a_player_void_in_the_suit_led_may_trump_and_the_highest_trump_wins():
    st = new()
    order = last_trick(st, ["ace-hearts", "2-spades", "king-hearts", "3-spades"])
    play_out(st, order)
    assert trick_winner(st) == order[3]  # the 3 of spades beats the 2 and both hearts


def test_a_card_of_another_plain_suit_never_wins_the_trick():
    st = new()
    order = last_trick(st, ["2-hearts", "ace-clubs", "3-hearts", "king-diamonds"])
    play_out(st, order)
    assert trick_winner(st) == order[2]  # the 3 of hearts: the highest of the suit led


def last_leader():
    """Who leads the last trick of the first hand of ``new()`` when the first legal card is always played."""
    st = new()
    to_last_trick(st)
    return st.vars["leader"]


def score_last_trick(st, tricks, points=(0, 0, 0, 0)):
    """The last trick is led with the ace of trumps by seat 0's side or the other, as the leader falls;
    ``tricks`` (per seat) are those taken before it."""
    order = last_trick(st, ["ace-spades", "2-hearts", "3-hearts", "4-hearts"])
    for seat in range(4):
        st.pvars[seat]["tricks"] = tricks[seat]
        st.pvars[seat]["points"] = points[seat]
    play_out(st, order)
    return order[0]


def test_each_trick_over_six_scores_one_point_for_the_partnership():
    """Ruling honours: tricks only.  The leader's side took 8 tricks before the last, the other side 4;
    the leader wins the last with the ace of trumps: 9 tricks, 3 points for each partner."""
    st = new()
    leader = last_leader()
    side = {leader, (leader + 2) % 4}
    tricks = [5 if s == leader else 3 if s in side else 2 for s in range(4)]
    assert score_last_trick(st, tricks) == leader
    assert [st.pvars[s]["points"] for s in range(4)] == [3 if s in side else 0 for s in range(4)]


def test_the_first_partnership_to_five_points_wins():
    leader = last_leader()
    side = {leader, (leader + 2) % 4}
    st = new()
    tricks = [3, 3, 3, 3]  # 6 and 6 before the last trick
    points = [4 if s in side else 1 for s in range(4)]
    score_last_trick(st, tricks, points)
    assert st.is_terminal
    assert sorted(st.winners) == sorted(side)
    assert st.outcome.reason == "a partnership reached 5 points"


def test_the_winner_of_a_trick_leads_the_next():
    st = new(seed=5)
    for _ in range(4):
        st.apply(st.legal_actions()[0])
    assert st.current_player == trick_winner(st) == st.vars["leader"]
    assert sum(len(st.zones[f"taken:{p}"]) for p in range(4)) == 4


def test_other_hands_stay_hidden():
    st = new(seed=2)
    view = st.view(0)
    assert all(c is None for c in view["zones"]["hand:1"])
    assert view["zones"]["hand:0"] == [st.game.card_ids[c] for c in st.zones["hand:0"]]


@pytest.mark.parametrize("part", range(2))
def test_seeded_random_games_end_with_one_partnership_winning(part):
    for st in random_games(WHIST, 4, range(part * 5, part * 5 + 5)):
        assert sorted(st.winners) in ([0, 2], [1, 3])
        assert st.outcome.reason == "a partnership reached 5 points"
        assert max(st.scores) >= 5
        assert accounted(st)


def test_the_greedy_bot_wins_a_trick_as_cheaply_as_it_can():
    """Seat 0 leads the 10 of hearts; seat 1 holds the 2, the jack and the ace: it wins with the jack."""
    from engine.bots import make_agent

    st = new()
    st.vars["trump"] = "spades"
    fill(st, 1, ["2-hearts", "jack-hearts", "ace-hearts"])
    fill(st, 0, ["10-hearts"])
    reoffer(st)
    st.apply("play 10-hearts")
    bot = make_agent("greedy", seed=0)
    bot.explore = 0
    assert bot.act(st.view(1), st.determinized(1, 2)) == "play jack-hearts"
