"""Text made and read while playing — ``text``, ``number``, ``word`` — and ``sorted`` without a key run on the
VM with the reference's meaning: Python's ``str`` of every kind of value, its ``split`` and ``sorted``, and
the same located faults. With them, the edges of ordering, comparing and sizing values: a zone sorted by a
value some cards lack, the first of equals kept by ``max`` and ``min``, a number equal to a yes/no, and the
size budget of texts and ranges."""

from __future__ import annotations

import pytest
from test_vm_differential import mini, played_alike, same_fault_on_every_backend
from test_vm_maps import AS_ANY

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

WRITTEN = """\
k = choose "pick" from [0, 1, 2, 5]
said = [text(k), text(k > 0), text(none), text([k, k + 1]), text({"a": [k], "it's": []}), text(" -" + text(k))]
said += [text([k > 0, k > 9])]
n = number(" " + text(k * 12) + "  ") + number("-" + text(k))
words = [word("  the quick  brown\\tcat ", k), word("x y", -1), word("", k), word(none, 0)]
xs = sorted([k, 3, -1, 3]) + sorted([])
names = sorted(words + said + ["Zoo", "apple", "é"])
log "{said} {n} {words} {xs} {names}"
k = choose "then" from [1, 2]
"""


def test_a_text_of_as_many_characters_as_the_size_budget_allows_is_made_alike_on_the_vm(tmp_path):
    """33,332 zeros and a ten print in 100,000 characters, the most a text may hold (its 33,333rd word: "10]")."""
    longest = 't = text([0 for i in range(33332)] + [10])\nlog "{word(t, 33332)}"\nn = choose "then" from [1, 2]\n'
    game = mini(tmp_path, longest)
    assert "10]" in played_alike(game, 1).log


def test_text_numbers_words_and_sorted_lists_play_alike_on_the_vm(tmp_path):
    game = mini(tmp_path, WRITTEN)
    ref = played_alike(game, 8)
    said = next(line for line in ref.log if not line.startswith("seat"))
    assert said.startswith(("1, True, none, [1, 2], {'a': [1], \"it's\": []}", "2, True", "5, True"))
    assert "[True, False]" in said, "yes and no in a list print as Python's"


@pytest.mark.parametrize(
    "line, said",
    [
        ('n = number("12a")', "number(): '12a' is not a whole number"),
        ('n = number("--5")', "ValueError: invalid literal for int() with base 10: '--5'"),
        ("n = number(none)", "number(): no text given"),
        ('n = number("1234567890123456789")', "is not a whole number"),
        ("n = size(sorted([c, c]))", "sorted: only numbers or only text can be put in order, not [None, None]"),
        # Python's str of 33,331 zeros and two tens: 100,001 characters, one over the size budget
        ("t = text([0 for i in range(33331)] + [10, 10])", "100,001"),
    ],
    ids=["not digits", "two minus signs", "none", "too long", "no cards", "a text one over the budget"],
)
def test_text_that_is_no_number_and_lists_that_cannot_be_sorted_are_the_references_faults(tmp_path, line, said):
    game = mini(tmp_path, line + "\n")
    assert said in same_fault_on_every_backend(game).message


TOKENS = """\
components:
  - kind: card
    name: token
    start: deck
    items:
      - {id: coin, name: Coin, copies: 2}
      - {id: gem, name: Gem}
"""

# Options that print alike: a text of the rules and one made while playing, without a name and with one (the
# name's words make the id a text the rules do not hold), records of two copies of a card, and a text of the
# rules and none (different choices, told apart by long ids).
ALIKE = """\
w = choose from ["none", none]
t = choose "pick" from ["b", "c"]
w = choose from ["ab", "ac", "a" + t]
w = choose "word" from ["ab", "ac", "a" + t]
r = choose "copy" from [{card: x} for x in cards(deck)]
log "{w} {r}"
"""


