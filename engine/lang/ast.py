"""Typed AST of the effect language, with positions, its canonical printer, and each construct's declaration.

Every node knows the (line, col) of its text inside the DSL source; the
checker fills ``type`` on expressions.  Each node class also says how it
prints and what is inside it; ``format_block`` prints any program back as
canonical DSL text (for ``explain``, ``cards`` and diffs).  A construct's class
is its one home: an expression's (``Expr``) holds its type rule and docs, a
statement's (``Stmt``) its syntax, docs, effects and type rule.  No lark here
(its syntax is text): play from the code cache loads this module, never the parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engine.errors import did_you_mean
from engine.lang.ops import KEYED
from engine.lang.types import (
    ANY,
    BOOL,
    CARD,
    DIRECTION,
    INT,
    NONE,
    PLAYER,
    POSITION,
    TEXT,
    ZONE,
    Type,
    compatible,
    describe,
    list_of,
    map_of,
    merge,
    record_of,
)

if TYPE_CHECKING:
    from engine.lang.checker import Checker


@dataclass(slots=True, eq=False)
class Node:
    line: int
    col: int


# ----------------------------------------------------------------- expressions
# Each node class is the one home of its construct here: its fields, its canonical text, what is inside it
# (``children`` of an expression, ``parts`` of a statement), its type rule (``infer``) and what the language
# reference says of it; the functions at the end walk and print any program through them.
@dataclass(slots=True, eq=False)
class Expr(Node):
    """An expression.  Each class below declares, beside its fields and its printing, its type rule
    (``infer``: the checker types every expression through it), its syntax (``SYNTAX``: each of its forms as
    (level of the precedence ladder, lark alternative), which the parser joins into the grammar) and what the
    language reference says of it: ``DOCS``, its part of the sentence naming the values, or ``OPERATORS``,
    (form, what it does) of each operator it stands for, by its word in the precedence table.  The parser,
    the checker and the docs are checked to know every expression (tests/test_expressions.py)."""

    SYNTAX: ClassVar[tuple[tuple[str, str], ...]] = ()
    DOCS: ClassVar[str] = ""  # none: documented with another expression, or among the operations
    OPERATORS: ClassVar[dict[str, tuple[str, str]]] = {}

    type: Type | None = field(default=None, init=False, repr=False)

    @property
    def precedence(self) -> int:
        """How tightly the printed text binds: a looser operand is printed in parentheses."""
        return _ATOM

    def children(self) -> tuple[Expr, ...]:
        """The expressions directly inside this one, in the order of the text."""
        return ()

    def infer(self, c: Checker) -> Type | None:
        """The type of the expression, after typing what is inside it and reporting what breaks its rule."""
        raise NotImplementedError(type(self).__name__)

    def text(self) -> str:
        """The canonical text, parenthesised only inside (``format_expr`` adds the outer ones)."""
        raise NotImplementedError(type(self).__name__)


@dataclass(slots=True, eq=False)
class Name(Expr):
    SYNTAX = (("atom", "NAME -> name"),)
    DOCS = "names"

    name: str

    def infer(self, c: Checker) -> Type | None:
        return c.name(self)

    def text(self) -> str:
        return self.name


@dataclass(slots=True, eq=False)
class Literal(Expr):
    SYNTAX = (("atom", "(NUMBER | STRING | TRUE | FALSE | NONE) -> literal"),)
    DOCS = 'numbers (`3`), text in double quotes (`"red"`), `true`, `false`, `none`'

    value: object  # int, str, bool or None

    def infer(self, c: Checker) -> Type | None:
        return _LITERAL_TYPES[type(self.value)]

    def text(self) -> str:
        v = self.value
        if v is None or isinstance(v, bool):
            return "none" if v is None else str(v).lower()
        return f'"{v}"' if isinstance(v, str) else str(v)


_LITERAL_TYPES = {bool: BOOL, int: INT, str: TEXT, type(None): NONE}


@dataclass(slots=True, eq=False)
class ListExpr(Expr):
    SYNTAX = (("atom", '"[" (expr ("," expr)*)? "]" -> list_expr'),)
    DOCS = "lists (`[a, b]`, `[EXPR for x in LIST if COND]`; they nest: `list[list[int]]`)"

    items: list[Expr]

    def children(self) -> tuple[Expr, ...]:
        return tuple(self.items)

    def infer(self, c: Checker) -> Type | None:
        """Items of one kind (records of several shapes are one kind: a record with every field)."""
        types = [c.expr(i) for i in self.items]
        known = [t for t in types if t not in (None, NONE, ANY)]
        one = known[0] if known else ANY
        for item, t in zip(self.items, types):
            if t not in (None, NONE, ANY):
                if not (compatible(one, t) or compatible(t, one)):
                    c.problem(
                        item,
                        "E506",
                        f"a list holds one kind of value: {describe(t)} cannot join {describe(one)}",
                        "to offer different kinds of option, make each a record: "
                        '{do: "walk", way: w}, {do: "play", card: c}',
                    )
                    break
                one = merge(one, t)
        return list_of(one)

    def text(self) -> str:
        return "[" + ", ".join(format_expr(i) for i in self.items) + "]"


@dataclass(slots=True, eq=False)
class Record(Expr):
    SYNTAX = (("atom", '"{" field ("," field)* "}" -> record'),)
    DOCS = "records (`{piece: c, dir: d}`)"

    fields: list[tuple[str, Expr]]  # a move of several parts: {piece: c, dir: d}

    def children(self) -> tuple[Expr, ...]:
        return tuple(v for _, v in self.fields)

    def infer(self, c: Checker) -> Type | None:
        seen: set[str] = set()
        fields = []
        for name, value in self.fields:
            if name in seen:
                c.problem(value, "E506", f"field '{name}' is given twice")
            seen.add(name)
            fields.append((name, c.expr(value) or ANY))
        return record_of(fields)

    def text(self) -> str:
        return "{" + ", ".join(f"{name}: {format_expr(v)}" for name, v in self.fields) + "}"


@dataclass(slots=True, eq=False)
class MapExpr(Expr):
    """``{"a": 2, "b": 0}`` (``{}`` when empty): a map from text keys to values of one type."""

    SYNTAX = (("atom", '"{" (map_entry ("," map_entry)*)? "}" -> map_expr'),)

    DOCS = (
        'maps from text to values of one type (`{"a": 2, "b": 0}`, `{}`; type `map[int]`; never cards; '
        "`with_key` gives a changed copy, `key in MAP` tests a key)"
    )

    entries: list[tuple[str, Expr]]

    def children(self) -> tuple[Expr, ...]:
        return tuple(v for _, v in self.entries)

    def infer(self, c: Checker) -> Type | None:
        """Text keys, once each; values of one type, never cards."""
        value: Type = ANY
        seen: set[str] = set()
        for key, v in self.entries:
            if key in seen:
                c.problem(v, "E506", f'key "{key}" is given twice')
            seen.add(key)
            t = c.expr(v)
            if t is not None and t.holds_cards:
                c.problem(v, "E506", "a map cannot hold cards (keep them in a zone or a list)")
            elif t not in (None, NONE, ANY) and not compatible(value, t):
                c.problem(v, "E506", f"a map holds one kind of value: {describe(t)} cannot join {describe(value)}")
            else:
                value = merge(value, t)
        return map_of(value)

    def text(self) -> str:
        return "{" + ", ".join(f'"{k}": {format_expr(v)}' for k, v in self.entries) + "}"


@dataclass(slots=True, eq=False)
class Comprehension(Expr):
    SYNTAX = (("atom", '"[" expr "for" NAME "in" or_expr ["if" or_expr] "]" -> comprehension'),)
    element: Expr
    var: str
    source: Expr
    condition: Expr | None

    def children(self) -> tuple[Expr, ...]:
        return (self.element, self.source) + ((self.condition,) if self.condition is not None else ())

    def infer(self, c: Checker) -> Type | None:
        """The variable is an item of the source while the condition and the element are read."""
        item_type = c.iterable(self.source, "a list comprehension needs a list or a zone")
        had = c.locals.get(self.var)
        c.locals[self.var] = item_type
        if self.condition is not None:
            c.expr(self.condition)
            c.expect(self.condition, BOOL, "an 'if' condition")
        result = list_of(c.expr(self.element) or ANY)
        if had is None:
            del c.locals[self.var]
        else:
            c.locals[self.var] = had
        return result

    def text(self) -> str:
        # The source and condition are or-expressions in the grammar: a conditional there needs parentheses.
        text = f"[{format_expr(self.element)} for {self.var} in {format_expr(self.source, 3)}"
        if self.condition is not None:
            text += f" if {format_expr(self.condition, 3)}"
        return text + "]"


@dataclass(slots=True, eq=False)
class PairComprehension(Expr):
    """``[EXPR for x in A for y in B if COND]``: B may name x; the items in the order of x, then of y."""

    SYNTAX = (
        (
            "atom",
            '"[" expr "for" NAME "in" or_expr "for" NAME "in" or_expr ["if" or_expr] "]" -> pair_comprehension',
        ),
    )
    DOCS = "comprehensions over two lists (`[{from: a, to: b} for a in xs for b in ys if a != b]`)"

    element: Expr
    var: str
    source: Expr
    inner_var: str
    inner_source: Expr
    condition: Expr | None

    def children(self) -> tuple[Expr, ...]:
        parts = (self.element, self.source, self.inner_source)
        return parts + ((self.condition,) if self.condition is not None else ())

    def infer(self, c: Checker) -> Type | None:
        """x is an item of A while B is read, and y an item of B while the condition and element are."""
        had = {n: c.locals.get(n) for n in (self.var, self.inner_var)}
        early = [e for e in walk_exprs(self.source) if isinstance(e, Name) and e.name == self.inner_var]
        if early and self.inner_var not in c.locals and self.inner_var not in c.vocab.value_names():
            c.problem(
                early[0],
                "E501",
                f"'{self.inner_var}' is named by the second 'for', so the first one cannot read it yet",
                f"put the 'for' that names it first: [… for {self.inner_var} in {format_expr(self.inner_source, 3)}"
                f" for {self.var} in {format_expr(self.source, 3)} …]",
            )
            c.locals[self.inner_var] = ANY  # reported once, not again as an unknown name
        c.locals[self.var] = c.iterable(self.source, "a list comprehension needs a list or a zone")
        c.locals[self.inner_var] = c.iterable(self.inner_source, "a list comprehension needs a list or a zone")
        if self.condition is not None:
            c.expr(self.condition)
            c.expect(self.condition, BOOL, "an 'if' condition")
        result = list_of(c.expr(self.element) or ANY)
        for name, t in had.items():
            if t is None:
                c.locals.pop(name, None)
            else:
                c.locals[name] = t
        return result

    def text(self) -> str:
        text = (
            f"[{format_expr(self.element)} for {self.var} in {format_expr(self.source, 3)}"
            f" for {self.inner_var} in {format_expr(self.inner_source, 3)}"
        )
        if self.condition is not None:
            text += f" if {format_expr(self.condition, 3)}"
        return text + "]"


@dataclass(slots=True, eq=False)
class Attr(Expr):
    SYNTAX = (("postfix", 'postfix "." NAME -> attr'),)
    DOCS = "attributes (`c.power`, `me.points`)"

    obj: Expr
    name: str

    def children(self) -> tuple[Expr, ...]:
        return (self.obj,)

    def infer(self, c: Checker) -> Type | None:
        """A card's attribute, a player's variable or a record's field."""
        v = c.vocab
        owner = c.expr(self.obj)
        if owner is CARD:
            t = v.attribute_type(self.name)
            if t is None:
                c.problem(
                    self,
                    "E504",
                    f"cards have no attribute '{self.name}'",
                    did_you_mean(self.name, v.attribute_names()),
                )
            return t or ANY
        if owner is PLAYER:
            t = v.player_variables.get(self.name)
            if t is None:
                c.problem(
                    self, "E504", f"players have no variable '{self.name}'", did_you_mean(self.name, v.player_variables)
                )
            return t or ANY
        if owner is not None and owner.is_record:
            t = owner.field_type(self.name)
            if t is None:
                names = [n for n, _ in owner.fields]
                c.problem(self, "E504", f"{describe(owner)} has no field '{self.name}'", did_you_mean(self.name, names))
            return t or ANY
        if owner not in (None, ANY):
            c.problem(self, "E504", f"{describe(owner)} has no attribute '{self.name}'")
            return ANY
        return self._settled(c)

    def _settled(self, c: Checker) -> Type:
        """Of a value whose type is not known (``first([])`` …): the type the name settles."""
        v = c.vocab
        t = v.attribute_type(self.name)
        if t is not None:
            self.obj.type = CARD
            return t
        if self.name in v.player_variables:
            self.obj.type = PLAYER
            return v.player_variables[self.name]
        c.problem(
            self,
            "E504",
            f"no card attribute or player variable is called '{self.name}'",
            did_you_mean(self.name, list(v.card_attributes) + list(v.player_variables)),
        )
        return ANY

    def text(self) -> str:
        return f"{format_expr(self.obj, _ATOM)}.{self.name}"


