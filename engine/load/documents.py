"""Finding rule files, reading them, and overlaying variants on their base.

The result is a ``RuleSet``: one merged document plus, for every part of it,
the file and place it came from, so that a problem in a variant's card is
reported in the variant file and a problem in an inherited card in the base.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import Diagnostic, LoadError, TabletopError, did_you_mean
from engine.load.formats import format_problems
from engine.load.safe_files import Refused, find_inside, is_name
from engine.load.yaml_source import Document, read_yaml

VARIANT_META = {"extends", "id", "name", "description", "remove", "patch"}
# What a variant's ``patch:`` finds by id: the items of these lists, the entries of these maps, and cards.
PATCH_LISTS = ("components", "zones", "boards", "procedures", "functions", "scoring", "tiebreakers", "stats")
PATCH_MAPS = ("constants", "variables", "player_variables")
IDENTITY_KEYS = ("id", "kind")  # list items merge by these


def data_root() -> Path:
    """Folder holding rules/, boards/ and schemas/ (the checkout, or the installed copy)."""
    package = Path(__file__).resolve().parents[1]
    packaged = package / "_data"
    return packaged if (packaged / "rules").is_dir() else package.parent


def display_path(path: Path) -> str:
    """A short path for messages: relative to the working folder or the data root.

    A link is named as itself, not by where it leads (which may be outside what may be shown).
    """
    absolute = os.path.abspath(path)
    path = Path(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))
    for base in (Path.cwd().resolve(), data_root().resolve()):
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


@dataclass
class RuleSet:
    """Merged rules of a game (and variant), with the origin of each part."""

    data: dict
    folder: Path
    documents: list[Document] = field(default_factory=list)
    origins: dict[tuple, tuple[Document, tuple]] = field(default_factory=dict)
    variant: str | None = None
    variant_name: str | None = None
    variant_document: Document | None = None
    overridden: bool = False  # values set in memory (``apply_overrides``) since the files were merged
    warnings: list[Diagnostic] = field(default_factory=list)  # what the files' format says (engine/load/formats.py)

    def origin(self, path: tuple) -> tuple[Document, tuple]:
        path = tuple(path)
        for cut in range(len(path), -1, -1):
            found = self.origins.get(path[:cut])
            if found is not None:
                doc, doc_path = found
                return doc, doc_path + path[cut:]
        return self.documents[0], path

    def diag(
        self,
        path: tuple,
        code: str,
        message: str,
        *,
        key: bool = False,
        hint: str | None = None,
        severity: str = "error",
    ) -> Diagnostic:
        doc, doc_path = self.origin(path)
        return doc.diag(doc_path, code, message, key=key, hint=hint, severity=severity)

    def kept_break(self, path: tuple, line: int) -> bool:
        """Whether line ``line`` of the text at ``path`` ends in a break a folded block kept (``ScalarPlace``)."""
        doc, doc_path = self.origin(path)
        place = doc.scalars.get(tuple(doc_path))
        return place is not None and place.kept_break(line)

    def locate_text(self, path: tuple, line: int, col: int) -> tuple[str, int, int]:
        """File, line and column of a position inside the DSL text at ``path``."""
        doc, doc_path = self.origin(path)
        file_line, file_col = doc.text_position(doc_path, line, col)
        return doc.path, file_line, file_col

    def text_diag(
        self,
        path: tuple,
        line: int,
        col: int,
        code: str,
        message: str,
        hint: str | None = None,
        severity: str = "error",
    ) -> Diagnostic:
        """A diagnostic at (line, col) of the DSL text at ``path``, with the file's line and a caret under it."""
        file, file_line, file_col = self.locate_text(path, line, col)
        doc, _ = self.origin(path)
        lines = doc.lines
        context = (lines[file_line - 1], " " * (file_col - 1) + "^") if 1 <= file_line <= len(lines) else ()
        return Diagnostic(file, file_line, file_col, code, message, severity, hint, context)


