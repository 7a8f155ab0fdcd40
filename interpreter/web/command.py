"""`meeple serve [GAME …]` as a library call: `serve(GAMES, load, host=…, port=…)` loads the games and serves the
playtest page until Ctrl-C. The command line (`interpreter/cli/authoring.py`) parses its arguments."""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game


WATCH_EVERY = 0.5  # seconds between two looks at the served games' folders (reload on save)


def serve(names: Sequence[str], game_of: Callable[[str], Game], *, host: str = "127.0.0.1", port: int = 8000,
          lang: str = "en") -> int:
    """Load the games `names` (every bundled game if none) with `game_of`, each an error before anything listens,
    then serve them on `host`:`port` (0: any free port) until Ctrl-C, the address said in `lang`; 0."""
    import uvicorn

    from ..i18n import Words
    from ..paths import bundled_games
    from .app import create_app

    games: dict[str, Game] = {}
    for name in names or bundled_games():
        game = game_of(name)
        games.setdefault(game.name, game)
    listening = _listen(host, port)
    bound = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    app = create_app(games, watch=WATCH_EVERY)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws="websockets-sansio"))
    said = Words(lang)
    print(said("serve.listening", games=", ".join(games), url=f"http://{shown}:{bound}/"), flush=True)
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
