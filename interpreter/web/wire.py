"""What the web application's handlers share on the wire: reading a request's JSON body within a size limit, the
error reply, a page sent as JSON, blocking work run off the event loop, and a page pushed over a websocket at
every change of its table."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect

if TYPE_CHECKING:
    from .tables import Table

MOST_BODY = 64 * 1024  # a request body past this is refused (a table's form is a few hundred bytes)


def error(status: int, message: str) -> JSONResponse:
    """The reply to a bad request: its status and `{"error": message}`."""
    return JSONResponse({"error": message}, status_code=status)


def page_reply(body: bytes, **headers: str) -> Response:
    """A page already made as JSON bytes, never cached (`headers`: any more to send)."""
    return Response(body, media_type="application/json", headers={**headers, "Cache-Control": "no-store"})


async def read_body(request: Request, empty: bool = False) -> dict[str, Any]:
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


def whole_number(data: dict[str, Any], key: str, default: int | None = None) -> int:
    """`data[key]` (else `default`) when it is a whole number, else an HTTP 400 naming the key."""
    value = data.get(key, default)
    if type(value) is not int:
        raise HTTPException(400, f"`{key}` must be a whole number")
    return value


def path_number(request: Request, name: str) -> int:
    """A number in the request's path, -1 for one that is not a number (the handler says what is allowed)."""
    try:
        return int(request.path_params[name])
    except ValueError:
        return -1


def locked(table: Table, function: Callable[[], Any]) -> Any:
    """`function()` with the table's lock held."""
    with table.lock:
        return function()


async def threaded(function: Any, *args: Any) -> Any:
    """Run blocking work (a match, its bots) off the event loop."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)


async def push(ws: WebSocket, table: Table, page: Callable[[], bytes]) -> None:
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
            body = await threaded(locked, table, page)
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
