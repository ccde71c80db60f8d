"""Variants: a variant file states what differs, and the files it includes count as stated by it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine import RulesError, load_game
from engine.cli import main

GAME = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 2}
include: [cards.yaml]
zones:
  - {id: deck, visibility: public}
  - {id: table, visibility: public}
player_variables:
  points: {type: int}
play: |
  for c in deck:
      me.points = me.points + c.value
  for c in table:
      me.points = me.points + 100 * c.value
  end_game
scoring:
  - {id: points, points: p.points}
"""

CARDS = """\
components:
  - kind: card
    attributes: {value: int}
    start: deck
    items:
      - {id: king, value: 3, text: The king.}
      - {id: pawn, value: 1}
"""

NEW_CARDS = """\
components:
  - kind: card
    start: deck
    items:
      - {id: king, value: 7, text: The king.}
  - kind: relic
    attributes: {value: int}
    start: table
    items:
      - {id: crown, value: 5}
"""


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture(name="game_folder")
def game_folder_fixture(tmp_path) -> Path:
    folder = tmp_path / "rules" / "mini"
    write(folder, {"game.yaml": GAME, "cards.yaml": CARDS})
    return folder


VARIANT = "extends: mini\nid: new\nname: Mini — new cards\ninclude: [new-cards.yaml]\n"


@pytest.mark.parametrize("beside", ["variants/new-cards.yaml", "new-cards.yaml"])
def test_a_variant_includes_components_as_a_game_does(game_folder, beside):
    """The included file replaces a card's value and adds a new kind: the game played sees both."""
    write(game_folder, {"variants/new.yaml": VARIANT, beside: NEW_CARDS})
    base = load_game(game_folder / "game.yaml").new_game(players=2)
    assert base.is_terminal and base.pvars[0]["points"] == 3 + 1
    game = load_game(game_folder / "game.yaml", variant="new")
    assert game.card_ids == ["king", "pawn", "crown"]
    state = game.new_game(players=2)
    assert state.is_terminal and state.pvars[0]["points"] == 7 + 1 + 100 * 5
    assert game.card_texts["king"]["text"] == "The king."


def test_a_problem_in_an_included_file_is_reported_there(game_folder):
    broken = NEW_CARDS.replace("value: 5", "value: five")
    write(game_folder, {"variants/new.yaml": VARIANT, "variants/new-cards.yaml": broken})
    with pytest.raises(RulesError) as info:
        load_game(game_folder / "game.yaml", variant="new")
    [d] = info.value.diagnostics
    line = broken[: broken.index("five")].count("\n") + 1
    assert d.path.endswith("variants/new-cards.yaml") and (d.code, d.line) == ("E303", line)


def test_a_kind_both_stated_and_included_by_a_variant_is_e304(game_folder):
    variant = VARIANT + "components:\n  - kind: card\n    items:\n      - {id: pawn, value: 2}\n"
    write(game_folder, {"variants/new.yaml": variant, "variants/new-cards.yaml": NEW_CARDS})
    with pytest.raises(RulesError, match="E304 component kind 'card' is given twice by the variant"):
        load_game(game_folder / "game.yaml", variant="new")


def test_validate_checks_a_variants_included_file_as_components(game_folder, capsys, monkeypatch):
    write(game_folder, {"variants/new.yaml": VARIANT, "variants/new-cards.yaml": NEW_CARDS})
    monkeypatch.chdir(game_folder.parent.parent)
    assert main(["validate", "rules"]) == 0, capsys.readouterr()


def test_lint_finds_an_included_card_that_drops_its_base_text(game_folder):
    from engine.tools.lint.checks import lint_game

    shorter = NEW_CARDS.replace(", text: The king.}", "}")
    write(game_folder, {"variants/new.yaml": VARIANT, "variants/new-cards.yaml": shorter})
    [d] = lint_game(load_game(game_folder / "game.yaml", variant="new"))
    assert d.code == "W309" and d.path.endswith("variants/new-cards.yaml") and "drops its text" in d.message
    assert d.line == shorter[: shorter.index("king")].count("\n") + 1


def test_a_base_card_after_a_variant_removes_another_is_reported_at_its_own_line(game_folder):
    from engine.tools.lint.checks import lint_game

    cards = CARDS.replace("{id: pawn, value: 1}", "{id: pawn, value: 1, effect: pass}")
    variant = "extends: mini\nid: new\nname: Mini — no king\nremove: {items: [king]}\n"
    write(game_folder, {"cards.yaml": cards, "variants/new.yaml": variant})
    [d] = lint_game(load_game(game_folder / "game.yaml", variant="new"))
    assert d.code == "W307" and d.path.endswith("mini/cards.yaml")
    assert d.line == cards[: cards.index("pawn")].count("\n") + 1


PATCH = """\
extends: mini
id: seven
name: Mini — a stronger king
patch:
  - {id: king, value: 7}
"""


def test_a_patch_changes_one_field_of_a_card_and_keeps_the_others(game_folder):
    """`patch: [{id: king, value: 7}]`: the king is worth 7 and keeps its text, without restating it."""
    write(game_folder, {"variants/seven.yaml": PATCH})
    game = load_game(game_folder / "game.yaml", variant="seven")
    assert game.new_game(players=2).pvars[0]["points"] == 7 + 1
    assert game.card_texts["king"]["text"] == "The king."
    assert load_game(game_folder / "game.yaml").new_game(players=2).pvars[0]["points"] == 3 + 1


