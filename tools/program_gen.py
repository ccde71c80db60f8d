"""Well-typed rule programs over a small base game, to play the same generated game on two backends.

A generated game is one base (a dozen cards with a rank and a colour, a deck, a pile, a hand per player, a
stash per colour, variables and player variables of every basic type) with generated rules: procedures
(some with parameters, some giving a value), functions, the setup, the play program and the scoring.  Every
expression is written for a type the checker knows (engine/lang/types.py): the operations come from the
operation table (engine/lang/ops.py), each chosen because its result fits the type wanted and its
arguments generated for its parameters' types, so most games load.  Statements cover assignments (of
locals, variables and player variables, ``+=``/``-=``), effects on zones, ``if``/``elif``/``else``,
``for``, ``while``, ``repeat``, ``break``/``continue``, reaction windows (``reopen``/``close``), choices
(``where``, ``by``, ``optional``, ``secretly``, every seat at once), logs (to one seat too), calls and
``end_game``.  Some games have dice (rolled on an open tray and in each seat's secret cup: ``roll``,
``face``, ``faces``, ``showing``), some a house (``house:``: its procedure, which asks nothing, played at the
end, and its points), some a board (a grid of three by three spaces, two rooms and tags, read by every board
operation; ``BOARD_FILE``, or nine hexagons, ``HIVE_FILE``, both written beside game.yaml; for some a board
of each seat's own, ``yard(p)``), some teams at three players (``teammates``, ``team_score``), and a map
variable (``with_key``, ``get``, ``key in MAP``, keys made while playing).  A program's daring (``risk``)
decides how often it writes a form that may fail while playing (the top of a zone that may be empty, a division
by a value that may be zero), so some games stop on a rule fault and most play on.

Game ``index`` of ``seed`` is fully determined by the pair:

    from program_gen import game_text
    text = game_text(seed, index)      # the game.yaml text
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.lang.ops import OPS
from engine.lang.types import (
    ANY,
    ATTRIBUTE,
    BOARD,
    BOOL,
    CARD,
    DIRECTION,
    INT,
    PLAYER,
    POSITION,
    TEXT,
    TYPEVAR,
    ZONE,
    Type,
    list_of,
    map_of,
    parse_type,
    substitute,
    unify,
)
from engine.runtime.lower import BOARD_OPS, NATIVE_OPS

COLOURS = ("red", "green", "blue")
COLOUR = parse_type("colours", {"colours"})
CARD_IDS = [f"{c[0]}{r}" for c in COLOURS for r in range(1, 5)]
MOVE = parse_type("{do: text, k: int}", set())
MAP = map_of(INT)
SCALARS = (INT, BOOL, TEXT, PLAYER, CARD, COLOUR)
WORDS = ("x", "left", "a b", "", "ok", "é🐈")
VERBS = ("pick", "play", "take", "bid", "")
# Dice of some games: rolled in the open on the tray, or in secret in a seat's cup; only dice go to these zones.
DICE = """\
  - kind: die
    faces: [1, 2, 3, 4, 5, 6]
    start: tray
    items: [{id: die, copies: 4}]
"""
DICE_ZONES = "  - {id: tray, visibility: public}\n  - {id: cup, per: player, visibility: owner}\n"
# The board of some games, in a file beside game.yaml (``BOARD_FILE``): spaces a1…c3, a wall between the rooms
# but for one door, the north row tagged.
BOARD_FILE = (
    "yard.yaml",
    """\
id: yard
kind: grid
adjacency: orthogonal
cells: {width: 3, height: 3}
rooms:
  - {id: west, area: [0, 0, 0, 2]}
  - {id: east, area: [1, 0, 2, 2]}
doors:
  - [[0, 1], [1, 1]]
marks:
  - {area: [0, 0, 2, 0], tags: [north]}
""",
)
# The board of others: nine hexagons in one room, the same spaces and tag, six directions.
HIVE_FILE = (
    "hive.yaml",
    """\
id: hive
kind: hexagons
cells: {width: 3, height: 3}
marks:
  - {area: [0, 0, 2, 0], tags: [north]}
""",
)
BOARDS = "\nboards:\n  - {{id: yard, files: [{file}]}}\n"
SEATS_BOARDS = "\nboards:\n  - {{id: yard, per: player, files: [{file}]}}\n"  # yard(p): each seat's own
SPACES = [f"{col}{row}" for col in "abc" for row in "123"]  # a literal the board lacks is the checker's error
DIRECTIONS = ("north", "east", "south", "west")
HIVE_DIRECTIONS = ("northeast", "east", "southeast", "southwest", "west", "northwest")
TAGS = ("north", "start", "x")
ROOMS = ("west", "east")

BASE = """\
id: gen
name: Generated
players: {{min: 2, max: 3}}
step_budget: {budget}
{winner}
enums:
  colours: [red, green, blue]

constants:
  limit: 3

