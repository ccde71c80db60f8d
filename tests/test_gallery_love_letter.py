"""Love Letter, as its rules read.

Cards are named by their id (``guard`` … ``princess``; five Guards, two each of Priest, Baron, Handmaid and
Prince).  A turn is ``play KIND`` — one option per kind, whichever copy is held (``kinds``/``card_of``) — then,
as the card asks, ``target seat N`` and, for the Guard, ``name NAME`` (a card named by its name: ``name
Baron``).  Scenarios lay the hands while seat 0 is asked to play, then ask again (``reoffer``).
"""

import pytest
from gallery_helpers import fetch, game, ids, random_games, reoffer
from table import accounted, put

from engine import load_game


def new(players=2, seed=0, reference=False):
    rules = load_game("love-letter", reference=True) if reference else game("love-letter")
    return rules.new_game(players=players, seed=seed)


def hold(st, hands: dict[int, list[str]], draws: list[str] = ()) -> None:
    """These seats hold these cards, and the deck deals ``draws`` next; each card is taken from wherever it
    lies, a card of the deck taking its place there (the round's cards stay where they are), and seat 0 is
    asked again."""
    for seat in hands:
        for c in list(st.zones[f"hand:{seat}"]):
            put(st, c, "deck", bottom=True)
    placed: set[int] = set()
    wanted = [(f"hand:{seat}", cid) for seat, cards in hands.items() for cid in cards]
    for zone, cid in wanted + [("deck", cid) for cid in reversed(draws)]:
        c = next(i for i, x in enumerate(st.game.card_ids) if x == cid and i not in placed)
        source = st.loc[c]
        put(st, c, zone)
        placed.add(c)
        if source not in ("deck", zone):
            put(st, next(d for d in st.zones["deck"] if d not in placed), source)
    reoffer(st)


def test_a_round_puts_a_card_away_unseen_three_face_up_with_two_players_and_deals_one_each():
    st = new()
    assert len(st.zones["set_aside"]) == 1 and len(st.zones["face_up"]) == 3
    assert [len(st.zones[f"hand:{p}"]) for p in (0, 1)] == [2, 1] and len(st.zones["deck"]) == 9
    assert st.view(0)["zones"]["hand:1"] == [None] and st.view(0)["zones"]["set_aside"] == [None]
    assert sorted(st.legal_actions()) == sorted({f"play {k}" for k in ids(st, "hand:0")})
    assert accounted(st)


def test_two_copies_of_a_card_are_one_choice():
    st = new()
    hold(st, {0: ["guard", "guard"]})
    assert st.legal_actions() == ["play guard"]


@pytest.mark.parametrize("reference", [False, True])
def test_a_guard_that_names_the_card_held_puts_its_holder_out(reference):
    st = new(reference=reference)
    hold(st, {0: ["guard", "priest"], 1: ["baron"]})
    st.apply("play guard")
    st.apply("target seat 1")
    assert "name Guard" not in st.legal_actions() and len(st.legal_actions()) == 7
    st.apply("name Baron")
    assert "seat 1 is out of the round" in st.log and st.pvars[0]["tokens"] == 1  # the round is over: one left
    assert st.pvars[1]["knocked_out"] is False and len(st.zones["hand:1"]) == 1  # a new round is dealt


def test_a_guard_that_names_another_card_does_nothing():
    st = new()
    hold(st, {0: ["guard", "priest"], 1: ["baron"]})
    for action in ("play guard", "target seat 1", "name King"):
        st.apply(action)
    assert not st.pvars[1]["knocked_out"] and st.current_player == 1 and ids(st, "discard:0") == ["guard"]


def test_the_priest_shows_the_other_hand_to_its_player_alone():
    st = new()
    hold(st, {0: ["priest", "guard"], 1: ["king"]})
    st.apply("play priest")
    st.apply("target seat 1")
    assert st.visible_log(0)[-1] == "seat 1 shows seat 0 the king"
    assert "seat 1 shows seat 0 the king" not in st.visible_log(1) + st.log
    king = st.zones["hand:1"][0]  # and the card seat 1 drew for its turn, which seat 0 has not seen
    assert all(king in st.determinized(0, seed).zones["hand:1"] for seed in range(5))


