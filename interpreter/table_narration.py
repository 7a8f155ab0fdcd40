"""The terminal table's running story: the match log's lines as they come, each event told through its kind in
the catalogue (run/events.py: the game's sentences, rolls, glimpses, cards handed, knock-outs) and each
decision once — held back while a later sentence may still tell it, so that nothing is said twice — with a
round summary at each round's end.

With a person at a seat, the story comes from what that seat may see: a decision as the seat observed it, a
card by name only where the seat sees it. Without one, it is omniscient, but a choice the players did not all
see is still told as hidden.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from .load.model import PUBLIC
from .run import events
from .run.information import observed
from .table_screen import Screen
from .table_summary import Summaries
from .table_teller import Teller, seat_of, wrapped
from .table_words import counted, spoken


class Narration:
    """Tells the log's new lines at each `catch_up`; what waits for a sentence is held in `pending`."""

    def __init__(self, t: Teller, summaries: Summaries, screen: Screen) -> None:
        self.t, self.summaries, self.screen = t, summaries, screen
        self.printed = 0  # log lines taken in
        self.pending: list[dict[str, Any]] = []  # narration held until its decisions are known covered or not
        # of those, the decisions not yet covered nor printed, and the rolls not yet done (so that a sentence,
        # a roll or a decision looks at these, not at every line held: a loop of sentences is not quadratic)
        self.open_decisions: list[dict[str, Any]] = []
        self.open_rolls: list[dict[str, Any]] = []
        self.prompts: dict[int, str] = {}
        self.decisions = 0  # decisions narrated so far
        self.seat_lines = 0  # the person's observations read so far, and the decisions among them
        self.seat_decisions: list[dict[str, Any]] = []
        self.told: list[tuple[int, str]] = []  # open decisions printed this round, a sentence may repeat them
        self.answered = False  # the person answered in the step being told (what follows is its doing)
        self.sizes: dict[str, int] = {}  # with a person: how many cards each zone holds at the line being told
        self.by_kind = {events.Said: self._said, events.Rolled: self._rolled, events.Shown: self._shown,
                        events.Moved: self._moved, events.SeatsChanged: self._seats}  # kinds the story tells

    def asking(self, seat: int) -> None:
        """A bot is about to answer: keep its question for an omniscient narration of the answer."""
        if self.t.human is None:
            self.prompts[seat] = self.t.m.prompt(seat)

    def catch_up(self, together: bool = False) -> None:
        """Take in the log lines added since the last call; `together`: the decision was simultaneous."""
        t = self.t
        if t.out is None:
            return
        m = t.m
        lines = m.log[self.printed:]
        self.printed = len(m.log)
        self.answered = False
        states = [i for i, line in enumerate(lines) if line["type"] == "state"]
        view = m.view(t.human if t.human is not None else 0)
        now = (max(view["deal"], 1), view["round"])  # rounds count within a deal
        if t.human is not None:
            self.sizes = _sizes_before(view, lines)
        for i, line in enumerate(lines):
            kind = line["type"]
            if kind == "event":
                told = self.by_kind.get(events.BY_NAME[line["event"]])
                if told is not None:
                    told(line)
            elif kind == "decision":
                self._decision(line, together, lines[i + 1:])
            elif kind == "state":
                self._period_ended(line, now, [lines[j] for j in states if j > i])
            elif kind in ("result", "error"):
                self.flush()
                if self.summaries.says and kind == "result":
                    self.summaries.summary(*now)  # the rules ended the match before the round's end
        self._release()
        t.out.flush()

    def _period_ended(self, line: dict[str, Any], now: tuple[int, int], later: list[dict[str, Any]]) -> None:
        """A state line (a period's end; `later`: the state lines after it in this catch-up): what was held is
        told, and the round's summary if none of `later` is of the same round and the match is over or past it."""
        self.flush()
        self.told.clear()
        self.screen.period_ends(line, now)
        at = (line.get("deal", 1), line["round"])
        last_of_round = not any((state.get("deal", 1), state["round"]) == at for state in later)
        if last_of_round and (self.t.m.over or now > at):
            self.summaries.summary(*at, state=line)

    # ---- events, each through its kind
    def _said(self, line: dict[str, Any]) -> None:
        text = events.Said.told(line, self.t)
        self.summaries.says.append(text)
        if self._retold(text):
            return  # it only says again what a decision on the screen told (`P1 chose refuse`): once is enough
        prefix = ""
        self.open_decisions = [item for item in self.open_decisions if not item["covered"] and "out" not in item]
        for item in self.open_decisions:
            if not item["closed"] and self.t.named(text, item["who"]):
                item["covered"] = True
        rolls = self.open_rolls  # the last roll held, if not done (a roll closes those before it)
        if rolls and not rolls[-1]["covered"] and "out" not in rolls[-1] \
                and re.search(rf"(?<!\d){rolls[-1]['line']['result']}(?!\d)", text):
            rolls[-1]["covered"] = True
            prefix = events.Rolled.told(rolls[-1]["line"], self.t, "mark") + " "
        said = {"kind": "text", "text": prefix + text}
        last = self.pending[-1] if self.pending else None
        if last is not None and "handed" in last and not last.get("told") and self._names_one_of(text, last["handed"]):
            # the cards just handed to or by a player are what this sentence tells (`P0 draws 2` after the draws):
            # the sentence first, then the cards, as a reader takes in what happened
            last["told"] = True
            self.pending.insert(len(self.pending) - 1, said)
            return
        self.pending.append(said)

    def _names_one_of(self, text: str, handed: tuple[Any, int]) -> bool:
        """Does the sentence name the taker, or the player who gave, of cards handed (giver or zone, taker)?"""
        return any(isinstance(p, int) and self.t.named(text, p) for p in handed)

    def _rolled(self, line: dict[str, Any]) -> None:
        self._close_rolls()
        self.pending.append({"kind": "roll", "line": line, "covered": False, "done": False})
        self.open_rolls.append(self.pending[-1])

    def _shown(self, line: dict[str, Any]) -> None:
        if self.t.human is None:
            self.pending.append({"kind": "text", "text": "  " + events.Shown.told(line, self.t)})
        elif line["to"] == self.t.human:
            self._glimpse("  " + events.Shown.told(line, self.t))

    def _seats(self, line: dict[str, Any]) -> None:
        self.pending.append({"kind": "text", "text": events.SeatsChanged.told(line, self.t)})

    def _retold(self, text: str) -> bool:
        """Is this sentence `P1 refuses` right after `P1 chose refuse` was printed (before the person's
        question, which could not wait for the sentence)? Then the summary keeps it, the narration not."""
        for k, (who, label) in enumerate(self.told):
            said = re.fullmatch(rf"{re.escape(self.t.names[who])} (\w+)", text)
            if said and said.group(1).lower().startswith(label.lower()):
                del self.told[k]
                return True
        return False

    def _moved(self, line: dict[str, Any]) -> None:
        """A card going from one player's zone to another's, the person's on one side: what you received
        (a pass, a gift, a card taken) or gave; or from a hidden zone of no player into yours (a card dealt or
        fished); by name where you see the card, grouped with the cards that went the same way just before."""
        t = self.t
        if t.human is None:
            return
        before = self.sizes.get(line["to"], 0)  # cards in the zone the card goes to, before it
        self.sizes[line["from"]] = self.sizes.get(line["from"], 0) - 1
        self.sizes[line["to"]] = before + 1
        (source, giver), (target, taker) = seat_of(line["from"]), seat_of(line["to"])
        model, cid = t.m.game.model, line["card"]
        private = [z is not None and z.visibility != PUBLIC for z in (model.zone(source), model.zone(target))]
        if giver == t.human and private[0] and not private[1] and line["face"] == "up" and not self.answered:
            # a card of yours played without a question (no choice): say so before the trick goes on
            self.pending.append({"kind": "text", "text": "  " + events.Moved.told(
                {"card": cid, "zone": spoken(target)}, t, "for_you")})
            return
        if not all(private) or taker is None or giver == taker or t.human not in (giver, taker):
            return
        # a card from a zone no player owns (a hidden pile: the stock, the deck) into yours is told to you alone,
        # by name where you see it; a card handed between two players is told to both
        key = (giver if giver is not None else source, taker)
        last = self.pending[-1] if self.pending else None
        if last is None or last.get("handed") != key or last.get("told"):  # (a sentence told those: new ones apart)
            # cards dealt into an empty zone of yours are all it holds: the screen names them (a hand of 13 is
            # not listed twice over), the story counts them
            last = {"kind": "text", "handed": key, "cards": [], "unknown": 0, "text": "",
                    "whole": giver is None and taker == t.human and before == 0}
            self.pending.append(last)
        if giver == t.human or t.sees(t.human, cid):  # a card from your own private zone is one you know
            last["cards"] = sorted([*last["cards"], cid], key=t.cards.order)  # never in the order handed
        else:
            last["unknown"] += 1
        names = Counter(t.cards.name(c) for c in last["cards"])  # in card order: copies together
        listed = ", ".join([n if k == 1 else f"{n} ×{k}" for n, k in names.items()]
                           + ([counted(last["unknown"], t.words["cards"])] if last["unknown"] else []))
        if last["whole"]:
            listed = counted(len(last["cards"]) + last["unknown"], t.words["cards"])
        if giver is None:
            last["text"] = "  " + events.Moved.told({"cards": listed, "zone": spoken(source)}, t, "from_zone")
            return
        got = taker == t.human
        last["text"] = "  " + events.Moved.told({"cards": listed, "who": giver if got else taker}, t,
                                                "got" if got else "given")

    def _glimpse(self, text: str) -> None:
        """A card shown to the person: cards shown together are printed in a canonical order (by name),
        never in the order the rules went through them (a hand's kept order is its player's alone)."""
        k = len(self.pending)
        while k and self.pending[k - 1].get("glimpse"):
            k -= 1
        run = sorted([*self.pending[k:], {"kind": "text", "text": text, "glimpse": True}], key=lambda x: x["text"])
        self.pending[k:] = run

    def _close_rolls(self) -> None:
        """A roll is covered only by a sentence before the next roll or decision."""
        for item in self.open_rolls:
            item["done"] = True
        self.open_rolls = []

    # ---- decisions
    def _decision(self, line: dict[str, Any], together: bool, after: list[dict[str, Any]]) -> None:
        self._close_rolls()
        t = self.t
        who, label = line["who"], line["label"]
        self.decisions += 1
        hidden = self._hidden(who, label, together, after)
        if who == t.human:
            self.answered = True
            return  # the person made it: the prompt and the answer are on the screen already
        what = t.cards.name(label) if t.cards.is_card(label) else (t.words["none"] if label == "none" else label)
        text = events.Decided.told({"who": who, "label": what}, t, "hidden" if hidden else "open")
        question = self.prompts.pop(who, "")
        asked = " — " + question.split("?")[0] + ("?" if "?" in question else "") if question else ""
        for item in self.open_decisions:  # a later sentence may tell this secret choice, not the player's earlier
            if item["who"] == who and item["hidden"]:  # ones (one covered or printed is told already)
                item["closed"] = True
        last = self.pending[-1] if self.pending else None
        if hidden and last is not None and last.get("hidden") == text + asked and not last["covered"]:
            last["times"] += 1  # several secret picks in a row (three cards passed): one line
            last["text"] = f"  {text} ×{last['times']}{asked}"
            last["closed"] = False
            return
        self.pending.append({"kind": "decision", "who": who, "text": f"  {text}{asked}", "covered": False,
                             "closed": False, "label": label, "hidden": text + asked if hidden else None, "times": 1})
        self.open_decisions.append(self.pending[-1])

    def _hidden(self, who: int, label: str, together: bool, after: list[dict[str, Any]]) -> bool:
        """Is the decision told as hidden: a secret one, or a card not every reader saw (with a person at a
        seat: as the person saw it when it was made; a card it sees only later was hidden then)?"""
        t = self.t
        card = t.cards.is_card(label)
        played_open = card and not together and self._played_open(label, after)
        if t.human is None:
            return together or (card and not t.seen_by_all(label) and not played_open)
        seen = self._seat_decision(self.decisions - 1)
        return who != t.human and not played_open and (
            together or "label" not in seen or (card and not t.cards.is_card(seen["label"])))

    def _played_open(self, cid: str, after: list[dict[str, Any]]) -> bool:
        """Did the chosen card go face up into a public zone at once (a card played to a trick)? Then
        everyone saw which card it was, even if the rules moved it on before this screen (the deal's
        last trick gathered and shuffled)."""
        for line in after:
            if line["type"] == "decision":
                return False
            if line["type"] == "event" and events.BY_NAME[line["event"]] is events.Moved and line["card"] == cid:
                zone = self.t.m.game.model.zone(seat_of(line["to"])[0])
                return zone is not None and zone.visibility == PUBLIC and line["face"] == "up"
        return False

    def _seat_decision(self, k: int) -> dict[str, Any]:
        """The person's own observation of the match's decision `k` (one each, in the same order)."""
        assert self.t.human is not None
        lines = observed(self.t.m, self.t.human)
        for text in lines[self.seat_lines:]:
            if '"type":"decision"' in text:
                self.seat_decisions.append(json.loads(text))
        self.seat_lines = len(lines)
        return self.seat_decisions[k] if k < len(self.seat_decisions) else {}

    # ---- printing what is held
    def _release(self) -> None:
        """Print the narration up to the first decision that a later sentence may still tell."""
        done = 0
        for item in self.pending:
            if item["kind"] == "decision" and not item["covered"] and not item["closed"]:
                break
            if item["kind"] == "roll" and not item["covered"] and not item["done"]:
                break
            self._emit(item)
            done += 1
        del self.pending[:done]

    def flush(self) -> None:
        """The end of a turn, a round or the match (or a question to a person): print all that waits."""
        for item in self.pending:
            self._emit(item)
        self.pending = []
        self.open_decisions, self.open_rolls = [], []

    def _emit(self, item: dict[str, Any]) -> None:
        item["out"] = True  # printed (or left out): no longer held
        t = self.t
        if item["kind"] == "text" and "handed" in item:  # a list of cards: wrapped, each card whole
            for line in wrapped(t, item["text"].lstrip(" "), "  "):
                t.print(line)
        elif item["kind"] == "text":
            t.print(item["text"])
        elif not item["covered"]:
            if item["kind"] == "decision":
                t.print(item["text"])
                if not item["hidden"] and not t.cards.is_card(item["label"]):
                    self.told.append((item["who"], item["label"]))
            elif t.human is None:  # no sentence says whose roll it is: a person's screen leaves it out
                t.print("  " + events.Rolled.told(item["line"], t, "alone"))


def _sizes_before(view: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, int]:
    """How many cards each zone of the seat's view held before `lines` (the log's new lines) moved any: its
    size now, each card moved since put back."""
    sizes = {zone: len(cards) if isinstance(cards, list) else cards.get("count", 0)
             for zone, cards in view["zones"].items()}
    for line in lines:
        if line["type"] == "event" and events.BY_NAME[line["event"]] is events.Moved:
            sizes[line["to"]] = sizes.get(line["to"], 0) - 1
            sizes[line["from"]] = sizes.get(line["from"], 0) + 1
    return sizes
