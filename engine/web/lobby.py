"""The tables one server holds: found by any of their links' keys, created from the lobby, kept in a folder.

``tabletop serve GAME`` holds one table; ``tabletop serve`` opens a lobby where a person creates tables
(game, variant, players, bots) and gets their links.  With ``--tables DIR`` every table is kept as two
files written atomically after every change: ``<id>.json``, a save file ``tabletop replay`` reads, and
``<id>.table.json``, what a save does not hold (the rules' name, the bots, the links' keys).  Both are
readable by their owner only: a save rebuilds every hidden card, and a key is a seat.  After a restart
the tables are read back and their pages, which reconnect by themselves, find them under the same keys.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from engine.errors import TabletopError
from engine.web.table import Refusal, Table

MAX_TABLES = 200  # a lobby open to anyone who reaches the server: a bound, not a quota
PRIVATE = 0o600


class Lobby:
    """Tables by id; ``creating``: whether pages may create tables (the lobby of ``serve`` without a game)."""

    def __init__(self, folder: Path | None = None, creating: bool = True):
        self.folder = folder
        self.creating = creating
        self.tables: dict[str, Table] = {}
        self.problems: list[str] = []  # tables of the folder that could not be brought back, and why

    def add(self, table: Table, table_id: str | None = None) -> str:
        """Hold ``table`` (kept in the folder from now on, if there is one); returns its id."""
        table_id = table_id or secrets.token_hex(6)
        self.tables[table_id] = table
        folder = self.folder
        if folder is not None:
            table.keeper = lambda t: _keep(folder, table_id, t)
            _keep(folder, table_id, table)
        return table_id

    def find(self, key: str) -> Table:
        """The table one of whose links holds ``key``."""
        for table in self.tables.values():
            try:
                table.seats_of(key)
            except Refusal:
                continue
            return table
        raise Refusal("unknown key: open the link the server printed")

    def create(self, request) -> Table:
        """A new table from a lobby page's request ``{game, variant, players, bots: {seat: kind}}``."""
        from engine.bots import BotSpecError, check_spec
        from engine.load.documents import known_games
        from engine.runtime.gamedef import load_game

        if not self.creating:
            raise Refusal("this server plays one game: start `tabletop serve` without a game for a lobby")
        if len(self.tables) >= MAX_TABLES:
            raise Refusal(f"this server holds {MAX_TABLES} tables already")
        if not isinstance(request, dict):
            raise Refusal("a table is asked for as a JSON object")
        game, variant, players = request.get("game"), request.get("variant") or None, request.get("players")
        bots = request.get("bots") or {}
        if game not in known_games():
            raise Refusal(f"no game named {json.dumps(game)[:60]}")
        if not isinstance(players, int) or isinstance(players, bool):
            raise Refusal("players must be a number")
        if not isinstance(bots, dict) or not all(isinstance(k, str) and k.isdigit() for k in bots):
            raise Refusal("bots must map seat numbers to bot kinds")
        seats = {int(s): str(kind) for s, kind in bots.items() if kind}
        try:
            loaded = load_game(game, variant if isinstance(variant, str) else None)
            for seat, kind in seats.items():
                if not 0 <= seat < players:
                    raise Refusal(f"no seat {seat} at a table of {players}")
                check_spec(kind, loaded)
            table = Table(game, loaded.variant, players, bots=seats)
        except (BotSpecError, TabletopError) as exc:
            raise Refusal(str(exc).splitlines()[0]) from None
        self.add(table)
        return table

    def restore(self) -> None:
        """Bring back every table kept in the folder; one that cannot be is named in ``problems``."""
        from engine.load.safe_files import read_text
        from engine.runtime.saves import read_save

        if self.folder is None:
            return
        for about_file in sorted(self.folder.glob("*.table.json")):
            table_id = about_file.name.removesuffix(".table.json")
            try:
                about = json.loads(read_text(about_file, str(about_file), 100_000))
                data = read_save(self.folder / f"{table_id}.json")
                bots = {int(s): k for s, k in about["bots"].items()}
                table = Table(about["source"], about["variant"], data["players"], data["seed"], bots, about["keys"])
                table.resume(data["actions"])
            except (TabletopError, ValueError, KeyError, TypeError, AttributeError) as exc:
                self.problems.append(f"{about_file.name}: cannot bring the table back: {str(exc).splitlines()[0]}")
                continue
            self.add(table, table_id)


def _keep(folder: Path, table_id: str, table: Table) -> None:
    """Write the table's two files, each atomically: the save, then what the save does not hold."""
    from engine.load.safe_files import write_bytes
    from engine.runtime.saves import save_text

    about = {"source": table.source, "variant": table.variant, "bots": table.bots, "keys": table.keys()}
    write_bytes(folder / f"{table_id}.json", save_text(table.state).encode(), mode=PRIVATE)
    write_bytes(folder / f"{table_id}.table.json", (json.dumps(about, indent=1) + "\n").encode(), mode=PRIVATE)


def links(table: Table, base: str) -> dict:
    """The links of a table: the host's (every human seat, undo, saves), one per human seat, the onlookers'."""
    return {
        "host": f"{base}?key={table.host_key}",
        "seats": {str(seat): f"{base}?key={key}" for seat, key in table.seat_keys.items()},
        "spectator": f"{base}?key={table.spectator_key}",
    }
