"""Text → AST.  The LALR parser is built once per process and cached.

Parse errors are reported in words a designer knows ("a name", "end of
line"), at the line and column inside the DSL text; callers map that to the
YAML file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import ClassVar

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from engine.lang import ast, words
from engine.lang.problems import DslProblem, DslSyntaxError
from engine.load.kept import Kept

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


# The precedence ladder, loosest first: each level is the next one, or a form an expression class declares
# at that level (``ast.Expr.SYNTAX``); an atom may also be an expression in parentheses.
LEVELS = (
    "expr",
    "ternary",
    "or_expr",
    "and_expr",
    "not_expr",
    "comparison",
    "sum",
    "product",
    "unary",
    "postfix",
    "atom",
)


def expression_rules() -> str:
    """The expressions' rules: one per level of ``LEVELS``, with the forms each class declares there."""
    forms: dict[str, list[str]] = {level: [] for level in LEVELS}
    for cls in ast.EXPRESSIONS:
        for level, alternative in cls.SYNTAX:
            forms[level].append(alternative)
    forms["atom"].append('"(" expr ")"')
    rules = []
    for level, looser in zip(LEVELS, LEVELS[1:] + ("",)):
        alternatives = ([looser] if looser else []) + forms[level]
        rules.append(f"?{level}: " + "\n    | ".join(alternatives))
    return "\n".join(rules)


@lru_cache(maxsize=1)
def grammar() -> str:
    """The language's grammar: grammar.lark's parts, each expression's forms as its class declares them at
    its level of the precedence ladder (``ast.Expr.SYNTAX``), and each statement's rules as it declares them
    (``ast.Stmt.SYNTAX``); a statement with a block ends there, the others at the end of their line."""
    stated = [cls for cls in ast.STATEMENTS if cls.SYNTAX]
    blocks = [cls.rule() for cls in stated if cls.BLOCK]
    lines = [cls.rule() for cls in stated if not cls.BLOCK]
    return "\n".join(
        [
            resources.files("engine.lang").joinpath("grammar.lark").read_text(encoding="utf-8"),
            expression_rules(),
            "?stmt: simple_stmt _NL" + "".join(f"\n     | {rule}" for rule in blocks),
            "?simple_stmt: " + "\n            | ".join(lines),
            *(cls.SYNTAX for cls in stated),
            "",
        ]
    )


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        grammar(),
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
    "AUG_OP": "'+=' or '-='",
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
        before = (exc.token_history or [None])[-1]
        refused = _refused_form(tok, before, exc.accepts or exc.expected)
        if refused is not None:
            if tok.type == "EQUAL" and before is not None and before.type != "NAME":  # at the whole '+=', '*=' …
                line, col = before.line or line, before.column or col
            return DslProblem(line or 1, col or 1, "E401", *refused)
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
            _CHARACTER_FIXES.get(exc.char),
        )
    if isinstance(exc, UnexpectedEOF):
        return DslProblem(1, 1, "E401", f"unexpected end of text; expected {_expected(exc.expected)}")
    if isinstance(exc, UnexpectedInput):
        return DslProblem(getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1, "E401", str(exc))
    return DslProblem(1, 1, "E401", str(exc))


# Characters of other languages, with what this one writes instead.
_CHARACTER_FIXES = {
    "'": "text goes in double quotes",
    "!": "write 'not a' (and 'a != b' for not equal)",
    "&": "write 'a and b'",
    "|": "write 'a or b'",
    "?": "write 'A if COND else B'",
}


def _refused_form(tok: Token, before: Token | None, expected) -> tuple[str, str] | None:
    """A form other languages have and this one refuses, as (message, the fix)."""
    after = str(before) if before is not None else ""
    if tok.type == "EQUAL" and after in ("*", "/", "//", "%"):
        return f"there is no '{after}='", f"only += and -= change a value in place: write x = x {after} N"
    if tok.type == "PLUS" and after == "+":
        return "there is no '++'", "write x += 1"
    if tok.type == "EQUAL" and after in ("+", "-"):
        return (
            f"only a variable or a local value takes '{after}='",
            f"what changes goes in a variable (variables: or player_variables:): x {after}= N, me.points {after}= N",
        )
    if tok.type == "EQUAL" and before is not None and before.type == "NAME":
        return (
            "'=' gives a name its value, once a statement",
            f"to compare, write '=='; to set two names, one at a time: {after} = …, then x = {after}",
        )
    if tok.type == "FOR" and "RSQB" in expected:
        return (
            "a comprehension has at most two 'for's",
            "build the inner lists with their own comprehension and flatten([…]) them, or write a for loop",
        )
    if tok.type == "COMMA" and set(expected) == {"IN"}:
        return "a 'for' names one item", "write 'for m in moves:' and read its parts as m.from, m.to"
    return None


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


