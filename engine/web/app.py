"""The web table's routes: the lobby, the table page, their assets, and one websocket per open page.

A page connects with its key (from a link the server printed or the lobby gave).  The host key holds
every human seat (hot-seat on one screen) and alone may undo, save or open a save (a save holds every
hidden card); a seat key holds one seat, which may ask the others to undo its move; the onlookers' key
holds none and sees what is public.  Each change of a table is pushed to every page of it, each getting
only its own seat's message (``Table.message_for``).  A move names the decision it answers
(``decision_number``), so a page that is behind cannot move twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.errors import TabletopError
from engine.web.lobby import Lobby, links
from engine.web.table import Refusal, Table

STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4_000_000  # characters: a save of a long game fits, a flood does not
RELOAD_EVERY = 0.5  # seconds between checks of the rule files' modification times
PUSH_EVERY = 0.05  # seconds between looks at the table's version, per page
NO_STORE = {"Cache-Control": "no-store"}


class Session:
    """One open page of one table, by its key: what it asks, and what it is told."""

    def __init__(self, table: Table, key: str):
        self.table, self.key = table, key

    def handle(self, msg) -> dict | None:
        """Carry out one request; a reply for the asker only (or None)."""
        table, key = self.table, self.key
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise Refusal("a message must be a JSON object with a 'type'")
        kind = msg["type"]
        if kind == "act":
            table.act(key, msg.get("seat"), msg.get("action"), msg.get("decision_number"))
        elif kind == "undo":
            table.undo(key)
        elif kind == "redo":
            table.redo_one(key)
        elif kind == "ask_undo":
            table.ask_undo(key)
        elif kind == "answer_undo":
            table.answer_undo(key, msg.get("accept"))
        elif kind == "new":
            table.new_game(key)
        elif kind == "load":
            table.load_save(key, msg.get("text"))
        elif kind == "save":
            return {"type": "save", "game": table.game.id, "text": table.save_text(key)}
        elif kind == "seek":
            return self.seek(msg.get("index"))
        elif kind == "now":
            return self.live()
        else:
            raise Refusal(f"unknown message type {json.dumps(kind)[:40]}")
        return None

    def _seat(self, state) -> int | None:
        """The seat a page shows: its own, in hot-seat the human seat deciding now, none for an onlooker."""
        seats = self.table.seats_of(self.key)
        return next((s for s in state.to_act if s in seats), seats[0]) if seats else None

    def page(self) -> dict:
        """What a page is told of its link: hot-seat, its seats, and what its buttons may do."""
        table, key = self.table, self.key
        seats = table.seats_of(key)
        host = table.is_host(key)
        may = {"undo": host, "ask_undo": table.can_ask_undo(key), "answer_undo": bool(table.to_answer(key))}
        return {"hotseat": len(seats) > 1, "seats": seats, "host": host, "spectator": not seats, "may": may}

    def live(self) -> dict:
        message = self.table.message_for(self._seat(self.table.state))
        message.update(self.page())
        return message

    def seek(self, index) -> dict:
        """The game as it was after ``index`` actions, drawings included, seen by this page's seat (the
        history slider)."""
        total = len(self.table.state.actions)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= total:
            raise Refusal(f"seek needs a step 0…{total}")
        state, trails = self.table.past(index)
        message = self.table.message_for(self._seat(state), state, trails)
        message.update(type="past", index=index, total=total, **self.page())
        return message

    def reply_to(self, text: str | None) -> dict | None:
        """The answer to one frame from the page: its reply, or the one-line error it caused."""
        try:
            if text is None:
                raise Refusal("binary frames are refused: send JSON as text")
            if len(text) > MAX_MESSAGE:
                raise Refusal("message too long")
            try:
                msg = json.loads(text)
            except ValueError:
                raise Refusal("not JSON") from None
            return self.handle(msg)
        except Refusal as exc:
            return {"type": "error", "message": str(exc)}
        except (TabletopError, RecursionError) as exc:
            return {"type": "error", "message": str(exc).splitlines()[0] if str(exc) else "refused"}

    async def run(self, ws: WebSocket) -> None:
        """Push every new version of the table to the page, and answer its frames, until it leaves."""

        async def push() -> None:
            while True:
                version = self.table.version
                await ws.send_text(json.dumps(self.live()))
                while self.table.version == version:  # polled: pages may live on other event loops (test clients)
                    await asyncio.sleep(PUSH_EVERY)

        pusher = asyncio.create_task(push())
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                reply = self.reply_to(frame.get("text"))
                if reply is not None:
                    await ws.send_text(json.dumps(reply))
        except WebSocketDisconnect:  # the page left while it was sent a reply
            pass
        finally:
            pusher.cancel()


def _routes(lobby: Lobby) -> list:
    async def index(request: Request) -> Response:
        lobby_page = lobby.creating and not request.query_params.get("key")
        return FileResponse(STATIC / ("lobby.html" if lobby_page else "index.html"), headers=NO_STORE)

    async def games(request: Request) -> Response:
        from engine.load.catalogue import list_games

        shown = ("id", "name", "description", "players", "variants")
        listed = [{k: g[k] for k in shown} for g in list_games() if not g["problem"]]
        return JSONResponse(listed if lobby.creating else [])

    async def create(request: Request) -> Response:
        try:
            body = await request.body()
            if len(body) > 10_000:
                raise Refusal("request too long")
            try:
                asked = json.loads(body)
            except ValueError:
                raise Refusal("not JSON") from None
            table = lobby.create(asked)
        except Refusal as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(links(table, str(request.base_url)))

    async def socket(ws: WebSocket) -> None:
        key = ws.query_params.get("key", "")
        await ws.accept()
        try:
            table = lobby.find(key)
        except Refusal as exc:
            await ws.send_json({"type": "error", "message": str(exc)})
            await ws.close(code=4403)
            return
        await Session(table, key).run(ws)

    return [
        Route("/", index),
        Route("/games", games),
        Route("/tables", create, methods=["POST"]),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]


def create_app(tables: Table | Lobby, watch: bool = True) -> Starlette:
    """The ASGI app serving one table or a lobby of them; ``watch`` polls the rule files and reloads on change."""
    lobby = tables if isinstance(tables, Lobby) else Lobby(creating=False)
    if isinstance(tables, Table):
        lobby.add(tables)

    async def watcher() -> None:
        while True:
            await asyncio.sleep(RELOAD_EVERY)
            for table in list(lobby.tables.values()):
                table.reload_if_changed()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(watcher()) if watch else None
        yield
        if task is not None:
            task.cancel()

    return Starlette(routes=_routes(lobby), lifespan=lifespan)


def link_lines(table: Table, base: str) -> list[str]:
    """The links to print: the whole table (hot-seat, undo), one per human seat, the onlookers'."""
    found = links(table, base)
    out = [f"table (hot-seat, every human seat): {found['host']}"]
    out += [f"seat {seat} only: {link}" for seat, link in found["seats"].items()]
    return out + [f"onlookers (what is public): {found['spectator']}"]


def base_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}/"


def serve(tables: Table | Lobby, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run a table or a lobby until interrupted, printing the table's links (or the lobby's address) first."""
    import uvicorn

    base = base_url(host, port)
    if isinstance(tables, Table):
        lines = link_lines(tables, base)
    else:
        lines = [f"lobby (create tables, get their links): {base}"] + tables.problems
        lines += [f"table {i} ({t.game.id}): {line}" for i, t in tables.tables.items() for line in link_lines(t, base)]
    for line in lines:
        print(line, flush=True)
    uvicorn.run(create_app(tables), host=host, port=port, log_level="warning")
