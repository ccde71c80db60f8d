"""Markdown references generated from the rule files and the operation table (``tabletop doc``).

A game's reference is its rules as a designer or player reads them: components and their
texts, zones and who sees them, the programs in canonical form, scoring, rulings, variants.
The language reference lists every statement and every operation from its one declaration
(``ast.STATEMENTS``, ``ops.OPS``); the metrics reference every figure of a playtest report from its
one declaration (``playtest.METRICS``).
"""

from __future__ import annotations

import html

from engine.boards.graphs import GUIDE as BOARDS_GUIDE
from engine.boards.graphs import KINDS_GUIDE
from engine.errors import RulesError
from engine.lab.playtest import METRICS
from engine.lang import ast
from engine.lang.checker import Vocabulary
from engine.lang.ops import KEYED, OPS
from engine.lang.types import TYPE_FORMS, describe
from engine.lang.words import IMPLICIT, RESERVED
from engine.load.documents import known_variants
from engine.load.formats import CURRENT, DEPRECATIONS, OLDEST, RULES_FORMATS, SAVE_FORMAT, SAVE_FORMATS, Change
from engine.runtime.gamedef import GameDef, load_game
from engine.tools.explain import card_list

__all__ = ["game_reference", "language_reference", "metrics_reference"]

# How each operator of the printer's precedence table (ast._PRECEDENCE) reads; the levels and their
# order come from that table, so the docs cannot drift from how expressions parse and print.
FAST_RULE_COSTS = [
    [
        "use a value computed once",
        "`t = threshold(me)` before the loop, then `if c.power > t:`",
        "`if c.power > threshold(me):` inside the loop",
        "about 2.5×",
    ],
    [
        "build a list",
        "`xs = [c for c in deck if c.power > 2]`",
        "`xs = xs + [c]` in a loop (copies the list each time)",
        "about 6×",
    ],
    ["count the cards of a zone", "`size(deck)`", "`size(cards(deck))` (builds a list to count it)", "1.2–1.4×"],
]

WINNING = [
    ["`scoring:` `points:`", "each seat's points (a team adds its members' up); the outcome ranks the sides by them"],
    [
        "`winner: lowest`",
        "the fewest points win (default `highest`): outcomes, returns, tie-breakers, greedy bots and playtest "
        "margins follow it; scores stay as counted",
    ],
    ["`tiebreakers:` `value:`", "sides level on points are ranked by each in turn; its own `winner:` else the game's"],
    ["`ties: draw`", "sides still level after the tie-breakers draw (default `shared`: they share the win)"],
    [
        "`house: {name: Bank, plays: bank_turn, points: …}`",
        "a seat run by the rules: it plays by the procedure `plays` (called by the rules; it may ask no one "
        "anything), is never among the seats to act, and its cards lie in zones of the visibility the rules give "
        "(a card face down: `hidden`). Each player wins, draws or loses against its `points` alone (a solo player can "
        "lose); returns are +1, 0, −1 a seat, not zero-sum",
    ],
]

BOTS = [
    [
        "`bots: greedy: value:`",
        "a number for seat `p` and `choice`, an option of a decision (`action` is its id): the `greedy` bot takes "
        "the option rated highest, and `mcts` plays its rollouts by these values and tries first the options "
        "they rate best. Without any, `greedy` looks one decision ahead on the scoring",
    ],
    [
        "`bots: greedy: choices: {place: …}`",
        "a value per kind of decision (the word a `choose` names, else its target), `choice` typed as that "
        "decision's options; `value:` rates the others",
    ],
    [
        "`bots: mcts: standing:`",
        "a number for seat `p`, how well it stands (higher is better), for a game whose points come only with its "
        "end: an `mcts` rollout stops after its cap of decisions (10, `mcts:N/R`) and is won by the side standing "
        "best, where without it such a game is played on to its end (up to 200 decisions)",
    ],
]

