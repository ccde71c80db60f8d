"""A text of the effect language is parsed once per process (engine/lang/parser.py): loading a game again, or a
variant after its game, builds each AST anew from the kept parse tree."""

from __future__ import annotations

from cache_helpers import counter

import engine
from engine.lang import parser
from engine.lang.parser import parse_program
from engine.load.kept import Kept


def test_a_variant_loaded_after_its_game_parses_none_of_the_texts_they_share(monkeypatch):
    """Only the texts the variant itself writes are parsed; the game's were parsed as it loaded."""
    monkeypatch.setattr(parser, "_TREES", Kept(4096))  # none kept from the tests before
    engine.load_game("caty-mini")
    parsed = counter(monkeypatch, parser._parser(), "parse")
    engine.load_game("caty-mini", "older-players")
    assert parsed[0] == 1  # the one text the variant writes: its scoring's points


def test_the_same_text_gives_each_caller_an_ast_of_its_own():
    """The checker writes types and the loader shifts positions into an AST: a second parse of the same text is
    not touched by what was done to the first."""
    text = 'x = 1\nif x > 0:\n    log "{x}"\n'
    first, second = parse_program(text), parse_program(text)
    (condition, body), (_, other_body) = first[1].branches[0], second[1].branches[0]
    assert first[1] is not second[1] and body is not other_body
    first[1].line += 10
    condition.type = None
    body.clear()
    assert second[1].line == 2 and len(second[1].branches[0][1]) == 1
    assert parse_program(text)[1].line == 2
