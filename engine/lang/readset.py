"""What an expression's value depends on, as code: a key for remembering its value between moves.

A value that reads only its parameters, game variables, player variables,
the cards of zones it names and the game's fixed facts (card attributes,
boards, seats) is the same whenever those are the same.  ``Reads.slots``
lists, as Python source on the state, each such thing an expression reads;
their values together are a key under which its value can be kept — across
moves, clones and copies — without asking when anything changed.  Whether
an operation reads more is its own declaration (``Op.reads``); anything not
known to be a plain read (a local of a running program, an operation that
reads the whole state or draws at random, a construct this module does not
know) makes the expression not keyable (``None``): it is then computed each
time, as before.
"""

from __future__ import annotations

from engine.lang import ast
from engine.lang.ops import OPS, READS_ARGS, READS_ZONE
from engine.lang.types import ANY, PLAYER, ZONE

MAX_DEPTH = 8  # game functions inlined into a key; deeper (or recursive) ones are computed each time


def frozen(value):
    """A hashable stand-in for a plain value: lists and records as tuples, yes/no apart from 1/0."""
    cls = value.__class__
    if cls is list:
        return tuple([frozen(v) for v in value])
    if cls is dict:
        return ("{",) + tuple([(k, frozen(v)) for k, v in value.items()])
    if cls is bool:
        return ("?", value)
    return value


class Reads:
    """Finds the plain reads of expressions; ``codegen`` prints them (its ``code`` and ``scope``)."""

    def __init__(self, compiler, vocab, bodies: dict[str, ast.Expr], given: frozenset):
        self.compiler, self.vocab, self.bodies = compiler, vocab, bodies
        self.given = given  # names the caller puts in the key itself (the parameters)
        self.depth = 0

    def slots(self, e: ast.Expr, open_names: frozenset = frozenset()) -> list[str] | None:
        """Python source of each plain read of ``e`` (``open_names``: comprehension variables), or None."""
        v = self.vocab
        if isinstance(e, ast.Literal):
            return []
        if isinstance(e, ast.Name):
            n = e.name
            if n in open_names or n in self.compiler.scope or n in self.given:
                return []
            if n in v.variables:
                return [self._hashable(e)]
            if n in v.constants or n in v.enums or n in v.zones or n in v.boards:
                return []
            op = OPS.get(n)
            return [] if op is not None and op.constant and op.reads == READS_ARGS else None
        if isinstance(e, ast.ListExpr):
            return self._all(e.items, open_names)
        if isinstance(e, ast.Record):
            return self._all([x for _, x in e.fields], open_names)
        if isinstance(e, ast.Comprehension):
            inner = open_names | {e.var}
            parts = [self.slots(e.source, open_names), self._zone(e.source, open_names)]
            parts += [self.slots(x, inner) for x in (e.element, e.condition) if x is not None]
            return None if any(p is None for p in parts) else [s for p in parts for s in p]  # type: ignore[union-attr]
        if isinstance(e, ast.Attr):
            obj = self.slots(e.obj, open_names)
            if obj is None or e.obj.type is not PLAYER:
                return obj  # a card's attribute is a fixed fact; a record's field is in the record
            return obj + [self._hashable(e)] if self._closed(e.obj, open_names) else None
        if isinstance(e, ast.Call):
            return self._call(e, open_names)
        if isinstance(e, ast.Unary):
            return self.slots(e.operand, open_names)
        if isinstance(e, ast.Conditional):
            return self._all([e.condition, e.then, e.otherwise], open_names)
        if isinstance(e, ast.Binary):
            both = self._all([e.left, e.right], open_names)
            if both is None or e.op not in ("in", "not in"):
                return both
            zone = self._zone(e.right, open_names)
            return None if zone is None else both + zone
        return None

    def _hashable(self, e: ast.Expr) -> str:
        """``e``'s code, made hashable if its type holds lists, records or maps (a slot holds one type, so a
        yes/no never meets a 1/0 there)."""
        t = e.type
        if t is None or t is ANY or t.is_list or t.is_record or t.is_map:
            return f"_frozen({self._code(e)})"
        return self._code(e)

    def _code(self, e: ast.Expr) -> str:
        """``e`` as Python, its temporaries numbered afresh (per level of inlining, so an argument's never
        meet the body's): one read prints alike wherever it is found."""
        saved = self.compiler.temps
        self.compiler.temps = 100 * self.depth
        try:
            return self.compiler.code(e)
        finally:
            self.compiler.temps = saved

    def _all(self, exprs: list[ast.Expr], open_names: frozenset) -> list[str] | None:
        out: list[str] = []
        for x in exprs:
            part = self.slots(x, open_names)
            if part is None:
                return None
            out += part
        return out

    def _zone(self, e: ast.Expr, open_names: frozenset) -> list[str] | None:
        """The cards of zone ``e`` if ``e`` is a zone (none to read otherwise); None if it names no fixed zone."""
        if e.type != ZONE:
            return []
        return [f"tuple(st.zones[{self._code(e)}])"] if self._closed(e, open_names) else None

    @staticmethod
    def _closed(e: ast.Expr, open_names: frozenset) -> bool:
        """``e`` names no comprehension variable: it can be computed before the expression is."""
        return not any(isinstance(x, ast.Name) and x.name in open_names for x in ast.walk_exprs(e))

    def _call(self, e: ast.Call, open_names: frozenset) -> list[str] | None:
        v = self.vocab
        args = self._all(e.args, open_names)
        if args is None or e.func in v.zones or e.func in v.boards:
            return args
        if e.func in v.functions:
            return self._function(e, args, open_names)
        op = OPS.get(e.func)
        if op is None or op.reads not in (READS_ARGS, READS_ZONE):
            return None
        for (_, t), arg in zip(op.params, e.args):
            if arg.type == ZONE and (t != ZONE or op.reads == READS_ZONE):  # a zone given for a list gives its cards
                zone = self._zone(arg, open_names)
                if zone is None:
                    return None
                args += zone
        return args

    def _function(self, e: ast.Call, args: list[str], open_names: frozenset) -> list[str] | None:
        """A game function's reads, its parameters standing for the arguments' code."""
        body = self.bodies.get(e.func)
        if body is None or self.depth >= MAX_DEPTH:
            return None
        params = [p for p, _ in self.vocab.functions[e.func][0]]
        if any(not self._closed(a, open_names) for a in e.args):
            return None  # a parameter bound to a comprehension variable: its reads differ per item
        saved, given = self.compiler.scope, self.given
        scope = {"me": saved.get("me", "env.get('me')")}
        scope.update({p: f"({self._code(a)})" for p, a in zip(params, e.args)})
        self.compiler.scope, self.given = scope, frozenset()
        self.depth += 1
        try:
            inner = self.slots(body)
        finally:
            self.depth -= 1
            self.compiler.scope, self.given = saved, given
        return None if inner is None else args + inner