def known_games() -> list[str]:
    rules = data_root() / "rules"
    return sorted(p.name for p in rules.iterdir() if (p / "game.yaml").is_file()) if rules.is_dir() else []


def known_variants(game_folder: Path) -> list[str]:
    folder = game_folder / "variants"
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def game_folders(game_folder: Path, game_id: str) -> list[Path]:
    """Where a game's own files may be: its folder, then the project's boards/<id>/ folder.

    Every file a rule file names is looked up in these, in order, and must stay inside them.
    """
    game_folder = Path(game_folder).absolute()
    return [game_folder, game_folder.parent.parent / "boards" / game_id]


def shipped_folder(game_id: str) -> Path:
    """The folder a shipped game's rules live in (whether or not it exists)."""
    return data_root() / "rules" / game_id


def resolve(game: str | os.PathLike, variant: str | None = None) -> tuple[Path, Path | None]:
    """(game.yaml path, variant path or None) for a game name or file path; paths come back absolute."""
    try:
        return _resolve(game, variant)
    except OSError as exc:  # a name too long to look up, a loop of links…
        raise LoadError([Diagnostic(str(game), 1, 1, "E101", f"cannot read: {exc.strerror}")]) from None
    except ValueError:  # a NUL in the name
        raise LoadError([Diagnostic(str(game), 1, 1, "E101", "not a valid file name")]) from None


def _resolve(game: str | os.PathLike, variant: str | None) -> tuple[Path, Path | None]:
    candidate = Path(game)
    if candidate.suffix in (".yaml", ".yml") or candidate.is_dir() or candidate.exists():
        candidate = candidate.absolute()
        if candidate.is_dir():
            candidate = candidate / "game.yaml"
        if not candidate.exists():
            raise LoadError([Diagnostic(str(game), 1, 1, "E101", "file not found")])
        head = None
        if candidate.name != "game.yaml":  # maybe a variant: peek at its 'extends'
            with contextlib.suppress(LoadError):
                head = read_yaml(candidate, display_path(candidate)).data
        if isinstance(head, dict) and "extends" in head and variant is None:
            base = candidate.parent.parent / "game.yaml"
            if not base.exists() and is_name(head["extends"]):
                base = shipped_folder(head["extends"]) / "game.yaml"
            return base, candidate
        game_file = candidate
    else:
        game_file = shipped_folder(str(game)) / "game.yaml"
        if not is_name(game) or not game_file.exists():
            raise LoadError(
                [
                    Diagnostic(
                        str(game),
                        1,
                        1,
                        "E101",
                        f"no game named '{game}'",
                        "error",
                        did_you_mean(str(game), known_games()) or f"known games: {', '.join(known_games())}",
                    )
                ]
            )
    if variant is None:
        return game_file, None
    vpath = Path(variant)
    if vpath.suffix in (".yaml", ".yml"):
        if not vpath.exists():
            raise LoadError([Diagnostic(str(variant), 1, 1, "E101", "file not found")])
        return game_file, vpath.absolute()
    vpath = game_file.parent / "variants" / f"{variant}.yaml"
    if not is_name(variant) or not vpath.exists():
        names = known_variants(game_file.parent)
        raise LoadError(
            [
                Diagnostic(
                    display_path(game_file),
                    1,
                    1,
                    "E101",
                    f"no variant named '{variant}'",
                    "error",
                    did_you_mean(variant, names)
                    or (f"known variants: {', '.join(names)}" if names else "this game has none"),
                )
            ]
        )
    return game_file, vpath


