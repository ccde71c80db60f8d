"""One model of what a seat may know, checked on every channel a seat reads.

The property: a seat cannot tell a game from a copy that agrees with everything it may know
(``determinized``) — its view, its log, the history as it sees it, what it is told of the
decision pending, and the errors it gets are the same on both — while the copy holds nothing
more than the seat may know: no other seat's private variables, log lines, seen cards or
secret choices, not the true seed nor the true generator, so a rebuild from the copy's seed
and actions does not give back the true hidden cards.

Each path below was open before the information model (at a9f35bd) and makes this test fail
there: the copy kept the true seed, generator, history, private log lines and variables
(``test_a_copy_holds_nothing_more``); ``apply(seat=other)`` listed the decider's options, which
name its hand (``test_no_channel_tells_a_seat_what_is_hidden_from_it``: the error channel
differs between game and copy); a secret choice without a verb showed its option to everyone
and the history held it in clear (``test_a_secret_choice_tells_the_others_only_its_kind``); a
card the seat put face down on a pile was moved away in the copy
(``test_a_card_the_seat_put_face_down_stays_where_it_saw_it``).
"""

import json
import random
from itertools import pairwise

import pytest
from language_helpers import write_game
from table import GAMES

from engine import IllegalAction, TabletopError, load_game
from engine.lang.ops import OPS
from engine.load.catalogue import list_games
from engine.runtime import rng, sight
from engine.runtime.lower import ir_bytes

# Goofspiel's bids are simultaneous: several seats to act at once, some having chosen already.
CASES = [(name, variant, players) for name, variant in GAMES for players in (2, 3, 4)] + [
    ("goofspiel", None, players) for players in (2, 3)
]
GALLERY = [
    (g["id"], None, players)
    for g in list_games()
    if g["id"] not in {case[0] for case in CASES}
    for players in range(g["players"][0], min(g["players"][1], 4) + 1)
]


def positions(game, players, seeds, moves=160, stops=5):
    """Random positions along random games."""
    for seed in seeds:
        state = game.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        at = set(rnd.sample(range(moves), stops))
        for step in range(moves):
            if state.is_terminal:
                break
            if step in at:
                yield state
            seat = rnd.choice(state.to_act) if len(state.to_act) > 1 else state.current_player
            state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)


def wrong_seat_error(state, seat) -> str | None:
    """What ``seat`` is told when it tries to act out of turn."""
    if state.is_terminal or seat in state.to_act:
        return None
    try:
        state.clone().apply("?", seat=seat)
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError("acting out of turn must be refused")


def channels(state, seat) -> dict:
    """Everything ``seat`` can read of a game."""
    return {
        "view": state.view(seat),
        "log": state.visible_log(seat),
        "history": state.history_for(seat),
        "decision": state.decision_for(seat),
        "error": wrong_seat_error(state, seat),
    }


@pytest.mark.parametrize("name,variant,players", CASES + GALLERY)
def test_no_channel_tells_a_seat_what_is_hidden_from_it(name, variant, players):
    """Every channel reads the same on the game and on copies re-dealt for that seat."""
    game = load_game(name, variant)
    changed = secrets = 0
    for state in positions(game, players, seeds=range(3)):
        for seat in range(players):
            secrets += bool(state.hidden_from(seat))
            seen = channels(state, seat)
            for k in range(2):
                copy = state.determinized(seat, seed=k)
                changed += copy.zones != state.zones or copy.faces != state.faces
                assert channels(copy, seat) == seen, f"seat {seat} can tell the copy from the game"
                assert piles_known(copy, seat) == piles_known(state, seat)
    assert changed > 0 or not secrets, "the hidden cards never changed: the test would prove nothing"


def hidden_cards(state, seat) -> list[int]:
    return [state.zones[z][i] for z, i in state.hidden_from(seat)]


