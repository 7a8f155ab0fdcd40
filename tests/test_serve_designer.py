"""`meeple serve`: live pages over websockets, and the designer's tools — the true match on its own page,
undo and rewind by playing again from the seed, the log's states, the match log to download, bots stepped,
and reload on save."""

import json
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from interpreter.cli import main
from interpreter.game import load_game
from interpreter.web import watch
from interpreter.web.app import create_app
from tests.serving import designer_api, open_table, seat_api, token_of

pytest_plugins = ["tests.serving"]


def test_a_seat_page_is_pushed_over_its_websocket_at_every_change(client):
    answer = open_table(client, game="hearts", players=4, seed=2, seats=["person", "person", "random", "random"])
    token0, token1 = (token_of(answer["seats"][s]) for s in ("0", "1"))
    with client.websocket_connect(f"/ws/seat/{token0}") as ws0, client.websocket_connect(f"/ws/seat/{token1}") as ws1:
        first0, first1 = ws0.receive_text(), ws1.receive_text()
        assert first0.encode() == client.get(f"/api/seat/{token0}").content  # the same bytes as the API
        page1 = json.loads(first1)
        assert page1["seat"] == 1 and page1["asked"]
        ws0.send_bytes(b"\x00\xff")  # what a browser sends over the socket is ignored
        ws0.send_text('{"action": 0}')
        client.post(f"/api/seat/{token1}/act", json={"action": page1["options"][0]["action"]})
        # seat 1 passed a card (secretly): seat 0's page changed (seat 1 is less one card) and is pushed
        pushed = json.loads(ws0.receive_text())
        assert pushed != json.loads(first0)
        assert pushed == client.get(f"/api/seat/{token0}").json()
        hand1 = set(page1["view"]["zones"]["hand@1"])
        assert not hand1 & set(_card_ids(pushed)), "seat 0 was sent a card of seat 1's hand"
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/seat/nosuchtoken") as ws:
        ws.receive_text()  # an unknown token: the socket is closed at once


def _card_ids(page):
    ids = [c for cards in page["view"]["zones"].values() if isinstance(cards, list) for c in cards
           if isinstance(c, str)]
    return ids + [o["label"] for o in page["options"]] + list(page["cards"])


def test_the_designer_page_shows_every_card_and_only_its_own_token_reaches_it(client):
    answer = open_table(client, game="go-fish", players=2, seed=3, seats=["person", "random"])
    api, token = designer_api(answer), token_of(answer["designer"])
    assert token not in answer["seats"]["0"]
    assert "designer.js" in client.get(answer["designer"]).text
    page = client.get(api).json()
    assert page["designer"] is True and page["links"] == answer["seats"]
    hand1 = page["view"]["zones"]["hand@1"]
    assert hand1 and all(isinstance(c, str) and c in page["cards"] for c in hand1)  # the bot's hand, face up
    seat_page = client.get(seat_api(answer["seats"]["0"])).content.decode()
    assert token not in seat_page and "designer" not in seat_page
    assert client.get("/api/designer/" + token_of(answer["seats"]["0"])).status_code == 404
    assert client.get("/d/nosuchtoken").status_code == 404
    assert client.get(seat_api("/t/" + token)).status_code == 404  # the designer's token is no seat's
    # the designer sees the table as any seat does: the page that seat is sent, from its handle
    assert client.get(api + "/seat/0").content == client.get(seat_api(answer["seats"]["0"])).content
    as_bot = client.get(api + "/seat/1").json()
    assert as_bot["seat"] == 1 and as_bot["view"]["zones"]["hand@1"] == [c.split("#")[0] for c in hand1]  # faces
    hand0 = as_bot["view"]["zones"]["hand@0"]
    assert hand0 and not any(isinstance(c, str) for c in hand0)  # the person's hand: backs
    for bad in ("2", "-1", "x"):
        assert client.get(api + "/seat/" + bad).status_code == 400


def _play(client, api, page, moves):
    for _ in range(moves):
        if not page["asked"]:
            break
        page = client.post(api + "/act", json={"action": page["options"][-1]["action"]}).json()
    return page


