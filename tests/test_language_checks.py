"""What the checker finds at load that would otherwise fail in play, or crash the loader.

Each case is a small rule file that must give one located diagnostic (file:line:col, its code, a
message and a hint), never a traceback; the forms next to them that are fine still load and play.
"""

from __future__ import annotations

import pytest
from language_helpers import write_game

from engine import RulesError, load_game

HEAD = "id: mini\nname: Mini\nplayers: {min: 2, max: 2}\n"


def located(tmp_path, text: str, at: str, code: str, said: str):
    """Loading HEAD + ``text`` fails with one ``code`` diagnostic saying ``said``, at the (last) ``at``."""
    text = HEAD + text
    line = text[: text.rindex(at)].count("\n") + 1
    col = text.rindex(at) - text.rfind("\n", 0, text.rindex(at))
    with pytest.raises(RulesError) as info:
        load_game(write_game(tmp_path, text))
    found = info.value.diagnostics
    assert [(d.line, d.col, d.code) for d in found] == [(line, col, code)], [d.format() for d in found]
    assert said in found[0].message and found[0].hint, found[0].format()
    assert found[0].path.endswith("rules/mini/game.yaml")


def plays(tmp_path, text: str):
    """The game HEAD + ``text`` loads; a new game of it."""
    return load_game(write_game(tmp_path, HEAD + text)).new_game(players=2)


# ------------------------------------------------- a function written as statements
FROM_A_FUNCTION = """\
functions:
  - id: options
    params: {n: int}
    returns: "list[int]"
    does: |
      xs = [n, n + 1]
      if n > 3:
          return [9]
      return xs + [n * 2]
play: |
  x = choose "pick" from options(2)
  end_game
"""


def test_the_options_of_a_function_written_as_statements_are_listed(tmp_path):
    state = plays(tmp_path, FROM_A_FUNCTION)
    assert state.legal_actions() == ["pick 2", "pick 3", "pick 4"]
    assert state.game.action_space(2) == ["pick 2", "pick 3", "pick 4", "pick 9"]  # every 'return' counts


# ------------------------------------------------------ a record and its declared type
@pytest.mark.parametrize(
    "text, at, code, said",
    [
        (
            'variables:\n  r: {type: "{a: int}"}\nplay: |\n  r = {a: 1, b: 2}\n  log "{r}"\n',
            "{a: 1, b: 2}",
            "E506",
            "variable 'r' holds a record {a: a number}, but it has a field 'b'",
        ),
        (
            'variables:\n  rs: {type: "list[{a: int}]"}\nplay: |\n  rs = rs + [{a: 1, b: 2}]\n'
            '  x = choose "pick" from rs\n',
            "rs + [",
            "E506",
            "but it has a field 'b'",
        ),
        (
            'player_variables:\n  r: {type: "{a: int}"}\nplay: |\n  me.r = {a: 1, b: 2}\n  log "{me.r}"\n',
            "{a: 1, b: 2}",
            "E506",
            "player variable 'r' holds a record {a: a number}, but it has a field 'b'",
        ),
        (
            'functions:\n  - id: made\n    returns: "{a: int}"\n    value: "{a: 1, b: 2}"\nplay: |\n'
            '  x = choose "pick" from [made()]\n',
            "{a: 1, b: 2}",
            "E502",
            "but it has a field 'b'",
        ),
        (
            'functions:\n  - id: of\n    params: {r: "{a: int}"}\n    returns: int\n    value: r.a\nplay: |\n'
            "  n = of({a: 1, b: 2})\n",
            "{a: 1, b: 2}",
            "E502",
            "argument 'r' of of must be a record {a: a number}, but it has a field 'b'",
        ),
        (
            'variables:\n  r: {type: "{a: int}", initial: {a: 1, b: 2}}\nplay: |\n  log "{r}"\n',
            "b: 2",
            "E303",
            "a record {a: a number} has no field 'b'",
        ),
    ],
    ids=["variable", "list", "player-variable", "function-value", "argument", "initial-value"],
)
def test_a_record_with_a_field_its_declared_type_lacks_is_refused(tmp_path, text, at, code, said):
    located(tmp_path, text, at, code, said)


def test_a_record_may_leave_out_a_field_of_its_declared_type_that_may_be_none(tmp_path):
    state = plays(tmp_path, 'variables:\n  r: {type: "{a: int, b: text}"}\nplay: |\n  r = {a: 1}\n  end_game\n')
    assert state.is_terminal and state.vars["r"] == {"a": 1}


def test_a_record_may_not_leave_out_a_number_of_its_declared_type(tmp_path):
    text = 'variables:\n  r: {type: "{a: int, b: int}"}\nplay: |\n  r = {a: 1}\n  end_game\n'
    located(tmp_path, text, "{a: 1}", "E506", "it lacks the field 'b', and a number cannot be none")


