"""While a greedy bot on the VM rates the options of one decision, an expression a rule function repeats is
worked out once for every value of the locals it reads, and kept for the next option's rating; the games stay
the ones Python's bot plays, which works every option's value out whole.

Each function below repeats an expression over what changes from option to option or from decision to decision:
the card rated, a text rated, the seat and the card together, the cards played (read by no local: more at
each decision), a record rated (kept by nothing). Were a value kept past what it reads, or past its decision,
options would tie or rank as they should not, and the games would part from Python's.
"""

from __future__ import annotations

import pytest
from language_helpers import write_game
from test_vm_bots_in_sight import CARDS, NUMBERED_DEAL, plays_as_in_python

from engine import load_game

pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

# Two seats, three cards each from a deck of twelve, three rounds of playing one card, naming a word and taking a
# record, then drawing a card. A card scores its value, a word and a record their points. RATES are the greedy
# values of the three decisions.
RATE = (
    """\
    id: rate
    name: Rate
"""
    + NUMBERED_DEAL
    + """\
    player_variables:
      points: {type: int, initial: 0}
    play: |
      repeat 3:
          for p in players():
              c = choose "play" from hand(p) by p
              move(c, played)
              w = choose "word" from ["ant", "bee", "cat", "dog"] by p
              r = choose "take" from [{n: 1, m: 3}, {n: 2, m: 1}, {n: 3, m: 2}] by p
              p.points = p.points + c.value + word_points(w) + r.m
              move(top(deck), hand(p))
      end_game "three rounds"
    functions:
      - id: word_points
        params: {w: text}
        returns: int
        value: '3 if w == "bee" else 1 if w == "dog" else 2'
      - id: by_card
        params: {c: card}
        returns: int
        value: '(c.value % 5) * 10 + (c.value % 5) + NOT_INLINED'
      - id: by_seat_and_card
        params: {p: player, c: card}
        returns: int
        value: '((size(hand(p)) + c.value) % 4) * 10 + ((size(hand(p)) + c.value) % 4) + NOT_INLINED'
      - id: by_turn
        params: {c: card}
        returns: int
        value: 'c.value if size(played) % 4 == 0 else 0 - c.value if size(played) % 4 == 2 else 0 + NOT_INLINED'
      - id: by_word
        params: {w: text}
        returns: int
        value: 'word_points(w) * (5 - word_points(w)) + word_points(w) + NOT_INLINED'
      - id: by_record
        params: {r: "{n: int, m: int}"}
        returns: int
        value: '(r.n % 3) * 10 + (r.n % 3) + NOT_INLINED'
    bots:
      greedy:
        value: "0"
        choices:
          play: PLAY
          word: by_word(choice)
          take: by_record(choice)
    scoring:
      - {id: points, points: p.points}
"""
)

# a comprehension (of cards: one of constants is worked out as the game is loaded) keeps a function from being
# inlined into the greedy value: its repeats are shared in its call
NOT_INLINED = "size([x for x in cards(played) if x.value > 99])"

PLAYS = [
    ("the card rated", "by_card(choice)"),
    ("the seat and the card rated", "by_seat_and_card(p, choice)"),
    ("the cards played, more at each decision", "by_turn(choice)"),
]


@pytest.mark.parametrize("what, play", PLAYS, ids=[p[0] for p in PLAYS])
def test_a_value_repeated_over_what_changes_between_options_plays_as_in_python(tmp_path, what, play):
    text = RATE.replace("CARDS", CARDS).replace("PLAY", play).replace("NOT_INLINED", NOT_INLINED)
    game = load_game(write_game(tmp_path, text), reference=True)
    plays_as_in_python(game)