def test_a_patch_reaches_zones_constants_and_variables_by_id(game_folder):
    game = GAME.replace("player_variables:", "constants:\n  bonus: 1\nplayer_variables:").replace(
        "  end_game\n", "  me.points = me.points + bonus\n  end_game\n"
    )
    variant = PATCH.replace(
        "  - {id: king, value: 7}\n",
        "  - {id: bonus, value: 10}\n"
        "  - {id: points, in: player_variables, initial: 2}\n"
        "  - {id: table, description: the relics}\n",
    )
    write(game_folder, {"game.yaml": game, "variants/seven.yaml": variant})
    loaded = load_game(game_folder / "game.yaml", variant="seven")
    assert loaded.new_game(players=2).pvars[0]["points"] == 2 + 3 + 1 + 10
    assert loaded.rules.data["zones"][1] == {"id": "table", "visibility": "public", "description": "the relics"}


def test_a_patch_naming_nothing_or_several_things_says_which(game_folder):
    write(game_folder, {"variants/seven.yaml": PATCH.replace("id: king", "id: kign")})
    with pytest.raises(RulesError) as info:
        load_game(game_folder / "game.yaml", variant="seven")
    [d] = info.value.diagnostics
    assert d.path.endswith("variants/seven.yaml") and d.line == 5 and d.code == "E301"
    assert "nothing has the id 'kign'" in d.message and d.hint == "did you mean 'king'?"
    zone = "{id: table, visibility: public}"
    twice = GAME.replace(zone, zone + "\n  - {id: pawn, visibility: public}")
    write(game_folder, {"game.yaml": twice, "variants/seven.yaml": PATCH.replace("id: king", "id: pawn")})
    with pytest.raises(RulesError, match=r"'pawn' is the id of several things \(items, zones\)"):
        load_game(game_folder / "game.yaml", variant="seven")


def test_a_wrong_value_in_a_patch_is_reported_in_the_variant(game_folder):
    write(game_folder, {"variants/seven.yaml": PATCH.replace("value: 7", "value: seven")})
    with pytest.raises(RulesError) as info:
        load_game(game_folder / "game.yaml", variant="seven")
    [d] = info.value.diagnostics
    assert d.path.endswith("variants/seven.yaml") and d.line == 5, d


def test_diff_shows_only_the_patched_field(game_folder, capsys, monkeypatch):
    write(game_folder, {"variants/seven.yaml": PATCH})
    monkeypatch.chdir(game_folder.parent.parent)
    assert main(["diff", str(game_folder / "game.yaml"), "--variant", "seven"]) == 0
    out = capsys.readouterr().out
    assert "- 3" in out and "+ 7" in out and "text" not in out, out


STEPS = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 2}
zones:
  - {id: table, visibility: public}
variables:
  said: {type: "list[text]"}
play: |
  turn(me)
  end_game
procedures:
  - id: turn
    params: {p: player}
    steps:
      - id: draw
        does: |
          said = said + ["draw"]
      - id: play
        does: |
          said = said + ["play"]
"""

BONUS = """\
extends: mini
id: bonus
name: Mini — a bonus step
patch:
  - id: turn
    steps:
      - id: bonus
        after: draw
        does: |
          said = said + ["bonus " + text(seat_number(p))]
      - {id: play, before: draw}
"""


@pytest.mark.parametrize("reference", [False, True])
def test_a_variant_adds_a_named_step_after_another_and_moves_one_before(tmp_path, reference):
    """The base turn draws then plays; the variant adds a bonus after the draw and moves the play first,
    without restating the procedure."""
    folder = tmp_path / "rules" / "mini"
    write(folder, {"game.yaml": STEPS, "variants/bonus.yaml": BONUS})
    base = load_game(folder / "game.yaml", reference=reference).new_game(players=2)
    assert base.vars["said"] == ["draw", "play"]
    game = load_game(folder / "game.yaml", variant="bonus", reference=reference)
    assert game.new_game(players=2).vars["said"] == ["play", "draw", "bonus 0"]


def test_a_step_placed_after_a_step_that_is_not_there_is_located_in_the_variant(tmp_path):
    folder = tmp_path / "rules" / "mini"
    write(folder, {"game.yaml": STEPS, "variants/bonus.yaml": BONUS.replace("after: draw", "after: drwa")})
    with pytest.raises(RulesError) as info:
        load_game(folder / "game.yaml", variant="bonus")
    [d] = info.value.diagnostics
    assert (d.code, d.line) == ("E301", 8) and d.path.endswith("variants/bonus.yaml")
    assert "'turn' has no step 'drwa'" in d.message and d.hint == "did you mean 'draw'?"


def test_a_mistake_in_a_variants_step_is_reported_at_its_line_in_the_variant(tmp_path):
    folder = tmp_path / "rules" / "mini"
    write(folder, {"game.yaml": STEPS, "variants/bonus.yaml": BONUS.replace("seat_number(p)", "seat_nubmer(p)")})
    with pytest.raises(RulesError) as info:
        load_game(folder / "game.yaml", variant="bonus")
    [d] = info.value.diagnostics
    assert (d.code, d.line) == ("E501", 10) and d.path.endswith("variants/bonus.yaml")


def test_diff_shows_the_added_step_and_the_new_order(tmp_path, capsys):
    folder = tmp_path / "rules" / "mini"
    write(folder, {"game.yaml": STEPS, "variants/bonus.yaml": BONUS})
    assert main(["diff", str(folder / "game.yaml"), "--variant", "bonus"]) == 0
    out = capsys.readouterr().out
    assert '+     said = said + ["bonus " + text(seat_number(p))]' in out, out
    assert "- draw, play\n" in out and "+ play, draw, bonus\n" in out, out
