"""Typed AST of the effect language, with positions, and its canonical printer.

Every node knows the (line, col) of its text inside the DSL source; the
checker fills ``type`` on expressions.  ``format_block`` prints any program
back as canonical DSL text (for ``explain``, ``cards`` and diffs).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True, eq=False)
class Node:
    line: int
    col: int


# ----------------------------------------------------------------- expressions
@dataclass(slots=True, eq=False)
class Expr(Node):
    type: str | None = field(default=None, init=False, repr=False)


@dataclass(slots=True, eq=False)
class Name(Expr):
    name: str


@dataclass(slots=True, eq=False)
class Literal(Expr):
    value: object  # int, str, bool or None


@dataclass(slots=True, eq=False)
class ListExpr(Expr):
    items: list[Expr]


@dataclass(slots=True, eq=False)
class Record(Expr):
    fields: list[tuple[str, Expr]]  # a move of several parts: {piece: c, dir: d}


@dataclass(slots=True, eq=False)
class MapExpr(Expr):
    """``{"a": 2, "b": 0}`` (``{}`` when empty): a map from text keys to values of one type."""

    entries: list[tuple[str, Expr]]


@dataclass(slots=True, eq=False)
class Comprehension(Expr):
    element: Expr
    var: str
    source: Expr
    condition: Expr | None


@dataclass(slots=True, eq=False)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(slots=True, eq=False)
class Call(Expr):
    func: str
    args: list[Expr]


@dataclass(slots=True, eq=False)
class KeyedCall(Expr):
    """``max(LIST, by: KEY)``: an operation of ops.KEYED over a list (or zone), KEY read with the item as ``it``."""

    func: str
    source: Expr
    key: Expr


@dataclass(slots=True, eq=False)
class Unary(Expr):
    op: str  # "-" | "not"
    operand: Expr


@dataclass(slots=True, eq=False)
class Binary(Expr):
    op: str  # + - * // % and or == != < <= > >= in "not in"
    left: Expr
    right: Expr


@dataclass(slots=True, eq=False)
class Conditional(Expr):
    then: Expr
    condition: Expr
    otherwise: Expr


# ------------------------------------------------------------------ statements
@dataclass(slots=True, eq=False)
class Stmt(Node):
    pass


@dataclass(slots=True, eq=False)
class Assign(Stmt):
    target: Name | Attr  # a local or game variable, or a player's variable
    value: Expr


@dataclass(slots=True, eq=False)
class Choose(Stmt):
    target: Name | Attr
    verb: str  # "" when the options name themselves
    source: Expr
    where: Expr | None
    by: Expr | None
    optional: str | None  # the id of declining ("pass" unless named); None: a choice must be made
    secret: bool
    options_type: str | None = field(default=None, init=False, repr=False)  # filled by the checker
    each: str | None = None  # 'by each p in SEATS simultaneously': the name of the seat, SEATS in ``by``
    together: bool = False  # 'simultaneously': every seat chooses in secret, revealed together

    @property
    def kind(self) -> str:
        """What is being decided, as others may be told: the verb, else the target's name."""
        return self.verb or format_expr(self.target)


@dataclass(slots=True, eq=False)
class ChooseSeveral(Choose):
    """``x = choose "take" several [LOW to HIGH] from LIST …``: the option is a list of the items (subsets.py)."""

    low: Expr | None = None
    high: Expr | None = None


@dataclass(slots=True, eq=False)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(slots=True, eq=False)
class Log(Stmt):
    parts: list[str | Expr]
    to: Expr | None


@dataclass(slots=True, eq=False)
class EndGame(Stmt):
    reason: str = ""  # why the game ends, as the outcome reports it ("" for the rules' default)


