"""`tabletop lint`: warnings for what loads and runs but is probably a mistake.

Each case starts from a small game that lints clean, makes one change, and expects exactly
one warning, of its code, at the place to edit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cache_helpers import counter

from engine import load_game
from engine.cli import main
from engine.tools.codes import CODES
from engine.tools.lint import checks
from engine.tools.lint.checks import lint_game

CLEAN = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 4}
components:
  - kind: card
    attributes: {power: int}
    start: deck
    items:
      - {id: spark, power: 2, effect: "gain(this.power)", text: Gain twice its power.}
      - {id: dud, power: 0, copies: 3}
zones:
  - {id: deck, visibility: hidden}
  - {id: hand, per: player, visibility: owner}
variables:
  turns: {type: int}
player_variables:
  points: {type: int}
functions:
  - id: doubled
    params: {n: int}
    returns: int
    value: n * 2
procedures:
  - id: gain
    params: {n: int}
    does: |
      me.points = me.points + doubled(n)
play: |
  for c in deck:
      move(c, hand(me))
  turns = turns + 1
  if size(hand(me)) == 0:
      end_game
  c = choose "play" from hand(me)
  perform(c)
  log "after {turns} turns"
scoring:
  - {id: points, points: p.points}
rulings:
  - id: spark-doubles
    question: Does a spark count twice?
    answer: Yes.
    test: tests/test_mini.py::test_spark
"""

TESTS = "import pytest\n\n\n@pytest.mark.parametrize('x', [1])\ndef test_spark(x):\n    assert x\n"


@pytest.fixture(name="project")
def project_fixture(tmp_path, monkeypatch) -> Path:
    """A project folder holding rules/mini/game.yaml (CLEAN) and the test its ruling names."""
    (tmp_path / "rules" / "mini" / "variants").mkdir(parents=True)
    (tmp_path / "rules" / "mini" / "game.yaml").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mini.py").write_text(TESTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def warnings(project: Path, old: str = "", new: str = "", variant: str | None = None):
    """Lint warnings of the mini game after replacing ``old`` by ``new`` (once) in game.yaml."""
    game_file = project / "rules" / "mini" / "game.yaml"
    text = game_file.read_text(encoding="utf-8")
    if old:
        assert text.count(old) == 1, old
        game_file.write_text(text.replace(old, new), encoding="utf-8")
    game = load_game(game_file if variant is None else project / "rules" / "mini" / "variants" / variant)
    return lint_game(game)


