"""Hostile-input fuzzer for rule, variant, component and board files.

The promise it checks: whatever a designer writes, ``engine.load_game`` either loads
cleanly or raises ``engine.RulesError`` (``LoadError``) whose ``.diagnostics`` each have a
path, a line ≥ 1, a column ≥ 1, a code E1xx–E7xx and a message — never another
exception, never a hang.  A game that loads must survive ``new_game`` for its minimum
player count and up to 200 random legal actions (then ``view``, ``scores``, ``winners``
and a save/load round trip) raising only ``engine.TabletopError`` subclasses; the designer
tools must take it too: ``lint`` (well-formed warnings), ``doc``, ``explain`` of every part,
and ``diff`` against the shipped game.

    python tools/fuzz_rules.py --mutants 600 --seed 1
    python tools/fuzz_rules.py --mutants 3000 --seed 7 --jobs 2 --json > fuzz.json
    python tools/fuzz_rules.py --seed 7 --replay 1234          # one mutant, its diff and traceback
    python tools/fuzz_rules.py --seed 7 --replay 1234 --dump /tmp/m1234   # and write its files

Each mutant starts from the shipped files of one game (copied from this checkout to a
temporary folder with the same layout, ``<tmp>/rules/<game>/…`` and ``<tmp>/boards/<game>/…``)
and changes ONE file by ONE mutation, either in the YAML text (truncate at a byte, insert
junk — control characters, emoji, bidi marks, NUL, lone surrogates, YAML or effect-language
fragments —, break an indentation, delete or repeat a line, duplicate a key, rename an id,
misspell a name in an effect, replace a scalar) or in the data (``yaml.safe_load`` → delete a
key, change a value's type, swap two values, rename an id or a key, duplicate an item,
insert junk into effect text, replace effect text by generated text (``ProgramGen``: token
soup or roughly typed statements over the game's vocabulary), add a ``remove:`` /
``components:`` / base section to a variant → ``yaml.safe_dump``).  It then loads the game
or one of its variants (by name or by path); about one mutant in seven also goes through
``validate_paths`` on the mutated file.  Mutant ``i`` of seed ``s`` is fully determined by
``(s, i)`` and the ``--games`` list, so ``--replay i`` reproduces it.

Exit status 1 on any crash or hang.  Outcomes:

``clean``        loaded; the game was played (``play`` counts how play ended)
``diagnostics``  RulesError with well-formed diagnostics (codes are counted)
``crash``        any other exception, a malformed diagnostic, or a non-TabletopError in play
``hang``         load or play still running after ``--timeout`` seconds of CPU (SIGPROF)

Guards: SIGPROF interrupts a load or a play after ``--timeout`` seconds of CPU (a ``Hang``, a
BaseException the engine cannot swallow); a watchdog thread ends the process with status 3
and the replay command if a mutant is stuck in C for 3 × timeout; ``--memory-mb`` (default
4096) caps the address space so a runaway allocation is a MemoryError, reported as a crash.

Unchanged board files are compiled once per worker and the result reused (boards are
frozen tables, and the compile is a pure function of the file); ``--no-board-cache``
compiles every board every time.  Anomalies that break no promise (a one-line diagnostic
spanning lines, a line past the end of its file, a state whose own save is refused, a
decision with no legal action) are counted separately and do not fail the run.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import difflib
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

import engine  # noqa: E402
from engine.boards import graphs as _boards  # noqa: E402
from engine.errors import Diagnostic, RulesError, RuntimeRuleError, TabletopError  # noqa: E402
from engine.lang.ops import OPS  # noqa: E402
from engine.tools.codes import CODES  # noqa: E402
from engine.tools.diff import compare  # noqa: E402
from engine.tools.doc import game_reference  # noqa: E402
from engine.tools.explain import explain, topics  # noqa: E402
from engine.tools.lint.checks import lint_game  # noqa: E402

DEFAULT_TIMEOUT = 10.0
MAX_ACTIONS = 200
CODE_RE = re.compile(r"[EW][1-7]\d\d\Z")
DSL_KEYS = ("setup", "play", "does", "effect", "points", "value", "start")
KEYWORDS = [
    "if",
    "elif",
    "else",
    "for",
    "in",
    "while",
    "repeat",
    "window",
    "from",
    "choose",
    "where",
    "by",
    "optional",
    "secretly",
    "log",
    "to",
    "end_game",
    "pass",
    "return",
    "reopen",
    "close",
    "and",
    "or",
    "not",
    "true",
    "false",
    "none",
    "me",
    "it",
    "this",
]
PUNCT = ["(", ")", "[", "]", ",", ".", ":", "=", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%"]


class Hang(BaseException):
    """Raised by the wall-clock guard; a BaseException so that no engine ``except Exception`` eats it."""


# ============================================================== the random material
CONTROL = [chr(c) for c in range(32)] + ["\x7f", "\x85", "\u2028", "\u2029"]
UNICODE = [
    "é",
    "ß",
    "ı",
    "İ",
    "Σ",
    "ς",
    "ﬁ",
    "Å",
    "а",
    "е",
    "о",
    "с",  # Cyrillic look-alikes
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",  # zero-width, BOM
    "\u200e",
    "\u200f",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2069",  # bidi
    "\u0301",
    "\u0338",
    "\u20dd",  # combining
    "😀",
    "🐈",
    "👩‍👩‍👧",
    "🏳️‍🌈",
    "\U0001f9d1\u200d\U0001f4bb",
    "\U000e0041",
    "𝔸",
    "𝟘",
    "\u00a0",
    "\u3000",
    "\u2003",
    "\t",
    "\r",
    "\r\n",
    "\n",
    "\x0b",
    "\x0c",
    "\ufffd",
    "\uffff",
    "\ufffe",
    "\U0010ffff",
    "\ud800",
    "\udfff",  # lone surrogates → invalid UTF-8
    "中文",
    "العربية",
    "עברית",
    "Ⅻ",
    "½",
    "²",
    "٣",
    "𝟙",
]
YAML_JUNK = [
    ": ",
    ":",
    "- ",
    "-",
    "? ",
    "#",
    " #",
    "&a ",
    "*a",
    "*nope",
    "!!str ",
    "!!python/object:os.system ",
    "!!binary ",
    "!custom ",
    "<<: ",
    "{",
    "}",
    "[",
    "]",
    "{a: 1}",
    "[1, [2, [3]]]",
    "'",
    '"',
    "|",
    ">",
    "%YAML 1.1",
    "---",
    "...",
    "@",
    "`",
    "\\",
    "\\x",
    '"\\u',
    "~",
    "null",
    "yes",
    "no",
    "on",
    ".nan",
    "0x1F",
    "0o17",
    "1e400",
    "1_000",
    "2024-02-30",
    "12:30:00",
    "-.inf",
    "+1",
    "0b101",
]
DSL_JUNK = (
    PUNCT
    + KEYWORDS
    + [
        '"',
        '""',
        '"{',
        "{",
        "}",
        '"{p}"',
        '"{1 +}"',
        '"{{}}"',
        "#",
        "\\\n",
        "\n",
        "\n    ",
        "\n\t",
        ":\n",
        "(((",
        ")))",
        "[[",
        "]]",
        "'x'",
        "9" * 40,
        "0",
        "-0",
        "007",
        "9" * 5000,
        "x" * 300,
        "(" * 70 + ")" * 70,
        "a.b.c.d",
        ".x",
        "x.",
        "_",
        "__",
        "lambda",
        "import",
        "@",
        "$",
        "?",
        "!",
        "&",
        "|",
        "^",
        "~",
        "`",
        ";",
        "->",
        "**",
        "/",
        "<>",
        "=>",
        "+=",
        "e" * 2,
        "1.5",
        "1e9",
        "0x10",
        "None",
        "True",
        " + 1" * 400,
        " if true else 1" * 600,
    ]
)


def junk(rng: random.Random, dsl: bool) -> str:
    """A short piece of hostile text: control characters, unicode, YAML or DSL fragments."""
    pools = [CONTROL, UNICODE, DSL_JUNK if dsl else YAML_JUNK, YAML_JUNK if dsl else DSL_JUNK]
    weights = [2, 4, 5, 1]
    parts = [rng.choice(rng.choices(pools, weights)[0]) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    return "".join(parts)


def near_miss(rng: random.Random, name: str) -> str:
    """A misspelling of ``name``: a letter dropped, doubled, swapped, changed, or a case change."""
    if not name:
        return "x"
    i = rng.randrange(len(name))
    how = rng.randrange(7)
    if how == 0 and len(name) > 1:
        return name[:i] + name[i + 1 :]
    if how == 1:
        return name[:i] + name[i] + name[i:]
    if how == 2 and len(name) > 1:
        j = min(i + 1, len(name) - 1)
        chars = list(name)
        chars[i], chars[j] = chars[j], chars[i]
        out = "".join(chars)
        return out if out != name else name + "s"
    if how == 3:
        return name[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz_") + name[i + 1 :]
    if how == 4:
        return name.upper() if name != name.upper() else name.lower() + "X"
    if how == 5:
        return name + rng.choice(["s", "_", "1", "2", "_x"])
    lookalike = {"a": "а", "e": "е", "o": "о", "c": "с", "p": "р", "x": "х", "i": "і"}
    for k in range(len(name)):
        if name[k] in lookalike:
            return name[:k] + lookalike[name[k]] + name[k + 1 :]
    return name + "\u200b"


def random_name(rng: random.Random) -> str:
    n = rng.choice([1, 2, 3, 5, 8, 12, 40])
    first = rng.choice("abcdefghijklmnopqrstuvwxyz_")
    return first + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_0123456789") for _ in range(n - 1))


def random_int(rng: random.Random) -> int:
    return rng.choice(
        [0, 1, -1, 2, 3, 7, 12, 100, -100, 10**6, 2**31, 2**63, -(2**63), 10**30, rng.randint(-1000, 1000)]
    )


# ============================================================ generated effect text
def _spelled(vocab):
    """The game's vocabulary with each type as the rules spell it: the generator writes types as text."""

    def text(t):
        return None if t is None else str(t)

    return dataclasses.replace(
        vocab,
        zones={k: text(t) for k, t in vocab.zones.items()},
        boards={k: text(t) for k, t in vocab.boards.items()},
        card_attributes={k: str(t) for k, t in vocab.card_attributes.items()},
        player_variables={k: str(t) for k, t in vocab.player_variables.items()},
        variables={k: str(t) for k, t in vocab.variables.items()},
        constants={k: (str(t), value) for k, (t, value) in vocab.constants.items()},
        procedures={k: [(p, str(t)) for p, t in ps] for k, ps in vocab.procedures.items()},
        procedure_returns={k: str(t) for k, t in vocab.procedure_returns.items()},
        functions={k: ([(p, str(t)) for p, t in ps], str(r)) for k, (ps, r) in vocab.functions.items()},
    )