@dataclass(slots=True, eq=False)
class Pass(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Return(Stmt):
    pass


@dataclass(slots=True, eq=False)
class ReturnValue(Return):
    """``return VALUE``: the value of a function, or of a procedure that declares ``returns:``."""

    value: Expr


@dataclass(slots=True, eq=False)
class CallAssign(Assign):
    """``x = proc(args)``: a procedure's value (the checker makes this of an Assign whose value is one);
    its frame may stop at decisions, and its ``return VALUE`` stores into ``x`` when it ends."""

    value: Call


@dataclass(slots=True, eq=False)
class Reopen(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Close(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Window(Stmt):
    var: str
    start: Expr
    body: list[Stmt]


@dataclass(slots=True, eq=False)
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None


@dataclass(slots=True, eq=False)
class For(Stmt):
    var: str
    source: Expr
    body: list[Stmt]


@dataclass(slots=True, eq=False)
class While(Stmt):
    condition: Expr
    body: list[Stmt]


@dataclass(slots=True, eq=False)
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]


# --------------------------------------------------------------------- printer
_PRECEDENCE = {
    "if": 1,
    "or": 2,
    "and": 3,
    "not": 4,
    "==": 5,
    "!=": 5,
    "<": 5,
    "<=": 5,
    ">": 5,
    ">=": 5,
    "in": 5,
    "not in": 5,
    "+": 6,
    "-": 6,
    "*": 7,
    "//": 7,
    "%": 7,
    "neg": 8,
}
_ATOM = 9


def _prec(e: Expr) -> int:
    if isinstance(e, Binary):
        return _PRECEDENCE[e.op]
    if isinstance(e, Unary):
        return _PRECEDENCE["not" if e.op == "not" else "neg"]
    if isinstance(e, Conditional):
        return _PRECEDENCE["if"]
    return _ATOM


def format_expr(e: Expr, parent: int = 0) -> str:
    """Canonical text of an expression, with only the parentheses it needs."""
    if isinstance(e, Name):
        text = e.name
    elif isinstance(e, Literal):
        v = e.value
        text = (
            "true"
            if v is True
            else "false"
            if v is False
            else "none"
            if v is None
            else (f'"{v}"' if isinstance(v, str) else str(v))
        )
    elif isinstance(e, ListExpr):
        text = "[" + ", ".join(format_expr(i) for i in e.items) + "]"
    elif isinstance(e, Record):
        text = "{" + ", ".join(f"{name}: {format_expr(v)}" for name, v in e.fields) + "}"
    elif isinstance(e, MapExpr):
        text = "{" + ", ".join(f'"{k}": {format_expr(v)}' for k, v in e.entries) + "}"
    elif isinstance(e, Comprehension):
        text = f"[{format_expr(e.element)} for {e.var} in {format_expr(e.source, 3)}"
        if e.condition is not None:
            text += f" if {format_expr(e.condition, 3)}"
        text += "]"
    elif isinstance(e, Attr):
        text = f"{format_expr(e.obj, _ATOM)}.{e.name}"
    elif isinstance(e, Call):
        text = f"{e.func}(" + ", ".join(format_expr(a) for a in e.args) + ")"
    elif isinstance(e, KeyedCall):
        text = f"{e.func}({format_expr(e.source)}, by: {format_expr(e.key)})"
    elif isinstance(e, Unary):
        mine = _prec(e)
        text = f"not {format_expr(e.operand, mine)}" if e.op == "not" else f"-{format_expr(e.operand, mine)}"
    elif isinstance(e, Binary):
        mine = _prec(e)
        # Left-associative: the right operand needs parentheses at equal precedence.
        text = f"{format_expr(e.left, mine)} {e.op} {format_expr(e.right, mine + 1)}"
    elif isinstance(e, Conditional):
        mine = _prec(e)
        text = (
            f"{format_expr(e.then, mine + 1)} if {format_expr(e.condition, mine + 1)} "
            f"else {format_expr(e.otherwise, mine)}"
        )
    else:  # pragma: no cover - every node kind is listed above
        raise TypeError(type(e).__name__)
    return f"({text})" if _prec(e) < parent else text


def format_log(parts: list) -> str:
    return '"' + "".join(p if isinstance(p, str) else "{" + format_expr(p) + "}" for p in parts) + '"'


def format_block(stmts: list[Stmt], indent: int = 0) -> str:
    """Canonical text of a statement list."""
    return "\n".join(_format_stmt(s, indent) for s in stmts)


def format_source(tree: list[Stmt] | Expr) -> str:
    """Canonical text of a program (a statement list) or of an expression, as the rules hold either."""
    return format_block(tree) if isinstance(tree, list) else format_expr(tree)


def _suite(body: list[Stmt], indent: int) -> str:
    return "\n" + format_block(body, indent + 4)


def _format_stmt(s: Stmt, indent: int) -> str:
    pad = " " * indent
    if isinstance(s, Assign):
        return f"{pad}{format_expr(s.target)} = {format_expr(s.value)}"
    if isinstance(s, Choose):
        verb = f' "{s.verb}"' if s.verb else ""
        if isinstance(s, ChooseSeveral):
            verb += " several"
            if s.low is not None and s.high is not None:
                verb += f" {format_expr(s.low)} to {format_expr(s.high)}"
        text = f"{pad}{format_expr(s.target)} = choose{verb} from {format_expr(s.source)}"
        if s.where is not None:
            text += f" where {format_expr(s.where)}"
        if s.by is not None:
            text += f" by {'each ' + s.each + ' in ' if s.each else ''}{format_expr(s.by)}"
        if s.optional is not None:
            text += " optional" + (f' "{s.optional}"' if s.optional != "pass" else "")
        if s.secret:
            text += " simultaneously" if s.together else " secretly"
        return text
    if isinstance(s, ExprStmt):
        return pad + format_expr(s.expr)
    if isinstance(s, Log):
        return f"{pad}log {format_log(s.parts)}" + (f" to {format_expr(s.to)}" if s.to is not None else "")
    if isinstance(s, EndGame):
        return pad + "end_game" + (f' "{s.reason}"' if s.reason else "")
    if isinstance(s, Pass):
        return pad + "pass"
    if isinstance(s, ReturnValue):
        return f"{pad}return {format_expr(s.value)}"
    if isinstance(s, Return):
        return pad + "return"
    if isinstance(s, Reopen):
        return pad + "reopen"
    if isinstance(s, Close):
        return pad + "close"
    if isinstance(s, Window):
        return f"{pad}window {s.var} from {format_expr(s.start)}:{_suite(s.body, indent)}"
    if isinstance(s, If):
        lines = []
        for i, (cond, body) in enumerate(s.branches):
            word = "if" if i == 0 else "elif"
            lines.append(f"{pad}{word} {format_expr(cond)}:{_suite(body, indent)}")
        if s.otherwise is not None:
            lines.append(f"{pad}else:{_suite(s.otherwise, indent)}")
        return "\n".join(lines)
    if isinstance(s, For):
        return f"{pad}for {s.var} in {format_expr(s.source)}:{_suite(s.body, indent)}"
    if isinstance(s, While):
        return f"{pad}while {format_expr(s.condition)}:{_suite(s.body, indent)}"
    if isinstance(s, Repeat):
        return f"{pad}repeat {format_expr(s.count)}:{_suite(s.body, indent)}"
    raise TypeError(type(s).__name__)  # pragma: no cover


def walk_exprs(e: Expr):
    """Every expression inside ``e``, ``e`` first."""
    yield e
    if isinstance(e, ListExpr):
        for i in e.items:
            yield from walk_exprs(i)
    elif isinstance(e, Record):
        for _, v in e.fields:
            yield from walk_exprs(v)
    elif isinstance(e, MapExpr):
        for _, v in e.entries:
            yield from walk_exprs(v)
    elif isinstance(e, Comprehension):
        for sub in (e.element, e.source, e.condition):
            if sub is not None:
                yield from walk_exprs(sub)
    elif isinstance(e, Attr):
        yield from walk_exprs(e.obj)
    elif isinstance(e, Call):
        for a in e.args:
            yield from walk_exprs(a)
    elif isinstance(e, KeyedCall):
        yield from walk_exprs(e.source)
        yield from walk_exprs(e.key)
    elif isinstance(e, Unary):
        yield from walk_exprs(e.operand)
    elif isinstance(e, Binary):
        yield from walk_exprs(e.left)
        yield from walk_exprs(e.right)
    elif isinstance(e, Conditional):
        for sub in (e.then, e.condition, e.otherwise):
            yield from walk_exprs(sub)


def parts_of(s: Stmt) -> tuple[list[Expr], list[Name | Attr], list[list[Stmt]]]:
    """What a statement reads, the targets it writes, and the blocks inside it."""
    if isinstance(s, Assign):
        return [s.value] + ([s.target.obj] if isinstance(s.target, Attr) else []), [s.target], []
    if isinstance(s, Choose):
        reads = [e for e in (s.source, s.where, s.by) if e is not None]
        if isinstance(s, ChooseSeveral):
            reads += [e for e in (s.low, s.high) if e is not None]
        return reads + ([s.target.obj] if isinstance(s.target, Attr) else []), [s.target], []
    if isinstance(s, ExprStmt):
        return [s.expr], [], []
    if isinstance(s, ReturnValue):
        return [s.value], [], []
    if isinstance(s, Log):
        return [p for p in s.parts if isinstance(p, Expr)] + ([s.to] if s.to is not None else []), [], []
    if isinstance(s, Window):
        return [s.start], [], [s.body]
    if isinstance(s, If):
        return [c for c, _ in s.branches], [], [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, For):
        return [s.source], [], [s.body]
    if isinstance(s, While):
        return [s.condition], [], [s.body]
    if isinstance(s, Repeat):
        return [s.count], [], [s.body]
    return [], [], []


def walk_blocks(stmts: list[Stmt]):
    """Every block of a program (the program first), for checks that look at statement order."""
    yield stmts
    for s in stmts:
        for block in parts_of(s)[2]:
            yield from walk_blocks(block)
