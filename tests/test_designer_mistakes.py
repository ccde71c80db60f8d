"""Deliberate designer mistakes in patches and named steps, derived bounds, `winner:`, board lines, dice, the
house, kinds, loops, seat names, YAML, record types and `several`: each is found when the rules load,
located at its file, line and column, in one line with a hint that says what to write instead — never at
run time, never a traceback.

Each mistake is one edit of a small game (or of a shipped gallery game): the table gives the edit, the
code expected, the text the diagnostic points at, and a word of its hint."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import RulesError, load_game
from engine.cli import main

REPO = Path(__file__).resolve().parents[1]

CARDS = """\
id: mini
name: Mini
players: {min: 2, max: 2, names: [Red, Blue]}
components:
  - kind: card
    attributes: {value: int}
    start: deck
    items:
      - {id: king, value: 3, text: The king.}
      - {id: pawn, value: 1, copies: 2}
zones:
  - {id: deck, visibility: public}
  - {id: hand, per: player, visibility: owner}
constants:
  most: 3
variables:
  said: {type: "list[text]"}
  moves: {type: "list[{piece: card, steps: int}]"}
player_variables:
  points: {type: int}
  purse: {type: int, initial: 5, max: 5}
play: |
  turn(me)
  for c in deck:
      me.points += c.value
  bid = choose "bid" from range(1, me.purse + 1)
  me.purse = me.purse - bid + 1
  kept = choose "keep" several 1 to most from deck
  moves = [{piece: c, steps: c.value} for c in kept]
  end_game
procedures:
  - id: turn
    params: {p: player}
    steps:
      - id: draw
        does: |
          said += ["draw"]
      - id: play
        does: |
          said += ["play"]
scoring:
  - {id: points, points: p.points}
"""

VARIANT = """\
extends: mini
id: changed
name: Mini changed
patch:
  - {id: king, value: 7}
"""

STEP = """\
extends: mini
id: changed
name: Mini changed
patch:
  - id: turn
    steps:
      - id: bonus
        after: draw
        does: |
          said += ["bonus"]
