"""What a diagnostic code, an operation or reserved word of the effect language, or a part of a game is.

``tabletop explain E501``, ``tabletop explain move``, ``tabletop explain while`` and
``tabletop explain CARD --game GAME`` (or a constant, procedure, zone…)
print it from the one place that defines it: the code table, the operation table, the game's
own rule files (with where each part is written).
"""

from __future__ import annotations

from engine.errors import did_you_mean
from engine.lang import ast
from engine.lang.checker import Vocabulary
from engine.lang.ops import KEYED, OPS, Op
from engine.lang.types import describe
from engine.lang.words import IMPLICIT, RESERVED
from engine.runtime.gamedef import GameDef
from engine.tools.codes import CODES

__all__ = ["card_list", "explain", "suggest", "topics"]


def card_list(game: GameDef) -> list[dict]:
    """One object per component entry: id, name, kind, copies, attributes, text, canonical effect."""
    out = []
    for cid, decl in game.card_texts.items():
        attrs = {k: v for k, v in decl.items() if k not in ("id", "name", "kind", "copies", "text", "effect", "source")}
        faces = game.die_faces[game.first_card[cid]] if game.die_faces else None
        if faces is not None:  # a die: what it can show
            attrs = {"faces": list(faces), **attrs}
        program = game.programs.get(f"effect:{cid}")
        out.append(
            {
                "id": cid,
                "name": decl.get("name", cid),
                "kind": decl["kind"],
                "copies": decl.get("copies", 1),
                "attributes": attrs,
                "text": decl.get("text"),
                "effect": ast.format_block(program) if program is not None else None,
            }
        )
    return out


def explain(topic: str, game: GameDef | None = None) -> str | None:
    """Everything ``topic`` names (a code, an operation, parts of ``game``), or None."""
    found = []
    if topic.upper() in CODES:
        title, text = CODES[topic.upper()]
        found.append(f"{topic.upper()}: {title}\n{_indent(text)}")
    if game is not None:
        found += _game_parts(game, topic)
    if topic in OPS:
        found.append(_operation(OPS[topic]))
    if topic in RESERVED:
        kind = "a name the language gives a value" if topic in IMPLICIT else "a keyword: it cannot be a name"
        found.append(f"reserved word '{topic}' ({kind})\n    {RESERVED[topic]}")
    return "\n\n".join(found) or None


def topics(game: GameDef | None = None) -> list[str]:
    """Every name ``explain`` knows (for did-you-mean)."""
    names = list(CODES) + list(OPS) + list(RESERVED)
    if game is not None:
        data = game.rules.data
        names += list(game.card_texts) + list(data.get("variables") or {}) + list(data.get("player_variables") or {})
        names += list(data.get("constants") or {})
        names += [
            item["id"]
            for section in ("procedures", "functions", "zones", "rulings")
            for item in data.get(section) or []
        ]
    return names


def suggest(topic: str, game: GameDef | None = None) -> str | None:
    return did_you_mean(topic, topics(game))


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line else line for line in text.splitlines())


def _signature(name: str, params) -> str:
    return f"{name}(" + ", ".join(f"{p}: {describe(t)}" for p, t in params) + ")"


def _operation(op: Op) -> str:
    returns = f" → {describe(op.returns)}" if op.returns else " (a statement)"
    form = op.name if op.constant else _signature(op.name, op.params)
    text = f"operation {form}{returns}   [{op.group}]\n    {op.says}"
    if op.name in KEYED:
        text += f"\n    {op.name}(LIST, by: KEY), the item as 'it' in KEY: {KEYED[op.name].says}"
    return text


def _glossary(game: GameDef, tree) -> str:
    """The operations, functions and procedures a program uses, each with what it does."""
    nodes = []
    for block in ast.walk_blocks(tree) if isinstance(tree, list) else [[ast.ExprStmt(0, 0, tree)]]:
        for s in block:
            for e in ast.parts_of(s)[0] + ast.parts_of(s)[1]:
                nodes += list(ast.walk_exprs(e))
    texts = {
        item["id"]: item.get("text", "")
        for section in ("procedures", "functions")
        for item in game.rules.data.get(section) or []
    }
    lines, seen = [], set()
    for e in nodes:
        name = e.func if isinstance(e, ast.Call) else e.name if isinstance(e, ast.Name) else None
        if name is None or name in seen or (name not in OPS and name not in texts):
            continue
        seen.add(name)
        lines.append(f"{name}: {OPS[name].says if name in OPS else texts[name] or '(no text)'}")
    return "uses:\n" + _indent("\n".join(lines)) if lines else ""