def test_undo_and_rewind_play_the_match_again_from_its_seed_and_decisions(client):
    answer = open_table(client, game="go-fish", players=2, seed=5, seats=["person", "random"])
    api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
    start = client.get(api).json()
    page = _play(client, api, start, 6)
    made = client.get(dapi).json()["decisions"]
    assert made >= 6
    # undo: back before the person's last answer, the bots paused there; the same answer gives the same page
    before_last = client.get(dapi).json()
    undone = client.post(dapi + "/undo").json()
    assert undone["paused"] and undone["decisions"] < made
    seat_now = client.get(api).json()
    assert seat_now["asked"]
    client.post(dapi + "/pause", json={"paused": False})
    again = client.post(api + "/act", json={"action": seat_now["options"][-1]["action"]}).json()
    assert again == page
    assert client.get(dapi).json()["log"] == before_last["log"]
    # rewind to the start: the first page again, byte for byte
    client.post(dapi + "/rewind", json={"to": 0})
    client.post(dapi + "/pause", json={"paused": False})
    assert client.get(api).json() == start
    for bad in ({"to": -1}, {"to": made + 100}, {"to": "3"}):
        response = client.post(dapi + "/rewind", json=bad)
        assert response.status_code == 409 and "`to` must be a decision number" in response.json()["error"]


def test_a_rewound_table_plays_on_as_it_did_whatever_the_bots_drew(client):
    # the bots' generator is put back as it was at the decision rewound to
    answer = open_table(client, game="go-fish", players=3, seed=8, seats=["person", "random", "random"])
    api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
    page = client.get(api).json()
    first = _play(client, api, page, 5)
    log = client.get(dapi).json()["log"]
    client.post(dapi + "/rewind", json={"to": 0})
    client.post(dapi + "/pause", json={"paused": False})
    second = _play(client, api, client.get(api).json(), 5)
    assert second == first and client.get(dapi).json()["log"] == log


def test_a_rewind_between_two_bot_moves_chooses_the_bots_moves_before_it_again(client):
    answer = open_table(client, game="go-fish", players=3, seed=8, seats=["person", "random", "random"])
    api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
    _play(client, api, client.get(api).json(), 5)
    log = client.get(dapi).json()["log"]
    decisions = [e for e in log if "decision" in e]
    # a decision just after a bot's, with a bot's after it too: the bots' generator must stand where it stood
    k = next(e["decision"] for e in reversed(decisions[1:-1]) if decisions[e["decision"] - 1]["bot"] and e["bot"])
    client.post(dapi + "/rewind", json={"to": k})
    client.post(dapi + "/pause", json={"paused": False})
    upto = next(i for i, e in enumerate(log) if e.get("decision", -1) > k and not e["bot"])
    assert client.get(dapi).json()["log"][:upto] == log[:upto]


def test_paused_bots_move_only_when_stepped_one_or_many(client):
    answer = open_table(client, game="go-fish", players=3, seed=1, seats=["person", "random", "random"])
    api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
    assert client.post(dapi + "/pause", json={"paused": True}).json()["paused"]
    page = client.get(api).json()
    made = client.get(dapi).json()["decisions"]
    client.post(api + "/act", json={"action": page["options"][0]["action"]})
    waiting = client.get(dapi).json()
    assert waiting["decisions"] == made + 1
    if waiting["to_act"] == [0]:  # seat 0 asks again (a book, a catch): nothing for the bots
        assert client.post(dapi + "/step", json={"count": 1}).status_code == 409
        return
    assert all(a["bot"] for a in waiting["asked"])
    one = client.post(dapi + "/step", json={"count": 1}).json()
    assert one["decisions"] == made + 2
    many = client.post(dapi + "/step", json={"count": 500}).json()
    assert many["over"] or 0 in many["to_act"]
    for bad in ({"count": 0}, {"count": "2"}, {"count": 10**9}):
        assert client.post(dapi + "/step", json=bad).status_code == 409
    assert client.post(dapi + "/pause", json={"paused": "yes"}).status_code == 409
    assert client.post(dapi + "/nonsense", json={}).status_code == 404


