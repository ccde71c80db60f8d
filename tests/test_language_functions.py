"""Functions written as statements and procedures that give a value, on both paths.

A function may have local names, ``if``, loops and ``return VALUE`` and changes nothing; a procedure that
declares ``returns:`` is called as ``x = proc(…)``, may ask for decisions on the way, and its frames
go to JSON and back at such a decision.
"""

from __future__ import annotations

import pytest
from language_helpers import assert_located, write_game

from engine import load_game

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2}
variables:
  out: {type: "list[int]"}
functions:
  - id: biggest_gap
    params: {xs: "list[int]"}
    returns: int
    does: |
      best = 0
      ys = sorted(xs)
      for i in range(1, size(ys)):
          gap = item(ys, i) - item(ys, i - 1)
          if gap > best:
              best = gap
      return best
  - id: sign
    params: {n: int}
    returns: text
    does: |
      if n > 0:
          return "plus"
      elif n < 0:
          return "minus"
      else:
          return "zero"
procedures:
  - id: ask_number
    params: {low: int}
    returns: int
    does: |
      pick = choose "pick" from [low, low + 1, low + 2]
      if pick == low:
          return 0
      return pick * 10
play: |
  out = [biggest_gap([1, 9, 4, 2]), 13 if sign(3) + sign(-1) + sign(0) == "plusminuszero" else 0]
  a = ask_number(1)
  b = ask_number(5)
  out = out + [a, b]
  end_game
"""


@pytest.mark.parametrize("reference", [False, True])
def test_functions_with_statements_and_procedures_with_values(tmp_path, reference):
    game = load_game(write_game(tmp_path, GAME), reference=reference)
    state = game.new_game(players=2)
    assert state.legal_actions() == ["pick 1", "pick 2", "pick 3"]
    state.apply("pick 2")
    assert state.legal_actions() == ["pick 5", "pick 6", "pick 7"]
    state = game.state_from_json(state.to_json())  # the frames of the call go to JSON and back mid-way
    state.apply("pick 7")
    assert state.is_terminal and state.view(0)["variables"]["out"] == [5, 13, 20, 70]


def test_both_paths_agree_on_every_answer(tmp_path):
    path = write_game(tmp_path, GAME)
    fast, slow = load_game(path), load_game(path, reference=True)
    for first in ("pick 1", "pick 2", "pick 3"):
        a, b = fast.new_game(players=2), slow.new_game(players=2)
        a.apply(first)
        b.apply(first)
        assert a.legal_actions() == b.legal_actions()
        a.apply(a.legal_actions()[0])
        b.apply(b.legal_actions()[0])
        assert a.to_json() == b.to_json()


def test_a_function_loop_is_bounded_by_the_step_budget(tmp_path):
    text = GAME.replace("      best = 0\n", "      best = 0\n      while true:\n          best = best + 1\n")
    for reference in (False, True):
        with pytest.raises(Exception, match="step budget"):
            load_game(write_game(tmp_path, text), reference=reference).new_game(players=2)


@pytest.mark.parametrize(
    "old, new, at, said",
    [
        ('      else:\n          return "zero"\n', "", "      if n > 0:", "can be reached here without 'return VALUE'"),
        (
            "      return best\n",
            "      out = [best]\n      return best\n",
            "      out = [best]",
            "'out' is a game variable",
        ),
        ("      return best\n", '      log "x"\n      return best\n', '      log "x"', "a log line is written"),
        ("      return best\n", "      return xs\n", "      return xs", "the value returned must be a number"),
        ("      return best\n", "      return random_from(xs)\n", "      return random_from", "draws at random"),
        ("      return 0\n", "      return\n", "          return\n", "write 'return VALUE'"),
        ("  end_game\n", "  return 3\n", "  return 3", "only in a function or in a procedure that declares"),
        ("  b = ask_number(5)\n", "  ask_number(5)\n", "  ask_number(5)", "gives a value that this line drops"),
        ("  a = ask_number(1)\n", "  a = 1 + ask_number(1)\n", "  a = 1 +", "gives no value here"),
    ],
)
def test_misuse_is_located(tmp_path, old, new, at, said):
    """Each misuse is an error at the line of the statement at fault (``at`` starts that line)."""
    assert_located(tmp_path, GAME, at, said, old, new)
