"""Helpers for the tests of single language constructs: a small game written in the test, and misuse located."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine import RulesError, load_game

__all__ = ["assert_located", "write_game"]


def write_game(tmp_path: Path, text: str) -> Path:
    """Write ``text`` (dedented) as rules/mini/game.yaml under ``tmp_path``; its path."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return folder / "game.yaml"


def assert_located(tmp_path: Path, text: str, at: str, said: str, old: str = "", new: str = "") -> None:
    """Loading ``text`` (with its one ``old`` made ``new``) fails with a diagnostic saying ``said`` on the
    (last) line where ``at`` is."""
    if old:
        assert text.count(old) == 1
        text = text.replace(old, new)
    line = text[: text.rindex(at)].count("\n") + 1
    with pytest.raises(RulesError) as info:
        load_game(write_game(tmp_path, text))
    found = info.value.diagnostics
    assert any(d.line == line and said in d.message for d in found), (line, [(d.line, d.message) for d in found])