class ProgramGen:
    """Random effect-language text: either token soup or roughly typed statements.

    Typed statements use the game's vocabulary (zones, enums, variables, attributes,
    procedures) so that many of them get past the checker and reach the compiler and the
    interpreter; a few are deliberately wrong (a wrong type, an unknown name).
    """

    def __init__(self, rng: random.Random, vocab, params: dict[str, str] | None = None, card_ids=()):
        self.rng = rng
        self.v = _spelled(vocab)
        self.locals: dict[str, str] = {"me": "player", **(params or {})}
        self.card_ids = list(card_ids) or ["x"]
        self.counter = 0
        self.window = 0
        self.slips = 1 if rng.random() < 0.35 else 0  # deliberate type or name errors left to make

    # ---------------------------------------------------------------- soup
    def soup(self) -> str:
        rng = self.rng
        names = self.all_names()
        out = []
        for _ in range(rng.randint(1, 40)):
            k = rng.random()
            if k < 0.25:
                out.append(rng.choice(KEYWORDS))
            elif k < 0.5:
                out.append(rng.choice(names))
            elif k < 0.7:
                out.append(rng.choice(PUNCT))
            elif k < 0.78:
                out.append(str(random_int(rng)))
            elif k < 0.85:
                out.append(rng.choice(['"x"', '"{p}"', '"{me}"', '"', '"{"', '"}{"', '"{x.y}"', '""']))
            elif k < 0.97:
                out.append("\n" + rng.choice(["", "    ", "        ", "  ", "\t", "   ", "            "]))
            else:
                out.append(junk(rng, dsl=True))
        return " ".join(out).replace(" \n", "\n") + "\n"

    def all_names(self) -> list[str]:
        v = self.v
        names = list(OPS) + list(v.enums) + list(v.zones) + list(v.boards) + list(v.variables)
        names += list(v.constants) + list(v.procedures) + list(v.functions) + list(v.card_attributes)
        names += list(v.player_variables) + list(self.locals) + ["x", "y", "p", "c", "t", "it"]
        return names

    # ---------------------------------------------------------- statements
    def program(self) -> str:
        lines = self.block(0, self.rng.randint(1, 6))
        text = "\n".join(lines) + "\n"
        if self.rng.random() < 0.2:
            text = self.corrupt(text)
        return text

    def corrupt(self, text: str) -> str:
        """One token-level slip in otherwise generated text."""
        rng = self.rng
        tokens = re.findall(r"\s+|\w+|\"[^\"\n]*\"|.", text)
        if not tokens:
            return text
        i = rng.randrange(len(tokens))
        how = rng.randrange(4)
        if how == 0:
            del tokens[i]
        elif how == 1:
            tokens.insert(i, rng.choice(KEYWORDS + PUNCT + [" ", "\n", "    "]))
        elif how == 2 and re.fullmatch(r"\w+", tokens[i]):
            tokens[i] = near_miss(rng, tokens[i])
        else:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        return "".join(tokens)

    def block(self, indent: int, n: int) -> list[str]:
        saved = dict(self.locals)
        out: list[str] = []
        for _ in range(n):
            out += self.stmt(indent)
        self.locals = saved
        return out

    def stmt(self, indent: int) -> list[str]:
        rng, pad = self.rng, " " * indent
        deep = indent >= 12
        choices = ["call", "call", "assign", "assign", "var", "choose", "log", "pass"]
        if not deep:
            choices += ["if", "if", "for", "for", "while", "repeat", "window"]
        if self.v.procedures:
            choices += ["proc"]
        if self.window:
            choices += ["reopen", "close"]
        choices += ["return", "end_game", "perform"] if rng.random() < 0.15 else []
        kind = rng.choice(choices)
        sub = 4 if rng.random() < 0.9 else rng.choice([2, 3, 8])
        if kind == "call":
            return [pad + self.effect_call()]
        if kind == "assign":
            t = self.some_type()
            name = self.fresh()
            line = f"{name} = {self.expr(t)}"
            self.locals[name] = t
            return [pad + line]
        if kind == "var":
            targets = [(n, t) for n, t in self.v.variables.items()]
            ptargets = [(n, t) for n, t in self.v.player_variables.items()]
            if ptargets and (not targets or rng.random() < 0.5):
                n, t = rng.choice(ptargets)
                return [pad + f"{self.expr('player')}.{n} = {self.expr(t)}"]
            if targets:
                n, t = rng.choice(targets)
                return [pad + f"{n} = {self.expr(t)}"]
            return [pad + "pass"]
        if kind == "choose":
            t = rng.choice(["card", "player", "text", "int"] + list(self.v.enums))
            name = self.fresh()
            src = self.expr(f"list[{t}]")
            line = f'{name} = choose "{rng.choice(["pick", "play", "lay", "take", ""])}" from {src}'
            if rng.random() < 0.5:
                self.locals["it"] = t
                line += f" where {self.expr('bool')}"
                self.locals.pop("it", None)
            if rng.random() < 0.6:
                line += f" by {self.expr('player')}"
            if rng.random() < 0.3:
                line += " optional"
            if rng.random() < 0.2:
                line += " secretly"
            self.locals[name] = t
            return [pad + line]
        if kind == "log":
            inner = self.expr(self.some_type())
            if '"' in inner:
                inner = "me"
            line = f'log "{rng.choice(["", "note ", "{ "])}{{{inner}}} done"'
            if rng.random() < 0.3:
                line += f" to {self.expr('player')}"
            return [pad + line]
        if kind == "pass":
            return [pad + "pass"]
        if kind in ("return", "end_game", "reopen", "close"):
            return [pad + kind]
        if kind == "perform":
            return [pad + f"perform({self.expr('card')})"]
        if kind == "proc":
            name = rng.choice(list(self.v.procedures))
            args = ", ".join(self.expr(t) for _, t in self.v.procedures[name])
            return [pad + f"{name}({args})"]
        if kind == "if":
            out = [pad + f"if {self.expr('bool')}:"] + self.block(indent + sub, rng.randint(1, 3))
            for _ in range(rng.choice([0, 0, 1, 2])):
                out += [pad + f"elif {self.expr('bool')}:"] + self.block(indent + sub, rng.randint(1, 2))
            if rng.random() < 0.4:
                out += [pad + "else:"] + self.block(indent + sub, rng.randint(1, 2))
            return out
        if kind == "for":
            t = self.some_type(scalar=True)
            src = self.expr(f"list[{t}]") if t != "card" or rng.random() < 0.5 else self.expr("zone")
            name = self.fresh()
            self.locals[name] = t
            out = [pad + f"for {name} in {src}:"] + self.block(indent + sub, rng.randint(1, 3))
            self.locals.pop(name, None)
            return out
        if kind == "while":
            return [pad + f"while {self.expr('bool')}:"] + self.block(indent + sub, rng.randint(1, 3))
        if kind == "repeat":
            return [pad + f"repeat {self.expr('int')}:"] + self.block(indent + sub, rng.randint(1, 3))
        if kind == "window":
            name = self.fresh()
            start = self.expr("player")
            self.locals[name] = "player"
            self.window += 1
            out = [pad + f"window {name} from {start}:"] + self.block(indent + sub, rng.randint(1, 3))
            self.window -= 1
            return out
        return [pad + "pass"]

    def effect_call(self) -> str:
        rng = self.rng
        stmts = [o for o in OPS.values() if o.returns is None and not o.control]
        o = rng.choice(stmts)
        return f"{o.name}({', '.join(self.arg(str(t)) for _, t in o.params)})"

    def arg(self, t: str) -> str:
        if t == "attribute":
            return '"' + self.rng.choice(list(self.v.card_attributes) + ["id", "name"]) + '"'
        if t in ("T", "any"):
            return self.expr(self.some_type())
        if t.startswith("list[") and t[5:-1] in ("T", "any"):
            return self.expr(f"list[{self.some_type(scalar=True)}]")
        if t == "list[list[T]]":
            return f"[{self.expr('list[int]')}]"
        return self.expr(t)

    def fresh(self) -> str:
        self.counter += 1
        return self.rng.choice(["x", "n", "c", "t", "p", "pick", "k"]) + str(self.counter)

    def some_type(self, scalar: bool = False) -> str:
        types = ["int", "bool", "text", "player", "card", "zone"] + list(self.v.enums)
        if not scalar:
            types += ["list[card]", "list[player]", "list[int]"]
        return self.rng.choice(types)

    # ---------------------------------------------------------- expressions
    def expr(self, t: str, depth: int = 0) -> str:
        rng = self.rng
        if self.slips and rng.random() < 0.05:  # deliberately wrong: another type or an unknown name
            self.slips -= 1
            return rng.choice(
                [
                    self.expr(self.some_type(), depth + 2),
                    near_miss(rng, rng.choice(self.all_names())),
                    "none",
                    str(random_int(rng)),
                ]
            )
        if rng.random() < 0.004 and t in ("int", "bool", "text"):  # a very long chain: deep trees
            n = rng.choice([100, 300, 400, 480, 700, 1000])
            return rng.choice(
                {
                    "int": [" + ".join(["1"] * n), " * ".join(["1"] * n), "1 if true else " * n + "0", "-" * n + "1"],
                    "bool": [" and ".join(["true"] * n), " or ".join(["false"] * n), "not " * n + "true"],
                    "text": [" + ".join(['"a"'] * n)],
                }[t]
            )
        local = [n for n, lt in self.locals.items() if lt == t]
        if local and rng.random() < 0.3:
            return rng.choice(local)
        terminal = depth >= 3 or rng.random() < 0.3 + 0.15 * depth
        options = self.productions(t, depth + 1, terminal)
        if not options:
            return "none"
        return rng.choice(options)()

    def productions(self, t: str, d: int, terminal: bool) -> list[Callable[[], str]]:
        rng, v, e = self.rng, self.v, self.expr
        vars_ = [n for n, vt in v.variables.items() if vt == t]
        consts = [n for n, (ct, _) in v.constants.items() if ct == t]
        pvars = [n for n, vt in v.player_variables.items() if vt == t]
        attrs = [n for n, at in v.card_attributes.items() if at == t]
        funcs = [(n, ps) for n, (ps, rt) in v.functions.items() if rt == t]
        out: list[Callable[[], str]] = []
        out += [lambda n=n: n for n in vars_ + consts]
        if pvars:
            out.append(lambda: f"{e('player', d)}.{rng.choice(pvars)}")
        if attrs:
            out.append(lambda: f"{e('card', d)}.{rng.choice(attrs)}")
        if funcs and not terminal:
            out.append(lambda: (lambda n, ps: f"{n}({', '.join(e(pt, d) for _, pt in ps)})")(*rng.choice(funcs)))
        if t == "int":
            out += [lambda: str(rng.choice([0, 1, 2, 3, 4, 10, 100, -1, 99999]))]
            if not terminal:
                out += [
                    lambda: f"size({e('zone', d)})",
                    lambda: f"size({e('list[card]', d)})",
                    lambda: f"{e('int', d)} {rng.choice(['+', '-', '*', '//', '%'])} {e('int', d)}",
                    lambda: f"sum({e('list[int]', d)})",
                    lambda: f"max({e('list[int]', d)})",
                    lambda: f"score({e('player', d)})",
                    lambda: f"seat_number({e('player', d)})",
                    lambda: f"-{e('int', d)}",
                    lambda: f"({e('int', d)} if {e('bool', d)} else {e('int', d)})",
                    lambda: f"index_of({e('list[player]', d)}, {e('player', d)})",
                    lambda: "num_players",
                ]
                for b, per in v.boards.items():
                    out.append(
                        lambda b=b, per=per: f"distance({self.board(b, per, d)}, {e('text', d)}, {e('text', d)})"
                    )
        elif t == "bool":
            out += [lambda: "true", lambda: "false"]
            if not terminal:
                out += [
                    lambda: f"{e('int', d)} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {e('int', d)}",
                    lambda: f"not {e('bool', d)}",
                    lambda: f"{e('bool', d)} and {e('bool', d)}",
                    lambda: f"{e('bool', d)} or {e('bool', d)}",
                    lambda: f"is_empty({e('zone', d)})",
                    lambda: f"{e('card', d)} in {e('list[card]', d)}",
                    lambda: f"{e('player', d)} not in {e('list[player]', d)}",
                    lambda: f"{e('card', d)} == none",
                    lambda: f"{e('text', d)} == {e('text', d)}",
                ]
        elif t == "text":
            out += [lambda: '"' + rng.choice(["x", "", "a b", "left", "yellow", "ball", "{", "é🐈"]) + '"']
            if not terminal:
                out += [
                    lambda: f"{e('card', d)}.{rng.choice(['id', 'name', 'kind'])}",
                    lambda: f"text({e(self.some_type(), d)})",
                    lambda: f"{e('text', d)} + {e('text', d)}",
                    lambda: f"word({e('text', d)}, {e('int', d)})",
                    lambda: f"key_of({e('zone', d)})",
                ]
        elif t == "player":
            out += [lambda: "me"]
            if not terminal:
                out += [
                    lambda: f"left_of({e('player', d)})",
                    lambda: f"right_of({e('player', d)})",
                    lambda: "first(players())",
                    lambda: "random_from(players())",
                    lambda: f"item(players(), {e('int', d)})",
                    lambda: f"last({e('list[player]', d)})",
                ]
        elif t == "card":
            out += [lambda: f'card_named("{rng.choice(self.card_ids)}")']
            if not terminal:
                out += [
                    lambda: f"top({e('zone', d)})",
                    lambda: f"bottom({e('zone', d)})",
                    lambda: f"first({e('list[card]', d)})",
                    lambda: f"random_from({e('list[card]', d)})",
                    lambda: f"item({e('list[card]', d)}, {e('int', d)})",
                ]
        elif t == "zone":
            for fam, key in v.zones.items():
                if key is None:
                    out.append(lambda fam=fam: fam)
                elif not terminal:
                    out.append(lambda fam=fam, key=key: f"{fam}({e(key, d)})")
            if not terminal:
                out.append(lambda: f"zone_of({e('card', d)})")
        elif t in v.enums:
            out += [lambda: '"' + rng.choice(v.enums[t]) + '"']
            if not terminal:
                out += [lambda: f"first({t})", lambda: f"random_from({t})"]
        elif t.startswith("list["):
            inner = t[5:-1]
            out += [lambda: "[]", lambda: f"[{e(inner, d)}]"]
            if inner in v.enums:
                out.append(lambda: inner)
            if not terminal:
                out += [lambda: f"[{e(inner, d)}, {e(inner, d)}]", lambda: f"distinct({e(t, d)})"]
                if inner == "card":
                    out += [
                        lambda: f"cards({e('zone', d)})",
                        lambda: f"top_cards({e('zone', d)}, {e('int', d)})",
                        lambda: self.comprehension(t, d),
                    ]
                elif inner == "player":
                    out += [
                        lambda: "players()",
                        lambda: f"opponents({e('player', d)})",
                        lambda: f"players_from({e('player', d)})",
                        lambda: f"teammates({e('player', d)})",
                    ]
                elif inner == "int":
                    int_attrs = [a for a, at in v.card_attributes.items() if at == "int"]
                    if int_attrs:
                        out.append(lambda: f"[c.{rng.choice(int_attrs)} for c in {e('zone', d)}]")
        return out

    def board(self, b: str, per, d: int) -> str:
        return b if per is None else f"{b}({self.expr(per, d)})"

    def comprehension(self, t: str, d: int) -> str:
        name = self.fresh()
        self.locals[name] = "card"
        cond = f" if {self.expr('bool', d)}" if self.rng.random() < 0.6 else ""
        text = f"[{name} for {name} in {self.expr('zone', d)}{cond}]"
        self.locals.pop(name, None)
        return text


