"""The public API the adapters are written on: game facts per table size, explicit chance, the legal-action
mask, pickling and copying a state, bots by kind and seat, and what a seat knows as a tensor and a key."""

import ast
import copy
import importlib
import pickle
import random
import sys
from pathlib import Path

import pytest

from engine import StateError, TabletopError, load_game
from engine.bots import make
from engine.extras import MissingExtra
from engine.runtime.observe import encoding, information_key, known_cards
from engine.runtime.state import ChanceEvent, ChanceNeeded
from tests.interop_helpers import CELLS, cell_id
from tests.language_helpers import write_game

INTEROP = Path(__file__).resolve().parents[1] / "engine" / "interop"


def test_game_facts_are_read_from_the_rules():
    goofspiel = load_game("goofspiel").info(3)
    assert goofspiel.simultaneous and goofspiel.chance and not goofspiel.perfect_information
    assert (goofspiel.min_utility, goofspiel.max_utility, goofspiel.max_decisions) == (-1.0, 2.0, 39)
    hex_ = load_game("hex").info(2)
    assert hex_.perfect_information and not hex_.chance and not hex_.simultaneous
    assert load_game("cats-mansion").info(2).max_decisions is None  # no bound declared: tools cut it off
    assert load_game("whist").info(4).actions == len(load_game("whist").action_space(4))


@pytest.mark.parametrize("name", ["caty-mini", "goofspiel", "hex"])
def test_a_declared_bound_on_decisions_holds(name):
    game = load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(3):
            state, decisions, moves = game.new_game(players, seed=seed), 0, random.Random(seed)
            while not state.is_terminal:
                seat = state.to_act[0]
                state.apply(moves.choice(state.legal_actions(seat)), seat=seat)
                decisions += 1
            assert decisions <= game.info(players).max_decisions


def deal_by_hand(game, players: int, pick) -> tuple[list[int], list[ChanceEvent]]:
    """A game set up by explicit chance: each draw's outcome chosen by ``pick(event)``."""
    drawn, events = [], []
    while True:
        try:
            game.new_game(players, draws=drawn)
            return drawn, events
        except ChanceNeeded as need:
            events.append(need.event)
            drawn.append(pick(need.event))


def test_explicit_chance_shuffles_the_prizes_one_place_at_a_time():
    game = load_game("goofspiel")
    drawn, events = deal_by_hand(game, 2, lambda event: 0)
    assert [e.size for e in events] == list(range(13, 1, -1)) and {e.kind for e in events} == {"shuffle"}
    assert events[0].outcomes() == [(i, 1 / 13) for i in range(13)]
    assert game.new_game(2, draws=drawn) == game.new_game(2, draws=drawn)  # the same outcomes, the same game
    other, _ = deal_by_hand(game, 2, lambda event: event.size - 1)
    assert game.new_game(2, draws=other).zones["prizes"] != game.new_game(2, draws=drawn).zones["prizes"]


def test_outcomes_that_do_not_fit_are_refused_and_the_state_is_kept():
    game = load_game("crazy-eights")
    drawn, _ = deal_by_hand(game, 2, lambda event: 0)
    with pytest.raises(StateError, match="no outcome 99 of a draw of 52"):
        game.new_game(2, draws=[99, *drawn[1:]])
    with pytest.raises(StateError, match="1 outcome\\(s\\) given but not drawn"):
        game.new_game(2, draws=[*drawn, 0])
    state = game.new_game(2, draws=drawn)
    before = state.clone()
    draw = next(a for a in state.legal_actions() if a == "draw")  # drawing from the stock draws nothing at random
    with pytest.raises(StateError, match="given but not drawn"):
        state.apply(draw, draws=[0])
    assert state == before


def test_an_explicit_draw_during_play_leaves_the_state_as_it_was():
    game, outcomes = load_game("cat-town"), random.Random(4)
    state = game.new_game(2, draws=deal_by_hand(game, 2, lambda event: outcomes.randrange(event.size))[0])
    moves = random.Random(4)
    for _ in range(300):
        action, before = moves.choice(state.legal_actions()), state.clone()
        try:
            state.apply(action, draws=[])
        except ChanceNeeded as need:
            assert state == before and need.event.size >= 1
            state.apply(action, draws=deal_more(state, action))
            return
    pytest.fail("no draw at random in 300 decisions")


def deal_more(state, action) -> list[int]:
    drawn: list[int] = []
    while True:
        try:
            state.clone().apply(action, draws=drawn)
            return drawn
        except ChanceNeeded:
            drawn.append(0)