@dataclass(slots=True, eq=False)
class Call(Expr):
    SYNTAX = (("postfix", 'NAME "(" (expr ("," expr)*)? ")" -> call'),)
    DOCS = "calls (`size(hand(me))`)"

    func: str
    args: list[Expr]

    def children(self) -> tuple[Expr, ...]:
        return tuple(self.args)

    def infer(self, c: Checker) -> Type | None:
        return c.call(self)

    def text(self) -> str:
        return f"{self.func}(" + ", ".join(format_expr(a) for a in self.args) + ")"


@dataclass(slots=True, eq=False)
class KeyedCall(Expr):
    """``max(LIST, by: KEY)``: an operation of ops.KEYED over a list (or zone), KEY read with the item as ``it``."""

    SYNTAX = (("postfix", 'NAME "(" expr "," "by" ":" expr ")" -> keyed_call'),)

    func: str
    source: Expr
    key: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.source, self.key)

    def infer(self, c: Checker) -> Type | None:
        """KEY is read with each item as ``it`` and must be a number or text."""
        op = KEYED.get(self.func)
        item = c.iterable(self.source, f"{self.func}(…, by: …) needs a list or a zone")
        if op is None:
            c.problem(self, "E501", f"'{self.func}' takes no 'by:'", f"with 'by:': {', '.join(sorted(KEYED))}")
        key = c.with_it(item, self.key)
        if key not in (None, ANY, INT, TEXT) and not key.is_enum:
            c.problem(self.key, "E502", f"a 'by:' key must be a number or text, not {describe(key)}")
        elif item.is_record:
            c.lacking(self.key, item, "it", "nothing can be put in order by none", None)
        return list_of(item) if op is not None and op.gives_list else item

    def text(self) -> str:
        return f"{self.func}({format_expr(self.source)}, by: {format_expr(self.key)})"


