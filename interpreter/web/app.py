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

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .designer import designer_bytes, state_at
from .tables import BadTable, Table, Tables, etag, sitters_of
from .watch import Watcher

if TYPE_CHECKING:
    from ..game import Game

STATIC = Path(__file__).resolve().parent / "static"
MOST_BODY = 64 * 1024  # a request body past this is refused (a table's form is a few hundred bytes)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, empty: bool = False) -> dict[str, Any]:
    """The request's JSON object (with `empty`, no body at all is `{}`), or an HTTP 400/413 that says what
    is wrong with it."""
    raw = b""
    async for chunk in request.stream():  # read no further than the limit
        raw += chunk
        if len(raw) > MOST_BODY:
            raise HTTPException(413, f"the request body is larger than {MOST_BODY} bytes")
    if empty and not raw.strip():
        return {}
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


def create_app(games: dict[str, Game], watch: float | None = None) -> Starlette:
    """The application serving `games` (by name): only these, loaded before the server starts. With `watch`,
    their folders are looked at every `watch` seconds and a changed game is loaded again (`watch.Watcher`;
    the application's `state.watcher` looks when asked)."""
    games = dict(games)
    tables = Tables()
    watcher = Watcher(games, tables)

    def seat_of(token: str) -> Any:
        found = tables.find(token)
        if found is None:
            raise HTTPException(404, "no such seat: the link is wrong, or its table has closed")
        return found

    def designed(token: str) -> Table:
        table = tables.designed(token)
        if table is None:
            raise HTTPException(404, "no such table: the link is wrong, or the table has closed")
        return table

    def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    def designer_page(request: Request) -> Response:
        designed(request.path_params["token"])
        return FileResponse(STATIC / "designer.html")

    def designer_state(request: Request) -> Response:
        table = designed(request.path_params["token"])
        with table.lock:
            body = designer_bytes(table)
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def designer_do(request: Request) -> Response:
        table = designed(request.path_params["token"])
        data = await _body(request, empty=True)
        return await _threaded(_designer_do, table, request.path_params["what"], data)

    async def designer_at(request: Request) -> Response:
        table = designed(request.path_params["token"])
        try:
            upto = int(request.path_params["n"])
        except ValueError:
            upto = -1
        shown = await _threaded(_locked, table, lambda: state_at(table, upto))
        if isinstance(shown, str):
            return _error(400, shown)
        return JSONResponse(shown, headers={"Cache-Control": "no-store"})

    async def designer_seat(request: Request) -> Response:
        table = designed(request.path_params["token"])
        try:
            seat = int(request.path_params["seat"])
        except ValueError:
            seat = -1
        if not 0 <= seat < table.players:
            return _error(400, f"the seat must be a number from 0 to {table.players - 1}")
        body = await _threaded(_locked, table, lambda: table.page(seat))
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def designer_log(request: Request) -> Response:
        table = designed(request.path_params["token"])
        body = await _threaded(_locked, table, table.log_bytes)
        name = f"{table.game.name}-seed{table.seed}.jsonl"
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def seat_socket(ws: WebSocket) -> None:
        found = tables.find(ws.path_params["token"])
        if found is None:
            await ws.close(code=4404)
            return
        table, seat = found
        await _push(ws, table, lambda: table.page(seat))

    async def designer_socket(ws: WebSocket) -> None:
        table = tables.designed(ws.path_params["token"])
        if table is None:
            await ws.close(code=4404)
            return
        await _push(ws, table, lambda: designer_bytes(table))

    def table_page(request: Request) -> Response:
        seat_of(request.path_params["token"])
        return FileResponse(STATIC / "table.html")

    def list_games(request: Request) -> Response:
        return JSONResponse([{"name": name, "title": g.title, "min": g.min_players, "max": g.max_players,
                              "default": g.default_players, "errors": watcher.errors.get(name)}
                             for name, g in games.items()])

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
        return JSONResponse({"seats": links, "designer": f"/d/{table.designer}"}, status_code=201)

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
        WebSocketRoute("/ws/seat/{token}", seat_socket),
        Route("/d/{token}", designer_page),
        Route("/api/designer/{token}", designer_state),
        Route("/api/designer/{token}/at/{n}", designer_at),
        Route("/api/designer/{token}/log", designer_log),
        Route("/api/designer/{token}/seat/{seat}", designer_seat),
        Route("/api/designer/{token}/{what}", designer_do, methods=["POST"]),
        WebSocketRoute("/ws/designer/{token}", designer_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if watch:
            watcher.start(watch)
        try:
            yield
        finally:
            watcher.stop()

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: internal_error},
                    lifespan=lifespan)
    app.state.watcher = watcher
    return app


DESIGNER_ACTIONS = ("act", "step", "pause", "rewind", "undo", "replay")
MOST_STEPS = 10_000  # the most bot decisions one step asks for


def _designer_do(table: Table, what: str, data: dict[str, Any]) -> Response:
    """One of the designer's requests, the table's lock held: the designer's page after it, or a 409 that
    says why not (nothing changed)."""
    problem: str | None = None
    with table.lock:
        if what == "act":
            seat = data.get("seat")
            if type(seat) is not int or not 0 <= seat < table.players:
                problem = f"`seat` must be a seat number from 0 to {table.players - 1}"
            else:
                problem = table.act(seat, data.get("action"))
        elif what == "step":
            count = data.get("count", 1)
            if type(count) is not int or not 1 <= count <= MOST_STEPS:
                problem = f"`count` must be a whole number from 1 to {MOST_STEPS}"
            elif table.failure is not None:
                problem = "the match stopped: " + table.failure
            elif not table.step(count):
                problem = "no bot has a question to answer now"
        elif what == "pause":
            paused = data.get("paused")
            if type(paused) is not bool:
                problem = "`paused` must be true or false"
            else:
                table.pause(paused)
        elif what == "rewind":
            problem = table.rewind(data.get("to"))
        elif what == "undo":
            problem = table.undo()
        elif what == "replay":
            if table.newer is None:
                problem = "the game's rules have not changed since this table's match began (or are broken)"
            else:
                problem = table.replay_on(table.newer)
        else:
            raise HTTPException(404, f"no such designer request: {what} (one of: {', '.join(DESIGNER_ACTIONS)})")
        body = designer_bytes(table)
    if problem is not None:
        return _error(409, problem)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


def _locked(table: Table, function: Callable[[], Any]) -> Any:
    with table.lock:
        return function()


async def _push(ws: WebSocket, table: Table, page: Callable[[], bytes]) -> None:
    """Send a page over a websocket now and again whenever its table changes (a page that came out the same
    is not sent again), until the browser leaves."""
    await ws.accept()
    events = asyncio.get_running_loop()
    news: asyncio.Queue[bool] = asyncio.Queue()

    def told() -> None:
        events.call_soon_threadsafe(news.put_nowait, True)

    async def until_gone() -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass  # a page sends nothing (what it might is ignored); this waits for it to leave
        news.put_nowait(False)

    table.listen(told)
    gone = asyncio.create_task(until_gone())
    last = b""
    try:
        while True:
            body = await _threaded(_locked, table, page)
            if body != last:
                await ws.send_text(body.decode("utf-8"))
                last = body
            if not await news.get():
                return
            while not news.empty():  # several changes at once: one page
                if not news.get_nowait():
                    return
    except (WebSocketDisconnect, RuntimeError, OSError):  # the browser left while a page was being sent
        return
    finally:
        table.unlisten(told)
        gone.cancel()


def _answer(table: Table, seat: int, action: Any) -> Response:
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
