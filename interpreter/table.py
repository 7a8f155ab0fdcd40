"""A match at the terminal (`meeple play`): the running narration, a person's screen and prompt, the
round summaries and the final scores.

With a person at a seat, everything printed comes from what that seat may see: `Match.view(seat)`,
`action_labels(seat)`, `prompt(seat)`, the game's `say` sentences (written for every player), and the
log's other events only where they concern that seat. Without one, the narration is omniscient, but a
choice the players did not all see is still printed as hidden.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import textwrap
from collections import Counter
from typing import Any, TextIO

from .load.model import OWNER, PUBLIC
from .run.information import observed
from .run.match import Match
from .run.runtime import RuleError, seen_by
from .table_cards import HIDDEN_LABEL, Cards, back_text
from .table_words import WORDS, counted, spoken
from .visible_score import evaluate, scores_of_all, scores_seen_by, seat_state

__all__ = ["WORDS", "Cards", "InputEnded", "Quit", "Table", "counted", "spoken"]



class _SetUp(Exception):
    """Stops a match started again only to read its scores at the end of the set-up."""


class Quit(Exception):
    """The person at the prompt asked to end the match."""


class InputEnded(Exception):
    """Standard input ended while the person was being asked."""


class Style:
    """Bold headings on a terminal that wants them; plain text in a pipe (or with NO_COLOR set)."""

    def __init__(self, out: TextIO | None) -> None:
        tty = out is not None and hasattr(out, "isatty") and out.isatty()
        self.on = tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"

    def bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.on else text


_CHANGE = re.compile(r" \((?:[+-]\d+|← [^)]*)\)")


def _unmarked(block: list[str]) -> str:
    """A screen block without its change marks (`(+4)`): unchanged since the last screen if equal."""
    return _CHANGE.sub("", "\n".join(block))


def _seat_of(zone: str) -> tuple[str, int | None]:
    name, _, seat = zone.partition("@")
    return name, int(seat) if seat else None


# ---- the table: narration, screen, prompt, summaries ------------------------------------------------


class Table:
    """Prints one match as it goes. `human`: the seat a person plays (None: bots only, omniscient)."""

    def __init__(self, m: Any, out: TextIO | None, words: dict[str, str], human: int | None,
                 prompt_out: TextIO | None = None) -> None:
        self.m, self.out, self.words, self.human = m, out, words, human
        self.prompt_out = prompt_out or out or sys.stdout
        self.cards = Cards(m)
        self.style = Style(self.prompt_out)
        self.width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 120))
        self.printed = 0
        self.pending: list[dict[str, Any]] = []  # narration held until its decisions are known covered or not
        # of those, the decisions not yet covered nor printed, and the rolls not yet done (so that a sentence,
        # a roll or a decision looks at these, not at every line held: a loop of sentences is not quadratic)
        self.open_decisions: list[dict[str, Any]] = []
        self.open_rolls: list[dict[str, Any]] = []
        self.round_says: list[str] = []
        self.last_scores = self._start_scores()
        self.last_counters: dict[str, Any] | None = None
        self.names = [m.layout.player_name(p) for p in range(m.players)]
        self.whose = [words["yours"] if p == human else name for p, name in enumerate(self.names)]  # a card's owner
        self.prompts: dict[int, str] = {}
        self.last_blocks: list[list[str]] = []  # the blocks of the person's last screen
        self.decisions = 0  # decisions narrated so far
        self.seat_lines = 0  # the person's observations read so far, and the decisions among them
        self.seat_decisions: list[dict[str, Any]] = []
        self.told: list[tuple[int, str]] = []  # open decisions printed this round, a sentence may repeat them
        self.period_start: dict[str, dict[str, Any]] = {}  # lasting counters as their turn/round/deal began
        self.answered = False  # the person answered in the step being told (what follows is its doing)

    # ---- helpers
    def _print(self, text: str = "", out: TextIO | None = None) -> None:
        out = out or self.out
        if out is not None:
            print(text, file=out)

    def _wrap(self, text: str, indent: str = "", hang: str = "    ", room: int | None = None) -> list[str]:
        return textwrap.wrap(text, room or self.width, initial_indent=indent, subsequent_indent=indent + hang,
                             break_on_hyphens=False) or [indent]

    def _who(self, p: int) -> str:
        if p < 0:
            return self.words["nobody"]
        return f"{self.names[p]} ({self.words['you']})" if p == self.human else self.names[p]

    def _visible_ids(self, seat: int) -> set[str]:
        """The faces of the cards `seat` sees."""
        return {c for cards in self.m.view(seat)["zones"].values() if isinstance(cards, list)
                for c in cards if isinstance(c, str)}

    def _sees(self, seat: int, cid: str) -> bool:
        """Does `seat` see the card the full log names `cid` (that copy, not another with its face)?"""
        return seen_by(self.m.st, self.cards.index[cid]) >> seat & 1 == 1

    def _seen_by_all(self, cid: str) -> bool:
        return all(self._sees(p, cid) for p in range(self.m.players))

    def _named(self, text: str, p: int) -> bool:
        return re.search(rf"(?<![\w]){re.escape(self.names[p])}(?![\w])", text) is not None

    # ---- narration
    def asking(self, seat: int) -> None:
        """A bot is about to answer: keep its question for an omniscient narration of the answer."""
        if self.human is None:
            self.prompts[seat] = self.m.prompt(seat)

    def catch_up(self, together: bool = False) -> None:
        """Take in the log lines added since the last call; `together`: the decision was simultaneous."""
        if self.out is None:
            return
        m = self.m
        lines = m.log[self.printed:]
        self.printed = len(m.log)
        self.answered = False
        states = [i for i, line in enumerate(lines) if line["type"] == "state"]
        view = m.view(self.human if self.human is not None else 0)
        now = (max(view["deal"], 1), view["round"])  # rounds count within a deal
        for i, line in enumerate(lines):
            kind = line["type"]
            if kind == "event":
                self._event(line)
            elif kind == "decision":
                self._decision(line, together, lines[i + 1:])
            elif kind == "state":
                self._flush()
                self.told.clear()
                self._period_ends(line, now)
                at = (line.get("deal", 1), line["round"])
                last_of_round = not any((lines[j].get("deal", 1), lines[j]["round"]) == at for j in states if j > i)
                if last_of_round and (m.over or now > at):
                    self._summary(*at, state=line)
            elif kind in ("result", "error"):
                self._flush()
                if self.round_says and kind == "result":
                    self._summary(*now)  # the rules ended the match before the round's end
        self._release()
        self.out.flush()

    def _period_ends(self, line: dict[str, Any], now: tuple[int, int]) -> None:
        """A state line: the counters as its turn (and its round or deal, if over by now) ended, which is
        how the next one starts. Only public counters are kept (`table: lasting` takes no other), so
        nothing here is more than every seat saw."""
        lasting = self.m.game.lasting
        if not lasting:
            return
        counters = {name: line["counters"][name] for name in lasting}
        self.period_start["turn"] = counters
        if (line.get("deal", 1), line["round"]) != now:
            self.period_start["round"] = counters
        if line.get("deal", 1) != now[0]:
            self.period_start["deal"] = counters

    def _event(self, line: dict[str, Any]) -> None:
        event = line["event"]
        if event == "say":
            text = line["text"]
            self.round_says.append(text)
            if self._retold(text):
                return  # it only says again what a decision on the screen told (`P1 chose refuse`): once is enough
            prefix = ""
            self.open_decisions = [item for item in self.open_decisions if not item["covered"] and "out" not in item]
            for item in self.open_decisions:
                if not item["closed"] and self._named(text, item["who"]):
                    item["covered"] = True
            rolls = self.open_rolls  # the last roll held, if not done (a roll closes those before it)
            if rolls and not rolls[-1]["covered"] and "out" not in rolls[-1] \
                    and re.search(rf"(?<!\d){rolls[-1]['result']}(?!\d)", text):
                rolls[-1]["covered"] = True
                prefix = self.words["roll"].format(sides=rolls[-1]["sides"], result=rolls[-1]["result"]) + " "
            self.pending.append({"kind": "text", "text": prefix + text})
        elif event == "roll":
            self._close_rolls()
            self.pending.append({"kind": "roll", "sides": line["sides"], "result": line["result"], "covered": False,
                                 "done": False})
            self.open_rolls.append(self.pending[-1])
        elif event == "show":
            card = self.cards.name(line["card"])
            if self.human is None:
                self.pending.append({"kind": "text", "text": "  " + self.words["sees"].format(
                    who=self.names[line["to"]], card=card)})
            elif line["to"] == self.human:
                self._glimpse("  " + self.words["you_see"].format(card=card))
        elif event == "move" and self.human is not None:
            self._handed(line)
        elif event == "knock_out":
            w = self.words
            self.pending.append({"kind": "text", "text": w["knocked_out"].format(
                who=self._who(line["player"]), until=w["deal_word" if line["until"] == "deal" else "match_word"])})
        elif event == "back_in":
            who = ", ".join(self._who(p) for p in line["players"])
            self.pending.append({"kind": "text", "text": self.words["back_in"].format(who=who)})

    def _retold(self, text: str) -> bool:
        """Is this sentence `P1 refuses` right after `P1 chose refuse` was printed (before the person's
        question, which could not wait for the sentence)? Then the summary keeps it, the narration not."""
        for k, (who, label) in enumerate(self.told):
            said = re.fullmatch(rf"{re.escape(self.names[who])} (\w+)", text)
            if said and said.group(1).lower().startswith(label.lower()):
                del self.told[k]
                return True
        return False

    def _handed(self, line: dict[str, Any]) -> None:
        """A card going from one player's zone to another's, the person's on one side: what you received
        (a pass, a gift, a card taken) or gave, by name where you see the card, grouped with the cards that
        went the same way just before."""
        (source, giver), (target, taker) = _seat_of(line["from"]), _seat_of(line["to"])
        model, cid, w = self.m.game.model, line["card"], self.words
        private = [z is not None and z.visibility != PUBLIC for z in (model.zone(source), model.zone(target))]
        if giver == self.human and private[0] and not private[1] and line["face"] == "up" and not self.answered:
            # a card of yours played without a question (no choice): say so before the trick goes on
            self.pending.append({"kind": "text", "text": "  " + w["played_for_you"].format(
                card=self.cards.name(cid), zone=spoken(target))})
            return
        if giver is None or taker is None or giver == taker or self.human not in (giver, taker) or not all(private):
            return
        # a card from your own private zone is one you know; one coming to you, if you see it now
        known = giver == self.human or self._sees(self.human, cid)
        key = (giver, taker)
        last = self.pending[-1] if self.pending else None
        if last is None or last.get("handed") != key:
            last = {"kind": "text", "handed": key, "cards": [], "unknown": 0, "text": ""}
            self.pending.append(last)
        if known:
            last["cards"] = sorted([*last["cards"], cid], key=self.cards.order)  # never in the order handed
        else:
            last["unknown"] += 1
        names = Counter(self.cards.name(c) for c in last["cards"])  # in card order: copies together
        listed = ", ".join([n if k == 1 else f"{n} ×{k}" for n, k in names.items()]
                           + ([counted(last["unknown"], w["cards"])] if last["unknown"] else []))
        last["text"] = "  " + (w["you_get"].format(cards=listed, who=self._who(giver)) if taker == self.human
                               else w["you_give"].format(cards=listed, who=self._who(taker)))

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

    def _decision(self, line: dict[str, Any], together: bool, after: list[dict[str, Any]]) -> None:
        self._close_rolls()
        who, label = line["who"], line["label"]
        card = self.cards.is_card(label)
        self.decisions += 1
        played_open = card and not together and self._played_open(label, after)
        if self.human is None:
            hidden = together or (card and not self._seen_by_all(label) and not played_open)
        else:  # as the person saw it when it was made (a card it sees only later was hidden then)
            seen = self._seat_decision(self.decisions - 1)
            hidden = who != self.human and not played_open and (
                together or "label" not in seen or (card and not self.cards.is_card(seen["label"])))
        if who == self.human:
            self.answered = True
            return  # the person made it: the prompt and the answer are on the screen already
        name = self._who(who)
        if hidden:
            text = self.words["chose"].format(who=name)
        else:
            what = self.cards.name(label) if card else (self.words["none"] if label == "none" else label)
            text = self.words["chose_open"].format(who=name, what=what)
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

    def _played_open(self, cid: str, after: list[dict[str, Any]]) -> bool:
        """Did the chosen card go face up into a public zone at once (a card played to a trick)? Then
        everyone saw which card it was, even if the rules moved it on before this screen (the deal's
        last trick gathered and shuffled)."""
        for line in after:
            if line["type"] == "decision":
                return False
            if line["type"] == "event" and line["event"] == "move" and line["card"] == cid:
                zone = self.m.game.model.zone(_seat_of(line["to"])[0])
                return zone is not None and zone.visibility == PUBLIC and line["face"] == "up"
        return False

    def _seat_decision(self, k: int) -> dict[str, Any]:
        """The person's own observation of the match's decision `k` (one each, in the same order)."""
        assert self.human is not None
        lines = observed(self.m, self.human)
        for text in lines[self.seat_lines:]:
            if '"type":"decision"' in text:
                self.seat_decisions.append(json.loads(text))
        self.seat_lines = len(lines)
        return self.seat_decisions[k] if k < len(self.seat_decisions) else {}

    def _release(self) -> None:
        """Print the narration up to the first decision that a later sentence may still tell."""
        pending = self.pending
        done = 0
        for item in pending:
            if item["kind"] == "decision" and not item["covered"] and not item["closed"]:
                break
            if item["kind"] == "roll" and not item["covered"] and not item["done"]:
                break
            self._emit(item)
            done += 1
        del pending[:done]

    def _flush(self) -> None:
        """The end of a turn, a round or the match (or a question to a person): print all that waits."""
        for item in self.pending:
            self._emit(item)
        self.pending = []
        self.open_decisions, self.open_rolls = [], []

    def _emit(self, item: dict[str, Any]) -> None:
        item["out"] = True  # printed (or left out): no longer held
        if item["kind"] == "text":
            self._print(item["text"])
        elif not item["covered"]:
            if item["kind"] == "decision":
                self._print(item["text"])
                if not item["hidden"] and not self.cards.is_card(item["label"]):
                    self.told.append((item["who"], item["label"]))
            elif self.human is None:  # no sentence says whose roll it is: a person's screen leaves it out
                self._print("  " + self.words["roll_alone"].format(sides=item["sides"], result=item["result"]))

    # ---- round summaries and the end
    def _start_scores(self) -> list[Any] | None:
        """Each score as the reader may know it at the end of the set-up, before round 1's rules ran (the
        match in hand has run on to its first question): the first summary counts its change from there,
        not from 0. Worked out on a copy of the match started again from its seed and stopped there."""
        m = self.m
        if not m.game.score:
            return None
        got: list[list[Any]] = []

        def stop(started: Any) -> None:
            got.append((scores_of_all(started) if self.human is None else scores_seen_by(started, self.human))[0])
            raise _SetUp

        try:
            Match(m.game, m.players, m.seed, log=True, after_setup=stop)
        except _SetUp:
            return got[0]
        except RuleError:
            pass  # the rules fail before the first question: the match in hand says so
        return self._scores()[0]

    def _scores(self) -> tuple[list[Any], list[list[Any]]]:
        if self.human is None:
            return scores_of_all(self.m)
        return scores_seen_by(self.m, self.human)

    def _scores_at(self, state: dict[str, Any]) -> list[Any]:
        """Each score at the moment of a state line (a round's end, before the next round's first rule ran),
        as the reader may know it: with a person at a seat, only from what the zones' and counters' own
        rules show that seat then (a face-up card of a public zone, its own private zones, the counters it
        may read); anything else stands in hidden, and a score that reads it is `?`."""
        m, seat = self.m, self.human
        model, t = m.game.model, m.layout
        face_down = set(state.get("face_down", []))
        zones: dict[str, Any] = {}
        for name, lying in state["zones"].items():
            zone_def = model.zone(name)
            for owner, ids in (lying.items() if isinstance(lying, dict) else [("", lying)]):
                shown = seat is None or (zone_def is not None and (
                    (zone_def.visibility == PUBLIC) or (zone_def.visibility == OWNER and owner == str(seat))))
                cards: list[Any] = []
                for cid in ids:
                    c = self.cards.index[cid]
                    if seat is None or (shown and cid not in face_down):
                        cards.append(t.face_ids[c])
                    else:
                        back = self.back_of(c)
                        cards.append({"hidden": True, **back})
                zones[f"{name}@{owner}" if owner else name] = cards
        counters: dict[str, Any] = {}
        for name, value in state["counters"].items():
            c_def = model.counters[name]
            if seat is None or c_def.visibility == PUBLIC:
                counters[name] = value
            elif isinstance(value, list) and c_def.visibility == OWNER:
                counters[name] = [v if p == seat else None for p, v in enumerate(value)]
        view = {"zones": zones, "counters": counters, "out": state.get("out", []), "first": state["first"],
                "active": state.get("active", state["first"]), "round": state["round"], "turn": state["turn"] or 0,
                "deal": state.get("deal", 1)}
        st = seat_state(m, view)
        return [evaluate(m.game.score, st, p) for p in range(m.players)]

    def back_of(self, c: int) -> dict[str, Any]:
        """What the back of card `c` shows (its back properties), as a view gives a hidden card."""
        t = self.m.layout
        return {self.m.game.prop_names[k]: t.props[k][c] for k in t.back[c]}

    def _summary(self, deal: int, rnd: int, state: dict[str, Any] | None = None) -> None:
        """Who did what this round (the game's sentences, grouped by the player they begin with) and each
        score as the reader may know it at the round's end (`state`, its last state line; else now), with
        its change since the last summary."""
        says, self.round_says = self.round_says, []
        w = self.words
        title = w["summary"].format(round=rnd)
        if self.m.game.has_deals:
            title = f"{w['deal'].format(deal=deal)}, {title}"
        self._print(self.style.bold(f"── {title} ──"))
        own: dict[int, list[str]] = {p: [] for p in range(self.m.players)}
        general = []
        for text in says:
            p = next((p for p in range(self.m.players)
                      if re.match(rf"{re.escape(self.names[p])}(?![\w])", text)), None)
            if p is not None:
                own[p].append(text[len(self.names[p]):].strip(" :,"))
            elif not any(self._named(text, q) for q in range(self.m.players)):
                general.append(text)  # what happened to the table; a sentence naming a player inside is a header
        if general:
            for line in self._short(self._wrap("; ".join(general), "  ")):
                self._print(line)
        scores = None
        if self.m.game.score:
            scores = self._scores()[0] if state is None else self._scores_at(state)
        width = max(len(self._who(p)) for p in range(self.m.players))
        for p in range(self.m.players):
            did = "; ".join(own[p]) or "—"
            score = ""
            if scores is not None:
                value = "?" if scores[p] is None else str(scores[p])
                before = self.last_scores[p] if self.last_scores else None
                change = scores[p] - before if scores[p] is not None and before is not None else 0
                score = f"  ({w['score']} {value}" + (f", {change:+d}" if change else "") + ")"
            lines = self._short(self._wrap(f"{self._who(p):<{width}}  {did}", "  ", " " * (width + 2),
                                           room=self.width - len(score)))
            lines[-1] += score
            for line in lines:
                self._print(line)
        self.last_scores = scores

    def _short(self, lines: list[str], most: int = 2) -> list[str]:
        """At most `most` wrapped lines (a summary; the whole story is printed above it)."""
        if len(lines) <= most:
            return lines
        return [*lines[: most - 1], lines[most - 1].rstrip()[: self.width - 2] + " …"]

    def final(self) -> None:
        """The score breakdown (score and tie-breaks per seat, the winners) and the winner line."""
        m, w, out = self.m, self.words, self.out
        if out is None:
            return
        scores = m.scores
        ties = self._scores()[1]
        heads = [w["seat"], w["score"]] + [w["tiebreak"].format(n=i + 1) if len(ties[0]) > 1 else
                                            w["tiebreak"].format(n="").strip() for i in range(len(ties[0]))]
        rows = [[self._who(p), str(scores[p])] + ["?" if v is None else str(v) for v in ties[p]]
                for p in range(m.players)]
        widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]

        def row(cells: list[str]) -> str:
            return "  " + "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(cells))

        print(self.style.bold(f"── {w['final']} ──"), file=out)
        print(row(heads), file=out)
        gone = m.result().get("out", [])
        for p, cells in enumerate(rows):
            mark = f"  ← {w['winner_mark']}" if p in m.winners else f"  ({w['out']})" if p in gone else ""
            print(row(cells) + mark, file=out)
        if m.game.lowest_wins:
            print(w["lowest_wins"], file=out)
        winners = [self.names[p] for p in m.winners]
        if not winners:
            print(w["no_winner"], file=out)
        elif len(winners) == 1:
            print(f"{w['winner']}: {winners[0]}", file=out)
        else:
            print(f"{w['shared']}: {', '.join(winners)}", file=out)

    # ---- a person's screen
    def screen(self, seat: int) -> tuple[str, list[list[str]]]:
        """One screen: a heading (whose turn and round) and blocks of wrapped lines (the table, every
        player, your own cards)."""
        m, w = self.m, self.words
        view = m.view(seat)
        game = m.game
        # before a deal's first round (a pass, a bid) there is no round yet to number
        heading = [] if view["round"] < 1 else [
            w["round_of"].format(round=view["round"], rounds=game.rounds)
            if not game.flow["turn"] and not game.rounds_capped else w["round"].format(round=view["round"])]
        if game.has_deals:
            heading.insert(0, w["deal"].format(deal=view["deal"]))
        if game.flow["turn"] and view["turn"]:
            heading.append(w["turn_of"].format(turn=view["turn"], who=self._who(view["active"])))
        else:
            heading.append(w["first_player"].format(who=self._who(view["first"])))
        heading.append(w["you_are"].format(who=self.names[seat]))
        title = self.style.bold("── " + " · ".join(heading) + " ──")
        blocks: list[list[str]] = []
        counters, before = view["counters"], self.last_counters
        self.last_counters = counters
        defs = game.model.counters
        per_seat: dict[int, list[str]] = {p: [] for p in range(m.players)}
        shared: list[str] = []
        for zone, cards in view["zones"].items():
            name, owner = _seat_of(zone)
            if owner is None:
                text = self._zone(name, cards, full=True)
                if text:
                    shared.append(text)
            elif owner != seat:
                text = self._zone(name, cards, full=False, count_only=all(isinstance(c, dict) for c in cards))
                if text:
                    per_seat[owner].append(text)
        table_counters = []
        for name, value in counters.items():
            if isinstance(value, list) or not self._meant(name, value) or not self._current(name, value):
                continue
            table_counters.append(self._counter(name, value, before.get(name) if before else None, defs))
        for text in shared:
            blocks.append(self._wrap(text, "  "))
        if table_counters:
            blocks.append(self._wrap(" · ".join(table_counters), "  "))
        scores = scores_seen_by(m, seat)[0] if game.score else None
        figures = self.figures(seat, view)
        width = max(len(self._who(p)) for p in range(m.players))
        for p in range(m.players):
            parts = list(per_seat[p]) if p != seat else [
                self._zone(_seat_of(z)[0], c, full=False, count_only=True) for z, c in view["zones"].items()
                if _seat_of(z)[1] == p]
            for name, values in counters.items():
                if not isinstance(values, list):
                    continue
                old = before[name][p] if before and isinstance(before.get(name), list) else None
                if self._meant(name, values[p]) and self._current(name, values[p], p):
                    parts.append(self._counter(name, values[p], old, defs))
            parts += figures[p]
            if scores is not None:
                parts.append(f"{w['score']} {'?' if scores[p] is None else scores[p]}")
            if p in view["out"]:
                parts.append(f"({w['out']})")
            parts = [part for part in parts if part]
            glued = " · ".join(part.replace(" ", "\u00a0") for part in parts)  # a part is not split across lines
            blocks.append([line.replace("\u00a0", " ") for line in
                           self._wrap(f"{self._who(p):<{width}}  {glued}", "  ", " " * (width + 2))])
        for zone, cards in view["zones"].items():
            name, owner = _seat_of(zone)
            if owner == seat and isinstance(cards, list) and cards:
                zone_def = game.model.zone(name)
                if zone_def is not None and zone_def.visibility == OWNER:  # its order is its player's own: sorted
                    cards = sorted(cards, key=lambda c: self.cards.order(c) if isinstance(c, str) else (-1, ""))
                blocks.append(self._wrap(f"{w['your'].format(zone=spoken(name))}: {self._listing(cards, full=True)}"))
        return title, blocks

    def _zone(self, name: str, cards: Any, full: bool, count_only: bool = False) -> str:
        """A zone in a few words: `deck 7`, `hand 9`, `table: [Red], Gem 5`."""
        zone = spoken(name)
        if isinstance(cards, dict):
            return f"{zone} {cards['count']}" if cards.get("count") else ""
        if not cards:
            return ""
        if count_only:
            return f"{zone} {len(cards)}"
        if all(isinstance(c, dict) for c in cards):
            backs = Counter(back_text(c, self.whose) for c in cards if len(c) > 1)
            if not backs:
                return f"{zone} {len(cards)}"
            grouped = ", ".join(b if k == 1 else f"{b} ×{k}" for b, k in backs.items())
            return f"{zone} {len(cards)}: {grouped}"
        template = self.m.game.listings.get(name)
        if template and full:  # the game says how this zone's cards read (`table: zones`)
            return f"{zone}: " + ", ".join(self.cards.filled(template, c) if isinstance(c, str)
                                           else back_text(c, self.whose) for c in cards)
        return f"{zone}: {self._listing(cards, full, owned=full)}"

    def _listing(self, cards: list[Any], full: bool, owned: bool = False) -> str:
        """Cards by name (copies counted), hidden ones by their backs; `owned`: a card of a shared zone that
        belongs to a player (its face shows whose it is) says whose, `Gem 7 (P2)`."""
        def named(c: str) -> str:
            owner = self.cards.owner(c)
            return f"{self.cards.name(c)} ({self.whose[owner]})" if owned and owner >= 0 else self.cards.name(c)

        if full and len(cards) == 1 and isinstance(cards[0], str):
            line = self.cards.line(cards[0])
            return named(cards[0]) + line[len(self.cards.name(cards[0])):]
        names = Counter(named(c) if isinstance(c, str) else back_text(c, self.whose) for c in cards)
        return ", ".join(n if k == 1 else f"{n} ×{k}" for n, k in names.items())

    def _meant(self, name: str, value: Any) -> bool:
        """Is a counter worth a place on the screen? Not one the game's `table: hide` leaves out, not at its
        start value (a counter a rule resets each turn or round is back there once its moment is over), and
        not withheld from the seat (`?` all match long tells nothing)."""
        return value is not None and name not in self.m.game.hidden_counters \
            and value != self.m.game.model.counters[name].initial_for(self.m.players)

    def _current(self, name: str, value: Any, p: int | None = None) -> bool:
        """Does a counter the game says lasts a turn, round or deal (`table: lasting`) still mean something:
        has it changed since that turn, round or deal began? (Any other counter: yes.)"""
        period = self.m.game.lasting.get(name)
        if period is None:
            return True
        if not self.m.game.flow["turn"] and period == "turn":  # a game without turns: a round is its turn
            period = "round"
        start = self.period_start.get(period, {}).get(name)
        if start is None:
            return True  # the first turn, round or deal: its start value is the counter's own
        return value != (start[p] if p is not None and isinstance(start, list) else start)

    def figures(self, seat: int, view: dict[str, Any]) -> list[list[str]]:
        """Each player's figures the game declares (`table: figures`), as `seat` may know them: evaluated on a
        state rebuilt from its view alone (visible_score), `?` where a figure needs what it cannot see."""
        game = self.m.game
        if not game.figures:
            return [[] for _ in range(self.m.players)]
        st = seat_state(self.m, view)
        shown = []
        for p in range(self.m.players):
            values = [(label, evaluate(fn, st, p)) for label, fn in game.figures]
            shown.append([f"{label} {'?' if value is None else value}" for label, value in values])
        return shown

    def _counter(self, name: str, value: Any, old: Any, defs: dict[str, Any]) -> str:
        def shown(v: Any) -> str:
            if v is None:
                return "?"
            return self._who(v) if defs[name].type == "player" else str(v)

        text = f"{spoken(name)} {shown(value)}"
        if old is None or old == value:
            return text
        if isinstance(value, int) and isinstance(old, int) and defs[name].type != "player":
            return f"{text} ({value - old:+d})"
        # a name or a player: what it was, unless that was its start value (nothing: `led clubs (← )`)
        return f"{text} (← {shown(old)})" if self._meant(name, old) else text

    # ---- a person's question
    def option_text(self, label: str, seat: int) -> str:
        if self.cards.is_card(label):
            return self.cards.line(label)
        hidden = HIDDEN_LABEL.fullmatch(label)
        if hidden:  # `hidden card 2 of table, colour Red, owner 1`: `[Red] (P1) — card 2 of table`
            at, zone, written = hidden.groups()
            back: dict[str, Any] = {}
            for part in written.split(", ")[1:]:
                key, _, value = part.partition(" ")
                back[key] = int(value) if key == "owner" and value.lstrip("-").isdigit() else value
            name, owner = _seat_of(zone)
            where = spoken(name) if owner is None else self.words["your"].format(zone=spoken(name)) \
                if owner == seat else f"{spoken(name)} {self._who(owner)}"
            place = self.words["card_of"].format(n=at, zone=where) if at else where
            return f"{back_text(back, self.whose)} — {place}"
        if label in self.names:
            return self._who(self.names.index(label)) if self.names.index(label) == seat else label
        return self.words[label] if label in ("none", "nobody") else label

    def ask(self, seat: int, read=None) -> int:
        """Show the seat its screen and options; read a choice until it fits. Raises Quit or InputEnded."""
        self._flush()
        out, w = self.prompt_out, self.words
        read = read or sys.stdin.readline
        labels = self.m.action_labels(seat)
        title, blocks = self.screen(seat)
        before, self.last_blocks = self.last_blocks, blocks
        print("\n" + title, file=out)
        seen = {_unmarked(block) for block in before}
        kept = [block for block in blocks if _unmarked(block) not in seen]
        for block in kept:
            print("\n".join(block), file=out)
        if len(kept) < len(blocks):
            print("  " + w["as_before"].format(n=len(blocks) - len(kept)), file=out)
        print(self.style.bold(self.m.prompt(seat)), file=out)
        digits = len(str(len(labels)))
        shown = self._option_order(seat, labels)  # shown[i]: the action of the i-th option on the screen
        # a question with one option is asked all the same (being asked tells the others nothing):
        # say so, and let Enter take it
        only = "" if len(labels) > 1 else " " + w["nothing" if labels[0] in ("none", "nobody") else "only"]
        for i, label in enumerate((labels[k] for k in shown), 1):
            text = self.option_text(label, seat)
            room = self.width - digits - 6 - len(only)
            if len(text) > room:
                text = text[: room - 1] + "…"
            print(f"  {i:>{digits}}) {text}{only}", file=out)
        quits = w["quit_words"].split("|")
        infos = "|".join(re.escape(x) for x in w["info_words"].split("|"))
        while True:
            print(w["ask_one" if only else "ask"].format(k=len(labels)), end="", file=out, flush=True)
            line = read()
            if not line:
                raise InputEnded
            text = line.strip()
            if not (hasattr(sys.stdin, "isatty") and sys.stdin.isatty()):
                print(text, file=out)  # typed input is not echoed from a pipe: show it, so the story reads on
            low = text.lower()
            if low in quits:
                raise Quit
            if low in w["table_words"].split("|"):
                for block in blocks:
                    print("\n".join(block), file=out)
                continue
            if (text.isdigit() and 1 <= int(text) <= len(labels)) or (only and not text):
                return shown[int(text or 1) - 1]
            if low in ("?", "help", "h"):
                print(w["help"], file=out)
                for i, k in enumerate(shown, 1):
                    if self.cards.is_card(labels[k]):
                        self._info(labels[k], f"{i}) ")
                continue
            asked = re.fullmatch(rf"(?:\?|{infos})\s*(\d+)", low)
            if asked:
                n = int(asked.group(1))
                if 1 <= n <= len(labels) and self.cards.is_card(labels[shown[n - 1]]):
                    self._info(labels[shown[n - 1]])
                else:
                    print(w["no_card"].format(n=n), file=out)
                continue
            named = re.fullmatch(rf"(?:{infos})\s+(.+)", low)
            if named:
                self._info_by_name(named.group(1), seat)
                continue
            if text in labels:
                return labels.index(text)
            by_name = [i for i, label in enumerate(labels) if self.cards.is_card(label)
                       and self.cards.name(label).lower() == low]
            if by_name:  # copies of one card are the same choice
                return by_name[0]
            print(w["bad_choice"].format(k=len(labels)), file=out)

    def _option_order(self, seat: int, labels: list[str]) -> list[int]:
        """The options in the order the screen lists them: cards all from the seat's own private zones (a
        hand) in the game's card order, after the options that are not cards; any other question as
        asked (a row, a chain: where a card lies is part of the choice)."""
        m = self.m
        private: set[str] = set()
        for zone, cards in m.view(seat)["zones"].items():
            name, owner = _seat_of(zone)
            zone_def = m.game.model.zone(name)
            if owner == seat and zone_def is not None and zone_def.visibility == OWNER and isinstance(cards, list):
                private.update(c for c in cards if isinstance(c, str))
        cards = [i for i, label in enumerate(labels) if self.cards.is_card(label)]
        if not cards or any(labels[i] not in private for i in cards):
            return list(range(len(labels)))
        others = [i for i in range(len(labels)) if i not in set(cards)]
        return others + sorted(cards, key=lambda i: self.cards.order(labels[i]))

    def _info(self, cid: str, lead: str = "") -> None:
        for i, line in enumerate(self.cards.full(cid, self.words)):
            print((lead if i == 0 else " " * len(lead)) + line, file=self.prompt_out)

    def _info_by_name(self, name: str, seat: int) -> None:
        found = sorted({cid for cid in self._visible_ids(seat) if self.cards.name(cid).lower() == name.strip()},
                       key=self.cards.name)
        if not found:
            print(self.words["no_such_card"].format(name=name.strip()), file=self.prompt_out)
            return
        self._info(found[0])