DICE = [
    [
        "a component kind's `faces: [1, 2, 3, 4, 5, 6]`",
        "its items are dice (`copies: 5` makes five); `faces: symbols` names an enum whose members are the faces. "
        "A die lies in a zone like a card (one of a seat's own, a public one) and moves with `move`",
    ],
    [
        "rolling: `roll(tray(me))`",
        "each die shows a face at random, one chance event a die; those who see the zone see the face: on a public "
        "zone everyone (a roll in the open), in a zone of `visibility: owner` its owner alone (a roll in secret); "
        "moving a die to a public zone or `reveal` shows it. A seat's `determinized` copy rolls again every face "
        "it cannot know",
    ],
    [
        "reading: `face(d)`, `faces(tray(p))`, `showing(dice, 6)`",
        "the face a die shows; the faces of several (`sum(faces(tray(me)))`); the dice showing a face "
        "(`size(showing(dice, 6))` counts the sixes). A face written in a rule must be one of the dice's",
    ],
]

VARIANTS = [
    ["`extends: GAME`", "the variant states only what differs from GAME's rules"],
    ["a list item with a base item's `id`", "replaces that item whole; a new id is added"],
    ["`remove: {zones: [ID, …]}`", "drops items by id (`items:` for cards)"],
    [
        "`patch: [{id: king, value: 7}]`",
        "changes only the fields given of the one thing with that id — a card, component kind, zone, board, "
        "procedure, function, scoring rule, tie-breaker, stat, variable or constant (`{id: rounds, value: 5}`); "
        "`in: zones` says where when ids are shared; `tabletop diff` shows the fields changed",
    ],
    [
        "`patch: [{id: turn, steps: [{id: bonus, after: draw, does: …}]}]`",
        "a procedure written as named `steps:` (each `{id, does}`, run in order with the procedure's parameters, "
        "locals of their own) takes a new step `before` or `after` a named one; a step with a base step's id "
        "replaces its text or, with only `before`/`after`, moves it",
    ],
]

FORMATS_BEFORE = """\
A game.yaml declares the rules format it is written in: `format: {current}` (the current one) at the top. A newer \
format than this tabletop reads is refused in one line (E111: upgrade tabletop); an older one loads with a \
warning (W311), and a file without `format:` is read as format {oldest} (W310). `tabletop upgrade GAME` lists, \
at their places, the rewrites that bring a game (its variants, includes and board files too) to the current \
format and what only the designer can do; `--write` makes them (comments and layout kept, each original kept \
as FILE.bak), `--check` exits 1 while an upgrade is needed (for CI). Saves record the engine version and \
formats they were written with (save format {save}). CHANGELOG.md tells each change with its migration note."""

FAST_RULES_BEFORE = """\
The interpreter runs compiled code, but how a rule is written still decides how much work it does.
Measured with `python tools/measure_rules.py` (each pair computes the same thing 300 times over 300
cards; best of 5 runs; the ratios hold across runs, the milliseconds depend on the machine):
"""

FAST_RULES_AFTER = """\
Also: keep what changes in few variables and lists rather than in many zones (a designer's grid game
whose squares were one zone each ran 2.5× slower than the same rules over lists); filter with `where` or a
comprehension rather than a loop that builds a list; give loops a bound (`repeat N`, `for`) where the
rules have one.
"""


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    def cell(value) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]


def _text(value) -> str:
    """Designer's text (names, descriptions, card texts, rulings) as Markdown shows it: never read as HTML."""
    return html.escape(str(value), quote=False)


def _plain(value) -> str:
    """A value as the rule files write it."""
    return "true" if value is True else "false" if value is False else str(value)


def _code(text: str) -> list[str]:
    return ["```", text.rstrip("\n"), "```"]


def _constants(game: GameDef) -> list[str]:
    """The constants' values as this game (or variant) plays them; a variant's table says which it sets."""
    constants = game.rules.data.get("constants") or {}
    if not constants:
        return []
    variant_doc = game.rules.variant_document
    if variant_doc is None:
        return ["", "## Constants", ""] + _table(
            ["constant", "value"], [[f"`{k}`", _plain(v)] for k, v in constants.items()]
        )
    rows = [
        [
            f"`{k}`",
            _text(_plain(v)),
            "this variant" if game.rules.origin(("constants", k))[0] is variant_doc else "the base",
        ]
        for k, v in constants.items()
    ]
    return ["", "## Constants", ""] + _table(["constant", "value", "set by"], rows)


