"""The fixed action space: every id a decision can offer, read from the rules, in a stable order."""

import random

import pytest
from test_language import make_game

from engine import RulesError, TabletopError, load_game
from engine.load.catalogue import list_games
from engine.runtime import action_space as space_module

SHIPPED = [
    ("caty-mini", None),
    ("caty-mini", "older-players"),
    ("cat-town", None),
    ("cat-town", "easy"),
    ("cat-town", "advanced"),
    ("cats-mansion", None),
]
GAMES, DECISIONS = 2, 300


@pytest.fixture(scope="module")
def loaded():
    return {key: load_game(*key) for key in SHIPPED}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("key", SHIPPED, ids=lambda k: "-".join(filter(None, k)) if isinstance(k, tuple) else k)
def test_every_legal_action_of_random_games_is_in_the_space(loaded, key, players):
    """Random games: each legal id has an index, and the indices map back to the legal ids."""
    game = loaded[key]
    space = game.action_space(players)
    for seed in range(GAMES):
        st, rng = game.new_game(players, seed), random.Random(seed)
        for _ in range(DECISIONS):
            if st.is_terminal:
                break
            legal = st.legal_actions()
            assert set(legal) <= set(space), f"seed {seed}: {sorted(set(legal) - set(space))} not in the space"
            assert sorted(space[i] for i in st.legal_action_indices()) == sorted(legal)
            st.apply(rng.choice(legal))


# their options always come in the space's order: the check holds trivially
LISTED_IN_ORDER = {"goofspiel", "hex", "connect-four", "no-thanks", "liars-dice", "blackjack"}
EVERY_GAME = [(g["id"], None) for g in list_games()] + [(g["id"], v["id"]) for g in list_games() for v in g["variants"]]


@pytest.mark.parametrize("key", EVERY_GAME, ids=lambda k: "-".join(filter(None, k)))
def test_the_legal_indices_come_in_ascending_order(key):
    """Whatever order a decision lists its options in, every seat asked gets their indices ascending:
    the legal ids, each at its place in the space."""
    game = load_game(*key)
    listed_otherwise = 0
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        index = game.action_index(players)
        for seed in range(3):
            st, rng = game.new_game(players, seed), random.Random(seed)
            for _ in range(120):
                if st.is_terminal:
                    break
                for seat in st.to_act:
                    legal, indices = st.legal_actions(seat), st.legal_action_indices(seat)
                    assert indices == sorted(index[a] for a in legal)
                    listed_otherwise += [index[a] for a in legal] != indices
                seat = rng.choice(st.to_act)
                st.apply(rng.choice(st.legal_actions(seat)), seat=seat)
    if key[0] not in LISTED_IN_ORDER:
        assert listed_otherwise > 0, "no decision listed its options out of the space's order: nothing was sorted"


@pytest.mark.parametrize("key", SHIPPED, ids=lambda k: "-".join(filter(None, k)))
def test_the_space_is_the_same_for_two_loads(loaded, key):
    """The order is part of the contract: a network's outputs are numbered by it."""
    again = load_game(*key)
    for players in (2, 4):
        first = loaded[key].action_space(players)
        assert again.action_space(players) == first
        assert len(set(first)) == len(first)


RECORDS = """\
enums:
  colours: [red, blue]
variables:
  bid: {type: int}
  total: {type: int}
functions:
  - id: moves
    returns: "list[{way: text, steps: int}]"
    value: '[{way: "up", steps: k} for k in [1, 2]] + [{way: "down", steps: 0}]'
play: |
  c = choose "colour" from colours
  n = choose "count" from [bid + 1, 3 if c == "red" else 4]
  m = choose "go" from moves()
  y = choose from [true] optional "stop"
%s
"""


def test_records_enums_numbers_and_literals_give_their_ids_in_program_order(tmp_path):
    game = make_game(tmp_path, RECORDS % "")
    assert game.action_space(2) == [
        "colour red",
        "colour blue",
        "count 1",
        "count 3",
        "count 4",
        "go up 1",
        "go up 2",
        "go down 0",
        "yes",
        "no",
        "stop",
    ]


@pytest.mark.parametrize(
    "assign, options, why, fix",
    [
        ("", '"seat " + text(bid)', "the result of text()", "list of literals"),
        (
            "total = total + 1",
            "total",
            "'total' is computed from its own value",
            "variables: total: {type: int, max: N}",
        ),
    ],
)
def test_a_choice_that_cannot_be_listed_is_reported_at_its_line(tmp_path, assign, options, why, fix):
    """Free numbers and built text: a located E508 telling how to declare the options."""
    body = RECORDS % f'  {assign}\n  t = choose "name" from [{options}]'
    with pytest.raises(RulesError) as info:
        make_game(tmp_path, body)
    (d,) = info.value.diagnostics
    line = next(i for i, text in enumerate(body.splitlines(), 4) if 'choose "name"' in text)
    assert (d.code, d.line, d.col) == ("E508", line, 3)
    assert '"name"' in d.message and why in d.message and fix in d.hint


LOOK = """\
zones:
  - {id: hand, per: player, visibility: owner}
  - {id: found, per: player, visibility: public}
play: |
  z = choose "look" from [hand(me), found(me)]
"""


def test_colliding_labels_have_their_long_ids_in_the_space(tmp_path):
    game = make_game(tmp_path, LOOK)
    st = game.new_game(players=2)
    assert st.legal_actions() == ["look hand:0", "look found:0"]
    space = game.action_space(2)
    assert {"look hand:0", "look found:0", "look hand:1", "look found:1"} <= set(space)
    assert {space[i] for i in st.legal_action_indices()} == set(st.legal_actions())


TWO_HANDS = """\
components:
  - kind: token
    start: bag
    items:
      - {id: coin, copies: 2}
zones:
  - {id: bag, visibility: public}
  - {id: hand, per: player, visibility: owner}
play: |
  for p in players():
      move(top(bag), hand(p))
  c = choose "take" from flatten([cards(hand(p)) for p in players()])
"""


def test_copies_of_a_card_from_two_zones_at_once_have_their_long_ids_in_the_space(tmp_path):
    game = make_game(tmp_path, TWO_HANDS)
    st = game.new_game(players=2)
    assert st.legal_actions() == ["take coin (hand:0)", "take coin (hand:1)"]
    assert {game.action_space(2)[i] for i in st.legal_action_indices()} == set(st.legal_actions())


def test_a_space_too_large_to_list_names_its_decision(monkeypatch):
    """Within the bound at load, a larger count of players can still overflow it: a clear error, no hang."""
    game = load_game("cats-mansion")
    monkeypatch.setattr(space_module, "LIMIT", 8)
    with pytest.raises(TabletopError, match=r'the options of "\w+" \(\w+, line \d+\) cannot be listed'):
        game.action_space(3)
