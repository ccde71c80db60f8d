"""Blackjack, as its rules read (tests/data/blackjack): every player against the dealer, a seat run by the rules
(``house:``), who hits to 17.

Cards are ``FACE-SUIT`` (``ace-spades``, ``10-hearts``).  The dealer's first card lies face up in ``dealer``,
the second face down in ``hole``; the dealer is no seat: it is never asked, and each player's outcome is a
win, a loss or a push (``draw``) against it.  Scenarios lay the cards while the first player is asked, then
ask again (``reoffer``); the shoe's next cards are laid on top of ``deck``.
"""

from pathlib import Path

import pytest
from gallery_helpers import fetch, game, random_games, reoffer
from table import accounted, put

from engine import load_game

BLACKJACK = str(Path(__file__).parent / "data" / "blackjack" / "game.yaml")


def asked(players: int, reference: bool = False):
    """A new round whose first player is asked (no blackjack dealt to the dealer or the first player)."""
    rules = load_game(BLACKJACK, reference=True) if reference else game(BLACKJACK)
    return next(st for seed in range(100) if not (st := rules.new_game(players, seed)).is_terminal)


def lay(st, hands: dict[str, list[str]], shoe: list[str] = ()) -> None:
    """The zones given hold these cards (the others go to the bottom of the deck); the shoe deals ``shoe`` next."""
    for zone in hands:
        for c in list(st.zones[zone]):
            put(st, c, "deck", bottom=True)
    for zone, ids in hands.items():
        for cid in ids:
            fetch(st, cid, zone, source="deck")
    for cid in reversed(shoe):
        put(st, st.game.first_card[cid], "deck")
    reoffer(st)


@pytest.mark.parametrize("reference", [False, True])
def test_the_dealer_draws_to_17_and_stands_on_a_soft_17(reference):
    """Ruling stand-17: ace and six are a soft 17, and the dealer stands on it."""
    st = asked(1, reference)
    lay(st, {"hand:0": ["10-clubs", "8-clubs"], "dealer": ["ace-hearts"], "hole": ["6-hearts"]}, ["5-spades"])
    st.apply("stand")
    assert [st.game.card_ids[c] for c in st.zones["dealer"]] == ["ace-hearts", "6-hearts"]
    assert st.log[-1] == "Dealer stands on 17" and st.house_points() == 17
    assert st.outcome.results == ("win",) and st.returns() == [1.0]

    st = asked(1, reference)
    hands = {"hand:0": ["10-clubs", "8-clubs"], "dealer": ["10-hearts"], "hole": ["4-hearts"]}
    lay(st, hands, ["2-spades", "3-spades"])
    st.apply("stand")
    assert len(st.zones["dealer"]) == 4 and st.log[-1] == "Dealer stands on 19"
    assert st.outcome.results == ("loss",)


def test_the_hole_card_is_hidden_until_the_dealer_plays_and_the_dealer_is_never_asked():
    st = asked(2)
    assert st.view(0)["zones"]["hole"] == [None] and st.view(0)["zones"]["dealer"] != [None]
    assert st.to_act == [0] and st.game.action_space(2) == ["hit", "stand"]
    while not st.is_terminal:
        assert st.to_act in ([0], [1])
        st.apply("stand")
    assert st.zones["hole"] == [] and all(e["seat"] in (0, 1) for e in st.history if "seat" in e)


def test_a_lone_player_can_lose_to_the_dealer():
    """Ruling no-bets: one round, a result against the dealer alone; the returns need not sum to zero."""
    st = asked(1)
    lay(st, {"hand:0": ["10-clubs", "2-clubs"], "dealer": ["10-hearts"], "hole": ["8-hearts"]})
    st.apply("stand")
    assert st.outcome.results == ("loss",) and st.winners == [] and st.returns() == [-1.0]
    assert st.outcome.to_data()["against"] == "house"
    info = st.game.info(1)
    assert not info.zero_sum and (info.min_utility, info.max_utility) == (-1.0, 1.0)


def test_each_player_wins_pushes_or_loses_against_the_dealer_alone():
    st = asked(3)
    lay(
        st,
        {
            "hand:0": ["10-clubs", "9-clubs"],
            "hand:1": ["10-diamonds", "8-diamonds"],
            "hand:2": ["10-spades", "7-spades"],
            "dealer": ["10-hearts"],
            "hole": ["8-hearts"],
        },
    )
    for _ in range(3):
        st.apply("stand")
    assert st.outcome.results == ("win", "draw", "loss") and st.returns() == [1.0, 0.0, -1.0]


def test_a_blackjack_beats_a_dealers_21_of_three_cards():
    st = asked(2)
    lay(
        st,
        {"hand:0": ["10-clubs", "5-clubs"], "hand:1": ["ace-spades", "king-spades"], "dealer": ["10-hearts"],
         "hole": ["6-hearts"]},
        ["5-hearts"],
    )  # fmt: skip
    st.apply("stand")  # seat 1 has 21 and is not asked
    assert st.is_terminal and st.house_points() == 21
    assert st.outcome.results == ("loss", "win")


def test_when_every_player_busts_the_dealer_draws_nothing():
    """Ruling all-bust: the dealer turns up a 15 and stands, having won."""
    st = asked(1)
    lay(st, {"hand:0": ["10-clubs", "6-clubs"], "dealer": ["10-hearts"], "hole": ["5-hearts"]}, ["king-spades"])
    st.apply("hit")
    assert st.is_terminal and len(st.zones["dealer"]) == 2 and st.outcome.results == ("loss",)
    assert st.log[-2:] == ["seat 0 busts with 26", "Dealer stands on 15"]


def test_a_dealer_blackjack_ends_the_round_before_anyone_plays():
    """Ruling peek: found among seeded deals; only a player's own blackjack pushes."""
    rules = game(BLACKJACK)
    found = 0
    for seed in range(300):
        st = rules.new_game(2, seed)
        dealt = st.zones["dealer"] + st.zones["hole"]
        if sorted(rules.attributes["value"][c] for c in dealt) != [1, 10]:
            continue
        found += 1
        assert st.is_terminal and st.history == [{"chance": "shuffle", "zone": "deck"}]
        naturals = [sorted(rules.attributes["value"][c] for c in st.zones[f"hand:{p}"]) == [1, 10] for p in (0, 1)]
        assert st.outcome.results == tuple("draw" if n else "loss" for n in naturals)
    assert found > 3


def test_random_rounds_end_with_a_result_against_the_dealer_and_every_card_accounted_for():
    for players in (1, 3, 5):
        for st in random_games(BLACKJACK, players, range(8)):
            assert st.outcome.reason == "the dealer has played" and accounted(st)
            assert set(st.outcome.results) <= {"win", "loss", "draw"} and not st.zones["hole"]


def test_rounds_against_the_dealer_keep_every_invariant_of_the_conformance_checks():
    """A round may end with every player beaten by the house: neither a winner nor a draw, nor zero-sum."""
    from engine.lab.conformance import playout

    rules = game(BLACKJACK)
    for players in (1, 2, 4):
        for seed in range(6):
            playout(rules, players, seed)
    st = next(st for st in random_games(BLACKJACK, 2, range(40)) if st.outcome.results == ("loss", "loss"))
    assert st.winners == [] and not st.outcome.is_draw and st.returns() == [-1.0, -1.0]
