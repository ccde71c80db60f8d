"""A greedy bot on the VM rates its options on the true state where its values read nothing a deal of the
hidden cards could change; the games stay the ones Python's bot plays, which rates on a determinized copy.

Each game below has a greedy value that reads what the bot's seat may not know, one way each: the cards of a
hidden zone (whole, in order, by `in`, from the top), where a hidden card lies, a variable holding a hidden
card, another seat's private variable (a number, or a map whose keys changed), a score counting hidden cards,
a draw of chance, the faces of dice rolled under another seat's cup. Were any such read made on the true state,
the bot would play on what it cannot know and its games would part from Python's.
"""

from __future__ import annotations

import pytest
from language_helpers import write_game

from engine import StateError, load_game
from engine.lab.simulate import one_game
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

SEEDS = range(12)

# Two seats, twelve numbered cards in a hidden deck, three dealt to each seat's hand, a public zone to play to
NUMBERED_DEAL = """\
    players: {min: 2, max: 2}
    zones:
      - {id: deck, visibility: hidden}
      - {id: hand, per: player, visibility: owner}
      - {id: played, visibility: public}
    components:
      - kind: card
        name: numbered card
        attributes: {value: int}
        start: deck
        items: [CARDS]
    setup: |
      shuffle(deck)
      for p in players():
          repeat 3:
              move(top(deck), hand(p))
"""

# Two seats, three cards each from a deck of twelve, two rounds of playing one card and drawing one. A card
# scores its value. READS is the greedy value of the card played (`choice`); SECRET and DRAW are lines of the turn
# (a score read there is kept for the next turn's values), OPTIONS the cards it may play.
PEEK = (
    """\
    id: peek
    name: Peek
"""
    + NUMBERED_DEAL
    + """\
    variables:
      drawn: {type: card}
      kept: {type: "{card: card, by: player}"}
    player_variables:
      points: {type: int, initial: 0}
      guess: {type: int, initial: 0, visibility: owner}
      tally: {type: "map[int]", initial: {a: 1}, visibility: owner}
    play: |
      repeat 2:
          for p in players():
              SECRET
              c = choose "play" from OPTIONS by p
              move(c, played)
              p.points = p.points + c.value
              DRAW
      end_game "two rounds"
    scoring:
      - id: points
        points: 'POINTS'
    bots:
      greedy:
        value: "0"
        choices:
          play: 'READS'
"""
)

CARDS = ", ".join(f"{{id: c{v}, value: {v}}}" for v in range(1, 13))
HIGH_IF = "choice.value if {} else 0 - choice.value"  # the highest card where it holds, else the lowest
DRAW = "move(top(deck), hand(p))"

# (what the value reads, the value, and where the game needs them, its turn's secret line, its draw, its points)
READS = [
    ("a hidden zone's cards", HIGH_IF.format("choice.value > max([c.value for c in hand(left_of(p))])"), {}),
    ("a hidden card by in", HIGH_IF.format('card_named("c12") in hand(left_of(p))'), {}),
    ("a hidden zone's card list", HIGH_IF.format("first(cards(deck)).value > 6"), {}),
    ("a hidden zone's top", HIGH_IF.format("choice.value > top(deck).value"), {}),
    ("a hidden zone's top cards", HIGH_IF.format("size([c for c in top_cards(deck, 2) if c.value > 9]) > 0"), {}),
    ("a hidden card's zone", HIGH_IF.format('zone_of(card_named("c12")) == deck'), {}),
    ("a hidden card's zone's key", HIGH_IF.format('key_of(zone_of(card_named("c12"))) == ""'), {}),
    (
        "a variable holding a hidden card",
        HIGH_IF.format("drawn != none and choice.value > drawn.value"),
        {"DRAW": "drawn = top(deck)\n" + " " * 14 + "move(drawn, hand(p))"},
    ),
    (
        "a record holding a hidden card",
        HIGH_IF.format("kept != none and choice.value > kept.card.value"),
        {"DRAW": "kept = {card: top(deck), by: p}\n" + " " * 14 + "move(kept.card, hand(p))"},
    ),
    (
        "another seat's private variable",
        HIGH_IF.format("left_of(p).guess == 3"),
        {"SECRET": 'p.guess = choose "guess" from [1, 2, 3] by p secretly'},
    ),
    (
        "another seat's private map, its values as they began under other keys",
        HIGH_IF.format('"b" in left_of(p).tally'),
        {
            "SECRET": 'g = choose "guess" from [1, 2] by p secretly\n'
            + " " * 14
            + 'p.tally = {"b": 1} if g == 2 else {"a": 1}'
        },
    ),
    (
        "a score counting hidden cards",
        HIGH_IF.format("score(left_of(p)) % 2 == 0"),
        {
            "POINTS": "p.points + sum([c.value for c in hand(p)]) % 2",
            "DRAW": DRAW + "\n" + " " * 14 + "if score(p) > 99:\n" + " " * 18 + 'end_game "out of reach"',
        },
    ),
    ("a draw of chance", "random_from([choice.value, 0 - choice.value])", {}),
]