@dataclass(slots=True, eq=False)
class Unary(Expr):
    SYNTAX = (
        ("not_expr", '"not" not_expr -> not_op'),
        ("unary", '"-" unary -> neg'),
    )
    OPERATORS: ClassVar[dict[str, tuple[str, str]]] = {
        "not": ("not a", "a does not hold"),
        "neg": ("-a", "minus a"),
    }

    op: str  # "-" | "not"
    operand: Expr

    @property
    def precedence(self) -> int:
        return _PRECEDENCE["not" if self.op == "not" else "neg"]

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)

    def infer(self, c: Checker) -> Type | None:
        c.expr(self.operand)
        if self.op == "not":
            c.expect(self.operand, BOOL, "'not' operand")
            return BOOL
        c.expect(self.operand, INT, "'-' operand")
        return INT

    def text(self) -> str:
        operand = format_expr(self.operand, self.precedence)
        return f"not {operand}" if self.op == "not" else f"-{operand}"


_ARITHMETIC = ("-", "*", "//", "%")
_ORDER = ("<", "<=", ">", ">=")


@dataclass(slots=True, eq=False)
class Binary(Expr):
    SYNTAX = (
        ("or_expr", 'or_expr "or" and_expr -> or_op'),
        ("and_expr", 'and_expr "and" not_expr -> and_op'),
        ("comparison", "sum COMP_OP sum -> compare"),
        ("comparison", 'sum "in" sum -> in_op'),
        ("comparison", 'sum "not" "in" sum -> not_in_op'),
        ("sum", 'sum "+" product -> add'),
        ("sum", 'sum "-" product -> sub'),
        ("product", 'product "*" unary -> mul'),
        ("product", 'product "//" unary -> div'),
        ("product", 'product "%" unary -> mod'),
    )
    OPERATORS: ClassVar[dict[str, tuple[str, str]]] = {
        "or": ("a or b", "either holds (b is not looked at when a does)"),
        "and": ("a and b", "both hold (b is not looked at when a does not)"),
        "==": ("a == b", "equal"),
        "!=": ("a != b", "not equal"),
        "<": ("a < b", "less than"),
        "<=": ("a <= b", "at most"),
        ">": ("a > b", "more than"),
        ">=": ("a >= b", "at least"),
        "in": ("a in LIST", "a is among the items of a list or the cards of a zone"),
        "not in": ("a not in LIST", "a is not among them"),
        "+": ("a + b", "sum; joins two lists or two texts"),
        "-": ("a - b", "difference"),
        "*": ("a * b", "product"),
        "//": ("a // b", "whole division, rounded down"),
        "%": ("a % b", "remainder"),
    }

    op: str  # + - * // % and or == != < <= > >= in "not in"
    left: Expr
    right: Expr

    @property
    def precedence(self) -> int:
        return _PRECEDENCE[self.op]

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def infer(self, c: Checker) -> Type | None:
        a, b = c.expr(self.left), c.expr(self.right)
        op = self.op
        if op in ("and", "or") or op in _ARITHMETIC or op in _ORDER:
            wanted = BOOL if op in ("and", "or") else INT
            c.expect(self.left, wanted, f"'{op}' operand")
            c.expect(self.right, wanted, f"'{op}' operand")
            return INT if op in _ARITHMETIC else BOOL
        if op == "+":
            return self._joined(c, a, b)
        if op in ("==", "!="):
            return self._compared(c, a, b)
        return self._contains(c, a, b)

    def _joined(self, c: Checker, a: Type | None, b: Type | None) -> Type | None:
        """``a + b``: numbers add, texts and lists join."""
        if a is None or a is ANY or b is None or b is ANY:
            return a if a is not None and a is not ANY else (b or ANY)
        if a is INT and b is INT:
            return INT
        if compatible(TEXT, a) and compatible(TEXT, b) and a is not INT and b is not INT:
            return TEXT
        if a.is_list and b.is_list:
            if not (compatible(a, b) or compatible(b, a)):
                c.problem(self, "E506", f"cannot add {describe(b)} to {describe(a)}")
            return merge(a, b)
        fix = f"add a list to a list: [{format_expr(self.right)}] joins its one item" if a.is_list else None
        c.problem(self, "E506", f"cannot add {describe(b)} to {describe(a)}", fix)
        return ANY

    def _compared(self, c: Checker, a: Type | None, b: Type | None) -> Type:
        """``a == b``: values that can be equal; a text written out must be a value of the other side."""
        if not (compatible(a, b) or compatible(b, a) or c.may_be_none(self.left, b) or c.may_be_none(self.right, a)):
            c.problem(
                self,
                "E506",
                f"comparing {describe(a)} with {describe(b)} is always {'false' if self.op == '==' else 'true'}",
            )
        for side, other in ((self.left, b), (self.right, a)):
            if other is not None and other.is_enum:
                c.enum_literal(side, other)
            elif other in (POSITION, DIRECTION):
                c.board_literal(side, other, None)
        return BOOL

    def _contains(self, c: Checker, a: Type | None, b: Type | None) -> Type:
        """``a in b``: a key of a map, a card of a zone, an item of a list."""
        op = self.op
        if b is not None and b.is_map:  # a key of the map
            c.expect(self.left, TEXT, f"left of '{op}' a map")
        elif b is ZONE:
            c.expect(self.left, CARD, f"left of '{op}' a zone")
        elif b is not None and b.is_list:
            if not compatible(b.element, a) and not compatible(a, b.element):
                c.problem(self, "E506", f"{describe(b)} cannot contain {describe(a)}")
            elif b.element in (POSITION, DIRECTION):
                c.board_literal(self.left, b.element, None)
        elif b not in (None, ANY):
            c.problem(self.right, "E502", f"right of '{op}' must be a list, a zone or a map, not {describe(b)}")
        return BOOL

    def text(self) -> str:
        # Left-associative: the right operand needs parentheses at equal precedence.
        mine = self.precedence
        return f"{format_expr(self.left, mine)} {self.op} {format_expr(self.right, mine + 1)}"