@pytest.mark.parametrize("name,variant,players", CASES)
def test_a_copy_holds_nothing_more(name, variant, players):
    """No other seat's private variables, log lines, seen cards or secret choices; a fresh generator;
    a rebuild from the copy's seed and actions does not give back the true hidden cards."""
    game = load_game(name, variant)
    private = game.private_player_variables
    rebuilt_checks = 0
    for state in positions(game, players, seeds=range(2), stops=3):
        for seat in range(players):
            copy = state.determinized(seat, seed=11)
            assert copy.seed == 11 and copy.rng == rng.seed_state(11) and copy.rng != state.rng
            assert all(sight.hears(audience, seat) for audience, _ in copy.log_entries)
            assert all(copy.seen[o] == [] for o in range(players) if o != seat)
            for o in range(players):
                for name_ in private:
                    if o != seat:
                        assert copy.pvars[o][name_] == game.player_variables[name_]
            assert copy.history == state.history_for(seat)  # others' secret choices masked, unless revealed
            assert copy == state.determinized(seat, seed=11)  # the same copy every time
            truth = hidden_cards(state, seat)
            if len({game.back_key(c) for c in truth}) < len(truth) - 4:  # enough look-alike cards
                again = game.new_game(players=players, seed=copy.seed)
                try:
                    for action in copy.actions:
                        again.apply(action)
                except TabletopError:
                    pass
                rebuilt = [again.zones[z][i] if i < len(again.zones[z]) else None for z, i in state.hidden_from(seat)]
                assert rebuilt != truth, "the copy's seed and actions rebuild the true hidden cards"
                rebuilt_checks += 1
    assert rebuilt_checks > 0 or name == "cats-mansion"


@pytest.mark.parametrize("name,variant", [("cat-town", None), ("cat-town", "advanced")])
def test_a_secret_choice_tells_the_others_only_its_kind(name, variant):
    """Whichever option a seat picks secretly, every other seat reads the same log and history."""
    game = load_game(name, variant)
    compared = 0
    for seed in range(40):
        state = game.new_game(players=3, seed=seed)
        rnd = random.Random(seed)
        for _ in range(200):
            if state.is_terminal:
                break
            pending = state.pending
            options = state.legal_actions()
            if pending["secret"] and len(options) >= 2:
                p = pending["player"]
                before = {s: len(state.visible_log(s)) for s in range(3)}
                after = []
                for a in options[:2]:
                    c = state.clone()
                    c.apply(a)
                    after.append(
                        {
                            s: (c.visible_log(s)[before[s] : before[s] + 1], c.history_for(s)[len(state.history)])
                            for s in range(3)
                            if s != p
                        }
                    )
                assert after[0] == after[1]
                assert all(
                    entry == {"seat": p, "kind": pending["kind"], "secret": True} for _, entry in after[0].values()
                )
                compared += 1
            state.apply(rnd.choice(options))
    assert compared > 0


def test_a_secret_choice_is_told_once_to_its_chooser_and_masked_to_everyone_else():
    """Its chooser reads the option it took, once (never the masked line as well); every other seat,
    and an onlooker, read the masked line once and never the option.  So do the histories."""
    game = load_game("cat-town")
    told = 0
    for seed in range(20):
        state = game.new_game(players=3, seed=seed)
        rnd = random.Random(seed)
        for _ in range(200):
            if state.is_terminal:
                break
            pending, action = state.pending, rnd.choice(state.legal_actions())
            if pending["secret"]:
                p = pending["player"]
                clear, masked = f"seat {p}: {action}", f"seat {p}: {pending['kind']} …"
                before = [len(state.visible_log(s)) for s in range(3)] + [len(state.log)]
                at = len(state.history)
                after = state.clone()
                after.apply(action)
                logs = [after.visible_log(s) for s in range(3)] + [after.log]
                new = [log[start:] for log, start in zip(logs, before)]
                assert new[p].count(clear) == 1 and masked not in new[p]
                assert after.history_for(p)[at] == dict(seat=p, action=action, kind=pending["kind"], secret=True)
                for s in (*(o for o in range(3) if o != p), None):
                    lines = new[3 if s is None else s]
                    assert lines.count(masked) == 1 and clear not in lines
                    history = sight.history_for(after, s)  # None: as an onlooker
                    assert history[at] == {"seat": p, "kind": pending["kind"], "secret": True}
                told += 1
            state.apply(action)
    assert told > 10


