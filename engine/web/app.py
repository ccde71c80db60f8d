"""The web table's routes: the page, its assets, and one websocket per open page.

A page connects with its key (from the link the server printed).  The host
key holds every human seat (hot-seat on one screen) and alone may save or
open a save (a save holds every hidden card); a seat key holds one seat.
Each change of the table is pushed to every page, each getting only its own
seat's message (``Table.message_for``).  A move names the decision it
answers (``decision_number``), so a page that is behind cannot move twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.errors import TabletopError
from engine.web.table import Refusal, Table

STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4_000_000  # characters: a save of a long game fits, a flood does not
RELOAD_EVERY = 0.5  # seconds between checks of the rule files' modification times
PUSH_EVERY = 0.05  # seconds between looks at the table's version, per page


def create_app(table: Table, watch: bool = True) -> Starlette:
    """The ASGI app serving ``table``; ``watch`` polls the rule files and reloads on change."""

    async def index(request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    def seat_for(seats: list[int]) -> int:
        """The seat a page shows: its own, or in hot-seat the human seat deciding now."""
        return next((s for s in table.state.to_act if s in seats), seats[0])

    def handle(key: str, msg) -> dict | None:
        """Carry out one request; a reply for the asker only (or None)."""
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise Refusal("a message must be a JSON object with a 'type'")
        kind = msg["type"]
        if kind == "act":
            table.act(key, msg.get("seat"), msg.get("action"), msg.get("decision_number"))
        elif kind == "undo":
            table.undo(key)
        elif kind == "redo":
            table.redo_one(key)
        elif kind == "new":
            table.new_game(key)
        elif kind == "load":
            table.load_save(key, msg.get("text"))
        elif kind == "save":
            return {"type": "save", "game": table.game.id, "text": table.save_text(key)}
        elif kind == "seek":
            return seek(key, msg.get("index"))
        elif kind == "now":
            return live(key)
        else:
            raise Refusal(f"unknown message type {json.dumps(kind)[:40]}")
        return None

    def live(key: str) -> dict:
        seats = table.seats_of(key)
        message = table.message_for(seat_for(seats))
        message.update(page(key, seats))
        return message

    def page(key: str, seats: list[int]) -> dict:
        """What a page is told of its link: hot-seat, its seats, and whether it is the host's (save, open)."""
        return {"hotseat": len(seats) > 1, "seats": seats, "host": table.is_host(key)}

    def seek(key: str, index) -> dict:
        """The game as it was after ``index`` actions, seen by this page's seat (the history slider)."""
        seats = table.seats_of(key)
        actions = table.state.actions
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= len(actions):
            raise Refusal(f"seek needs a step 0…{len(actions)}")
        state = table.replayed(actions[:index])
        seat = next((s for s in state.to_act if s in seats), seats[0])
        message = table.message_for(seat, state)
        message.update(type="past", index=index, total=len(actions), **page(key, seats))
        return message

    async def socket(ws: WebSocket) -> None:
        key = ws.query_params.get("key", "")
        await ws.accept()
        try:
            table.seats_of(key)
        except Refusal as exc:
            await ws.send_json({"type": "error", "message": str(exc)})
            await ws.close(code=4403)
            return

        async def push() -> None:
            while True:
                version = table.version
                await ws.send_text(json.dumps(live(key)))
                while table.version == version:  # polled: pages may live on other event loops (test clients)
                    await asyncio.sleep(PUSH_EVERY)

        pusher = asyncio.create_task(push())
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                try:
                    if text is None:
                        raise Refusal("binary frames are refused: send JSON as text")
                    if len(text) > MAX_MESSAGE:
                        raise Refusal("message too long")
                    try:
                        msg = json.loads(text)
                    except ValueError:
                        raise Refusal("not JSON") from None
                    reply = handle(key, msg)
                except Refusal as exc:
                    reply = {"type": "error", "message": str(exc)}
                except (TabletopError, RecursionError) as exc:
                    reply = {"type": "error", "message": str(exc).splitlines()[0] if str(exc) else "refused"}
                if reply is not None:
                    await ws.send_text(json.dumps(reply))
        except WebSocketDisconnect:  # the page left while it was sent a reply
            pass
        finally:
            pusher.cancel()

    async def watcher() -> None:
        while True:
            await asyncio.sleep(RELOAD_EVERY)
            table.reload_if_changed()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(watcher()) if watch else None
        yield
        if task is not None:
            task.cancel()

    routes = [Route("/", index), WebSocketRoute("/ws", socket), Mount("/static", StaticFiles(directory=STATIC))]
    return Starlette(routes=routes, lifespan=lifespan)


def links(table: Table, host: str, port: int) -> list[str]:
    """The links to print: the whole table (hot-seat, undo) and one per human seat."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}/"
    out = [f"table (hot-seat, every human seat): {base}?key={table.host_key}"]
    out += [f"seat {seat} only: {base}?key={key}" for seat, key in table.seat_keys.items()]
    return out


def serve(table: Table, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the table until interrupted, printing its links first."""
    import uvicorn

    for line in links(table, host, port):
        print(line, flush=True)
    uvicorn.run(create_app(table), host=host, port=port, log_level="warning")
