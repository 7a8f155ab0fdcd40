"""The terminal table's round summaries (who did what, each score as the reader may know it at the round's end,
with its change) and the final score table."""

from __future__ import annotations

import re
from typing import Any

from .load.model import OWNER, PUBLIC
from .run.match import Match
from .run.runtime import RuleError
from .table_teller import Teller, wrapped
from .visible_score import evaluate, scores_of_all, scores_seen_by, seat_state


class _SetUp(Exception):
    """Stops a match started again only to read its scores at the end of the set-up."""


class Summaries:
    """Keeps the round's sentences (`says`) and the scores of the last summary."""

    def __init__(self, t: Teller) -> None:
        self.t = t
        self.says: list[str] = []
        self.last_scores = self._start_scores()

    def _start_scores(self) -> list[Any] | None:
        """Each score as the reader may know it at the end of the set-up, before round 1's rules ran (the
        match in hand has run on to its first question): the first summary counts its change from there,
        not from 0. Worked out on a copy of the match started again from its seed and stopped there."""
        m, human = self.t.m, self.t.human
        if not m.game.score:
            return None
        got: list[list[Any]] = []

        def stop(started: Any) -> None:
            got.append((scores_of_all(started) if human is None else scores_seen_by(started, human))[0])
            raise _SetUp

        try:
            Match(m.game, m.players, m.seed, log=True, after_setup=stop)
        except _SetUp:
            return got[0]
        except RuleError:
            pass  # the rules fail before the first question: the match in hand says so
        return self.scores()[0]

    def scores(self) -> tuple[list[Any], list[list[Any]]]:
        """Each score and tie-break now, as the reader may know them."""
        if self.t.human is None:
            return scores_of_all(self.t.m)
        return scores_seen_by(self.t.m, self.t.human)

    def _scores_at(self, state: dict[str, Any]) -> list[Any]:
        """Each score at the moment of a state line (a round's end, before the next round's first rule ran),
        as the reader may know it: with a person at a seat, only from what the zones' and counters' own
        rules show that seat then (a face-up card of a public zone, its own private zones, the counters it
        may read); anything else stands in hidden, and a score that reads it is `?`."""
        m = self.t.m
        view = {"zones": self._zones_at(state), "counters": self._counters_at(state), "out": state.get("out", []),
                "first": state["first"], "active": state.get("active", state["first"]), "round": state["round"],
                "turn": state["turn"] or 0, "deal": state.get("deal", 1)}
        st = seat_state(m, view)
        return [evaluate(m.game.score, st, p) for p in range(m.players)]

    def _zones_at(self, state: dict[str, Any]) -> dict[str, Any]:
        """A state line's zones as the reader saw them: faces it saw, the others by their backs."""
        seat, model, t = self.t.human, self.t.m.game.model, self.t.m.layout
        face_down = set(state.get("face_down", []))
        zones: dict[str, Any] = {}
        for name, lying in state["zones"].items():
            zone_def = model.zone(name)
            for owner, ids in (lying.items() if isinstance(lying, dict) else [("", lying)]):
                shown = seat is None or (zone_def is not None and (
                    (zone_def.visibility == PUBLIC) or (zone_def.visibility == OWNER and owner == str(seat))))
                cards: list[Any] = []
                for cid in ids:
                    c = self.t.cards.index[cid]
                    if seat is None or (shown and cid not in face_down):
                        cards.append(t.face_ids[c])
                    else:
                        cards.append({"hidden": True, **self.back_of(c)})
                zones[f"{name}@{owner}" if owner else name] = cards
        return zones

    def _counters_at(self, state: dict[str, Any]) -> dict[str, Any]:
        """A state line's counters as the reader may read them."""
        seat, model = self.t.human, self.t.m.game.model
        counters: dict[str, Any] = {}
        for name, value in state["counters"].items():
            c_def = model.counters[name]
            if seat is None or c_def.visibility == PUBLIC:
                counters[name] = value
            elif isinstance(value, list) and c_def.visibility == OWNER:
                counters[name] = [v if p == seat else None for p, v in enumerate(value)]
        return counters

    def back_of(self, c: int) -> dict[str, Any]:
        """What the back of card `c` shows (its back properties), as a view gives a hidden card."""
        m = self.t.m
        return {m.game.prop_names[k]: m.layout.props[k][c] for k in m.layout.back[c]}

    def summary(self, deal: int, rnd: int, state: dict[str, Any] | None = None) -> None:
        """Who did what this round (the game's sentences, grouped by the player they begin with) and each
        score as the reader may know it at the round's end (`state`, its last state line; else now), with
        its change since the last summary."""
        t = self.t
        m, w = t.m, t.words
        title = w["summary"].format(round=rnd)
        if m.game.has_deals:
            title = f"{w['deal'].format(deal=deal)}, {title}"
        t.print(t.style.bold(f"── {title} ──"))
        general, own = self._grouped()
        if general:
            for line in self._short(wrapped(t, "; ".join(general), "  ")):
                t.print(line)
        scores = None
        if m.game.score:
            scores = self.scores()[0] if state is None else self._scores_at(state)
        width = max(len(t.who(p)) for p in range(m.players))
        for p in range(m.players):
            score = "" if scores is None else self._score(p, scores[p])
            lines = self._short(wrapped(t, f"{t.who(p):<{width}}  {'; '.join(own[p]) or '—'}", "  ",
                                        " " * (width + 2), room=t.width - len(score)))
            lines[-1] += score
            for line in lines:
                t.print(line)
        self.last_scores = scores

    def _grouped(self) -> tuple[list[str], dict[int, list[str]]]:
        """The round's sentences: those about the table, and each player's (the player's name taken off)."""
        says, self.says = self.says, []
        t = self.t
        own: dict[int, list[str]] = {p: [] for p in range(t.m.players)}
        general = []
        for text in says:
            p = next((p for p in range(t.m.players) if re.match(rf"{re.escape(t.names[p])}(?![\w])", text)), None)
            if p is not None:
                own[p].append(text[len(t.names[p]):].strip(" :,"))
            elif not any(t.named(text, q) for q in range(t.m.players)):
                general.append(text)  # what happened to the table; a sentence naming a player inside is a header
        return general, own

    def _score(self, p: int, value: Any) -> str:
        """`  (score 14, +4)`: a score and its change since the last summary."""
        before = self.last_scores[p] if self.last_scores else None
        change = value - before if value is not None and before is not None else 0
        return f"  ({self.t.words['score']} {'?' if value is None else value}" + (f", {change:+d}" if change else "") \
            + ")"

    def _short(self, lines: list[str], most: int = 2) -> list[str]:
        """At most `most` wrapped lines (a summary; the whole story is printed above it)."""
        if len(lines) <= most:
            return lines
        return [*lines[: most - 1], lines[most - 1].rstrip()[: self.t.width - 2] + " …"]

    def final(self) -> None:
        """The score breakdown (score and tie-breaks per seat, the winners) and the winner line."""
        t = self.t
        m, w = t.m, t.words
        if t.out is None:
            return
        ties = self.scores()[1]
        heads = [w["seat"], w["score"]] + [w["tiebreak"].format(n=i + 1) if len(ties[0]) > 1 else
                                            w["tiebreak"].format(n="").strip() for i in range(len(ties[0]))]
        rows = [[t.who(p), str(m.scores[p])] + ["?" if v is None else str(v) for v in ties[p]]
                for p in range(m.players)]
        widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]

        def row(cells: list[str]) -> str:
            return "  " + "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(cells))

        t.print(t.style.bold(f"── {w['final']} ──"))
        t.print(row(heads))
        gone = m.result().get("out", [])
        for p, cells in enumerate(rows):
            mark = f"  ← {w['winner_mark']}" if p in m.winners else f"  ({w['out']})" if p in gone else ""
            t.print(row(cells) + mark)
        if m.game.lowest_wins:
            t.print(w["lowest_wins"])
        winners = [t.names[p] for p in m.winners]
        if not winners:
            t.print(w["no_winner"])
        elif len(winners) == 1:
            t.print(f"{w['winner']}: {winners[0]}")
        else:
            t.print(f"{w['shared']}: {', '.join(winners)}")