def game_reference(game: GameDef) -> str:
    """The rules of ``game`` as one Markdown document."""
    data = game.rules.data
    title = _text(game.name) + ("" if game.variant is None else f" (variant `{game.variant}`)")
    out = [f"# {title}", "", f"Game id `{game.id}`; {game.min_players}–{game.max_players} players."]
    variant_doc = game.rules.variant_document
    # A variant's description, never its base's: the base's words may state values the variant changes.
    description = (data if variant_doc is None else variant_doc.data).get("description")
    if variant_doc is not None:
        out += ["", f"A variant of {_text(data.get('name', game.id))} (`{game.id}`)."]
    if description:
        out += ["", _text(str(description).strip())]
    out += _constants(game)
    cards = card_list(game)
    out += ["", f"## Components ({sum(c['copies'] for c in cards)})", ""]
    out += _table(
        ["id", "name", "kind", "copies", "attributes", "text"],
        [
            [
                f"`{c['id']}`",
                _text(c["name"]),
                c["kind"],
                c["copies"],
                _text(", ".join(f"{k}: {_plain(v)}" for k, v in c["attributes"].items())),
                _text(c["text"] or ""),
            ]
            for c in cards
        ],
    )
    effects = [c for c in cards if c["effect"]]
    if effects:
        out += ["", "### Effects"]
        for c in effects:
            out += ["", f"**{_text(c['name'])}** (`{c['id']}`): {_text(c['text'] or '')}", ""] + _code(c["effect"])
    out += ["", "## Zones", ""]
    out += _table(
        ["zone", "one per", "who sees it", "what it is"],
        [
            [f"`{z['id']}`", z.get("per", "—"), z.get("visibility", "public"), _text(z.get("description", ""))]
            for z in data.get("zones") or []
        ],
    )
    vocab = game.vocabulary or Vocabulary()
    variables = [(k, "game", vocab.variables.get(k)) for k in data.get("variables") or {}]
    variables += [(k, "player", vocab.player_variables.get(k)) for k in data.get("player_variables") or {}]
    if variables:
        out += ["", "## Variables", ""]
        out += _table(["variable", "of", "type"], [[f"`{k}`", of, describe(t)] for k, of, t in variables])
    for name in ("setup", "play"):
        if name in game.programs:
            out += ["", f"## {name.capitalize()}", ""] + _code(ast.format_block(game.programs[name]))
    trees = dict(game.sources)
    for section in ("procedures", "functions"):
        items = data.get(section) or []
        if items:
            out += ["", f"## {section.capitalize()}"]
        for i, item in enumerate(items):
            field = "does" if "does" in item else "value"
            params = ", ".join(f"{p}: {t}" for p, t in (item.get("params") or {}).items())
            returns = f" → {item['returns']}" if "returns" in item else ""
            out += ["", f"### `{item['id']}({params}){returns}`"]
            if item.get("text"):
                out += ["", _text(item["text"])]
            tree = trees.get((section, i, field))
            if tree is not None:
                out += [""] + _code(ast.format_source(tree))
            for j, step in enumerate(item.get("steps") or []):
                out += ["", f"Step `{step['id']}`:"]
                if (section, i, "steps", j, "does") in trees:
                    out += [""] + _code(ast.format_source(trees[(section, i, "steps", j, "does")]))
    for section, field, heading in (("scoring", "points", "Scoring"), ("tiebreakers", "value", "Tie-breakers")):
        items = data.get(section) or []
        if items:
            out += ["", f"## {heading}", ""]
            if section == "scoring" and game.winner == "lowest":
                out += ["The fewest points win (`winner: lowest`).", ""]
            out += _table(
                ["id", "rule", "counted as"],
                [
                    [
                        f"`{item['id']}`",
                        _text(item.get("text", "")),
                        f"`{ast.format_source(trees[(section, i, field)])}`",
                    ]
                    for i, item in enumerate(items)
                ],
            )
    house = data.get("house")
    if house is not None:
        out += ["", "## The house", ""]
        out += [
            f"{_text(house['name'])}, a seat run by the rules, plays by `{house['plays']}` and is never asked; each "
            f"player wins, draws or loses against its points, `{ast.format_source(trees[('house', 'points')])}`."
        ]
    rulings = data.get("rulings") or []
    if rulings:
        out += ["", "## Rulings"]
        for r in rulings:
            out += [
                "",
                f"**{_text(r.get('question', r['id']))}** (`{r['id']}`)",
                "",
                _text(r.get("answer", "").strip()),
            ]
            if r.get("test"):
                out += ["", f"Tested by `{r['test']}`."]
    if game.variant is None:
        variants = known_variants(game.rules.folder)
        if variants:
            out += ["", "## Variants", ""]
            for v in variants:
                try:
                    vgame = load_game(game.rules.folder / "variants" / f"{v}.yaml")
                except RulesError as exc:  # the base's reference does not depend on its variants
                    out.append(f"- `{v}` — does not load: {_text(exc)}")
                    continue
                vdoc = vgame.rules.variant_document
                described = vdoc.data.get("description", "") if vdoc is not None else ""
                out.append(f"- `{v}` — {_text(vgame.name)}: {_text(' '.join(str(described).split()))}")
    return "\n".join(out) + "\n"