def place(text: str, fragment: str, nth: int = 0) -> tuple[int, int]:
    """(line, col) of the nth occurrence of ``fragment`` in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(fragment, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def only(found, code: str):
    assert [d.code for d in found] == [code], [d.format() for d in found]
    d = found[0]
    assert d.severity == "warning" and not d.is_error
    return d


def text_of(project: Path) -> str:
    return (project / "rules" / "mini" / "game.yaml").read_text(encoding="utf-8")


def test_the_clean_game_has_no_warnings(project):
    assert warnings(project) == []


def test_every_code_is_explained():
    """Each code the engine can emit is explained once in engine/tools/codes.py, and each explained code
    is emitted somewhere (no stale entries)."""
    import re

    engine_dir = Path(__file__).resolve().parents[1] / "engine"
    used = set()
    for source in engine_dir.rglob("*.py"):
        if source.name != "codes.py":
            used |= set(re.findall(r'"([EW][0-9]{3})"', source.read_text(encoding="utf-8")))
    assert used == set(CODES)
    assert all(title and len(text) > 20 for title, text in CODES.values())


# ----------------------------------------------------------------- unused
def test_a_procedure_never_called_is_w301(project):
    found = warnings(
        project,
        "      me.points = me.points + doubled(n)\n",
        "      me.points = me.points + doubled(n)\n  - id: bonus\n    does: |\n      pass\n",
    )
    d = only(found, "W301")
    assert "'bonus'" in d.message and (d.line, d.col) == place(text_of(project), "bonus")


def test_a_function_never_called_is_w302(project):
    found = warnings(project, "me.points = me.points + doubled(n)", "me.points = me.points + n * 2")
    d = only(found, "W302")
    assert "'doubled'" in d.message and (d.line, d.col) == place(text_of(project), "doubled")


def test_a_variable_only_written_is_w303(project):
    d = only(warnings(project, '  log "after {turns} turns"\n', ""), "W303")
    assert "'turns'" in d.message and (d.line, d.col) == place(text_of(project), "turns:")


def test_a_player_variable_read_only_by_scoring_is_used(project):
    # points is read by the scoring only (p.points) and written by gain: no warning
    assert warnings(project, "me.points = me.points + doubled(n)", "me.points = doubled(n)") == []


def test_a_zone_no_rule_names_is_w304(project):
    d = only(
        warnings(
            project,
            "  - {id: deck, visibility: hidden}\n",
            "  - {id: deck, visibility: hidden}\n  - {id: attic, visibility: public}\n",
        ),
        "W304",
    )
    assert "'attic'" in d.message and (d.line, d.col) == place(text_of(project), "attic")


def test_a_card_with_an_effect_and_no_text_is_w307(project):
    d = only(warnings(project, ", text: Gain twice its power.}", "}"), "W307")
    assert "'spark'" in d.message and (d.line, d.col) == place(text_of(project), "spark")


# ----------------------------------------------------------------- rulings
@pytest.mark.parametrize(
    "test, said",
    [
        ("tests/test_gone.py::test_spark", "no test file 'tests/test_gone.py'"),
        ("tests/test_mini.py::test_sparkle", "'tests/test_mini.py' has no test 'test_sparkle'"),
        ("tests/test_mini.py::test_spark[1]", None),  # a parametrized case names its test
    ],
)
def test_a_ruling_whose_test_is_gone_is_w305(project, test, said):
    found = warnings(project, "tests/test_mini.py::test_spark", test)
    if said is None:
        assert found == []
    else:
        d = only(found, "W305")
        assert said in d.message and (d.line, d.col) == place(text_of(project), "tests/", 0)


def test_a_ruling_without_test_is_w305(project):
    d = only(warnings(project, "    test: tests/test_mini.py::test_spark\n", ""), "W305")
    assert "names no test" in d.message


def test_rulings_are_not_checked_without_a_tests_folder(project):
    (project / "tests" / "test_mini.py").unlink()
    (project / "tests").rmdir()  # an installed copy ships no tests
    assert warnings(project) == []


# ------------------------------------------------------------ never runs
@pytest.mark.parametrize("stop", ["end_game", "return"])
def test_a_statement_after_a_stop_is_w401(project, stop):
    found = warnings(project, "  perform(c)\n", f"  perform(c)\n  {stop}\n  turns = turns + 2\n")
    d = only(found, "W401")
    assert (d.line, d.col) == place(text_of(project), "turns = turns + 2") and f"'{stop}'" in d.message
    assert d.context[1].strip() == "^"


def test_a_stop_at_the_end_of_an_inner_block_is_fine(project):
    later = "  perform(c)\n  if turns > 5:\n      end_game\n  turns = turns + 2\n"
    assert warnings(project, "  perform(c)\n", later) == []


def test_close_in_a_window_is_the_end_of_its_block(project):
    found = warnings(project, "  perform(c)\n", '  perform(c)\n  window q from me:\n      close\n      log "never"\n')
    d = only(found, "W401")
    assert (d.line, d.col) == place(text_of(project), 'log "never"')


# --------------------------------------------------------------- variants
VARIANT = """\
extends: mini
id: quick
name: Mini — quick
variables:
  turns: {type: int}
zones:
  - {id: deck, visibility: hidden}
  - {id: hand, per: player, visibility: public}