# ================================================================= YAML text helpers
def dsl_spans(lines: list[str]) -> list[tuple[int, int, int]]:
    """(line index, start col, end col) of the effect-language text in a YAML file's lines."""
    spans = []
    head = re.compile(r"^(\s*)(?:-\s+)?(" + "|".join(DSL_KEYS) + r"):(\s*)(.*)$")
    i = 0
    while i < len(lines):
        m = head.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1))
        rest = m.group(4)
        if re.match(r"^[|>][-+0-9]*\s*(#.*)?$", rest):
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip(" ")) > indent):
                if lines[j].strip():
                    start = len(lines[j]) - len(lines[j].lstrip(" "))
                    spans.append((j, start, len(lines[j])))
                j += 1
            i = j
            continue
        if rest.strip():
            spans.append((i, m.end(3), len(lines[i])))
        i += 1
    return spans


KEY_LINE = re.compile(r"^(\s*)(-\s+)?([A-Za-z_][\w-]*):(\s|$)")
SCALAR_LINE = re.compile(r"^(\s*(?:-\s+)?[A-Za-z_][\w-]*:\s+)([^|>\s{\[#][^#]*?)(\s*(?:#.*)?)$")
ID_RE = re.compile(r"(\b(?:id|kind|extends):\s*)([\w./-]+)")