def test_the_designer_answers_for_any_seat_and_bad_answers_change_nothing(client):
    answer = open_table(client, game="go-fish", players=2, seed=4, seats=["person", "random"])
    dapi = designer_api(answer)
    before = client.get(dapi).content
    for body in ({"seat": 1, "action": 0}, {"seat": 0, "action": 99}, {"seat": 7, "action": 0}, {"action": 0}):
        response = client.post(dapi + "/act", json=body)
        assert response.status_code == 409 and response.json()["error"]
    assert client.post(dapi + "/act", content=b"{").status_code == 400
    assert client.get(dapi).content == before
    asked = client.get(dapi).json()["asked"][0]
    after = client.post(dapi + "/act", json={"seat": asked["seat"], "action": asked["options"][0]["action"]}).json()
    assert after["decisions"] > json.loads(before)["decisions"]


def test_the_log_shows_the_state_at_each_decision(client):
    answer = open_table(client, game="go-fish", players=2, seed=6, seats=["person", "random"])
    api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
    _play(client, api, client.get(api).json(), 3)
    page = client.get(dapi).json()
    decisions = [e for e in page["log"] if "decision" in e]
    assert [e["decision"] for e in decisions] == list(range(page["decisions"]))
    assert any(e.get("say") for e in page["log"])
    now = client.get(f"{dapi}/at/{page['decisions']}").json()
    assert now["view"] == page["view"]
    start = client.get(f"{dapi}/at/0").json()
    assert start["decisions"] == 0 and start["view"]["zones"] != page["view"]["zones"]
    assert all(c in start["cards"] for ids in start["view"]["zones"].values() for c in ids)
    assert client.get(f"{dapi}/at/{page['decisions'] + 1}").status_code == 400
    assert client.get(f"{dapi}/at/x").status_code == 400


def test_the_downloaded_log_replays_with_meeple_replay(client, tmp_path, capsys):
    answer = open_table(client, game="go-fish", players=2, seed=7, seats=["person", "random"])
    api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
    page = _play(client, api, client.get(api).json(), 3)
    path = tmp_path / "m.jsonl"
    response = client.get(dapi + "/log")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    header = json.loads(response.content.splitlines()[0])
    assert header["type"] == "match" and header["game"] == "go-fish" and header["seed"] == 7
    assert header["bots"] == ["human", "random"]
    path.write_bytes(response.content)
    assert main(["replay", str(path)]) == 1  # a match in progress: replay runs it as far as the log goes
    assert "the log ends, but the match waits for P0" in capsys.readouterr().err
    page = _play(client, api, page, 2000)
    assert page["over"]
    path.write_bytes(client.get(dapi + "/log").content)
    assert main(["replay", str(path)]) == 0, capsys.readouterr().err


GAME = """\
game: tiny
title: Tiny
players: {min: 2, max: 2}
cards: [cards.yaml]
counters:
  player:
    points: 0
zones:
  hand: {owner: player, visibility: owner}
  pile: {visibility: public}
phases:
  play: |
    let c = I choose a card from my hand "Play which card?"
    move c to pile
    add 1 to my points
    say "{me} plays {c}"
flow: {rounds: 2, turn: [play]}
result: {score: my points}
"""
CARDS = """\
cards:
  - {id: a, name: A, each_player: true, start: hand, text: The first.}
  - {id: b, name: B, each_player: true, start: hand, text: The second.}
"""