"""

TRACK = """\
id: track
kind: graph
source: original
nodes: [s1, s2, s3]
edges: [[s1, s2], [s2, s3]]
"""

BASES = {"cards": CARDS}


@dataclass(frozen=True)
class Mistake:
    """One mistake: ``edits`` of (file, old, new) on a base game (``old`` empty: the file is written as
    ``new``), and where its diagnostic must point: ``at`` in ``file`` (the ``nth`` occurrence there)."""

    name: str
    base: str
    edits: tuple[tuple[str, str, str], ...]
    code: str
    at: str
    hint: str
    file: str = "game.yaml"
    nth: int = 1
    variant: str | None = None


MISTAKES = [
    # ------------------------------------------------------------------ patch: and named steps
    Mistake(
        "patch of an unknown id",
        "cards",
        (("variants/changed.yaml", "", VARIANT.replace("id: king", "id: kign")),),
        "E301",
        "kign",
        "did you mean 'king'",
        file="variants/changed.yaml",
        variant="changed",
    ),
    Mistake(
        "patch of a field the item lacks",
        "cards",
        (("variants/changed.yaml", "", VARIANT.replace("value: 7", "valeu: 7")),),
        "E302",
        "valeu",
        "did you mean 'value'",
        file="variants/changed.yaml",
        variant="changed",
    ),
    Mistake(
        "patch of a misspelt item key",
        "love-letter",
        (("variants/x.yaml", "", "extends: love-letter\nid: x\nname: X\npatch:\n  - {id: guard, copeis: 3}\n"),),
        "E302",
        "copeis",
        "did you mean 'copies'",
        file="variants/x.yaml",
        variant="x",
    ),
    Mistake(
        "patch with a wrong-typed value",
        "cards",
        (("variants/changed.yaml", "", VARIANT.replace("value: 7", "value: seven")),),
        "E303",
        "seven",
        "a whole number",
        file="variants/changed.yaml",
        variant="changed",
    ),
    Mistake(
        "step after an unknown step",
        "cards",
        (("variants/changed.yaml", "", STEP.replace("after: draw", "after: drwa")),),
        "E301",
        "drwa",
        "did you mean 'draw'",
        file="variants/changed.yaml",
        variant="changed",
    ),
    Mistake(
        "step before an unknown step",
        "cards",
        (("variants/changed.yaml", "", STEP.replace("after: draw", "before: ply")),),
        "E301",
        "ply",
        "did you mean 'play'",
        file="variants/changed.yaml",
        variant="changed",
    ),
    Mistake(
        "two steps of one name",
        "cards",
        (("game.yaml", "      - id: play\n", "      - id: draw\n"),),
        "E304",
        "draw",
        "rename",
        nth=3,
    ),
    # ------------------------------------------------------------------ derived bounds
    Mistake(
        "a bet bounded by a variable with no max",
        "cards",
        (("game.yaml", "initial: 5, max: 5}", "initial: 5}"),),
        "E508",
        'bid = choose "bid"',
        "max: N",
    ),
    Mistake(
        "a start value outside its min: and max:",
        "cards",
        (("game.yaml", "initial: 5, max: 5}", "initial: 6, max: 5}"),),
        "E303",
        "6, max",
        "raise max:",
    ),
    # ------------------------------------------------------------------ winner:
    Mistake(
        "winner misspelt",
        "cards",
        (("game.yaml", "scoring:\n", "winner: lowset\nscoring:\n"),),
        "E201",
        "lowset",
        "lowest",
    ),
    # ------------------------------------------------------------------ board operations
    Mistake(
        "a direction the board lacks",
        "connect-four",
        (("game.yaml", 'line(rack, entry, "south", empty)) == 0', 'line(rack, entry, "sotuh", empty)) == 0'),),
        "E507",
        '"sotuh"',
        "did you mean 'south'",
    ),
    Mistake(
        "row of a board without coordinates",
        "connect-four",
        (
            ("track.yaml", "", TRACK),
            ("game.yaml", "boards:\n", "boards:\n  - {id: track, files: [track.yaml]}\n"),
            ("game.yaml", "{row(rack, s) + 1}", "{row(track, s) + 1}"),
        ),
        "E502",
        "track, s)",
        "graph",
    ),
    Mistake(
        "a line condition that is not a boolean",
        "connect-four",
        (
            (
                "game.yaml",
                'line(rack, entry, "south", empty)) == 0',
                'line(rack, entry, "south", [e for e in spaces(rack) if size(space(e))])) == 0',
            ),
        ),
        "E502",
        "size(space(e))",
        "== 0",
    ),
    # ------------------------------------------------------------------ dice
    Mistake(
        "an unknown face",
        "liars-dice",
        (("game.yaml", "size(showing(dice, 1))", "size(showing(dice, 7))"),),
        "E507",
        "7))",
        "1, 2, 3, 4, 5, 6",
    ),
    Mistake(
        "rolling what is not a die",
        "liars-dice",
        (("game.yaml", "roll(cup(p))", "roll(p)"),),
        "E502",
        "p)\n      bid = none",
        "cup(p)",
    ),
    Mistake(
        "reading the faces of a zone of cards",
        "blackjack",
        (("game.yaml", 'log "Dealer has blackjack"', 'log "Dealer shows {faces(dealer)}"'),),
        "E501",
        "faces(dealer)",
        "faces: [1, 2",
    ),
    # ------------------------------------------------------------------ the house
    Mistake(
        "two houses",
        "blackjack",
        (("game.yaml", "\nplay: |\n", "\nhouse:\n  name: Bank\n  plays: dealer_plays\n  points: stake\n\nplay: |\n"),),
        "E103",
        "house:",
        "keep one 'house'",
        nth=2,
    ),
    Mistake(
        "a house procedure asking a choice",
        "blackjack",
        (
            (
                "game.yaml",
                "  - id: dealer_plays\n    does: |\n",
                '  - id: dealer_plays\n    does: |\n      x = choose "hit" from [1, 2]\n',
            ),
        ),
        "E505",
        "x = choose",
        "decides nothing",
    ),
    Mistake(
        "a house procedure taking parameters",
        "blackjack",
        (
            (
                "game.yaml",
                "  - id: dealer_plays\n    does: |\n",
                "  - id: dealer_plays\n    params: {n: int}\n    does: |\n",
            ),
            ("game.yaml", "      dealer_plays()\n", "      dealer_plays(17)\n"),
        ),
        "E301",
        "dealer_plays\n",
        "variables",
    ),
    Mistake(
        "an outcome against a house in a game without one",
        "cards",
        (("game.yaml", "points: p.points}", "points: p.points - house}"),),
        "E501",
        "house}",
        "house:",
    ),
    # ------------------------------------------------------------------ kinds
    Mistake(
        "one per kind over a list that is not of cards",
        "love-letter",
        (("game.yaml", "from kinds(hand(me))", "from kinds(players())"),),
        "E502",
        "players()) where",
        "a zone",
    ),
    Mistake(
        "a kind used as a card",
        "love-letter",
        (("game.yaml", "move(card_of(cards(hand(me)), k), discard(me))", "move(k, discard(me))"),),
        "E502",
        "k, discard(me))",
        "card_of(",
    ),
    # ------------------------------------------------------------------ loops and updates
    Mistake(
        "break outside a loop",
        "cards",
        (("game.yaml", "  end_game\n", "  break\n  end_game\n"),),
        "E505",
        "break",
        "return",
    ),
    Mistake(
        "continue outside a loop",
        "cards",
        (("game.yaml", "  end_game\n", "  continue\n  end_game\n"),),
        "E505",
        "continue",
        "return",
    ),
    Mistake(
        "+= on a card's attribute",
        "cards",
        (("game.yaml", "      me.points += c.value", "      c.value += 1"),),
        "E505",
        "c.value += 1",
        "variable",
    ),
    Mistake(
        "+= on a count",
        "cards",
        (("game.yaml", "      me.points += c.value", "      size(deck) += c.value"),),
        "E401",
        "+= c.value",
        "me.points +=",
    ),
    Mistake(
        "+= on a constant",
        "cards",
        (("game.yaml", "      me.points += c.value", "      most += c.value"),),
        "E505",
        "most += c.value",
        "variables:",
    ),
    Mistake(
        "+= of a number to a list",
        "cards",
        (("game.yaml", '          said += ["draw"]', "          said += 1"),),
        "E506",
        "said += 1",
        "[1]",
    ),
    Mistake(
        "a two-for comprehension using a name before its for",
        "cards",
        (
            (
                "game.yaml",
                "{piece: c, steps: c.value} for c in kept]",
                "{piece: k, steps: n} for n in range(k.value) for k in kept]",
            ),
        ),
        "E501",
        "k.value) for",
        "for k in kept for n in",
    ),
    # ------------------------------------------------------------------ seat names
    Mistake(
        "fewer seat names than seats",
        "cards",
        (("game.yaml", "names: [Red, Blue]", "names: [Red]"),),
        "E301",
        "[Red]",
        "names: [",
    ),
    Mistake(
        "two seats of one name",
        "cards",
        (("game.yaml", "names: [Red, Blue]", "names: [Red, Red]"),),
        "E201",
        "Red]",
        "once",
    ),
    # ------------------------------------------------------------------ YAML
    Mistake(
        "unquoted ': '",
        "cards",
        (("game.yaml", "name: Mini\n", "name: Mini: the small game\n"),),
        "E102",
        ": the small",
        "double quotes",
    ),
    Mistake(
        "a more-indented folded continuation",
        "connect-four",
        (("game.yaml", "\n      else (500", "\n        else (500"),),
        "E401",
        "else (500",
        "end the line above with",
    ),
    # ------------------------------------------------------------------ record types
    Mistake(
        "a record type with an unknown field type",
        "cards",
        (("game.yaml", "{piece: card, steps: int}", "{piece: crad, steps: int}"),),
        "E302",
        '"list[{piece: crad',
        "did you mean 'card'",
    ),
    Mistake(
        "an option record missing a field its type declares",
        "cards",
        (
            (
                "game.yaml",
                "  moves = [{piece: c, steps: c.value} for c in kept]\n",
                '  pick = choose "move" from [{piece: c, steps: c.value} for c in kept] + [{piece: top(deck)}]\n'
                "  moves = [pick]\n",
            ),
        ),
        "E506",
        "[pick]",
        "give every record its 'steps'",
    ),
    Mistake(
        "a record literal missing a field its type declares",
        "cards",
        (("game.yaml", "[{piece: c, steps: c.value} for", "[{piece: c} for"),),
        "E506",
        "[{piece: c} for",
        "steps",
    ),
    Mistake(
        "a record start value missing a field its type declares",
        "cards",
        (
            (
                "game.yaml",
                '  said: {type: "list[text]"}\n',
                '  said: {type: "list[text]"}\n  last: {type: "{piece: text, steps: int}", initial: {piece: king}}\n',
            ),
        ),
        "E303",
        "{piece: king}",
        "steps:",
    ),
    Mistake(
        "a record literal with an extra field",
        "cards",
        (("game.yaml", "{piece: c, steps: c.value}", "{piece: c, steps: c.value, by: me}"),),
        "E506",
        "[{piece: c, steps: c.value, by",
        "declare the field",
    ),
    # ------------------------------------------------------------------ several
    Mistake(
        "reversed several bounds",
        "cards",
        (("game.yaml", "several 1 to most", "several most to 1"),),
        "E505",
        "most to 1",
        "several 1 to 3",
    ),
    Mistake(
        "reversed several bounds computed from constants",
        "cards",
        (("game.yaml", "several 1 to most", "several most + 1 to most"),),
        "E505",
        "most + 1",
        "several",
    ),
    Mistake(
        "reversed several bounds derived from a variable's max",
        "cards",
        (("game.yaml", "several 1 to most", "several 6 to me.purse"),),
        "E505",
        "6 to",
        "max",
    ),
    Mistake(
        "several up to a negative number",
        "cards",
        (("game.yaml", "several 1 to most", "several 0 to most - 4"),),
        "E505",
        "most - 4",
        "0 or more",
    ),
]


def written(tmp_path: Path, mistake: Mistake) -> Path:
    """The base game with the mistake made, in tmp_path/rules/GAME; its game.yaml."""
    if mistake.base in BASES:
        folder = tmp_path / "rules" / "mini"
        folder.mkdir(parents=True)
        (folder / "game.yaml").write_text(BASES[mistake.base], encoding="utf-8")
    else:
        folder = tmp_path / "rules" / mistake.base
        shutil.copytree(REPO / "rules" / mistake.base, folder)
    for name, old, new in mistake.edits:
        path = folder / name
        if not old:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8")
            continue
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    return folder / "game.yaml"


def place(path: Path, needle: str, nth: int) -> tuple[int, int]:
    """1-based (line, col) of the ``nth`` ``needle`` in the file at ``path``."""
    text = path.read_text(encoding="utf-8")
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


@pytest.mark.parametrize("variant", [None, VARIANT, STEP], ids=["base", "patch", "step"])
def test_the_small_game_and_its_variants_load_without_the_mistakes(tmp_path, variant):
    """Each mistake is the one edit that breaks them (the gallery games load in their own tests)."""
    game = written(tmp_path, Mistake("none", "cards", (), "", "", ""))
    if variant is not None:
        (game.parent / "variants").mkdir()
        (game.parent / "variants" / "changed.yaml").write_text(variant, encoding="utf-8")
    assert load_game(game, None if variant is None else "changed").new_game(players=2).legal_actions()


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.name for m in MISTAKES])
def test_a_mistake_is_found_at_load_where_it_is_with_a_hint(tmp_path, mistake):
    game = written(tmp_path, mistake)
    with pytest.raises(RulesError) as info:
        load_game(game, mistake.variant)
    found = info.value.diagnostics
    line, col = place(game.parent / mistake.file, mistake.at, mistake.nth)
    shown = "\n".join(d.format(with_context=False) for d in found)
    d = next((d for d in found if d.code == mistake.code), None)
    assert d is not None, shown
    assert d.path.endswith(f"{game.parent.name}/{mistake.file}") and (d.line, d.col) == (line, col), shown
    assert d.hint and mistake.hint in d.hint, shown
    assert "\n" not in d.format(with_context=False) and "Traceback" not in shown


@pytest.mark.parametrize("mistake", MISTAKES[::4], ids=[m.name for m in MISTAKES[::4]])
def test_validate_reports_the_mistake_in_one_line_at_its_place(tmp_path, mistake, capsys, monkeypatch):
    """`tabletop validate` of the game's folder, as a designer runs it, prints the same located line (every
    fourth mistake of the table: the command reads the files as load_game does)."""
    game = written(tmp_path, mistake)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", str(game.parent.relative_to(tmp_path))]) == 1
    out = capsys.readouterr()
    line, col = place(game.parent / mistake.file, mistake.at, mistake.nth)
    where = f"{game.parent.relative_to(tmp_path) / mistake.file}:{line}:{col}: {mistake.code} "
    assert any(row.startswith(where) for row in (out.out + out.err).splitlines()), out
    assert "Traceback" not in out.out + out.err
