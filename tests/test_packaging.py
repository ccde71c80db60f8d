"""What `pip install` brings: playtest and the web table come with the package; the rest are extras that, when
missing, are one line saying what to install."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from test_cli import run

PROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]


def names(requirements: list[str]) -> set[str]:
    """The distribution names of requirement strings ('ray>=2.9' → 'ray')."""
    return {re.match(r"[A-Za-z0-9_.-]+(\[[^]]*\])?", r).group(0) for r in requirements}


def test_the_headline_features_libraries_are_core_dependencies():
    """The README's first command (a plain install) gives `playtest` (plots) and `serve` (the web table)."""
    core = names(PROJECT["dependencies"])
    assert {"matplotlib", "starlette", "uvicorn", "websockets", "rich"} <= core
    assert not core & {"ray", "pettingzoo", "open_spiel", "gymnasium", "pytest"}


def test_cluster_reinforcement_learning_and_test_tools_are_extras():
    extras = {name: names(reqs) for name, reqs in PROJECT["optional-dependencies"].items()}
    assert set(extras) == {"cluster", "rl", "test"}
    assert extras["cluster"] == {"ray"}
    assert extras["rl"] == {"pettingzoo", "open_spiel", "gymnasium"}
    assert {"pytest", "pytest-xdist", "hypothesis", "playwright", "tabletop[cluster]", "tabletop[rl]"} <= extras["test"]


def test_a_playtest_on_ray_without_ray_says_in_one_line_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    code, out, err = run(
        capsys,
        "playtest",
        "caty-mini",
        "--players",
        "2",
        "--games",
        "1",
        "--skill",
        "none",
        "--backend",
        "ray",
        "--seed",
        "1",
        "--json",
    )
    assert code == 1 and not out
    assert err.splitlines() == [
        "error: --backend ray needs ray, which is not installed: pip install 'tabletop[cluster]'"
    ]