# ------------------------------------------------------------- choosing several
def test_several_in_a_simultaneous_choice_is_refused(tmp_path):
    text = 'play: |\n  xs = choose "pick" several 1 to 2 from [1, 2, 3] by each p in players() simultaneously\n'
    located(tmp_path, text, "xs = choose", "E505", "a choice of several cannot be simultaneous")


@pytest.mark.parametrize("bounds, at", [("3 to 1", "3 to 1"), ("most to 1", "most to 1")])
def test_reversed_bounds_of_several_are_refused(tmp_path, bounds, at):
    text = f'constants:\n  most: 3\nplay: |\n  xs = choose "pick" several {bounds} from [1, 2, 3]\n'
    located(tmp_path, text, at, "E505", "asks for at least 3 and at most 1")


def test_bounds_known_only_in_play_are_left_to_play(tmp_path):
    text = 'variables:\n  low: {type: int, initial: 1}\nplay: |\n  xs = choose "pick" several low to 1 from [1, 2]\n'
    assert plays(tmp_path, text).legal_actions() == ["pick 1", "pick 2"]


# ------------------------------------------------- option records of several shapes
OPTIONS = '[{way: "up", steps: 2}, {way: "down"}]'


@pytest.mark.parametrize(
    "text, at, said",
    [
        (f'play: |\n  m = choose "go" from {OPTIONS} where it.steps > 1\n', "steps > 1", "'>' cannot take none"),
        (
            f'play: |\n  m = choose "go" from [max({OPTIONS}, by: it.steps)]\n',
            "steps)",
            "nothing can be put in order by none",
        ),
        (
            f'bots:\n  greedy:\n    value: "0"\n    choices:\n      go: choice.steps * 2\nplay: |\n'
            f'  m = choose "go" from {OPTIONS}\n',
            "steps * 2",
            "'*' cannot take none",
        ),
    ],
    ids=["where", "by-key", "bot-value"],
)
def test_reading_for_every_option_a_field_some_options_lack_is_refused(tmp_path, text, at, said):
    located(
        tmp_path, text, at, "E504", f"some records read here have no field 'steps': it is none for them, and {said}"
    )


@pytest.mark.parametrize(
    "text",
    [
        f'play: |\n  m = choose "go" from {OPTIONS} where it.way == "down" or it.steps > 1\n  end_game\n',
        f'play: |\n  m = choose "go" from [max({OPTIONS}, by: it.steps if it.way == "up" else 0)]\n  end_game\n',
        f'play: |\n  m = choose "go" from {OPTIONS}\n  n = m.steps if m.way == "up" else 0\n  end_game\n',
    ],
    ids=["tested-first", "key-with-a-value-for-all", "read-after-the-choice"],
)
def test_a_field_some_options_lack_is_fine_where_it_is_tested_first(tmp_path, text):
    assert plays(tmp_path, text).legal_actions()


# ------------------------------------------------------------ names of the language
@pytest.mark.parametrize(
    "text, at, what",
    [
        (
            'functions:\n  - id: sorted\n    params: {xs: "list[int]"}\n    returns: "list[int]"\n    value: xs\n'
            'play: |\n  log "{sorted([3, 1])}"\n',
            "sorted\n",
            "a function",
        ),
        ("procedures:\n  - id: shuffle\n    does: pass\nplay: |\n  shuffle()\n", "shuffle\n", "a procedure"),
        ('zones:\n  - {id: top, visibility: public}\nplay: |\n  log "{size(top)}"\n', "top,", "a zone"),
        ('variables:\n  num_players: {type: int}\nplay: |\n  log "{num_players}"\n', "num_players:", "a variable"),
    ],
    ids=["function", "procedure", "zone", "variable"],
)
def test_a_name_that_would_hide_an_operation_is_refused(tmp_path, text, at, what):
    name = at.rstrip("\n,:")
    located(tmp_path, text, at, "E304", f"'{name}' is an operation of the language: {what} of that name would hide it")


def test_a_variable_may_share_a_name_with_an_operation_that_is_no_value(tmp_path):
    state = plays(
        tmp_path, 'variables:\n  last: {type: int, initial: 2}\nplay: |\n  log "{last([last])}"\n  end_game\n'
    )
    assert state.log[-1] == "2"


# ------------------------------------------------------------------- end_game
def test_a_placeholder_in_an_end_game_reason_is_refused(tmp_path):
    located(tmp_path, 'play: |\n  end_game "{me} wins"\n', "end_game", "E505", "'{me}' would be shown as it is written")


def test_an_end_game_reason_without_placeholders_is_reported(tmp_path):
    state = plays(tmp_path, 'play: |\n  end_game "the pile ran out"\n')
    assert state.outcome.reason == "the pile ran out"