def load_documents(game_file: Path, variant_file: Path | None, validate_shape=None) -> RuleSet:
    """Read the game file, its includes and the variant; merge them.

    ``validate_shape(doc, kind)`` returns schema diagnostics for one file; files
    are checked one by one so that every message names its own file.
    """
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    docs: list[Document] = []

    def read(path: Path, kind: str) -> Document | None:
        try:
            doc = read_yaml(path, display_path(path))
        except LoadError as exc:
            problems.extend(exc.diagnostics)
            return None
        docs.append(doc)
        if kind == "game":  # a newer format than this engine reads is refused before its shape is judged
            said = format_problems(doc)
            warnings.extend(d for d in said if not d.is_error)
            refused = [d for d in said if d.is_error]
            if refused:
                problems.extend(refused)
                return None
        if validate_shape is not None:
            shape = validate_shape(doc, kind)
            problems.extend(shape)
            if any(p.is_error for p in shape):
                return None  # a malformed file is reported, never merged
        return doc

    game_doc = read(game_file, "game")
    if game_doc is None or not isinstance(game_doc.data, dict):
        if not problems:
            problems.append(
                Diagnostic(display_path(game_file), 1, 1, "E201", "a game file must be a mapping of sections")
            )
        raise LoadError(problems)
    rules = RuleSet(dict(game_doc.data), game_file.parent, docs, warnings=warnings)
    rules.origins[()] = (game_doc, ())
    for key, value in game_doc.data.items():
        rules.origins[(key,)] = (game_doc, (key,))
        if isinstance(value, list):
            for i in range(len(value)):
                rules.origins[(key, i)] = (game_doc, (key, i))

    comps = rules.data.get("components", [])
    included = _included(game_doc, [game_file.parent], read, problems)
    if included and isinstance(comps, list):
        rules.data["components"] = comps = list(comps)
        for comp, origin in included:
            rules.origins[("components", len(comps))] = origin
            comps.append(comp)

    if variant_file is not None:
        vdoc = read(variant_file, "variant")
        if vdoc is not None and isinstance(vdoc.data, dict):
            # named beside the variant file, else beside the game's
            _overlay(rules, vdoc, _included(vdoc, [variant_file.parent, game_file.parent], read, problems), problems)
    if any(p.is_error for p in problems):
        raise LoadError(problems)
    return rules


def apply_overrides(rules: RuleSet, overrides: dict[str, Any]) -> None:
    """Set values of the merged rules by dotted path (``constants.rounds``, ``scoring.0.points``).

    A list item is named by its id (or index).  Containers on the path are copied, never changed
    in place; the value keeps the origin of the one it replaces, so a problem with it is reported
    there.  An unknown path is a one-line error.
    """
    for dotted, value in overrides.items():
        keys = dotted.split(".")
        node: Any = dict(rules.data)  # a dict or a list, by the path
        rules.data = node
        for depth, key in enumerate(keys):
            step = _step(node, key)
            if step is None:
                known = (
                    list(node)
                    if isinstance(node, dict)
                    else [k for k in map(identity, node) if k]
                    if isinstance(node, list)
                    else []
                )
                hint = did_you_mean(key, known) or (f"it has: {', '.join(map(str, known[:12]))}" if known else None)
                where = f"'{'.'.join(keys[:depth])}'" if depth else "the rules"
                raise TabletopError(
                    f"cannot set '{dotted}': {where} {'has' if depth else 'have'} no '{key}'"
                    + (f" ({hint})" if hint else "")
                )
            if depth == len(keys) - 1:
                node[step] = value
            else:
                child = node[step]
                node[step] = node = (
                    dict(child) if isinstance(child, dict) else list(child) if isinstance(child, list) else child
                )
    rules.overridden = True


def _step(node: Any, key: str) -> Any:
    """The key or index ``key`` names in ``node`` (a list item by id or index), or None."""
    if isinstance(node, dict):
        return key if key in node else None
    if isinstance(node, list):
        ids = [identity(item) for item in node]
        if key in ids:
            return ids.index(key)
        return int(key) if key.isdigit() and int(key) < len(node) else None
    return None


def identity(item: Any) -> str | None:
    """The id (or kind) by which a list item is merged, matched and removed."""
    if isinstance(item, dict):
        for key in IDENTITY_KEYS:
            if isinstance(item.get(key), str):
                return item[key]
    return None