def test_reload_on_save_tells_the_designer_and_replays_the_decisions_on_the_new_rules(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(CARDS)
    game = load_game(folder)
    app = create_app({"tiny": game})
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = open_table(client, game="tiny", players=2, seed=1, seats=["person", "random"])
        api, dapi = seat_api(answer["seats"]["0"]), designer_api(answer)
        page = _play(client, api, client.get(api).json(), 1)
        made = client.get(dapi).json()["decisions"]
        assert client.post(dapi + "/replay").status_code == 409  # nothing changed yet
        # a broken save: told at its place, the table plays on by the old rules
        (folder / "game.yaml").write_text(GAME.replace("add 1 to my points", "add 1 to my pointz"))
        assert app.state.watcher.check() == ["tiny"]
        told = client.get(dapi).json()["rules"]
        assert told["errors"] and told["errors"][0].startswith("game.yaml:15:"), told
        assert str(tmp_path) not in json.dumps(told)
        assert client.get("/api/games").json()[0]["errors"] == told["errors"]  # the start page says so too
        assert client.get(api).json() == page
        # a good save: the same decisions on the new rules
        (folder / "game.yaml").write_text(GAME.replace("add 1 to my points", "add 2 to my points"))
        assert app.state.watcher.check() == ["tiny"]
        assert client.get(dapi).json()["rules"] == {"errors": None}
        assert client.get("/api/games").json()[0]["errors"] is None
        replayed = client.post(dapi + "/replay").json()
        assert replayed["rules"] is None and replayed["decisions"] == made
        assert replayed["replayed"] == f"{made} of {made} decisions played again on the new rules"
        assert replayed["view"]["counters"]["points"] == [2 * v for v in page["view"]["counters"]["points"]]
        # rules on which the decisions stop fitting: played again up to there, and told where
        _play(client, api, client.get(api).json(), 1)
        made = client.get(dapi).json()["decisions"]
        (folder / "cards.yaml").write_text(CARDS.replace("  - {id: b, name: B, each_player: true, start: hand, "
                                                         "text: The second.}\n", ""))
        assert app.state.watcher.check() == ["tiny"]
        short = client.post(dapi + "/replay").json()
        assert short["decisions"] < made and short["replayed"].startswith(f"{short['decisions']} of {made} decisions")
        assert f"decision {short['decisions'] + 1} (P" in short["replayed"] and "no longer fits" in short["replayed"]
        assert app.state.watcher.check() == []
        shutil.rmtree(folder)


def test_a_rule_failure_shows_on_the_designers_page_and_a_rewind_plays_on_before_it(tmp_path):
    from test_rule_failures import CARDS as FAILING_CARDS  # a division by zero when a player plays its card `a`
    from test_rule_failures import GAME as FAILING

    (tmp_path / "game.yaml").write_text(FAILING)
    (tmp_path / "cards.yaml").write_text(FAILING_CARDS)
    game = load_game(tmp_path)
    with TestClient(create_app({game.name: game}), raise_server_exceptions=False) as client:
        answer = open_table(client, game=game.name, players=2, seed=5, seats=["person", "person"])
        dapi = designer_api(answer)
        asked = client.get(dapi).json()["asked"][0]
        seat = asked["seat"]
        action = next(o["action"] for o in asked["options"] if o["label"] == f"a@{seat}")
        assert client.post(dapi + "/act", json={"seat": seat, "action": action}).status_code == 409
        failed = client.get(dapi).json()
        assert "division by zero" in failed["failure"] and failed["asked"] == [] and failed["decisions"] == 1
        assert client.post(dapi + "/step", json={"count": 1}).json()["error"].startswith("the match stopped")
        again = client.post(dapi + "/undo").json()
        assert again["failure"] is None and again["decisions"] == 0 and again["asked"] == [asked]


def test_new_rules_that_cannot_seat_the_table_are_refused_and_change_nothing(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(CARDS)
    app = create_app({"tiny": load_game(folder)})
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = open_table(client, game="tiny", players=2, seed=1, seats=["person", "random"])
        dapi = designer_api(answer)
        before = client.get(dapi).json()
        (folder / "game.yaml").write_text(GAME.replace("{min: 2, max: 2}", "{min: 3, max: 3}"))
        assert app.state.watcher.check() == ["tiny"]
        response = client.post(dapi + "/replay")
        assert response.status_code == 409 and "cannot seat this table" in response.json()["error"]
        assert {k: v for k, v in client.get(dapi).json().items() if k != "rules"} == \
            {k: v for k, v in before.items() if k != "rules"}


def test_an_engine_fault_on_reload_is_told_as_an_internal_error_to_report(tmp_path, monkeypatch, capsys):
    """Only an authoring error is the content's: anything else that loading raises is the engine's fault, told
    as such on the pages (the tables keep their rules) with its traceback on the server's console."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(CARDS)
    app = create_app({"tiny": load_game(folder)})

    def faulty(folder):
        raise TypeError("a fault of the engine")

    monkeypatch.setattr(watch, "load_game", faulty)
    (folder / "game.yaml").write_text(GAME.replace("add 1 to my points", "add 2 to my points"))
    assert app.state.watcher.check() == ["tiny"]
    assert app.state.watcher.errors["tiny"] == ["internal error (please report it): TypeError: a fault of the engine"]
    assert "Traceback" in capsys.readouterr().err
