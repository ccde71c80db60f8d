"""Every diagnostic code, what it means and what usually mends it (for ``tabletop explain``).

The first digit says the phase: 1 reading a file, 2 its shape (JSON Schema), 3 the rules'
meaning, 4 effect-language syntax, 5 effect-language meaning and types, 6 boards, 7 running.
E is an error (the game does not load or stops); W is a warning of ``tabletop lint``.
"""

from __future__ import annotations

from engine.load.formats import DEPRECATIONS

__all__ = ["CODES", "LINT_CODES"]

CODES: dict[str, tuple[str, str]] = {
    "E101": (
        "file or name not found",
        "A game, variant, included file or board file does not exist. Games are named by their folder "
        "in rules/; variants by their file in rules/GAME/variants/. Check the spelling the hint suggests.",
    ),
    "E102": (
        "YAML that cannot be read",
        "A syntax error in the YAML itself (a missing colon, bad indentation, an unclosed quote), a "
        "character YAML forbids, or a value tagged as a number that is none. The column points at it.",
    ),
    "E103": (
        "duplicate key",
        "The same key twice in one mapping: YAML would silently keep the last. The message names the "
        "line of the first; keep one.",
    ),
    "E104": (
        "YAML feature not allowed",
        "Rule files are plain data: no tags (!!python/…), no merge keys (<<), no complex keys. Write the values out.",
    ),
    "E105": (
        "too many aliases or values",
        "Aliases (&a / *a) are bounded so that a file cannot expand without end. Write the values out.",
    ),
    "E106": ("nested too deeply", "Mappings and lists nest at most 64 levels."),
    "E107": ("file too large", "A rule or board file is at most 2 MB and 50,000 values. Split it into several files."),
    "E108": (
        "a path that leads out of the game's folders",
        "Files named in rule files (includes, board files) stay inside the game's folder and its "
        "boards folder: no absolute path, no '..' out, no link pointing elsewhere. Copy the file into "
        "the game's folder and name it relative to it.",
    ),
    "E109": (
        "not a regular file",
        "A device, FIFO or socket where a rule, board or save file is expected; it is not read.",
    ),
    "E110": (
        "lint configuration that cannot be read",
        "pyproject.toml is not valid TOML, or its [tool.tabletop.lint] table has an unknown setting, a "
        "value that is not a list of codes, a code no diagnostic starts with, or an error code in an ignore "
        "list (errors cannot be ignored: the game would not load).",
    ),
    "E111": (
        "rules of a newer format",
        "The game declares a rules format newer than this tabletop reads (`format:` at the top of game.yaml): "
        "upgrade tabletop. `tabletop doc --language` names the formats this one reads.",
    ),
    "E201": (
        "wrong shape",
        "The file does not match its JSON Schema: an unknown key (see the did-you-mean), a missing "
        "required key, a value of the wrong type, or a name holding a control character (a newline, a "
        "tab: the message names it as U+XXXX). The schemas are in schemas/.",
    ),
    "E301": (
        "inconsistent rules",
        "Something the rules need is missing or contradicts itself: a variant extending another game, "
        "removing what the base does not have, a game without a play program, min players above max.",
    ),
    "E302": (
        "unknown type or attribute",
        "A type that is not int, bool, text, player, card, zone, an enum or list[…]; or a card with an "
        "attribute its kind does not declare.",
    ),
    "E303": (
        "value does not fit its type",
        "A constant, attribute or start value that is not of its declared type or not one of its enum.",
    ),
    "E304": (
        "declared twice",
        "Two components, zones, procedures, functions or variables with one id; or a function, procedure, zone "
        "or board named like an operation of the language (sorted, top …), or a variable or constant named like "
        "one that is a value (num_players): the declaration would hide the operation everywhere in the rules.",
    ),
    "E305": (
        "attribute missing",
        "A component item does not give an attribute its kind declares with no default: only int "
        "(0) and bool (false) attributes may be left out. Give the value, e.g. type: action.",
    ),
    "E306": (
        "too many cards",
        "A game has at most 10,000 cards, copies counted. The message names the item whose copies "
        "pass that number: lower its copies, or split the game.",
    ),
    "E401": (
        "effect-language syntax error",
        "The effect text does not parse: the caret shows where, the message what was expected there. "
        "Text goes in double quotes; blocks are indented under a line ending in ':'.",
    ),
    "E402": (
        "bad indentation",
        "A line is indented to a depth no enclosing block has. Indent blocks by the same amount.",
    ),
    "E403": (
        "effect text too large or too deep",
        "An effect is longer than 20,000 characters, nests deeper than 60 levels, or has a number of "
        "more than 18 digits. Split it into procedures or functions.",
    ),
    "E501": (
        "unknown name",
        "A zone, variable, function, procedure or local value that does not exist (see the "
        "did-you-mean), or 'it' outside a 'where' condition.",
    ),
    "E502": (
        "wrong type",
        "A value of one type where another is needed: a card where a zone is wanted, text where a "
        "number is. The message names both. A record kept as a declared type (a variable, a parameter, "
        "the value of a function) may not have a field the type does not declare, nor lack one that cannot "
        "be none (a number, true/false, a list, a map). row and column of a graph board, which has no rows.",
    ),
    "E503": (
        "wrong number of arguments",
        "An operation, function or procedure called with too many or too few arguments, or a "
        "per-player zone written without its owner: hand(me), not hand.",
    ),
    "E504": (
        "no such attribute or variable",
        "Cards have no attribute, or players no variable, of that name; or a field read for every option (in a "
        "'where', a 'by:' key, a bot's value of a choice) that some of the records lack: it is none for them, "
        "and an order or a sum of none fails. Give every record the field, or test which record it is first.",
    ),
    "E505": (
        "not allowed here",
        "A statement in the wrong place (reopen or close outside a window), a local value named like "
        "something of the game, a change to what cannot change (a card attribute, a constant), or "
        "'choose … several A to B' that no choice can meet (A always more than B, or B below 0), read from "
        "numbers, constants and the min: and max: of variables.",
    ),
    "E506": ("a value changes its type", "A variable or local value set to a value of another type than it holds."),
    "E507": ("not one of the enum", "A text compared with or passed as an enum value that the enum does not list."),
    "E508": (
        "a choice whose options cannot be listed in advance",
        "Every decision's ids must belong to the game's fixed action space (game.action_space), which is "
        "read from the rules, not from play. This choose offers numbers that are computed, text that is "
        "built, or lists as options. Choose from an enum, a list of literals, cards, players, zones, "
        "board spaces, or records made of these.",
    ),
    "E602": (
        "outside the board",
        "A cell, point, room or door outside the board's floor, or a door between spaces that do not touch.",
    ),
    "E603": ("defined twice on the board", "Two cells, points or rooms with one name or place."),
    "E701": (
        "a rule asked for the impossible",
        "While running: nothing to choose from, the top of an empty zone, no such player, division by "
        "zero, a card that cannot be placed at the start, a list, text or number grown past the size "
        "budget (100,000 items, characters or digits: the step budget bounds time, this bounds memory). "
        "The place is the statement that failed.",
    ),
    "E702": (
        "a rule failed on a value",
        "While running: a value of the wrong kind, usually none (an empty list's first item, a choice "
        "passed) used in arithmetic or a comparison. Check the value can be none there.",
    ),
    "E703": (
        "step budget exhausted",
        "A program ran more steps than the game's step_budget without asking anyone anything: "
        "probably a loop that never ends. Raise step_budget only if the game really needs it.",
    ),
    "W301": (
        "a procedure no rule calls",
        "Declared but never called, so it never runs. A variant that replaces its callers leaves it "
        "behind: remove it there (remove: {procedures: [id]}).",
    ),
    "W302": ("a function no rule calls", "Declared but never used."),
    "W303": (
        "a variable no rule reads",
        "Set (or not even set) but never read, except to update itself. Players still see it in their "
        "views; remove it if it is only a leftover.",
    ),
    "W304": (
        "a zone no rule uses",
        "No program, start or scoring names the zone. A zone only one variant uses belongs in that variant.",
    ),
    "W305": (
        "a ruling whose test cannot be found",
        "Every ruling names the test that holds it (test: tests/FILE.py::NAME). The file or the test "
        "is missing, or the ruling names none.",
    ),
    "W306": (
        "a variant setting that repeats its base",
        "A variant states only what differs; this value is already the base's. Delete it from the variant.",
    ),
    "W307": (
        "a card with an effect but no text",
        "Players read the text, the engine runs the effect: a card needs both, saying the same.",
    ),
    "W311": (
        "an older rules format",
        "The game declares an older rules format than this tabletop's. It loads, read with today's meaning; "
        "`tabletop upgrade GAME` lists what changed since, rewrites what it can (`--write`) and says what is "
        "left to do by hand. CHANGELOG.md explains each change.",
    ),
    "W309": (
        "a variant item that drops what its base item says",
        "An item of a variant (a card, a procedure, a zone, …) with the id of a base item replaces that item "
        "whole: {id: king, value: 7} leaves the king with no effect, text or copies. The message names what "
        "is dropped. To change only some fields, patch the item (patch: [{id: king, value: 7}]); or restate "
        "what is dropped in the variant's item.",
    ),
    "W401": ("a statement that can never run", "It follows end_game, return or close in the same block."),
    "W402": (
        "a choice found with nothing to choose from",
        "A few seeded games between random bots (ten per player count, at most 500 decisions each) reached "
        "this choose with no option, so the game stopped with E701; the hint gives the `tabletop simulate` "
        "command that plays that game again. Whether options can run out cannot be read from the rules in "
        "general (13 cards dealt for 13 rounds never do), so lint says it only where a game showed it, and "
        "says nothing of a choice no game found empty. Add 'optional', or check first (if size(hand(me)) > 0: …).",
    ),
    "W403": (
        "a loop that asks no one and never stops",
        "A 'while true' whose body has no choose, window, return, end_game or close, and calls no "
        "procedure (or card effect) that has one: it can only end at the step budget (E703). Give the loop "
        "a condition, or a way out.",
    ),
    "W601": (
        "rooms that cannot be reached",
        "No path of neighbouring spaces and doors joins them to the rest of the board.",
    ),
    "W602": ("a door inside one room", "Spaces of one room already join; the door changes nothing."),
    "W901": (
        "a suppression without a reason",
        "# tabletop: ignore[CODE] silences a warning on its line (or the next line, when the comment "
        "stands alone); it must say why, after the codes, so that a reviewer can judge it.",
    ),
}
CODES.update(  # the deprecated forms, from their one table
    {
        d.code: (
            f"deprecated: {d.construct}",
            f"Deprecated in rules format {d.deprecated_in} and still accepted, with this warning, until format "
            f"{d.removed_in}. The fix: {d.fix}.",
        )
        for d in DEPRECATIONS
    }
)

LINT_CODES = {code: title for code, (title, _) in CODES.items() if code.startswith("W")}
