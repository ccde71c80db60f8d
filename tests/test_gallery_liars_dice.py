"""Liar's Dice, as its rules read.

Every seat has five dice under its cup (``cup:S``), rolled in secret; a bid is ``bid COUNT FACE`` ("at least
COUNT dice on the table show FACE", ones counting as every face), the challenge is ``liar``.  Scenarios set
the faces the dice show (``st.faces``) while a bid is pending: faces are read only when the cups are lifted.
"""

import pytest
from gallery_helpers import game, random_games

from engine import load_game


def new(players=3, seed=0, reference=False):
    rules = load_game("liars-dice", reference=True) if reference else game("liars-dice")
    return rules.new_game(players=players, seed=seed)


def show(st, seat: int, faces: list[int]) -> None:
    """Seat ``seat``'s dice show these faces (as many as it has)."""
    for die, face in zip(st.zones[f"cup:{seat}"], faces, strict=True):
        st.faces[die] = face


def dice(st, seat: int) -> int:
    return len(st.zones[f"cup:{seat}"])


def test_each_player_rolls_five_dice_that_only_they_see():
    st = new()
    assert [dice(st, p) for p in range(3)] == [5, 5, 5] and st.vars["in_play"] == 15
    mine = st.view(0)["zones"]["cup:0"]
    assert all("face" in d for d in mine) and [d["face"] for d in mine] == [st.faces[d] for d in st.zones["cup:0"]]
    assert all("face" not in d for d in st.view(0)["zones"]["cup:1"] + st.view(None)["zones"]["cup:0"])
    assert "liar" not in st.legal_actions() and st.legal_actions()[:2] == ["bid 1 2", "bid 1 3"]


def test_each_bid_raises_the_last():
    """Ruling higher-bid: more dice of any face, or as many of a higher face; never more dice than are in play."""
    st = new()
    st.apply("bid 3 4")
    legal = st.legal_actions()
    assert st.current_player == 1 and "liar" in legal
    assert "bid 3 4" not in legal and "bid 3 2" not in legal and "bid 2 6" not in legal
    assert {"bid 3 5", "bid 3 6", "bid 4 2", "bid 15 6"} <= set(legal) and "bid 16 2" not in legal


@pytest.mark.parametrize("reference", [False, True])
def test_ones_count_as_the_face_bid(reference):
    """Ruling ones-wild: two 4s and two 1s make four 4s; the caller was wrong and loses a die."""
    st = new(reference=reference)
    show(st, 0, [4, 1, 2, 2, 3])
    show(st, 1, [4, 1, 2, 3, 5])
    show(st, 2, [2, 2, 3, 5, 6])
    st.apply("bid 4 4")
    st.apply("liar")
    assert [dice(st, p) for p in range(3)] == [5, 4, 5] and st.vars["in_play"] == 14
    assert st.log[-1] == "seat 1 calls seat 0's bid of 4 × 4 a lie: there are 4; seat 1 loses a die"


def test_a_bid_met_exactly_costs_the_caller_a_die():
    """Ruling met-exactly: a bid claims at least that many."""
    st = new()
    for seat in range(3):
        show(st, seat, [6, 2, 2, 3, 3])
    st.apply("bid 2 5")
    st.apply("bid 3 6")
    st.apply("liar")
    assert [dice(st, p) for p in range(3)] == [5, 5, 4] and st.current_player == 2


@pytest.mark.parametrize("reference", [False, True])
def test_a_wrong_bid_costs_the_bidder_a_die_and_the_bidder_opens_the_next_round(reference):
    """Ruling who-starts; the cups are lifted for all to see, then the dice rolled again in secret."""
    st = new(reference=reference)
    for seat in range(3):
        show(st, seat, [2, 2, 3, 3, 4])
    st.apply("bid 5 6")
    st.apply("liar")
    assert [dice(st, p) for p in range(3)] == [4, 5, 5] and st.current_player == 0
    assert "there are 0; seat 0 loses a die" in st.log[-1]
    assert all("face" not in d for d in st.view(0)["zones"]["cup:1"])  # the new roll is secret again


def test_a_player_without_dice_is_out_and_the_next_player_opens():
    st = new()
    for die in st.zones["cup:1"][1:]:
        st.move(die, "box")
    st.vars["in_play"] = 11
    show(st, 1, [6])
    show(st, 2, [2, 2, 2, 2, 2])
    show(st, 0, [2, 2, 2, 2, 2])
    st.apply("bid 2 5")
    st.apply("bid 3 5")  # seat 1's last die: there is no 5 and no 1
    st.apply("liar")
    assert dice(st, 1) == 0 and st.current_player == 2  # seat 1 is out; seat 2, on its left, opens
    st.apply("bid 1 2")
    assert st.current_player == 0  # seat 1 is passed over


def test_a_seats_copy_rolls_the_others_dice_again_and_keeps_its_own():
    st = new()
    own = [st.faces[d] for d in st.zones["cup:0"]]
    others = {tuple(st.determinized(0, seed).faces[d] for d in st.zones["cup:1"]) for seed in range(10)}
    assert all([c.faces[d] for d in st.zones["cup:0"]] == own for c in (st.determinized(0, s) for s in range(5)))
    assert len(others) > 5


def test_random_games_end_with_one_player_holding_dice():
    for players in (2, 4, 6):
        for st in random_games("liars-dice", players, range(4)):
            left = [dice(st, p) for p in range(players)]
            assert sum(1 for n in left if n) == 1 and st.winners == [left.index(max(left))]
            assert sum(left) + len(st.zones["box"]) == 30 and st.vars["in_play"] == sum(left)
            assert st.outcome.reason == "one player has dice left"


def test_the_card_list_and_the_rules_reference_give_the_faces_of_the_dice():
    from engine.tools.doc import game_reference
    from engine.tools.explain import card_list

    assert card_list(game("liars-dice"))[0]["attributes"] == {"faces": [1, 2, 3, 4, 5, 6]}
    assert "| `die` | Die | die | 30 | faces: [1, 2, 3, 4, 5, 6] |" in game_reference(game("liars-dice"))
