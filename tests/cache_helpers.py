"""What the cache tests share: a rules folder of one small game, and counting calls."""

from __future__ import annotations

from pathlib import Path

import pytest


def write_rules(tmp_path: Path, text: str) -> Path:
    """``tmp_path/rules/mini/game.yaml`` holding ``text``; its path."""
    folder = tmp_path / "rules" / "mini"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder / "game.yaml"


def counter(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """``[n]``: how many times ``owner.<name>`` is called from now on."""
    count = [0]
    real = getattr(owner, name)

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return count