players: {min: 2, max: 4}
"""


def test_variant_settings_equal_to_the_base_are_w306(project):
    variant = project / "rules" / "mini" / "variants" / "quick.yaml"
    variant.write_text(VARIANT, encoding="utf-8")
    found = warnings(project, variant="quick.yaml")
    assert [d.code for d in found] == ["W306"] * 3 and all(d.path.endswith("quick.yaml") for d in found)
    assert [(d.line, d.col) for d in found] == [
        place(VARIANT, "turns:"),
        place(VARIANT, "{id: deck"),
        place(VARIANT, "{min: 2"),
    ]
    # the hand's visibility differs from the base: that item is not reported
    assert place(VARIANT, "{id: hand") not in [(d.line, d.col) for d in found]


@pytest.mark.parametrize(
    "card, dropped",
    [
        ("{id: spark, power: 5}", "its effect and text"),  # and so 'gain' is called by no card (W301)
        ("{id: dud, power: 1}", "its copies"),
    ],
)
def test_a_variant_item_dropping_what_its_base_item_says_is_w309(project, card, dropped):
    text = f"extends: mini\nid: quick\nname: Quick\ncomponents:\n  - kind: card\n    items:\n      - {card}\n"
    (project / "rules" / "mini" / "variants" / "quick.yaml").write_text(text, encoding="utf-8")
    found = [d for d in warnings(project, variant="quick.yaml") if d.code != "W301"]
    d = only(found, "W309")
    assert d.path.endswith("quick.yaml") and (d.line, d.col) == place(text, card[5:])
    assert f"'{card[5:].split(',')[0]}' replaces the base's whole item and so drops {dropped}" in d.message
    assert "restate" in d.hint and f"patch: [{{id: {card[5:].split(',')[0]}, …}}]" in d.hint


def test_a_variant_procedure_dropping_its_text_is_w309_and_a_whole_one_is_fine(project):
    variant = project / "rules" / "mini" / "variants" / "quick.yaml"
    text = "extends: mini\nid: quick\nname: Quick\nprocedures:\n"
    text += "  - id: gain\n    params: {n: int}\n    does: me.points = doubled(n)\n"
    variant.write_text(text, encoding="utf-8")
    told = "  - id: gain\n    text: Gain points.\n"
    found = warnings(project, "  - id: gain\n", told, variant="quick.yaml")
    assert [d.code for d in found] == ["W309"] and "drops its text" in found[0].message
    variant.write_text(text.replace("  - id: gain\n", told), encoding="utf-8")
    assert warnings(project, variant="quick.yaml") == []


# ------------------------------------------------------------------ boards
GRID = """\
id: tiny
kind: grid
cells: {width: 3, height: 2}
rooms:
  - {id: west, area: [0, 0, 0, 1]}
  - {id: east, area: [1, 0, 1, 1]}
  - {id: shed, area: [2, 0, 2, 1]}
doors:
  - [[0, 1], [1, 1]]
  - [[1, 0], [2, 0]]
