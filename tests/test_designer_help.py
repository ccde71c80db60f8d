"""What a designer reads: the expression grammar and reserved words in `doc --language` and `explain`,
errors that name a reserved word, count/size pointing at each other, `source: original`, `tabletop list`,
and the "writing fast rules" examples."""

from __future__ import annotations

import importlib.util
import itertools
import json
import shutil
from pathlib import Path

import pytest

from engine import load_game
from engine.cli import main
from engine.errors import RulesError
from engine.lang import ast
from engine.lang.parser import DslSyntaxError, _parser, parse_expr, parse_program
from engine.lang.words import IMPLICIT, RESERVED
from engine.load.catalogue import first_sentence
from engine.tools.doc import language_reference

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = sorted(
    t.pattern.value
    for t in _parser().terminals
    if t.pattern.type == "str" and t.pattern.value.replace("_", "").isalpha()
)
BINARY = [op for op in ast._PRECEDENCE if op not in ("if", "not", "neg")]


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------- expression grammar
def test_the_operator_table_follows_the_precedence_table():
    text = language_reference()
    table = text[text.index("## Expressions") : text.index("## Types")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| level")]
    assert [int(row.split("|")[1]) for row in rows] == sorted(set(ast._PRECEDENCE.values()))
    for op, level in ast._PRECEDENCE.items():
        row = next(r for r in rows if int(r.split("|")[1]) == level)
        assert f"`a {op} " in row or op in ("if", "neg", "not"), op


@pytest.mark.parametrize(
    "loose, tight", [(a, b) for a, b in itertools.permutations(BINARY, 2) if ast._PRECEDENCE[a] < ast._PRECEDENCE[b]]
)
def test_the_documented_precedence_is_how_expressions_parse(loose, tight):
    """`x LOOSE y TIGHT z` groups as x LOOSE (y TIGHT z), for every pair of levels the table documents."""
    e = parse_expr(f"x {loose} y {tight} z")
    assert isinstance(e, ast.Binary) and e.op == loose
    assert isinstance(e.right, ast.Binary) and e.right.op == tight


def test_the_language_reference_names_every_reserved_word_and_the_fast_rules():
    text = language_reference()
    words = text[text.index("## Reserved words") :]
    assert all(f"| `{w}`" in words for w in RESERVED)
    assert "## Writing fast rules" in text and "tools/measure_rules.py" in text


# ------------------------------------------------------------ reserved words
def test_every_keyword_of_the_grammar_is_a_documented_reserved_word():
    assert set(KEYWORDS) <= set(RESERVED) and set(RESERVED) - set(KEYWORDS) == set(IMPLICIT)


@pytest.mark.parametrize("word", sorted(RESERVED))
def test_explain_says_what_a_reserved_word_means(word, capsys):
    code, out, _ = cli(capsys, "explain", word)
    assert code == 0 and f"reserved word '{word}'" in out and RESERVED[word] in out


@pytest.mark.parametrize("word", [w for w in KEYWORDS if w not in ("true", "false", "none")])
def test_a_keyword_used_as_a_name_is_called_a_reserved_word(tmp_path, word):
    """Whether the parser stops at it (`close = 2`) or reads it as a name (`and = 2`), the message is one."""
    [d] = problems(mini(tmp_path, "  n = size(deck) + goal\n", f"  n = size(deck) + goal\n  {word} = 2\n"))
    assert d.message == f"'{word}' is a reserved word of the language; it cannot be a name"
    assert (d.line, d.col) == (GAME.splitlines().index("  end_game") + 1, 3)
    assert f"tabletop explain {word}" in d.hint


def test_a_keyword_as_a_loop_name_is_a_reserved_word():
    from engine.lang.checker import Vocabulary, check_program

    found = check_program(parse_program("for close in players():\n    pass\n"), Vocabulary())
    assert [p.message for p in found] == ["'close' is a reserved word of the language; it cannot be a name"]


def test_other_syntax_errors_are_not_blamed_on_reserved_words():
    with pytest.raises(DslSyntaxError) as caught:
        parse_program("x = 1 else\n")
    assert "reserved" not in caught.value.problem.message


# --------------------------------------------------- checks seen in a game
GAME = """\
id: mini
name: Mini
description: A tiny game. It is only for tests.
players: {min: 2, max: 2}
components:
  - kind: card
    start: deck
    items:
      - {id: dud, copies: 3, source: original}
zones:
  - {id: deck, visibility: hidden}
constants:
  goal: 3
variables:
  n: {type: int}
play: |
  n = size(deck) + goal
  end_game
scoring:
  - {id: n, points: n}
"""


def mini(tmp_path: Path, old: str = "", new: str = "") -> Path:
    game_file = tmp_path / "rules" / "mini" / "game.yaml"
    game_file.parent.mkdir(parents=True, exist_ok=True)
    assert not old or GAME.count(old) == 1
    game_file.write_text(GAME.replace(old, new) if old else GAME, encoding="utf-8")
    return game_file


def problems(game_file: Path) -> list:
    with pytest.raises(RulesError) as caught:
        load_game(game_file)
    return caught.value.diagnostics


def test_a_keyword_read_as_a_value_is_called_a_reserved_word(tmp_path):
    [d] = problems(mini(tmp_path, "n = size(deck) + goal", "n = else"))
    assert d.code == "E501" and "'else' is a reserved word of the language" in d.message


def test_close_as_a_name_in_a_rule_file(tmp_path):
    [d] = problems(mini(tmp_path, "n = size(deck) + goal", "close = 2"))
    assert d.code == "E401" and d.message.startswith("'close' is a reserved word of the language")
    assert d.line == GAME.splitlines().index("  n = size(deck) + goal") + 1 and d.col == 3


def test_explain_a_constant(tmp_path, capsys):
    game_file = mini(tmp_path)
    code, out, _ = cli(capsys, "explain", "goal", "--game", str(game_file))
    line = GAME.splitlines().index("  goal: 3") + 1
    assert code == 0 and out.strip().startswith("constant 'goal' = 3   (") and out.strip().endswith(f":{line})")


def test_explain_a_constant_a_variant_sets(capsys):
    code, out, _ = cli(capsys, "explain", "goal", "--game", "cat-town")
    assert code == 0 and "constant 'goal' = 6" in out and "set by this variant" not in out


# -------------------------------------------------------------- source: original
@pytest.mark.parametrize(
    "old, new",
    [
        ("players: {min: 2, max: 2}\n", "players: {min: 2, max: 2}\nsource: original\n"),
        ("", ""),  # an item marked original in GAME itself
    ],
)
def test_designer_made_content_is_source_original(tmp_path, old, new):
    assert load_game(mini(tmp_path, old, new)).id == "mini"


def test_an_unknown_source_is_refused(tmp_path):
    found = problems(mini(tmp_path, "{id: dud, copies: 3, source: original}", "{id: dud, copies: 3, source: invented}"))
    assert [d.code for d in found] == ["E201"] and "original" in found[0].message + (found[0].hint or "")


def test_a_board_may_be_source_original(tmp_path, capsys):
    board = tmp_path / "boards" / "mini" / "room.yaml"
    board.parent.mkdir(parents=True)
    board.write_text(
        "id: room\nkind: grid\nsource: original\ncells: {width: 2, height: 1}\n"
        "rooms:\n  - {id: all, area: [0, 0, 1, 0]}\n",
        encoding="utf-8",
    )
    assert cli(capsys, "validate", str(board))[0] == 0


# ----------------------------------------------------------------------- list
def test_list_shows_every_shipped_game_with_its_first_sentence_and_variants(capsys):
    code, out, _ = cli(capsys, "list")
    lines = out.splitlines()
    shipped = sorted(p.parent.name for p in (ROOT / "rules").glob("*/game.yaml"))
    assert code == 0 and [line.split(" ")[0] for line in lines if not line.startswith(" ")] == shipped
    town = load_game("cat-town")
    expected = first_sentence(town.rules.data["description"])
    assert f"cat-town (2–4 players): {expected}" in lines and expected.endswith(".") and "\n" not in expected
    assert "    variant easy: No Search actions." in lines


def test_list_a_folder_and_as_json(tmp_path, capsys):
    mini(tmp_path)
    (tmp_path / "rules" / "mini" / "variants").mkdir()
    (tmp_path / "rules" / "mini" / "variants" / "long.yaml").write_text(
        "extends: mini\nid: long\nname: Mini — long\ndescription: Play to 5. Slower.\nconstants: {goal: 5}\n"
    )
    (tmp_path / "rules" / "broken").mkdir()
    (tmp_path / "rules" / "broken" / "game.yaml").write_text("id: [\n")
    code, out, _ = cli(capsys, "list", str(tmp_path / "rules"), "--json")
    games = json.loads(out)
    assert code == 0 and [g["id"] for g in games] == ["broken", "mini"]
    assert games[1]["description"] == "A tiny game." and games[1]["players"] == [2, 2]
    assert games[1]["variants"] == [{"id": "long", "name": "Mini — long", "description": "Play to 5.", "problem": None}]
    assert games[0]["problem"].startswith("rules/broken/game.yaml:") or "E102" in games[0]["problem"]
    code, out, _ = cli(capsys, "list", str(tmp_path / "rules"))
    assert "broken: cannot be read:" in out and "mini (2–2 players): A tiny game." in out


def test_list_shows_a_variant_that_does_not_parse_with_its_error(tmp_path, capsys):
    """A designer's half-written variant is listed, marked, with the line that is wrong: not silently left out."""
    game = tmp_path / "caty-mini"
    shutil.copytree(ROOT / "rules" / "caty-mini", game)
    (game / "variants" / "draft.yaml").write_text("extends: caty-mini\nname: [Draft\n")
    code, out, _ = cli(capsys, "list", str(tmp_path))
    draft = [line for line in out.splitlines() if line.startswith("    variant draft:")]
    assert code == 0 and len(draft) == 1
    assert draft[0].startswith("    variant draft: cannot be read: ") and "draft.yaml:" in draft[0]
    assert "    variant older-players: " in out  # the others as before
    code, out, _ = cli(capsys, "list", str(tmp_path), "--json")
    variants = {v["id"]: v for v in json.loads(out)[0]["variants"]}
    assert "draft.yaml:" in variants["draft"]["problem"] and variants["older-players"]["problem"] is None


def test_list_of_what_is_not_a_folder_is_a_usage_error(tmp_path, capsys):
    code, _, err = cli(capsys, "list", str(tmp_path / "none"))
    assert code == 2 and "is not a folder" in err


# -------------------------------------------------------------- fast rules
def test_each_fast_rules_pair_computes_the_same_thing():
    """The docs' measured pairs are honest: both ways give the same result (timing is the tool's job)."""
    spec = importlib.util.spec_from_file_location("measure_rules", ROOT / "tools" / "measure_rules.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for title, (fast, slow) in tool.PAIRS.items():
        a = tool.game_for(fast).new_game(players=2, seed=0).scores
        b = tool.game_for(slow).new_game(players=2, seed=0).scores
        assert a == b and a[0] > 0, title