@dataclass(slots=True, eq=False)
class Conditional(Expr):
    SYNTAX = (("ternary", 'or_expr "if" or_expr "else" ternary -> conditional'),)
    OPERATORS: ClassVar[dict[str, tuple[str, str]]] = {"if": ("A if COND else B", "A when COND holds, else B")}

    then: Expr
    condition: Expr
    otherwise: Expr

    @property
    def precedence(self) -> int:
        return _PRECEDENCE["if"]

    def children(self) -> tuple[Expr, ...]:
        return (self.then, self.condition, self.otherwise)

    def infer(self, c: Checker) -> Type | None:
        c.expr(self.condition)
        c.expect(self.condition, BOOL, "a condition")
        a, b = c.expr(self.then), c.expr(self.otherwise)
        if any(t is not None and (t.has_records or t.is_list or t.is_map) for t in (a, b)):
            return merge(a, b)  # an empty list's items are the other branch's
        return b if a in (NONE, ANY) and b not in (NONE, ANY) else a

    def text(self) -> str:
        mine = self.precedence
        return (
            f"{format_expr(self.then, mine + 1)} if {format_expr(self.condition, mine + 1)} "
            f"else {format_expr(self.otherwise, mine)}"
        )


# Every expression, the values in the order the language reference names them, then the operators.
EXPRESSIONS: tuple[type[Expr], ...] = (
    Literal,
    ListExpr,
    Comprehension,
    PairComprehension,
    Record,
    MapExpr,
    Name,
    Attr,
    Call,
    KeyedCall,
    Conditional,
    Unary,
    Binary,
)


