"""The native VM's crate keeps its own checks: its tests, clippy with warnings as errors, and rustfmt; with the
feature that counts where the rules' work goes (`profile`) on, so that its code is built, linted and tested too.

They run where cargo is (a machine without Rust skips them, except under CI=true, where a missing cargo is
a failure: the suite must not pass by not looking)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from engine import load_game
from engine.runtime.lower import ir_bytes

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
    done = cargo("test", "--quiet", "--features", "profile")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_clippy_finds_nothing_with_warnings_as_errors():
    done = cargo("clippy", "--all-targets", "--features", "profile", "--quiet", "--", "-D", "warnings")
    assert done.returncode == 0, done.stderr[-4000:]


def test_the_crate_is_formatted_by_rustfmt():
    done = cargo("fmt", "--check")
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_profile_names_each_rule_function_and_line_with_its_runs_alike_on_every_run(tmp_path):
    ir = tmp_path / "cat-town.json"
    game = load_game("cat-town", reference=True)
    ir.write_bytes(ir_bytes(game))
    reports = []
    for _ in range(2):
        done = cargo("run", "--quiet", "--features", "profile", "--example", "playouts", "--", str(ir), "2", "3")
        assert done.returncode == 0, done.stderr[-3000:]
        reports.append(done.stdout.splitlines()[1:])  # the first line is the time taken
    assert reports[0] == reports[1], "counts, not times: the same on every run"
    lines = reports[0]
    total = int(lines[0].split()[0])
    functions = lines[2 : lines.index(next(line for line in lines if line.startswith("procedure")))]
    rows = {line.split()[0]: line.split()[1:] for line in functions}
    # item_pairs (the scoring's) is called; walk_options is inlined where it is used, so it has no calls of its own
    assert set(rows) <= set(game.functions) and "item_pairs" in rows and "walk_options" not in rows, rows
    for runs, per_run, share in rows.values():
        assert int(runs) > 0 and float(per_run) > 0 and 0 < float(share.rstrip("%")) <= 100
    assert total > max(int(runs) for runs, _, _ in rows.values())
    places = [line.split()[0] for line in lines[lines.index(next(x for x in lines if x.startswith("line"))) + 1 :]]
    assert len(places) == 20 and all(p.startswith("rules/cat-town/game.yaml:") for p in places), places