class LiteralDumper(yaml.SafeDumper):
    """safe_dump, with multi-line strings (effect text) as ``|`` blocks when YAML allows it."""


class FastLiteralDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """The same with libyaml's emitter (which refuses lone surrogates)."""


def _str_presenter(dumper, value):
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


LiteralDumper.add_representer(str, _str_presenter)
FastLiteralDumper.add_representer(str, _str_presenter)


def dump(data: Any) -> str:
    options = dict(sort_keys=False, allow_unicode=True, width=10**6, default_flow_style=False)
    try:
        return yaml.dump(data, Dumper=FastLiteralDumper, **options)
    except UnicodeEncodeError:
        return yaml.dump(data, Dumper=LiteralDumper, **options)


def walk(data: Any, path: tuple = ()):
    """Every (path, value) in plain data, the root first."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from walk(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from walk(v, path + (i,))


def get_at(data: Any, path: tuple) -> Any:
    for k in path:
        data = data[k]
    return data


def set_at(data: Any, path: tuple, value: Any) -> None:
    get_at(data, path[:-1])[path[-1]] = value


def visible(text: str) -> str:
    """Text with control, format and surrogate characters shown as escapes (diffs stay readable)."""
    import unicodedata

    out = []
    for ch in text:
        if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn"):
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def short(value: Any, limit: int = 70) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ===================================================================== mutations
@dataclass
class Mutant:
    seed: int
    index: int
    game: str
    file: str  # relative to the workspace root: rules/<game>/… or boards/<game>/…
    op: str
    level: str  # text | data
    description: str
    content: bytes
    snippet: str  # a small diff or the generated text: what changed
    target: tuple  # ("base",) | ("variant-name", name) | ("variant-path", file)
    play_seed: int
    validate: bool


class MutationContext:
    def __init__(self, rng: random.Random, text: str, kind: str, info: GameInfo, parsed: Callable):
        self.rng, self.text, self.kind, self.info = rng, text, kind, info
        self.lines = text.split("\n")
        self._parsed = parsed  # () → (data, its dump), computed once per file

    @property
    def data(self):
        """A fresh copy of the file's data (``yaml.safe_load``), to mutate."""
        return copy.deepcopy(self._parsed()[0])

    @property
    def pristine_dump(self) -> str:
        return self._parsed()[1]


# ---- text level
def m_truncate(ctx):
    raw = ctx.text.encode("utf-8")
    cut = ctx.rng.randrange(0, len(raw))
    return raw[:cut], f"truncated at byte {cut} of {len(raw)}"


def m_insert_dsl(ctx):
    spans = dsl_spans(ctx.lines)
    if not spans:
        return None
    i, a, b = ctx.rng.choice(spans)
    col = ctx.rng.randint(a, b)
    piece = junk(ctx.rng, dsl=True)
    lines = list(ctx.lines)
    lines[i] = lines[i][:col] + piece + lines[i][col:]
    return "\n".join(lines), f"inserted {piece!r} into effect text at line {i + 1} col {col + 1}"


def m_insert_anywhere(ctx):
    lines = list(ctx.lines)
    i = ctx.rng.randrange(len(lines))
    col = ctx.rng.randint(0, len(lines[i]))
    piece = junk(ctx.rng, dsl=False)
    lines[i] = lines[i][:col] + piece + lines[i][col:]
    return "\n".join(lines), f"inserted {piece!r} at line {i + 1} col {col + 1}"


def m_break_indent(ctx):
    rng = ctx.rng
    spans = dsl_spans(ctx.lines)
    candidates = (
        [i for i, _, _ in spans]
        if spans and rng.random() < 0.6
        else [i for i, line in enumerate(ctx.lines) if line.strip()]
    )
    if not candidates:
        return None
    i = rng.choice(candidates)
    lines = list(ctx.lines)
    line = lines[i]
    body = line.lstrip(" \t")
    lead = line[: len(line) - len(body)]
    how = rng.randrange(5)
    if how == 0:
        new = " " * rng.randint(1, 4) + line
    elif how == 1:
        new = lead[rng.randint(1, 4) :] + body if lead else " " + line
    elif how == 2:
        new = "\t" + line
    elif how == 3:
        new = lead.replace("    ", "\t", 1) + body if "    " in lead else "\t" + body
    else:
        new = body
    lines[i] = new
    return "\n".join(lines), f"indentation of line {i + 1}: {lead!r} → {new[: len(new) - len(body)]!r}"


def m_delete_line(ctx):
    lines = list(ctx.lines)
    i = ctx.rng.randrange(len(lines))
    gone = lines.pop(i)
    return "\n".join(lines), f"deleted line {i + 1}: {short(gone)}"


def m_repeat_line(ctx):
    lines = list(ctx.lines)
    i = ctx.rng.randrange(len(lines))
    times = ctx.rng.choice([1, 1, 1, 2, 5])
    lines[i + 1 : i + 1] = [lines[i]] * times
    return "\n".join(lines), f"repeated line {i + 1} ×{times}: {short(ctx.lines[i])}"


def m_duplicate_key(ctx):
    rng = ctx.rng
    keyed = [i for i, line in enumerate(ctx.lines) if KEY_LINE.match(line)]
    if not keyed:
        return None
    i = rng.choice(keyed)
    m = KEY_LINE.match(ctx.lines[i])
    indent = m.group(1) + (" " * len(m.group(2)) if m.group(2) else "")
    key = m.group(3)
    value = rng.choice(["", " 1", " x", " []", " {}", " null", ctx.lines[i][m.end() - 1 :]])
    dup = f"{indent}{key}:{value}"
    lines = list(ctx.lines)
    # right after the key's line, or after the whole block of the key
    j = i + 1
    if rng.random() < 0.5:
        base = len(indent)
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip(" ")) > base):
            j += 1
    lines.insert(j, dup)
    return "\n".join(lines), f"duplicated key '{key}' (line {i + 1}) as line {j + 1}: {short(dup)}"


def m_rename_id_text(ctx):
    hits = [(i, m) for i, line in enumerate(ctx.lines) for m in ID_RE.finditer(line)]
    if not hits:
        return None
    i, m = ctx.rng.choice(hits)
    old = m.group(2)
    new = near_miss(ctx.rng, old) if ctx.rng.random() < 0.7 else random_name(ctx.rng)
    lines = list(ctx.lines)
    lines[i] = lines[i][: m.start(2)] + new + lines[i][m.end(2) :]
    return "\n".join(lines), f"renamed {m.group(1).strip()} '{old}' → '{new}' at line {i + 1}"


def m_misspell_dsl(ctx):
    rng = ctx.rng
    spans = dsl_spans(ctx.lines)
    hits = []
    for i, a, b in spans:
        for m in re.finditer(r"[A-Za-z_]\w*", ctx.lines[i][a:b]):
            hits.append((i, a + m.start(), a + m.end(), m.group()))
    if not hits:
        return None
    i, s, e, old = rng.choice(hits)
    k = rng.random()
    if k < 0.45:
        new = near_miss(rng, old)
    elif k < 0.7:
        new = rng.choice(ctx.info.names or [old])
    elif k < 0.85:
        new = rng.choice(KEYWORDS)
    else:
        new = random_name(rng)
    lines = list(ctx.lines)
    lines[i] = lines[i][:s] + new + lines[i][e:]
    return "\n".join(lines), f"effect name '{old}' → '{new}' at line {i + 1} col {s + 1}"


def m_replace_scalar_text(ctx):
    hits = [(i, m) for i, line in enumerate(ctx.lines) if (m := SCALAR_LINE.match(line))]
    if not hits:
        return None
    i, m = ctx.rng.choice(hits)
    new = ctx.rng.choice(
        [
            "~",
            "null",
            "[]",
            "{}",
            "yes",
            "0x1F",
            "1e3",
            ".nan",
            "-.inf",
            "9" * 5000,
            "-" + "9" * 30,
            '"unterminated',
            "&anchor x",
            "*alias",
            "!!str 3",
            "!!int x",
            "!!python/name:os.system",
            "2024-01-01",
            "2024-01-01 10:00:00",
            "'it''s'",
            "x" * 5000,
            "[[[[[[[[",
            "{a: [b, {c: d}]}",
            "|",
            ">-",
            "1:2",
            "- x",
            "? x",
            '"\\x00"',
            '"\\ud800"',
            '"\\U0001F408"',
            "0o777",
            "+.5",
            "1_0",
            "true",
            "False",
        ]
    )
    lines = list(ctx.lines)
    lines[i] = m.group(1) + new + m.group(3)
    return "\n".join(lines), f"line {i + 1}: value {short(m.group(2))} → {short(new)}"