# ------------------------------------------------------------------ statements
Contents = tuple[list[Expr], list[Name | Attr], list[list["Stmt"]]]  # reads, targets, blocks
Docs = tuple[tuple[str, str], ...]


@dataclass(slots=True, eq=False)
class Stmt(Node):
    """A statement.  Each class below declares, beside its fields and its printing, how the statement is
    written (``SYNTAX``: its rules in lark's notation, which ``parser`` joins into the grammar; the first
    rule is the statement's own and builds the node from its children in field order unless the parser
    says otherwise), what the language reference says of it (``DOCS``), and its effects: whether it
    changes the game (``changes``: a function may not).  Its type rule is its ``check``; the checker,
    the reference and the docs are checked to know every statement (tests/test_statements.py)."""

    SYNTAX: ClassVar[str] = ""  # none: the checker makes the node of another statement's
    BLOCK: ClassVar[bool] = False  # it ends with its block, not at the end of its line
    DOCS: ClassVar[Docs] = ()  # (form, what it does): rows of the language reference
    CHANGES: ClassVar[str | None] = None  # why it changes the game, as a function's error says

    @classmethod
    def rule(cls) -> str:
        """The name of the statement's own grammar rule ("" if it has none)."""
        return cls.SYNTAX.split(":", 1)[0].lstrip("?").strip()

    def changes(self) -> str | None:
        """Why running it changes the game (None: it does not by itself)."""
        return self.CHANGES

    def contents(self) -> Contents:
        """What the statement reads, the targets it writes, and the blocks inside it."""
        return [], [], []

    def check(self, c: Checker) -> None:
        """Type the statement's expressions and check its rule (a statement holding none has nothing to check)."""

    def text(self, indent: int) -> str:
        """The canonical text, its lines indented by ``indent`` spaces."""
        raise NotImplementedError(type(self).__name__)


def _target_reads(target: Name | Attr) -> list[Expr]:
    """Writing ``p.score`` reads ``p``."""
    return [target.obj] if isinstance(target, Attr) else []


def _present(*exprs: Expr | None) -> list[Expr]:
    return [e for e in exprs if e is not None]


@dataclass(slots=True, eq=False)
class Assign(Stmt):
    SYNTAX = 'assign: target "=" expr'
    DOCS: ClassVar[Docs] = (("x = EXPR", "give the local value x (or a variable, or me.var) a value"),)

    target: Name | Attr  # a local or game variable, or a player's variable
    value: Expr

    def check(self, c: Checker) -> None:
        c.assign(self.target, c.expr(self.value), self.value)

    def contents(self) -> Contents:
        return [self.value, *_target_reads(self.target)], [self.target], []

    def text(self, indent: int) -> str:
        return f"{' ' * indent}{format_expr(self.target)} = {format_expr(self.value)}"


@dataclass(slots=True, eq=False)
class AugAssign(Assign):
    """``x += EXPR`` (and ``-=``): the assignment of ``x + EXPR``, its value a Binary made by the parser."""

    SYNTAX = 'aug_assign: target AUG_OP expr\nAUG_OP: "+=" | "-="'
    DOCS: ClassVar[Docs] = (
        ("x += EXPR", "add to x (or a variable, or p.var): a number, or a list or text joined on; 'x -= N' takes away"),
    )

    value: Binary

    def text(self, indent: int) -> str:
        return f"{' ' * indent}{format_expr(self.target)} {self.value.op}= {format_expr(self.value.right)}"