def _game_parts(game: GameDef, topic: str) -> list[str]:
    rules, data, out = game.rules, game.rules.data, []

    def place(path: tuple) -> str:
        d = rules.diag(path, "", "")
        return f"{d.path}:{d.line}"

    def program(title: str, path: tuple, tree) -> str:
        canonical = ast.format_source(tree)
        glossary = _glossary(game, tree)
        return f"{title}:\n{_indent(canonical.rstrip())}" + (f"\n{_indent(glossary)}" if glossary else "")

    trees = dict(game.sources)
    for i, comp in enumerate(data.get("components") or []):
        for j, item in enumerate(comp.get("items") or []):
            if item.get("id") != topic:
                continue
            path = ("components", i, "items", j)
            attrs = ", ".join(
                f"{k}: {v}" for k, v in item.items() if k not in ("id", "name", "text", "effect", "copies")
            )
            text = [
                f"{comp['kind']} '{topic}' — {item.get('name', topic)}, {item.get('copies', 1)} "
                f"cop{'y' if item.get('copies', 1) == 1 else 'ies'}   ({place(path)})"
            ]
            if attrs:
                text.append(f"    {attrs}")
            if item.get("text"):
                text.append(f"    text: {item['text']}")
            if path + ("effect",) in trees:
                text.append(_indent(program("effect", path, trees[path + ("effect",)])))
            out.append("\n".join(text))
    for section in ("procedures", "functions"):
        for i, item in enumerate(data.get(section) or []):
            if item["id"] != topic:
                continue
            field = "does" if "does" in item else "value"
            vocab = game.vocabulary or Vocabulary()
            params, result = vocab.functions.get(topic) or (vocab.procedures.get(topic, []), None)
            result = result or vocab.procedure_returns.get(topic)
            returns = f" → {describe(result)}" if result is not None else ""
            text = [f"{section[:-1]} {_signature(topic, params)}{returns}   ({place((section, i))})"]
            if item.get("text"):
                text.append(f"    {item['text']}")
            if (section, i, field) in trees:
                text.append(_indent(program(field, (section, i, field), trees[(section, i, field)])))
            for j, step in enumerate(item.get("steps") or []):
                step_path = (section, i, "steps", j, "does")
                if step_path in trees:
                    text.append(_indent(program(f"step {step['id']}", step_path, trees[step_path])))
            out.append("\n".join(text))
    for i, zone in enumerate(data.get("zones") or []):
        if zone["id"] == topic:
            per = f" per {zone['per']}" if zone.get("per") else ""
            out.append(
                f"zone '{topic}'{per}, visibility {zone.get('visibility', 'public')}   ({place(('zones', i))})"
                + (f"\n    {zone['description']}" if zone.get("description") else "")
            )
    for section in ("variables", "player_variables"):
        if topic in (data.get(section) or {}):
            owner = "player variable" if section == "player_variables" else "variable"
            declared = getattr(game.vocabulary or Vocabulary(), section).get(topic)
            out.append(f"{owner} '{topic}': {describe(declared)}   ({place((section, topic))})")
    constants = data.get("constants") or {}
    if topic in constants:
        doc, _ = rules.origin(("constants", topic))
        by = " (set by this variant)" if doc is rules.variant_document else ""
        value = constants[topic]
        shown = "true" if value is True else "false" if value is False else value
        out.append(f"constant '{topic}' = {shown}{by}   ({place(('constants', topic))})")
    for i, ruling in enumerate(data.get("rulings") or []):
        if ruling["id"] == topic:
            out.append(
                f"ruling '{topic}'   ({place(('rulings', i))})\n    Q: {ruling.get('question', '')}\n"
                f"    A: {ruling.get('answer', '')}\n    test: {ruling.get('test', '(none)')}"
            )
    return out