# ---- data level
def _nodes(data, *, skip_root=True):
    return [(p, v) for p, v in walk(data) if p or not skip_root]


def m_delete_key(ctx):
    data = ctx.data
    nodes = [(p, v) for p, v in _nodes(data)]
    if not nodes:
        return None
    path, value = ctx.rng.choice(nodes)
    parent = get_at(data, path[:-1])
    del parent[path[-1]]
    return data, f"deleted {'key' if isinstance(parent, dict) else 'item'} {list(path)} (was {short(value)})"


def other_type(rng: random.Random, value: Any) -> Any:
    kinds = ["str", "int", "list", "dict", "null", "bool", "float"]
    current = {
        str: "str",
        int: "int",
        list: "list",
        dict: "dict",
        type(None): "null",
        bool: "bool",
        float: "float",
    }.get(type(value), "str")
    kind = rng.choice([k for k in kinds if k != current])
    if kind == "str":
        return rng.choice([str(value), "", "x", near_miss(rng, str(value)), "9" * 5000, "é🐈\u202e", "\x00"])
    if kind == "int":
        return random_int(rng) if not isinstance(value, str) or not value.strip("-").isdigit() else int(value)
    if kind == "list":
        return rng.choice([[], [value], [value, value], [[value]]])
    if kind == "dict":
        return rng.choice([{}, {"x": value}, {str(value)[:20] or "k": value}, {"id": value}])
    if kind == "null":
        return None
    if kind == "bool":
        return rng.choice([True, False])
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.6:
        return float(value)  # 2 → 2.0: what a designer might write
    return rng.choice([0.5, -1.0, 1e300, float("inf"), float("nan"), 3.0])


def m_change_type(ctx):
    data = ctx.data
    nodes = _nodes(data)
    if not nodes:
        return None
    path, value = ctx.rng.choice(nodes)
    new = other_type(ctx.rng, value)
    set_at(data, path, new)
    return data, f"{list(path)}: {short(value)} → {short(new)}"


def m_swap_values(ctx):
    data = ctx.data
    nodes = _nodes(data)
    if len(nodes) < 2:
        return None
    (pa, va), (pb, vb) = ctx.rng.sample(nodes, 2)
    if pa[: len(pb)] == pb or pb[: len(pa)] == pa:  # one inside the other
        return None
    set_at(data, pa, copy.deepcopy(vb))
    set_at(data, pb, copy.deepcopy(va))
    return data, f"swapped {list(pa)} ({short(va, 40)}) and {list(pb)} ({short(vb, 40)})"


def m_rename_key(ctx):
    data = ctx.data
    maps = [(p, v) for p, v in walk(data) if isinstance(v, dict) and v]
    if not maps:
        return None
    path, mapping = ctx.rng.choice(maps)
    old = ctx.rng.choice(list(mapping))
    rng = ctx.rng
    new = rng.choice(
        [
            near_miss(rng, str(old)),
            random_name(rng),
            str(random_int(rng)),
            "",
            " ",
            "é🐈",
            str(old).upper(),
            "9" * rng.choice([3, 20, 400]),
        ]
    )
    if new in mapping:
        return None
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)
    return data, f"{list(path)}: key '{old}' → '{new}'"


def m_rename_id_data(ctx):
    data = ctx.data
    items = [(p, v) for p, v in walk(data) if isinstance(v, dict) and isinstance(v.get("id"), str)]
    if not items:
        return None
    path, item = ctx.rng.choice(items)
    old = item["id"]
    new = near_miss(ctx.rng, old) if ctx.rng.random() < 0.7 else random_name(ctx.rng)
    item["id"] = new
    return data, f"{list(path + ('id',))}: id '{old}' → '{new}'"


def m_duplicate_item(ctx):
    data = ctx.data
    lists = [(p, v) for p, v in walk(data) if isinstance(v, list) and v]
    if not lists:
        return None
    path, items = ctx.rng.choice(lists)
    i = ctx.rng.randrange(len(items))
    items.insert(i + 1, copy.deepcopy(items[i]))
    return data, f"duplicated item {list(path + (i,))}: {short(items[i])}"


def _dsl_paths(data):
    """Paths of effect-language text: programs, card effects, start zones, functions, scoring."""

    def is_dsl(p):
        if not p or p[-1] not in DSL_KEYS:
            return False
        if p[-1] == "points":
            return p[0] == "scoring"
        if p[-1] == "value":
            return p[0] in ("functions", "tiebreakers", "bots")
        if p[-1] == "start":
            return p[0] == "components"
        return True

    return [(p, v) for p, v in walk(data) if is_dsl(p) and isinstance(v, str)]


def m_dsl_junk_data(ctx):
    data = ctx.data
    paths = _dsl_paths(data)
    if not paths:
        return None
    path, text = ctx.rng.choice(paths)
    at = ctx.rng.randint(0, len(text))
    piece = junk(ctx.rng, dsl=True)
    set_at(data, path, text[:at] + piece + text[at:])
    return data, f"{list(path)}: inserted {piece!r} at offset {at}"


def m_generated_dsl(ctx):
    data = ctx.data
    paths = _dsl_paths(data)
    rng = ctx.rng
    if not paths:
        return None
    does = [pv for pv in paths if pv[0][-1] in ("does", "setup", "play", "effect")]
    path, _ = rng.choice(does) if does and rng.random() < 0.9 else rng.choice(paths)
    params: dict[str, str] = {}
    if path[-1] == "does":
        proc = get_at(data, path[:-1])
        raw = proc.get("params") if isinstance(proc, dict) else None
        params = {k: v for k, v in raw.items() if isinstance(v, str)} if isinstance(raw, dict) else {}
    elif path[-1] == "effect":
        params = {"this": "card"}
    gen = ProgramGen(rng, ctx.info.vocab, params, ctx.info.card_ids)
    text = gen.soup() if rng.random() < 0.35 else gen.program()
    if path[-1] in ("points", "value", "start"):
        text = gen.expr(rng.choice(["int", "bool", "zone", "player"])) if rng.random() < 0.7 else text
    set_at(data, path, text)
    return data, f"{list(path)}: replaced by generated effect text", text


def m_variant_section(ctx):
    """A variant gains a section built from its base (``remove:``, ``components:``, or a base list
    re-declared), in a random shape: valid, or with one value of another type somewhere inside."""
    if ctx.kind != "variant":
        return None
    rng, data = ctx.rng, ctx.data
    base = ctx.info.base_data
    sections = [k for k, v in base.items() if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)]
    ids = {k: [i.get("id") or i.get("kind") for i in base[k]] for k in sections}
    kind = rng.choice(["remove", "remove", "components", "override"])
    if kind == "remove":
        pick = rng.choice([k for k in sections if k != "components"] + ["items"])
        pool = (
            [it["id"] for comp in base.get("components", []) for it in comp.get("items", [])]
            if pick == "items"
            else ids[pick]
        )
        key, value = "remove", {pick: rng.sample(pool, min(len(pool), rng.choice([1, 1, 2])))}
    elif kind == "components" and base.get("components"):
        comp = copy.deepcopy(rng.choice(base["components"]))
        items = comp.get("items") or []
        comp["items"] = [copy.deepcopy(rng.choice(items))] if items else []
        if comp["items"] and rng.random() < 0.5:
            comp["items"][0]["id"] = random_name(rng)
        key, value = "components", [{k: v for k, v in comp.items() if k in ("kind", "items", "attributes", "start")}]
    else:
        pick = rng.choice(sections)
        item = copy.deepcopy(rng.choice(base[pick]))
        if rng.random() < 0.3 and "id" in item:
            item["id"] = random_name(rng)
        key, value = pick, [item]
    desc = f"added '{key}: {short(value, 60)}'"
    if rng.random() < 0.6:
        nodes = list(walk(value))
        path, old = rng.choice(nodes)
        new = other_type(rng, old)
        if path:
            set_at(value, path, new)
        else:
            value = new
        desc += f", with {list(path)} {short(old, 30)} → {short(new, 30)}"
    data[key] = value
    return data, desc