def _included(doc: Document, roots: list[Path], read, problems: list[Diagnostic]) -> list[tuple[Any, tuple]]:
    """The components of the files ``doc`` includes, each with its origin; a name is looked up in ``roots``."""
    names = doc.data.get("include")
    if not isinstance(names, list):
        return []  # none, or malformed: the schema check reports it
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            continue
        try:
            found = find_inside(name, roots)
        except Refused as exc:
            problems.append(doc.diag(("include", i), exc.code, exc.message))
            continue
        inc = read(found or roots[0] / name, "components")
        if inc is not None and isinstance(inc.data, dict):
            out += [(comp, (inc, ("components", j))) for j, comp in enumerate(inc.data.get("components") or [])]
    return out


def _overlay(rules: RuleSet, vdoc: Document, included: list[tuple[Any, tuple]], problems: list[Diagnostic]) -> None:
    """Apply a variant: lists of identified items merge by id, others replace.

    The components of the files it includes merge as those it states itself do.
    """
    data = vdoc.data
    base_id = rules.data.get("id")
    if data.get("extends") != base_id:
        problems.append(
            vdoc.diag(("extends",), "E301", f"variant extends '{data.get('extends')}' but its base is '{base_id}'")
        )
        return
    rules.variant = data.get("id")
    rules.variant_document = vdoc
    for section, ids in (data.get("remove") or {}).items():
        _remove(rules, vdoc, section, ids or [], problems)
    own, base = data.get("components", []), rules.data.get("components", [])
    done = {"components"} if isinstance(own, list) and isinstance(base, list) and (own or included) else set()
    if done:
        comps = [(comp, (vdoc, ("components", j))) for j, comp in enumerate(own)] + included
        _merge_list(rules, ("components",), base, _once_each(comps, problems))
    for key, value in data.items():
        if key in VARIANT_META or key in done:
            continue
        base = rules.data.get(key)
        if isinstance(value, list) and isinstance(base, list):
            _merge_list(rules, (key,), base, [(item, (vdoc, (key, j))) for j, item in enumerate(value)])
        elif isinstance(value, dict) and isinstance(base, dict):
            merged = dict(base)
            for k, v in value.items():
                merged[k] = v
                rules.origins[(key, k)] = (vdoc, (key, k))
            rules.data[key] = merged
        else:
            rules.data[key] = value
            _forget(rules, (key,))
            rules.origins[(key,)] = (vdoc, (key,))
    for n, change in enumerate(data.get("patch") or []):
        _patch(rules, vdoc, n, change, problems)
    rules.variant_name = data.get("name")


def _patchable(data: dict, where: str | None) -> list[tuple[tuple, str]]:
    """(path, id) of everything a patch can name (in the section ``where`` only, if given)."""
    found: list[tuple[tuple, str]] = []
    for section in PATCH_LISTS:
        for i, item in enumerate(data.get(section) or [] if where in (None, section) else []):
            if (ident := identity(item)) is not None:
                found.append(((section, i), ident))
    for i, comp in enumerate(data.get("components") or [] if where in (None, "items") else []):
        for j, item in enumerate(comp.get("items") or [] if isinstance(comp, dict) else []):
            if (ident := identity(item)) is not None:
                found.append((("components", i, "items", j), ident))
    for section in PATCH_MAPS:
        for key in data.get(section) or {} if where in (None, section) else {}:
            found.append(((section, key), key))
    return found


