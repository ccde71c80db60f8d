"""The project's own Python is checked as the best-kept projects check theirs: ruff and mypy pass.

Both read their configuration from pyproject.toml (rules, each ignore with its reason; mypy's
strictness and its cache under .mypy_cache), so the README's test command checks the code too.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "engine", "tests", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_would_change_nothing():
    result = _run("ruff", "format", "--check", "engine", "tests", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
