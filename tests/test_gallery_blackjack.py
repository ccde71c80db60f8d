"""Blackjack, as its rules read: every player against the dealer, a seat run by the rules (``house:``) who
hits to 17, over a session of hands for chips.

Cards are ``FACE-SUIT`` (``ace-spades``, ``10-hearts``).  A hand starts with ``bet N`` from each player with
chips; then the dealer's first card lies face up in ``dealer``, the second face down in ``hole_card``, and each
player in turn is asked ``hit`` or ``stand``.  The dealer is no seat: it is never asked.  Scenarios lay the
cards while the first player is asked to hit or stand, then ask again (``reoffer``); the shoe's next cards
are laid on top of ``deck``.  A session of one hand (``constants.hands_per_session``) shows the outcome: each player
wins, draws or loses against the house by the chips they leave with.
"""

import pytest
from gallery_helpers import fetch, game, random_games, reoffer
from table import accounted, put

from engine import load_game

ONE_HAND = {"constants.hands_per_session": 1}


def asked(players: int, reference: bool = False, overrides: dict | None = None, bets: tuple = ()):
    """A hand whose first player is asked to hit or stand, every seat having bet ``bets`` (1 each if not given)."""
    rules = load_game("blackjack", overrides=overrides, reference=reference) if reference or overrides else None
    rules = rules or game("blackjack")
    for seed in range(100):
        st = rules.new_game(players, seed)
        for seat in range(players):
            st.apply(f"bet {bets[seat] if bets else 1}")
        if st.legal_actions() == ["hit", "stand"] and st.current_player == 0:
            return st
    raise AssertionError("no hand without a blackjack")


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


def chips(st) -> list[int]:
    return [st.pvars[p]["chips"] for p in range(st.n)]


@pytest.mark.parametrize("reference", [False, True])
def test_the_dealer_draws_to_17_and_stands_on_a_soft_17(reference):
    """Ruling stand-17: ace and six are a soft 17, and the dealer stands on it."""
    st = asked(1, reference)
    lay(st, {"hand:0": ["10-clubs", "8-clubs"], "dealer": ["ace-hearts"], "hole_card": ["6-hearts"]}, ["5-spades"])
    st.apply("stand")
    assert st.log[-2:] == ["Dealer stands on 17", "seat 0 wins 1"] and chips(st) == [21]

    st = asked(1, reference)
    hands = {"hand:0": ["10-clubs", "8-clubs"], "dealer": ["10-hearts"], "hole_card": ["4-hearts"]}
    lay(st, hands, ["2-spades", "3-spades"])
    st.apply("stand")
    assert st.log[-2:] == ["Dealer stands on 19", "seat 0 loses 1"] and chips(st) == [19]


def test_the_hole_card_is_hidden_until_the_dealer_plays_and_the_dealer_is_never_asked():
    st = asked(2)
    assert st.view(0)["zones"]["hole_card"] == [None] and st.view(0)["zones"]["dealer"] != [None]
    assert st.game.action_space(2) == ["bet 1", "bet 2", "bet 3", "hit", "stand"]
    for st in random_games("blackjack", 2, range(3)):
        assert all(e["seat"] in (0, 1) for e in st.history if "seat" in e)


def test_a_lone_player_can_lose_to_the_house():
    """Ruling end-of-session: fewer chips than the twenty brought is a loss against the house; returns are not
    zero-sum."""
    st = asked(1, overrides=ONE_HAND)
    lay(st, {"hand:0": ["10-clubs", "2-clubs"], "dealer": ["10-hearts"], "hole_card": ["8-hearts"]})
    st.apply("stand")
    assert st.is_terminal and chips(st) == [19] and st.house_points() == 20
    assert st.outcome.results == ("loss",) and st.winners == [] and st.returns() == [-1.0]
    assert st.outcome.to_data()["against"] == "house"
    info = st.game.info(1)
    assert not info.zero_sum and (info.min_utility, info.max_utility) == (-1.0, 1.0)