def _patch(rules: RuleSet, vdoc: Document, n: int, change: dict, problems: list[Diagnostic]) -> None:
    """One ``patch:`` entry: the one thing with its id gets the fields it gives, the rest stays the base's."""
    ident, where = change.get("id"), change.get("in")
    candidates = _patchable(rules.data, where)
    paths = [path for path, found in candidates if found == ident]
    if len(paths) != 1:
        sections = sorted({path[0] if len(path) < 4 else "items" for path in paths})
        problems.append(
            vdoc.diag(
                ("patch", n, "id"),
                "E301",
                f"patch: nothing{' in ' + where if where else ''} has the id '{ident}'"
                if not paths
                else f"patch: '{ident}' is the id of several things ({', '.join(sections)})",
                hint=did_you_mean(str(ident), [found for _, found in candidates])
                if not paths
                else f"say which with 'in:', e.g. in: {sections[0]}",
            )
        )
        return
    path = paths[0]
    fields = {k: v for k, v in change.items() if k not in ("id", "in")}
    parent = _owned(rules.data, path[:-1])
    old = parent[path[-1]]
    if path[0] == "constants":  # a constant is its value
        parent[path[-1]] = fields.get("value", old)
        rules.origins[path] = (vdoc, ("patch", n, "value"))
        return
    steps = fields.pop("steps", None)
    parent[path[-1]] = {**old, **fields} if isinstance(old, dict) else old
    for k in fields:
        rules.origins[path + (k,)] = (vdoc, ("patch", n, k))
    if isinstance(steps, list) and isinstance(old, dict) and isinstance(old.get("steps"), list):
        _patch_steps(rules, vdoc, n, path, steps, problems)
    elif steps is not None:
        parent[path[-1]] = {**parent[path[-1]], "steps": steps}
        rules.origins[path + ("steps",)] = (vdoc, ("patch", n, "steps"))


def _patch_steps(rules: RuleSet, vdoc: Document, n: int, path: tuple, steps: list, problems: list) -> None:
    """A patch's steps of a procedure: a step with a base step's id changes its fields; a new one goes
    ``before`` or ``after`` the step it names (at the end if neither); either may be moved so."""
    owner = rules.data
    for key in path:
        owner = owner[key]
    entries = [(step, rules.origin(path + ("steps", i))) for i, step in enumerate(owner["steps"])]
    for m, step in enumerate(steps):
        here = (vdoc, ("patch", n, "steps", m))
        if not isinstance(step, dict):
            continue
        place = {k: step[k] for k in ("before", "after") if k in step}
        step = {k: v for k, v in step.items() if k not in place}
        ids = [identity(s) for s, _ in entries]
        if identity(step) in ids:
            i = ids.index(identity(step))
            old, origin = entries.pop(i)
            here = here if "does" in step else origin  # a step only moved keeps its text where it is written
            step, ids = {**old, **step}, ids[:i] + ids[i + 1 :]
        at = len(entries)
        for word, name in place.items():
            if name not in ids:
                problems.append(
                    vdoc.diag(
                        ("patch", n, "steps", m, word),
                        "E301",
                        f"'{path_id(rules.data, path)}' has no step '{name}'",
                        hint=did_you_mean(str(name), [str(i) for i in ids]),
                    )
                )
            else:
                at = ids.index(name) + (word == "after")
        entries.insert(at, (step, here))
    owner["steps"] = [s for s, _ in entries]
    _forget(rules, path + ("steps",))
    for i, (_, origin) in enumerate(entries):
        rules.origins[path + ("steps", i)] = origin


def path_id(data: dict, path: tuple) -> str:
    """The id of the item at ``path`` of the merged rules."""
    node: Any = data
    for key in path:
        node = node[key]
    return str(identity(node))


def _owned(data: dict, path: tuple) -> Any:
    """The container at ``path`` in the merged rules, each level along it copied first: a patch never
    changes the base document's own values."""
    node: Any = data
    for key in path:
        child = node[key]
        node[key] = child = list(child) if isinstance(child, list) else dict(child)
        node = child
    return node


def _once_each(comps: list[tuple[Any, tuple]], problems: list[Diagnostic]) -> list[tuple[Any, tuple]]:
    """A variant's component kinds, from its file and its includes: a kind given twice is E304, as in a game."""
    first: dict[str, Document] = {}
    out = []
    for comp, (doc, path) in comps:
        kind = identity(comp)
        if kind is not None and kind in first:
            problems.append(
                doc.diag(
                    path + ("kind",),
                    "E304",
                    f"component kind '{kind}' is given twice by the variant (also in {first[kind].path})",
                    hint="give each kind's changes in one place",
                )
            )
            continue
        if kind is not None:
            first[kind] = doc
        out.append((comp, (doc, path)))
    return out