def test_the_baron_puts_the_lower_card_out():
    st = new()
    hold(st, {0: ["baron", "guard"], 1: ["priest"]})
    st.apply("play baron")
    st.apply("target seat 1")
    assert "seat 0 is out of the round" in st.log and st.pvars[1]["tokens"] == 1


def test_the_handmaid_keeps_her_player_from_being_chosen():
    st = new(players=3)
    hold(st, {0: ["handmaid", "guard"], 1: ["guard"]}, draws=["guard"])
    st.apply("play handmaid")
    st.apply("play guard")  # seat 1
    assert st.legal_actions() == ["target seat 2"]


def test_a_card_with_no_one_to_choose_does_nothing():
    """Ruling no-target."""
    st = new()
    st.pvars[1]["protected"] = True
    hold(st, {0: ["guard", "priest"], 1: ["baron"]})
    st.apply("play guard")
    assert st.log[-1] == "no player can be chosen: the card does nothing" and st.current_player == 1


def test_the_prince_makes_a_player_discard_and_draw_and_the_princess_discarded_is_out():
    """Ruling prince-empty-deck: with the deck empty, the card put away is drawn."""
    st = new()
    hold(st, {0: ["prince", "guard"], 1: ["princess"]})
    st.apply("play prince")
    assert st.legal_actions() == ["target seat 0", "target seat 1"]  # the Prince may choose its own player
    st.apply("target seat 1")
    assert "seat 1 is out of the round" in st.log and st.pvars[0]["tokens"] == 1

    st = new()
    hold(st, {0: ["prince", "guard"], 1: ["baron"]})
    away = st.zones["set_aside"][0]
    fetch(st, "king", "set_aside")
    put(st, away, "deck")
    for c in list(st.zones["deck"]):
        put(st, c, "face_up")
    st.apply("play prince")
    st.apply("target seat 1")  # seat 1 discards the Baron and draws the King put away: the round is over
    assert st.pvars[1]["tokens"] == 1 and st.pvars[0]["tokens"] == 0  # the King beats seat 0's Guard


def test_the_king_trades_hands():
    st = new()
    hold(st, {0: ["king", "guard"], 1: ["princess"]})
    st.apply("play king")
    st.apply("target seat 1")
    assert ids(st, "hand:0") == ["princess"] and "guard" in ids(st, "hand:1")  # beside the card seat 1 drew


def test_the_countess_must_be_played_beside_the_king_or_a_prince():
    """Ruling countess."""
    st = new()
    hold(st, {0: ["countess", "king"]})
    assert st.legal_actions() == ["play countess"]
    hold(st, {0: ["countess", "prince"]})
    assert st.legal_actions() == ["play countess"]
    hold(st, {0: ["countess", "guard"]})
    assert sorted(st.legal_actions()) == ["play countess", "play guard"]


def test_playing_the_princess_puts_her_player_out():
    st = new()
    hold(st, {0: ["princess", "guard"]})
    st.apply("play princess")
    assert "seat 0 is out of the round" in st.log and st.pvars[1]["tokens"] == 1


def test_when_the_deck_runs_out_the_highest_card_wins_and_discards_break_a_tie():
    """Ruling tie: both hold a Baron; seat 0 has discarded the Handmaid (4), seat 1 nothing."""
    st = new()
    hold(st, {0: ["handmaid", "baron"], 1: ["baron"]})
    for c in list(st.zones["deck"]):
        put(st, c, "face_up")
    st.apply("play handmaid")
    assert st.pvars[0]["tokens"] == 1 and st.pvars[1]["tokens"] == 0

    st = new()
    hold(st, {0: ["handmaid", "priest"], 1: ["king"]})
    for c in list(st.zones["deck"]):
        put(st, c, "face_up")
    st.apply("play handmaid")
    assert st.pvars[1]["tokens"] == 1 and st.current_player == 1  # the round's winner opens the next


def test_random_games_end_when_a_player_has_enough_tokens():
    """Ruling tokens: seven with two players, five with three, four with four."""
    for players, needed in ((2, 7), (3, 5), (4, 4)):
        for st in random_games("love-letter", players, range(3)):
            tokens = [st.pvars[p]["tokens"] for p in range(players)]
            assert max(tokens) == needed and st.winners == [p for p in range(players) if tokens[p] == needed]
            assert accounted(st)
