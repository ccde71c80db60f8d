"""Static checks of effect-language programs: names, types, arity.

The checker fills ``type`` on every expression node (the compiler relies on
it) and returns every problem it finds rather than stopping at the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import did_you_mean
from engine.lang import ast, words
from engine.lang.ops import OPS
from engine.lang.problems import DslProblem
from engine.lang.types import (
    ANY,
    ATTRIBUTE,
    BOARD,
    BOOL,
    CARD,
    DIRECTION,
    FACE,
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
    merge,
    substitute,
    type_named,
    unfit,
    unify,
)

BUILTIN_CARD_ATTRIBUTES = {"id": TEXT, "name": TEXT, "kind": TEXT}
_NO_NONE = {"+", "-", "*", "//", "%", "<", "<=", ">", ">="}  # operators that fail on none in play
RESERVED = {"me", "it", "true", "false", "none"}
# Parts of a rule file a designer may take for values of the language: what to write instead
_SECTIONS = {
    "house": "a seat run by the rules is declared in the game file (house: {name, plays, points}); each "
    "player's outcome is then against the house's points, not written in a scoring rule",
}


@dataclass
class Vocabulary:
    """What names a game's programs may use, and their types."""

    enums: dict[str, list[str]] = field(default_factory=dict)
    zones: dict[str, Type | None] = field(default_factory=dict)  # family → key type
    boards: dict[str, Type | None] = field(default_factory=dict)
    card_attributes: dict[str, Type] = field(default_factory=dict)
    player_variables: dict[str, Type] = field(default_factory=dict)
    variables: dict[str, Type] = field(default_factory=dict)
    constants: dict[str, tuple[Type, object]] = field(default_factory=dict)
    procedures: dict[str, list[tuple[str, Type]]] = field(default_factory=dict)
    procedure_returns: dict[str, Type] = field(default_factory=dict)  # procedures that declare 'returns:'
    functions: dict[str, tuple[list[tuple[str, Type]], Type]] = field(default_factory=dict)  # name → (params, result)
    board_spaces: dict[str, tuple[str, ...]] = field(default_factory=dict)  # board → its spaces (every seat's)
    board_directions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # board → its directions
    uncharted: set[str] = field(default_factory=set)  # boards with no rows and columns (graphs)
    # (section, name) of a whole-number variable that declares min:/max: → (least, most) it may hold
    bounds: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    face: Type | None = None  # what the dice's faces are (a number, or an enum's members); None: no dice
    face_values: tuple = ()  # every face of every die

    def with_faces(self, t: Type) -> Type:
        """``t`` with a die's face read as this game's (a number or its enum); the game must have dice."""
        if t is FACE:
            return self.face or ANY
        if t.is_list and t.element is FACE:
            return list_of(self.face or ANY)
        return t

    def attribute_type(self, name: str) -> Type | None:
        return BUILTIN_CARD_ATTRIBUTES.get(name) or self.card_attributes.get(name)

    def attribute_names(self) -> list[str]:
        return list(self.card_attributes) + list(BUILTIN_CARD_ATTRIBUTES)

    def value_names(self) -> list[str]:
        names = list(self.variables) + list(self.constants) + list(self.enums)
        names += [z for z, key in self.zones.items() if key is None]
        names += [o.name for o in OPS.values() if o.constant]
        return names

    def function_names(self) -> list[str]:
        return list(OPS) + list(self.zones) + list(self.boards) + list(self.procedures) + list(self.functions)


