"""Checked AST → generated Python source, compiled once per rules version.

Expressions become Python expressions on the state's own data (``st.vars``,
``st.zones``, attribute tables bound as globals); comprehension variables and
function parameters are Python locals.  Statements keep the instruction layout
of the reference path (``reference.py``): the same pcs, so a frame
``[procedure, pc, locals]`` means the same thing on both paths and states
still go to JSON and back at any decision.  A run of statements with no
decision point in it (no choose, call, perform, end, window) becomes one
instruction: straight Python with its own ``if``/``for``/``while``, counting
loop rounds against the step budget.  Pcs inside such a run are never entered
(a decision never stops there), so they hold no code.  An instruction's jumps
are then fused with the code they lead to, so that what runs between two
decisions or calls is mostly one call from ``State._run`` (measured on the
largest game here: from ~22 to ~9 instructions per decision); only the pcs the interpreter
enters (decisions, the pcs after them, return addresses, jumps left unfused)
get a function.  Locals an instruction reads more than once are kept in
Python locals as well (``_aliased``).

A call pushes the callee's frame and runs the callee at once, inside the
caller's instruction (``Compiler._enter``): the caller goes on there when it
returns, and only a decision stops the chain, every frame then on the stack
with the pc it goes on at.  Cheap operations are written out where they are
used (``Op.inline``), and so are small functions (``Compiler._inlined``: a
body of one expression without loops, its arguments each evaluated once, in
order), zone names come from tables (``ZoneNames``), log lines
keep their values and are formatted when read (``logtext``), a for or repeat
loop counts its rounds at once, and a function of fixed facts keeps its
values for the game definition.

Each generated line maps back to the DSL line and column of its statement; a
fault's place is read from the traceback, so the fast path pays nothing for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from engine.errors import EngineBug, RuleFault
from engine.lang import ast
from engine.lang.checker import Vocabulary
from engine.lang.ops import KEYED, MAX_SIZE, OPS, bounded, times, zone_cards
from engine.lang.readset import Reads, frozen
from engine.lang.subsets import subsets
from engine.lang.types import ANY, INT, PLAYER, ZONE, Type, loop_of
from engine.runtime import together
from engine.runtime.numbers import CHECKED_OPS, in_range
from engine.runtime.program import DEFAULT_END, NEXT, SUSPEND, Choice, Procedure, bounds_check, enum_check


class Overrun(Exception):
    """A generated loop used up the step budget (the interpreter reports E703 at the loop)."""


def _fault(message: str):
    raise RuleFault(message)


def _unset(name: str):
    raise RuleFault(f"'{name}' has no value yet")


def _div(x, y):
    if y == 0:
        raise RuleFault("division by zero")
    return x // y


def _mod(x, y):
    if y == 0:
        raise RuleFault("division by zero")
    return x % y


def _overrun():
    raise Overrun()


MEMO_TRIAL = 2_000  # calls of a memoised function counted before it is settled (``_settle``)
MEMO_WORTH = 5  # kept memoised if at least one call in this many finds its value there


def _settle(ns: dict, fn: str, tally: list) -> None:
    """After ``MEMO_TRIAL`` calls, call function ``fn`` through its memo only if the memo paid: looking a value
    up costs more than many bodies do, and a value asked for once per instruction is never found there.  Its
    values are the same either way (it is pure); this game definition's calls of it are then one of the two."""
    ns[fn] = ns[f"{fn}_memo"] if tally[1] * MEMO_WORTH >= tally[0] else ns[f"{fn}_body"]


FIXED_KEPT = 10_000  # values kept per fixed function (Compiler._function_unit), then forgotten all at once
DIRECT_DEPTH = 48  # frames deep a called procedure still runs inside its caller; deeper, State._run runs it


def _rounds(st, code: list, env: dict, pc: int) -> int:
    """The instructions of a called procedure after its first, each counted against the step budget.

    A call runs the procedure inside its caller's instruction (``Compiler._enter``): a call costs no trip
    through the interpreter loop.  Its first instruction is not counted: a chain of calls without a loop
    ends, and a loop comes back here or through the interpreter, which count every round.  A stack deeper
    than DIRECT_DEPTH goes through the interpreter, so Python's own stack never limits the rules' recursion.
    """
    budget = st.game.step_budget
    while pc >= 0:
        st.steps += 1
        if st.steps > budget:
            st.stack[-1][1] = pc  # the place the budget ran out at (State._where)
            _overrun()
        if st.memo:
            st.memo.clear()
        pc = code[pc](st, env)
    return pc


def _no_value(exc: KeyError, st, env: dict, filename: str, names: frozenset) -> None:
    """Raise "has no value yet" if ``exc`` is an instruction's own read of a local its frame lacks, and
    "there is no zone" if it is its own read of a zone (``st.zones[name]``) that is not there.

    Instructions read locals (``names``) as ``env[name]`` and zones as ``st.zones[name]``, one lookup on
    the hot path; this runs only when a lookup failed, and lets any other KeyError go on as it was.
    """
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    name = exc.args[0] if len(exc.args) == 1 else None
    if tb is None or tb.tb_frame.f_code.co_filename != filename:
        return
    if name in names and name not in env:
        raise RuleFault(f"'{name}' has no value yet").with_traceback(exc.__traceback__) from None
    if name.__class__ is str and name not in st.zones:
        raise RuleFault(f"there is no zone '{name}'").with_traceback(exc.__traceback__) from None


class ZoneNames(dict):
    """A zone family's names by key (``hand`` → {0: "hand:0", …}), made as they are asked for: a zone
    named in the rules costs one lookup, not a text built and hashed anew at every read."""

    KEPT = 4096  # names remembered per family (a key may be any text a rule builds)

    def __init__(self, family: str):
        super().__init__()
        self.family = family

    def __missing__(self, key) -> str:
        if key is None:
            raise RuleFault(f"{self.family}(…) of nothing: its key is none")
        name = f"{self.family}:{key}"
        if len(self) < self.KEPT and key.__class__ in (int, str):
            self[key] = name
        return name

    def __reduce__(self):  # kept in the code cache empty: its names are made again on demand
        return (ZoneNames, (self.family,))


def _unchecked(code: str) -> str:
    """The value that ``Compiler._sized`` checks in ``code``."""
    found = _SIZED.match(code)
    return found.group(2) if found else code.removeprefix("_bounded(")[:-1]


_SIZED = re.compile(r"^\((_t\d+) if len\(\1 := (.*)\) <= _MAX_SIZE else _bounded\(\1\)\)$", re.DOTALL)
_MISSING = object()
_PLAIN_ARG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?\d+|'[^'\\\\]*'")  # read as often as wanted: no cost, no failure
INLINE_DEPTH = 3  # function bodies written out one inside another, at most
INLINE_SIZE = 600  # characters of a body written out, at most
_READ = re.compile("\x01([^\x02]*)\x02")  # an instruction's read of a local (see _read)
_NAME = "[A-Za-z_][A-Za-z0-9_]*"  # the locals kept in Python locals: their names print alike in both
_WRITE = re.compile(rf"( *)env\[('{_NAME}')\] = (?!=)")  # a line storing a local


def _read(name: str) -> str:
    """An instruction's read of the local ``name``, marked so that ``_aliased`` can make it a Python local's."""
    return f"\x01{name}\x02"  # never in a Python literal's text (repr escapes control characters)