@dataclass(slots=True, eq=False)
class Choose(Stmt):
    SYNTAX = """choose_stmt: target "=" "choose" [STRING] "from" expr [where] [by] [optional] [secret]
?where: "where" expr
?by: "by" expr
   | "by" "each" NAME "in" expr -> by_each
optional: "optional" [STRING]
secret: "secretly"
      | "simultaneously" -> together"""
    DOCS: ClassVar[Docs] = (
        (
            'x = choose "verb" from LIST [where COND] [by PLAYER] [optional ["decline"]] [secretly]',
            "a player (the current one unless 'by') chooses one item, a value with its own id (a record "
            '{do: "step", piece: c} for a move of several parts); \'optional\' adds declining, id "pass" '
            "unless named, giving none; 'where' keeps the items for which COND holds, with the item as 'it'; "
            "'secretly' shows the others only who chose and what kind of choice",
        ),
        (
            'xs = choose "verb" from LIST [where COND] by each p in PLAYERS simultaneously',
            "every player of PLAYERS chooses one item at the same time, in secret (LIST and COND may name p, "
            "the chooser); the game waits until all have chosen, then xs gets the choices together, a list in "
            "the order of PLAYERS. Until then the others see only who has chosen; declining is an option like "
            "the others (no 'optional'). For programs driving the game: state.to_act lists the seats still to "
            "choose, any of them may act first (state.apply(action, seat=s)), state.legal_actions(s) gives "
            "each one's options, and state.current_player is the lowest still to choose",
        ),
    )
    CHANGES = "a choice is a decision of a player"

    target: Name | Attr
    verb: str  # "" when the options name themselves
    source: Expr
    where: Expr | None
    by: Expr | None
    optional: str | None  # the id of declining ("pass" unless named); None: a choice must be made
    secret: bool
    options_type: Type | None = field(default=None, init=False, repr=False)  # filled by the checker
    each: str | None = None  # 'by each p in SEATS simultaneously': the name of the seat, SEATS in ``by``
    together: bool = False  # 'simultaneously': every seat chooses in secret, revealed together

    @property
    def kind(self) -> str:
        """What is being decided, as others may be told: the verb, else the target's name."""
        return self.verb or format_expr(self.target)

    def check(self, c: Checker) -> None:
        c.choose(self)

    def contents(self) -> Contents:
        return _present(self.source, self.where, self.by) + _target_reads(self.target), [self.target], []

    def text(self, indent: int) -> str:
        return self._text(indent, "")

    def _text(self, indent: int, several: str) -> str:
        verb = (f' "{self.verb}"' if self.verb else "") + several
        text = f"{' ' * indent}{format_expr(self.target)} = choose{verb} from {format_expr(self.source)}"
        if self.where is not None:
            text += f" where {format_expr(self.where)}"
        if self.by is not None:
            text += f" by {'each ' + self.each + ' in ' if self.each else ''}{format_expr(self.by)}"
        if self.optional is not None:
            text += " optional" + (f' "{self.optional}"' if self.optional != "pass" else "")
        if self.secret:
            text += " simultaneously" if self.together else " secretly"
        return text


@dataclass(slots=True, eq=False)
class ChooseSeveral(Choose):
    """``x = choose "take" several [LOW to HIGH] from LIST …``: the option is a list of the items (subsets.py)."""

    SYNTAX = (
        'choose_several_stmt: target "=" "choose" [STRING] "several" [sum "to" sum] "from" expr [where] [by] [secret]'
    )
    DOCS = (
        (
            'x = choose "verb" several [A to B] from LIST [where COND] [by PLAYER] [secretly]',
            "a player chooses between A and B of the items at once (any number without 'A to B'); x is the "
            "list chosen, its members in the order of their ids; each option's id lists them ('take 1, 5, 5', "
            "'take nothing'), and ways that print alike are one option. The action space lists every such id "
            "from the items' possible values, so items other than cards or players need 'A to B'",
        ),
    )

    low: Expr | None = None
    high: Expr | None = None

    def contents(self) -> Contents:
        reads = _present(self.source, self.where, self.by, self.low, self.high) + _target_reads(self.target)
        return reads, [self.target], []

    def text(self, indent: int) -> str:
        bounds = (
            f" {format_expr(self.low)} to {format_expr(self.high)}"
            if self.low is not None and self.high is not None
            else ""
        )
        return self._text(indent, " several" + bounds)


@dataclass(slots=True, eq=False)
class ExprStmt(Stmt):
    SYNTAX = "expr_stmt: expr"
    DOCS = (
        (
            "procedure(ARGS)",
            "run a procedure of the rules, or an operation that changes the game (see Operations); "
            "a call whose value is not used must change something",
        ),
    )

    expr: Expr

    def check(self, c: Checker) -> None:
        c.call_statement(self.expr)

    def contents(self) -> Contents:
        return [self.expr], [], []

    def text(self, indent: int) -> str:
        return " " * indent + format_expr(self.expr)


@dataclass(slots=True, eq=False)
class Log(Stmt):
    SYNTAX = """log_stmt: "log" template [to]
template: STRING
?to: "to" expr"""
    DOCS = (
        (
            'log "text with {expressions}" [to PLAYER]',
            "add a line to the game log (for one player only with 'to'); a seat prints by its name in the rules "
            "(`players: {min: 2, max: 2, names: [Red, Yellow]}`, else 'seat 0'), a card by its id, or by its name "
            "with `cards_in_logs: name`",
        ),
    )
    CHANGES = "a log line is written in the game"

    parts: list[str | Expr]
    to: Expr | None

    def check(self, c: Checker) -> None:
        for part in self.parts:
            if isinstance(part, Expr):
                c.expr(part)
        if self.to is not None:
            c.expr(self.to)
            c.expect(self.to, PLAYER, "'log … to' player")

    def contents(self) -> Contents:
        return [p for p in self.parts if isinstance(p, Expr)] + _present(self.to), [], []

    def text(self, indent: int) -> str:
        to = f" to {format_expr(self.to)}" if self.to is not None else ""
        return f"{' ' * indent}log {format_log(self.parts)}{to}"


@dataclass(slots=True, eq=False)
class EndGame(Stmt):
    SYNTAX = 'end_stmt: "end_game" STRING?'
    DOCS = (
        (
            'end_game ["reason"]',
            "the game ends now, for the reason given (the outcome reports it); scoring and "
            "tie-breakers decide the winners, and the game's 'ties' whether level seats draw",
        ),
    )
    CHANGES = "end_game ends the game"

    reason: str = ""  # why the game ends, as the outcome reports it ("" for the rules' default)

    def check(self, c: Checker) -> None:
        """The reason is fixed text, counted across games (playtest's end reasons): nothing in it is filled in."""
        blank = re.search(r"\{[^{}]*\}", self.reason)
        if blank is not None:
            c.problem(
                self,
                "E505",
                f"an end_game reason is fixed text: '{blank.group()}' would be shown as it is written",
                'name who or what in a log line first, e.g. log "{me} reaches the goal", and give a reason '
                'true of every game that ends here: end_game "a pawn reached the far row"',
            )

    def text(self, indent: int) -> str:
        return " " * indent + "end_game" + (f' "{self.reason}"' if self.reason else "")


