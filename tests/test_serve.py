"""`meeple serve`: the web API (Starlette's TestClient), and what a seat's page is sent — from its handle only."""

import json
import random
import socket

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from interpreter.cli import main
from interpreter.game import load_game
from interpreter.paths import bundled_games, data_dir
from interpreter.web.app import create_app
from interpreter.web.tables import Catalogue, page_bytes, seat_page
from tests.serving import GAMES, seat_api, seat_links

pytest_plugins = ["tests.serving"]


def test_the_start_page_lists_the_games_and_serves_its_assets(client):
    assert "A new table" in client.get("/").text
    listed = client.get("/api/games").json()
    assert {g["name"]: (g["min"], g["max"]) for g in listed} == {"hearts": (4, 4), "go-fish": (2, 5)}
    for asset in ("index.js", "table.js", "meeple.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    for page in ("index.html", "table.html"):  # nothing is fetched from another host
        text = client.get(f"/static/{page}").text
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_a_table_seats_a_person_by_link_and_the_bots_play_until_the_person_is_asked(client):
    links = seat_links(client, game="go-fish", players=3, seed=4, seats=["random", "person", "first"])
    assert list(links) == ["1"] and len(links["1"]) > len("/t/") + 16  # an unguessable token
    assert "table.js" in client.get(links["1"]).text
    api = seat_api(links["1"])
    page = client.get(api).json()
    assert page["seat"] == 1 and page["sitters"] == ["random", "person", "first"]
    assert page["to_act"] == [1] and page["asked"] and page["prompt"]
    assert page["log"], "the game's sentences so far"
    hand = page["view"]["zones"]["hand@1"]
    assert hand and all(cid in page["cards"] for cid in hand)  # the seat's cards by name and text
    assert all(card == {"hidden": True} or "hidden" in card for card in page["view"]["zones"]["hand@0"])
    # poll: nothing new while the page holds
    tag = client.get(api).headers["ETag"]
    assert client.get(api, params={"since": tag}).status_code == 204
    # answer: the bots play on until the person is asked again (or the match ends)
    for _ in range(6):
        if page["over"]:
            break
        before = len(page["log"])
        response = client.post(api + "/act", json={"action": page["options"][0]["action"]})
        assert response.status_code == 200, response.text
        page = response.json()
        assert page["over"] or page["to_act"] == [1]
        assert len(page["log"]) >= before


def test_the_same_seed_and_answers_give_the_same_pages(client):
    pages = []
    for _ in range(2):
        link = seat_links(client, game="go-fish", players=2, seed=9, seats=["person", "random"])["0"]
        api = seat_api(link)
        page = client.get(api).json()
        for _ in range(4):
            if not page["asked"]:
                break
            page = client.post(api + "/act", json={"action": page["options"][-1]["action"]}).json()
        pages.append(page)
    assert pages[0] == pages[1]


@pytest.mark.parametrize("body, status, words", [
    ({"game": "chess", "players": 2, "seats": ["person", "random"]}, 400, "`game` must be one of: hearts, go-fish"),
    ({"game": "hearts", "players": 3, "seats": ["person"] * 3}, 400, "hearts is played by 4–4 players, not 3"),
    ({"game": "go-fish", "players": "2", "seats": ["person", "random"]}, 400, "`players` must be a whole number"),
    ({"game": "go-fish", "players": 2, "seed": 1.5, "seats": ["person", "random"]}, 400, "`seed` must be"),
    ({"game": "go-fish", "players": 2, "seats": ["person"]}, 400, "`seats` must list who sits at each of the 2"),
    ({"game": "go-fish", "players": 2, "seats": ["person", "wizard"]}, 400, "seat 1: unknown bot `wizard`"),
    ({"game": "go-fish", "players": 2, "seats": ["random", "first"]}, 400, "seat at least one person"),
    ({"game": "go-fish", "players": 2, "seats": ["person", "ismcts:100000"]}, 400, "thinks too long for a table"),
    ({"game": "go-fish", "players": 2, "seats": ["person", "mc:60s"]}, 400, "at most 20,000 iterations or 10 seconds"),
])
def test_a_bad_table_request_is_a_clear_400(client, body, status, words):
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    assert words in response.json()["error"]


def test_bad_requests_get_clear_errors_and_change_nothing(client):
    answer = client.post("/api/tables", content=b"{not json").json()
    assert answer == {"error": "the request body must be a JSON object"}
    assert client.post("/api/tables", content=b"[1]").status_code == 400
    assert client.post("/api/tables", content=b" " * 70_000).status_code == 413
    assert client.get("/api/seat/nosuchtoken").status_code == 404
    assert "no such seat" in client.get("/t/nosuchtoken").json()["error"]
    assert client.get("/nowhere").status_code == 404
    link = seat_links(client, game="go-fish", players=2, seed=1, seats=["person", "random"])["0"]
    api = seat_api(link)
    before = client.get(api).content
    for action, words in ((999, ""), ("1", "`action` must be one of the option numbers"), (None, "`action` must")):
        response = client.post(api + "/act", json={"action": action})
        assert response.status_code == 409 and words in response.json()["error"]
        assert "Traceback" not in response.text
    assert client.post(api + "/act", content=b"x").status_code == 400
    assert client.get(api).content == before


def _pages(m, seat, title="Hearts"):
    return page_bytes(seat_page(m.seat(seat), Catalogue(m.game, m.players), title, ["person"] * m.players))


def test_two_matches_a_seat_cannot_tell_apart_send_it_the_same_bytes():
    hearts = GAMES["hearts"]
    # seat 2 passes other cards in the second match: seat 0 cannot tell (it passes to seat 3 and gets seat 3's)
    a, b = hearts.new_match(players=4, seed=3), hearts.new_match(players=4, seed=3)
    for m, pick in ((a, 0), (b, 5)):
        for _ in range(12):  # the three-card passes, one card a question
            seat = m.to_act()[0]
            actions = m.legal_actions(seat)
            m.apply(seat, actions[pick % len(actions)] if seat == 2 else actions[0])
    assert a.view(2) != b.view(2)
    assert a.information_state(0) == b.information_state(0)
    assert _pages(a, 0) == _pages(b, 0)
    assert _pages(a, 2) != _pages(b, 2)  # the seat that passed other cards sees it
    # a world drawn for the seat: everything hidden from it redrawn; its page is the same, byte for byte
    world = a.determinize(0, random.Random(5))
    assert world.view(1) != a.view(1)
    assert _pages(world, 0) == _pages(a, 0)


def test_a_page_says_nothing_of_another_seats_hidden_cards():
    m = GAMES["hearts"].new_match(players=4, seed=2)
    page = json.loads(_pages(m, 0))
    hands = {s: m.view(s)["zones"][f"hand@{s}"] for s in range(4)}
    assert set(page["cards"]) == set(hands[0])
    for cid in hands[1] + hands[2] + hands[3]:
        assert cid not in page["cards"] and f'"{cid}"' not in _pages(m, 0).decode()


def test_the_command_says_what_is_wrong_without_starting(capsys):
    assert main(["serve", "no-such-game"]) == 1
    assert "no game `no-such-game`" in capsys.readouterr().err
    assert main(["serve", "hearts", "--port", "70000"]) == 2
    assert "a port is a number from 0 to 65535" in capsys.readouterr().err
    assert main(["serve", "hearts", "--host", "no.such.host.invalid"]) == 1
    assert "cannot listen on no.such.host.invalid" in capsys.readouterr().err


def test_a_port_in_use_is_one_message(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "go-fish", "--port", str(port)]) == 1
    assert f"meeple serve: error: cannot listen on 127.0.0.1:{port}: Address already in use" in capsys.readouterr().err


