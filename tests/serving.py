"""What the tests of `meeple serve` share: the games served, a client of the application (the `client` fixture,
one per test module: take it in with `pytest_plugins = ["tests.serving"]`), a new table, and the API paths of a
seat's and a designer's link."""

import pytest
from starlette.testclient import TestClient

from interpreter.game import load_game
from interpreter.paths import data_dir
from interpreter.web.app import create_app

GAMES = {name: load_game(data_dir("cards") / name) for name in ("hearts", "go-fish")}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(GAMES), raise_server_exceptions=False) as c:
        yield c


def open_table(client, **body) -> dict:
    """A new table (`body`: game, players, seed, seats): the links of its person seats and of its designer."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def seat_links(client, **body) -> dict[str, str]:
    """A new table's person seats: their links by seat number."""
    return open_table(client, **body)["seats"]


def token_of(link: str) -> str:
    """The token of a seat's or a designer's link (`/t/TOKEN`, `/d/TOKEN`)."""
    return link.rsplit("/", 1)[1]


def seat_api(link: str) -> str:
    return "/api/seat/" + token_of(link)


def designer_api(answer: dict) -> str:
    return "/api/designer/" + token_of(answer["designer"])
