"""No Thanks!, as its rules read.

Cards are named by their value ("3" … "35").  The player to act takes the card turned up ("take") or
pays a chip onto it ("no thanks").  The fewest points win (``winner: lowest``): scores are the points as
counted, never negated.
"""

import pytest
from gallery_helpers import card, game, random_games, reoffer
from table import accounted

from engine import load_game


def new(players=3, seed=0):
    return game("no-thanks").new_game(players=players, seed=seed)


def test_setup_puts_nine_cards_away_and_gives_eleven_chips():
    """Ruling open-chips: every seat sees every seat's chips."""
    st = new()
    assert len(st.zones["set_aside"]) == 9 and len(st.zones["deck"]) == 23 and len(st.zones["turned_up"]) == 1
    assert [st.pvars[p]["chips"] for p in range(3)] == [11, 11, 11]
    assert st.view(1)["player_variables"][0]["chips"] == 11
    assert st.legal_actions() == ["take", "no thanks"]
    assert accounted(st)


def test_no_thanks_costs_a_chip_which_stays_on_the_card():
    st = new()
    st.apply("no thanks")
    st.apply("no thanks")
    assert st.current_player == 2 and st.vars["pot"] == 2
    assert [st.pvars[p]["chips"] for p in range(3)] == [10, 10, 11]


def test_the_taker_gets_the_chips_and_acts_again_on_the_next_card():
    """Ruling taker-again."""
    st = new()
    first = st.zones["turned_up"][-1]
    st.apply("no thanks")
    st.apply("take")
    assert st.zones["taken:1"] == [first] and st.pvars[1]["chips"] == 12 and st.vars["pot"] == 0
    assert st.current_player == 1 and st.zones["turned_up"] and st.zones["turned_up"][-1] != first


def test_a_player_without_chips_must_take():
    """Ruling no-chips."""
    st = new()
    st.pvars[0]["chips"] = 0
    reoffer(st)
    assert st.legal_actions() == ["take"]


def _scores_with(st, cards_of: dict[int, list[str]], chips: dict[int, int]):
    for seat, ids in cards_of.items():
        st.zones[f"taken:{seat}"] = [card(st, cid) for cid in ids]
        st.pvars[seat]["chips"] = chips[seat]
    return [st.score_of(p) for p in range(st.n)]


def test_a_run_scores_only_its_lowest_card_and_chips_take_points_off():
    st = new()
    assert _scores_with(st, {0: ["20", "21", "22", "30"], 1: ["5"], 2: []}, {0: 4, 1: 0, 2: 11}) == [46, 5, -11]


@pytest.mark.parametrize("reference", [False, True])
def test_the_fewest_points_win_and_chips_break_a_tie(reference):
    """Ruling tie-chips.  The last card goes to seat 0, who then holds it and 2 chips: v - 2 points.  Seat 1
    holds a card w set aside and w - v + 2 chips: also v - 2, with more chips, so seat 1 wins; seat 2 holds
    another card set aside and no chip: more points."""
    rules = load_game("no-thanks", reference=reference)
    value = rules.attributes["value"]
    for seed in range(50):
        st = rules.new_game(players=3, seed=seed)
        v = value[st.zones["turned_up"][-1]]
        high = sorted((c for c in st.zones["set_aside"] if value[c] > v + 1), key=lambda c: value[c])
        if len(high) >= 2 and value[high[0]] + 1 != value[high[1]]:
            break
    st.zones["set_aside"] += st.zones["deck"]
    st.zones["deck"] = []
    for seat, c in ((1, high[1]), (2, high[0])):
        st.zones["set_aside"].remove(c)
        st.zones[f"taken:{seat}"] = [c]
        st.loc[c] = f"taken:{seat}"
    for c in st.zones["set_aside"]:
        st.loc[c] = "set_aside"
    st.pvars[0]["chips"], st.pvars[1]["chips"], st.pvars[2]["chips"] = 2, value[high[1]] - v + 2, 0
    st.apply("take")
    assert st.scores[0] == st.scores[1] == v - 2 < st.scores[2]  # as counted: the fewest win, nothing negated
    assert st.winners == [1] and accounted(st)


def test_random_games_end_when_the_last_card_is_taken_with_every_card_and_chip_accounted_for():
    for players in (3, 4, 5):
        for st in random_games("no-thanks", players, range(6)):
            assert st.outcome.reason == "the last card was taken"
            assert sum(st.pvars[p]["chips"] for p in range(players)) == 11 * players
            assert sum(len(st.zones[f"taken:{p}"]) for p in range(players)) == 24
            assert accounted(st)