def test_two_people_at_one_table_answer_a_simultaneous_question_each_seeing_only_their_own_cards(client):
    links = seat_links(client, game="hearts", players=4, seed=6, seats=["person", "random", "person", "random"])
    apis = {int(s): seat_api(link) for s, link in links.items()}
    assert set(apis) == {0, 2}
    pages = {s: client.get(api).json() for s, api in apis.items()}
    hands = {s: pages[s]["view"]["zones"][f"hand@{s}"] for s in apis}
    for s, other in ((0, 2), (2, 0)):
        assert pages[s]["asked"] and set(pages[s]["to_act"]) == {0, 2}  # the bots have passed: both people asked
        raw = client.get(apis[s]).text
        assert not any(f'"{cid}"' in raw for cid in hands[other]), "a page names another seat's hidden card"
    page = client.post(apis[0] + "/act", json={"action": pages[0]["options"][0]["action"]}).json()
    assert not page["asked"] and page["to_act"] == [2]  # seat 0 has passed its first card: it waits for seat 2
    assert client.post(apis[0] + "/act", json={"action": 0}).status_code == 409
    answer = client.post(apis[2] + "/act", json={"action": pages[2]["options"][0]["action"]})
    assert answer.status_code == 200 and not answer.json()["asked"]
    assert client.get(apis[0]).json()["asked"]  # the next card of its pass


