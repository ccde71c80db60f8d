"""JSON Schema checks of rule and board files, reported at the offending place."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

from engine.errors import Diagnostic, did_you_mean, quoted
from engine.load.documents import data_root
from engine.load.kept import Kept
from engine.load.yaml_source import Document

KINDS = ("game", "components", "variant", "board")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_draft_pattern = Draft202012Validator.VALIDATORS["pattern"]


def _pattern(validator, pattern, instance, schema):
    """``pattern`` as JSON Schema (ECMA-262) means it: Python's ``$`` also matches before a final newline,
    so "id\\n" passed ``^[a-z]+$``.  No pattern of ours admits a control character: those fail first."""
    if isinstance(instance, str) and _CONTROL.search(instance):
        yield ValidationError(f"{quoted(instance)} holds a control character")
    else:
        yield from _draft_pattern(validator, pattern, instance, schema)


# JSON Schema counts 2.0 as an integer; a rule file's counts and coordinates must be written as whole numbers.
_WHOLE = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)
)
_Strict = validators.extend(Draft202012Validator, validators={"pattern": _pattern}, type_checker=_WHOLE)


@cache
def validator(kind: str) -> Draft202012Validator:
    schema = json.loads((data_root() / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
    return _Strict(schema)


def _allowed_keys(error: ValidationError) -> list[str]:
    props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    return list(props)


def _explain(error: ValidationError) -> tuple[tuple, str, bool, str | None]:
    """(path, message, points-at-key, hint) for one schema error."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = _allowed_keys(error)
        extras = [k for k in error.instance if k not in allowed]
        key = extras[0] if extras else "?"
        return path + (key,), f"unknown key '{key}'", True, did_you_mean(key, allowed)
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        return path, f"missing key '{missing[0] if missing else error.message}'", bool(path), None
    if error.validator in ("anyOf", "oneOf") and error.context:
        inner = best_match(error.context)
        return path, inner.message, False, None
    if error.validator == "pattern" and isinstance(error.instance, str):
        at_key = "propertyNames" in error.relative_schema_path  # a key, reported at itself, not at its mapping
        if at_key:
            path += (error.instance,)
        control = _CONTROL.search(error.instance)
        if control:
            return (
                path,
                f"character U+{ord(control.group()):04X} is not allowed in a name: {quoted(error.instance)}",
                at_key,
                None,
            )
        desc = error.schema.get("description") if isinstance(error.schema, dict) else None
        return path, f"{quoted(error.instance)} is not allowed here" + (f": {desc}" if desc else ""), at_key, None
    if error.validator == "enum" and isinstance(error.validator_value, list):
        options = error.validator_value
        return (
            path,
            f"{quoted(error.instance)} is not one of {', '.join(map(str, options))}",
            False,
            did_you_mean(str(error.instance), map(str, options)),
        )
    if error.validator == "uniqueItems" and isinstance(error.instance, list):
        for i, item in enumerate(error.instance):
            if item in error.instance[:i]:
                return path + (i,), f"{quoted(item)} is in this list twice", False, "give each item once"
    return path, error.message.replace(repr(error.instance), quoted(error.instance)), False, None


def check_data(data, kind: str, diag: Callable[..., Diagnostic]) -> list[Diagnostic]:
    """Every schema problem of ``data`` as diagnostics, via ``diag(path, code, msg, key=, hint=)``."""
    return [diag(path, "E201", message, key=at_key, hint=hint) for path, message, at_key, hint in _problems(data, kind)]


_CHECKED: Kept[tuple[str, str], tuple] = Kept(64)  # (kind, repr of the data) → its problems, for the last files


def _problems(data, kind: str) -> tuple:
    """(path, message, points-at-key, hint) of each schema problem of ``data``, in path order, each once.

    A pure function of the data, whose repr says all of it (plain YAML values): the files a game shares with its
    variants, checked again as each variant loads, are checked once."""
    key = (kind, repr(data))
    found = _CHECKED.get(key)
    if found is None:
        seen = set()
        problems = []
        for error in sorted(validator(kind).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
            path, message, at_key, hint = _explain(error)
            if (path, message) not in seen:
                seen.add((path, message))
                problems.append((path, message, at_key, hint))
        found = tuple(problems)
        _CHECKED.keep(key, found)
    return found


def check_document(doc: Document, kind: str) -> list[Diagnostic]:
    """Schema problems of one file."""
    return check_data(doc.data, kind, doc.diag)