"""


def lint_board_text(project: Path, text: str) -> tuple[int, list[dict]]:
    board = project / "boards" / "mini" / "tiny.yaml"
    board.parent.mkdir(parents=True, exist_ok=True)
    board.write_text(text, encoding="utf-8")
    code = main(["lint", "--json", str(board)])
    return code, board


def test_a_board_with_every_room_reachable_is_clean(project, capsys):
    code, _ = lint_board_text(project, GRID)
    assert code == 0 and json.loads(capsys.readouterr().out) == []


def test_a_room_without_a_door_is_w601(project, capsys):
    text = GRID.replace("  - [[1, 0], [2, 0]]\n", "")
    code, _ = lint_board_text(project, text)
    found = json.loads(capsys.readouterr().out)
    assert code == 1 and [d["code"] for d in found] == ["W601"] and "'shed'" in found[0]["message"]
    assert (found[0]["line"], found[0]["col"]) == place(text, "shed")


def test_a_door_inside_a_room_is_w602(project, capsys):
    text = GRID.replace("  - [[0, 1], [1, 1]]\n", "  - [[0, 1], [1, 1]]\n  - [[1, 0], [1, 1]]\n")
    code, _ = lint_board_text(project, text)
    found = json.loads(capsys.readouterr().out)
    assert code == 1 and [d["code"] for d in found] == ["W602"] and "'east'" in found[0]["message"]
    assert found[0]["line"] == text.splitlines().index("  - [[1, 0], [1, 1]]") + 1


# --------------------------------------------------------------------- CLI
def test_lint_fails_on_warnings_where_validate_passes(project, capsys):
    warnings(project, '  log "after {turns} turns"\n', "")
    assert main(["validate", "rules"]) == 0
    capsys.readouterr()
    assert main(["lint", "rules"]) == 1
    out = capsys.readouterr().out
    assert "rules/mini/game.yaml:" in out and "W303 variable 'turns' is never read" in out
    assert "0 errors, 1 warning" in out


def test_lint_reports_errors_as_validate_does(project, capsys):
    warnings(project)
    (project / "rules" / "mini" / "game.yaml").write_text(CLEAN.replace("hand(me))\n", "hnad(me))\n", 1))
    assert main(["lint", "rules"]) == 1
    out = capsys.readouterr().out
    assert "E501" in out and "did you mean 'hand'?" in out


def test_every_shipped_game_and_board_is_lint_clean(capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    assert main(["lint"]) == 0
    assert capsys.readouterr().out.strip() == "no problems found"


# ------------------------------------------------- what fails only at run time
CHOICE = '  if size(hand(me)) == 0:\n      end_game\n  c = choose "play" from hand(me)\n  perform(c)\n'
# Each round plays a card back to the deck: the four cards dealt last four rounds, not five.
EMPTIES = '  repeat 5:\n      c = choose "play" from hand(me)\n      perform(c)\n      move(c, deck)\n'


def test_a_choice_a_game_finds_empty_is_w402_with_the_game_that_shows_it(project, capsys):
    found = warnings(project, CHOICE, EMPTIES)
    d = only(found, "W402")
    assert "'hand(me)' had nothing to choose from here in a game between random bots" in d.message
    assert (d.line, d.col) == place(text_of(project), 'c = choose "play"')
    fix, command = d.hint.split("; ")
    assert fix == "add 'optional', or check first: if size(hand(me)) > 0: …"
    assert command == "`tabletop simulate rules/mini/game.yaml --players 2 --games 1 --seed 0` plays that game"
    assert main(command.split("`")[1].split()[1:] + ["--json"]) == 1  # that game stops there, as said
    assert "nothing to choose from" in json.loads(capsys.readouterr().out)["error_samples"][0]


@pytest.mark.parametrize(
    "fine",
    [
        CHOICE,  # it runs once, after the four cards are dealt
        EMPTIES.replace("repeat 5", "repeat 4"),  # one card a round, as many rounds as cards
        '  if size(hand(me)) > 0:\n      c = choose "play" from hand(me)\n      perform(c)\n',
        '  c = choose "play" from hand(me) optional\n  perform(c)\n',
        EMPTIES.replace("from hand(me)", "from cards(hand(me)) if size(hand(me)) > 0 else cards(deck)"),
    ],
    ids=["once", "as-many-rounds-as-cards", "guarded", "optional", "the-hand-or-else-the-deck"],
)
def test_a_choice_no_game_finds_empty_is_fine(project, fine):
    assert warnings(project, CHOICE, fine) == []


def test_only_the_games_that_found_a_choice_empty_are_played_again_a_decision_at_a_time(project, monkeypatch):
    """Lint's seeded games run on the VM, each player count's in one call; a game is played again in Python, a
    decision at a time, only when it stopped with nothing to choose from, to find the place of the choice."""
    replayed = counter(monkeypatch, checks, "play_out")
    assert warnings(project) == []
    assert replayed[0] == 0
    only(warnings(project, CHOICE, EMPTIES), "W402")  # every 2- to 4-player game runs out of cards
    assert replayed[0] == 3 * 10


def test_a_choice_filtered_to_nothing_is_w402(project):
    found = warnings(project, '  log "after', '  k = choose "kind" from ["a", "b"] where it == "c"\n  log "{k} after')
    d = only(found, "W402")
    assert "'where'" in d.hint


def test_the_false_alarms_of_the_shipped_games_are_gone():
    """Goofspiel deals 13 cards for 13 rounds of one bid each; a whist hand has a card for every trick left,
    and when the player cannot follow suit the whole hand is the choice: neither choice is ever empty."""
    for name in ("goofspiel", "whist"):
        assert [d for d in lint_game(load_game(name)) if d.code == "W402"] == []


@pytest.mark.parametrize(
    "body, code",
    [
        ("      turns = turns + 1\n", "W403"),
        ("      gain(1)\n", "W403"),  # gain asks no one either
        ("      if turns > 3:\n          return\n      turns = turns + 1\n", None),
        ('      c = choose "play" from hand(me) optional\n      turns = turns + 1\n', None),
        ("      perform(c)\n", None),  # a card's effect may ask
    ],
)
def test_a_loop_that_never_asks_or_stops_is_w403(project, body, code):
    found = warnings(project, "  perform(c)\n", f"  perform(c)\n  while true:\n{body}")
    if code is None:
        assert found == []
    else:
        d = only(found, code)
        assert (d.line, d.col) == place(text_of(project), "while true")


def test_a_loop_calling_a_procedure_that_asks_is_fine(project):
    found = warnings(
        project,
        "      me.points = me.points + doubled(n)\n",
        "      me.points = me.points + doubled(n)\n  - id: ask\n    does: |\n"
        '      x = choose "play" from hand(me) optional\n',
    )
    assert [d.code for d in found] == ["W301"]  # ask is not called yet
    assert warnings(project, "  perform(c)\n", "  perform(c)\n  while true:\n      ask()\n") == []


def test_an_unbounded_number_choice_is_already_the_error_e508(project, capsys):
    """A choice among computed numbers has no bounded action space: the loader refuses it (E508), so lint
    reports that error rather than a warning of its own."""
    warnings(project)
    (project / "rules" / "mini" / "game.yaml").write_text(
        CLEAN.replace("  perform(c)\n", '  perform(c)\n  n = choose "bid" from [turns + 1, turns + 2]\n  turns = n\n'),
        encoding="utf-8",
    )
    assert main(["lint", "rules"]) == 1
    assert "E508" in capsys.readouterr().out