def laid_face_down():
    """A Cat Town game where seat 0 put a card of its hand face down on a pile and was shown the bottom
    card of that pile: (state, card, pile, shown card)."""
    state = load_game("cat-town").new_game(players=2, seed=3)
    rnd = random.Random(3)
    while state.current_player != 1:  # seat 1 decides: laying seat 0's cards by hand changes no option asked
        state.apply(rnd.choice(state.legal_actions()))
    card = state.zones["hand:0"][0]
    pile = state.vars["ring"][0]
    OPS["move"].fn(state, card, pile)
    peeked = state.zones[pile][0]
    OPS["show"].fn(state, [peeked], 0)
    return state, card, pile, peeked


def test_a_card_the_seat_put_face_down_stays_where_it_saw_it():
    """A card a seat put face down on a pile, unmoved since, stays there in every copy for that seat
    (and only there); a card it was shown stays too; once the pile is shuffled, it may be anywhere in it."""
    state, card, pile, peeked = laid_face_down()
    for k in range(30):
        copy = state.determinized(0, seed=k)
        assert copy.zones[pile][-1] == card and copy.zones[pile][0] == peeked
    assert any(state.determinized(1, seed=k).zones[pile][-1] != card for k in range(30))
    OPS["shuffle"].fn(state, pile)
    spots = {state.determinized(0, seed=k).zones[pile].index(card) for k in range(30)}
    assert len(spots) > 1 and all(card in state.determinized(0, seed=k).zones[pile] for k in range(5))


def piles_known(state, seat) -> dict[int, str]:
    """The cards ``seat`` knows the pile of, with that pile."""
    bit = 1 << seat
    return {c: state.loc[c] for c in range(len(state.loc)) if state.know[c] & bit}


def test_a_seat_knows_which_pile_a_card_is_in_of_the_card_it_saw_go_there_not_of_the_one_dealt_in_its_place():
    """Seat 0 put a card face down on a pile that was then shuffled: every copy for seat 0 deals the card
    anywhere in that pile, and seat 0 still knows it is there; a card the deal brought in from elsewhere,
    to the place where the card lay, is not one whose pile seat 0 knows (what a seat knows goes with the
    card, not with the place)."""
    state, card, pile, _ = laid_face_down()
    OPS["shuffle"].fn(state, pile)
    known = piles_known(state, 0)
    assert known[card] == pile and not state.pinned[card] & 1
    moved = 0
    for k in range(20):
        copy = state.determinized(0, seed=k)
        moved += copy.zones[pile].index(card) != state.zones[pile].index(card)
        assert piles_known(copy, 0) == known, f"copy {k}"
    assert moved > 0


def test_the_vm_deals_the_copy_of_a_seat_that_knows_a_cards_pile_but_not_its_place_as_the_reference_does():
    """Seat 0 of this Cat Town game saw a card go into a block that was then shuffled: the VM's copies for
    it are the reference's, what seat 0 knows of every card included."""
    vm_module = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
    game = load_game("cat-town", reference=True)
    state, vm, moves = game.new_game(2, seed=1), vm_module.VmGame(ir_bytes(game)).new_game(2, 1), random.Random(1)
    for _ in range(15):
        action, seat = moves.choice(state.legal_actions()), state.current_player
        state.apply(action, seat=seat)
        vm.apply(action, seat)
    assert any(not state.pinned[c] & 1 for c in piles_known(state, 0))
    for seed in range(10):
        assert json.loads(vm.determinized(0, seed).to_json()) == state.determinized(0, seed).to_data()


def test_a_simultaneous_choice_made_is_in_no_other_seats_copy():
    """Seat 0 has bid, seat 1 not yet: seat 1's copies draw seat 0's bid from its options (they vary
    and are not the true one more than chance says); seat 0's own copies keep its bid."""
    game = load_game("goofspiel")
    state = game.new_game(players=2, seed=9)
    state.apply("bid 6-spades", seat=0)
    assert state.to_act == [1]

    def bid_of_seat_0(copy):
        copy.apply(copy.legal_actions(1)[0], seat=1)
        return copy.zones["bids:0"][-1]

    drawn = [bid_of_seat_0(state.determinized(1, seed=k)) for k in range(40)]
    true = state.clone()
    assert len(set(drawn)) > 5 and drawn.count(bid_of_seat_0(true)) < 10
    assert {bid_of_seat_0(state.determinized(0, seed=k)) for k in range(10)} == {bid_of_seat_0(state.clone())}
    for k in range(10):
        copy = state.determinized(1, seed=k)
        assert copy.current_player == 1 and copy.to_act == [1]
        assert copy.legal_actions() == state.legal_actions(1)