def test_each_player_wins_draws_or_loses_against_the_house_alone():
    st = asked(3, overrides=ONE_HAND)
    lay(
        st,
        {
            "hand:0": ["10-clubs", "9-clubs"],
            "hand:1": ["10-diamonds", "8-diamonds"],
            "hand:2": ["10-spades", "7-spades"],
            "dealer": ["10-hearts"],
            "hole_card": ["8-hearts"],
        },
    )
    for _ in range(3):
        st.apply("stand")
    assert chips(st) == [21, 20, 19]
    assert st.outcome.results == ("win", "draw", "loss") and st.returns() == [1.0, 0.0, -1.0]


def test_a_blackjack_beats_a_dealers_21_of_three_cards_and_pays_three_to_two():
    st = asked(2, bets=(1, 2))
    hands = {"hand:0": ["10-clubs", "5-clubs"], "hand:1": ["ace-spades", "king-spades"]}
    lay(st, {**hands, "dealer": ["10-hearts"], "hole_card": ["6-hearts"]}, ["5-hearts"])
    st.apply("stand")  # seat 1 has 21 and is not asked
    assert "Dealer stands on 21" in st.log and chips(st) == [19, 23]


def test_when_every_player_busts_the_dealer_draws_nothing():
    """Ruling all-bust: the dealer turns up a 15 and stands, having won."""
    st = asked(1)
    lay(st, {"hand:0": ["10-clubs", "6-clubs"], "dealer": ["10-hearts"], "hole_card": ["5-hearts"]}, ["king-spades"])
    st.apply("hit")
    assert st.log[-3:] == ["seat 0 busts with 26", "Dealer stands on 15", "seat 0 loses 1"] and chips(st) == [19]


def test_a_dealer_blackjack_ends_the_hand_before_anyone_plays():
    """Ruling dealer-peeks: found among seeded deals; only a player's own blackjack pushes."""
    rules = game("blackjack")
    value = rules.attributes["value"]
    found = 0
    for seed in range(300):
        st = rules.new_game(2, seed)
        st.apply("bet 1")
        st.apply("bet 1")
        if sorted(value[c] for c in st.zones["dealer"]) != [1, 10]:
            continue
        found += 1
        assert "Dealer has blackjack" in st.log and st.legal_actions() == ["bet 1", "bet 2", "bet 3"]
        naturals = [sorted(value[c] for c in st.zones[f"hand:{p}"]) == [1, 10] for p in (0, 1)]
        assert chips(st) == [20 if n else 19 for n in naturals]
    assert found > 3


def test_random_sessions_end_with_each_player_against_the_house_and_every_card_accounted_for():
    for players in (1, 3, 5):
        for st in random_games("blackjack", players, range(4)):
            assert st.outcome.reason in ("the session is over", "every player is out of chips") and accounted(st)
            expected = tuple("win" if c > 20 else "draw" if c == 20 else "loss" for c in chips(st))
            assert st.outcome.results == expected


def test_sessions_keep_every_invariant_of_the_conformance_checks():
    """A session may end with every player beaten by the house: neither a winner nor a draw, nor zero-sum."""
    from engine.lab.conformance import playout

    rules = game("blackjack")
    for players in (1, 2):
        for seed in range(3):
            playout(rules, players, seed)
    st = next(st for st in random_games("blackjack", 2, range(40)) if st.outcome.results == ("loss", "loss"))
    assert st.winners == [] and not st.outcome.is_draw and st.returns() == [-1.0, -1.0]


def test_openspiel_is_told_each_player_plays_the_house_on_their_own():
    pyspiel = pytest.importorskip("pyspiel")
    from engine.interop.open_spiel import load as spiel

    kind = spiel("blackjack", players=1).get_type()
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_the_rules_reference_names_the_house_and_what_it_plays_by():
    from engine.tools.doc import game_reference

    text = game_reference(game("blackjack"))
    assert "Dealer, a seat run by the rules, plays by `dealer_plays` and is never asked" in text