components:
  - kind: card
    attributes: {{rank: int, colour: colours}}
    start: deck
    items:
{cards}{dice}
zones:
  - {{id: deck, visibility: hidden}}
  - {{id: pile, visibility: public}}
  - {{id: heap, visibility: top}}
  - {{id: hand, per: player, visibility: owner}}
  - {{id: stash, per: colours, visibility: public}}
{dice_zones}
variables:
  n: {{type: int}}
  m: {{type: int, initial: 1{bounds}}}
  flag: {{type: bool}}
  word: {{type: text}}
  c: {{type: card}}
  who: {{type: player}}
  col: {{type: colours, initial: red}}
  xs: {{type: "list[int]"}}
  cs: {{type: "list[card]"}}
  tally: {{type: "map[int]"}}

player_variables:
  pts: {{type: int}}
  held: {{type: card}}
  tone: {{type: colours, initial: blue}}
  on: {{type: bool}}
"""
VARIABLES = {
    "n": INT,
    "m": INT,
    "flag": BOOL,
    "word": TEXT,
    "c": CARD,
    "who": PLAYER,
    "col": COLOUR,
    "xs": list_of(INT),
    "cs": list_of(CARD),
    "tally": MAP,
}
PLAYER_VARIABLES = {"pts": INT, "held": CARD, "tone": COLOUR, "on": BOOL}
NULLABLE = {CARD, PLAYER}  # variables of these types start as none
ATTRIBUTES = {"rank": INT, "colour": COLOUR}
# Operations that fail on some arguments (an empty zone or list, an index past the end): written bare only
# as often as the program dares, else guarded.
RISKY = {"top", "bottom", "first", "last", "item", "max", "min", "index_of", "cyclic_next", "cyclic_prev"}
RISKY |= {"random_from", "around", "zone_of", "get", "number"}
# The map operations, each written only where its result is wanted (the maps generated hold numbers).
MAP_RESULTS = {"get": INT, "values": list_of(INT), "keys": list_of(TEXT), "with_key": MAP, "without_key": MAP}
# The dice's operations, written only by ``dice_numbers`` and the dice statements (a game with dice has dice in
# its own zones only): never among the operations of an expression.
NOT_IN_EXPRESSIONS = {name for name, op in OPS.items() if op.group == "dice"}
# The operations of teams, in games with teams only.
TEAM_OPS = {"teammates", "team_score"}
TEAMS = '\nteams:\n  "3": [[0, 2], [1]]\n'  # at three players, seats 0 and 2 against 1; at two, no teams


def _block_text(lines: list[str]) -> str:
    return "".join("  " + line + "\n" for line in lines)


class ProgramGen:
    """One generated game: call ``game()`` for its YAML text."""

    def __init__(self, rng: random.Random, board: str = "", teams: bool = False, hive: bool = False):
        self.rng = rng
        self.risk = rng.choice([0.0, 0.0, 0.0, 0.03, 0.1])
        self.locals: dict[str, Type] = {}
        self.sure: set[str] = set()  # locals holding a card or player that is never none
        self.counter = 0
        self.loops = 0
        self.windows = 0
        self.pure = False  # in a function or a score: nothing that changes the game
        self.returns: Type | None = None  # the type a procedure being written gives
        self.procedures: dict[str, tuple[list[tuple[str, Type]], Type | None]] = {}
        self.functions: dict[str, tuple[list[tuple[str, Type]], Type]] = {}
        self.dice = rng.random() < 0.35
        self.house = rng.random() < 0.3
        self.board = board
        self.teams = teams
        self.hive = hive  # the board is of hexagons, not squares
        self.asks = True  # False in the house's procedure, which decides nothing

    # ------------------------------------------------------------------ the game
    def game(self) -> str:
        rng = self.rng
        winner = "winner: lowest\n" if rng.random() < 0.2 else ""
        bounds = ", min: -40, max: 40" if rng.random() < 0.3 else ""
        cards = "".join(
            f"      - {{id: {cid}, rank: {cid[1]}, colour: {next(c for c in COLOURS if c[0] == cid[0])}}}\n"
            for cid in CARD_IDS
        )
        text = BASE.format(
            budget=rng.choice([3000, 20000]),
            winner=winner,
            bounds=bounds,
            cards=cards,
            dice=DICE if self.dice else "",
            dice_zones=DICE_ZONES if self.dice else "",
        )
        functions = [self.function(i) for i in range(rng.randint(0, 3))]
        procedures = [self.procedure(i) for i in range(rng.randint(0, 3))]
        if self.board:
            boards = SEATS_BOARDS if self.board == "per seat" else BOARDS
            text += boards.format(file=(HIVE_FILE if self.hive else BOARD_FILE)[0])
        if self.teams:
            text += TEAMS
        if self.house:
            procedures.append(self.house_plays())
            self.fresh_scope({}, set())
            self.pure = True
            text += f"\nhouse:\n  name: Bank\n  plays: house_plays\n  points: {_quoted(self.expr(INT))}\n"
            self.pure = False
        if functions:
            text += "\nfunctions:\n" + "".join(functions)
        if procedures:
            text += "\nprocedures:\n" + "".join(procedures)
        text += "\nsetup: |\n" + _block_text(self.setup())
        text += "\nplay: |\n" + _block_text(self.play())
        text += "\nscoring:\n" + "".join(self.scorer(i) for i in range(rng.randint(1, 2)))
        if rng.random() < 0.3:
            self.fresh_scope({"p": PLAYER}, sure={"p"})
            self.pure = True
            text += f"\ntiebreakers:\n  - id: tb\n    winner: {rng.choice(['highest', 'lowest'])}\n"
            text += f"    value: {_quoted(self.expr(INT))}\n"
            self.pure = False
        return text

    def fresh_scope(self, names: dict[str, Type], sure: set[str]) -> None:
        self.locals = dict(names)
        self.sure = set(sure)

    def setup(self) -> list[str]:
        lines = ["shuffle(deck)", "for p in players():", "    repeat 3:", "        move(top(deck), hand(p))"]
        if self.rng.random() < 0.5:
            lines += ["move(top(deck), pile)", "who = first(players())"]
        if self.dice:
            lines += ["for p in players():", "    move(top(tray), cup(p))", "    roll(cup(p))", "roll(tray)"]
        return lines

    def house_plays(self) -> str:
        """The house's procedure: statements that ask no one anything."""
        self.fresh_scope({"me": PLAYER}, {"me"})
        self.asks = False
        lines = self.block(0, self.rng.randint(1, 3))
        self.asks = True
        return "  - id: house_plays\n    does: |\n" + "".join("      " + line + "\n" for line in lines)

    def play(self) -> list[str]:
        rng = self.rng
        self.fresh_scope({}, set())
        rounds = rng.choice([1, 2, 3])
        lines = [f"repeat {rounds}:", "    for me in players():"]
        self.locals, self.sure = {"me": PLAYER}, {"me"}
        self.loops = 1
        lines += ["        " + line for line in self.block(2, rng.randint(2, 6))]
        self.loops = 0
        self.fresh_scope({}, set())
        lines += self.block(0, rng.randint(0, 2))
        if self.house:
            lines.append("house_plays()")
        if rng.random() < 0.3:
            lines.append(f'end_game "{rng.choice(["done", "over"])}"')
        return lines

    def scorer(self, i: int) -> str:
        """Points of seat ``p``: read at every decision, so they dare a fault in one game of five only."""
        self.fresh_scope({"p": PLAYER}, {"p"})
        self.pure, risk = True, self.risk
        self.risk = risk if self.rng.random() < 0.2 else 0.0
        points = self.expr(INT)
        self.pure, self.risk = False, risk
        return f"  - id: s{i}\n    points: {_quoted(points)}\n"

    def params(self) -> list[tuple[str, Type]]:
        rng = self.rng
        return [(f"a{k}", rng.choice([INT, PLAYER, CARD, COLOUR, list_of(INT)])) for k in range(rng.randint(0, 2))]

    def function(self, i: int) -> str:
        params = self.params()
        returns = self.rng.choice([INT, BOOL, TEXT, list_of(INT), list_of(CARD), COLOUR])
        self.fresh_scope({"me": PLAYER, **dict(params)}, {"me"} | {p for p, t in params if t in NULLABLE})
        self.pure = True
        body = self.expr(returns)
        self.pure = False
        name = f"f{i}"
        self.functions[name] = (params, returns)
        return (
            f"  - id: {name}\n{_params_text(params)}    returns: {_quoted(str(returns))}\n    value: {_quoted(body)}\n"
        )

    def procedure(self, i: int) -> str:
        rng = self.rng
        params = self.params()
        returns = rng.choice([None, None, INT, BOOL])
        self.fresh_scope({"me": PLAYER, **dict(params)}, {"me"} | {p for p, t in params if t in NULLABLE})
        self.returns = returns
        lines = self.block(0, rng.randint(1, 4))
        if returns is not None:
            lines.append(f"return {self.expr(returns)}")
        self.returns = None
        name = f"proc{i}"
        self.procedures[name] = (params, returns)
        text = f"  - id: {name}\n{_params_text(params)}"
        if returns is not None:
            text += f"    returns: {returns}\n"
        return text + "    does: |\n" + "".join("      " + line + "\n" for line in lines)

    # ------------------------------------------------------------ statements
    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def block(self, depth: int, n: int) -> list[str]:
        """``n`` statements (at least one), their lines indented from the block's own margin."""
        saved, sure = dict(self.locals), set(self.sure)
        out: list[str] = []
        for _ in range(max(n, 1)):
            out += self.stmt(depth)
        self.locals, self.sure = saved, sure
        return out

    def stmt(self, depth: int) -> list[str]:
        rng = self.rng
        kinds: list[str] = ["assign", "assign", "var", "var", "pvar", "aug", "effect", "effect", "choose", "choose"]
        kinds += ["log", "pass"]
        if depth < 4:
            kinds += ["if", "if", "for", "repeat", "while", "window", "several", "moves"]
        if self.dice:
            kinds += ["dice", "dice"]
        if self.procedures:
            kinds += ["call", "call"]
        if self.loops:
            kinds += ["break", "continue"] if rng.random() < 0.3 else []
        if self.windows:
            kinds += ["close", "close", "reopen"] if rng.random() < 0.5 else ["close"]
        if rng.random() < 0.05:
            kinds += ["end"] if self.returns is None else ["return"]
        if not self.asks:
            kinds = [k for k in kinds if k not in ("choose", "several", "window", "call")]
        return getattr(self, "s_" + rng.choice(kinds))(depth + 1)

    def s_pass(self, inner: int) -> list[str]:
        return ["pass"]

    def s_break(self, inner: int) -> list[str]:
        return [f"if {self.expr(BOOL)}:", "    break"]

    def s_continue(self, inner: int) -> list[str]:
        return [f"if {self.expr(BOOL)}:", "    continue"]

    def s_close(self, inner: int) -> list[str]:
        return [f"if {self.expr(BOOL)}:", "    close"]

    def s_reopen(self, inner: int) -> list[str]:
        return ["if n < 2:", "    n += 1", "    reopen"]

    def s_end(self, inner: int) -> list[str]:
        return [f"if {self.expr(BOOL)}:", f'    end_game "{self.rng.choice(["enough", "stop"])}"']

    def s_return(self, inner: int) -> list[str]:
        assert self.returns is not None
        return [f"if {self.expr(BOOL)}:", f"    return {self.expr(self.returns)}"]

    def s_assign(self, inner: int) -> list[str]:
        rng = self.rng
        same = [n for n in self.locals if n not in ("me",) and not n.startswith("a")]
        if same and rng.random() < 0.3:
            name = rng.choice(same)
            t = self.locals[name]
        else:
            t = rng.choice([*SCALARS, list_of(INT), list_of(CARD), list_of(PLAYER), ZONE, MOVE, MAP])
            name = self.fresh("v")
        value = self.expr(t)
        self.locals[name] = t
        if t in NULLABLE:
            self.sure.discard(name)
        return [f"{name} = {value}"]

    def s_var(self, inner: int) -> list[str]:
        name, t = self.rng.choice(list(VARIABLES.items()))
        return [f"{name} = {self.expr(t)}"]

    def s_pvar(self, inner: int) -> list[str]:
        name, t = self.rng.choice(list(PLAYER_VARIABLES.items()))
        return [f"{self.expr(PLAYER, sure=True)}.{name} = {self.expr(t)}"]

    def s_aug(self, inner: int) -> list[str]:
        rng = self.rng
        targets = [("n", INT), ("m", INT), ("xs", list_of(INT)), ("word", TEXT), ("cs", list_of(CARD))]
        targets += [(f"{self.expr(PLAYER, sure=True)}.pts", INT)]
        targets += [(n, t) for n, t in self.locals.items() if t in (INT, TEXT) or t.is_list]
        name, t = rng.choice(targets)
        op = "-=" if t == INT and rng.random() < 0.4 else "+="
        if t == TEXT:
            return [f"{name} += {self.expr(TEXT, depth=2)}"]
        return [f"{name} {op} {self.expr(t, depth=1)}"]

    def s_effect(self, inner: int) -> list[str]:
        rng = self.rng
        zone = self.expr(ZONE)
        how = rng.randrange(8)
        if how == 0:
            return [f"shuffle({zone})"]
        if how == 1:
            return [f"reverse({zone})"]
        if how == 2:
            return [f'sort({zone}, "{rng.choice(["rank", "colour", "id"])}")']
        if how == 3:
            return [f"move_all({zone}, {self.expr(ZONE)})"]
        if how == 4:
            return [f"show({self.expr(list_of(CARD))}, {self.expr(PLAYER, sure=True)})"]
        if how == 5:
            return [f"reveal({self.expr(list_of(CARD))})"]
        card = self.card(sure=True)
        return [f"{rng.choice(['move', 'move_bottom'])}({card}, {self.expr(ZONE)})"]

    def s_moves(self, inner: int) -> list[str]:
        """Cards carried from one zone to another while it has some: the zones change through a game."""
        zone, to = self.expr(ZONE), self.expr(ZONE)
        return [f"repeat {self.rng.randint(1, 3)}:", f"    if size({zone}) > 0:", f"        move(top({zone}), {to})"]

    def s_dice(self, inner: int) -> list[str]:
        """Dice rolled, or carried between the open tray and a seat's secret cup."""
        rng = self.rng
        how = rng.randrange(4)
        if how == 0:
            return [f"roll({self.dice_zone(0)})"]
        if how == 1:
            return [f"roll(showing({self.dice_zone(0)}, {rng.randint(1, 6)}))"]
        cup = f"cup({self.expr(PLAYER, sure=True)})"
        source, to = ("tray", cup) if how == 2 else (cup, "tray")
        return [f"if size({source}) > 0:", f"    move(top({source}), {to})"]

    def dice_zone(self, d: int) -> str:
        return self.rng.choice(["tray", f"cup({self.expr(PLAYER, d, True)})"])

    def s_log(self, inner: int) -> list[str]:
        rng = self.rng
        t = rng.choice([*SCALARS, list_of(INT), list_of(CARD), list_of(PLAYER), MOVE, ZONE, MAP, list_of(TEXT)])
        shown = next((e for e in (self.expr(t, depth=1) for _ in range(5)) if not {'"', "{"} & set(e)), "me")
        line = f'log "{rng.choice(["", "see ", "{{"])}{{{shown}}} {rng.choice(["done", "!"])}"'
        if rng.random() < 0.3:
            line += f" to {self.expr(PLAYER, sure=True)}"
        return [line]

    def s_call(self, inner: int) -> list[str]:
        name = self.rng.choice(list(self.procedures))
        params, returns = self.procedures[name]
        call = f"{name}({', '.join(self.arg(t) for _, t in params)})"
        if returns is None:
            return [call]
        target = self.fresh("r")
        self.locals[target] = returns
        return [f"{target} = {call}"]

    def arg(self, t: Type) -> str:
        return self.expr(t, sure=t in NULLABLE)

    def s_if(self, inner: int) -> list[str]:
        rng = self.rng
        out = [f"if {self.expr(BOOL)}:", *self.sub(inner)]
        for _ in range(rng.choice([0, 0, 1, 2])):
            out += [f"elif {self.expr(BOOL)}:", *self.sub(inner)]
        if rng.random() < 0.4:
            out += ["else:", *self.sub(inner)]
        return out

    def sub(self, inner: int, n: int | None = None) -> list[str]:
        return ["    " + line for line in self.block(inner, n or self.rng.randint(1, 3))]

    def s_for(self, inner: int) -> list[str]:
        rng = self.rng
        var = self.fresh("i")
        t = rng.choice([INT, CARD, PLAYER, COLOUR, MOVE])
        source = self.expr(ZONE) if t == CARD and rng.random() < 0.5 else self.expr(list_of(t))
        if source == "[]":  # its items would be of no type: the loop's variable could not be read
            source = f"[{self.expr(t, 3, sure=True)}]"
        return [f"for {var} in {source}:", *self.looped(inner, {var: t})]

    def looped(self, inner: int, names: dict[str, Type]) -> list[str]:
        saved, sure = dict(self.locals), set(self.sure)
        self.locals.update(names)
        self.sure |= {n for n, t in names.items() if t in NULLABLE}
        self.loops += 1
        body = self.sub(inner)
        self.loops -= 1
        self.locals, self.sure = saved, sure
        return body

    def s_repeat(self, inner: int) -> list[str]:
        count = str(self.rng.randint(0, 3)) if self.rng.random() < 0.7 else f"size({self.expr(ZONE)})"
        return [f"repeat {count}:", *self.looped(inner, {})]

    def s_while(self, inner: int) -> list[str]:
        """A counted while (the count a fresh local), with a generated condition too."""
        k = self.fresh("w")
        cond = f"{k} < {self.rng.randint(1, 4)}"
        if self.rng.random() < 0.5:
            cond += f" {self.rng.choice(['and', 'or'])} {self.expr(BOOL, depth=1)}"
            cond = f"{k} < 6 and ({cond})"
        body = self.looped(inner, {})
        return [f"{k} = 0", f"while {cond}:", f"    {k} += 1", *body]

    def s_window(self, inner: int) -> list[str]:
        var = self.fresh("q")
        start = self.expr(PLAYER, sure=True)
        saved, sure = dict(self.locals), set(self.sure)
        self.locals[var] = PLAYER
        self.sure.add(var)
        self.windows += 1
        loops, self.loops = self.loops, 0  # a loop's break or continue cannot leave the window
        pick = self.choice(var, inner)
        body = ["    " + line for line in pick] + self.sub(inner, self.rng.randint(1, 2))
        self.windows, self.loops = self.windows - 1, loops
        self.locals, self.sure = saved, sure
        return [f"window {var} from {start}:", *body]

    def s_choose(self, inner: int) -> list[str]:
        by = self.expr(PLAYER, sure=True) if self.rng.random() < 0.6 else None
        return self.choice(by, inner)

    def choice(self, by: str | None, depth: int) -> list[str]:
        """A choice by one seat (the current one if ``by`` is None): of numbers, cards, seats, colours or moves."""
        rng = self.rng
        t = rng.choice([INT, CARD, CARD, PLAYER, COLOUR, MOVE])
        name = self.fresh("x")
        verb = rng.choice(VERBS)
        head = f'{name} = choose "{verb}" from ' if verb else f"{name} = choose from "
        optional = rng.random() < 0.3
        guard: list[str] = []
        if t == CARD:
            mine = f"hand({by or 'me'})" if by or "me" in self.locals else "pile"
            source = zone = self.expr(ZONE) if rng.random() < 0.4 else mine
            if not optional and rng.random() >= self.risk:
                guard = [f"if size({zone}) > 0:"]
        elif t == MOVE:
            source = f'[{{do: "keep", k: 0}}, {{do: "{rng.choice(WORDS)}", k: {rng.randint(-2, 5)}}}]'
        else:  # options listed in advance: numbers written out, seats, colours
            source = rng.choice(
                {
                    INT: [f"[{rng.randint(0, 3)}, {rng.randint(0, 3)}, 7]", f"range({rng.randint(0, 2)}, 4)"],
                    PLAYER: ["players()", f"opponents({self.expr(PLAYER, 2, True)})"],
                    COLOUR: ["colours", f'["{rng.choice(COLOURS)}", "{rng.choice(COLOURS)}"]'],
                }[t]
            )
        line = head + source
        if rng.random() < 0.3 and (optional or rng.random() < self.risk + 0.2):
            self.locals["it"] = t
            self.sure.add("it")
            line += f" where {self.expr(BOOL, depth=1)}"
            self.locals.pop("it")
            if not optional:
                line += f" or it == first({source if t != CARD else f'cards({source})'})"
        if by is not None:
            line += f" by {by}"
        if optional:
            line += rng.choice([" optional", ' optional "none"'])
        if rng.random() < 0.2:
            line += " secretly"
        pad = "    " if guard else ""
        after: list[str] = []
        if optional:
            after = [f"if {name} != none:"]
            self.locals[name] = t
            self.sure.add(name)
            after += ["    " + line for line in self.block(depth + 1, self.rng.randint(1, 2))]
            self.locals.pop(name)
        else:
            self.locals[name] = t
            self.sure.add(name)
            if t == MOVE:
                after = [f'if {name}.do == "keep":', *self.sub(depth + 1, 1), "else:", f"    n += {name}.k"]
        if guard:
            self.locals.pop(name, None)
        return guard + [pad + line] + [pad + a for a in after]

    def s_several(self, inner: int) -> list[str]:
        """Every seat chooses at once."""
        rng = self.rng
        name, p = self.fresh("b"), self.fresh("p")
        t = rng.choice([INT, COLOUR, CARD])
        source = {INT: f"[1, 2, {rng.randint(3, 9)}]", COLOUR: "colours", CARD: f"hand({p})"}[t]
        line = f'{name} = choose "{rng.choice(["bid", "vote"])}" from {source} by each {p} in players() simultaneously'
        self.locals[name] = list_of(t)
        guard = "if all([size(hand(q)) > 0 for q in players()]):"
        return [guard, "    " + line] if t == CARD else [line]

    # ------------------------------------------------------------ expressions
    def expr(self, t: Type, depth: int = 0, sure: bool = False) -> str:
        """Text of an expression of type ``t``; ``sure``: a card or seat that is never none."""
        if t == CARD:
            return self.card(sure, depth)
        forms = self.forms(t, depth + 1, sure)
        return self.rng.choice(forms)()

    def named(self, t: Type, sure: bool) -> list[str]:
        names = [n for n, lt in self.locals.items() if lt == t and (not sure or n in self.sure)]
        if not sure or t not in NULLABLE:
            names += [n for n, vt in VARIABLES.items() if vt == t]
        return names

    def card(self, sure: bool, depth: int = 0) -> str:
        rng = self.rng
        named = self.named(CARD, sure)
        if named and rng.random() < 0.5:
            return rng.choice(named)
        if depth >= 3 or rng.random() < 0.3:
            return f'card_named("{rng.choice(CARD_IDS)}")'
        zone = self.expr(ZONE, depth + 1)
        end = rng.choice(["top", "bottom"])
        if rng.random() < self.risk:
            return f"{end}({zone})"
        if rng.random() < 0.3:
            items = self.expr(list_of(CARD), depth + 1)
            return f'(first({items}) if size({items}) > 0 else card_named("{rng.choice(CARD_IDS)}"))'
        return f'({end}({zone}) if size({zone}) > 0 else card_named("{rng.choice(CARD_IDS)}"))'

    def forms(self, t: Type, d: int, sure: bool) -> list[Callable[[], str]]:
        rng, e = self.rng, self.expr
        out: list[Callable[[], str]] = [lambda n=n: n for n in self.named(t, sure)]
        terminal = d >= 4 or rng.random() < 0.25 * d
        out += self.literals(t)
        if t == PLAYER and not sure:
            out.append(lambda: "who")
        if not terminal:
            out += self.op_forms(t, d, sure)
            out += [lambda n=n: f"{e(PLAYER, d, True)}.{n}" for n, vt in PLAYER_VARIABLES.items() if vt == t]
            out += [lambda n=n: f"{self.card(True, d)}.{n}" for n, at in ATTRIBUTES.items() if at == t]
            out += [
                lambda name=name, ps=ps: f"{name}({', '.join(self.arg(pt) for _, pt in ps)})"
                for name, (ps, rt) in self.functions.items()
                if rt == t
            ]
            out.append(lambda: f"({e(t, d)} if {e(BOOL, d)} else {e(t, d)})")
            out += self.operators(t, d)
        if not out:
            out = self.literals(t) or [lambda: "none"]
        return out

    def literals(self, t: Type) -> list[Callable[[], str]]:
        rng = self.rng
        if t == INT:
            return [lambda: str(rng.choice([0, 1, 2, 3, 5, -1, 10])), lambda: "limit", lambda: "num_players"]
        if t == BOOL:
            return [lambda: "true", lambda: "false"]
        if t == TEXT:
            return [lambda: '"' + rng.choice(WORDS) + '"']
        if t == PLAYER:
            return [lambda: "me"] if "me" in self.locals else [lambda: "first(players())"]
        if t == COLOUR:
            return [lambda: '"' + rng.choice(COLOURS) + '"']
        if t == BOARD:
            if self.board == "per seat":
                return [lambda: f"yard({self.expr(PLAYER, 3, sure=True)})"]
            return [lambda: "yard"]
        if t == POSITION:
            return [lambda: '"' + rng.choice(SPACES) + '"']
        if t == DIRECTION:  # one the board lacks would be refused by the checker
            return [lambda: '"' + rng.choice(HIVE_DIRECTIONS if self.hive else DIRECTIONS) + '"']
        if t == ZONE:
            return [lambda: "deck", lambda: "pile", lambda: "heap"]
        if t == MOVE:
            return [lambda: f'{{do: "{rng.choice(WORDS)}", k: {rng.randint(0, 4)}}}']
        if t == MAP:
            return [lambda: "{}", lambda: f'{{"{rng.choice(WORDS)}": {rng.randint(0, 4)}, "{rng.choice(COLOURS)}": 1}}']
        if t.is_list:
            out = [lambda: "[]", lambda: f"[{self.expr(t.element, 3, sure=True)}]"]
            if t.element == COLOUR:
                out.append(lambda: "colours")
            return out
        return []

    def operators(self, t: Type, d: int) -> list[Callable[[], str]]:
        rng, e = self.rng, self.expr
        if t == INT:
            return [
                lambda: f"{e(INT, d)} {rng.choice(['+', '-'])} {e(INT, d)}",
                lambda: self.got(d),
                *self.dice_numbers(d),
                lambda: f"{e(INT, d)} * {rng.randint(-2, 3)}",
                lambda: f"-{e(INT, d)}",
                lambda: f"{e(INT, d)} {rng.choice(['//', '%'])} {self.divisor(d)}",
                lambda: (
                    f"{rng.choice(['max', 'min'])}({e(list_of(INT), d)}, by: {self.keyed(INT, d)})"
                    if rng.random() < self.risk
                    else f"size({e(list_of(INT), d)})"
                ),
            ]
        if t == BOOL:
            return [
                lambda: f"{e(INT, d)} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {e(INT, d)}",
                lambda: f"not {e(BOOL, d)}",
                lambda: f"({e(BOOL, d)} {rng.choice(['and', 'or'])} {e(BOOL, d)})",
                lambda: f"{self.card(True, d)} {rng.choice(['in', 'not in'])} {e(ZONE, d)}",
                lambda: f"{e(INT, d)} {rng.choice(['in', 'not in'])} {e(list_of(INT), d)}",
                lambda: f"{e(PLAYER, d)} {rng.choice(['==', '!='])} {e(PLAYER, d)}",
                lambda: f"{self.card(False, d)} == none",
                lambda: f"{e(TEXT, d)} {rng.choice(['==', '!='])} {e(TEXT, d)}",
                lambda: f"{e(COLOUR, d)} == {e(COLOUR, d)}",
                lambda: f"{e(MOVE, d)} == {e(MOVE, d)}",
                lambda: f"{e(rng.choice([TEXT, COLOUR]), d)} {rng.choice(['in', 'not in'])} {e(MAP, d)}",
            ]
        if t == TEXT:
            return [
                lambda: f"{e(TEXT, d)} + {e(TEXT, d)}",
                lambda: f"{self.card(True, d)}.id",
                lambda: f"{e(MOVE, d)}.do",
            ]
        if t == MOVE:
            return [lambda: f"{{do: {e(TEXT, d)}, k: {e(INT, d)}}}"]
        if t == ZONE:
            return [lambda: f"hand({e(PLAYER, d, True)})", lambda: f"stash({e(COLOUR, d)})"]
        if t.is_list:
            return self.list_forms(t, d)
        return []

    def dice_numbers(self, d: int) -> list[Callable[[], str]]:
        """What dice show, as numbers (none in a game without dice)."""
        if not self.dice:
            return []
        zone = self.dice_zone
        return [
            lambda: f"sum(faces({zone(d)}))",
            lambda: f"size(showing({zone(d)}, {self.rng.randint(1, 6)}))",
            lambda: f"(face(top(tray)) if size(tray) > 0 else {self.expr(INT, d)})",
        ]

    def got(self, d: int) -> str:
        """A map's number under a key, or 0 where it has none (the key a text made while playing too)."""
        m, k = self.expr(MAP, d), self.expr(self.rng.choice([TEXT, COLOUR]), d)
        return f"(get({m}, {k}) if {k} in {m} else 0)"

    def divisor(self, d: int) -> str:
        if self.rng.random() < self.risk:
            return self.expr(INT, d)
        return f"({self.expr(INT, d)} % {self.rng.randint(2, 5)} + 1)"

    def keyed(self, item: Type, d: int) -> str:
        """A key read with ``it`` the item."""
        saved = self.locals.get("it")
        self.locals["it"] = item
        key = self.expr(INT, d)
        if saved is None:
            self.locals.pop("it")
        else:
            self.locals["it"] = saved
        return key

    def list_forms(self, t: Type, d: int) -> list[Callable[[], str]]:
        rng, e, item = self.rng, self.expr, t.element
        out = [
            lambda: f"{e(t, d)} + {e(t, d)}",
            lambda: f"[{e(item, d, True)}, {e(item, d, True)}]",
            lambda: self.comprehension(t, d),
        ]
        if item == INT:
            out.append(lambda: f"range({e(INT, d)} % 4, {rng.randint(0, 5)})")
        if item in (INT, CARD, PLAYER):
            out.append(lambda: f"sorted({e(t, d)}, by: {self.keyed(item, d)})")
        if self.dice and item == INT:
            out.append(lambda: f"faces({self.dice_zone(d)})")
        if self.dice and item == CARD:
            out.append(lambda: f"showing({self.dice_zone(d)}, {rng.randint(1, 6)})")
        if item == CARD:
            out.append(lambda: f"[{self.fresh_pair(d)}]")
        return out

    def comprehension(self, t: Type, d: int) -> str:
        rng = self.rng
        var = self.fresh("j")
        src_t = rng.choice([INT, CARD, PLAYER, COLOUR])
        source = self.expr(ZONE, d) if src_t == CARD and rng.random() < 0.5 else self.expr(list_of(src_t), d)
        saved, sure = dict(self.locals), set(self.sure)
        self.locals[var] = src_t
        self.sure.add(var)
        element = self.expr(t.element, d, sure=True)
        cond = f" if {self.expr(BOOL, d)}" if rng.random() < 0.5 else ""
        self.locals, self.sure = saved, sure
        return f"[{element} for {var} in {source}{cond}]"

    def fresh_pair(self, d: int) -> str:
        """A comprehension over two lists: every card of a zone for every seat."""
        p, k = self.fresh("j"), self.fresh("j")
        saved, sure = dict(self.locals), set(self.sure)
        self.locals.update({p: PLAYER, k: CARD})
        self.sure |= {p, k}
        cond = f" if {self.expr(BOOL, d)}" if self.rng.random() < 0.5 else ""
        self.locals, self.sure = saved, sure
        return f"{k} for {p} in players() for {k} in hand({p}){cond}"

    def op_forms(self, t: Type, d: int, sure: bool) -> list[Callable[[], str]]:
        """Calls of the operations whose result fits ``t``, their arguments generated for their parameters."""
        out: list[Callable[[], str]] = []
        names = NATIVE_OPS | (BOARD_OPS if self.board else set())
        names -= NOT_IN_EXPRESSIONS if self.teams else NOT_IN_EXPRESSIONS | TEAM_OPS
        for name in sorted(names):
            op = OPS[name]
            if op.returns is None or (self.pure and (op.changes or name in ("score", "team_score"))):
                continue  # a function may change nothing, and the scoring reading itself would never end
            if name in RISKY and self.rng.random() >= self.risk:
                continue
            binding: dict[Type, Type | None] = {}
            if not unify(op.returns, t, binding):
                continue
            if op.returns == ANY or (t in NULLABLE and sure and name in RISKY):
                continue
            if MAP_RESULTS.get(name, t) != t:
                continue
            if name in BOARD_OPS and op.returns != t and t != TEXT:
                continue  # a position or a direction is a text, but never a colour
            out.append(lambda op=op, binding=binding: self.call(op, binding, d))
        return out

    def call(self, op, binding: dict, d: int) -> str:
        if op.constant:
            return op.name
        params = op.params[: len(op.params) - self.rng.randint(0, op.optional)]
        if binding.get(next(iter(binding), None)) is None and any(pt.has_typevar for _, pt in params):
            binding = {k: self.rng.choice([INT, PLAYER, CARD, COLOUR]) for k in binding} or {}
        args = []
        for pname, pt in params:
            if pt == ATTRIBUTE:
                args.append('"rank"')
                continue
            concrete = substitute(pt, binding) if pt.has_typevar else pt
            if concrete is None or concrete.has_typevar:
                concrete = substitute(pt, dict.fromkeys([*binding, TYPEVAR], INT))
            if concrete is not None and concrete.is_list and concrete.element == ANY:
                concrete = list_of(self.rng.choice([INT, CARD, PLAYER]))
            if concrete is not None and concrete.is_map:
                concrete = MAP
            if pt == TEXT and op.params[0][1] == BOARD:  # a tag, a room or a space of the board, by its name
                names = {"tag": TAGS, "room": ("hive",) if self.hive else ROOMS}.get(pname, SPACES)
                args.append('"' + self.rng.choice(names) + '"')
                continue
            if concrete == ANY and op.name == "text":
                concrete = self.rng.choice([INT, BOOL, PLAYER, list_of(INT), MAP, MOVE])
            args.append(self.expr(concrete or INT, d, sure=concrete in NULLABLE))
        return f"{op.name}({', '.join(args)})"


def _params_text(params: list[tuple[str, Type]]) -> str:
    if not params:
        return ""
    return "    params: {" + ", ".join(f'{n}: "{t}"' for n, t in params) + "}\n"


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar holding ``text``."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def game_text(seed: int, index: int) -> str:
    """The YAML text of generated game ``index`` of ``seed``.  Whether it has a board, and teams, is drawn apart,
    so that a game with neither is the game the same pair made before boards and teams were generated."""
    boards = random.Random(f"{seed}/{index}/board")
    board = ("per seat" if boards.random() < 0.35 else "one") if boards.random() < 0.3 else ""
    hive = bool(board) and boards.random() < 0.4
    teams = random.Random(f"{seed}/{index}/teams").random() < 0.25
    return ProgramGen(random.Random(f"{seed}/{index}"), board, teams, hive).game()