def test_acting_out_of_turn_names_only_the_decider():
    state = load_game("cat-town").new_game(players=3, seed=2)
    decider = state.current_player
    other = (decider + 1) % 3
    with pytest.raises(IllegalAction) as caught:
        state.apply(state.legal_actions()[0], seat=other)
    assert str(caught.value) == f"seat {other} cannot act now: seat {decider} is deciding"
    assert caught.value.legal == []


def test_a_log_line_for_nobody_is_told_to_nobody(tmp_path):
    """`log … to p` with p none reaches no seat, not everyone."""
    from test_language import make_game

    game = make_game(
        tmp_path,
        """\
        variables:
          nobody: {type: player}
        play: |
          log "secret" to nobody
          log "for all"
          x = choose "go" from [1]
        """,
    )
    state = game.new_game(players=2)
    assert [state.visible_log(s) for s in (0, 1)] == [["for all"], ["for all"]]


def test_neighbouring_seeds_give_unrelated_streams():
    """Seed s+1 is not seed s one draw later (it was: 196 of 300 consecutive race games repeated
    the previous one shifted by a roll); first draws of consecutive seeds are uniform (chi-square)."""

    def stream(seed, k=8):
        state, out = rng.seed_state(seed), []
        for _ in range(k):
            value, state = rng.next_u64(state)
            out.append(value)
        return out

    streams = [stream(s) for s in range(600)]
    assert all(not set(a[1:]) & set(b) for a, b in pairwise(streams))
    counts = [0] * 6
    for s in streams:
        counts[s[0] % 6] += 1
    chi2 = sum((c - 100) ** 2 / 100 for c in counts)
    assert chi2 < 20.5  # p < 0.001 at 5 degrees of freedom
    pairs = sum((a[0] % 6) == (b[0] % 6) for a, b in pairwise(streams))
    assert 60 < pairs < 140  # about 1 in 6 of 599 neighbours agree


def test_chance_events_are_in_the_history_apart_from_decisions():
    """Shuffles and random draws are history entries of their own, told apart from decisions."""
    state = load_game("cat-town").new_game(players=2, seed=1)
    chance = [e for e in state.history if "chance" in e]
    assert chance and all(e["chance"] in ("shuffle", "random") for e in chance)
    assert {"chance": "shuffle", "zone": "deck"} in chance
    assert all("seat" in e and "action" in e for e in state.history if "chance" not in e)


RESHUFFLE = """\
enums:
  colours: [red, blue]
components:
  - kind: card
    attributes: {colour: colours}
    start: deck
    items:
      - {id: ruby, colour: red, copies: 8}
      - {id: sky, colour: blue, copies: 8}
zones:
  - {id: deck, visibility: hidden}
  - {id: table, visibility: public}
  - {id: hand, per: player, visibility: owner}
play: |
  move_all(deck, table)
  x = top(table)
  move_all(table, deck)
  shuffle(deck)
  move(top(deck), hand(left_of(me)))
  said = choose "say" from [x.colour] by me
  end_game "said"
"""


def reshuffled(tmp_path):
    """Both seats saw every card go into the deck, the deck shuffled, and seat 1 draw from it."""
    return load_game(write_game(tmp_path, "id: mini\nname: Mini\nplayers: {min: 2, max: 2}\n" + RESHUFFLE))


def test_moving_an_empty_pile_onto_an_empty_face_up_pile_moves_nothing(tmp_path):
    """move_all from an empty discard onto an empty pile whose top card all see: no card moves, no one
    learns anything, and the game goes on to its decision."""
    rules = """\
    id: mini
    name: Mini
    players: {min: 2, max: 2}
    components:
      - kind: card
        start: deck
        items:
          - {id: ace}
    zones:
      - {id: deck, visibility: hidden}
      - {id: discard, visibility: hidden}
      - {id: pile, visibility: top}
    play: |
      move_all(discard, pile)
      said = choose "say" from ["ok"] by me
    """
    state = load_game(write_game(tmp_path, rules)).new_game(players=2)
    assert state.legal_actions() == ["say ok"]
    assert state.zones["pile"] == [] and state.know == [0]


