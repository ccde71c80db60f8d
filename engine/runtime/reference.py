"""The reference path: checked AST → closures, one per node, and flat instruction lists.

Kept small and plain on purpose: it is the executable specification, and the
Python backend of every game (``load_game(..., vm=False)``, a game the native
VM does not run).  tests/test_vm_differential.py plays the
same seeded games on this path and on the VM and requires identical games, so
a bug of either cannot hide.  Expressions are closures ``f(state, env)``;
statements are instructions ``ins(state, env) -> next pc`` (or NEXT/SUSPEND) at
the pcs of the VM's IR (runtime/lower.py), so a saved frame means the same on both.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from engine.errors import EngineBug, RuleFault
from engine.lang import ast
from engine.lang.checker import Vocabulary
from engine.lang.ops import KEYED, OPS, bounded, times, zone_cards
from engine.lang.subsets import subsets
from engine.lang.types import ANY, INT, PLAYER, ZONE, Type, loop_of
from engine.runtime import together
from engine.runtime.numbers import CHECKED_OPS, in_range
from engine.runtime.program import (
    DEFAULT_END,
    NEXT,
    SUSPEND,
    Choice,
    Labeller,
    Overrun,
    Procedure,
    bounds_check,
    enum_check,
)


class ReferenceCompiler:
    """Closures per node: slow, small and obviously right."""

    def __init__(self, vocab: Vocabulary, game, functions=None):
        self.windows: list[tuple[str, list]] = []  # enclosing windows: (state key, exit cell)
        self.loops: list[tuple[str | None, int, list]] = []  # enclosing loops: (state key, top pc, exit cell)
        self.in_function = False  # compiling a function's statements: 'return VALUE' ends the run, not a frame
        self.vocab = vocab
        self.game = game  # GameDef under construction: attribute tables, procedures, labeller
        self.labels: Labeller = game.labeller

    # ---------------------------------------------------------- expressions
    def expr(self, e: ast.Expr) -> Callable:
        method = getattr(self, "_e_" + type(e).__name__)
        return method(e)

    def _e_Literal(self, e):
        value = e.value
        return lambda st, env: value

    def _e_Name(self, e):
        v, n = self.vocab, e.name
        if n in v.variables:
            return lambda st, env: st.vars[n]
        if n in v.constants:
            value = v.constants[n][1]
            return lambda st, env: value
        if n in v.enums:
            values = tuple(v.enums[n])
            return lambda st, env: list(values)
        if n in v.zones or n in v.boards:
            return lambda st, env: n
        if n in OPS and OPS[n].constant:
            fn = _function_of(n)
            return lambda st, env: fn(st)

        def local(st, env):
            try:
                return env[n]
            except KeyError:
                raise RuleFault(f"'{n}' has no value yet") from None

        return local

    def _e_ListExpr(self, e):
        items = [self.expr(i) for i in e.items]
        return lambda st, env: [f(st, env) for f in items]

    def _e_Record(self, e):
        fields = [(name, self.expr(v)) for name, v in e.fields]
        return lambda st, env: {name: f(st, env) for name, f in fields}

    def _e_MapExpr(self, e):
        entries = [(key, self.expr(v)) for key, v in e.entries]
        return lambda st, env: {key: f(st, env) for key, f in entries}

    def _e_Comprehension(self, e):
        source = self._items(e.source, copy=False)
        var = e.var
        element = self.expr(e.element)
        cond = self.expr(e.condition) if e.condition is not None else None

        def comprehension(st, env):
            saved = env.get(var, _MISSING)
            out = []
            for x in source(st, env):
                env[var] = x
                if cond is None or cond(st, env):
                    out.append(element(st, env))
            if saved is _MISSING:
                env.pop(var, None)
            else:
                env[var] = saved
            return out

        return comprehension

    def _e_PairComprehension(self, e):
        outer, inner = self._items(e.source, copy=False), self._items(e.inner_source, copy=False)
        var, inner_var = e.var, e.inner_var
        element = self.expr(e.element)
        cond = self.expr(e.condition) if e.condition is not None else None

        def comprehension(st, env):
            saved = {n: env.get(n, _MISSING) for n in (var, inner_var)}
            out = []
            for x in outer(st, env):
                env[var] = x
                for y in inner(st, env):
                    env[inner_var] = y
                    if cond is None or cond(st, env):
                        out.append(element(st, env))
            for n, v in saved.items():
                if v is _MISSING:
                    env.pop(n, None)
                else:
                    env[n] = v
            return out

        return comprehension

    def _items(self, source: ast.Expr, copy: bool = True) -> Callable:
        """A closure giving a list to iterate: zones iterate over their cards.

        Statements copy the zone (their bodies may move its cards); expressions
        never change zones, so comprehensions read it in place.
        """
        f = self.expr(source)
        if source.type == ZONE:
            if copy:
                return lambda st, env: list(zone_cards(st, f(st, env)))
            return lambda st, env: zone_cards(st, f(st, env))
        return f

    def _e_Attr(self, e):
        obj = self.expr(e.obj)
        name = e.name
        if e.obj.type is not None and e.obj.type.is_record:

            def field(st, env):
                r = obj(st, env)
                if r is None:
                    raise RuleFault(f"no record to read '{name}' of")
                return r.get(name)

            return field
        if e.obj.type == PLAYER:

            def player_var(st, env):
                p = obj(st, env)
                if p is None:
                    raise RuleFault(f"no player to read '{name}' of")
                return st.pvars[p][name]

            return player_var
        table = self.game.attributes[name]

        def card_attr(st, env):
            c = obj(st, env)
            if c is None:
                raise RuleFault(f"no card to read '{name}' of")
            return table[c]

        return card_attr

    def _e_Call(self, e):
        v = self.vocab
        args = [self.expr(a) for a in e.args]
        if e.func in v.zones or e.func in v.boards:
            family = e.func
            if not args:
                return lambda st, env: family
            key = args[0]

            def member(st, env):
                k = key(st, env)
                if k is None:
                    raise RuleFault(f"{family}(…) of nothing: its key is none")
                return f"{family}:{k}"

            return member
        if e.func in v.functions:
            return self._function_call(e.func, args)
        fn = _function_of(e.func)
        for i, (arg, (_, ptype)) in enumerate(zip(e.args, OPS[e.func].params)):
            if arg.type is ZONE and ptype.is_list:  # one collection protocol: a zone gives its cards
                args[i] = lambda st, env, zone=args[i]: zone_cards(st, zone(st, env))
        if len(args) == 0:
            return lambda st, env: fn(st)
        if len(args) == 1:
            a = args[0]
            return lambda st, env: fn(st, a(st, env))
        if len(args) == 2:
            a, b = args
            return lambda st, env: fn(st, a(st, env), b(st, env))
        return lambda st, env: fn(st, *[f(st, env) for f in args])

    def _e_KeyedCall(self, e):
        source = self._items(e.source, copy=False)
        key = self.expr(e.key)
        fn = KEYED[e.func].fn

        def keyed(st, env):
            saved = env.get("it", _MISSING)
            pairs = []
            for x in source(st, env):
                env["it"] = x
                pairs.append((key(st, env), x))
            if saved is _MISSING:
                env.pop("it", None)
            else:
                env["it"] = saved
            return fn(pairs)

        return keyed

    def _function_call(self, name: str, args: list[Callable]) -> Callable:
        params = tuple(p for p, _ in self.vocab.functions[name][0])
        functions = self.game.functions  # filled once every body is compiled

        def call(st, env):
            inner = dict(zip(params, [a(st, env) for a in args]))
            inner["me"] = env.get("me")
            return functions[name](st, inner)

        return call

    def _e_Unary(self, e):
        f = self.expr(e.operand)
        if e.op == "not":
            return lambda st, env: not f(st, env)
        return lambda st, env: -f(st, env)

    def _e_Conditional(self, e):
        then, cond, other = self.expr(e.then), self.expr(e.condition), self.expr(e.otherwise)
        return lambda st, env: then(st, env) if cond(st, env) else other(st, env)

    def _e_Binary(self, e):
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "and":
            return lambda st, env: a(st, env) and b(st, env)
        if op == "or":
            return lambda st, env: a(st, env) or b(st, env)
        if op in ("in", "not in"):
            inside = _in_zone(a, b) if e.right.type == ZONE else _in_list(a, b)
            if op == "in":
                return inside
            return lambda st, env: not inside(st, env)
        if op in ("//", "%"):

            def divide(st, env):
                x, y = a(st, env), b(st, env)
                if y == 0:
                    raise RuleFault("division by zero")
                return x // y if op == "//" else x % y

            return divide
        fn = {
            "+": _plus,
            "-": _minus,
            "*": _times,
            "==": operator.eq,
            "!=": operator.ne,
            "<": operator.lt,
            "<=": operator.le,
            ">": operator.gt,
            ">=": operator.ge,
        }[op]
        if op == "+" and e.type != INT:  # lists and text joined grow: their size is checked
            fn = _joined
        if isinstance(e.right, ast.Literal):  # the common `x == "up"`, `n > 0`: one call fewer
            value = e.right.value
            return lambda st, env: fn(a(st, env), value)
        return lambda st, env: fn(a(st, env), b(st, env))

    def function(self, name: str, body: ast.Expr) -> Callable:
        """A game function as ``f(state, env)``: its parameters and ``me`` in env."""
        return self.expr(body)

    def function_program(self, name: str, stmts: list[ast.Stmt]) -> Callable:
        """A function written as statements: its instructions run to 'return VALUE' at once, in its own env."""
        proc = Procedure(f"function {name}")
        self.in_function = True
        self._block(proc, stmts)
        self.in_function = False
        code, budget = proc.code, self.game.step_budget

        def run(st, env):
            env, pc, steps = dict(env), 0, st.steps  # bounded per call
            try:
                while pc >= 0:
                    st.steps += 1
                    if st.steps > budget:
                        raise Overrun()
                    pc = code[pc](st, env)
            finally:
                st.steps = steps
            return env.pop("$result")

        return run

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
        proc.local_types.update(params or {})
        self._block(proc, stmts)
        self._emit(proc, _return, (stmts[-1].line if stmts else 1, 1))
        return proc

    def _emit(self, proc: Procedure, ins: Callable, where: tuple[int, int]) -> int:
        proc.code.append(ins)
        proc.where.append(where)
        return len(proc.code) - 1

    def _block(self, proc: Procedure, stmts: list[ast.Stmt]) -> None:
        for s in stmts:
            getattr(self, "_s_" + type(s).__name__)(proc, s)

    def _simple(self, proc: Procedure, s: ast.Stmt, action: Callable) -> None:
        nxt = len(proc.code) + 1

        def ins(st, env):
            action(st, env)
            return nxt

        self._emit(proc, ins, (s.line, s.col))

    def _store(self, target: ast.Name | ast.Attr) -> Callable:
        """A closure (state, env, value) that writes to an assignment target."""
        if isinstance(target, ast.Name):
            n = target.name
            if n in self.vocab.variables:
                check = self._enum_values(self.vocab.variables[n], f"variable '{n}'", ("variables", n))
                if check is not None:

                    def set_enum(st, env, value):
                        check(value)
                        st.vars[n] = value

                    return set_enum

                def set_global(st, env, value):
                    st.vars[n] = value

                return set_global

            def set_local(st, env, value):
                env[n] = value

            return set_local
        obj = self.expr(target.obj)
        name = target.name
        allowed = self._enum_values(
            self.vocab.player_variables.get(name), f"player variable '{name}'", ("player_variables", name)
        )

        def set_player_var(st, env, value):
            if allowed is not None:
                allowed(value)
            p = obj(st, env)
            if p is None:
                raise RuleFault(f"no player to set '{name}' of")
            st.pvars[p][name] = value

        return set_player_var

    def _enum_values(self, t: Type | None, what: str, declared: tuple[str, str]) -> Callable | None:
        """The check of a value stored in a variable: one of its enum, or between its min: and max:."""
        if t is not None and t.is_enum:
            return enum_check(self.vocab.enums[t.name], t, what)
        return bounds_check(self.vocab.bounds.get(declared), what)

    def _local(self, proc: Procedure, target: ast.Expr) -> None:
        if isinstance(target, ast.Name) and target.name not in self.vocab.variables and target.type:
            proc.local_types[target.name] = target.type

    def _s_Assign(self, proc, s):
        self._local(proc, s.target)
        store, value = self._store(s.target), self.expr(s.value)
        self._simple(proc, s, lambda st, env: store(st, env, value(st, env)))

    _s_AugAssign = _s_Assign

    def _s_ExprStmt(self, proc, s):
        call = s.expr
        if call.func in self.vocab.procedures:
            self._call_procedure(proc, s, call)
            return
        if call.func == "perform":
            self._perform(proc, s, call)
            return
        f = self.expr(call)
        self._simple(proc, s, f)

    def _call_procedure(self, proc, s, call):
        params = [p for p, _ in self.vocab.procedures[call.func]]
        args = [self.expr(a) for a in call.args]
        target = call.func
        nxt = len(proc.code) + 1

        def ins(st, env):
            frame_env = {"me": env["me"]}
            for p, a in zip(params, args):
                frame_env[p] = a(st, env)
            st.stack[-1][1] = nxt
            st.stack.append([target, 0, frame_env])
            return NEXT

        self._emit(proc, ins, (s.line, s.col))

    def _perform(self, proc, s, call):
        """Run a card's effect: the procedure named after the card's id, if it has one."""
        card = self.expr(call.args[0])
        effects = self.game.effects  # card index → procedure name or None
        nxt = len(proc.code) + 1

        def ins(st, env):
            c = card(st, env)
            if c is None:
                raise RuleFault("perform: no card given")
            target = effects[c]
            if target is None:
                return nxt
            st.stack[-1][1] = nxt
            st.stack.append([target, 0, {"me": env["me"], "this": c}])
            return NEXT

        self._emit(proc, ins, (s.line, s.col))

    def _s_Log(self, proc, s):
        parts: list[Callable] = []
        for part in s.parts:
            if isinstance(part, str):
                parts.append(lambda st, env, text=part: text)
            else:
                f, label = self.expr(part), self.labels.log_for_type(part.type)
                parts.append(lambda st, env, f=f, label=label: label(f(st, env)))
        to = self.expr(s.to) if s.to is not None else None

        def log(st, env):
            if to is None:
                st.log_entries.append([None, "".join(p(st, env) for p in parts)])
                return
            audience = to(st, env)
            if audience is not None:  # a line for nobody is told to nobody, not to everyone
                st.log_entries.append([audience, "".join(p(st, env) for p in parts)])

        self._simple(proc, s, log)

    def _s_EndGame(self, proc, s):
        reason = s.reason or DEFAULT_END

        def end(st, env):
            st.stack.clear()
            st.reason = reason
            return SUSPEND

        self._emit(proc, end, (s.line, s.col))

    def _s_Pass(self, proc, s):
        nxt = len(proc.code) + 1
        self._emit(proc, lambda st, env: nxt, (s.line, s.col))

    def _s_Return(self, proc, s):
        self._emit(proc, _return, (s.line, s.col))

    def _s_ReturnValue(self, proc, s):
        value, in_function = self.expr(s.value), self.in_function

        def give(st, env):
            v = value(st, env)
            if in_function:
                env["$result"] = v
                return SUSPEND
            st.stack.pop()
            st.stack[-1][2]["$result"] = v  # read by the caller's next instruction, before any decision
            return NEXT

        self._emit(proc, give, (s.line, s.col))

    def _s_CallAssign(self, proc, s):
        self._local(proc, s.target)
        self._call_procedure(proc, s, s.value)
        store = self._store(s.target)
        self._simple(proc, s, lambda st, env: store(st, env, env.pop("$result")))

    def _s_If(self, proc, s):
        exits = []
        for cond, body in s.branches:
            test = self.expr(cond)
            skip = [0]
            nxt = len(proc.code) + 1
            self._emit(
                proc,
                lambda st, env, test=test, skip=skip, nxt=nxt: nxt if test(st, env) else skip[0],
                (cond.line, cond.col),
            )
            self._block(proc, body)
            out = [0]
            exits.append(out)
            self._emit(proc, lambda st, env, out=out: out[0], (s.line, s.col))
            skip[0] = len(proc.code)
        if s.otherwise is not None:
            self._block(proc, s.otherwise)
        for out in exits:
            out[0] = len(proc.code)

    def _s_While(self, proc, s):
        self._loop(proc, s, None, self.expr(s.condition))

    def _loop(self, proc, s, start: Callable | None, step: Callable, key: str | None = None) -> None:
        """Emit init, test-and-advance, body, jump back; ``step`` returns False when done.  ``key``: the
        loop's state in the frame, dropped by a 'break'."""
        if start is not None:
            self._simple(proc, s, start)
        top = len(proc.code)
        done = [0]
        nxt = top + 1
        self._emit(proc, lambda st, env: nxt if step(st, env) else done[0], (s.line, s.col))
        self.loops.append((key, top, done))
        self._block(proc, s.body)
        self.loops.pop()
        self._emit(proc, lambda st, env: top, (s.line, s.col))
        done[0] = len(proc.code)

    def _s_Break(self, proc, s):
        key, _, done = self.loops[-1]

        def leave(st, env):
            if key is not None:
                del env[key]
            return done[0]

        self._emit(proc, leave, (s.line, s.col))

    def _s_Continue(self, proc, s):
        top = self.loops[-1][1]
        self._emit(proc, lambda st, env: top, (s.line, s.col))

    def _s_For(self, proc, s):
        source = self._items(s.source)
        var = s.var
        key = f"${var}@{len(proc.code)}"  # hidden loop state, plain data in the frame
        item = s.source.type.items if s.source.type is not None else None
        if item is not None:
            proc.local_types[var] = item
            proc.local_types[key] = loop_of(item)

        def start(st, env):
            env[key] = [0, list(source(st, env))]

        def step(st, env):
            state = env[key]
            i, items = state
            if i < len(items):
                env[var] = items[i]
                env[key] = [i + 1, items]  # a new value: values are never changed in place
                return True
            del env[key]
            return False

        self._loop(proc, s, start, step, key)

    def _s_Repeat(self, proc, s):
        count = self.expr(s.count)
        key = f"$repeat@{len(proc.code)}"

        def start(st, env):
            env[key] = count(st, env)

        def step(st, env):
            left = env[key]
            if left > 0:
                env[key] = left - 1
                return True
            del env[key]
            return False

        self._loop(proc, s, start, step, key)

    def _s_Window(self, proc, s):
        """Ask each player in turn from ``start``; done after a full round with no reopen."""
        start = self.expr(s.start)
        var = s.var
        key = f"$window@{len(proc.code)}"  # [players asked quietly in a row]

        def begin(st, env):
            env[var] = start(st, env)
            env[key] = 0

        def ask(st, env):
            if env[key] >= st.n:
                del env[key]
                return False
            return True

        self._simple(proc, s, begin)
        top = len(proc.code)
        done = [0]
        nxt = top + 1
        self._emit(proc, lambda st, env: nxt if ask(st, env) else done[0], (s.line, s.col))
        self.windows.append((key, done))
        self._block(proc, s.body)
        self.windows.pop()

        def advance(st, env):
            env[key] += 1
            env[var] = (env[var] + 1) % st.n
            return top

        self._emit(proc, advance, (s.line, s.col))
        done[0] = len(proc.code)

    def _s_Reopen(self, proc, s):
        key, _ = self.windows[-1]

        def reopen(st, env):
            env[key] = -1  # the advance after this body makes it 0: everyone is asked again

        self._simple(proc, s, reopen)

    def _s_Close(self, proc, s):
        key, done = self.windows[-1]

        def close(st, env):
            del env[key]
            return done[0]

        self._emit(proc, close, (s.line, s.col))

    def _s_Choose(self, proc, s):
        source = self._items(s.source)
        where = self.expr(s.where) if s.where is not None else None
        by = self.expr(s.by) if s.by is not None else _me
        choice = Choice(self.game.labeller, s, len(proc.code))
        several = self._several(s) if isinstance(s, ast.ChooseSeveral) else None

        def options(st, env):
            items = list(source(st, env))  # here, where a source that is no list fails as the rules' own fault
            if where is not None:
                saved = env.get("it", _MISSING)
                kept = []
                for x in items:
                    env["it"] = x
                    if where(st, env):
                        kept.append(x)
                if saved is _MISSING:
                    env.pop("it", None)  # never set when there was nothing to filter
                else:
                    env["it"] = saved
                items = kept
            if several is not None:
                items = several(st, env, items)
            return items

        def choose(st, env):
            return choice.ask(st, options(st, env), by(st, env))

        def choose_each(st, env):
            var, saved, asked = s.each, env.get(s.each, _MISSING), []
            for seat in list(by(st, env)):
                env[var] = seat
                asked.append((seat, options(st, env)))
            if saved is _MISSING:
                env.pop(var, None)
            else:
                env[var] = saved
            return together.ask_each(choice, st, asked)

        self._emit(proc, choose_each if s.each is not None else choose, (s.line, s.col))
        self._local(proc, s.target)
        proc.choices[choice.pc] = self._store(s.target)
        proc.choice_types[choice.pc] = choice.item_type
        proc.choice_kinds[choice.pc] = s.kind

    _s_ChooseSeveral = _s_Choose

    def _several(self, s: ast.ChooseSeveral) -> Callable:
        """The options of choosing several: every list of LOW to HIGH of the items (subsets.py)."""
        low, high = (self.expr(b) if b is not None else None for b in (s.low, s.high))
        label = self.labels.for_type(s.options_type.element if s.options_type is not None else ANY)
        return lambda st, env, items: subsets(
            items, low(st, env) if low else None, high(st, env) if high else None, label
        )


_MISSING = object()


def _in_zone(a: Callable, b: Callable) -> Callable:
    """Whether a's value is a card of the zone b names."""
    return lambda st, env: a(st, env) in zone_cards(st, b(st, env))


def _in_list(a: Callable, b: Callable) -> Callable:
    """Whether a's value is an item of b's."""
    return lambda st, env: a(st, env) in b(st, env)


def _joined(x, y):
    """Two lists or two texts joined, their size checked: joins grow."""
    return bounded(x + y)


def _me(st, env):
    """Who decides a choice that names nobody: the seat the procedure runs for."""
    return env["me"]


def _plus(x, y):
    return in_range(x + y)


def _minus(x, y):
    return in_range(x - y)


def _times(x, y):
    return in_range(times(x, y))


def _function_of(name: str) -> Callable:
    """Operation ``name``'s Python function (checked where numbers.py says); a control operation has none (the
    compiler emits it)."""
    fn = CHECKED_OPS.get(name) or OPS[name].fn
    if fn is None:
        raise EngineBug(f"operation '{name}' is control flow: it has no function to call")
    return fn


def _return(st, env):
    st.stack.pop()
    return NEXT