class Checker:
    def __init__(
        self, vocab: Vocabulary, params: dict[str, Type] | None = None, returns: Type | None = None, pure: bool = False
    ):
        self.vocab = vocab
        self.returns = returns  # the type 'return VALUE' gives (None: the program gives no value)
        self.pure = pure  # a function's body: it computes, it changes nothing
        self.locals: dict[str, Type | None] = {"me": PLAYER}  # None: not known (after an error)
        self.locals.update(params or {})
        self.problems: list[DslProblem] = []
        self.windows = 0  # how many reaction windows enclose the statement being checked
        self.loops: list[str] = []  # the loops ("loop") and windows ("window") around it, innermost last
        self.maybe_none: set[str] = set()  # locals set by an optional choose: their type, or none after a pass

    # ------------------------------------------------------------ reporting
    def problem(self, node: ast.Node, code: str, message: str, hint: str | None = None) -> None:
        self.problems.append(DslProblem(node.line, node.col, code, message, hint))

    def expect(self, node: ast.Expr, expected: Type, what: str) -> None:
        if node.type is not None and not compatible(expected, node.type):
            hint = _as_condition(node) if expected is BOOL else None
            self.problem(node, "E502", f"{what} must be {describe(expected)}, not {describe(node.type)}", hint)
        else:
            self._fits(node, expected, node.type, f"{what} must be {describe(expected)}", "E502")

    def _fits(self, node: ast.Node, declared: Type, actual: Type | None, what: str, code: str) -> None:
        """A record kept as a declared type has its fields: no other, and none missing that cannot be none."""
        found = unfit(declared, actual)
        if found is not None:
            why, fix = found
            self.problem(node, code, f"{what}, but {why}", fix)

    # ----------------------------------------------------------- statements
    def block(self, stmts: list[ast.Stmt]) -> None:
        for i, s in enumerate(stmts):
            if type(s) is ast.Assign and isinstance(s.value, ast.Call) and s.value.func in self.vocab.procedure_returns:
                s = stmts[i] = ast.CallAssign(s.line, s.col, s.target, s.value)
            self.stmt(s)

    def loop_block(self, stmts: list[ast.Stmt], kind: str = "loop") -> None:
        """The block of a loop (or a window): 'break' and 'continue' inside it are its own."""
        self.loops.append(kind)
        self.block(stmts)
        self.loops.pop()

    def _changes(self, node: ast.Node, what: str) -> None:
        """In a function, ``what`` (something that changes the game) is an error."""
        if self.pure:
            self.problem(
                node,
                "E505",
                f"a function computes a value and changes nothing: {what}",
                "a procedure may change the game and give a value (returns: TYPE, then x = proc(…))",
            )

    def returns_always(self, stmts: list[ast.Stmt]) -> bool:
        """Does every path through ``stmts`` end in 'return VALUE' (or end the game)?"""
        if not stmts:
            return False
        last = stmts[-1]
        if isinstance(last, (ast.ReturnValue, ast.EndGame)):
            return True
        if isinstance(last, ast.If):
            return last.otherwise is not None and all(
                self.returns_always(b) for b in [body for _, body in last.branches] + [last.otherwise]
            )
        return False

    def body(self, stmts: list[ast.Stmt], name: str) -> None:
        """Check the body of a function or procedure ``name``; one that gives a value must give it on every path."""
        self.block(stmts)
        if self.returns is not None and not self.returns_always(stmts):
            at = stmts[-1] if stmts else ast.Pass(1, 1)
            self.problem(
                at,
                "E505",
                f"'{name}' gives {describe(self.returns)}, but its end can be reached here without 'return VALUE'",
                "end every path with 'return VALUE' (an 'if' needs an 'else' that returns too)",
            )

    def stmt(self, s: ast.Stmt) -> None:
        """A statement's effects, then its type rule (``check``, declared with the statement in ast.py)."""
        reason = s.changes()
        if reason is not None:
            self._changes(s, reason)
        s.check(self)

    def bind(self, node: ast.Node, name: str, t: Type | None) -> None:
        if name in words.RESERVED and name not in words.IMPLICIT:
            self.problem(
                node,
                "E505",
                f"'{name}' is a reserved word of the language; it cannot be a name",
                f"choose another name; `tabletop explain {name}` says what '{name}' means",
            )
            return
        if name == "it" or name in self.vocab.value_names():
            self.problem(node, "E505", f"'{name}' is a name of the game; choose another name for a local value")
            return
        old = self.locals.get(name)
        if old is None or old in (ANY, NONE):
            self.locals[name] = t
        elif not compatible(old, t):
            self.problem(node, "E506", f"'{name}' holds {describe(old)}; it cannot now hold {describe(t)}")
        elif old.has_records or (t is not None and t.has_records):  # a record gains the fields of every value it holds
            self.locals[name] = merge(old, t)

    def assign(self, target: ast.Name | ast.Attr, t: Type | None, value_node: ast.Node) -> None:
        if isinstance(target, ast.Name):
            name = target.name
            if name in self.vocab.variables:
                self._changes(target, f"'{name}' is a game variable")
                target.type = self.vocab.variables[name]
                if not compatible(target.type, t):
                    self.problem(
                        value_node, "E506", f"variable '{name}' holds {describe(target.type)}, not {describe(t)}"
                    )
                else:
                    self._fits(value_node, target.type, t, f"variable '{name}' holds {describe(target.type)}", "E506")
                return
            if name in self.vocab.constants or name in self.vocab.enums or name in self.vocab.zones:
                what = "constant" if name in self.vocab.constants else "enum" if name in self.vocab.enums else "zone"
                fix = {
                    "constant": f"a constant is fixed; what changes is a variable: variables: {name}: {{type: …}}",
                    "enum": "an enum lists its members once; keep the one that changes in a variable of its type",
                    "zone": "a zone's cards change with move(card, zone); a zone itself cannot be set",
                }[what]
                self.problem(target, "E505", f"'{name}' cannot be changed: it is a {what}", fix)
                return
            self.bind(target, name, t)
            target.type = self.locals.get(name, t)
            return
        owner = self.expr(target.obj)
        if owner == PLAYER:
            self._changes(target, f"'{target.name}' is a player variable")
            var = self.vocab.player_variables.get(target.name)
            if var is None:
                self.problem(
                    target,
                    "E504",
                    f"players have no variable '{target.name}'",
                    did_you_mean(target.name, self.vocab.player_variables),
                )
                return
            target.type = var
            if not compatible(var, t):
                self.problem(
                    value_node, "E506", f"player variable '{target.name}' holds {describe(var)}, not {describe(t)}"
                )
            else:
                self._fits(value_node, var, t, f"player variable '{target.name}' holds {describe(var)}", "E506")
        elif owner == CARD:
            self.problem(
                target,
                "E505",
                f"card attribute '{target.name}' cannot be changed",
                "what changes in play goes in a variable, e.g. a map by the card's id: "
                f"variables: {{{target.name}s: {{type: map[int]}}}}, then with_key(…, c.id, …)",
            )
        else:
            self.problem(target, "E504", f"{describe(owner)} has no variables to set")

    def choose(self, s: ast.Choose) -> None:
        if s.each is not None or s.together:
            self._choose_together(s)
            return
        item = self._options(s)
        if s.by is not None:
            self.expr(s.by)
            self.expect(s.by, PLAYER, "'by'")
        if isinstance(s, ast.ChooseSeveral):  # the option is a list of the items
            for bound in (s.low, s.high):
                if bound is not None:
                    self.expr(bound)
                    self.expect(bound, INT, "how many to choose")
            if s.low is not None and s.high is not None:
                self._several_bounds(s.low, s.high)
            item = s.options_type = list_of(item)
        self.assign(s.target, item, s)
        if s.optional and isinstance(s.target, ast.Name) and s.target.name in self.locals:
            self.maybe_none.add(s.target.name)

    def _several_bounds(self, low: ast.Expr, high: ast.Expr) -> None:
        """'several A to B' where A is always more than B leaves no way to choose: refused at load, whether the
        bounds are numbers, sums of constants, or read from variables that declare min: and max:."""
        (least, fewest), (most, highest) = self._span(low), self._span(high)
        if highest is not None and highest < 0:
            self.problem(
                high,
                "E505",
                f"'several … to {ast.format_expr(high)}' asks for at most {highest}: there is no way to choose",
                "how many to choose is 0 or more",
            )
            return
        if fewest is None or highest is None or fewest <= highest:
            return
        if (least, most) == (fewest, highest):  # both known before play
            self.problem(
                low,
                "E505",
                f"'several {least} to {most}' asks for at least {least} and at most {most}: there is no way to choose",
                f"write the fewer first: several {most} to {least}",
            )
            return
        written = f"several {ast.format_expr(low)} to {ast.format_expr(high)}"
        self.problem(
            low,
            "E505",
            f"'{written}' asks for at least {fewest} and at most {highest}: there is no way to choose",
            "the fewer comes first; a variable's min: and max: bound it: "
            f"write several {ast.format_expr(high)} to {ast.format_expr(low)}, or raise the max: it is read from",
        )

    def _span(self, e: ast.Expr) -> tuple[int | None, int | None]:
        """The least and the most ``e`` can be, by what the rules declare (None: not known before play): numbers,
        constants, variables with min: and max:, and sums and differences of these."""
        if isinstance(e, ast.Unary) and e.op == "-":
            low, high = self._span(e.operand)
            return (None if high is None else -high), (None if low is None else -low)
        if isinstance(e, ast.Binary) and e.op in ("+", "-"):
            (a, b), (c, d) = self._span(e.left), self._span(e.right)
            if e.op == "-":
                c, d = (None if d is None else -d), (None if c is None else -c)
            return (None if a is None or c is None else a + c), (None if b is None or d is None else b + d)
        fixed = self._fixed_number(e)
        if fixed is not None:
            return fixed, fixed
        declared = (
            self.vocab.bounds.get(("variables", e.name))
            if isinstance(e, ast.Name) and e.name not in self.locals
            else self.vocab.bounds.get(("player_variables", e.name))
            if isinstance(e, ast.Attr) and e.obj.type == PLAYER
            else None
        )
        return declared or (None, None)

    def _fixed_number(self, e: ast.Expr | None) -> int | None:
        """The value of a number written out (or a constant's), known before play; None for any other."""
        if isinstance(e, ast.Unary) and e.op == "-":
            inner = self._fixed_number(e.operand)
            return None if inner is None else -inner
        value = (
            e.value
            if isinstance(e, ast.Literal)
            else self.vocab.constants[e.name][1]
            if isinstance(e, ast.Name) and e.name in self.vocab.constants
            else None
        )
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _choose_together(self, s: ast.Choose) -> None:
        """'by each p in SEATS simultaneously': the options may name p; the target gets a list, one per seat."""
        if s.each is None or not s.together or s.by is None:
            self.problem(s, "E505", "'by each p in PLAYERS' and 'simultaneously' go together: write both")
            return
        if isinstance(s, ast.ChooseSeveral):
            self.problem(
                s,
                "E505",
                "a choice of several cannot be simultaneous",
                "let the players choose one after another, in secret: in a 'for p in PLAYERS' loop, "
                "xs = choose … several … by p secretly",
            )
            return
        if s.optional is not None:  # a list of choices holds no none: declining is an option like the others
            self.problem(
                s,
                "E505",
                "a simultaneous choice cannot be optional",
                f'offer declining among the options instead (e.g. an enum member "{s.optional}")',
            )
        self.expr(s.by)
        self.expect(s.by, list_of(PLAYER), "'by each … in'")
        had = self.locals.pop(s.each, None)
        self.bind(s, s.each, PLAYER)
        item = self._options(s)
        self.locals.pop(s.each, None)
        if had is not None:
            self.locals[s.each] = had
        self.assign(s.target, list_of(item), s)

    def _options(self, s: ast.Choose) -> Type:
        """Check what a choose offers; the type of one option."""
        item = self.iterable(s.source, "'choose … from' needs a list or a zone")
        s.options_type = item
        if s.verb and (any(ch.isspace() for ch in s.verb) or s.verb == s.optional):
            self.problem(s, "E505", f'choice word "{s.verb}" must be one word (and not "{s.optional}")')
        if s.optional is not None and (not s.optional or any(ch.isspace() for ch in s.optional)):
            self.problem(s, "E505", f'the id of declining, "{s.optional}", must be one word')
        if s.where is not None:
            self.with_it(item, s.where)
            self.expect(s.where, BOOL, "a 'where' condition")
        return item

    def with_it(self, item: Type, e: ast.Expr) -> Type | None:
        """The type of ``e`` read with ``it`` as an item of type ``item`` (a 'where' condition, a 'by:' key)."""
        had = self.locals.get("it")
        self.locals["it"] = item
        t = self.expr(e)
        if had is None:
            del self.locals["it"]
        else:
            self.locals["it"] = had
        if item.is_record:
            self.lacking_reads(e, item, "it")
        return t

    def lacking_reads(self, e: ast.Expr, item: Type, name: str) -> None:
        """``e`` is read for every item, as ``name``: ``name.f`` is none for the items (records) that lack f, and
        an order or a sum of it fails in play, so it is refused here.  Read after a test (``… and it.f > 1``,
        ``it.f if … else 0``), it is not."""
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            self.lacking_reads(e.left, item, name)  # the right side is read only after the left side's test
            return
        if isinstance(e, ast.Conditional):
            self.lacking_reads(e.condition, item, name)
            return
        operands: list[ast.Expr] = []
        if isinstance(e, ast.Binary) and e.op in _NO_NONE:
            operands, op = [e.left, e.right], e.op
        elif isinstance(e, ast.Unary) and e.op == "-":
            operands, op = [e.operand], e.op
        fix = f"test first which record it is: … and {name}.{{field}} …" if name == "it" else None
        for side in operands:
            self.lacking(side, item, name, f"'{op}' cannot take none", fix)
        for child in e.children():
            self.lacking_reads(child, item, name)

    def lacking(self, e: ast.Expr, item: Type, name: str, why: str, fix: str | None) -> None:
        """``e`` is ``name.f`` and some of the items have no f: a problem, saying ``why`` none does not do and
        ``fix`` (``{field}`` for f; None: give the others a value)."""
        if isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name) and e.obj.name == name and item.may_lack(e.name):
            fix = fix or f"give the others a value: {name}.{{field}} if … else 0"
            self.problem(
                e,
                "E504",
                f"some records read here have no field '{e.name}': it is none for them, and {why}",
                f"give every record a '{e.name}', or {fix.format(field=e.name)}",
            )

    def call_statement(self, e: ast.Expr) -> None:
        if not isinstance(e, ast.Call):
            self.expr(e)
            self.problem(e, "E505", "this line computes a value but does nothing with it")
            return
        if e.func in self.vocab.procedures:
            self._changes(e, f"it calls the procedure '{e.func}'")
            if e.func in self.vocab.procedure_returns:
                self.problem(e, "E505", f"{e.func}(…) gives a value that this line drops", f"keep it: x = {e.func}(…)")
            params = self.vocab.procedures[e.func]
            self.arguments(e, params)
            e.type = NONE
            return
        t = e.type = self.call(e, statement=True)
        if t is not None and e.func in OPS and OPS[e.func].returns is not None:
            self.problem(e, "E505", f"{e.func}(…) gives a value but the line does nothing with it")

    def iterable(self, source: ast.Expr, message: str) -> Type:
        t = self.expr(source)
        if t is ZONE:
            return CARD
        if t is not None and t.is_list:
            return t.element
        if t not in (None, ANY):
            self.problem(source, "E502", f"{message}, not {describe(t)}")
        return ANY

    # ---------------------------------------------------------- expressions
    def expr(self, e: ast.Expr) -> Type | None:
        """The type of ``e`` by its own rule (``infer``, declared with the expression in ast.py), kept on it."""
        t = e.type = e.infer(self)
        return t

    def name(self, e: ast.Name) -> Type | None:
        """A name's type: a local, a game's variable, constant, enum, zone or board, or a constant operation."""
        v = self.vocab
        n = e.name
        if n in self.locals:
            return self.locals[n]
        if n in v.variables:
            return v.variables[n]
        if n in v.constants:
            return v.constants[n][0]
        if n in v.enums:
            return list_of(type_named(n))
        if v.zones.get(n, 0) is None:
            return ZONE
        if v.boards.get(n, 0) is None:
            return BOARD
        if n in OPS and OPS[n].constant:
            return OPS[n].returns
        if n in v.zones or n in v.boards:
            self.problem(e, "E503", f"'{n}' needs {describe(v.zones.get(n) or v.boards.get(n))}: write {n}(…)")
            return ZONE if n in v.zones else BOARD
        if n == "it":
            self.problem(e, "E501", "'it' is only known inside a 'where' condition or a 'by:' key")
            return ANY
        if n in words.RESERVED:
            self.problem(
                e,
                "E501",
                f"'{n}' is a reserved word of the language, not a value here",
                f"`tabletop explain {n}` says where it goes",
            )
            return ANY
        hint = did_you_mean(n, list(self.locals) + v.value_names()) or _SECTIONS.get(n)
        self.problem(e, "E501", f"unknown name '{n}'", hint)
        return ANY

    def arguments(self, e: ast.Call, params: list[tuple[str, Type]] | tuple, optional: int = 0) -> dict:
        """Check a call's arguments against ``params`` (the last ``optional`` may be left out)."""
        binding: dict[Type, Type | None] = {}
        if not len(params) - optional <= len(e.args) <= len(params):
            names = ", ".join(p for p, _ in params)
            wanted = f"{len(params) - optional} to {len(params)}" if optional else str(len(params))
            self.problem(
                e,
                "E503",
                f"{e.func}({names}) takes {wanted} argument{'' if wanted == '1' else 's'}, not {len(e.args)}",
            )
        for arg, (pname, ptype) in zip(e.args, params):
            if ptype == ATTRIBUTE:
                self._attribute_literal(e, arg)
                continue
            t = self.expr(arg)
            if t is ZONE and ptype.is_list and e.func in OPS:  # one collection protocol: a zone is its cards
                t = list_of(CARD)
            if not unify(ptype, t, binding):
                wanted = describe(substitute(ptype, binding)) + (
                    " or a zone" if ptype.is_list and e.func in OPS else ""
                )
                self.problem(
                    arg,
                    "E502",
                    f"argument '{pname}' of {e.func} must be {wanted}, not {describe(t)}",
                    self._instead(e.func, arg, ptype, t) if e.func in OPS else None,
                )
                continue
            if not ptype.has_typevar:
                self._fits(arg, ptype, t, f"argument '{pname}' of {e.func} must be {describe(ptype)}", "E502")
            if ptype.is_enum:
                self.enum_literal(arg, ptype)
            elif ptype in (POSITION, DIRECTION):
                self.board_literal(arg, ptype, _board_named(e, params))
        return binding

    def _instead(self, func: str, arg: ast.Expr, wanted: Type, given: Type | None) -> str:
        """What to give an operation instead of ``arg``: a zone of the player given, the cards of a zone, the
        spaces that meet a condition; else where its parameters are explained."""
        owned = [z for z, key in self.vocab.zones.items() if key == PLAYER]
        if given == PLAYER and owned and (wanted is ZONE or wanted.element is CARD):
            return "a zone of the player's: " + ", ".join(f"{z}({ast.format_expr(arg)})" for z in owned)
        if wanted.is_list and wanted.element is CARD and self.vocab.zones:
            z, key = next(iter(self.vocab.zones.items()))
            return f"give it cards: a zone ({z}{'' if key is None else '(…)'}) or a list of cards [c for c in … if …]"
        if wanted is CARD and given is not None and (given is TEXT or given.is_enum):
            return "this is a card's id: card_of(cards, id) gives a card of that kind, card_named(id) the first"
        if wanted.is_list and wanted.element is POSITION:
            return "give it the spaces that meet the condition: [s for s in spaces(board) if …]"
        return f"`tabletop explain {func}` says what it takes"

    def board_literal(self, arg: ast.Expr, t: Type, board: str | None) -> None:
        """A position or direction written in quotes must exist on the board (on any of the game's boards
        when the call names none): found at load, not in play."""
        if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)) or not arg.value:
            return  # "" is off the board: what toward gives at an edge
        known = self.vocab.board_spaces if t == POSITION else self.vocab.board_directions
        names = [board] if board is not None and board in known else list(known)
        values = list(dict.fromkeys(v for name in names for v in known[name]))
        if values and arg.value not in values:
            where = f"board '{board}'" if len(names) == 1 and board == names[0] else "the game's boards"
            what = "a space" if t == POSITION else "a direction"
            listed = f" (its directions: {', '.join(values)})" if t == DIRECTION else ""
            self.problem(
                arg, "E507", f"'{arg.value}' is not {what} of {where}{listed}", did_you_mean(arg.value, values)
            )

    def _attribute_literal(self, call: ast.Call, arg: ast.Expr) -> None:
        arg.type = TEXT
        if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)):
            self.problem(arg, "E502", f"{call.func} needs an attribute name in quotes")
        elif self.vocab.attribute_type(arg.value) is None:
            self.problem(
                arg,
                "E504",
                f"cards have no attribute '{arg.value}'",
                did_you_mean(arg.value, self.vocab.card_attributes),
            )

    def enum_literal(self, arg: ast.Expr, enum: Type) -> None:
        members = self.vocab.enums[enum.name]
        if isinstance(arg, ast.Literal) and isinstance(arg.value, str) and arg.value not in members:
            self.problem(arg, "E507", f"'{arg.value}' is not one of the {enum}", did_you_mean(arg.value, members))

    def call(self, e: ast.Call, statement: bool = False) -> Type | None:
        """A call's type: a zone's or board's, a function's, an operation's (a statement's gives none)."""
        v = self.vocab
        if e.func in v.zones or e.func in v.boards:
            key = v.zones[e.func] if e.func in v.zones else v.boards[e.func]
            result = ZONE if e.func in v.zones else BOARD
            if key is None:
                self.problem(e, "E503", f"'{e.func}' is a single {result}: write it without (…)")
                return result
            self.arguments(e, [("key", key)])
            return result
        if e.func in v.functions:
            params, result = v.functions[e.func]
            self.arguments(e, params)
            return result
        if e.func in v.procedures:
            self.problem(
                e,
                "E505",
                f"procedure '{e.func}' does something; it gives no value here",
                f"a procedure that declares 'returns:' gives its value as a line of its own: x = {e.func}(…)",
            )
            self.arguments(e, v.procedures[e.func])
            return ANY
        op = OPS.get(e.func)
        if op is None:
            self.problem(e, "E501", f"unknown function '{e.func}'", did_you_mean(e.func, v.function_names()))
            for a in e.args:
                self.expr(a)
            return ANY
        declared = self.dice_call(e, op.params) if op.group == "dice" else op.params
        binding = self.arguments(e, declared, op.optional)
        board = _board_named(e, declared)
        if op.charted and board in v.uncharted:
            self.problem(
                e.args[0],
                "E502",
                f"{e.func}(…) counts a grid's rows and columns, and board '{board}' is a graph, which has none",
                "on a graph, tag the spaces (nodes: [{id: s1, tags: [edge]}]) and ask has_tag(board, space, tag)",
            )
        if op.changes:
            self._changes(e, f"{e.func}(…) {'draws at random' if op.draws else 'changes the game'}")
        if op.returns is None and not statement:
            self.problem(e, "E505", f"{e.func}(…) does something; it gives no value to use here")
            return ANY
        return substitute(self.vocab.with_faces(op.returns), binding) if op.returns else None

    def dice_call(self, e: ast.Call, params: tuple[tuple[str, Type], ...]) -> tuple[tuple[str, Type], ...]:
        """The parameters of an operation on dice, faces read as the game's; a face written as a number must be
        one of the dice's (a named face is checked as its enum's member)."""
        v = self.vocab
        if v.face is None:
            hint = "give a component kind its faces: [1, 2, …]"
            self.problem(e, "E501", f"{e.func}(…) works on dice, and the game has none", hint)
        for arg, (_, t) in zip(e.args, params):
            written = arg.value if isinstance(arg, ast.Literal) and t is FACE and v.face is INT else None
            if isinstance(written, int) and written not in v.face_values:
                faces = ", ".join(map(str, v.face_values))
                self.problem(arg, "E507", f"{written} is no face of the game's dice", f"their faces: {faces}")
        return tuple((name, v.with_faces(t)) for name, t in params)

    def may_be_none(self, side: ast.Expr, other: Type | None) -> bool:
        """Is ``side`` a local that an optional choose may have left as none, compared with none?"""
        return other == NONE and isinstance(side, ast.Name) and side.name in self.maybe_none