@pytest.mark.slow
def test_every_bundled_game_is_played_to_its_end_from_a_page():
    """No per-game code: a person at seat 0 answers every question of a whole match of each bundled game."""
    games = {name: load_game(data_dir("cards") / name) for name in bundled_games()}
    with TestClient(create_app(games), raise_server_exceptions=False) as client:
        for name, game in games.items():
            seats = ["person"] + ["random"] * (game.default_players - 1)
            link = seat_links(client, game=name, players=game.default_players, seed=2, seats=seats)["0"]
            api = seat_api(link)
            page = client.get(api).json()
            for _ in range(5000):
                if page["over"]:
                    break
                assert page["asked"] and page["options"] and page["prompt"], name
                response = client.post(api + "/act", json={"action": page["options"][-1]["action"]})
                assert response.status_code == 200, response.text
                page = response.json()
            assert page["over"] and page["failure"] is None, name
            assert page["result"]["winners"] and len(page["result"]["scores"]) == game.default_players


def test_a_rule_failing_in_play_stops_the_table_with_its_place_on_every_page(tmp_path):
    from test_rule_failures import CARDS, GAME  # a division by zero when a player plays its card `a`

    (tmp_path / "game.yaml").write_text(GAME)
    (tmp_path / "cards.yaml").write_text(CARDS)
    game = load_game(tmp_path)
    with TestClient(create_app({game.name: game}), raise_server_exceptions=False) as client:
        links = seat_links(client, game=game.name, players=2, seed=5, seats=["person", "person"])
        apis = [seat_api(links[str(s)]) for s in (0, 1)]
        pages = [client.get(api).json() for api in apis]
        seat = next(s for s in (0, 1) if pages[s]["asked"])
        action = next(o["action"] for o in pages[seat]["options"] if o["label"] == f"a@{seat}")
        response = client.post(apis[seat] + "/act", json={"action": action})
        assert response.status_code == 409
        told = response.json()["error"]
        assert "game.yaml:18:" in told and "division by zero" in told and "seed" not in told
        for api in apis:
            page = client.get(api).json()
            assert page["failure"] == told and not page["asked"] and not page["over"]
        assert client.post(apis[seat] + "/act", json={"action": 0}).json()["error"].startswith("the match stopped")


def test_an_engine_fault_is_a_500_with_one_line_and_no_traceback(client, monkeypatch):
    from interpreter.web import tables

    link = seat_links(client, game="go-fish", players=2, seed=1, seats=["person", "random"])["0"]

    def broken(self, seat):
        raise KeyError("oops")

    monkeypatch.setattr(tables.Table, "page", broken)
    response = client.get(seat_api(link))
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (please report it): KeyError"}
