"""The native VM's crate keeps its own checks: its tests, clippy with warnings as errors, and rustfmt.

They run where cargo is (a machine without Rust skips them, except under CI=true, where a missing cargo is
a failure: the suite must not pass by not looking)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CRATE = Path(__file__).resolve().parent.parent / "engine" / "vm"
CARGO = shutil.which("cargo")

if CARGO is None and os.environ.get("CI") != "true":
    pytest.skip("cargo is not installed here", allow_module_level=True)


def cargo(*args: str) -> subprocess.CompletedProcess:
    if CARGO is None:
        pytest.fail("CI=true, but cargo is not installed: the crate's checks cannot run")
    return subprocess.run(
        [CARGO, *args],
        cwd=CRATE,
        capture_output=True,
        text=True,
        env={**os.environ, "CARGO_TERM_COLOR": "never"},
    )


def test_the_crate_passes_its_own_tests():
    done = cargo("test", "--quiet")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_clippy_finds_nothing_with_warnings_as_errors():
    done = cargo("clippy", "--all-targets", "--quiet", "--", "-D", "warnings")
    assert done.returncode == 0, done.stderr[-4000:]


def test_the_crate_is_formatted_by_rustfmt():
    done = cargo("fmt", "--check")
    assert done.returncode == 0, done.stdout[-3000:]