def _aliased(lines: list, always: frozenset, where: tuple[int, int]) -> list:
    """An instruction's lines with the locals it reads more than once kept in Python locals too.

    ``always`` holds the locals every frame of the procedure has (``me``, its parameters): read once at
    the top.  Another local is read from its alias after a store to it, until the block of that store
    ends (a line less indented); every store to an aliased local writes both, so they never differ.
    """
    reads: dict[str, int] = {}
    for text, _ in lines:
        for name in _READ.findall(text):
            reads[name] = reads.get(name, 0) + 1
    hot = {n for n, k in reads.items() if k > 1 and re.fullmatch(_NAME, n)}
    active = dict.fromkeys(sorted(hot & always), -1)  # alias → indentation of the block it is valid in
    out = [(f"_l_{n} = env[{n!r}]", where) for n in active]

    def resolve(m: re.Match) -> str:
        n = m.group(1)
        return f"_l_{n}" if n in active else f"env[{n!r}]"

    for text, at in lines:
        pad = len(text) - len(text.lstrip(" "))
        for n in [n for n, level in active.items() if pad < level]:
            del active[n]
        store = _WRITE.match(text)
        name = store.group(2)[1:-1] if store else None
        if store and name in hot:
            text = f"{store.group(0)}_l_{name} = {_READ.sub(resolve, text[store.end() :])}"
            active[name] = min(active.get(name, pad), pad)
        else:
            text = _READ.sub(resolve, text)
        out.append((text, at))
    return out


def _rebinds(body: list, name: str) -> bool:
    """Whether a statement in ``body`` (or a block inside it) stores into the local ``name``."""
    for block in ast.walk_blocks(body):
        for x in block:
            if isinstance(x, ast.For) and x.var == name:
                return True
            if any(isinstance(t, ast.Name) and t.name == name for t in x.contents()[1]):
                return True
    return False


RUNTIME = {
    "_fault": _fault,
    "_unset": _unset,
    "_div": _div,
    "_mod": _mod,
    "_bounded": bounded,
    "_MAX_SIZE": MAX_SIZE,
    "_times": times,
    "_in_range": in_range,
    "_overrun": _overrun,
    "_rounds": _rounds,
    "DIRECT_DEPTH": DIRECT_DEPTH,
    "FIXED_KEPT": FIXED_KEPT,
    "_no_value": _no_value,
    "_settle": _settle,
    "MEMO_TRIAL": MEMO_TRIAL,
    "_zone_cards": zone_cards,
    "_MISSING": _MISSING,
    "_frozen": frozen,
    "NEXT": NEXT,
    "SUSPEND": SUSPEND,
    "RuleFault": RuleFault,
}

FUSE_DEPTH = 4  # jumps followed into one instruction
FUSE_LINES = 120  # lines an instruction may grow to by fusing


class _Target:
    """A pc not known yet when the jump to it is written."""

    __slots__ = ("pc",)

    def __init__(self, pc: int = -1):
        self.pc = pc


def _not_yet_compiled(st, env):
    """The instruction of a pc before its procedure is compiled (``_finish`` replaces it)."""
    raise EngineBug("an instruction ran before its procedure was compiled")


class _Jump:
    """``return PC`` as a line of an instruction's body: rendered as that return, or replaced by the
    body at PC itself (fused, see ``_expand``), ``pad`` deeper than the body's own lines."""

    __slots__ = ("pad", "target")

    def __init__(self, target: int | _Target, pad: str = ""):
        self.target, self.pad = target, pad

    @property
    def pc(self) -> int:
        return self.target.pc if isinstance(self.target, _Target) else self.target