@dataclass(slots=True, eq=False)
class Pass(Stmt):
    SYNTAX = 'pass_stmt: "pass"'
    DOCS = (("pass", "do nothing"),)

    def text(self, indent: int) -> str:
        return " " * indent + "pass"


@dataclass(slots=True, eq=False)
class Return(Stmt):
    SYNTAX = 'return_stmt: "return"'
    DOCS: ClassVar[Docs] = (
        (
            "return [VALUE]",
            "leave the current procedure; 'return VALUE' gives the value of a function written as statements "
            "(functions: does:, every path ends in a return; locals, if and loops, nothing that changes the game) "
            "or of a procedure that declares 'returns: TYPE' (called as x = proc(…), it may change the game and "
            "ask for decisions on the way)",
        ),
    )

    def check(self, c: Checker) -> None:
        if c.returns is not None:
            c.problem(self, "E505", f"this gives {describe(c.returns)}: write 'return VALUE'")

    def text(self, indent: int) -> str:
        return " " * indent + "return"


@dataclass(slots=True, eq=False)
class ReturnValue(Return):
    """``return VALUE``: the value of a function, or of a procedure that declares ``returns:``."""

    SYNTAX = 'return_value_stmt: "return" expr'
    DOCS = ()  # with 'return'

    value: Expr

    def check(self, c: Checker) -> None:
        if c.returns is None:
            c.problem(
                self,
                "E505",
                "'return VALUE' gives a value only in a function or in a procedure that declares 'returns:'",
            )
            c.expr(self.value)
        else:
            c.expr(self.value)
            c.expect(self.value, c.returns, "the value returned")

    def contents(self) -> Contents:
        return [self.value], [], []

    def text(self, indent: int) -> str:
        return f"{' ' * indent}return {format_expr(self.value)}"


@dataclass(slots=True, eq=False)
class CallAssign(Assign):
    """``x = proc(args)``: a procedure's value (the checker makes this of an Assign whose value is one);
    its frame may stop at decisions, and its ``return VALUE`` stores into ``x`` when it ends."""

    SYNTAX = ""  # written as an assignment
    DOCS = ()  # with 'return'

    value: Call

    def changes(self) -> str | None:
        return f"it calls the procedure '{self.value.func}'"

    def check(self, c: Checker) -> None:
        c.arguments(self.value, c.vocab.procedures[self.value.func])
        self.value.type = c.vocab.procedure_returns[self.value.func]
        c.assign(self.target, self.value.type, self.value)


@dataclass(slots=True, eq=False)
class Reopen(Stmt):
    SYNTAX = 'reopen_stmt: "reopen"'

    def check(self, c: Checker) -> None:
        _in_window(self, c, "reopen")

    def text(self, indent: int) -> str:
        return " " * indent + "reopen"


@dataclass(slots=True, eq=False)
class Close(Stmt):
    SYNTAX = 'close_stmt: "close"'

    def check(self, c: Checker) -> None:
        _in_window(self, c, "close")

    def text(self, indent: int) -> str:
        return " " * indent + "close"


@dataclass(slots=True, eq=False)
class Window(Stmt):
    """A reaction window: each player in turn, from the given one, runs the body; ``reopen`` (after a
    response) asks everyone again, ``close`` ends it; it ends by itself once every player in a row has
    been asked without a reopen."""

    SYNTAX = 'window_stmt: "window" NAME "from" expr ":" suite'
    BLOCK = True
    DOCS = (
        (
            "window p from PLAYER: … reopen … close",
            "ask each player in turn, from PLAYER, to respond; 'reopen' asks "
            "everyone again, 'close' ends the window at once",
        ),
    )
    CHANGES = "a window asks the players"

    var: str
    start: Expr
    body: list[Stmt]

    def check(self, c: Checker) -> None:
        c.expr(self.start)
        c.expect(self.start, PLAYER, "'window … from'")
        c.bind(self, self.var, PLAYER)
        c.windows += 1
        c.loop_block(self.body, "window")
        c.windows -= 1

    def contents(self) -> Contents:
        return [self.start], [], [self.body]

    def text(self, indent: int) -> str:
        return f"{' ' * indent}window {self.var} from {format_expr(self.start)}:{_suite(self.body, indent)}"


@dataclass(slots=True, eq=False)
class If(Stmt):
    SYNTAX = """if_stmt: "if" expr ":" suite elif_branch* [else_]
elif_branch: "elif" expr ":" suite
?else_: "else" ":" suite"""
    BLOCK = True
    DOCS = (("if COND: … elif COND: … else: …", "run the first block whose condition holds"),)

    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None

    def check(self, c: Checker) -> None:
        for cond, body in self.branches:
            c.expr(cond)
            c.expect(cond, BOOL, "a condition")
            c.block(body)
        if self.otherwise is not None:
            c.block(self.otherwise)

    def contents(self) -> Contents:
        blocks = [b for _, b in self.branches] + ([self.otherwise] if self.otherwise else [])
        return [c for c, _ in self.branches], [], blocks

    def text(self, indent: int) -> str:
        pad = " " * indent
        lines = [
            f"{pad}{'elif' if i else 'if'} {format_expr(cond)}:{_suite(body, indent)}"
            for i, (cond, body) in enumerate(self.branches)
        ]
        if self.otherwise is not None:
            lines.append(f"{pad}else:{_suite(self.otherwise, indent)}")
        return "\n".join(lines)


