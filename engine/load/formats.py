"""Versions of the rules and saves: the one table of what changed, read by the loader, ``tabletop upgrade``,
``doc --language`` and the CHANGELOG's test.

A game declares the rules format it is written in (``format: 3`` at the top of its game.yaml).  A newer
format than this engine reads is refused in one line; an older one loads with a warning naming
``tabletop upgrade``, which rewrites what it can of the changes listed here.  A form deprecated in one format
is still accepted, with a warning saying the fix, until the format it is removed in (a release later at the
earliest).  Saves record the engine version and the formats they were written with, so that a save says what
can replay it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import Diagnostic

__all__ = [
    "CURRENT",
    "DEPRECATIONS",
    "ENGINE_VERSION",
    "OLDEST",
    "RULES_FORMATS",
    "SAVE_FORMAT",
    "SAVE_FORMATS",
    "Change",
    "Deprecation",
    "RulesFormat",
    "SaveFormat",
    "declared_format",
    "deprecation",
    "format_problems",
]

ENGINE_VERSION = "0.2.0"  # pyproject.toml's version (a test keeps them equal)


@dataclass(frozen=True)
class Change:
    """One breaking change of the rules: what a file of the format before must change, and who does it."""

    what: str
    upgrade: str | None  # what ``tabletop upgrade`` rewrites; None when only the designer can
    by_hand: str | None  # what is left to the designer; None when the upgrade does it all


@dataclass(frozen=True)
class RulesFormat:
    number: int
    since: str  # the engine version, and the date of the first build, that read it
    summary: str
    changes: tuple[Change, ...] = ()


@dataclass(frozen=True)
class Deprecation:
    """A form still accepted with a warning (``code``) until the format it is removed in."""

    code: str
    construct: str
    deprecated_in: int
    removed_in: int
    fix: str
    renamed: tuple[str, str] | None = None  # an operation's old and new name, which the upgrade rewrites


@dataclass(frozen=True)
class SaveFormat:
    number: int
    engine: str  # the engine version that wrote it first
    note: str  # which builds wrote it
    holds: str
    replay: str  # what can replay it


RULES_FORMATS: tuple[RulesFormat, ...] = (
    RulesFormat(
        1,
        "0.1.0, 2026-11-29",
        "the first format: games, components, variants and boards in YAML, effects in the effect language",
    ),
    RulesFormat(
        2,
        "0.1.0, 2026-12-01",
        "options keep their identity (records), every choice is listed at load (E508), ids never shadow operations",
        (
            Change(
                "the board kind of a rhombus of hexagons is spelled `hexagons` (its old, shorter name is E201)",
                None,
                "write `kind: hexagons` in the board file; `upgrade` names it, with the schema's suggestion",
            ),
            Change(
                "options keep their identity: an option of several parts is a record and its id is printed from its "
                "parts, so a greedy bot's `value:` that took the option's id `action` apart with word() can read "
                "other words and silently value every option alike",
                None,
                "value each kind of decision under `bots: greedy: choices: KIND:` with `choice`, the option itself "
                "(`choice.piece`, `choice.to`); `upgrade` names each greedy value that reads `action`",
            ),
            Change(
                "every choice's options must be listable when the rules load (E508): a choice from a range computed "
                "from a variable that grows from its own value is refused",
                None,
                "list the options (an enum, literals, records of them), or declare the variable's bound "
                "(`purse: {type: int, initial: 10, max: 10}`, format 3), or let the player choose `several`; "
                "`upgrade` names each such choice with the loader's fix",
            ),
            Change(
                "a function, procedure, zone or board named like an operation of the language, or a variable "
                "named like one of its values (`num_players`), is refused (E304): it silently replaced the operation",
                None,
                "rename it and the rules that use it",
            ),
        ),
    ),
    RulesFormat(
        3,
        "0.1.0, 2026-12-04",
        "`break` and `continue`, board lines and groups, dice; rules declare `format:`",
        (
            Change(
                "`break` and `continue` are reserved words, refused as names (E401), and `row`, `column`, "
                "`opposite`, `line`, `group`, `liberties`, `kinds`, `card_of`, `roll`, `face`, `faces` and "
                "`showing` are operations: a function, procedure, zone or board of one of these names is refused "
                "(E304)",
                None,
                "rename it and the rules that use it",
            ),
            Change(
                "a game declares its rules format: `format: 3` at the top of its game.yaml",
                "adds `format: 3` (or raises an older number) above the first key",
                None,
            ),
        ),
    ),
)
CURRENT = RULES_FORMATS[-1].number  # the format this engine writes and reads best
OLDEST = RULES_FORMATS[0].number  # the oldest it still reads; a file without `format:` is read as this one

DEPRECATIONS: tuple[Deprecation, ...] = (
    Deprecation(
        "W308",
        "`count(…)`, the old name of `size(…)`",
        2,
        4,
        "write size(…): it counts the cards of a zone and the items of a list alike",
        ("count", "size"),
    ),
    Deprecation(
        "W310",
        "a game.yaml without `format:`",
        3,
        4,
        f"declare the format it is written in at the top, `format: {CURRENT}` (`tabletop upgrade GAME --write` "
        "adds it and rewrites what changed since)",
    ),
    Deprecation(
        "W312",
        "a greedy `value:` reading `action`, the option's id",
        3,
        4,
        "value each kind of decision under `bots: greedy: choices: KIND:` with `choice`, the option itself: an id "
        "is printed from the option and may change with it",
    ),
)

SAVE_FORMATS: tuple[SaveFormat, ...] = (
    SaveFormat(
        1,
        "0.1.0",
        "the builds of 2026-11-29 to 2026-12-04, which recorded no version",
        "game, variant, the rules' hash, players, seed, actions and a digest of the final state",
        "the build that wrote it; a later one replays it only when the game comes out the same (checked by the "
        "digest), which `tabletop replay` tries",
    ),
    SaveFormat(
        2,
        "0.2.0",
        "0.2.0 and later, each recording its version",
        "format 1's fields and the engine version and rules format it was written with",
        "any tabletop reading save format 2; an engine of another version replays it when the game comes out the "
        "same, and says which version wrote it when it does not",
    ),
)
SAVE_FORMAT = SAVE_FORMATS[-1].number


def deprecation(code: str) -> Deprecation:
    """The row of the table for a warning code."""
    return next(d for d in DEPRECATIONS if d.code == code)


def declared_format(data: Any) -> int | None:
    """The rules format a game's data declares (None when it declares none, or not as a whole number)."""
    value = data.get("format") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def format_problems(doc) -> list[Diagnostic]:
    """What a game file's `format:` says to this engine: a newer format is refused (E111), a missing one or an
    older one is read with a warning naming the fix."""
    number = declared_format(doc.data)
    if isinstance(doc.data, dict) and "format" not in doc.data:
        row = deprecation("W310")
        return [
            doc.diag(
                (),
                "W310",
                f"no `format:`: read as rules format {OLDEST}, the oldest this tabletop reads",
                hint=row.fix,
                severity="warning",
            )
        ]
    if number is None:
        return []  # not a whole number: the schema says so
    if number > CURRENT:
        return [
            doc.diag(
                ("format",),
                "E111",
                f"rules format {number}, this tabletop reads up to {CURRENT}: upgrade tabletop",
            )
        ]
    if number < OLDEST:
        return [doc.diag(("format",), "E111", f"rules format {number}: there is none before {OLDEST}")]
    if number < CURRENT:
        changes = sum(len(f.changes) for f in RULES_FORMATS if number < f.number)
        return [
            doc.diag(
                ("format",),
                "W311",
                f"rules format {number}: this tabletop reads format {CURRENT}, {changes} changes later",
                hint="`tabletop upgrade GAME` lists them and rewrites what it can; CHANGELOG.md says what each means",
                severity="warning",
            )
        ]
    return []
