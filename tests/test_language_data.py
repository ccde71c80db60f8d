"""Data built-ins of the effect language, each on a small game that uses only it, on both paths.

``range``, ``any``/``all``, ``min``/``max``/``sorted`` by a key, ``sorted``, ``number`` and the one
collection protocol (a zone is its cards wherever a list is wanted): the native VM and the
reference closures must compute the same values, and misuse is a located error.
"""

from __future__ import annotations

import textwrap

import pytest

from engine import RulesError, RuntimeRuleError, load_game

GAME = """\
id: mini
name: Mini
players: {min: 2, max: 2}
components:
  - kind: chip
    attributes: {rank: int}
    start: deck
    items:
      - {id: a, rank: 3}
      - {id: b, rank: 7}
      - {id: c, rank: 5}
      - {id: d, rank: 7}
zones:
  - {id: deck, visibility: public}
variables:
  out: {type: "list[int]"}
  ids: {type: "list[text]"}
  flags: {type: "list[bool]"}
play: |
"""


def run(tmp_path, play: str) -> dict:
    """Play ``play`` on both paths; the variables at the end, the same on both."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME + textwrap.indent(textwrap.dedent(play), "  "), encoding="utf-8")
    views = [load_game(folder / "game.yaml", reference=ref).new_game(players=2).view(0) for ref in (False, True)]
    assert views[0] == views[1]
    return views[0]["variables"]


def test_range_counts_up_to_its_end_left_out(tmp_path):
    got = run(tmp_path, "out = range(3) + range(2, 5) + range(4, 4)\n")
    assert got["out"] == [0, 1, 2, 2, 3, 4]


def test_any_and_all_over_comprehensions_and_lists(tmp_path):
    got = run(
        tmp_path,
        "flags = [any([c.rank > 6 for c in deck]), all([c.rank > 6 for c in deck]), any([]), all([]),"
        " all([c.rank > 2 for c in deck])]\n",
    )
    assert got["flags"] == [True, False, False, True, True]


def test_max_min_sorted_by_a_key_take_the_first_of_equals(tmp_path):
    got = run(
        tmp_path,
        """\
        ids = [max(deck, by: it.rank).id, min(cards(deck), by: it.rank).id]
        ids = ids + [c.id for c in sorted(deck, by: 0 - it.rank)] + [c.id for c in sorted(deck, by: it.id)]
        out = sorted([3, 1, 2]) + [max([c.rank for c in deck]), size(sorted(range(0), by: it))]
        """,
    )
    assert got["ids"] == ["b", "a", "b", "d", "c", "a", "a", "b", "c", "d"]
    assert got["out"] == [1, 2, 3, 7, 0]


def test_max_by_of_nothing_is_none(tmp_path):
    got = run(tmp_path, 'ids = ["none" if max([c for c in deck if c.rank > 9], by: it.rank) == none else "some"]\n')
    assert got["ids"] == ["none"]


def test_number_reads_text_and_a_bad_one_is_a_located_rule_error(tmp_path):
    assert run(tmp_path, 'out = [number("12"), number(" -4 ")]\n')["out"] == [12, -4]
    for reference in (False, True):
        folder = tmp_path / "rules" / "mini"
        (folder / "game.yaml").write_text(GAME + '  out = [1]\n  out = [number("twelve")]\n', encoding="utf-8")
        with pytest.raises(RuntimeRuleError) as info:
            load_game(folder / "game.yaml", reference=reference).new_game(players=2)
        d = info.value.diagnostic
        assert (d.line, d.code) == (21, "E701") and "'twelve' is not a whole number" in d.message


def test_one_collection_protocol_size_count_in_and_for_on_zones_and_lists(tmp_path):
    got = run(
        tmp_path,
        """\
        out = [size(deck), size(cards(deck)), count(deck), size([1, 2]), sum([c.rank for c in deck])]
        flags = [is_empty(deck), is_empty([]), top(deck) in deck, top(deck) in cards(deck)]
        ids = [first(deck).id, last(deck).id]
        """,
    )
    assert got["out"] == [4, 4, 4, 2, 22]
    assert got["flags"] == [False, True, True, True]
    assert got["ids"] == ["a", "d"]


@pytest.mark.parametrize(
    "play, code, said",
    [
        ("ids = [max(deck, by: it).id]", "E502", "a 'by:' key must be a number or text, not a card"),
        ("ids = [first(deck, by: it.rank).id]", "E501", "'first' takes no 'by:'"),
        ("out = range(1, 2, 3)", "E503", "takes 1 to 2 arguments, not 3"),
        ("flags = [any([1, 2])]", "E502", "must be a list of true/false"),
        ("out = [number(3)]", "E502", "must be text"),
        ("ids = [max(3, by: it).id]", "E502", "needs a list or a zone"),
    ],
)
def test_misuse_is_located(tmp_path, play, code, said):
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME + "  " + play + "\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_game(folder / "game.yaml")
    [d] = info.value.diagnostics
    assert d.code == code and said in d.message and d.line == 20


def test_count_is_the_old_name_of_size_and_lint_says_so(tmp_path):
    from engine.tools.lint.checks import lint_game

    run(tmp_path, "out = [count(deck), size(deck)]\n")
    found = lint_game(load_game(tmp_path / "rules" / "mini" / "game.yaml"))
    [old] = [d for d in found if d.code == "W308"]
    assert (old.line, old.col) == (20, 10) and "size" in old.hint
