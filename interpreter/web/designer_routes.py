"""The designer's routes of `meeple serve` (`/d/TOKEN`, `/api/designer/TOKEN/…`, `/ws/designer/TOKEN`): each
found by the table's designer token, which no seat is given. What the page shows is made by `designer.py`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from .designer import designer_bytes, state_at
from .tables import Table, Tables
from .wire import error, locked, page_reply, path_number, push, read_body, threaded

MOST_STEPS = 10_000  # the most bot decisions one step asks for


def _act(table: Table, data: dict[str, Any]) -> str | None:
    seat = data.get("seat")
    if type(seat) is not int or not 0 <= seat < table.players:
        return f"`seat` must be a seat number from 0 to {table.players - 1}"
    return table.act(seat, data.get("action"))


def _step(table: Table, data: dict[str, Any]) -> str | None:
    count = data.get("count", 1)
    if type(count) is not int or not 1 <= count <= MOST_STEPS:
        return f"`count` must be a whole number from 1 to {MOST_STEPS}"
    if table.failure is not None:
        return "the match stopped: " + table.failure
    if not table.step(count):
        return "no bot has a question to answer now"
    return None


def _pause(table: Table, data: dict[str, Any]) -> str | None:
    paused = data.get("paused")
    if type(paused) is not bool:
        return "`paused` must be true or false"
    table.pause(paused)
    return None


def _rewind(table: Table, data: dict[str, Any]) -> str | None:
    return table.rewind(data.get("to"))


def _undo(table: Table, data: dict[str, Any]) -> str | None:
    return table.undo()


def _replay(table: Table, data: dict[str, Any]) -> str | None:
    if table.newer is None:
        return "the game's rules have not changed since this table's match began (or are broken)"
    return table.replay_on(table.newer)


DESIGNER_REQUESTS: dict[str, Callable[[Table, dict[str, Any]], str | None]] = {
    "act": _act, "step": _step, "pause": _pause, "rewind": _rewind, "undo": _undo, "replay": _replay,
}
"""Each POST request of the designer: it changes the table and returns None, or returns why not (nothing changed)."""


def designer_do(table: Table, what: str, data: dict[str, Any]) -> Response:
    """One of the designer's requests, the table's lock held: the designer's page after it, or a 409 that
    says why not (nothing changed)."""
    request = DESIGNER_REQUESTS.get(what)
    if request is None:
        raise HTTPException(404, f"no such designer request: {what} (one of: {', '.join(DESIGNER_REQUESTS)})")
    with table.lock:
        problem = request(table, data)
        body = designer_bytes(table)
    if problem is not None:
        return error(409, problem)
    return page_reply(body)


class DesignerRoutes:
    """The designer's handlers over the open tables."""

    def __init__(self, tables: Tables, static: Path) -> None:
        self.tables = tables
        self.static = static

    def routes(self) -> list[BaseRoute]:
        """Every route of the designer's page and API."""
        return [
            Route("/d/{token}", self.page),
            Route("/api/designer/{token}", self.state),
            Route("/api/designer/{token}/at/{n}", self.at),
            Route("/api/designer/{token}/log", self.log),
            Route("/api/designer/{token}/seat/{seat}", self.seat),
            Route("/api/designer/{token}/{what}", self.do, methods=["POST"]),
            WebSocketRoute("/ws/designer/{token}", self.socket),
        ]

    def designed(self, token: str) -> Table:
        """The table of a designer token, or an HTTP 404."""
        table = self.tables.designed(token)
        if table is None:
            raise HTTPException(404, "no such table: the link is wrong, or the table has closed")
        return table

    def page(self, request: Request) -> Response:
        self.designed(request.path_params["token"])
        return FileResponse(self.static / "designer.html")

    def state(self, request: Request) -> Response:
        table = self.designed(request.path_params["token"])
        with table.lock:
            body = designer_bytes(table)
        return page_reply(body)

    async def do(self, request: Request) -> Response:
        table = self.designed(request.path_params["token"])
        data = await read_body(request, empty=True)
        return await threaded(designer_do, table, request.path_params["what"], data)

    async def at(self, request: Request) -> Response:
        table = self.designed(request.path_params["token"])
        upto = path_number(request, "n")
        shown = await threaded(locked, table, lambda: state_at(table, upto))
        if isinstance(shown, str):
            return error(400, shown)
        return JSONResponse(shown, headers={"Cache-Control": "no-store"})

    async def seat(self, request: Request) -> Response:
        table = self.designed(request.path_params["token"])
        seat = path_number(request, "seat")
        if not 0 <= seat < table.players:
            return error(400, f"the seat must be a number from 0 to {table.players - 1}")
        return page_reply(await threaded(locked, table, lambda: table.page(seat)))

    async def log(self, request: Request) -> Response:
        table = self.designed(request.path_params["token"])
        body = await threaded(locked, table, table.log_bytes)
        name = f"{table.game.name}-seed{table.seed}.jsonl"
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def socket(self, ws: WebSocket) -> None:
        table = self.tables.designed(ws.path_params["token"])
        if table is None:
            await ws.close(code=4404)
            return
        await push(ws, table, lambda: designer_bytes(table))