def _as_condition(e: ast.Expr) -> str | None:
    """How a number or a list used as a condition becomes one."""
    text = ast.format_expr(e, 5)
    if e.type == INT:
        return f"compare it: {text} > 0, or {text} == 0"
    if e.type is not None and (e.type.is_list or e.type == ZONE):
        return f"ask whether it has items: size({ast.format_expr(e)}) > 0"
    return None


def _board_named(call: ast.Call, params) -> str | None:
    """The board a call names by its board argument (``field`` or ``room(p)``), if any."""
    for arg, (_, ptype) in zip(call.args, params):
        if ptype == BOARD:
            if isinstance(arg, ast.Name):
                return arg.name
            if isinstance(arg, ast.Call):
                return arg.func
    return None


def check_program(
    stmts: list[ast.Stmt],
    vocab: Vocabulary,
    params: dict[str, Type] | None = None,
    returns: Type | None = None,
    pure: bool = False,
    name: str = "",
) -> list[DslProblem]:
    """Check statements (a function's body if ``pure``); fills types, returns every problem found."""
    checker = Checker(vocab, params, returns, pure)
    checker.body(stmts, name)
    return checker.problems


def check_expression(
    expr: ast.Expr,
    vocab: Vocabulary,
    params: dict[str, Type] | None = None,
    expected: Type | None = None,
    pure: bool = False,
    each: str | None = None,
) -> list[DslProblem]:
    """Check one expression (scoring term, tie-breaker, start zone); ``each`` names the parameter that is each
    option in turn (a bot's value of a choice)."""
    checker = Checker(vocab, params, pure=pure)
    checker.expr(expr)
    if expected is not None:
        checker.expect(expr, expected, "this value")
    if each is not None and params is not None and (item := params.get(each)) is not None and item.is_record:
        checker.lacking_reads(expr, item, each)
    return checker.problems