TEXT_OPS: dict[str, tuple[Callable, int]] = {
    "truncate": (m_truncate, 6),
    "insert-dsl-junk": (m_insert_dsl, 10),
    "insert-junk": (m_insert_anywhere, 6),
    "break-indent": (m_break_indent, 8),
    "delete-line": (m_delete_line, 7),
    "repeat-line": (m_repeat_line, 5),
    "duplicate-key": (m_duplicate_key, 5),
    "rename-id": (m_rename_id_text, 6),
    "misspell-effect-name": (m_misspell_dsl, 10),
    "replace-scalar": (m_replace_scalar_text, 5),
}
DATA_OPS: dict[str, tuple[Callable, int]] = {
    "delete-key": (m_delete_key, 8),
    "change-type": (m_change_type, 10),
    "swap-values": (m_swap_values, 6),
    "rename-id": (m_rename_id_data, 5),
    "rename-key": (m_rename_key, 4),
    "variant-section": (m_variant_section, 15),  # variant files only
    "duplicate-item": (m_duplicate_item, 3),
    "dsl-junk": (m_dsl_junk_data, 4),
    "generated-effect": (m_generated_dsl, 14),
}


# ================================================================= the workspace
@dataclass
class GameInfo:
    game: str
    files: list[str]  # relative paths, game.yaml first
    variants: list[str]
    vocab: Any
    names: list[str]
    card_ids: list[str]
    base_data: dict = field(default_factory=dict)  # game.yaml with its includes' components, as plain data


class Workspace:
    """Pristine copies of the games in a temporary folder; one file is swapped per mutant."""

    def __init__(self, games: list[str], root: Path | None = None):
        self.root = Path(tempfile.mkdtemp(prefix="tabletop-fuzz-", dir=root))
        self.games: dict[str, GameInfo] = {}
        self.pristine: dict[str, bytes] = {}
        self._parsed: dict[str, tuple[Any, str]] = {}
        for g in games:
            shutil.copytree(REPO / "rules" / g, self.root / "rules" / g)
            if (REPO / "boards" / g).is_dir():
                shutil.copytree(REPO / "boards" / g, self.root / "boards" / g)
            files = [
                "rules/" + str(p.relative_to(self.root / "rules"))
                for p in sorted((self.root / "rules" / g).rglob("*.yaml"))
            ]
            files.sort(key=lambda f: (not f.endswith("/game.yaml"), f))
            files += [
                "boards/" + str(p.relative_to(self.root / "boards"))
                for p in sorted((self.root / "boards" / g).rglob("*.yaml"))
            ]
            for f in files:
                self.pristine[f] = (self.root / f).read_bytes()
            variants = sorted(p.stem for p in (self.root / "rules" / g / "variants").glob("*.yaml"))
            with self.cwd():
                game = engine.load_game(self.root / "rules" / g / "game.yaml")
            vocab = game.vocabulary
            names = sorted(
                set(
                    list(OPS)
                    + list(vocab.enums)
                    + list(vocab.zones)
                    + list(vocab.boards)
                    + list(vocab.variables)
                    + list(vocab.constants)
                    + list(vocab.procedures)
                    + list(vocab.functions)
                    + list(vocab.card_attributes)
                    + list(vocab.player_variables)
                )
            )
            base = dict(self.parsed(files[0])[0])
            base["components"] = [
                c
                for f in files
                if _file_kind(f) == "components"
                for c in (self.parsed(f)[0] or {}).get("components", [])
            ]
            self.games[g] = GameInfo(g, files, variants, vocab, names, sorted(set(game.card_ids)), base)

    def parsed(self, rel: str) -> tuple[Any, str]:
        """(yaml.safe_load of the pristine file, its safe_dump), cached."""
        if rel not in self._parsed:
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            data = yaml.load(self.pristine[rel].decode("utf-8"), Loader=loader)  # = yaml.safe_load, faster
            self._parsed[rel] = (data, dump(data))
        return self._parsed[rel]

    @contextlib.contextmanager
    def cwd(self):
        """Run with the workspace as working folder, so diagnostics show rules/<game>/…"""
        before = os.getcwd()
        os.chdir(self.root)
        try:
            yield
        finally:
            os.chdir(before)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    @contextlib.contextmanager
    def applied(self, mutant: Mutant):
        path = self.root / mutant.file
        path.write_bytes(mutant.content)
        try:
            yield
        finally:
            path.write_bytes(self.pristine[mutant.file])


def _file_kind(rel: str) -> str:
    if rel.startswith("boards/"):
        return "board"
    if "/variants/" in rel:
        return "variant"
    if rel.endswith("/game.yaml"):
        return "game"
    return "components"


def make_mutant(ws: Workspace, games: list[str], seed: int, index: int) -> Mutant:
    """Mutant ``index`` of run ``seed``: fully determined by (seed, index, games)."""
    rng = random.Random(f"tabletop-fuzz/{seed}/{index}")
    game = games[index % len(games)]
    info = ws.games[game]
    kinds: dict[str, list[str]] = {}
    for f in info.files:
        kinds.setdefault(_file_kind(f), []).append(f)
    weights = {"game": 45, "components": 20, "variant": 15, "board": 20}
    kind = rng.choices([k for k in weights if k in kinds], [weights[k] for k in weights if k in kinds])[0]
    rel = rng.choice(kinds[kind])
    text = ws.pristine[rel].decode("utf-8")
    ctx = MutationContext(rng, text, kind, info, lambda: ws.parsed(rel))
    for _attempt in range(20):
        level = "text" if rng.random() < 0.5 else "data"
        table = TEXT_OPS if level == "text" else DATA_OPS
        name = rng.choices(list(table), [w for _, w in table.values()])[0]
        result = table[name][0](ctx)
        if result is None:
            continue
        if level == "text":
            new, desc = result
            content = new if isinstance(new, bytes) else new.encode("utf-8", "surrogatepass")
            shown = content.decode("utf-8", "replace")
            snippet = "".join(
                difflib.unified_diff(text.splitlines(True), shown.splitlines(True), rel, rel + " (mutant)", n=2)
            )
        else:
            data, desc, *extra = result
            new_text = dump(data)
            if new_text == ctx.pristine_dump:
                continue
            content = new_text.encode("utf-8", "surrogatepass")
            snippet = "".join(
                difflib.unified_diff(
                    ctx.pristine_dump.splitlines(True),
                    new_text.splitlines(True),
                    rel + " (safe_load/dump)",
                    rel + " (mutant)",
                    n=2,
                )
            )
            if extra:
                snippet = "generated effect text:\n" + extra[0] + "\n" + snippet
        snippet = visible(snippet)
        if len(snippet) > 4000:
            snippet = snippet[:4000] + "\n… (diff cut)\n"
        break
    else:  # nothing applicable: truncate, which always is
        name, level = "truncate", "text"
        content, desc = m_truncate(ctx)
        snippet = desc
    # what to load
    if kind == "variant":
        vname = Path(rel).stem
        target = ("variant-path", rel) if rng.random() < 0.5 else ("variant-name", vname)
    elif info.variants and rng.random() < 0.3:
        target = ("variant-name", rng.choice(info.variants))
    else:
        target = ("base",)
    return Mutant(
        seed, index, game, rel, name, level, desc, content, snippet, target, rng.randrange(2**31), rng.random() < 0.15
    )


# ================================================================= running one
@dataclass
class Outcome:
    index: int
    kind: str  # clean | diagnostics | crash | hang
    codes: list[str] = field(default_factory=list)
    play: str = ""  # how play ended, for clean loads
    phase: str = ""  # load | validate | play (for crash/hang)
    error: str = ""
    traceback: str = ""
    signature: str = ""
    anomalies: list[str] = field(default_factory=list)
    seconds: float = 0.0