def test_a_card_drawn_from_a_shuffled_pile_is_known_only_to_who_sees_it(tmp_path):
    """Everyone knew every card of the deck was in it; after the shuffle, seat 1 draws one: seat 0
    can no longer tell which card left, so its copies deal any card there — seat 1's, only the true one.
    (Before, the drawn card stayed 'known' to seat 0 and every copy for seat 0 kept the truth.)"""
    game = reshuffled(tmp_path)
    for seed in range(5):
        state = game.new_game(players=2, seed=seed)
        drawn = state.zones["hand:1"][-1]
        assert not state.know[drawn] & 1 and state.know[drawn] & 2
        dealt = {state.determinized(0, seed=k).zones["hand:1"][-1] for k in range(20)}
        assert len({game.card_ids[c] for c in dealt}) == 2
        assert {state.determinized(1, seed=k).zones["hand:1"][-1] for k in range(5)} == {drawn}


def test_a_copy_offers_the_seat_the_options_it_has(tmp_path, monkeypatch):
    """A running program holds a card the seat saw face up, now hidden again: a deal that swaps it
    for a card of another colour would offer other options, so such deals are drawn again."""

    game = reshuffled(tmp_path)
    differed = 0
    for seed in range(10):
        state = game.new_game(players=2, seed=seed)
        mine = state.decision_for(0)
        assert all(state.determinized(0, seed=k).decision_for(0) == mine for k in range(20))
        monkeypatch.setattr(sight, "DEAL_TRIES", 0)  # the last resort alone: programs keep their cards
        assert all(state.determinized(0, seed=k).decision_for(0) == mine for k in range(5))
        monkeypatch.undo()
        shuffler = random.Random(seed)
        for _ in range(10):  # an unconditioned deal would have told them apart
            copy = sight._dealt(state, 0, 0, sight._deal(state, 0, shuffler), False, shuffler)
            differed += copy.decision_for(0) != mine
    assert differed > 0


ALL_GAMES = [entry["id"] for entry in list_games()]


@pytest.mark.parametrize("name", ALL_GAMES)
def test_a_copy_asks_the_same_seat_the_same_kind_of_decision(name):
    """Being asked is seen: in every copy the same seat is deciding the same kind of thing, with the
    same options if it is the copy's own seat.  (A crazy-eights player who drew until a card could be
    played is asked to play it: a re-deal of its hand with nothing playable is refused, so a copy
    never fails with 'nothing to choose from'.)"""
    game = load_game(name)
    players = game.min_players
    checked = 0
    for seed in range(3):
        state = game.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        for step in range(240):
            if state.is_terminal:
                break
            if step % 2 == 0:
                for seat in range(players):
                    told = state.decision_for(seat)
                    assert state.determinized(seat, seed=step).decision_for(seat) == told
                    checked += 1
            state.apply(rnd.choice(state.legal_actions()))
    assert checked > 50


def public_answers(state, seat) -> dict:
    """What anyone may ask of a game, and what ``seat`` may ask of its own decision."""
    asked = state.asked(seat)
    return {
        "current_player": state.current_player,
        "to_act": state.to_act,
        "is_terminal": state.is_terminal,
        "legal": state.legal_actions(seat),
        "indices": state.legal_action_indices(seat),
        "asked": asked and (asked["player"], asked["kind"], asked["ids"]),
        "decision": state.decision_for(seat),
        "variables": state.view(seat)["variables"],
        "results": (state.scores, state.outcome, state.returns()) if state.is_terminal else None,
    }


