"""A person's screen at the terminal table: a heading (deal, round, whose turn) and blocks of wrapped lines —
the shared zones, the table's counters, each player's zones, counters, figures and score as the seat may
know them, and the seat's own cards — all from the seat's view."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .load.model import OWNER
from .table_cards import back_text
from .table_teller import Teller, glued_whole, seat_of, wrapped
from .table_words import spoken
from .visible_score import evaluate, scores_seen_by, seat_state


class Screen:
    """Builds a seat's screens; keeps the counters of the last one (a change is marked: `(+4)`) and the
    lasting counters as their turn, round or deal began (`table: lasting`)."""

    def __init__(self, t: Teller) -> None:
        self.t = t
        self.last_counters: dict[str, Any] | None = None
        self.period_start: dict[str, dict[str, Any]] = {}
        self.round = 0  # the round of the screen being built (0: before a deal's first round)
        # counters that only open others to every seat (`public_while`): a switch of the rules, no figure
        self.switches = {c.public_while for c in t.m.game.model.counters.values() if c.public_while}

    def period_ends(self, line: dict[str, Any], now: tuple[int, int]) -> None:
        """A state line: the counters as its turn (and its round or deal, if over by now) ended, which is
        how the next one starts. Only public counters are kept (`table: lasting` takes no other), so
        nothing here is more than every seat saw."""
        lasting = self.t.m.game.lasting
        if not lasting:
            return
        counters = {name: line["counters"][name] for name in lasting}
        self.period_start["turn"] = counters
        if (line.get("deal", 1), line["round"]) != now:
            self.period_start["round"] = counters
        if line.get("deal", 1) != now[0]:
            self.period_start["deal"] = counters

    def screen(self, seat: int) -> tuple[str, list[list[str]]]:
        """One screen: a heading (whose turn and round) and blocks of wrapped lines (the table, every
        player, your own cards)."""
        t = self.t
        view = t.m.view(seat)
        before, self.last_counters = self.last_counters, view["counters"]
        self.round = view["round"]
        title = t.style.bold("── " + " · ".join(self._heading(seat, view)) + " ──")
        blocks: list[list[str]] = []
        for zone, cards in view["zones"].items():
            name, owner = seat_of(zone)
            text = self._zone(name, cards, full=True) if owner is None else ""
            if text:
                blocks.append(self._wrap(text, "  "))
        table_counters = [self._counter(name, value, before.get(name) if before else None)
                          for name, value in view["counters"].items()
                          if not isinstance(value, list) and self._meant(name, value) and self._current(name, value)]
        if table_counters:
            blocks.append(t.wrap(" · ".join(table_counters), "  "))
        blocks += self._players(seat, view, before)
        blocks += self._own(seat, view)
        return title, blocks

    def _heading(self, seat: int, view: dict[str, Any]) -> list[str]:
        w, game = self.t.words, self.t.m.game
        # before a deal's first round (a pass, a bid) there is no round yet to number
        heading = [] if view["round"] < 1 else [
            w["round_of"].format(round=view["round"], rounds=game.rounds)
            if not game.flow["turn"] and not game.rounds_capped else w["round"].format(round=view["round"])]
        if game.has_deals:
            heading.insert(0, w["deal"].format(deal=view["deal"]))
        if game.flow["turn"] and view["turn"]:
            heading.append(w["turn_of"].format(turn=view["turn"], who=self.t.who(view["active"])))
        else:
            heading.append(w["first_player"].format(who=self.t.who(view["first"])))
        heading.append(w["you_are"].format(who=self.t.names[seat]))
        return heading

    def _players(self, seat: int, view: dict[str, Any], before: dict[str, Any] | None) -> list[list[str]]:
        """A block per player: its zones (counts, backs), counters, declared figures, score, whether out."""
        t = self.t
        m, w = t.m, t.words
        per_seat: dict[int, list[str]] = {p: [] for p in range(m.players)}
        for zone, cards in view["zones"].items():
            name, owner = seat_of(zone)
            if owner is not None:
                count_only = owner == seat or all(isinstance(c, dict) for c in cards)
                per_seat[owner].append(self._zone(name, cards, full=False, count_only=count_only))
        scores = scores_seen_by(m, seat)[0] if m.game.score else None
        figures = self.figures(seat, view)
        width = max(len(t.who(p)) for p in range(m.players))
        blocks = []
        for p in range(m.players):
            parts = per_seat[p]
            for name, values in view["counters"].items():
                if not isinstance(values, list):
                    continue
                old = before[name][p] if before and isinstance(before.get(name), list) else None
                if self._meant(name, values[p]) and self._current(name, values[p], p):
                    parts.append(self._counter(name, values[p], old))
            parts += figures[p]
            if scores is not None:
                parts.append(f"{w['score']} {'?' if scores[p] is None else scores[p]}")
            if p in view["out"]:
                parts.append(f"({w['out']})")
            glued = " · ".join(glued_whole(part, t.width - width - 4) for part in parts if part)
            blocks.append(self._wrap(f"{t.who(p):<{width}}  {glued}", "  ", " " * (width + 2)))
        return blocks

    def _own(self, seat: int, view: dict[str, Any]) -> list[list[str]]:
        """The seat's own cards, zone by zone; a private zone's in the game's card order."""
        t = self.t
        blocks = []
        for zone, cards in view["zones"].items():
            name, owner = seat_of(zone)
            if owner == seat and isinstance(cards, list) and cards:
                zone_def = t.m.game.model.zone(name)
                if zone_def is not None and zone_def.visibility == OWNER:  # its order is its player's own: sorted
                    cards = sorted(cards, key=lambda c: t.cards.order(c) if isinstance(c, str) else (-1, ""))
                blocks.append(self._wrap(f"{t.words['your'].format(zone=spoken(name))}: "
                                         f"{self.listing(cards, full=True)}"))
        return blocks

    def _wrap(self, text: str, indent: str = "", hang: str = "    ") -> list[str]:
        return wrapped(self.t, text, indent, hang)

    def _zone(self, name: str, cards: Any, full: bool, count_only: bool = False) -> str:
        """A zone in a few words: `deck 7`, `hand 9`, `table: [Red], Gem 5`."""
        t = self.t
        zone = spoken(name)
        if isinstance(cards, dict):
            return f"{zone} {cards['count']}" if cards.get("count") else ""
        if not cards:
            return ""
        if count_only:
            return f"{zone} {len(cards)}"
        if all(isinstance(c, dict) for c in cards):
            backs = Counter(back_text(c, t.whose) for c in cards if len(c) > 1)
            if not backs:
                return f"{zone} {len(cards)}"
            grouped = ", ".join(b if k == 1 else f"{b} ×{k}" for b, k in backs.items())
            return f"{zone} {len(cards)}: {grouped}"
        template = t.m.game.listings.get(name)
        if template and full:  # the game says how this zone's cards read (`table: zones`)
            return f"{zone}: " + ", ".join(t.cards.filled(template, c) if isinstance(c, str)
                                           else back_text(c, t.whose) for c in cards)
        return f"{zone}: {self.listing(cards, full, owned=full)}"

    def listing(self, cards: list[Any], full: bool, owned: bool = False) -> str:
        """Cards by name (copies counted), hidden ones by their backs; `owned`: a card of a shared zone that
        belongs to a player (its face shows whose it is) says whose, `Gem 7 (P2)`."""
        t = self.t

        def named(c: str) -> str:
            owner = t.cards.owner(c)
            return f"{t.cards.name(c)} ({t.whose[owner]})" if owned and owner >= 0 else t.cards.name(c)

        if full and len(cards) == 1 and isinstance(cards[0], str):
            line = t.cards.line(cards[0])
            return named(cards[0]) + line[len(t.cards.name(cards[0])):]
        names = Counter(named(c) if isinstance(c, str) else back_text(c, t.whose) for c in cards)
        return ", ".join(n if k == 1 else f"{n} ×{k}" for n, k in names.items())

    def _meant(self, name: str, value: Any) -> bool:
        """Is a counter worth a place on the screen? Not one the game's `table: hide` leaves out, nor a switch
        that opens other counters (`public_while`: what it opens shows), not at its start value (a counter a
        rule resets each turn or round is back there once its moment is over), and not withheld from the seat
        (`?` all match long tells nothing)."""
        game = self.t.m.game
        return value is not None and name not in game.hidden_counters and name not in self.switches \
            and value != game.model.counters[name].initial_for(self.t.m.players)

    def _current(self, name: str, value: Any, p: int | None = None) -> bool:
        """Does a counter still mean something: not one a rule resets each round while no round is on (before
        a deal's first round: a pass, a bid), where it holds what the last deal's last round left; and one the
        game says lasts a turn, round or deal (`table: lasting`) only if it has changed since that began."""
        game = self.t.m.game
        if self.round < 1 and game.model.counters[name].reset == "round":
            return False
        period = game.lasting.get(name)
        if period is None:
            return True
        if not game.flow["turn"] and period == "turn":  # a game without turns: a round is its turn
            period = "round"
        start = self.period_start.get(period, {}).get(name)
        if start is None:
            return True  # the first turn, round or deal: its start value is the counter's own
        return value != (start[p] if p is not None and isinstance(start, list) else start)

    def figures(self, seat: int, view: dict[str, Any]) -> list[list[str]]:
        """Each player's figures the game declares (`table: figures`), as `seat` may know them: evaluated on a
        state rebuilt from its view alone (visible_score), `?` where a figure needs what it cannot see."""
        m = self.t.m
        if not m.game.figures:
            return [[] for _ in range(m.players)]
        st = seat_state(m, view)
        shown = []
        for p in range(m.players):
            values = [(label, evaluate(fn, st, p)) for label, fn in m.game.figures]
            shown.append([f"{label} {'?' if value is None else value}" for label, value in values])
        return shown

    def _counter(self, name: str, value: Any, old: Any) -> str:
        kind = self.t.m.game.model.counters[name].type

        def shown(v: Any) -> str:
            if v is None:
                return "?"
            return self.t.who(v) if kind == "player" else str(v)

        text = f"{spoken(name)} {shown(value)}"
        if old is None or old == value:
            return text
        if isinstance(value, int) and isinstance(old, int) and kind != "player":
            return f"{text} ({value - old:+d})"
        # a name or a player: what it was, unless that was its start value (nothing: `led clubs (← )`)
        return f"{text} (← {shown(old)})" if self._meant(name, old) else text
