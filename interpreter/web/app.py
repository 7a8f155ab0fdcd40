"""The web application of `meeple serve` (Starlette): the pages, their assets (all served from the package,
nothing fetched from elsewhere) and a small JSON API.

    GET  /                      the games and a form for a new table
    GET  /t/TOKEN               a seat's table page (each person seat has its own unguessable token)
    GET  /api/games             the games served: name, title, player counts, mistakes of a broken save
    POST /api/tables            a new table: {game, players, seed, seats: ["person" | BOT, …]} → the seats' links
    GET  /api/seat/TOKEN        the seat's page as JSON (`?since=TAG`: 204 while it is unchanged)
    POST /api/seat/TOKEN/act    {action: N}: the seat's answer → its page
    WS   /ws/seat/TOKEN         the seat's page, sent again at every change of the table
    GET  /d/TOKEN               the table's designer page (its own token: every card; docs/serve.md)
    GET  /api/designer/TOKEN    the designer's page as JSON; POST …/act {seat, action}, …/step {count},
                                …/pause {paused}, …/rewind {to}, …/undo, …/replay (the new rules);
                                GET …/at/N (the state after N decisions), …/seat/S (seat S's page, as
                                that seat is sent it), …/log (the match log, JSON Lines)
    WS   /ws/designer/TOKEN     the designer's page, sent again at every change

A bad request gets a status and `{"error": message}`; nothing a request sends shows a traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .designer_routes import DesignerRoutes
from .tables import BadTable, Table, Tables, etag, sitters_of
from .watch import Watcher
from .wire import error, page_reply, push, read_body, threaded, whole_number

if TYPE_CHECKING:
    from ..game import Game

STATIC = Path(__file__).resolve().parent / "static"


def create_app(games: dict[str, Game], watch: float | None = None) -> Starlette:
    """The application serving `games` (by name): only these, loaded before the server starts. With `watch`,
    their folders are looked at every `watch` seconds and a changed game is loaded again (`watch.Watcher`;
    the application's `state.watcher` looks when asked)."""
    games = dict(games)
    tables = Tables()
    watcher = Watcher(games, tables)
    routes = [*SeatRoutes(games, tables, watcher).routes(), *DesignerRoutes(tables, STATIC).routes(),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if watch:
            watcher.start(watch)
        try:
            yield
        finally:
            watcher.stop()

    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _internal_error},
                    lifespan=lifespan)
    app.state.watcher = watcher
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, exc.detail)


async def _internal_error(request: Request, exc: Exception) -> Response:
    return error(500, f"internal error (please report it): {type(exc).__name__}")


class SeatRoutes:
    """The front page, the games served, a new table, and each seat's page and answers (found by the seat's
    token)."""

    def __init__(self, games: dict[str, Game], tables: Tables, watcher: Watcher) -> None:
        self.games = games
        self.tables = tables
        self.watcher = watcher

    def routes(self) -> list[BaseRoute]:
        """Every route of the front page and the seats' pages and API."""
        return [
            Route("/", self.front_page),
            Route("/t/{token}", self.table_page),
            Route("/api/games", self.list_games),
            Route("/api/tables", self.new_table, methods=["POST"]),
            Route("/api/seat/{token}", self.seat_state),
            Route("/api/seat/{token}/act", self.act, methods=["POST"]),
            WebSocketRoute("/ws/seat/{token}", self.socket),
        ]

    def seat_of(self, token: str) -> tuple[Table, int]:
        """The table and seat of a seat's token, or an HTTP 404."""
        found = self.tables.find(token)
        if found is None:
            raise HTTPException(404, "no such seat: the link is wrong, or its table has closed")
        return found

    def front_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    def table_page(self, request: Request) -> Response:
        self.seat_of(request.path_params["token"])
        return FileResponse(STATIC / "table.html")

    def list_games(self, request: Request) -> Response:
        return JSONResponse([{"name": name, "title": g.title, "min": g.min_players, "max": g.max_players,
                              "default": g.default_players, "errors": self.watcher.errors.get(name)}
                             for name, g in self.games.items()])

    async def new_table(self, request: Request) -> Response:
        data = await read_body(request)
        name = data.get("game")
        if not isinstance(name, str) or name not in self.games:
            raise HTTPException(400, f"`game` must be one of: {', '.join(self.games)}")
        game = self.games[name]
        players, seed = whole_number(data, "players", game.default_players), whole_number(data, "seed", 0)
        try:
            game.check_players(players)
            sitters = sitters_of(game, players, data.get("seats"))
        except (ValueError, BadTable) as err:
            raise HTTPException(400, str(err)) from None
        table = await threaded(self.tables.open, game, players, seed, sitters)
        links = {str(seat): f"/t/{token}" for token, seat in table.tokens.items()}
        return JSONResponse({"seats": links, "designer": f"/d/{table.designer}"}, status_code=201)

    def seat_state(self, request: Request) -> Response:
        table, seat = self.seat_of(request.path_params["token"])
        with table.lock:
            body = table.page(seat)
        tag = etag(body)
        if request.query_params.get("since") == tag:
            return Response(status_code=204, headers={"ETag": tag})
        return page_reply(body, ETag=tag)

    async def act(self, request: Request) -> Response:
        table, seat = self.seat_of(request.path_params["token"])
        data = await read_body(request)
        return await threaded(_answer, table, seat, data.get("action"))

    async def socket(self, ws: WebSocket) -> None:
        found = self.tables.find(ws.path_params["token"])
        if found is None:
            await ws.close(code=4404)
            return
        table, seat = found
        await push(ws, table, lambda: table.page(seat))


def _answer(table: Table, seat: int, action: Any) -> Response:
    with table.lock:
        problem = table.act(seat, action)
        body = table.page(seat)
    if problem is not None:
        return error(409, problem)
    return page_reply(body, ETag=etag(body))