def test_the_legal_action_mask_marks_the_legal_actions_in_the_action_space():
    game = load_game("caty-mini")
    state = game.new_game(3, seed=1)
    mask = state.legal_action_mask()
    assert len(mask) == len(game.action_space(3))
    assert [game.action_space(3)[i] for i, m in enumerate(mask) if m] == sorted(
        state.legal_actions(), key=game.action_index(3).get
    )
    assert not any(state.legal_action_mask(2))  # seat 2 is not asked


def test_a_state_pickles_and_deep_copies_equal_and_independent():
    game = load_game("whist")
    state = game.new_game(4, seed=3)
    for _ in range(7):
        state.apply(state.legal_actions()[0])
    assert pickle.loads(pickle.dumps(state)) == state
    double = copy.deepcopy(state)
    assert double == state
    double.apply(double.legal_actions()[0])
    assert double != state


def test_a_state_read_back_is_of_its_own_game_though_another_load_of_it_was_pickled_first():
    """A tool pickled states of its own load of Whist (OpenSpiel's serialization does); a state of another
    load, pickled and read back in the same process, is still a state of that other load, equal to itself."""
    pickle.dumps(load_game("whist").new_game(4, seed=1))
    game = load_game("whist")
    state = game.new_game(4, seed=3)
    again = pickle.loads(pickle.dumps(state))
    assert again.game is game and again == state


def test_a_state_of_changed_rules_is_not_read_back():
    game = load_game("goofspiel")
    folder, variant, _, _ = game.pickled()
    with pytest.raises(StateError, match="changed since this state was pickled"):
        game.unpickled_state(folder + "/", variant, "0" * 16, game.new_game(2).to_json())


def test_a_bot_made_for_a_seat_plays_only_that_seat():
    game = load_game("goofspiel")
    state = game.new_game(2, seed=1)
    bots = [make("greedy", 0, seed=9), make("mcts:10", 1, seed=9)]
    while not state.is_terminal:
        seat = state.to_act[0]
        state.apply(bots[seat].act(state), seat=seat)
    with pytest.raises(TabletopError, match="seat 0 is not to act"):
        make("random", 0).act(state)


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    game = load_game("whist")
    state = game.new_game(4, seed=2)
    layout = encoding(game, 4)
    seen = layout.encode(state, 0)
    own, other = layout.part("zone hand:0"), layout.part("zone hand:1")
    assert seen[own.offset : own.offset + own.size].sum() == 13
    assert seen[other.offset : other.offset + other.size].sum() == 0
    assert seen[layout.part("size hand:1").offset] == 13
    legal = layout.part("legal")
    assert list(seen[legal.offset : legal.offset + legal.size]) == state.legal_action_mask(0)
    assert information_key(state, 0) != information_key(state, 1)


def test_a_zones_plane_counts_the_cards_of_each_face_the_seat_knows_there():
    """Liar's Dice at the start: 20 dice (one card face, "die") in the box, five in each cup, seen only by
    the cup's owner, who also sees what they show."""
    game = load_game("liars-dice")
    state = game.new_game(2, seed=4)
    layout = encoding(game, 2)
    die = layout.faces.index("die")
    for seat in range(2):
        seen, known = layout.encode(state, seat), known_cards(state, seat)
        for zone in state.zones:
            plane = layout.part(f"zone {zone}")
            assert seen[plane.offset + die] == known[zone].get("die", 0)
            assert seen[plane.offset : plane.offset + plane.size].sum() == sum(known[zone].values())
        assert (known["box"], known[f"cup:{seat}"], known[f"cup:{1 - seat}"]) == ({"die": 20}, {"die": 5}, {})
        for cup, count in ((seat, 5), (1 - seat, 0)):
            shown = layout.part(f"dice cup:{cup}")
            assert seen[shown.offset : shown.offset + shown.size].sum() == count


def test_the_tensor_holds_the_variables_as_the_seats_view_shows_them():
    """Cat Town after 63 decisions: where each cat stands (a zone, one-hot) and how many Cat cards it
    searched (a number: 2 and 1), read by seat 0."""
    game = load_game("cat-town")
    state, moves = game.new_game(2, seed=4), random.Random(4)
    for _ in range(63):
        state.apply(moves.choice(state.legal_actions()))
    layout = encoding(game, 2)
    seen, view = layout.encode(state, 0), state.view(0)["player_variables"]
    assert [view[seat]["cats"] for seat in range(2)] == [2, 1]
    for seat in range(2):
        where, cats = layout.part(f"seat {seat} pos"), layout.part(f"seat {seat} cats")
        assert seen[where.offset + where.labels.index(view[seat]["pos"])] == 1
        assert seen[where.offset : where.offset + where.size].sum() == 1
        assert seen[cats.offset] == view[seat]["cats"]


