"""Helpers shared by the web table's tests: reaching a decision by random moves, editing a copy of a game,
serving a table on a real port, rules that fail during play."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from language_helpers import write_game

from engine.web.app import create_app
from engine.web.lobby import Lobby
from engine.web.table import Table

# Seat 0 may go on or fail; seat 1 can only fail (a bot there fails as soon as it moves): line 11 fails.
FAILING = """\
    id: mini
    name: Mini
    players: {min: 2, max: 2}
    zones:
      - {id: box, visibility: hidden}
    variables:
      n: {type: int}
    play: |
      for p in players():
          x = choose "go" from ["on", "fail"] if p == first(players()) else ["fail"] by p
          n = 1 // (0 if x == "fail" else 1)
    """


def failing_table(tmp_path: Path, bots: dict[int, str] | None = None) -> Table:
    """A table of rules that fail at run time when "fail" is chosen (``FAILING``), written under ``tmp_path``."""
    return Table(str(write_game(tmp_path, FAILING)), seed=1, bots=bots)


def take(table: Table, action: str, seat: int | None = None, key: str | None = None) -> None:
    """``action`` for ``seat`` (default: the seat asked) from ``key``'s page (default: the host's), answering
    the decision asked now."""
    seat = table.state.current_player if seat is None else seat
    table.act(key or table.host_key, seat, action, table.decision_number)


def play_until(table: Table, kind: str, rng: random.Random, limit: int = 300) -> None:
    """Random moves at the table (host key) until a decision of ``kind`` is pending."""
    for _ in range(limit):
        if table.state.pending and table.state.pending["kind"] == kind:
            return
        take(table, rng.choice(table.state.legal_actions()))
    raise AssertionError(f"no {kind} decision in {limit} moves")


def copy_game(tmp_path: Path, game: str) -> Path:
    """A game's rule and board files copied into one folder (to edit them); returns its game.yaml."""
    folder = tmp_path / game
    shutil.copytree(f"rules/{game}", folder)
    for f in Path(f"boards/{game}").iterdir():
        shutil.copy(f, folder / f.name)
    return folder / "game.yaml"


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) in a file and move its modification time on.

    The time moves on by 10 s so the change is seen whatever the file system's clock resolution.
    """
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new))
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000_000))


def serve(table: Table | Lobby, watch: bool = False, port: int = 0) -> tuple[str, Callable[[], None]]:
    """Run the app of a table (or a lobby) on uvicorn in a thread on ``port`` (0: a free one); returns (base url,
    stop).

    Its log goes to the root logger (no log config of uvicorn's own), where ``caplog`` sees it.
    """
    import uvicorn

    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    config = uvicorn.Config(
        create_app(table, watch=watch), host="127.0.0.1", port=port, log_level="warning", log_config=None
    )
    server = uvicorn.Server(config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
    SERVED[id(table)] = loop

    def stop() -> None:
        SERVED.pop(id(table), None)
        server.should_exit = True
        thread.join(10)
        if not thread.is_alive():
            loop.close()

    return f"http://127.0.0.1:{port}/", stop


# The event loop of each table or lobby `serve` runs, by the object's id, while it is served.
SERVED: dict[int, asyncio.AbstractEventLoop] = {}


@contextlib.contextmanager
def paused(served: Table | Lobby):
    """The server of ``served`` (a table, or a lobby and its tables) held between two of its steps while the block
    runs, so that the test's thread may read the table: the server's thread, where bots move and requests are
    answered, may be inside a call of the game's state, and the state answers one thread at a time (another gets
    "Already mutably borrowed")."""
    loop = SERVED.get(id(served))
    if loop is None:
        yield
        return
    held, go_on = threading.Event(), threading.Event()

    def hold() -> None:
        held.set()
        go_on.wait(600)

    loop.call_soon_threadsafe(hold)
    if not held.wait(600):
        raise AssertionError("the server did not pause")
    try:
        yield
    finally:
        go_on.set()