def _forget(rules: RuleSet, prefix: tuple) -> None:
    for path in [p for p in rules.origins if p[: len(prefix)] == prefix and len(p) > len(prefix)]:
        del rules.origins[path]


def _merge_list(rules: RuleSet, merged_path: tuple, base: list, additions: list[tuple[Any, tuple]]) -> None:
    """Merge ``additions`` (each an item and its origin) into the list at ``merged_path`` by identity."""
    entries = [(item, rules.origin(merged_path + (i,))) for i, item in enumerate(base)]
    index = {identity(item): i for i, (item, _) in enumerate(entries) if identity(item) is not None}
    for item, here in additions:
        ident = identity(item)
        if ident is not None and ident in index:
            i = index[ident]
            old = entries[i][0]
            if merged_path == ("components",) and isinstance(old, dict) and isinstance(item, dict):
                entries[i] = _merge_component(rules, old, entries[i][1], item, here)
            else:
                entries[i] = (item, here)
        else:
            index[ident] = len(entries)
            entries.append((item, here))
    _store_list(rules, merged_path, entries)


def _merge_component(rules, old: dict, old_origin, new: dict, new_origin):
    """A variant's component kind adds or replaces items of the base kind by id."""
    merged = dict(old)
    merged.update({k: v for k, v in new.items() if k != "items"})
    if not isinstance(new.get("items", []), list) or not isinstance(old.get("items", []), list):
        merged["items"] = new.get("items")  # malformed: the merged rules' schema check reports it
        return merged, new_origin
    items = [(it, (old_origin[0], old_origin[1] + ("items", i))) for i, it in enumerate(old.get("items", []))]
    index = {identity(it): i for i, (it, _) in enumerate(items)}
    for j, it in enumerate(new.get("items", []) or []):
        here = (new_origin[0], new_origin[1] + ("items", j))
        if identity(it) in index:
            items[index[identity(it)]] = (it, here)
        else:
            items.append((it, here))
    merged["items"] = [it for it, _ in items]
    merged["$item_origins"] = [o for _, o in items]
    return merged, old_origin


def _store_list(rules: RuleSet, merged_path: tuple, entries: list) -> None:
    _forget(rules, merged_path)
    rules.data[merged_path[0]] = [item for item, _ in entries]
    for i, (item, origin) in enumerate(entries):
        rules.origins[merged_path + (i,)] = origin
        if isinstance(item, dict) and "$item_origins" in item:
            for j, o in enumerate(item.pop("$item_origins")):
                rules.origins[merged_path + (i, "items", j)] = o


def _remove(rules: RuleSet, vdoc: Document, section: str, ids: list, problems: list[Diagnostic]) -> None:
    if section == "items":
        found = set()
        comps = rules.data.get("components", [])
        for i, comp in enumerate(comps):
            items = [(it, rules.origin(("components", i, "items", j))) for j, it in enumerate(comp.get("items", []))]
            kept = [(it, o) for it, o in items if identity(it) not in ids]
            found |= {identity(it) for it, _ in items} & set(ids)
            if len(kept) != len(items):
                comp = dict(comp)
                comp["items"] = [it for it, _ in kept]
                comps[i] = comp
                _forget(rules, ("components", i, "items"))
                for j, (_, o) in enumerate(kept):
                    rules.origins[("components", i, "items", j)] = o
        missing = [x for x in ids if x not in found]
    else:
        base = rules.data.get(section) or []
        entries = [(item, rules.origin((section, i))) for i, item in enumerate(base)]
        kept = [(item, o) for item, o in entries if identity(item) not in ids]
        missing = [x for x in ids if x not in {identity(i) for i, _ in entries}]
        _store_list(rules, (section,), kept)
    for x in missing:
        problems.append(
            vdoc.diag(
                ("remove", section),
                "E301",
                f"cannot remove '{x}': the base has no such {section[:-1] if section.endswith('s') else section}",
            )
        )
