"""The tables of `meeple serve`: a match, who sits where (a person by link, or a bot), and what each seat's
page is sent.

What a seat's page gets is made by `seat_page` from that seat's handle (`Match.seat(s)`: its view,
question, labels, legal actions, information state) and from the game's content (card names and texts,
the same for every match of the game), never from the true match: two matches the seat cannot tell apart
give it byte-identical pages (`page_bytes`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import re
import secrets
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ..bots import BotNameError, check
from ..bots.lineup import HUMAN, Lineup
from ..run.match import Match
from ..run.runtime import RuleError
from ..table_cards import Cards

if TYPE_CHECKING:
    from ..game import Game
    from ..run.seat import Seat

_SEED = re.compile(r" \(seed -?\d+, after \d+ decisions?\)$")  # the end of a rule failure's message
PERSON = "person"  # a seat played from a browser, by its own link
MOST_TABLES = 200  # the server keeps this many tables; a new one past it lets the oldest go
MOST_ITERATIONS = 20_000  # a bot seated from a page thinks at most this many iterations a move …
MOST_SECONDS = 10.0  # … or this many seconds (a table answers one request at a time)


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
                _kind, budget = check(name)
            except BotNameError as err:
                raise BadTable(f"seat {s}: {err}") from None
            if budget is not None and ((budget.iterations or 0) > MOST_ITERATIONS
                                       or (budget.seconds or 0) > MOST_SECONDS):
                raise BadTable(f"seat {s}: `{name}` thinks too long for a table: at most {MOST_ITERATIONS:,} "
                               f"iterations or {MOST_SECONDS:g} seconds a move")
        sitters.append(name)
    if PERSON not in sitters:
        raise BadTable("seat at least one person (a table of bots alone is `meeple play`)")
    return sitters


class Table:
    """One match being played: its seats' handles, its bots, and one lock (each request waits its turn).

    The match is kept with its log (the records `meeple play --log` writes). It can be rewound to any earlier
    decision: the match is played again from its seed and the decisions made before that one, and the bots
    are put back as they were there (a copy of them is kept at each decision a person made; the bots'
    decisions since are chosen again, which draws from their generators as the first time). The designer's
    page (its own token) can pause the bots, step them, answer for any seat, rewind, and replay the
    decisions on a new version of the game's rules."""

    def __init__(self, game: Game, players: int, seed: int, sitters: list[str]) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.sitters = sitters
        self.failure: str | None = None
        self.lock = threading.Lock()
        self.tokens = {secrets.token_urlsafe(16): s for s, name in enumerate(sitters) if name == PERSON}
        self.designer = secrets.token_urlsafe(16)  # the designer's page: every card, never sent to a seat
        self.paused = False  # the bots wait for the designer's steps
        self.newer: Game | None = None  # the game's files changed: the new rules, not yet played here
        self.rules_errors: list[str] | None = None  # … or what is wrong with them
        self.replayed: str | None = None  # how far the decisions went on the new rules, last time
        self._listeners: list[Callable[[], None]] = []
        self._start(game, 0, [], [])
        self._advance()

    # ---- the match, and playing it again
    def _start(self, game: Game, upto: int, decisions: list[tuple[int, int]], by_bot: list[bool]) -> int:
        """(Re)start the match of `game` from the seed and play `decisions[:upto]` again: the bots are put
        back as they were at that point. Stops at the first decision that no longer fits (new rules): the
        number of decisions played is returned."""
        names = [HUMAN if name == PERSON else name for name in self.sitters]
        kept = getattr(self, "_kept", {0: pickle.dumps(Lineup(names, self.seed))})
        self.game = game
        self.catalogue = Catalogue(game, self.players)
        self.failure = None
        self.match = Match.__new__(Match)
        try:
            Match.__init__(self.match, game, self.players, self.seed, log=True, bots=names)
        except RuleError as err:
            self.failure = f"the game's rules failed during play: {_unseeded(err)}"
            upto = 0
        self.handles = [self.match.seat(s) for s in range(self.players)]
        self.stopped: str | None = None  # why the decisions played again stopped short
        mark = max(k for k in kept if k <= upto)
        self.lineup: Lineup = pickle.loads(kept[mark])
        self._kept = {k: v for k, v in kept.items() if k <= mark}
        self.by_bot: list[bool] = []
        for i, (seat, action) in enumerate(decisions[:upto]):
            bot = self.lineup.bots[seat]
            if i >= mark and by_bot[i] and bot is not None and seat in self.match.to_act():
                with contextlib.suppress(RuleError):  # (new rules may fail in the bot's own search)
                    bot.choose(self.handles[seat])  # its generator draws as it did the first time
            try:
                problem = self.match.apply(seat, action)
            except RuleError as err:
                self._start(game, i, decisions, by_bot)  # up to the decision before which the rules failed
                self.stopped = f"decision {i + 1} (P{seat}) makes the rules fail: {_unseeded(err)}"
                return i
            if problem is not None:
                self.stopped = f"decision {i + 1} (P{seat}) no longer fits: {problem.reason}"
                return i
            self.by_bot.append(by_bot[i])
        return upto

    def _kept_now(self) -> None:
        """Keep a copy of the bots as they are now (a person answers next, or has just answered)."""
        self._kept[len(self.by_bot)] = pickle.dumps(self.lineup)

    def _apply(self, seat: int, action: int, by_bot: bool) -> str | None:
        try:
            problem = self.handles[seat].apply(action)
        except RuleError as err:
            self.failure = f"the game's rules failed during play: {err}"
            self.by_bot.append(by_bot)
            return self.failure
        if problem is not None:
            return problem.reason
        self.by_bot.append(by_bot)
        return None

    def _bots_asked(self) -> list[int]:
        if self.failure is not None or self.match.over:
            return []
        return [s for s in self.match.to_act() if self.lineup.bots[s] is not None]

    def _advance(self, most: int | None = None) -> int:
        """Let the bots answer their questions until only people are asked, the match ends, or `most`
        decisions were made (while the bots are paused, only a step moves them). Returns how many."""
        if self.paused and most is None:
            return 0
        made = 0
        while (asked := self._bots_asked()) and (most is None or made < most):
            for s in asked:
                if most is not None and made >= most:
                    break
                bot = self.lineup.bots[s]
                assert bot is not None
                try:
                    action = bot.choose(self.handles[s])
                except RuleError as err:  # the rules failed in the bot's search of what may come
                    self.failure = f"the game's rules failed during play: {_unseeded(err)}"
                    return made
                problem = self._apply(s, action, True)
                assert problem is None or self.failure is not None, problem
                made += 1
        return made

    # ---- what the pages do
    def page(self, seat: int) -> bytes:
        """The seat's page, as bytes."""
        return page_bytes(seat_page(self.handles[seat], self.catalogue, self.game.title, self.sitters, self.failure))

    def act(self, seat: int, action: Any) -> str | None:
        """A person's answer: None when taken (the bots then play on), else why not."""
        if self.failure is not None:
            return "the match stopped: " + self.failure
        if type(action) is not int:
            return "`action` must be one of the option numbers the page was sent"
        if seat not in self.match.to_act():
            return f"seat {seat} has nothing to decide now"
        self._kept_now()
        problem = self._apply(seat, action, False)
        if problem is None:
            self._kept_now()
            self._advance()
        self.changed()
        return problem

    def step(self, most: int) -> int:
        """The designer's step: up to `most` bot decisions (stopping where a person is asked)."""
        made = self._advance(most)
        if made:
            self.changed()
        return made

    def pause(self, paused: bool) -> None:
        """Pause the bots (they wait for steps) or let them play on at once."""
        self.paused = paused
        self._advance()
        self.changed()

    def rewind(self, upto: Any) -> str | None:
        """Back to just before decision `upto` (0: the start), played again from the seed; the bots pause
        there. None when done, else why not."""
        made = len(self.by_bot)
        if type(upto) is not int or not 0 <= upto <= made:
            return f"`to` must be a decision number from 0 to {made}"
        decisions, by_bot = list(self.match.history), self.by_bot
        self.paused = True
        self.replayed = None
        self._start(self.game, upto, decisions, by_bot)
        self.changed()
        return None

    def undo(self) -> str | None:
        """Back to before the last decision a person (or the designer) made, else before the last one."""
        if not self.by_bot:
            return "no decision has been made yet"
        people = [i for i, bot in enumerate(self.by_bot) if not bot]
        return self.rewind(people[-1] if people else len(self.by_bot) - 1)

    def replay_on(self, game: Game) -> str | None:
        """Play the same decisions again on a new version of the game's rules, up to the first that no
        longer fits; the bots pause there. None when done, else why not (nothing changed)."""
        try:
            game.check_players(self.players)
        except ValueError as err:
            return f"the new rules cannot seat this table: {err}"
        decisions, by_bot = list(self.match.history), self.by_bot
        self.paused = True
        self.newer, self.rules_errors = None, None
        replayed = self._start(game, len(decisions), decisions, by_bot)
        told = f"{replayed} of {len(decisions)} decisions played again on the new rules"
        self.replayed = told + (f"; {self.stopped}" if self.stopped else "")
        self.changed()
        return None

    def rules_changed(self, game: Game | None, errors: list[str] | None) -> None:
        """The game's files changed: the new rules (offered to the designer), or what is wrong with them
        (the table plays on by the old ones)."""
        self.newer, self.rules_errors = game, errors
        self.changed()

    def log_bytes(self) -> bytes:
        """The match's log as `meeple play --log` writes it (JSON Lines), replayable by `meeple replay`."""
        from ..logfile import write_log

        assert self.match.log is not None
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "match.jsonl"
            write_log(path, self.match.log, self.game)
            return path.read_bytes()

    # ---- the pages listening for changes
    def listen(self, told: Callable[[], None]) -> None:
        """Call `told()` at every change of the table (from any thread) until `unlisten`."""
        self._listeners.append(told)

    def unlisten(self, told: Callable[[], None]) -> None:
        if told in self._listeners:
            self._listeners.remove(told)

    def changed(self) -> None:
        """Tell the pages listening that the table changed."""
        for told in list(self._listeners):
            told()


def _unseeded(err: RuleError) -> str:
    return _SEED.sub("", str(err))


def etag(body: bytes) -> str:
    """A short fingerprint of a page: a page polls with it and gets nothing new while it holds."""
    return hashlib.blake2b(body, digest_size=12).hexdigest()


class Tables:
    """The server's tables, each seat found by its own unguessable token, each table's designer page by
    another."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seats: dict[str, tuple[Table, int]] = {}
        self._designers: dict[str, Table] = {}
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
                self._designers.pop(old.designer, None)
            for token, seat in table.tokens.items():
                self._seats[token] = (table, seat)
            self._designers[table.designer] = table
        return table

    def find(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a seat's token, or None."""
        with self._lock:
            return self._seats.get(token)

    def designed(self, token: str) -> Table | None:
        """The table of a designer's token, or None."""
        with self._lock:
            return self._designers.get(token)

    def of_folder(self, folder: str) -> list[Table]:
        """The open tables of the game loaded from `folder` (its `model.root`), whichever version they play."""
        with self._lock:
            return [t for t in self._order if t.game.model.root == folder]