@contextlib.contextmanager
def cpu_guard(seconds: float, what: str):
    """Hang if the block uses more than ``seconds`` of CPU (SIGPROF in the main thread; else measured after).

    CPU time, not wall time: a machine busy with other work must not turn a slow load into a "hang".
    """
    start = time.process_time()
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():

        def ring(signum, frame):
            raise Hang(f"{what} still running after {seconds:g} s of CPU")

        previous = signal.signal(signal.SIGPROF, ring)
        signal.setitimer(signal.ITIMER_PROF, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
    else:
        yield
        if time.process_time() - start > seconds:
            raise Hang(f"{what} took {time.process_time() - start:.1f} s of CPU (more than {seconds:g} s)")


def diagnostic_faults(d: Any, ws_root: Path | None = None, sizes: dict | None = None) -> tuple[list[str], list[str]]:
    """(broken promises, soft anomalies) of one diagnostic.

    Soft: a one-line form that spans lines, or a line past the end of the file it names.
    """
    hard, soft = [], []
    if not isinstance(d, Diagnostic):
        return [f"not a Diagnostic: {short(d)}"], soft
    if not isinstance(d.path, str) or not d.path:
        hard.append(f"bad path {d.path!r}")
    for name in ("line", "col"):
        v = getattr(d, name)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            hard.append(f"bad {name} {v!r}")
    if not isinstance(d.code, str) or not CODE_RE.match(d.code):
        hard.append(f"bad code {d.code!r}")
    if not isinstance(d.message, str) or not d.message.strip():
        hard.append(f"empty message {d.message!r}")
    try:
        one = d.format(with_context=False)
        d.format()
        json.dumps(d.to_json())
    except Exception as exc:
        hard.append(f"format() fails: {type(exc).__name__}: {exc}")
    else:
        if "\n" in one:
            soft.append(f"multi-line diagnostic {d.code}")
    if ws_root is not None and not hard:
        sizes = {} if sizes is None else sizes
        if d.path not in sizes:
            p = Path(d.path) if Path(d.path).is_absolute() else ws_root / d.path
            try:
                sizes[d.path] = len(p.read_bytes().decode("utf-8", "replace").splitlines()) if p.is_file() else None
            except OSError:
                sizes[d.path] = None
        n = sizes[d.path]
        if n is not None and d.line > n + 1:
            soft.append(f"{d.code} at line {d.line} of a {n}-line file")
    return hard, soft


def _signature(exc: BaseException, phase: str) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    here = [f for f in frames if "/engine/" in f.filename]
    where = (
        f"{Path(here[-1].filename).name}:{here[-1].lineno} {here[-1].name}"
        if here
        else (f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?")
    )
    return f"{phase}: {type(exc).__name__} at {where}"


def load_target(ws: Workspace, m: Mutant):
    info = ws.games[m.game]
    game_file = ws.root / info.files[0]
    if m.target[0] == "variant-path":
        return engine.load_game(ws.root / m.target[1])
    if m.target[0] == "variant-name":
        return engine.load_game(game_file, m.target[1])
    return engine.load_game(game_file)


def play(game, m: Mutant) -> tuple[str, list[str]]:
    """Play a loaded game randomly; returns (how it ended, anomalies).  Raises what the engine raises."""
    anomalies: list[str] = []
    rnd = random.Random(m.play_seed)
    try:
        state = game.new_game(game.min_players, seed=m.play_seed)
    except TabletopError as exc:
        if not isinstance(exc, RuntimeRuleError):
            anomalies.append(f"new_game(min_players={game.min_players!r}) refused: {type(exc).__name__}")
        raise
    steps = 0
    while not state.is_terminal and steps < MAX_ACTIONS:
        actions = state.legal_actions()
        if not actions:
            anomalies.append("a decision with no legal actions")
            return "stuck", anomalies
        state.apply(rnd.choice(actions))
        steps += 1
    for seat in range(state.n):
        json.dumps(state.view(seat))
    if state.is_terminal:
        state.scores, state.winners  # noqa: B018 - evaluated for their exceptions
    text = state.to_json()
    try:
        back = game.state_from_json(text)
        if back.to_data() != json.loads(text):
            anomalies.append("saved state reads back different")
    except engine.StateError as exc:
        anomalies.append(f"own saved state refused: {str(exc)[:120]}")
    return ("ended" if state.is_terminal else f"cut at {MAX_ACTIONS}"), anomalies


def run_mutant(ws: Workspace, m: Mutant, timeout: float = DEFAULT_TIMEOUT) -> Outcome:
    out = Outcome(m.index, "clean")
    sizes: dict = {}
    start = time.monotonic()
    phase = "load"
    with ws.applied(m), ws.cwd():
        try:
            game = None
            try:
                with cpu_guard(timeout, "load_game"):
                    game = load_target(ws, m)
            except RulesError as exc:
                out.kind = "diagnostics"
                diags = exc.diagnostics
                if not diags:
                    raise _Broken("RulesError with no diagnostics") from None
                out.codes = sorted({getattr(d, "code", "?") for d in diags})
                for d in diags:
                    hard, soft = diagnostic_faults(d, ws.root, sizes)
                    if hard:
                        raise _Broken(f"malformed diagnostic {short(d, 200)}: {'; '.join(hard)}") from None
                    out.anomalies += soft
            if m.validate:
                phase = "validate"
                with cpu_guard(timeout, "validate_paths"):
                    diags = engine.validate_paths([ws.root / m.file])
                for d in diags:
                    hard, soft = diagnostic_faults(d, ws.root, sizes)
                    if hard:
                        raise _Broken(f"validate_paths: malformed diagnostic {short(d, 200)}: {'; '.join(hard)}")
                out.codes = sorted(set(out.codes) | {d.code for d in diags})
            if game is not None:
                phase = "tools"
                with cpu_guard(timeout, "designer tools"):
                    designer_tools(game, m, ws.root, sizes)
                phase = "play"
                try:
                    with cpu_guard(timeout, "play"):
                        out.play, extra = play(game, m)
                        out.anomalies += extra
                except RuntimeRuleError as exc:
                    hard, soft = diagnostic_faults(exc.diagnostic, ws.root, sizes)
                    if hard:
                        raise _Broken(f"RuntimeRuleError with a malformed diagnostic: {'; '.join(hard)}") from None
                    out.play = f"{type(exc).__name__} {exc.diagnostic.code}"
                    out.anomalies += soft
                except TabletopError as exc:
                    out.play = type(exc).__name__
        except Hang as exc:
            out.kind, out.phase, out.error = "hang", phase, str(exc)
            out.signature = f"{phase}: hang"
            out.traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-12))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:
            out.kind, out.phase = "crash", phase
            out.error = f"{type(exc).__name__}: {str(exc)[:500]}"
            out.signature = _signature(exc, phase) if not isinstance(exc, _Broken) else f"{phase}: {exc}"[:160]
            out.traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            if phase == "load" and isinstance(exc, TabletopError) and not isinstance(exc, _Broken):
                out.error = f"load_game raised {type(exc).__name__}, not RulesError: {exc}"
    out.seconds = time.monotonic() - start
    return out


def designer_tools(game, m: Mutant, root: Path, sizes: dict) -> None:
    """lint, doc, explain and diff on a game that loaded: each must work, lint's warnings well formed."""
    for d in lint_game(game):
        hard, _ = diagnostic_faults(d, root, sizes)
        if hard or d.is_error or d.code not in CODES:
            raise _Broken(f"lint: malformed warning {short(d, 200)}: {'; '.join(hard)}")
    game_reference(game)
    for topic in topics(game):
        explain(topic, game)
    compare(_shipped(m.game), game)


_SHIPPED: dict[str, Any] = {}


def _shipped(name: str):
    """The game as this checkout ships it (names resolve to the checkout, not the workspace)."""
    if name not in _SHIPPED:
        _SHIPPED[name] = engine.load_game(name)
    return _SHIPPED[name]


class _Broken(Exception):
    """A broken promise that is not itself an exception escaping (a malformed diagnostic)."""


# ================================================================= board cache
_BOARD_ORIGINALS = dict(_boards.BOARD_KINDS)
_board_memo: dict[tuple, tuple] = {}


def enable_board_cache(on: bool = True) -> None:
    """Reuse compiled boards for unchanged board files (same kind, display path and text)."""
    if not on:
        _boards.BOARD_KINDS.update(_BOARD_ORIGINALS)
        return
    for kind, fn in _BOARD_ORIGINALS.items():

        def cached(doc, fn=fn, kind=kind):
            key = (kind, doc.path, "\n".join(doc.lines))
            if key not in _board_memo:
                if len(_board_memo) > 64:
                    _board_memo.clear()
                _board_memo[key] = fn(doc)
            return _board_memo[key]

        _boards.BOARD_KINDS[kind] = cached


# ================================================================= the whole run
_WORKER: dict = {}
_NOW: list = [None, 0.0]  # (seed, index, games) of the mutant running, and since when


def start_watchdog(timeout: float) -> None:
    """Last resort for a hang SIGPROF cannot interrupt (one long call into C): after 3 × timeout,
    print the mutant's replay command and end the process (exit status 3)."""

    def watch():
        while True:
            time.sleep(1.0)
            current, since = _NOW
            if current is not None and time.monotonic() - since > 3 * timeout:
                seed, index, games = current
                sys.stderr.write(
                    f"\nHANG (not interruptible) in mutant {index}: replay with python "
                    f"tools/fuzz_rules.py --seed {seed} --games {','.join(games)} --replay {index}\n"
                )
                sys.stderr.flush()
                os._exit(3)

    threading.Thread(target=watch, name="fuzz-watchdog", daemon=True).start()


def _run_one(ws: Workspace, games: list[str], seed: int, index: int, timeout: float) -> tuple[Outcome, dict]:
    m = make_mutant(ws, games, seed, index)
    _NOW[:] = [(seed, index, games), time.monotonic()]
    try:
        return run_mutant(ws, m, timeout), _mutant_record(m)
    finally:
        _NOW[0] = None


def _worker_init(games, tmp_root, board_cache, watchdog=False, timeout=DEFAULT_TIMEOUT):
    enable_board_cache(board_cache)
    _WORKER["ws"] = Workspace(games, tmp_root)
    _WORKER["games"] = games
    if watchdog:
        start_watchdog(timeout)


def _worker_run(args):
    seed, indexes, timeout = args
    ws, games = _WORKER["ws"], _WORKER["games"]
    return [_run_one(ws, games, seed, i, timeout) for i in indexes]


def _mutant_record(m: Mutant) -> dict:
    return {
        "index": m.index,
        "game": m.game,
        "file": m.file,
        "op": m.op,
        "level": m.level,
        "description": m.description,
        "target": list(m.target),
        "snippet": m.snippet,
    }


