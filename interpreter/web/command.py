"""`meeple serve [GAME …] [--port P] [--host H]`: its arguments, and the server started on them."""

from __future__ import annotations

import argparse
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game


WATCH_EVERY = 0.5  # seconds between two looks at the served games' folders (reload on save)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return port


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of `meeple serve`."""
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="bundled game names or game folders to serve (default: every bundled game)")
    p.add_argument("--port", type=_port, default=8000, help="the port to listen on (default 8000; 0: any free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this computer only)")


def run(args: argparse.Namespace, game_of: Callable[[str], Game]) -> int:
    """Load the games (each an error before anything listens), then serve until Ctrl-C."""
    import uvicorn

    from ..i18n import Words
    from ..paths import bundled_games
    from .app import create_app

    games: dict[str, Game] = {}
    for name in args.games or bundled_games():
        game = game_of(name)
        games.setdefault(game.name, game)
    listening = _listen(args.host, args.port)
    port = listening.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    app = create_app(games, watch=WATCH_EVERY)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws="websockets-sansio"))
    said = Words(getattr(args, "lang", "en"))
    print(said("serve.listening", games=", ".join(games), url=f"http://{host}:{port}/"), flush=True)
    server.run(sockets=[listening])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to the address (an address the system refuses is an OSError that says which)."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as err:
        raise OSError(f"cannot listen on {host}: {err.strerror}") from None
    listening = socket.socket(family, kind, proto)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(address)
        listening.listen(2048)  # listening before the address is printed: a page asked for at once waits
    except OSError as err:
        listening.close()
        raise OSError(f"cannot listen on {host}:{port}: {err.strerror}") from None
    return listening
