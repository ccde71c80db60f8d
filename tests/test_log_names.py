"""Names a player reads: seats by the names the rules give them, cards by their names, in every log line."""

from __future__ import annotations

import pytest
from language_helpers import write_game

from engine import RulesError, load_game

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2, names: [Red, Yellow]}
cards_in_logs: name
components:
  - kind: disc
    start: pile
    items: [{id: big-disc, name: Big disc}]
zones:
  - {id: pile, visibility: public}
  - {id: board, visibility: public}
play: |
  c = choose "drop" from pile
  move(c, board)
  log "{me} drops the {c}; {[p for p in players()]} watch"
  end_game
"""


@pytest.mark.parametrize("reference", [False, True])
def test_logs_name_seats_and_cards_as_the_rules_do_and_ids_stay(tmp_path, reference):
    game = load_game(write_game(tmp_path, GAME), reference=reference)
    st = game.new_game(players=2)
    assert st.legal_actions() == ["drop big-disc"]  # ids are for programs: unchanged
    st.apply("drop big-disc")
    assert st.visible_log(1) == ["Red: drop big-disc", "Red drops the Big disc; Red, Yellow watch"]


@pytest.mark.parametrize("reference", [False, True])
def test_a_list_or_a_card_that_is_none_is_logged_as_nothing(tmp_path, reference):
    """As an empty list is: `item` past the end of a list of lists is a list that is none."""
    rules = GAME.replace(
        'log "{me} drops the {c}; {[p for p in players()]} watch"', 'log "{item([[c]], 1)} and {item([c], 1)} are left"'
    )
    st = load_game(write_game(tmp_path, rules), reference=reference).new_game(players=2)
    st.apply("drop big-disc")
    assert st.visible_log(1)[-1] == "nothing and nothing are left"


def test_without_names_logs_say_seat_and_the_cards_id(tmp_path):
    plain = GAME.replace(", names: [Red, Yellow]", "").replace("cards_in_logs: name\n", "")
    st = load_game(write_game(tmp_path, plain)).new_game(players=2)
    st.apply("drop big-disc")
    assert st.visible_log(1) == ["seat 0: drop big-disc", "seat 0 drops the big-disc; seat 0, seat 1 watch"]


def test_too_few_seat_names_are_refused(tmp_path):
    with pytest.raises(RulesError, match="1 seat names for up to 2 players"):
        load_game(write_game(tmp_path, GAME.replace("names: [Red, Yellow]", "names: [Red]")))


def test_the_language_reference_says_how_logs_name_seats_and_cards():
    from engine.tools.doc import language_reference

    text = language_reference()
    assert "names: [Red, Yellow]" in text and "`cards_in_logs: name`" in text
