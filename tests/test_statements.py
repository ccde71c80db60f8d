"""Each statement's one home: its class in ast.py declares how it is written, what the reference says of it,
its effects and its type rule; the grammar, the docs, the checker and both code paths take them from there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.lang import ast, parser
from engine.lang.checker import Vocabulary, check_program
from engine.lang.parser import grammar, parse_program
from engine.lang.types import INT
from engine.runtime.reference import ReferenceCompiler
from engine.tools.doc import language_reference

# One program per statement, in canonical text; a procedure 'step' (giving an int) and a zone 'deck' exist.
SAMPLES = {
    ast.Assign: "x = 1",
    ast.AugAssign: "x = 1\nx += 2",
    ast.Choose: 'x = choose "take" from [1, 2] where it > 1 by me optional "skip" secretly',
    ast.ChooseSeveral: 'x = choose "take" several 1 to 2 from [1, 2, 3]',
    ast.ExprStmt: "shuffle(deck)",
    ast.If: "if true:\n    pass\nelif false:\n    pass\nelse:\n    pass",
    ast.For: "for x in [1, 2]:\n    pass",
    ast.While: "while false:\n    pass",
    ast.Repeat: "repeat 2:\n    pass",
    ast.Break: "while true:\n    break",
    ast.Continue: "repeat 2:\n    continue",
    ast.Window: "window p from me:\n    reopen",
    ast.Reopen: "window p from me:\n    reopen",
    ast.Close: "window p from me:\n    close",
    ast.Log: 'log "now {1 + 1}" to me',
    ast.EndGame: 'end_game "done"',
    ast.Return: "return",
    ast.ReturnValue: "return 1",
    ast.CallAssign: "x = step()",
    ast.Pass: "pass",
}
VOCAB = Vocabulary(zones={"deck": None}, procedures={"step": []}, procedure_returns={"step": INT})


def _nodes(stmts):
    for block in ast.walk_blocks(stmts):
        yield from block


def _checked(text: str, **how) -> tuple[list[ast.Stmt], list]:
    stmts = parse_program(text + "\n")
    return stmts, check_program(stmts, VOCAB, **how)


def _concrete(cls) -> list[type]:
    return [c for sub in cls.__subclasses__() for c in [sub, *_concrete(sub)]]


def test_every_statement_is_declared_once_with_a_sample():
    assert set(_concrete(ast.Stmt)) == set(ast.STATEMENTS) == set(SAMPLES)
    assert len(ast.STATEMENTS) == len(set(ast.STATEMENTS))


@pytest.mark.parametrize("cls", ast.STATEMENTS, ids=lambda c: c.__name__)
def test_a_statement_parses_from_its_syntax_and_prints_back(cls):
    """Its rules are in the grammar (CallAssign has none: the checker makes it of an assignment that calls
    a procedure giving a value), its node is made, and printing gives the text back."""
    if cls.SYNTAX:
        assert cls.SYNTAX in grammar()
    stmts, problems = _checked(SAMPLES[cls], returns=INT if cls is ast.ReturnValue else None)
    assert problems == []
    assert cls in {type(s) for s in _nodes(stmts)}
    assert ast.format_block(stmts) == SAMPLES[cls]


def test_the_grammar_takes_the_statements_from_their_declarations_only():
    """grammar.lark holds expressions and shared parts; a statement is one of ``stmt``'s alternatives
    (through ``simple_stmt`` unless it ends with its block) exactly when it declares its syntax."""
    declared = [c.rule() for c in ast.STATEMENTS if c.SYNTAX]
    assert len(set(declared)) == len(declared)
    base = (Path(parser.__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    assert not any(re.search(rf"^\??{rule}:", base, re.M) for rule in declared)
    alternatives = {
        name: re.findall(r"\w+", re.search(rf"^\?{name}:((?:.|\n\s+\|)*)", grammar(), re.M).group(1))
        for name in ("stmt", "simple_stmt")
    }
    assert alternatives["stmt"] == ["simple_stmt", "_NL"] + [c.rule() for c in ast.STATEMENTS if c.SYNTAX and c.BLOCK]
    assert alternatives["simple_stmt"] == [c.rule() for c in ast.STATEMENTS if c.SYNTAX and not c.BLOCK]


# A call statement changes the game as the operation or procedure it calls declares (tests/test_ops.py).
@pytest.mark.parametrize("cls", [c for c in ast.STATEMENTS if c is not ast.ExprStmt], ids=lambda c: c.__name__)
def test_a_statement_that_changes_the_game_is_refused_in_a_function_for_its_declared_reason(cls):
    """The checker takes a statement's effect from its declaration (``changes``), so a function — which
    computes and changes nothing — may hold exactly the statements that declare none."""
    stmts, problems = _checked(SAMPLES[cls], pure=True, returns=INT if cls is ast.ReturnValue else None)
    [node] = [s for s in _nodes(stmts) if type(s) is cls]
    said = [p.message for p in problems if "changes nothing" in p.message]
    reason = node.changes()
    if reason is None:
        assert said == [] or cls in (ast.Reopen, ast.Close)  # inside the window that changes the game
    else:
        assert any(reason in m for m in said), said


@pytest.mark.parametrize("cls", ast.STATEMENTS, ids=lambda c: c.__name__)
def test_the_reference_compiles_every_statement(cls):
    """The reference path has an instruction builder for each statement."""
    assert hasattr(ReferenceCompiler, f"_s_{cls.__name__}")


def test_the_language_reference_lists_each_declared_form_once():
    text = language_reference()
    text = text[text.index("## Statements") : text.index("## Expressions")]
    forms = [form for cls in ast.STATEMENTS for form, _ in cls.DOCS]
    assert all(text.count(f"| `{form}` |") == 1 for form in forms)
    documented = {cls for cls in ast.STATEMENTS if cls.DOCS}
    # the others are told of in another's row: reopen and close with window, return VALUE with return
    assert set(ast.STATEMENTS) - documented == {ast.Reopen, ast.Close, ast.ReturnValue, ast.CallAssign}