class Compiler:
    """Generates and compiles the code of one game definition (same interface as the reference path)."""

    def __init__(self, vocab: Vocabulary, game, functions: Mapping[str, ast.Expr | list] | None = None):
        """``functions``: the game's functions by name, their bodies (all pure: the checker sees to it)."""
        self.vocab, self.game, self.pure = vocab, game, frozenset(functions or ())
        self.value_bodies = {n: b for n, b in (functions or {}).items() if isinstance(b, ast.Expr)}
        self.ns: dict = dict(RUNTIME, _effects=game.effects)
        self.names: dict[tuple, str] = {}  # (kind, key) → global name in ns
        self.scope: dict[str, str] = {}  # DSL local → Python local (comprehension variables, parameters)
        self.nonnull: set[str] = set()  # Python locals that never hold none (cards of a zone)
        self.iterable = 0  # > 0 inside a comprehension's source, where ':=' is not allowed
        self.temps = 0
        self.windows: list[tuple[str, _Target]] = []
        self.loops: list[tuple[str | None, int, _Target]] = []  # enclosing loops: (state key, top pc, exit)
        self.units = 0
        self.in_instruction = False  # locals read as env[name]: the instruction catches a missing one
        self.env_reads: set[str] = set()  # the locals read so in the procedure being compiled
        self.idle: dict[str, bool] = {}  # procedures compiled so far → whether they do nothing
        self.in_function = False  # compiling a function's statements: nothing changes the state, no memo to clear
        self.inline: dict[str, ast.Expr | None] = {}  # functions asked about → the body written out, or None
        self.fixed: dict[str, bool] = {}  # functions asked about → whether their values hang on fixed facts only
        self.inlining = 0  # bodies being written out around the expression now compiled

    # ------------------------------------------------------------- globals
    def _global(self, kind: str, key, make: Callable) -> str:
        name = self.names.get((kind, key))
        if name is None:
            name = self.names[(kind, key)] = f"_{kind}{len(self.names)}"
            self.ns[name] = make()
        return name

    def _temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def _filled(self, e: ast.Expr, inside: frozenset = frozenset()) -> bool:
        """Whether every item of the list ``e`` is a value, never none, as its code shows: the cards of a
        zone, the members of an enum, a list written out of values, a comprehension of values, what an
        operation declared ``no_none`` gives, what a game function's body gives (``inside``: the functions
        being looked into).  An item read from such a list needs no check for none."""
        if e.type == ZONE:
            return True
        if isinstance(e, ast.Name):
            return e.name in self.vocab.enums and e.name not in self.scope
        if isinstance(e, ast.ListExpr):
            return all(self._valued(x, inside) for x in e.items)
        if isinstance(e, ast.Comprehension):
            return self._valued(e.element, inside)
        if isinstance(e, ast.Conditional):
            return self._filled(e.then, inside) and self._filled(e.otherwise, inside)
        if isinstance(e, ast.Binary) and e.op == "+":
            return self._filled(e.left, inside) and self._filled(e.right, inside)
        if isinstance(e, ast.Call):
            if e.func in OPS:
                return OPS[e.func].no_none
            body = self.value_bodies.get(e.func)
            return body is not None and e.func not in inside and self._filled(body, inside | {e.func})
        return False

    def _valued(self, e: ast.Expr, inside: frozenset) -> bool:
        """Whether ``e`` is a value, never none, as its code shows (see ``_filled``)."""
        if isinstance(e, ast.Literal):
            return e.value is not None
        if isinstance(e, (ast.Record, ast.ListExpr, ast.MapExpr, ast.Comprehension)):
            return True
        if isinstance(e, ast.Call) and e.func in OPS:
            return OPS[e.func].no_none
        return False

    def _cards_of(self, zone: str) -> str:
        """The cards of a zone where a list is wanted.  In an instruction a lookup: the instruction says
        when there is no such zone (``_no_value``); elsewhere the operation's check."""
        return f"st.zones[{zone}]" if self.in_instruction else f"_zone_cards(st, {zone})"

    def _sized(self, value: str) -> str:
        """``value`` (a text or list), refused if over the size budget: checked here, ``bounded`` says why."""
        if self.iterable:  # no ':=' here
            return f"_bounded({value})"
        t = self._temp()
        return f"({t} if len({t} := {value}) <= _MAX_SIZE else _bounded({t}))"

    def _checked(self, value: str, use: Callable[[str], str], message: str) -> str:
        """``use(v)`` of ``value``, or a RuleFault with ``message`` when it is none."""
        if value in self.nonnull:
            return use(value)
        if self.iterable:  # no ':=' here: evaluate through a tiny function
            fn = self._global("chk", message, lambda: lambda v: _fault(message) if v is None else v)
            return use(f"{fn}({value})")
        t = self._temp()
        return f"({use(t)} if ({t} := {value}) is not None else _fault({message!r}))"

    def _compile(self, source: str, filename: str) -> None:
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as exc:  # Python's parser nests at most 200 parentheses
            if "too many nested" not in str(exc):
                raise
            raise RecursionError("an expression is nested too deeply to compile") from None
        exec(code, self.ns)

    # ---------------------------------------------------------- expressions
    def code(self, e: ast.Expr) -> str:
        """Python source of an expression."""
        return getattr(self, "_e_" + type(e).__name__)(e)

    def _e_Literal(self, e):
        return repr(e.value)

    def _e_Name(self, e):
        v, n = self.vocab, e.name
        if n in self.scope:
            return self.scope[n]
        if n in v.variables:
            return f"st.vars[{n!r}]"
        if n in v.constants:
            return repr(v.constants[n][1])
        if n in v.enums:
            return repr(list(v.enums[n]))
        if n in v.zones or n in v.boards:
            return repr(n)
        if n in OPS and OPS[n].constant:
            return f"({OPS[n].inline})" if OPS[n].inline is not None else f"{self._op(n)}(st)"
        if self.in_instruction:
            self.env_reads.add(n)
            return _read(n)
        return f"(env[{n!r}] if {n!r} in env else _unset({n!r}))"

    def _op(self, name: str) -> str:
        return self._global("op", name, lambda: CHECKED_OPS.get(name) or OPS[name].fn)

    def _e_ListExpr(self, e):
        return "[" + ", ".join(self.code(i) for i in e.items) + "]"

    def _e_Record(self, e):
        return "{" + ", ".join(f"{name!r}: {self.code(v)}" for name, v in e.fields) + "}"

    def _e_MapExpr(self, e):
        return "{" + ", ".join(f"{key!r}: {self.code(v)}" for key, v in e.entries) + "}"

    def _e_Comprehension(self, e):
        self.iterable += 1
        source = self.code(e.source)
        self.iterable -= 1
        if e.source.type == ZONE:
            source = f"st.zones[{source}]"
        var = self._temp()
        saved = self.scope.get(e.var)
        self.scope[e.var] = var
        if self._filled(e.source):
            self.nonnull.add(var)
        element = self.code(e.element)
        cond = f" if {self.code(e.condition)}" if e.condition is not None else ""
        if saved is None:
            del self.scope[e.var]
        else:
            self.scope[e.var] = saved
        return f"[{element} for {var} in {source}{cond}]"

    def _e_PairComprehension(self, e):
        sources, names = [], []
        saved = {n: self.scope.get(n) for n in (e.var, e.inner_var)}
        for var, source in ((e.var, e.source), (e.inner_var, e.inner_source)):
            self.iterable += 1
            code = self.code(source)
            self.iterable -= 1
            sources.append(f"st.zones[{code}]" if source.type == ZONE else code)
            names.append(self._temp())
            self.scope[var] = names[-1]
            if self._filled(source):
                self.nonnull.add(names[-1])
        element = self.code(e.element)
        cond = f" if {self.code(e.condition)}" if e.condition is not None else ""
        for n, v in saved.items():
            if v is None:
                del self.scope[n]
            else:
                self.scope[n] = v
        return f"[{element} for {names[0]} in {sources[0]} for {names[1]} in {sources[1]}{cond}]"

    def _e_Attr(self, e):
        obj, name = self.code(e.obj), e.name
        if e.obj.type is not None and e.obj.type.is_record:
            return self._checked(obj, lambda v: f"{v}.get({name!r})", f"no record to read '{name}' of")
        if e.obj.type == PLAYER:
            return self._checked(obj, lambda v: f"st.pvars[{v}][{name!r}]", f"no player to read '{name}' of")
        table = self._global("attr", name, lambda: self.game.attributes[name])
        return self._checked(obj, lambda v: f"{table}[{v}]", f"no card to read '{name}' of")

    def _e_Call(self, e):
        v = self.vocab
        args = [self.code(a) for a in e.args]
        if e.func in v.zones or e.func in v.boards:
            family = e.func
            if not args:
                return repr(family)
            names = self._global("zn", family, lambda: ZoneNames(family))
            return f"{names}[{args[0]}]"
        if e.func in v.functions:
            me = self.scope.get("me", _read("me") if self.in_instruction else "env.get('me')")
            written = self._inlined(e.func, args, me)
            if written is not None:
                return written
            fn = self._global("fn", e.func, lambda: None)  # defined by ``function``
            return f"{fn}(st, {me}{''.join(', ' + a for a in args)})"
        args = [
            self._cards_of(a) if arg.type is ZONE and ptype.is_list else a
            for a, arg, (_, ptype) in zip(args, e.args, OPS[e.func].params)
        ]  # one collection protocol: where a list is wanted, a zone gives its cards
        inline = OPS[e.func].inline
        if inline is not None and len(args) == len(OPS[e.func].params):
            return f"({inline.format(*args)})"
        return f"{self._op(e.func)}(st{''.join(', ' + a for a in args)})"

    def _inlined(self, name: str, args: list[str], me: str) -> str | None:
        """A call of a small function written out where it is made: its body with the arguments in place of
        the parameters (a Python call costs more than most such bodies).  The arguments are evaluated
        first, left to right, each once, as the call would: one that is more than a name or a literal is
        bound to a temporary, so a body that reads it twice or not at all changes nothing.  None: call it."""
        body = self._inline_body(name)
        if body is None or self.inlining >= INLINE_DEPTH:
            return None
        params = [p for p, _ in self.vocab.functions[name][0]]
        scope, binds = {"me": me}, []
        for param, arg in zip(params, args):
            if _PLAIN_ARG.fullmatch(arg) or arg == _read("me"):  # every frame holds its seat
                scope[param] = arg
            elif self.iterable:  # no ':=' here
                return None
            else:
                scope[param] = t = self._temp()
                binds.append(f"(({t} := {arg}) or True)")
                if arg in self.nonnull:
                    self.nonnull.add(t)
        saved = self.scope, self.in_instruction
        self.scope, self.in_instruction = scope, False  # the body sees its parameters only, as in its own unit
        self.inlining += 1
        try:
            text = self.code(body)
        finally:
            self.scope, self.in_instruction = saved
            self.inlining -= 1
        if len(text) > INLINE_SIZE:
            return None
        return f"({text} if {' and '.join(binds)} else None)" if binds else f"({text})"

    def _inline_body(self, name: str) -> ast.Expr | None:
        """The body of function ``name`` if it is small, worth writing out where it is called: one expression
        with no loop, calling only such functions or functions of fixed facts (those stay calls), and, if its
        own value hangs on fixed facts only (kept for the game definition, see ``_function_unit``), neither an
        operation that is not written out itself nor a list, record or map to build: a value looked up is
        cheaper than one made again."""
        if name in self.inline:
            return self.inline[name]
        self.inline[name] = None  # while it is looked at: a function that calls itself is never written out
        body = self.value_bodies.get(name)
        if body is None:
            return None
        nodes = list(ast.walk_exprs(body))
        if any(isinstance(x, (ast.KeyedCall, ast.Comprehension)) for x in nodes):
            return None
        called = [x.func for x in nodes if isinstance(x, ast.Call) and x.func in self.vocab.functions]
        if any(self._inline_body(f) is None and not self._fixed(f) for f in called):
            return None
        kept = any(
            (isinstance(x, ast.Call) and x.func in OPS and OPS[x.func].inline is None)
            or (isinstance(x, (ast.ListExpr, ast.Record, ast.MapExpr)) and x.children())
            for x in nodes
        )
        if kept and self._fixed(name):
            return None
        self.inline[name] = body
        return body

    def _e_KeyedCall(self, e):
        """``max(LIST, by: KEY)``: the operation gets (key, item) pairs, KEY computed with the item as ``it``."""
        self.iterable += 1
        source = self.code(e.source)
        self.iterable -= 1
        if e.source.type == ZONE:
            source = self._cards_of(source)
        var = self._temp()
        saved = self.scope.get("it")
        self.scope["it"] = var
        if self._filled(e.source):
            self.nonnull.add(var)
        key = self.code(e.key)
        if saved is None:
            del self.scope["it"]
        else:
            self.scope["it"] = saved
        fn = self._global("keyed", e.func, lambda: KEYED[e.func].fn)
        return f"{fn}([({key}, {var}) for {var} in {source}])"

    def _e_Unary(self, e):
        return f"(not {self.code(e.operand)})" if e.op == "not" else f"(-{self.code(e.operand)})"

    def _e_Conditional(self, e):
        return f"({self.code(e.then)} if {self.code(e.condition)} else {self.code(e.otherwise)})"

    def _e_Binary(self, e):
        a, b, op = self.code(e.left), self.code(e.right), e.op
        if op in ("in", "not in"):
            return f"({a} {op} {f'st.zones[{b}]' if e.right.type == ZONE else b})"
        if op in ("//", "%"):
            return f"{'_div' if op == '//' else '_mod'}({a}, {b})"
        if op == "*":
            return f"_in_range(_times({a}, {b}))"
        if op == "+" and e.type != INT:  # lists and text joined grow: their size is checked, once per chain
            if isinstance(e.left, ast.Binary) and e.left.op == "+" and e.left.type == e.type:
                a = _unchecked(a)  # a + b + c: a few values within the budget, checked at the end
            return self._sized(f"{a} + {b}")
        if op in ("+", "-"):  # each sum within 64 bits (numbers.py), as the VM's
            return f"_in_range({a} {op} {b})"
        if op in ("and", "or") and a.startswith("(") and isinstance(e.left, ast.Binary) and e.left.op == op:
            return f"{a[:-1]} {op} {b})"  # a left-leaning chain stays one level deep: (a and b and c)
        return f"({a} {op} {b})"

    def expr(self, e: ast.Expr) -> Callable:
        """A function ``f(state, env)`` computing ``e`` (scoring, starts, bot values)."""
        self.units += 1
        name = f"_x{self.units}"
        self._compile(f"def {name}(st, env):\n    return {self.code(e)}\n", f"<rules {self.game.id} expression>")
        return self.ns[name]

    def function(self, name: str, body: ast.Expr) -> Callable:
        """Compile a game function; returns it as ``f(state, env)`` (its parameters and ``me`` in env)."""
        params = [p for p, _ in self.vocab.functions[name][0]]
        py = [f"a_{i}" for i in range(len(params))]
        self.scope = dict(zip(params, py), me="me")
        text = self.code(body)
        self.scope = {}
        # a small function's value costs about what looking it up in the memo does: it is not memoised
        small = self._inline_body(name) is not None
        return self._function_unit(name, [f"    return {text}"], memo=not small, fixed=self._fixed(name))

    def _fixed(self, name: str) -> bool:
        """Whether function ``name`` reads nothing of the state but the number of players."""
        if name not in self.fixed:
            body = self.value_bodies.get(name)
            params = frozenset(p for p, _ in self.vocab.functions[name][0]) | {"me"}
            saved, self.scope = self.scope, {}
            try:
                reads = Reads(self, self.vocab, self.value_bodies, params)
                self.fixed[name] = body is not None and reads.slots(body) == []
            finally:
                self.scope = saved
        return self.fixed[name]

    def function_program(self, name: str, stmts: list[ast.Stmt]) -> Callable:
        """Compile a function written as statements: straight Python, its locals in a dict of its own."""
        params = [p for p, _ in self.vocab.functions[name][0]]
        lines: list = []
        self.in_function = True
        for s in stmts:
            self._flat(s, lines, 0)
        self.in_function = False
        env = ", ".join([f"{p!r}: a_{i}" for i, p in enumerate(params)] + ["'me': me"])
        # Its loops count against the step budget from where the caller was, and give the steps back: a
        # function called again and again between decisions (by a bot, by a view) is bounded per call.
        body = ["    _steps = st.steps", "    try:", f"        env = {{{env}}}"]
        body += ["        " + text for text, _ in lines] + ["    finally:", "        st.steps = _steps"]
        return self._function_unit(name, body)

    def _function_unit(self, name: str, body: list[str], memo: bool = True, fixed: bool = False) -> Callable:
        """Define ``{fn}_body(st, me, a_0…)`` from its lines, memoised when pure (and ``memo``: a body
        without loops costs about what looking it up does); returns ``f(state, env)``.

        A ``fixed`` function reads nothing of the state but the number of players (its value hangs on its
        arguments and the game's fixed facts: cards, boards): its values are kept for the whole game
        definition, not for one instruction."""
        params = [p for p, _ in self.vocab.functions[name][0]]
        fn = self._global("fn", name, lambda: None)
        py = [f"a_{i}" for i in range(len(params))]
        args = "".join(", " + p for p in py)
        lines = [f"def {fn}_body(st, me{args}):", *body]
        if fixed:
            kept = self._global("fixed", name, dict)
            lines += [
                f"def {fn}(st, me{args}):",
                f"    key = (st.n, me{args})",
                "    try:",
                f"        found = {kept}.get(key, _MISSING)",
                "    except TypeError:  # a list argument is not hashable",
                f"        return {fn}_body(st, me{args})",
                "    if found is _MISSING:",
                f"        if len({kept}) >= FIXED_KEPT:",
                f"            {kept}.clear()",
                f"        found = {kept}[key] = {fn}_body(st, me{args})",
                "    return found",
            ]
        elif name in self.pure and memo:  # memoised for the instruction being run (see State._run)
            tally = self._global("tally", name, lambda: [0, 0])  # calls, values found in the memo
            for suffix, trial in (("_memo", False), ("", True)):  # the first calls are counted: ``_settle``
                lines += [
                    f"def {fn}{suffix}(st, me{args}):",
                    f"    key = ({name!r}, me{args})",
                    "    memo = st.memo",
                    "    try:",
                    "        found = memo.get(key, _MISSING)",
                    "    except TypeError:  # a list argument is not hashable",
                    f"        return {fn}_body(st, me{args})",
                    "    if found is _MISSING:",
                    f"        found = memo[key] = {fn}_body(st, me{args})",
                ]
                if trial:
                    lines += [
                        "    else:",
                        f"        {tally}[1] += 1",
                        f"    {tally}[0] += 1",
                        f"    if {tally}[0] >= MEMO_TRIAL:",
                        f"        _settle(globals(), {fn!r}, {tally})",
                    ]
                lines.append("    return found")
        else:
            lines += [f"{fn} = {fn}_body"]
        lines += [
            f"def {fn}_env(st, env):",
            f"    return {fn}_body(st, env.get('me'){''.join(f', env[{p!r}]' for p in params)})",
        ]
        self._compile("\n".join(lines) + "\n", f"<rules {self.game.id} function {name}>")
        return self.ns[f"{fn}_env"]

    def read_key(self, exprs: list[ast.Expr], params: tuple[str, ...], bodies: dict[str, ast.Expr]) -> Callable | None:
        """``key(state, *params)``: the parameters and everything ``exprs`` read, or None if they read more
        than plain data (see ``readset``); equal keys mean equal values."""
        reads = Reads(self, self.vocab, bodies, frozenset(params))
        given = [f"_k{i}" for i in range(len(params))]
        self.scope = dict(zip(params, given))
        slots: list[str] = []
        try:
            for e in exprs:
                part = reads.slots(e)
                if part is None:
                    return None
                for s in part:
                    s = re.sub(r"\((_k\d+)\)", r"\1", s)  # one read prints alike wherever it is found
                    if s not in slots:
                        slots.append(s)
        finally:
            self.scope = {}
        self.units += 1
        name = f"_key{self.units}"
        parts = [*given, "st.n", *slots]
        self._compile(
            f"def {name}(st, {', '.join(given)}):\n    return ({', '.join(parts)},)\n", f"<rules {self.game.id} key>"
        )
        return self.ns[name]

    # ----------------------------------------------------------- statements
    def procedure(
        self,
        name: str,
        stmts: list[ast.Stmt],
        source_path: str = "",
        locate=None,
        params: dict[str, Type] | None = None,
    ) -> Procedure:
        proc = Procedure(name, source_path=source_path, locate=locate)
        idle = self.idle[name] = all(isinstance(s, ast.Pass) for s in stmts)
        self.ns[self._global("idle", name, lambda: False)] = idle
        proc.local_types.update(params or {})
        self.params = frozenset(params or ()) | {"me"}  # every frame of the procedure has these
        self.bodies: list = []  # per pc: lines of its function, each (text or _Jump, (line, col)), or None
        self.targets: dict[int, ast.Name | ast.Attr] = {}  # pc of a choice → what it stores into
        self.entries = {0}  # pcs the interpreter enters other than by a jump: decisions, return addresses
        self.proc = proc
        self.env_reads = set()
        self.in_instruction = True
        me = _read("me")  # every frame holds its acting seat (callers pass theirs on; a saved state is checked)
        self.nonnull.add(me)
        try:
            self._block(proc, stmts)
        finally:
            self.in_instruction = False
            self.nonnull.discard(me)
        self._emit(proc, [("st.stack.pop()", None), ("return NEXT", None)], (stmts[-1].line if stmts else 1, 1))
        self._finish(proc)
        return proc

    def _finish(self, proc: Procedure) -> None:
        """Render the instructions the interpreter can enter, compile them as one unit, fill ``proc.code``.

        An instruction's jumps are fused with the code they lead to (``_expand``): what runs between
        two decisions or calls is mostly one call from ``State._run``.  Pcs only ever jumped to, and
        fused everywhere, hold no code; the reference path's numbering stays.
        """
        self.units += 1
        unit = self.units
        filename = f"<rules {self.game.id} {proc.name}>"
        names = self._global("locals", proc.name, lambda: frozenset(self.env_reads))
        out: list[str] = []
        todo, made = sorted(self.entries, reverse=True), set()
        jumped = {j.pc for body in self.bodies for j, _ in body or () if isinstance(j, _Jump)}
        chosen = {  # a choice's local has a value where the interpreter resumes after it
            pc + 1: t.name
            for pc, t in self.targets.items()
            if isinstance(t, ast.Name) and t.name not in self.vocab.variables and pc + 1 not in jumped
        }
        while todo:
            pc = todo.pop()
            if pc in made or self.bodies[pc] is None:
                continue
            made.add(pc)
            out.append(f"def _i{unit}_{pc}(st, env):")
            out.append("    try:")
            lines: list = []
            self._expand(proc, pc, "", (pc,), lines)
            for i, (text, where) in enumerate(lines):
                if isinstance(text, _Jump):
                    todo.append(text.pc)
                    lines[i] = (f"{text.pad}return {text.pc}", where)
            known = self.params | {chosen[pc]} if pc in chosen else self.params
            for text, where in _aliased(lines, known, proc.where[pc]):
                out.append("        " + text)
                proc.lines[len(out)] = where
            out += [
                "    except KeyError as _x:",
                f"        _no_value(_x, st, env, {filename!r}, {names})",
                "        raise",
            ]
        self._compile("\n".join(out) + "\n", filename)
        proc.filename = filename
        code = self.ns[self._global("code", proc.name, list)]  # the very list its callers' code holds
        code[:] = [self.ns[f"_i{unit}_{pc}"] if pc in made else None for pc in range(len(self.bodies))]
        proc.code = code
        for pc, target in self.targets.items():
            proc.choices[pc] = self._store_function(target, filename)

    def _threaded(self, pc: int) -> int:
        """Where a jump to ``pc`` leads once instructions that only jump on are skipped."""
        seen = {pc}
        while True:
            body = self.bodies[pc]
            if body is None or len(body) != 1 or not isinstance(body[0][0], _Jump) or body[0][0].pad:
                return pc
            pc = body[0][0].pc
            if pc in seen:  # a loop of bare jumps: it still runs (and counts steps) through the interpreter
                return pc
            seen.add(pc)

    def _expand(self, proc: Procedure, pc: int, pad: str, chain: tuple, out: list) -> None:
        """Append the lines of instruction ``pc``, each with its place, its jumps fused where it pays.

        A jump is replaced by the code it leads to, up to FUSE_DEPTH deep and FUSE_LINES lines per
        instruction.  Fusing is sound here: the pcs a frame keeps (decisions, return addresses) are
        written as numbers and never changed, every statement that calls a pure function clears the
        memo first, and a loop always comes back through the interpreter, which counts its steps.
        """
        for text, where in self.bodies[pc]:
            where = where or proc.where[pc]
            if not isinstance(text, _Jump):
                out.append((pad + text, where))
                continue
            target = self._threaded(text.pc)
            body = self.bodies[target]
            if (
                body is not None
                and target not in chain
                and len(chain) <= FUSE_DEPTH
                and len(out) + len(body) <= FUSE_LINES
            ):
                self._expand(proc, target, pad + text.pad, chain + (target,), out)
            else:
                out.append((_Jump(target, pad + text.pad), where))

    def _test(self, cond: ast.Expr, then: int, otherwise: _Target) -> list:
        """Jump to ``then`` if ``cond`` holds, else to ``otherwise`` (a literal condition jumps at once)."""
        if isinstance(cond, ast.Literal) and isinstance(cond.value, bool):
            return [(_Jump(then if cond.value else otherwise), None)]
        return [(f"if {self.code(cond)}:", None), (_Jump(then, "    "), None), (_Jump(otherwise), None)]

    def _emit(self, proc: Procedure, body: list | None, where: tuple[int, int]) -> int:
        proc.code.append(_not_yet_compiled)
        proc.where.append(where)
        self.bodies.append(body)
        return len(proc.code) - 1

    def _block(self, proc: Procedure, stmts: list[ast.Stmt]) -> None:
        i = 0
        while i < len(stmts):
            if self._is_flat(stmts[i]):
                j = i
                while j < len(stmts) and self._is_flat(stmts[j]):
                    j += 1
                start = len(proc.code)
                self._reserve(proc, stmts[i:j])  # the reference path's pcs, never entered here
                lines: list = []
                for s in stmts[i:j]:
                    self._flat(s, lines, 0)
                lines.append((_Jump(len(proc.code)), None))
                self.bodies[start] = lines
                i = j
            else:
                getattr(self, "_s_" + type(stmts[i]).__name__)(proc, stmts[i])
                i += 1

    def _is_flat(self, s: ast.Stmt) -> bool:
        """No decision, call or jump out can happen inside ``s``."""
        if s.CONTROL:
            return False
        if isinstance(s, ast.ExprStmt):  # a call, by the grammar
            call = s.expr
            return isinstance(call, ast.Call) and call.func not in self.vocab.procedures and call.func != "perform"
        if isinstance(s, ast.If):
            return all(self._is_flat(x) for _, body in s.branches for x in body) and all(
                self._is_flat(x) for x in s.otherwise or []
            )
        if isinstance(s, (ast.For, ast.While, ast.Repeat)):
            return all(self._is_flat(x) for x in s.body)
        return True

    def _reserve(self, proc: Procedure, stmts: list[ast.Stmt]) -> None:
        """Take the pcs the reference path gives these statements, and the local types it records."""
        for s in stmts:
            where = (s.line, s.col)
            if isinstance(s, ast.If):
                for cond, body in s.branches:
                    self._emit(proc, None, (cond.line, cond.col))
                    self._reserve(proc, body)
                    self._emit(proc, None, where)
                self._reserve(proc, s.otherwise or [])
            elif isinstance(s, (ast.For, ast.While, ast.Repeat)):
                if isinstance(s, ast.For):
                    self._loop_types(proc, s)
                if not isinstance(s, ast.While):
                    self._emit(proc, None, where)
                self._emit(proc, None, where)
                self._reserve(proc, s.body)
                self._emit(proc, None, where)
            else:
                if isinstance(s, ast.Assign):
                    self._local(proc, s.target)
                self._emit(proc, None, where)

    def _loop_types(self, proc: Procedure, s: ast.For) -> str:
        key = f"${s.var}@{len(proc.code)}"  # hidden loop state, plain data in the frame
        item = s.source.type.items if s.source.type is not None else None
        if item is not None:
            proc.local_types[s.var] = item
            proc.local_types[key] = loop_of(item)
        return key

    def _local(self, proc: Procedure, target: ast.Expr) -> None:
        if isinstance(target, ast.Name) and target.name not in self.vocab.variables and target.type:
            proc.local_types[target.name] = target.type

    def _memo(self, *exprs) -> list:
        """Empty the memo before code that calls a pure function (the state may have changed)."""
        if not self.in_function and any(
            isinstance(x, ast.Call) and x.func in self.pure for e in exprs if e is not None for x in ast.walk_exprs(e)
        ):
            return [("if st.memo: st.memo.clear()", None)]
        return []

    def _flat(self, s: ast.Stmt, lines: list, depth: int) -> None:
        """Append the straight Python of a flat statement to ``lines``."""
        pad = "    " * depth
        where = (s.line, s.col)

        def add(text, at=where):
            lines.append((pad + text, at))

        def memo_first(*exprs):
            for text, _ in self._memo(*exprs):
                add(text)

        if isinstance(s, ast.Assign):
            memo_first(s.value, s.target)
            for text in self._assign(s.target, self.code(s.value)):
                add(text)
        elif isinstance(s, ast.ExprStmt):
            memo_first(s.expr)
            add(self.code(s.expr))
        elif isinstance(s, ast.Log):
            memo_first(*[p for p in s.parts if not isinstance(p, str)], s.to)
            self._log(s, add)
        elif isinstance(s, ast.Pass):
            add("pass")
        elif isinstance(s, ast.ReturnValue):  # only in a function's statements: a procedure's is an instruction
            add(f"return {self.code(s.value)}")
        elif isinstance(s, (ast.Break, ast.Continue)):  # only in a function's statements, as for return
            add("break" if isinstance(s, ast.Break) else "continue")
        elif isinstance(s, ast.If):
            self._flat_if(s.branches, s.otherwise, lines, depth)
        else:
            self._flat_loop(s, lines, depth, add, memo_first)

    def _flat_if(self, branches: list, otherwise: list | None, lines: list, depth: int) -> None:
        """``if``/``else`` nested so each condition gets a fresh memo just before it is tested."""
        pad = "    " * depth
        cond, body = branches[0]
        lines += [(pad + text, (cond.line, cond.col)) for text, _ in self._memo(cond)]
        lines.append((f"{pad}if {self.code(cond)}:", (cond.line, cond.col)))
        lines.append((pad + "    pass", (cond.line, cond.col)))
        for x in body:
            self._flat(x, lines, depth + 1)
        if len(branches) > 1 or otherwise:
            lines.append((pad + "else:", (cond.line, cond.col)))
            lines.append((pad + "    pass", (cond.line, cond.col)))
            if len(branches) > 1:
                self._flat_if(branches[1:], otherwise, lines, depth + 1)
            else:
                for x in otherwise or ():
                    self._flat(x, lines, depth + 1)

    def _flat_loop(self, s, lines: list, depth: int, add, memo_first) -> None:
        budget = self.game.step_budget
        count = ["st.steps += 1", f"if st.steps > {budget}: _overrun()"]
        if isinstance(s, ast.While):
            memo_first(s.condition)
            add(f"while {self.code(s.condition)}:")
            for text in count:
                add("    " + text)
            for x in s.body:
                self._flat(x, lines, depth + 1)
            for text, _ in self._memo(s.condition):
                add("    " + text)
            return
        # A for or repeat loop runs a known number of rounds: they are counted at once, before it starts,
        # unless a return or break may leave it early (only a function's body has them flat).
        at_once = not any(
            isinstance(x, (ast.Return, ast.ReturnValue, ast.Break)) for block in ast.walk_blocks(s.body) for x in block
        )
        sure = None  # the loop variable as the body reads it, if it never holds none there
        if isinstance(s, ast.For):
            memo_first(s.source)
            var = self._temp()
            add(f"for {var} in {self._rounds(add, self._loop_source(s.source), at_once)}:")
            add(f"    env[{s.var!r}] = {var}")
            read = _read(s.var)
            if (
                self.in_instruction
                and read not in self.nonnull
                and self._filled(s.source)
                and not _rebinds(s.body, s.var)
            ):
                sure = read
        else:
            memo_first(s.count)
            add(f"for _ in {self._rounds(add, f'range({self.code(s.count)})', at_once)}:")
        if not at_once:
            for text in count:
                add("    " + text)
        if sure is not None:
            self.nonnull.add(sure)
        for x in s.body:
            self._flat(x, lines, depth + 1)
        self.nonnull.discard(sure)

    def _rounds(self, add, rounds: str, at_once: bool) -> str:
        """What a for or repeat loop runs over (Python source); ``at_once``: kept in a temporary, and its
        rounds counted against the step budget now."""
        if not at_once:
            return rounds
        t = self._temp()
        add(f"{t} = {rounds}")
        add(f"st.steps += len({t})")
        add(f"if st.steps > {self.game.step_budget}: _overrun()")
        return t

    def _loop_source(self, source: ast.Expr) -> str:
        """A list of what a loop runs over, copied (the body may change it) unless the expression makes it afresh."""
        items = self.code(source)
        if source.type == ZONE:
            return f"list(st.zones[{items}])"
        fresh = isinstance(source, (ast.ListExpr, ast.Comprehension)) or (
            isinstance(source, ast.Name)
            and source.name not in self.scope
            and source.name not in self.vocab.variables
            and (source.name in self.vocab.enums or source.name in self.vocab.constants)
        )  # written out as a list display
        return items if fresh else f"list({items})"

    def _assign(self, target: ast.Name | ast.Attr, value: str) -> list[str]:
        """Lines that store ``value`` (already Python source) into an assignment target."""
        if isinstance(target, ast.Name):
            n = target.name
            if n not in self.vocab.variables:
                return [f"env[{n!r}] = {value}"]
            check = self._enum(self.vocab.variables[n], f"variable '{n}'", ("variables", n))
            if check is None:
                return [f"st.vars[{n!r}] = {value}"]
            return [f"_v = {value}", f"{check}(_v)", f"st.vars[{n!r}] = _v"]
        name = target.name
        declared = ("player_variables", name)
        check = self._enum(self.vocab.player_variables.get(name), f"player variable '{name}'", declared)
        lines = [f"_v = {value}"] + ([f"{check}(_v)"] if check else [])
        seat = self.code(target.obj)
        if seat not in self.nonnull:
            lines += [f"_p = {seat}", f"if _p is None: _fault({f'no player to set {name!r} of'!r})"]
            seat = "_p"
        return lines + [f"st.pvars[{seat}][{name!r}] = _v"]

    def _enum(self, t: Type | None, what: str, declared: tuple[str, str]) -> str | None:
        """The check of a value stored in a variable (one of its enum, or between its min: and max:), by name."""
        if t is not None and t.is_enum:
            return self._global("enum", (t, what), lambda: enum_check(self.vocab.enums[t.name], t, what))
        bounds = self.vocab.bounds.get(declared)
        if bounds is None:
            return None
        return self._global("bounds", (declared, bounds), lambda: bounds_check(bounds, what))

    def _log(self, s: ast.Log, add) -> None:
        """A log line: its values computed now, its text only when read (``logtext``): most lines of
        a simulated or searched game are never read.  The values are never changed in place later."""
        parts: list[str] = []
        values: list[str] = []
        for part in s.parts:
            if isinstance(part, str):
                parts.append(repr(part))
            else:
                label = self._global("log_label", part.type, lambda t=part.type: self.game.labeller.log_for_type(t))
                parts.append(f"{label}(_v{len(values)})")
                values.append(self.code(part))
        text = " + ".join(parts) or "''"
        if values:
            self.units += 1
            fmt = f"_log{self.units}"
            self._compile(
                f"def {fmt}({', '.join(f'_v{i}' for i in range(len(values)))}):\n    return {text}\n",
                f"<rules {self.game.id} log>",
            )
            text = f"({fmt}, {', '.join(values)})"
        if s.to is None:
            add(f"st.log_entries.append([None, {text}])")
        else:  # a line for nobody is told to nobody, not to everyone
            add(f"_a = {self.code(s.to)}")
            add(f"if _a is not None: st.log_entries.append([_a, {text}])")

    # ------------------------------------------------- control instructions
    def _s_ExprStmt(self, proc, s):
        call = s.expr
        nxt = len(proc.code) + 1
        if call.func == "perform":
            self.entries.add(nxt)
            body = self._memo(call) + [
                (f"_c = {self.code(call.args[0])}", None),
                ("if _c is None: _fault('perform: no card given')", None),
                ("_t = _effects[_c]", None),
                ("if _t is None:", None),
                (_Jump(nxt, "    "), None),
                (f"_e = {{'me': {_read('me')}, 'this': _c}}", None),
                *self._enter("_t", f"{self._procedures()}[_t].code", nxt),
            ]
        else:  # a procedure with nothing to do (a variant's hook) is not entered: its arguments are still computed
            idle = self.idle.get(call.func)
            if idle:
                body = self._memo(call) + [(f"_e = {self._frame_env(call)}", None), (_Jump(nxt), None)]
            elif idle is None:  # compiled later: it tells at run time (the code after the call is not copied here)
                body = self._call(call, nxt, f"if {self._global('idle', call.func, lambda: False)}: return {nxt}")
            else:
                body = self._call(call, nxt)
        self._emit(proc, body, (s.line, s.col))

    def _frame_env(self, call: ast.Call) -> str:
        """The locals a called procedure starts with: ``me`` and its parameters."""
        params = [p for p, _ in self.vocab.procedures[call.func]]
        return (
            "{" + f"'me': {_read('me')}" + "".join(f", {p!r}: {self.code(a)}" for p, a in zip(params, call.args)) + "}"
        )

    def _procedures(self) -> str:
        return self._global("procs", "", lambda: self.game.procedures)

    def _call(self, call: ast.Call, nxt: int, between: str | None = None) -> list:
        """The instruction that calls a procedure: a new frame, run at once (``_enter``); the caller goes on
        at ``nxt``, here if the procedure returned, from ``State._run`` if it stopped at a decision.
        ``between``: a line between computing the arguments and entering."""
        self.entries.add(nxt)
        code = self._global("code", call.func, list)  # filled when the procedure is compiled (``_finish``)
        return (
            self._memo(call)
            + [(f"_e = {self._frame_env(call)}", None)]
            + ([(between, None)] if between else [])
            + self._enter(repr(call.func), code, nxt)
        )

    @staticmethod
    def _enter(name: str, code: str, nxt: int) -> list:
        """Push the frame of procedure ``name`` (Python source of its name) with locals ``_e``, the caller to
        go on at ``nxt``, and run its ``code`` here: on at ``nxt`` if it returned, else stop with what stopped
        it (SUSPEND at a decision or the end; NEXT when a frame deeper down is left for ``State._run``, every
        frame on the stack then holding the pc to go on at)."""
        return [
            ("_cs = st.stack", None),
            ("_cf = _cs[-1]", None),
            (f"_cf[1] = {nxt}", None),
            (f"_cs.append([{name}, 0, _e])", None),
            ("if len(_cs) > DIRECT_DEPTH: return NEXT", None),
            (f"_r = {code}[0](st, _e)", None),
            (f"if _r >= 0: _r = _rounds(st, {code}, _e, _r)", None),
            ("if _r != NEXT or _cs[-1] is not _cf: return _r", None),
            (_Jump(nxt), None),
        ]

    def _s_CallAssign(self, proc, s):
        """Call, then (when its frame has returned, leaving '$result' here) store the value."""
        nxt = len(proc.code) + 1
        self._emit(proc, self._call(s.value, nxt), (s.line, s.col))
        self._local(proc, s.target)
        self._emit(
            proc,
            [(text, None) for text in self._assign(s.target, "env.pop('$result')")] + [(_Jump(nxt + 1), None)],
            (s.line, s.col),
        )

    def _s_ReturnValue(self, proc, s):
        """Leave the procedure, its value handed to the caller's frame (read at once: never kept at a decision)."""
        self._emit(
            proc,
            self._memo(s.value)
            + [
                (f"_v = {self.code(s.value)}", None),
                ("st.stack.pop()", None),
                ("st.stack[-1][2]['$result'] = _v", None),
                ("return NEXT", None),
            ],
            (s.line, s.col),
        )

    def _s_EndGame(self, proc, s):
        reason = s.reason or DEFAULT_END
        self._emit(
            proc,
            [("st.stack.clear()", None), (f"st.reason = {reason!r}", None), ("return SUSPEND", None)],
            (s.line, s.col),
        )

    def _s_Return(self, proc, s):
        self._emit(proc, [("st.stack.pop()", None), ("return NEXT", None)], (s.line, s.col))

    def _s_If(self, proc, s):
        exits = []
        for cond, body in s.branches:
            skip = _Target()
            nxt = len(proc.code) + 1
            self._emit(proc, self._memo(cond) + self._test(cond, nxt, skip), (cond.line, cond.col))
            self._block(proc, body)
            out = _Target()
            exits.append(out)
            self._emit(proc, [(_Jump(out), None)], (s.line, s.col))
            skip.pc = len(proc.code)
        if s.otherwise is not None:
            self._block(proc, s.otherwise)
        for out in exits:
            out.pc = len(proc.code)

    def _loop(self, proc, s, start: list | None, step: Callable[[int, _Target], list], key: str | None = None) -> None:
        """Emit init, test-and-advance, body, jump back (the reference path's layout); ``key``: the loop's
        state in the frame, dropped by a 'break'."""
        if start is not None:
            self._emit(proc, start + [(_Jump(len(proc.code) + 1), None)], (s.line, s.col))
        top = len(proc.code)
        done = _Target()
        self._emit(proc, step(top + 1, done), (s.line, s.col))
        self.loops.append((key, top, done))
        self._block(proc, s.body)
        self.loops.pop()
        self._emit(proc, [(_Jump(top), None)], (s.line, s.col))
        done.pc = len(proc.code)

    def _s_Break(self, proc, s):
        key, _, done = self.loops[-1]
        forget = [(f"del env[{key!r}]", None)] if key is not None else []
        self._emit(proc, forget + [(_Jump(done), None)], (s.line, s.col))

    def _s_Continue(self, proc, s):
        self._emit(proc, [(_Jump(self.loops[-1][1]), None)], (s.line, s.col))

    def _s_While(self, proc, s):
        self._loop(
            proc,
            s,
            None,
            lambda nxt, done: self._memo(s.condition) + self._test(s.condition, nxt, done),
        )

    def _s_For(self, proc, s):
        key = self._loop_types(proc, s)
        items = self._loop_source(s.source)
        self._loop(
            proc,
            s,
            self._memo(s.source) + [(f"env[{key!r}] = [0, {items}]", None)],
            lambda nxt, done: [
                (f"_s = env[{key!r}]", None),
                ("_i = _s[0]", None),
                ("if _i < len(_s[1]):", None),
                (f"    env[{s.var!r}] = _s[1][_i]", None),
                (f"    env[{key!r}] = [_i + 1, _s[1]]", None),  # a new value: values are never changed in place
                (_Jump(nxt, "    "), None),
                (f"del env[{key!r}]", None),
                (_Jump(done), None),
            ],
            key,
        )

    def _s_Repeat(self, proc, s):
        key = f"$repeat@{len(proc.code)}"
        self._loop(
            proc,
            s,
            self._memo(s.count) + [(f"env[{key!r}] = {self.code(s.count)}", None)],
            lambda nxt, done: [
                (f"_n = env[{key!r}]", None),
                ("if _n > 0:", None),
                (f"    env[{key!r}] = _n - 1", None),
                (_Jump(nxt, "    "), None),
                (f"del env[{key!r}]", None),
                (_Jump(done), None),
            ],
            key,
        )

    def _s_Window(self, proc, s):
        """Ask each player in turn from ``start``; done after a full round with no reopen."""
        key = f"$window@{len(proc.code)}"  # [players asked quietly in a row]
        var = s.var
        self._emit(
            proc,
            self._memo(s.start)
            + [
                (f"env[{var!r}] = {self.code(s.start)}", None),
                (f"env[{key!r}] = 0", None),
                (_Jump(len(proc.code) + 1), None),
            ],
            (s.line, s.col),
        )
        top = len(proc.code)
        done = _Target()
        self._emit(
            proc,
            [
                (f"if env[{key!r}] >= st.n:", None),
                (f"    del env[{key!r}]", None),
                (_Jump(done, "    "), None),
                (_Jump(top + 1), None),
            ],
            (s.line, s.col),
        )
        self.windows.append((key, done))
        self._block(proc, s.body)
        self.windows.pop()
        self._emit(
            proc,
            [
                (f"env[{key!r}] += 1", None),
                (f"env[{var!r}] = (env[{var!r}] + 1) % st.n", None),
                (_Jump(top), None),
            ],
            (s.line, s.col),
        )
        done.pc = len(proc.code)

    def _s_Reopen(self, proc, s):
        key, _ = self.windows[-1]  # the advance after this body makes it 0: everyone is asked again
        self._emit(proc, [(f"env[{key!r}] = -1", None), (_Jump(len(proc.code) + 1), None)], (s.line, s.col))

    def _s_Close(self, proc, s):
        key, done = self.windows[-1]
        self._emit(proc, [(f"del env[{key!r}]", None), (_Jump(done), None)], (s.line, s.col))

    def _s_Choose(self, proc, s):
        pc = len(proc.code)
        choice = Choice(self.game.labeller, s, pc)
        name = self._global("choice", (proc.name, pc), lambda: choice)
        seat = self._temp() if s.each is not None else ""
        if s.each is not None:  # the options are computed once per seat, the seat a Python local
            self.iterable += 1
            seats = self.code(s.by)
            self.iterable -= 1
            saved = self.scope.get(s.each)
            self.scope[s.each] = seat
        self.iterable += s.where is not None  # the options become a comprehension's source
        items = self.code(s.source)
        self.iterable -= s.where is not None
        copy = s.source.type == ZONE  # a zone's list is copied: ask keeps the options; a comprehension's is fresh
        items = (f"st.zones[{items}]" if s.where is not None else f"list(st.zones[{items}])") if copy else items
        if s.where is not None:
            var = self._temp()
            self.scope["it"] = var
            if copy:
                self.nonnull.add(var)
            items = f"[{var} for {var} in {items} if {self.code(s.where)}]"
            del self.scope["it"]
        if s.each is not None:
            if saved is None:
                del self.scope[s.each]
            else:
                self.scope[s.each] = saved
            each = self._global("together", "ask_each", lambda: together.ask_each)
            ask = f"return {each}({name}, st, [({seat}, {items}) for {seat} in list({seats})])"
        else:
            by = self.code(s.by) if s.by is not None else _read("me")
            if isinstance(s, ast.ChooseSeveral):
                items = self._several(s, items)
            ask = f"return {name}.ask(st, {items}, {by})"
        bounds = (s.low, s.high) if isinstance(s, ast.ChooseSeveral) else ()  # fused code may have filled the memo
        self._emit(proc, self._memo(s.source, s.where, s.by, *bounds) + [(ask, None)], (s.line, s.col))
        self._local(proc, s.target)
        self.targets[pc] = s.target  # its store function is made by _finish
        self.entries |= {pc, pc + 1}  # asked again to check a saved decision (state_check); resumed after
        proc.choice_types[pc] = choice.item_type
        proc.choice_kinds[pc] = s.kind

    _s_ChooseSeveral = _s_Choose

    def _several(self, s: ast.ChooseSeveral, items: str) -> str:
        """The options of choosing several: every list of LOW to HIGH of ``items`` (subsets.py)."""
        fn = self._global("subsets", None, lambda: subsets)
        item = s.options_type.element if s.options_type is not None else ANY
        label = self._global("label", item, lambda: self.game.labeller.for_type(item))
        low, high = (self.code(b) if b is not None else "None" for b in (s.low, s.high))
        return f"{fn}({items}, {low}, {high}, {label})"

    def _store_function(self, target: ast.Name | ast.Attr, filename: str) -> Callable | str:
        """``store(state, env, value)`` for a choice's target; a local of the procedure: its name."""
        if isinstance(target, ast.Name) and target.name not in self.vocab.variables:
            return target.name
        self.units += 1
        name = f"_store{self.units}"
        lines = self._assign(target, "value")
        self._compile(f"def {name}(st, env, value):\n" + "".join(f"    {x}\n" for x in lines), filename)
        return self.ns[name]