@dataclass(slots=True, eq=False)
class For(Stmt):
    SYNTAX = 'for_stmt: "for" NAME "in" expr ":" suite'
    BLOCK = True
    DOCS = (("for x in LIST: …", "run the block once per item"),)

    var: str
    source: Expr
    body: list[Stmt]

    def check(self, c: Checker) -> None:
        item = c.iterable(self.source, "'for' needs a list or a zone")
        c.bind(self, self.var, item)
        c.loop_block(self.body)

    def contents(self) -> Contents:
        return [self.source], [], [self.body]

    def text(self, indent: int) -> str:
        return f"{' ' * indent}for {self.var} in {format_expr(self.source)}:{_suite(self.body, indent)}"


@dataclass(slots=True, eq=False)
class While(Stmt):
    SYNTAX = 'while_stmt: "while" expr ":" suite'
    BLOCK = True
    DOCS = (("while COND: …", "run the block as long as the condition holds (bounded by the step budget)"),)

    condition: Expr
    body: list[Stmt]

    def check(self, c: Checker) -> None:
        c.expr(self.condition)
        c.expect(self.condition, BOOL, "a condition")
        c.loop_block(self.body)

    def contents(self) -> Contents:
        return [self.condition], [], [self.body]

    def text(self, indent: int) -> str:
        return f"{' ' * indent}while {format_expr(self.condition)}:{_suite(self.body, indent)}"


@dataclass(slots=True, eq=False)
class Repeat(Stmt):
    SYNTAX = 'repeat_stmt: "repeat" expr ":" suite'
    BLOCK = True
    DOCS = (("repeat N: …", "run the block N times"),)

    count: Expr
    body: list[Stmt]

    def check(self, c: Checker) -> None:
        c.expr(self.count)
        c.expect(self.count, INT, "'repeat' count")
        c.loop_block(self.body)

    def contents(self) -> Contents:
        return [self.count], [], [self.body]

    def text(self, indent: int) -> str:
        return f"{' ' * indent}repeat {format_expr(self.count)}:{_suite(self.body, indent)}"


@dataclass(slots=True, eq=False)
class Break(Stmt):
    SYNTAX = 'break_stmt: "break"'
    DOCS = (("break", "leave the innermost for, while or repeat loop at once"),)

    def check(self, c: Checker) -> None:
        _in_loop(self, c, "break")

    def text(self, indent: int) -> str:
        return " " * indent + "break"


@dataclass(slots=True, eq=False)
class Continue(Stmt):
    SYNTAX = 'continue_stmt: "continue"'
    DOCS = (("continue", "go on with the next round of the innermost loop, skipping the rest of its block"),)

    def check(self, c: Checker) -> None:
        _in_loop(self, c, "continue")

    def text(self, indent: int) -> str:
        return " " * indent + "continue"


def _in_loop(s: Stmt, c: Checker, word: str) -> None:
    """'break' and 'continue' belong to a loop, and do not jump out of a window inside it."""
    if "loop" not in c.loops:
        c.problem(
            s,
            "E505",
            f"'{word}' only makes sense inside a loop (for, while, repeat)",
            "to leave a procedure write 'return'; to end a window, 'close'",
        )
    elif c.loops[-1] == "window":
        c.problem(s, "E505", f"'{word}' cannot jump out of a window", "'close' ends the window; then test again")


def _in_window(s: Stmt, c: Checker, word: str) -> None:
    if not c.windows:
        c.problem(s, "E505", f"'{word}' only makes sense inside a 'window'")


# Every statement, in the order of the language reference.
STATEMENTS: tuple[type[Stmt], ...] = (
    Assign,
    AugAssign,
    Choose,
    ChooseSeveral,
    ExprStmt,
    If,
    For,
    While,
    Repeat,
    Break,
    Continue,
    Window,
    Reopen,
    Close,
    Log,
    EndGame,
    Return,
    ReturnValue,
    CallAssign,
    Pass,
)


# ------------------------------------------------------------ printer, walkers
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


def format_expr(e: Expr, parent: int = 0) -> str:
    """Canonical text of an expression, with only the parentheses it needs."""
    text = e.text()
    return f"({text})" if e.precedence < parent else text


def format_log(parts: list) -> str:
    return '"' + "".join(p if isinstance(p, str) else "{" + format_expr(p) + "}" for p in parts) + '"'


def format_block(stmts: list[Stmt], indent: int = 0) -> str:
    """Canonical text of a statement list."""
    return "\n".join(s.text(indent) for s in stmts)


def format_source(tree: list[Stmt] | Expr) -> str:
    """Canonical text of a program (a statement list) or of an expression, as the rules hold either."""
    return format_block(tree) if isinstance(tree, list) else format_expr(tree)


def _suite(body: list[Stmt], indent: int) -> str:
    return "\n" + format_block(body, indent + 4)


def walk_exprs(e: Expr):
    """Every expression inside ``e``, ``e`` first."""
    yield e
    for child in e.children():
        yield from walk_exprs(child)


def parts_of(s: Stmt) -> Contents:
    """What a statement reads, the targets it writes, and the blocks inside it."""
    return s.contents()


def walk_blocks(stmts: list[Stmt]):
    """Every block of a program (the program first), for checks that look at statement order."""
    yield stmts
    for s in stmts:
        for block in s.contents()[2]:
            yield from walk_blocks(block)