def language_reference() -> str:
    """Every statement, expression and operation of the effect language, as Markdown."""
    values = [cls.DOCS for cls in ast.EXPRESSIONS if cls.DOCS]
    out = [
        "# The effect language",
        "",
        "Statements end at the end of a line; a line ending in `:` opens a block indented under it.",
        "",
        "## Statements",
        "",
    ]
    out += _table(["statement", "does"], [[f"`{form}`", does] for stmt in ast.STATEMENTS for form, does in stmt.DOCS])
    out += [
        "",
        "## Expressions",
        "",
        f"Values are {', '.join(values[:-1])} and {values[-1]}. `#` starts a comment; a line ending in "
        "`\\` goes on on the next (in a YAML folded block, `>-`, indent every line alike: a more-indented line "
        "keeps its line break; text holding `: ` goes in double quotes). Operators, from the loosest to the "
        "tightest binding (a level binds tighter than the rows above it; parentheses group as usual):",
        "",
    ]
    forms = {word: form for cls in ast.EXPRESSIONS for word, form in cls.OPERATORS.items()}
    levels: dict[int, list[str]] = {}
    for word, level in ast._PRECEDENCE.items():
        levels.setdefault(level, []).append(word)
    out += _table(
        ["level", "operator", "does"],
        [
            [
                str(level),
                ", ".join(f"`{forms[w][0]}`" for w in words),
                "; ".join(forms[w][1] for w in words),
            ]
            for level, words in sorted(levels.items())
        ],
    )
    out += [
        "",
        "Attributes (`a.b`), calls (`f(x)`) and brackets bind tighter than every operator. "
        "Comparisons do not chain: write `a < b and b < c`.",
        "",
        "## Types",
        "",
        "A declared type (a variable's `type:`, a parameter's, a function's or procedure's `returns:`) is "
        "spelled as below; the forms nest. Write one with brackets or braces in quotes in YAML: "
        '`returns: "list[{from: position, to: position}]"`.',
        "",
    ]
    out += _table(["type", "is", "example"], [[f"`{form}`", meaning, f"`{ex}`"] for form, meaning, ex in TYPE_FORMS])
    out += [
        "",
        "A whole-number variable may declare `min:` and `max:` (`purse: {type: int, initial: 10, max: 10}`; `min:` "
        "is 0 unless given): a rule that sets it outside them stops with an error, and a choice made from it "
        '(`choose "bid" from range(1, me.purse + 1)`) lists its options from them. Constants and the cards of a '
        "zone (`size(hand(me))`) bound choices too; where nothing does, E508 names the declaration to add.",
    ]
    out += [
        "",
        "## Reserved words",
        "",
        "Keywords cannot be names of variables, values or parameters; `me`, `it` and `this` are names "
        "the language gives a value where they appear. `tabletop explain WORD` says the same.",
        "",
    ]
    out += _table(
        ["word", "means"],
        [[f"`{w}`" + (" (implicit name)" if w in IMPLICIT else ""), meaning] for w, meaning in RESERVED.items()],
    )
    groups: dict[str, list] = {}
    for op in OPS.values():
        groups.setdefault(op.group, []).append(op)
    out += ["", "## Operations"]
    for group, ops in groups.items():
        out += ["", f"### {group.capitalize()}", ""]
        rows = []
        for op in ops:
            form = op.name if op.constant else f"{op.name}(" + ", ".join(f"{p}: {t}" for p, t in op.params) + ")"
            row = [f"`{form}`", describe(op.returns) if op.returns else "—", op.says]
            if op.name in KEYED:  # the same name with a key: one row, both forms
                k = KEYED[op.name]
                row = [
                    f"{row[0]}; `{op.name}(LIST, by: KEY)`",
                    f"{row[1]}; {'a list' if k.gives_list else 'an item'}",
                    f"{row[2]}; by a key: {k.says}",
                ]
            rows.append(row)
        out += _table(["operation", "gives", "does"], rows)
    out += [
        "",
        "In `OP(LIST, by: KEY)` KEY is computed for each item of LIST, the item being `it` (as in a 'where' "
        "condition); keys are all numbers or all text. Wherever an operation wants a list, a zone gives its "
        "cards, bottom to top: `size`, `max`, `first`, `in` and `for` work alike on zones and lists.",
        "",
        "## Boards",
        "",
        "A board file (`kind:` in `schemas/board.schema.json`) becomes a networkx graph and the tables play reads.",
        "",
    ]
    out += _table(["kind", "spaces", "directions"], [[f"`{k}`", spaces, ways] for k, spaces, ways in KINDS_GUIDE])
    out += ["", BOARDS_GUIDE.rstrip("\n")]
    out += ["", "## Who wins", ""]
    out += _table(["in the game file", "means"], WINNING)
    out += ["", "## Bots", ""]
    out += _table(["in the game file", "means"], BOTS)
    out += ["", "## Dice", ""]
    out += _table(["in the rules", "means"], DICE)
    out += ["", "## Variants", ""]
    out += _table(["in a variant file", "means"], VARIANTS)
    before = FORMATS_BEFORE.format(current=CURRENT, oldest=OLDEST, save=SAVE_FORMAT)
    out += ["", "## Formats and upgrades", "", before, ""]
    out += _table(
        ["rules format", "since", "what changed", "`tabletop upgrade` does", "left to the designer"],
        [
            [str(f.number), f.since, c.what, c.upgrade or "—", c.by_hand or "—"]
            for f in RULES_FORMATS
            for c in f.changes or (Change(f.summary, None, None),)
        ],
    )
    out += ["", "Deprecated forms are still accepted, each with its warning and fix, until the format named:", ""]
    out += _table(
        ["code", "deprecated", "in format", "removed in", "fix"],
        [[d.code, d.construct, str(d.deprecated_in), str(d.removed_in), d.fix] for d in DEPRECATIONS],
    )
    out += [
        "",
        "A save (`play --save`, the web table's) records its save format, the engine version and the rules format:",
        "",
    ]
    out += _table(
        ["save format", "written by", "holds", "replayed by"],
        [[str(s.number), s.note, s.holds, s.replay] for s in SAVE_FORMATS],
    )
    out += ["", "## Writing fast rules", "", FAST_RULES_BEFORE]
    out += _table(["to", "write", "rather than", "faster by"], FAST_RULE_COSTS)
    out += ["", FAST_RULES_AFTER.rstrip("\n")]
    return "\n".join(out) + "\n"


def metrics_reference() -> str:
    """Every figure a playtest report and its JSON show: what it says, its formula, Ludii's name."""
    out = [
        "# Playtest metrics",
        "",
        "What `tabletop playtest` measures over many bot games. Each figure is computed from the games' "
        "records after they are played, so every backend (this process, `--jobs`, Ray) gives the same "
        "figures for the same seeds. A *seat-game* is one seat in one finished game; a game cut off by "
        "the decision limit or stopped by a rule error has no result and counts only in completion. "
        "Ludii's name is given where Ludii's evaluation measures the same idea (its figures come from "
        "its own trials and, for lead changes and drama, from a search's evaluation, not from points).",
        "",
    ]
    out += _table(
        ["metric", "Ludii", "what it says", "formula", "in the JSON (each arm)"],
        [
            [f"`{name}`", m.ludii or "—", m.definition, m.formula, ", ".join(f"`{k}`" for k in m.keys)]
            for name, m in METRICS.items()
        ],
    )
    return "\n".join(out) + "\n"