def _pos(meta) -> tuple[int, int]:
    """Where a rule's text starts; lark types it optional (a rule that matched nothing has none): 1:1 then."""
    return (getattr(meta, "line", None) or 1, getattr(meta, "column", None) or 1)


def _placed(node, _rule, children, meta):
    """lark's call convention (``v_args(wrapper=…)``) for a node class: its position, then the children."""
    return node(*_pos(meta), *children)


def _placed_list(node, _rule, children, meta):
    """As ``_placed`` for a node that holds a list of the children (lark's ``ast_utils.AsList``)."""
    return node(*_pos(meta), children)


_node = v_args(wrapper=_placed)
_list_node = v_args(wrapper=_placed_list)


def _binary(op: str):
    """The method of a grammar alias that reads as the binary operator ``op``."""
    return v_args(inline=True, meta=True)(lambda self, meta, left, right: ast.Binary(*_pos(meta), op, left, right))


def _unary(op: str):
    """The method of a grammar alias that reads as the unary operator ``op``."""
    return v_args(inline=True, meta=True)(lambda self, meta, operand: ast.Unary(*_pos(meta), op, operand))


class _ToAst(Transformer):
    """lark tree → ast nodes.

    Most rules are a table: the rule builds its node class from its position and its children, in field
    order (grammar.lark shapes the children with aliases, ``?rule`` inlining and optional parts).  That is
    what lark's ``ast_utils.create_transformer`` does, but it needs the node classes to subclass
    ``ast_utils.Ast``, and ast.py must not import lark: play from the code cache loads ast.py, never the
    parser (tests/test_code_cache.py).  Tokens become plain values first.  The methods after the table are
    the constructs whose node is not their children as written; each says why.
    """

    # tokens: plain values (a Token is a str subclass that would leak into the AST and caches)
    NAME = str

    def STRING(self, token: Token) -> str:
        return token[1:-1]

    def NUMBER(self, token: Token) -> int:
        if len(token) > 18:
            raise DslSyntaxError(
                DslProblem(*_pos(token), "E403", f"number {token[:12]}… is too long", "numbers have at most 18 digits")
            )
        return int(token)

    def TRUE(self, _token: Token) -> bool:
        return True

    def FALSE(self, _token: Token) -> bool:
        return False

    def NONE(self, _token: Token) -> None:
        return None

    def __default__(self, data, children, meta):
        """A statement's rule without a method here builds its node from its children, in field order."""
        node = _STATEMENT_RULES.get(data)
        if node is None:
            return super().__default__(data, children, meta)
        return _placed(node, data, children, meta)

    # rules whose node is their children, in field order
    name = _node(ast.Name)
    attr_target = _node(ast.Attr)
    literal = _node(ast.Literal)
    conditional = _node(ast.Conditional)
    keyed_call = _node(ast.KeyedCall)
    comprehension = _node(ast.Comprehension)
    pair_comprehension = _node(ast.PairComprehension)
    list_expr = _list_node(ast.ListExpr)
    record = _list_node(ast.Record)
    map_expr = _list_node(ast.MapExpr)

    # operators: one node class, the operator named by the grammar's alias
    or_op = _binary("or")
    and_op = _binary("and")
    in_op = _binary("in")
    not_in_op = _binary("not in")
    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    div = _binary("//")
    mod = _binary("%")
    not_op = _unary("not")
    neg = _unary("-")

    @v_args(inline=True, meta=True)
    def compare(self, meta, left, op: Token, right):
        """The operator is a token between the operands, not an alias."""
        return ast.Binary(*_pos(meta), str(op), left, right)

    # lists and pairs that nodes hold
    def start(self, stmts: list) -> list:
        return stmts

    suite = start

    def field(self, pair: list) -> tuple:
        return tuple(pair)

    map_entry = elif_branch = field

    # the constructs whose node is not their children as written
    @v_args(inline=True, meta=True)
    def attr(self, meta, obj, name: str):
        """Placed at the attribute's name (the last token), so a wrong attribute is pointed at, not its owner."""
        return ast.Attr(meta.end_line, meta.end_column - len(name), obj, name)

    @v_args(inline=True, meta=True)
    def call(self, meta, func: str, *args):
        """The arguments, any number of them, are one field."""
        return ast.Call(*_pos(meta), func, list(args))

    @v_args(inline=True, meta=True)
    def aug_assign(self, meta, target, op: Token, value):
        """``x += v`` assigns ``x + v``: the target is read, as a value, on the left of the operator."""
        line, col = _pos(meta)
        left = (
            ast.Name(target.line, target.col, target.name)
            if isinstance(target, ast.Name)
            else ast.Attr(target.line, target.col, target.obj, target.name)
        )
        return ast.AugAssign(line, col, target, ast.Binary(line, col, str(op)[0], left, value))

    @v_args(inline=True, meta=True)
    def if_stmt(self, meta, condition, body, *rest):
        """``rest``: a (condition, body) pair per ``elif``, then the ``else`` block or None."""
        *elifs, otherwise = rest
        return ast.If(*_pos(meta), [(condition, body), *elifs], otherwise)

    @v_args(inline=True, meta=True)
    def template(self, meta, text: str) -> list:
        """A log text: its ``{expression}`` parts are parsed, placed inside the text."""
        return _template(text, *_pos(meta))

    @v_args(inline=True, meta=True)
    def choose_stmt(self, meta, target, verb, source, where, by, optional, secret):
        """'by each p in SEATS' fills two fields; 'simultaneously' is secret and together."""
        each, by = by if isinstance(by, tuple) else (None, by)
        s = ast.Choose(*_pos(meta), target, verb or "", source, where, by, optional, secret is not None)
        s.each, s.together = each, secret == "together"
        return s

    @v_args(inline=True, meta=True)
    def choose_several_stmt(self, meta, target, verb, low, high, source, where, by, secret):
        """A choice of several is never optional; the bounds come first in the text, last in the node."""
        each, by = by if isinstance(by, tuple) else (None, by)
        return ast.ChooseSeveral(
            *_pos(meta),
            target,
            verb or "",
            source,
            where,
            by,
            None,
            secret is not None,
            each=each,
            together=secret == "together",
            low=low,
            high=high,
        )

    @v_args(inline=True)
    def by_each(self, seat: str, seats):
        """'by each p in SEATS': (the seat's name, SEATS)."""
        return (seat, seats)

    @v_args(inline=True)
    def optional(self, decline: str | None) -> str:
        """The id of declining: "pass" unless the rule names it (``optional "draw"``)."""
        return "pass" if decline is None else decline

    def secret(self, _children: list) -> bool:
        return True

    def together(self, _children: list) -> str:
        return "together"


_STATEMENT_RULES = {cls.rule(): cls for cls in ast.STATEMENTS if cls.SYNTAX}

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _template(text: str, line: int, column: int) -> list:
    """Split a log text (at ``line``:``column`` with its opening quote) into literal and ``{expression}`` parts."""
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
    for e in ast.walk_exprs(expr):
        e.line += lines
        e.col += cols


_TREES: Kept[tuple[Lark, str, str], Tree] = Kept(4096)  # (parser, start rule, text) → its parse tree


def _tree(text: str, start: str) -> Tree:
    """The parse tree of ``text``, worked out once per text: a variant, a game loaded again, a fuzz mutant
    repeat most texts.  The tree is only read (each AST is built anew from it, and the checker annotates that)."""
    lark = _parser()
    key = (lark, start, text)
    tree = _TREES.get(key)
    if tree is None:
        tree = lark.parse(text, start=start)
        _TREES.keep(key, tree)
    return tree


def _parse(text: str, start: str):
    if len(text) > MAX_SOURCE_CHARS:
        raise DslSyntaxError(DslProblem(1, 1, "E403", f"effect text longer than {MAX_SOURCE_CHARS} characters"))
    _check_nesting(text)
    try:
        return _ToAst().transform(_tree(text, start))
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
