"""Text → AST.  The LALR parser is built once per process and cached.

Parse errors are reported in words a designer knows ("a name", "end of
line"), at the line and column inside the DSL text; callers map that to the
YAML file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import ClassVar

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from . import ast, words
from .problems import DslProblem, DslSyntaxError

MAX_SOURCE_CHARS = 20_000
MAX_NESTING = 60  # brackets and blocks; deeper is refused before parsing


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def process(self, stream):
        # As lark's, but an unmatched ')' is a syntax error, not an AssertionError (through the public hook).
        return super().process(self._balanced(stream))

    def _balanced(self, stream):
        depth = 0
        for token in stream:
            if token.type in self.OPEN_PAREN_types:
                depth += 1
            elif token.type in self.CLOSE_PAREN_types:
                depth -= 1
                if depth < 0:
                    raise DslSyntaxError(DslProblem(token.line, token.column, "E401", f"unmatched '{token}'"))
            yield token

    def handle_NL(self, token):
        # As lark's, but a dedent to no outer block is located at the line it starts (lark's carries none).
        try:
            yield from super().handle_NL(token)
        except DedentError:
            line = token.end_line or token.line or 1
            column = len(token.rsplit("\n", 1)[1]) + 1
            raise DslSyntaxError(
                DslProblem(line, column, "E402", "indentation does not match any outer block")
            ) from None


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("engine.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        postlex=_Indenter(),
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
        cache=False,
    )


_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a "text"',
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of the block",
    "$END": "end of text",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "DOT": "'.'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "COMP_OP": "a comparison",
}


def _word(term: str) -> str:
    if term in _WORDS:
        return _WORDS[term]
    pattern = _parser().get_terminal(term).pattern if term in {t.name for t in _parser().terminals} else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return term.lower()


def _expected(expected) -> str:
    words = sorted({_word(t) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of text"
    if token.type == "_NL":
        return "end of line"
    if token.type in ("_INDENT", "_DEDENT"):
        return "a change of indentation"
    return f"'{token}'"


def _check_nesting(source: str) -> None:
    depth = max_depth = 0
    for ch in source:
        if ch in "([{":
            depth += 1
            max_depth = max(max_depth, depth)
        elif ch in ")]}":
            depth -= 1
    indents = [len(line) - len(line.lstrip(" ")) for line in source.splitlines() if line.strip()]
    blocks = len(set(indents))
    if max_depth > MAX_NESTING or blocks > MAX_NESTING:
        raise DslSyntaxError(DslProblem(1, 1, "E403", f"expression nested deeper than {MAX_NESTING} levels"))


def _convert_error(exc: Exception) -> DslProblem:
    if isinstance(exc, DslSyntaxError):
        return exc.problem
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        reserved = _reserved_word(tok, exc.token_history, exc.accepts or exc.expected)
        if reserved is not None:
            return reserved
        line = tok.line if tok.line is not None else exc.line
        col = tok.column if tok.column is not None else exc.column
        return DslProblem(
            line or 1,
            col or 1,
            "E401",
            f"unexpected {_describe(tok)}; expected {_expected(exc.accepts or exc.expected)}",
        )
    if isinstance(exc, UnexpectedCharacters):
        return DslProblem(
            exc.line,
            exc.column,
            "E401",
            f"unexpected character {exc.char!r}",
            "text goes in double quotes" if exc.char == "'" else None,
        )
    if isinstance(exc, UnexpectedEOF):
        return DslProblem(1, 1, "E401", f"unexpected end of text; expected {_expected(exc.expected)}")
    if isinstance(exc, UnexpectedInput):
        return DslProblem(getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1, "E401", str(exc))
    return DslProblem(1, 1, "E401", str(exc))


def _is_keyword(token) -> bool:
    return token is not None and token.type == str(token).upper() and str(token) in words.RESERVED


def _reserved_word(tok: Token, history, expected) -> DslProblem | None:
    """A keyword written where a name goes (``close = 2``, ``x = else``) is named as what it is."""
    word = (
        history[-1]
        if tok.type == "EQUAL" and history and _is_keyword(history[-1])
        else tok
        if _is_keyword(tok) and "NAME" in expected
        else None
    )
    if word is None:
        return None
    return DslProblem(
        word.line or 1,
        word.column or 1,
        "E401",
        f"'{word}' is a reserved word of the language; it cannot be a name",
        f"choose another name; `tabletop explain {word}` says what '{word}' means",
    )


def _pos(meta_or_token) -> tuple[int, int]:
    line = getattr(meta_or_token, "line", None)
    col = getattr(meta_or_token, "column", None)
    return (line or 1, col or 1)


_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _binary(op: str) -> Callable:
    """A transformer method building a binary expression of ``op``."""

    def build(self, meta, items):
        return ast.Binary(*_pos(meta), op, items[0], items[-1])

    return build


@v_args(meta=True)
class _ToAst(Transformer):
    """lark tree → ast nodes."""

    # statements
    def start(self, meta, items):
        return [i for i in items if i is not None]

    def suite(self, meta, items):
        return [i for i in items if i is not None]

    def assign(self, meta, items):
        return ast.Assign(*_pos(meta), items[0], items[1])

    def choose_stmt(self, meta, items):
        target, verb, source, where, by, optional, secret = items
        each, by = by if isinstance(by, tuple) else (None, by)
        s = ast.Choose(
            *_pos(meta), target, verb[1:-1] if verb is not None else "", source, where, by, optional, secret is not None
        )
        s.each, s.together = each, secret == "together"
        return s

    def choose_several_stmt(self, meta, items):
        target, verb, low, high, source, where, by, secret = items
        return ast.ChooseSeveral(
            *_pos(meta),
            target,
            verb[1:-1] if verb is not None else "",
            source,
            where,
            by,
            None,
            secret is not None,
            low=low,
            high=high,
        )

    def where(self, meta, items):
        return items[0]

    def by(self, meta, items):
        return items[0]

    def by_each(self, meta, items):
        """'by each p in SEATS': (the seat's name, SEATS)."""
        return (str(items[0]), items[1])

    def to(self, meta, items):
        return items[0]

    def optional(self, meta, items):
        """The id of declining: "pass" unless the rule names it (``optional "draw"``)."""
        return items[0][1:-1] if items[0] is not None else "pass"

    def secret(self, meta, items):
        return True

    def together(self, meta, items):
        return "together"

    def expr_stmt(self, meta, items):
        return ast.ExprStmt(*_pos(meta), items[0])

    def log_stmt(self, meta, items):
        token, to = items
        return ast.Log(*_pos(meta), _template(token), to)

    def end_stmt(self, meta, items):
        return ast.EndGame(*_pos(meta), items[0][1:-1] if items[0] is not None else "")

    def pass_stmt(self, meta, items):
        return ast.Pass(*_pos(meta))

    def return_stmt(self, meta, items):
        return ast.Return(*_pos(meta))

    def return_value_stmt(self, meta, items):
        return ast.ReturnValue(*_pos(meta), items[0])

    def reopen_stmt(self, meta, items):
        return ast.Reopen(*_pos(meta))

    def close_stmt(self, meta, items):
        return ast.Close(*_pos(meta))

    def window_stmt(self, meta, items):
        return ast.Window(*_pos(meta), str(items[0]), items[1], items[2])

    def name_target(self, meta, items):
        return ast.Name(*_pos(items[0]), str(items[0]))

    def attr_target(self, meta, items):
        return ast.Attr(*_pos(meta), items[0], str(items[1]))

    def if_stmt(self, meta, items):
        cond, body, *rest = items
        branches = [(cond, body)]
        otherwise = None
        for item in rest:
            if item is None:
                continue
            if isinstance(item, tuple) and item[0] == "elif":
                branches.append((item[1], item[2]))
            else:
                otherwise = item[1]
        return ast.If(*_pos(meta), branches, otherwise)

    def elif_branch(self, meta, items):
        return ("elif", items[0], items[1])

    def else_(self, meta, items):
        return ("else", items[0])

    def for_stmt(self, meta, items):
        return ast.For(*_pos(meta), str(items[0]), items[1], items[2])

    def while_stmt(self, meta, items):
        return ast.While(*_pos(meta), items[0], items[1])

    def repeat_stmt(self, meta, items):
        return ast.Repeat(*_pos(meta), items[0], items[1])

    # expressions
    def cond_expr(self, meta, items):
        return ast.Conditional(*_pos(meta), items[0], items[1], items[2])

    or_op = _binary("or")
    and_op = _binary("and")
    in_op = _binary("in")
    not_in_op = _binary("not in")
    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    div = _binary("//")
    mod = _binary("%")

    def compare(self, meta, items):
        return ast.Binary(*_pos(meta), str(items[1]), items[0], items[2])

    def not_op(self, meta, items):
        return ast.Unary(*_pos(meta), "not", items[0])

    def neg(self, meta, items):
        return ast.Unary(*_pos(meta), "-", items[0])

    def attr(self, meta, items):
        return ast.Attr(*_pos(items[1]), items[0], str(items[1]))  # placed at the attribute's name

    def call(self, meta, items):
        name, *args = items
        return ast.Call(*_pos(meta), str(name), [a for a in args if a is not None])

    def keyed_call(self, meta, items):
        name, source, key = items
        return ast.KeyedCall(*_pos(meta), str(name), source, key)

    def name(self, meta, items):
        return ast.Name(*_pos(meta), str(items[0]))

    def number(self, meta, items):
        if len(items[0]) > 18:
            raise DslSyntaxError(
                DslProblem(
                    *_pos(meta), "E403", f"number {str(items[0])[:12]}… is too long", "numbers have at most 18 digits"
                )
            )
        return ast.Literal(*_pos(meta), int(items[0]))

    def string(self, meta, items):
        return ast.Literal(*_pos(meta), str(items[0])[1:-1])

    def true(self, meta, items):
        return ast.Literal(*_pos(meta), True)

    def false(self, meta, items):
        return ast.Literal(*_pos(meta), False)

    def none(self, meta, items):
        return ast.Literal(*_pos(meta), None)

    def list(self, meta, items):
        return ast.ListExpr(*_pos(meta), [i for i in items if i is not None])

    def record(self, meta, items):
        return ast.Record(*_pos(meta), items)

    def map(self, meta, items):
        return ast.MapExpr(*_pos(meta), [i for i in items if i is not None])

    def map_entry(self, meta, items):
        return (str(items[0])[1:-1], items[1])

    def field(self, meta, items):
        return (str(items[0]), items[1])

    def comprehension(self, meta, items):
        element, var, source, condition = items
        return ast.Comprehension(*_pos(meta), element, str(var), source, condition)


def _template(token: Token) -> list:
    """Split a log text into literal parts and parsed ``{expression}`` parts."""
    text = str(token)[1:-1]
    line, column = token.line or 1, token.column or 1  # lark types them optional; lexed tokens have them
    parts: list = []
    last = 0
    for m in _PLACEHOLDER.finditer(text):
        if m.start() > last:
            parts.append(text[last : m.start()])
        try:
            expr = parse_expr(m.group(1))
        except DslSyntaxError as exc:
            p = exc.problem
            raise DslSyntaxError(
                DslProblem(line, column + 1 + m.start(1) + p.col - 1, p.code, p.message, p.hint)
            ) from None
        _shift(expr, line - 1, column + m.start(1))
        parts.append(expr)
        last = m.end()
    if last < len(text):
        parts.append(text[last:])
    return parts


def _shift(expr: ast.Expr, lines: int, cols: int) -> None:
    from .ast import walk_exprs

    for e in walk_exprs(expr):
        e.line += lines
        e.col += cols


def _parse(text: str, start: str):
    if len(text) > MAX_SOURCE_CHARS:
        raise DslSyntaxError(DslProblem(1, 1, "E403", f"effect text longer than {MAX_SOURCE_CHARS} characters"))
    _check_nesting(text)
    try:
        tree = _parser().parse(text, start=start)
        return _ToAst().transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, DslSyntaxError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise DslSyntaxError(DslProblem(1, 1, "E403", "expression nested too deeply")) from None
        raise
    except (LarkError, DslSyntaxError) as exc:
        raise DslSyntaxError(_convert_error(exc)) from None
    except RecursionError:
        raise DslSyntaxError(DslProblem(1, 1, "E403", "expression nested too deeply")) from None


def parse_program(text: str) -> list[ast.Stmt]:
    """Parse statements; raises DslSyntaxError."""
    if not text.endswith("\n"):
        text += "\n"
    return _parse(text, "start")


def parse_expr(text: str) -> ast.Expr:
    """Parse one expression (scoring terms, tie-breakers, start zones)."""
    return _parse(text.strip("\n"), "expr")