def test_options_that_print_alike_are_one_option_on_the_vm(tmp_path):
    game = mini(tmp_path, ALIKE, TOKENS)
    played_alike(game, 4)
    st = game.new_game(2, 0)
    offered = []
    for _ in range(5):
        offered.append(st.legal_actions(st.current_player))
        st.apply(offered[-1][0])
    assert offered[0] == ['"none"', "null"]
    assert offered[2:] == [["ab", "ac"], ["word ab", "word ac"], ["copy coin", "copy gem"]]


RANKED = """\
components:
  - kind: tile
    attributes: {rank: text}
    start: deck
    items:
      - {id: low, rank: b}
      - {id: high, rank: d}
      - {id: mid, rank: c, copies: 2}
  - kind: chip
    start: deck
    items:
      - {id: blank}
      - {id: plain}
"""


def test_a_zone_sorted_by_a_value_some_cards_lack_is_ordered_alike_on_the_vm(tmp_path):
    """Cards of a kind without the value go to the bottom in the order they lay, the others above them largest
    first (`sort`; the zone listed bottom first)."""
    play = 'shuffle(deck)\nk = choose "pick" from [1, 2]\nsort(deck, "rank")\nlog "{[x.id for x in cards(deck)]}"\n'
    ref = played_alike(mini(tmp_path, play, RANKED), 6)
    assert ref.log[-1].endswith("high, mid, mid, low") and ref.log[-1].startswith(("blank, plain", "plain, blank"))


def test_the_greatest_of_equals_is_the_first_and_a_texts_size_counts_characters_alike_on_the_vm(tmp_path):
    """``max`` and ``min`` keep the first of items that compare equal (yes and 1 print apart); ``size`` of a
    text passed as ``any`` counts its characters, not its bytes."""
    play = (
        'k = choose "pick" from [1, 2]\n'
        't = as_any("né" + text(k))\n'
        'log "{max([as_any(k > 0), 1])} {min([k, as_any(k > 0)])} {size(t)}"\n'
        'k = choose "then" from [1, 2]\n'
    )
    ref = played_alike(mini(tmp_path, play, AS_ANY), 2)
    assert {"yes 1 3", "yes yes 3"} & set(ref.log), ref.log  # k is 1 or 2: the least of [k, yes] is k or yes


def test_a_number_and_a_yes_or_no_passed_as_any_are_equal_where_pythons_are_alike_on_the_vm(tmp_path):
    """1 equals yes and 0 equals no, as in Python, compared either way round and looked for in a list."""
    play = (
        'k = choose "pick" from [0, 1, 2]\n'
        "y = as_any(k > 0)\n"
        'log "{as_any(1) == y} {y == as_any(1)} {as_any(k) in [y]} {y != as_any(0)}"\n'
        'k = choose "then" from [1, 2]\n'
    )
    ref = played_alike(mini(tmp_path, play, AS_ANY), 6)
    assert {"yes yes yes yes", "no no yes no", "yes yes no yes"} & set(ref.log), ref.log


def test_an_empty_map_or_text_made_while_playing_and_passed_as_any_is_false_as_a_condition_alike(tmp_path):
    """As in Python: a map whose last key was dropped, and a word past a text's last, read as no."""
    play = (
        'k = choose "pick" from [1, 2]\n'
        'm = without_key({"a": k}, "a")\n'
        't = word("x y", 5 + k)\n'
        'w = with_key(m, "b", 0)\n'
        'log "{1 if as_any(m) else 0} {1 if as_any(t) else 0} {1 if as_any(w) else 0}"\n'
        'k = choose "then" from [1, 2]\n'
    )
    ref = played_alike(mini(tmp_path, play, AS_ANY), 2)
    assert "0 0 1" in ref.log, ref.log


def test_a_range_of_as_many_items_as_the_size_budget_allows_is_made_and_one_more_is_a_fault_alike(tmp_path):
    ref = played_alike(mini(tmp_path, 'xs = range(100000)\nlog "{size(xs)}"\nk = choose "then" from [1, 2]\n'), 1)
    assert "100000" in ref.log
    said = same_fault_on_every_backend(mini(tmp_path / "over", "xs = range(1, 100002)\n")).message
    assert "range(1, 100002) is over the size budget of 100,000 items" in said
