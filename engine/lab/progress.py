"""Progress of a long playtest on stderr, by the share of the work done (``playtest.Work``)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

from rich import progress as rp
from rich.console import Console


@contextlib.contextmanager
def work_progress(title: str) -> Iterator[Callable[[int, int, int, float], None]]:
    """Progress of a long run on stderr (so beside --json too), by the share of the work done: a bar on a
    terminal, else a line at each tenth of the work."""
    start = time.monotonic()
    if sys.stderr.isatty():
        with rp.Progress(
            rp.TextColumn("{task.description}"),
            rp.BarColumn(),
            rp.TextColumn("{task.fields[games]}"),
            rp.TextColumn("ETA"),
            rp.TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task(title, total=1000, games="")

            def update(done: int, total: int, decisions: int, work: float) -> None:
                bar.update(task, completed=1000 * work, games=f"{done}/{total} games, {decisions:,} decisions")

            yield update
        return
    told = 0

    def line(done: int, total: int, decisions: int, work: float) -> None:
        nonlocal told
        if int(work * 10) > told or done == total:
            told = int(work * 10)
            left = (time.monotonic() - start) * (1 - work) / work if work else 0
            games = f"{done}/{total} games, {decisions:,} decisions"
            print(f"{title}: {games}, {work:.0%} of the work, about {left:.0f} s left", file=sys.stderr)

    yield line
