"""Diagnostics and the exception family: one root, subclassed by phase.

Validators collect diagnostics; executors raise.  Every diagnostic carries the
place it points at, so the CLI can print ``path:line:col: CODE message``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "BudgetExceeded",
    "Diagnostic",
    "IllegalAction",
    "LoadError",
    "RulesError",
    "RuntimeRuleError",
    "StateError",
    "TabletopError",
    "WriteError",
    "did_you_mean",
    "plain_reason",
    "quoted",
]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a file, at a place a designer can jump to."""

    path: str
    line: int
    col: int
    code: str
    message: str
    severity: str = "error"  # "error" | "warning"
    hint: str | None = None
    context: tuple[str, ...] = field(default=(), compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def format(self, *, with_context: bool = True) -> str:
        """The one-line form, plus source line and caret when known."""
        text = f"{self.path}:{self.line}:{self.col}: {self.code} {_one_line(self.message)}"
        if self.hint:
            text += f" ({_one_line(self.hint)})"
        if with_context and self.context:
            text += "\n" + "\n".join("    " + c for c in self.context)
        return text

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }


def _one_line(text: str) -> str:
    """Keep a message on its line even when it quotes a designer's multi-line value."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class TabletopError(Exception):
    """Root of every error the framework raises on purpose."""


class RulesError(TabletopError):
    """Rule files could not be loaded, validated or compiled."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.is_error] or self.diagnostics
        first = errors[0].format(with_context=False) if errors else "invalid rules"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(first + more)


class LoadError(RulesError):
    """A file is missing, unreadable, or not acceptable YAML."""


class IllegalAction(TabletopError):
    """An action that is not legal now; the state is unchanged."""

    def __init__(self, message: str, legal: Sequence[str] = ()):
        self.legal = list(legal)
        if self.legal:
            listed = ", ".join(quoted(a) for a in self.legal[:20])
            if len(self.legal) > 20:
                listed += f", … ({len(self.legal)} in all)"
            message = f"{message}; legal actions: {listed}"
        super().__init__(message)

    @classmethod
    def not_legal(cls, action, seat: int, legal: Sequence[str]) -> IllegalAction:
        """``action`` is none of ``legal``: quoted by its start, however long the caller made it."""
        return cls(f"{quoted(action)} is not a legal action for seat {seat} now", legal)


class StateError(TabletopError):
    """A saved state that cannot be read back (tampered, truncated, other game)."""


class WriteError(TabletopError):
    """A file could not be written (folder missing, disk full…); the previous file is intact."""


class RuntimeRuleError(TabletopError):
    """A rule did something impossible while running (e.g. nothing to choose from)."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.format(with_context=False))


class BudgetExceeded(RuntimeRuleError):
    """The step budget ran out: an effect or flow probably loops forever."""


def quoted(value, width: int = 60) -> str:
    """A value as a message quotes it (its repr), cut to ``width`` characters with an ellipsis: a message
    about a 100 MB id or a whole file stays one short line. Long strings and lists are cut before repr."""
    text = repr(value[:width] if isinstance(value, (str, list, tuple)) else value)
    return text if len(text) <= width else text[: width - 1] + "…"


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, if one is close enough."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class RuleFault(Exception):
    """Raised by an operation at run time; the interpreter adds the rule's location."""


class EngineBug(Exception):
    """Python failed inside the engine, not in a rule's own code: a bug to report, not the designer's E702."""


_RULE_CODE = {("runtime", "reference.py"), ("lang", "ops.py"), ("boards", "graphs.py")}


def is_rules_fault(exc: BaseException) -> bool:
    """Whether a Python error is the rules' doing: raised by the rule's own code (``none + 1``), by an
    operation or board primitive given a value it cannot take (``item(cards, none)``), or endless recursion
    in the rules' functions.  An error raised anywhere else in the engine is the engine's.

    The reference path's closures live in runtime/reference.py, operations in lang/ops.py, board primitives in
    boards/graphs.py; the innermost frame tells which code failed.
    """
    if isinstance(exc, (RuleFault, RecursionError)):
        return True
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    name = tb.tb_frame.f_code.co_filename
    return Path(name).parts[-2:] in _RULE_CODE


_KIND_WORDS = {
    "NoneType": "none",
    "int": "a number",
    "float": "a number",
    "bool": "true/false",
    "str": "text",
    "list": "a list",
    "tuple": "a list",
    "dict": "a record",
    "set": "a list",
}


def kind_word(value: object) -> str:
    """What kind of value ``value`` is, in the rule language's words (``a number``, ``text``, ``none``)."""
    name = type(value).__name__
    return _KIND_WORDS.get(name, name)


_TYPE_ERRORS = [  # Python's wording of a type error -> the rule language's, in the words designers use
    (re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'"), "'{0}' cannot combine {1} and {2}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to'), "'+' cannot combine {0} and {1}"),
    (re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'"), "'{0}' cannot compare {1} and {2}"),
    (re.compile(r"bad operand type for unary (\S+): '(\w+)'"), "'{0}' cannot be used on {1}"),
    (re.compile(r"'(\w+)' object is not (?:iterable|subscriptable)"), "{0} is not a list"),
    (re.compile(r"argument of type '(\w+)' is not iterable"), "{0} is not a list"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"), "{0} has no length"),
]


def plain_reason(exc: BaseException) -> str:
    """Why a rule failed, in the rule language's words rather than Python's."""
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, RecursionError):
        return "calls nested too deeply: does a function call itself without end?"
    text = str(exc)
    if isinstance(exc, RuleFault):
        return text
    if isinstance(exc, TypeError):
        for pattern, wording in _TYPE_ERRORS:
            found = pattern.match(text)
            if found:
                return wording.format(*(_KIND_WORDS.get(g, g) for g in found.groups()))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