def fuzz(
    seed: int,
    count: int,
    games: list[str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    board_cache: bool = True,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
    watchdog: bool = False,
) -> dict:
    """Run mutants start … start+count-1; returns a summary (see ``summarize``)."""
    t0 = time.monotonic()
    indexes = list(range(start, start + count))
    pairs: list[tuple[Outcome, dict]] = []
    tmp_root = Path(tempfile.mkdtemp(prefix="tabletop-fuzz-run-"))
    try:
        if jobs <= 1:
            _worker_init(games, tmp_root, board_cache, watchdog, timeout)
            ws = _WORKER["ws"]
            for i in indexes:
                pairs.append(_run_one(ws, games, seed, i, timeout))
                if progress:
                    progress(len(pairs))
        else:
            import multiprocessing

            chunks = [indexes[k : k + 25] for k in range(0, len(indexes), 25)]
            ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
            with ctx.Pool(jobs, _worker_init, (games, tmp_root, board_cache, watchdog, timeout)) as pool:
                for res in pool.imap_unordered(_worker_run, [(seed, c, timeout) for c in chunks]):
                    pairs += res
                    if progress:
                        progress(len(pairs))
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    pairs.sort(key=lambda p: p[0].index)
    return summarize(seed, games, pairs, time.monotonic() - t0)


def summarize(seed: int, games: list[str], pairs: list[tuple[Outcome, dict]], seconds: float) -> dict:
    outcomes = Counter(o.kind for o, _ in pairs)
    by_game: dict[str, Counter] = {}
    for o, m in pairs:
        by_game.setdefault(m["game"], Counter())[o.kind] += 1
    codes = Counter(c for o, _ in pairs for c in o.codes)
    plays = Counter(o.play for o, _ in pairs if o.kind == "clean")
    ops = Counter(f"{m['level']}:{m['op']}" for _, m in pairs)
    anomalies = Counter(a for o, _ in pairs for a in set(o.anomalies))
    failures = []
    for o, m in pairs:
        if o.kind in ("crash", "hang"):
            failures.append(
                {
                    **m,
                    "outcome": o.kind,
                    "phase": o.phase,
                    "error": o.error,
                    "signature": o.signature,
                    "traceback": o.traceback,
                    "replay": f"python tools/fuzz_rules.py --seed {seed} --games {','.join(games)} --replay {o.index}",
                }
            )
    examples: dict[str, list[int]] = {}  # mutant indexes showing each anomaly and each way play ended
    for o, _ in pairs:
        for key in set(o.anomalies) | ({f"play: {o.play}"} if o.kind == "clean" else set()):
            if len(examples.setdefault(key, [])) < 5:
                examples[key].append(o.index)
    slowest = max(pairs, key=lambda p: p[0].seconds) if pairs else None
    return {
        "seed": seed,
        "games": games,
        "mutants": len(pairs),
        "seconds": round(seconds, 1),
        "outcomes": {k: outcomes.get(k, 0) for k in ("clean", "diagnostics", "crash", "hang")},
        "by_game": {g: dict(c) for g, c in sorted(by_game.items())},
        "codes": dict(sorted(codes.items())),
        "play": dict(plays.most_common()),
        "ops": dict(sorted(ops.items())),
        "anomalies": dict(anomalies.most_common()),
        "examples": examples,
        "signatures": dict(Counter(f["signature"] for f in failures).most_common()),
        "failures": failures,
        "slowest": {"index": slowest[0].index, "seconds": round(slowest[0].seconds, 2)} if slowest else None,
    }


def print_summary(s: dict, out=sys.stdout) -> None:
    w = out.write
    w(f"seed {s['seed']}, games {', '.join(s['games'])}: {s['mutants']} mutants in {s['seconds']} s\n")
    w("outcomes: " + ", ".join(f"{k} {v}" for k, v in s["outcomes"].items()) + "\n")
    for g, c in s["by_game"].items():
        w(f"  {g}: " + ", ".join(f"{k} {v}" for k, v in c.items()) + "\n")
    w(f"diagnostic codes ({len(s['codes'])} distinct): " + ", ".join(f"{c}×{n}" for c, n in s["codes"].items()) + "\n")
    w("play of clean loads: " + ", ".join(f"{k or '-'} {v}" for k, v in s["play"].items()) + "\n")
    if s["anomalies"]:
        w(
            "anomalies (not failures): "
            + "; ".join(f"{k} ×{v} (e.g. mutant {s['examples'][k][0]})" for k, v in s["anomalies"].items())
            + "\n"
        )
    if s["failures"]:
        w(f"\n{len(s['failures'])} crash/hang, {len(s['signatures'])} distinct:\n")
        for sig, n in s["signatures"].items():
            w(f"  {n:4d} × {sig}\n")
        shown = set()
        for f in s["failures"]:
            w(
                f"\n[{f['outcome']}] mutant {f['index']} ({f['game']}, {f['file']}, {f['level']}:{f['op']}) "
                f"{f['description']}\n  {f['error']}\n  replay: {f['replay']}\n"
            )
            if f["signature"] not in shown:
                shown.add(f["signature"])
                w(_indent(f["snippet"]) + "\n" + _indent(f["traceback"]) + "\n")
    else:
        w("no crash, no hang\n")


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip("\n").splitlines())


def replay(seed: int, index: int, games: list[str], timeout: float, dump_to: str | None, board_cache: bool) -> int:
    enable_board_cache(board_cache)
    ws = Workspace(games)
    try:
        m = make_mutant(ws, games, seed, index)
        print(f"mutant {index} of seed {seed}: {m.game}, {m.file}, {m.level}:{m.op}, loads {m.target}")
        print(f"  {m.description}")
        print(_indent(m.snippet))
        if dump_to:
            dest = Path(dump_to)
            with ws.applied(m):
                for part in ("rules", "boards"):
                    src = ws.root / part / m.game
                    if src.is_dir():
                        shutil.copytree(src, dest / part / m.game, dirs_exist_ok=True)
            print(f"  mutated game written to {dest}")
        o = run_mutant(ws, m, timeout)
        print(f"outcome: {o.kind}" + (f" {o.codes}" if o.codes else "") + (f", play: {o.play}" if o.play else ""))
        if o.anomalies:
            print("anomalies: " + "; ".join(o.anomalies))
        if o.kind in ("crash", "hang"):
            print(o.error)
            print(o.traceback)
            return 1
        if o.kind == "diagnostics":
            with ws.applied(m), ws.cwd():
                try:
                    load_target(ws, m)
                except RulesError as exc:
                    for d in exc.diagnostics[:10]:
                        print("  " + d.format(with_context=False))
        return 0
    finally:
        ws.close()


def limit_memory(mb: int) -> Callable[[], None]:
    """Cap this process's address space at ``mb`` MiB, so that a runaway allocation is a
    MemoryError (reported as a crash) rather than the OOM killer.  Returns a function that
    puts the previous limit back (a no-op where there are no such limits)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        new = mb * 2**20 if hard == resource.RLIM_INFINITY else min(mb * 2**20, hard)
        resource.setrlimit(resource.RLIMIT_AS, (new, hard))
    except (ImportError, ValueError, OSError):
        return lambda: None
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mutants", type=int, default=300, help="how many mutants (default 300)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first mutant index (default 0)")
    ap.add_argument("--games", default="", help="comma-separated games (default: every game in rules/)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="CPU seconds before a hang (default 10)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--replay", type=int, help="run just this mutant, showing its change and outcome")
    ap.add_argument("--dump", help="with --replay: write the mutated game (rules/, boards/) to this folder")
    ap.add_argument("--no-board-cache", action="store_true", help="compile unchanged boards again every time")
    ap.add_argument("--memory-mb", type=int, default=4096, help="address-space limit per process (0: none)")
    args = ap.parse_args(argv)
    known = sorted(p.parent.name for p in (REPO / "rules").glob("*/game.yaml"))
    games = [g.strip() for g in args.games.split(",") if g.strip()] or known
    unknown = [g for g in games if g not in known]
    if unknown:
        ap.error(f"unknown game(s): {', '.join(unknown)} (known: {', '.join(known)})")
    if args.memory_mb:
        limit_memory(args.memory_mb)
    if args.replay is not None:
        return replay(args.seed, args.replay, games, args.timeout, args.dump, not args.no_board_cache)

    def progress(n):
        if not args.json and sys.stderr.isatty():
            sys.stderr.write(f"\r{n}/{args.mutants}")
            sys.stderr.flush()

    summary = fuzz(
        args.seed,
        args.mutants,
        games,
        timeout=args.timeout,
        jobs=args.jobs,
        board_cache=not args.no_board_cache,
        start=args.start,
        progress=progress,
        watchdog=True,
    )
    if not args.json and sys.stderr.isatty():
        sys.stderr.write("\n")
    if args.json:
        json.dump(summary, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_summary(summary)
    return 1 if summary["outcomes"]["crash"] or summary["outcomes"]["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