@pytest.mark.parametrize("name", ALL_GAMES)
def test_a_copy_answers_every_public_question_as_the_game_does(name):
    """Who decides (of a simultaneous decision: the lowest seat still to act, whichever seat the copy is
    for), who still has to, the seat's own options, the counters, and at the end the scores and the
    outcome (a finished Caty Mini or Crazy Eights scores hidden cards): the same on the game and on
    every copy for every seat.  Goofspiel's seats bid in random order, so copies are made between two bids."""
    game = load_game(name)
    checked = apart = ends = 0
    for players in sorted({game.min_players, max(game.min_players, min(game.max_players, 3))}):
        for seed in range(3):
            state, rnd = game.new_game(players=players, seed=seed), random.Random(seed)
            for step in range(400):
                if state.is_terminal:
                    break
                if step % 5 == 0:
                    for seat in range(players):
                        copy = state.determinized(seat, seed=step)
                        assert public_answers(copy, seat) == public_answers(state, seat), f"seat {seat}"
                        checked += 1
                        apart += seat != state.current_player and seat in state.to_act
                seat = rnd.choice(state.to_act)
                state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)
            if state.is_terminal:
                ends += 1
                for seat in range(players):
                    assert public_answers(state.determinized(seat, seed=1), seat) == public_answers(state, seat)
    assert checked >= 20 and (ends > 0 or name == "cats-mansion")  # random movers seldom end a Mansion game
    if name == "goofspiel":
        assert apart > 10, "no copy was made for a seat to act that is not asked first"


@pytest.mark.parametrize("name,variant", GAMES + [("crazy-eights", None), ("whist", None)])
def test_what_is_settled_of_a_pile_changes_no_knowledge(name, variant):
    """``State.settled`` only saves walking a pile at each draw: a game that forgets it before every
    decision ends up with the very same knowledge of every card (the reference's own shortcut)."""
    game = load_game(name, variant, reference=True)
    for seed in range(4):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        kept, forgot = game.new_game(players=players, seed=seed), game.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        for _ in range(120):
            if kept.is_terminal:
                break
            assert kept.know == forgot.know and kept.pinned == forgot.pinned
            action = rnd.choice(kept.legal_actions())
            forgot.settled.clear()
            kept.apply(action)
            forgot.apply(action)
        assert kept.know == forgot.know and kept.pinned == forgot.pinned
        assert any(kept.settled.values()), "no pile was ever settled: the shortcut is not exercised"


def test_cards_poured_onto_a_settled_pile_are_doubted_at_the_next_draw(tmp_path):
    """A pile whose doubt was settled by a draw gets, all at once, cards everyone knows to be there but
    not where; when one is drawn, seat 0 can be sure of none of those left."""
    rules = RESHUFFLE.replace(
        "  - {id: table, visibility: public}",
        "  - {id: table, visibility: public}\n  - {id: other, visibility: hidden}\n  - {id: pile, visibility: hidden}",
    )
    play = rules[rules.index("play: |") :]
    rules = rules.replace(
        play,
        """play: |
  move(top(deck), pile)
  move_all(deck, table)
  move_all(table, other)
  shuffle(other)
  move_all(other, deck)
  move(top(deck), hand(left_of(me)))
  said = choose "say" from ["done"] by me
  end_game "said"
""",
    )
    game = load_game(write_game(tmp_path, "id: mini\nname: Mini\nplayers: {min: 2, max: 2}\n" + rules))
    state = game.new_game(players=2, seed=1)
    assert len(state.zones["deck"]) == 14
    assert all(not state.know[c] & 1 for c in state.zones["deck"])


@pytest.mark.parametrize("name,variant", [("caty-mini", None), ("cat-town", "advanced"), ("cats-mansion", None)])
def test_a_game_that_does_not_follow_what_seats_know_works_it_out_when_asked(name, variant):
    """``new_game(knowledge=False)`` (simulations of bots that ask for no copy) leaves out what each seat
    knows of the cards; asked for it (a save, a copy for a seat), the game works it out by playing itself
    again, and follows it from then on: the very knowledge of a game that followed it all along (the
    reference's own saving: the VM follows it anyway)."""
    game = load_game(name, variant, reference=True)
    for seed in range(3):
        followed, lazy = game.new_game(players=3, seed=seed), game.new_game(players=3, seed=seed, knowledge=False)
        assert lazy.know is None
        rnd = random.Random(seed)
        for step in range(80):
            if followed.is_terminal:
                break
            if step == 40:
                assert lazy.determinized(1, seed=7).to_json() == followed.determinized(1, seed=7).to_json()
                assert lazy.know == followed.know
            action = rnd.choice(followed.legal_actions())
            followed.apply(action)
            lazy.apply(action)
        assert lazy.to_json() == followed.to_json()
        assert (
            game.new_game(players=3, seed=seed, knowledge=False).clone().to_json()
            == game.new_game(players=3, seed=seed).to_json()
        )
