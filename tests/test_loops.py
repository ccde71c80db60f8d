"""Loops and updates as a designer writes them: break, continue, +=, comprehensions over two lists; each
on both code paths, and each refused form located with the fix in its message."""

from __future__ import annotations

import pytest
from language_helpers import assert_located, write_game

from engine import load_game

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2}
zones:
  - {id: deck, visibility: public}
variables:
  said: {type: "list[int]"}
  total: {type: int}
player_variables:
  points: {type: int}
functions:
  - id: first_over
    params: {limit: int}
    returns: int
    does: |
      found = 0
      for n in [1, 4, 6, 9]:
          if n <= limit:
              continue
          found = n
          break
      return found
play: |
  for n in range(1, 10):
      if n % 2 == 0:
          continue
      if n > 7:
          break
      said += [n]
  while true:
      total += 5
      if total >= 15:
          break
  me.points += first_over(5)
  me.points -= 1
  pick = choose "pair" from [{a: a, b: b} for a in [1, 2] for b in [1, 2, 3] if a < b]
  for n in range(pick.a, 10):
      k = choose "go" from [n]
      if k == pick.b:
          break
      said += [k * 10]
  end_game
"""


@pytest.mark.parametrize("reference", [False, True])
def test_break_continue_and_plus_equals_run_alike_on_both_paths(tmp_path, reference):
    """Odd numbers until one passes 7; a while left by break; += on a variable, a player's variable and a
    list; a loop with a decision in it left by break when the chosen pair's second number comes."""
    game = load_game(write_game(tmp_path, GAME), reference=reference)
    st = game.new_game(players=2)
    assert st.legal_actions() == ["pair 1 2", "pair 1 3", "pair 2 3"]
    st.apply("pair 1 3")
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    assert st.vars["said"] == [1, 3, 5, 7, 10, 20]
    assert st.vars["total"] == 15 and st.pvars[0]["points"] == 6 - 1


@pytest.mark.parametrize(
    "old, new, at, said",
    [
        ("  end_game\n", "  break\n  end_game\n", "break", "'break' only makes sense inside a loop"),
        ("  me.points -= 1\n", "  me.points -= 1\n  continue\n", "continue", "'continue' only makes sense"),
        (
            "      said += [k * 10]\n",
            "      said += [k * 10]\n      window q from me:\n          break\n",
            "break",
            "'break' cannot jump out of a window",
        ),
        ("  me.points -= 1\n", "  me.points *= 2\n", "*= 2", "there is no '*='"),
        ("  me.points -= 1\n", "  total++\n", "++", "there is no '++'"),
        ("  me.points -= 1\n", '  total += "a"\n', "total +=", "cannot add text to a number"),
        ("if a < b]", "if a < b for c in [1]]", "for c in [1]", "at most two 'for's"),
    ],
)
def test_each_refused_loop_or_update_form_says_the_fix(tmp_path, old, new, at, said):
    assert_located(tmp_path, GAME, at, said, old, new)