def plays_as_in_python(game) -> None:
    """Greedy games of `game` on the VM are the games Python's greedy bots play, seed for seed."""
    played = _vm.VmGame(ir_bytes(game)).playouts(2, list(SEEDS), "greedy")
    for seed, on_vm in enumerate(played):
        expected = one_game(game, 2, seed, ["greedy", "greedy"])
        assert {k: on_vm[k] for k in expected} == expected, f"seed {seed}"


def peek(tmp_path, reads: str, lines: dict):
    text = PEEK.replace("CARDS", CARDS).replace("READS", reads)
    for name, default in {"SECRET": "pass", "DRAW": DRAW, "POINTS": "p.points", "OPTIONS": "hand(p)"}.items():
        text = text.replace(name, lines.get(name, default))
    return load_game(write_game(tmp_path, text), reference=True)


@pytest.mark.parametrize("what, reads, lines", READS, ids=[r[0] for r in READS])
def test_a_greedy_value_reading_what_its_seat_cannot_know_plays_as_on_a_copy(tmp_path, what, reads, lines):
    game = peek(tmp_path, reads, lines)
    plays_as_in_python(game)


# Two seats, two dice each under a cup only its owner sees, three rounds of rolling and calling a face: a die
# showing it scores. FACES is the greedy value of the face called (`choice`), read from the other seat's dice.
CUPS = """\
    id: cups
    name: Cups
    players: {min: 2, max: 2}
    zones:
      - {id: box, visibility: public}
      - {id: cup, per: player, visibility: owner}
    player_variables:
      points: {type: int, initial: 0}
    components:
      - kind: die
        faces: [1, 2, 3, 4, 5, 6]
        start: box
        items:
          - {id: die, name: Die, copies: 4}
    setup: |
      for p in players():
          repeat 2:
              move(top(box), cup(p))
    play: |
      repeat 3:
          for p in players():
              roll(cup(p))
              x = choose "call" from [1, 2, 3, 4, 5, 6] by p
              p.points = p.points + size(showing(cards(cup(p)), x))
      end_game "three rounds"
    scoring:
      - {id: points, points: p.points}
    bots:
      greedy:
        value: "0"
        choices:
          call: 'FACES'
"""

THEIRS = "cards(cup(left_of(p)))"
FACES = [
    ("a die's face", f"1 if face(first({THEIRS})) == choice else 0"),
    ("dice's faces", f"size([f for f in faces({THEIRS}) if f == choice])"),
    ("dice showing a face", f"size(showing({THEIRS}, choice))"),
]


@pytest.mark.parametrize("what, faces", FACES, ids=[f[0] for f in FACES])
def test_a_greedy_value_reading_dice_its_seat_cannot_see_plays_as_on_a_copy(tmp_path, what, faces):
    game = load_game(write_game(tmp_path, CUPS.replace("FACES", faces)), reference=True)
    plays_as_in_python(game)


EVERY_CARD = "[" + ", ".join(f'card_named("c{v}")' for v in range(1, 13)) + "]"
# (what the options read that the seat cannot know, the options)
OPTIONS = [
    ("a hidden zone's top", "cards(hand(p)) + [top(deck)]"),
    ("where hidden cards lie", f"cards(hand(p)) + [c for c in {EVERY_CARD} if zone_of(c) == deck]"),
    ("the keys of hidden cards' zones", f'cards(hand(p)) + [c for c in {EVERY_CARD} if key_of(zone_of(c)) == ""]'),
    ("a draw of chance", "[c for c in cards(hand(p)) if random_from([true, false]) or c == first(cards(hand(p)))]"),
]


@pytest.mark.parametrize("what, options", OPTIONS, ids=[o[0] for o in OPTIONS])
def test_options_that_read_what_the_seat_cannot_know_play_and_fail_as_on_a_copy(tmp_path, what, options):
    """The options offer cards of the deck, which the seat cannot know, or cards drawn at random, and the value
    reads only the card rated. A copy agrees with the decision only where its deal (or its draws) gives the same
    options: where one does, the bot plays as on it; where none does, the game stops with the reference's error,
    on the VM as in Python, though the value itself reads nothing hidden."""
    game = peek(tmp_path, "choice.value", {"OPTIONS": options})
    played = _vm.VmGame(ir_bytes(game)).playouts(2, list(SEEDS), "greedy")
    failed = 0
    for seed, on_vm in enumerate(played):
        try:
            expected = one_game(game, 2, seed, ["greedy", "greedy"])
        except StateError as e:
            failed += 1
            assert on_vm["error"] == str(e), f"seed {seed}"
            continue
        assert {k: on_vm[k] for k in expected} == expected, f"seed {seed}"
    assert failed > 0
