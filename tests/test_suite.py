"""The test suite itself: no test can fail because the machine is busy."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, settings

# Written split so that this file does not match itself.
WALL_CLOCK = re.compile(
    "|".join(
        [
            "perf_" + "counter",
            r"time\.time\(",
            r"time\.mono" + "tonic",
            "SIG" + "ALRM",
            "ITIMER_" + "REAL",
            r"\.alarm\(",
            r"\btime" + "out=",
        ]
    )
)


def test_no_test_reads_the_wall_clock():
    """Work is bounded by steps, examples or CPU time: no test times itself or stops on wall-clock time."""
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(Path(__file__).parent.glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WALL_CLOCK.search(line)
    ]
    assert not found, "\n".join(found)


def test_hypothesis_has_no_deadline_and_no_too_slow_check():
    """The profile registered in conftest.py is the one in force: examples, never milliseconds, bound a test."""
    assert settings().deadline is None
    assert HealthCheck.too_slow in settings().suppress_health_check
