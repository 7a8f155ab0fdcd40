"""The tables of `meeple serve`: a match, who sits where (a person by link, or a bot), and what each seat's
page is sent.

What a seat's page gets is made by `seat_page` from that seat's handle (`Match.seat(s)`: its view,
question, labels, legal actions, information state) and from the game's content (card names and texts,
the same for every match of the game), never from the true match: two matches the seat cannot tell apart
give it byte-identical pages (`page_bytes`).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ..bots import BotNameError, check
from ..bots.lineup import HUMAN, Lineup
from ..run.runtime import RuleError
from ..table_cards import Cards

if TYPE_CHECKING:
    from ..game import Game
    from ..run.seat import Seat

PERSON = "person"  # a seat played from a browser, by its own link
MOST_TABLES = 200  # the server keeps this many tables; a new one past it lets the oldest go


class BadTable(ValueError):
    """A request for a table that cannot be set: its message says why, for the page."""


class Catalogue:
    """What a page may say of a card by the id a seat sees: its name, kind, key properties and text. It comes
    from the game's content and the player count alone (every seat may read the game's cards)."""

    def __init__(self, game: Game, players: int) -> None:
        self.cards = Cards(SimpleNamespace(layout=game.model.setup(players), game=game))

    def card(self, cid: str) -> dict[str, str] | None:
        """The card of a seen id, or None when the id names no card (an option such as `none`)."""
        if not self.cards.is_card(cid):
            return None
        index = self.cards.index[cid]
        return {"name": self.cards.name(cid), "kind": str(self.cards.defs[index].kind),
                "numbers": self.cards.numbers(cid), "text": self.cards.text(cid)}


def _ids(view: dict[str, Any], labels: list[str]) -> list[str]:
    """Every card id the seat sees, in its view's zones or among its options."""
    seen: list[str] = []
    for cards in view.get("zones", {}).values():
        if isinstance(cards, list):
            seen.extend(c for c in cards if isinstance(c, str))
    seen.extend(labels)
    return seen


def seat_page(handle: Seat, catalogue: Catalogue, title: str, sitters: list[str],
              failure: str | None = None) -> dict[str, Any]:
    """Everything the page of the handle's seat is sent: made from the handle and the game's content only.
    `sitters` says who sits where (`person` or a bot's name), as the table was set; `failure` a rule that
    failed (the match stopped)."""
    view = handle.view()
    actions, labels = handle.legal_actions(), handle.labels()
    observed = handle.information_state_json()["observed"]
    cards = {}
    for cid in _ids(view, labels):
        if cid not in cards:
            card = catalogue.card(cid)
            if card is not None:
                cards[cid] = card
    return {
        "title": title,
        "players": handle.players,
        "seat": handle.seat,
        "sitters": sitters,
        "view": view,
        "asked": bool(actions),
        "prompt": handle.prompt() if actions else "",
        "options": [{"action": a, "label": label} for a, label in zip(actions, labels, strict=True)],
        "to_act": handle.to_act(),
        "over": handle.over,
        "result": handle.result(),
        "log": [line["text"] for line in observed if line.get("event") == "say"],
        "cards": cards,
        "failure": failure,
    }


def page_bytes(page: dict[str, Any]) -> bytes:
    """A page as the server sends it: canonical JSON (sorted keys), so equal pages are equal bytes."""
    return json.dumps(page, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sitters_of(game: Game, players: int, seats: Any) -> list[str]:
    """The checked seat list of a new table: one `person` or bot name per seat, at least one person."""
    if not isinstance(seats, list) or len(seats) != players:
        raise BadTable(f"`seats` must list who sits at each of the {players} seats (`person` or a bot's name)")
    sitters = []
    for s, name in enumerate(seats):
        if not isinstance(name, str):
            raise BadTable(f"seat {s}: `person` or a bot's name, not {json.dumps(name)}")
        name = name.strip()
        if name != PERSON:
            try:
                check(name)
            except BotNameError as err:
                raise BadTable(f"seat {s}: {err}") from None
        sitters.append(name)
    if PERSON not in sitters:
        raise BadTable("seat at least one person (a table of bots alone is `meeple play`)")
    return sitters


class Table:
    """One match being played: its seats' handles, its bots, and one lock (each request waits its turn)."""

    def __init__(self, game: Game, players: int, seed: int, sitters: list[str]) -> None:
        self.game = game
        self.sitters = sitters
        self.match = game.new_match(players=players, seed=seed)
        self.handles = [self.match.seat(s) for s in range(players)]
        self.lineup = Lineup([HUMAN if name == PERSON else name for name in sitters], seed)
        self.catalogue = Catalogue(game, players)
        self.failure: str | None = None
        self.lock = threading.Lock()
        self.tokens = {secrets.token_urlsafe(16): s for s, name in enumerate(sitters) if name == PERSON}
        self._advance()

    def _advance(self) -> None:
        """Let the bots answer their questions until only people are asked (or the match ends)."""
        try:
            while not self.match.over:
                asked = [s for s in self.handles[0].to_act() if self.lineup.bots[s] is not None]
                if not asked:
                    return
                for s in asked:
                    bot = self.lineup.bots[s]
                    assert bot is not None
                    problem = self.handles[s].apply(bot.choose(self.handles[s]))
                    assert problem is None, problem
        except RuleError as err:
            self.failure = f"the game's rules failed during play: {err}"

    def page(self, seat: int) -> bytes:
        """The seat's page, as bytes."""
        return page_bytes(seat_page(self.handles[seat], self.catalogue, self.game.title, self.sitters, self.failure))

    def act(self, seat: int, action: Any) -> str | None:
        """A person's answer: None when taken (the bots then play on), else why not."""
        if self.failure is not None:
            return "the match stopped: " + self.failure
        if type(action) is not int:
            return "`action` must be one of the option numbers the page was sent"
        try:
            problem = self.handles[seat].apply(action)
        except RuleError as err:
            self.failure = f"the game's rules failed during play: {err}"
            return self.failure
        if problem is not None:
            return problem.reason
        self._advance()
        return None


def etag(body: bytes) -> str:
    """A short fingerprint of a page: a page polls with it and gets nothing new while it holds."""
    return hashlib.blake2b(body, digest_size=12).hexdigest()


class Tables:
    """The server's tables, each seat found by its own unguessable token."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seats: dict[str, tuple[Table, int]] = {}
        self._order: list[Table] = []

    def open(self, game: Game, players: int, seed: int, sitters: list[str]) -> Table:
        """A new table (the bots that act first have played)."""
        table = Table(game, players, seed, sitters)
        with self._lock:
            self._order.append(table)
            while len(self._order) > MOST_TABLES:
                old = self._order.pop(0)
                for token in old.tokens:
                    self._seats.pop(token, None)
            for token, seat in table.tokens.items():
                self._seats[token] = (table, seat)
        return table

    def find(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a seat's token, or None."""
        with self._lock:
            return self._seats.get(token)
