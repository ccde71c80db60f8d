"""Diagnostics printed for people, scripts, GitHub Actions and code-scanning tools (``lint --format``).

- ``text`` (the CLI's): ``Diagnostic.format()`` per finding, then ``summary``;
- ``json``: a list of ``Diagnostic.to_json()`` objects;
- ``github``: workflow commands, ``::warning file=…,line=…,col=…,title=CODE::message`` (errors as ``::error``),
  escaped as the Actions toolkit escapes them, so a message never breaks the command;
- ``sarif``: one SARIF 2.1.0 log (OASIS), every code a rule of the ``tabletop`` driver.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from engine.errors import Diagnostic
from engine.tools.codes import CODES

__all__ = ["FORMATS", "format_report", "summary"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def summary(diagnostics: list[Diagnostic]) -> str:
    """The last line of the text format: how many errors and warnings, or that there are none."""
    if not diagnostics:
        return "no problems found"
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


def _json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(diagnostics: list[Diagnostic]) -> str:
    out = []
    for d in diagnostics:
        props = ",".join(
            f"{k}={_escape_property(str(v))}"
            for k, v in (("file", Path(d.path).as_posix()), ("line", d.line), ("col", d.col), ("title", d.code))
        )
        message = d.message + (f" ({d.hint})" if d.hint else "")
        out.append(f"::{'error' if d.is_error else 'warning'} {props}::{_escape_data(f'{d.code} {message}')}")
    return "\n".join(out)


def _uri(path: str) -> str:
    p = Path(path)
    return p.as_uri() if p.is_absolute() else quote(p.as_posix())


def _sarif(diagnostics: list[Diagnostic]) -> str:
    codes = list(CODES)
    rules = [
        {
            "id": code,
            "name": code,
            "shortDescription": {"text": title},
            "fullDescription": {"text": text},
            "defaultConfiguration": {"level": "error" if code.startswith("E") else "warning"},
        }
        for code, (title, text) in CODES.items()
    ]
    results = []
    for d in diagnostics:
        result: dict[str, object] = {
            "ruleId": d.code,
            "level": "error" if d.is_error else "warning",
            "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(d.path)},
                        "region": {"startLine": max(d.line, 1), "startColumn": max(d.col, 1)},
                    }
                }
            ],
        }
        if d.code in CODES:
            result["ruleIndex"] = codes.index(d.code)
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "tabletop", "rules": rules}}, "results": results}],
    }
    return json.dumps(log, indent=2)


FORMATS = {"json": _json, "github": _github, "sarif": _sarif}


def format_report(diagnostics: list[Diagnostic], fmt: str) -> str:
    """The diagnostics in ``fmt`` (one of FORMATS)."""
    return FORMATS[fmt](diagnostics)
