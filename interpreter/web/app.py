"""The web application of `meeple serve` (Starlette): the pages, their assets (all served from the package,
nothing fetched from elsewhere) and a small JSON API.

    GET  /                      the games and a form for a new table
    GET  /t/TOKEN               a seat's table page (each person seat has its own unguessable token)
    GET  /api/games             the games served: name, title, player counts
    POST /api/tables            a new table: {game, players, seed, seats: ["person" | BOT, …]} → the seats' links
    GET  /api/seat/TOKEN        the seat's page as JSON (`?since=TAG`: 204 while it is unchanged)
    POST /api/seat/TOKEN/act    {action: N}: the seat's answer → its page

A bad request gets a status and `{"error": message}`; nothing a request sends shows a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .tables import BadTable, Tables, etag, sitters_of

if TYPE_CHECKING:
    from ..game import Game

STATIC = Path(__file__).resolve().parent / "static"
MOST_BODY = 64 * 1024  # a request body past this is refused (a table's form is a few hundred bytes)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or an HTTP 400/413 that says what is wrong with it."""
    raw = b""
    async for chunk in request.stream():  # read no further than the limit
        raw += chunk
        if len(raw) > MOST_BODY:
            raise HTTPException(413, f"the request body is larger than {MOST_BODY} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise HTTPException(400, "the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return data


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise HTTPException(400, f"`{key}` must be a whole number")
    return value


def create_app(games: dict[str, Game]) -> Starlette:
    """The application serving `games` (by name): only these, loaded before the server starts."""
    tables = Tables()

    def seat_of(token: str) -> Any:
        found = tables.find(token)
        if found is None:
            raise HTTPException(404, "no such seat: the link is wrong, or its table has closed")
        return found

    def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    def table_page(request: Request) -> Response:
        seat_of(request.path_params["token"])
        return FileResponse(STATIC / "table.html")

    def list_games(request: Request) -> Response:
        return JSONResponse([{"name": name, "title": g.title, "min": g.min_players, "max": g.max_players,
                              "default": g.default_players} for name, g in games.items()])

    async def new_table(request: Request) -> Response:
        data = await _body(request)
        name = data.get("game")
        if not isinstance(name, str) or name not in games:
            raise HTTPException(400, f"`game` must be one of: {', '.join(games)}")
        game = games[name]
        players, seed = _int(data, "players", game.default_players), _int(data, "seed", 0)
        try:
            game.check_players(players)
            sitters = sitters_of(game, players, data.get("seats"))
        except (ValueError, BadTable) as err:
            raise HTTPException(400, str(err)) from None
        table = await _threaded(tables.open, game, players, seed, sitters)
        links = {str(seat): f"/t/{token}" for token, seat in table.tokens.items()}
        return JSONResponse({"seats": links}, status_code=201)

    def seat_state(request: Request) -> Response:
        table, seat = seat_of(request.path_params["token"])
        with table.lock:
            body = table.page(seat)
        tag = etag(body)
        if request.query_params.get("since") == tag:
            return Response(status_code=204, headers={"ETag": tag})
        return Response(body, media_type="application/json", headers={"ETag": tag, "Cache-Control": "no-store"})

    async def act(request: Request) -> Response:
        table, seat = seat_of(request.path_params["token"])
        data = await _body(request)
        return await _threaded(_answer, table, seat, data.get("action"))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, exc.detail)

    async def internal_error(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error (please report it): {type(exc).__name__}")

    routes = [
        Route("/", page),
        Route("/t/{token}", table_page),
        Route("/api/games", list_games),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/seat/{token}", seat_state),
        Route("/api/seat/{token}/act", act, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: internal_error})


def _answer(table: Any, seat: int, action: Any) -> Response:
    with table.lock:
        problem = table.act(seat, action)
        body = table.page(seat)
    if problem is not None:
        return _error(409, problem)
    return Response(body, media_type="application/json", headers={"ETag": etag(body), "Cache-Control": "no-store"})


async def _threaded(function: Any, *args: Any) -> Any:
    """Run blocking work (a match, its bots) off the event loop."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)