@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_a_resampled_state_gives_the_same_information_legal_actions_and_player(cell):
    name, variant, players = cell
    game = load_game(name, variant)
    layout = encoding(game, players)
    state, moves, checks = game.new_game(players, seed=11), random.Random(11), 0
    for step in range(30):
        if state.is_terminal:
            break
        for seat in range(players):
            copy_ = state.determinized(seat, seed=step)
            assert information_key(copy_, seat) == information_key(state, seat)
            assert (layout.encode(copy_, seat) == layout.encode(state, seat)).all()
            assert copy_.legal_actions(seat) == state.legal_actions(seat)
            assert copy_.current_player == state.current_player and copy_.to_act == state.to_act
            checks += 1
        seat = state.to_act[0]
        state.apply(moves.choice(state.legal_actions(seat)), seat=seat)
    assert checks >= players


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(path: Path) -> list[str]:
    """Underscore attributes ``path`` reads of anything but its own objects, and underscore names it imports."""
    used = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        own = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
        if isinstance(node, ast.Attribute) and is_private(node.attr) and not own:
            used.append(f"{path.name}:{node.lineno} .{node.attr}")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
            used += [f"{path.name}:{node.lineno} {a.name}" for a in node.names if is_private(a.name)]
    return used


def test_the_scan_finds_an_underscore_attribute(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from engine.runtime.state import _copied\nstate._knowledge()\nself._run()\n")
    assert private_uses(sample) == ["sample.py:1 _copied", "sample.py:2 ._knowledge"]


def test_the_adapters_use_no_underscore_attribute_of_the_engine():
    used = [use for path in INTEROP.glob("*.py") for use in private_uses(path)]
    assert len(list(INTEROP.glob("*.py"))) == 4
    assert used == []


@pytest.mark.parametrize("adapter,library", [("open_spiel", "pyspiel"), ("pettingzoo", "pettingzoo")])
def test_an_adapter_without_its_library_says_what_to_install(monkeypatch, adapter, library):
    monkeypatch.setitem(sys.modules, library, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, f"engine.interop.{adapter}", raising=False)
    with pytest.raises(MissingExtra, match=rf"needs {library}, which is not installed: pip install 'tabletop\[rl\]'$"):
        importlib.import_module(f"engine.interop.{adapter}")


def test_a_card_known_to_be_in_a_pile_but_not_where_is_part_of_the_observation():
    """Seat 0 of this Cat Town game saw a card go into a block that was then shuffled: it knows the card is
    there, not where.  Its observation counts the card in that block, and so does every copy dealt for it
    (the copies deal the card anywhere in the block): same tensor, same information key."""
    game = load_game("cat-town")
    state, moves = game.new_game(2, seed=1), random.Random(1)
    for _ in range(15):
        state.apply(moves.choice(state.legal_actions()))
    layout = encoding(game, 2)
    block = layout.part("zone block:b1")
    assert "shelter-from-rain" not in state.view(0)["zones"]["block:b1"]  # it lies face down
    assert layout.encode(state, 0)[block.offset + block.labels.index("shelter-from-rain")] == 1
    for seed in range(10):
        copy_ = state.determinized(0, seed=seed)
        assert information_key(copy_, 0) == information_key(state, 0)
        assert (layout.encode(copy_, 0) == layout.encode(state, 0)).all()


def test_cards_dealt_at_random_at_the_start_are_explicit_chance_too(tmp_path):
    path = write_game(
        tmp_path,
        """\
        id: mini
        name: Mini
        players: {min: 2, max: 2}
        zones:
          - {id: left, visibility: hidden}
          - {id: right, visibility: hidden}
        components:
          - kind: stone
            name: stone
            start: "random_from([left, right])"
            items:
              - {id: grey, name: Grey stone, copies: 3}
        play: |
          x = choose "side" from ["stay", "go"]
        """,
    )
    game = load_game(path)
    drawn, events = deal_by_hand(game, 2, lambda event: 1)
    assert [(e.kind, e.size) for e in events] == [("random", 2)] * 3
    assert len(game.new_game(2, draws=drawn).zones["right"]) == 3
