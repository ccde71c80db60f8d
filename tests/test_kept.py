"""Kept results (engine/load/kept.py): the files, schema checks and parse trees a process keeps to reuse."""

from __future__ import annotations

import threading

from engine.load.kept import Kept


def test_past_its_size_the_oldest_result_is_forgotten_first():
    kept: Kept[str, int] = Kept(2)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        kept.keep(key, value)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (None, 2, 3)


def test_threads_keeping_results_at_once_never_fail_and_keep_at_most_the_size():
    """A web table's threads load games side by side: forgetting the oldest as another thread does is no error."""
    kept: Kept[tuple, int] = Kept(3)
    failures: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(3000):
                kept.keep((n, i), i)
                kept.get((n, i - 1))
        except BaseException as exc:  # noted, so that the test fails with it
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert sum(kept.get((n, 2999)) is not None for n in range(6)) <= 3
