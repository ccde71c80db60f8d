"""Each expression's one home: its class in ast.py declares its syntax, its text, its type rule and what the
reference says of it; the parser's grammar, the checker and the docs all take each expression from there."""

from __future__ import annotations

import pytest

from engine.lang import ast, parser
from engine.lang.checker import Checker, Vocabulary, check_expression
from engine.lang.parser import parse_expr
from engine.lang.types import BOOL, INT, TEXT, Type, list_of, map_of, parse_type
from engine.tools.doc import language_reference

# One expression per class, in canonical text, with the type it has; a zone 'deck' and a variable 'n' exist.
SAMPLES: dict[type[ast.Expr], tuple[str, Type]] = {
    ast.Literal: ('"red"', TEXT),
    ast.ListExpr: ("[1, 2]", list_of(INT)),
    ast.Comprehension: ("[c.power for c in deck if c.power > 1]", list_of(INT)),
    ast.PairComprehension: ("[a * b for a in [1, 2] for b in range(a, 3) if a != b]", list_of(INT)),
    ast.Record: ("{piece: 1, way: true}", parse_type("{piece:int,way:bool}", {})),
    ast.MapExpr: ('{"a": 2, "b": 0}', map_of(INT)),
    ast.Name: ("n", INT),
    ast.Attr: ("me.points", INT),
    ast.Call: ("size(deck)", INT),
    ast.KeyedCall: ("max(deck, by: it.power)", parse_type("card", {})),
    ast.Conditional: ("1 if n > 2 else 3", INT),
    ast.Unary: ("not true", BOOL),
    ast.Binary: ("n in [1, 2]", BOOL),
}
VOCAB = Vocabulary(
    zones={"deck": None},
    variables={"n": INT},
    player_variables={"points": INT},
    card_attributes={"power": INT},
)


def _concrete(cls) -> list[type]:
    return [c for sub in cls.__subclasses__() for c in [sub, *_concrete(sub)]]


def test_every_expression_is_declared_once_with_a_sample():
    assert set(_concrete(ast.Expr)) == set(ast.EXPRESSIONS) == set(SAMPLES)
    assert len(ast.EXPRESSIONS) == len(set(ast.EXPRESSIONS))


@pytest.mark.parametrize("cls", ast.EXPRESSIONS, ids=lambda c: c.__name__)
def test_an_expression_is_typed_by_its_own_rule_and_prints_back(cls):
    text, wanted = SAMPLES[cls]
    assert "infer" in vars(cls)
    e = parse_expr(text)
    assert type(e) is cls and ast.format_expr(e) == text
    assert check_expression(e, VOCAB) == [] and e.type is wanted
    assert all(inner.type is not None for inner in ast.walk_exprs(e))


def test_the_checker_asks_the_expression_for_its_type(monkeypatch):
    """No list of expression classes in the checker: a class's rule is what the checker follows."""
    monkeypatch.setattr(ast.Unary, "infer", lambda self, c: TEXT)
    e = parse_expr("-1")
    assert Checker(VOCAB).expr(e) is TEXT and e.type is TEXT


def test_the_language_reference_names_every_expression_and_operator_from_its_class():
    text = language_reference()
    section = text[text.index("## Expressions") : text.index("## Reserved words")]
    documented = [cls for cls in ast.EXPRESSIONS if cls.DOCS or cls.OPERATORS]
    assert len(documented) >= 10
    for cls in documented:
        assert cls.DOCS in section
        for form, does in cls.OPERATORS.values():
            assert f"`{form}`" in section and does in section
    operators = {word for cls in ast.EXPRESSIONS for word in cls.OPERATORS}
    assert operators == set(ast._PRECEDENCE)
    assert "Values are numbers (`3`)" in section and " and calls (`size(hand(me))`). " in section


@pytest.mark.parametrize("cls", ast.EXPRESSIONS, ids=lambda c: c.__name__)
def test_an_expressions_forms_are_declared_by_its_class_at_a_level_of_the_ladder(cls):
    assert cls.SYNTAX and all(level in parser.LEVELS for level, _ in cls.SYNTAX)
    rules = parser.expression_rules()
    assert all(alternative in rules for _, alternative in cls.SYNTAX)


def test_the_grammar_of_expressions_is_built_from_the_classes(monkeypatch):
    """Take a form out of its class and the language no longer has it: no copy of it lives elsewhere."""
    monkeypatch.setattr(ast.Conditional, "SYNTAX", ())
    monkeypatch.setattr(parser, "_parser", parser._parser.__wrapped__)
    monkeypatch.setattr(parser, "grammar", parser.grammar.__wrapped__)
    assert "conditional" not in parser.grammar()
    with pytest.raises(parser.DslSyntaxError):
        parse_expr("1 if n > 2 else 3")
