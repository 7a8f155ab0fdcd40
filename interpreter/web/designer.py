"""The designer's page of a table (`/d/TOKEN`): the true match, every card face up, for the person who set the
table — never sent to a seat's page (a seat's page is made by `tables.seat_page`, from its handle alone).

It shows the omniscient state (every zone's cards, which lie face down, every counter), every seat's
question with its options, the match's log (each decision with who made it, and the game's sentences),
the bots' mode (playing on, or paused for steps), the seats' links, and what changed in the game's files.
`state_at` gives the state after any number of the decisions made, played again from the seed (the
log's preview on hover).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..run.flow import snapshot
from ..run.match import replay
from .tables import PERSON, Catalogue, page_bytes

if TYPE_CHECKING:
    from ..run.match import Match
    from .tables import Table

MOST_LOG = 2000  # the designer's log keeps the last entries past this many


def true_view(m: Match) -> dict[str, Any]:
    """Every zone's cards (`zone@seat` for a seat's own zone, as a seat's view names them), the cards lying
    face down, every counter, and where the match is."""
    line = snapshot(m.st, True)
    zones: dict[str, list[str]] = {}
    for name, cards in line["zones"].items():
        if isinstance(cards, dict):
            for seat, ids in cards.items():
                zones[f"{name}@{seat}"] = ids
        else:
            zones[name] = cards
    return {"deal": line.get("deal", 0), "round": line["round"], "turn": line["turn"] or 0, "zones": zones,
            "face_down": line["face_down"], "counters": line["counters"], "out": line.get("out", [])}


def _cards(catalogue: Catalogue, view: dict[str, Any], labels: list[str]) -> dict[str, Any]:
    cards: dict[str, Any] = {}
    for cid in [c for ids in view["zones"].values() for c in ids] + labels:
        if cid not in cards:
            card = catalogue.card(cid)
            if card is not None:
                cards[cid] = card
    return cards


def _log(m: Match, by_bot: list[bool]) -> list[dict[str, Any]]:
    """The decisions (number, who, what, by a bot or not) and the game's sentences (with how many decisions
    had been made when said), in order."""
    entries: list[dict[str, Any]] = []
    made = 0
    for record in m.log or []:
        kind = record.get("type")
        if kind == "decision":
            entries.append({"decision": made, "seat": record["who"], "label": record["label"],
                            "bot": made < len(by_bot) and by_bot[made]})
            made += 1
        elif kind == "event" and record.get("event") == "say":
            entries.append({"say": record["text"], "at": made})
        elif kind == "error":
            entries.append({"say": record["message"], "at": made})
    return entries[-MOST_LOG:]


def designer_page(table: Table) -> dict[str, Any]:
    """Everything the designer's page is sent (the table's lock held)."""
    m = table.match
    view = true_view(m)
    asked = []
    labels: list[str] = []
    if table.failure is None and not m.over:
        for seat in m.to_act():
            seat_labels = m.action_labels(seat)
            labels += seat_labels
            asked.append({"seat": seat, "prompt": m.prompt(seat), "bot": table.sitters[seat] != PERSON,
                          "options": [{"action": a, "label": label}
                                      for a, label in zip(m.legal_actions(seat), seat_labels, strict=True)]})
    links = {str(seat): f"/t/{token}" for token, seat in table.tokens.items()}
    rules: dict[str, list[str] | None] | None = None
    if table.rules_errors is not None:
        rules = {"errors": table.rules_errors}
    elif table.newer is not None:
        rules = {"errors": None}
    return {
        "designer": True, "title": table.game.title, "game": table.game.name, "players": table.players,
        "seed": table.seed, "sitters": table.sitters, "links": links, "view": view, "asked": asked,
        "to_act": [] if table.failure is not None else m.to_act(), "over": m.over,
        "result": m.result() if m.over else None, "log": _log(m, table.by_bot), "decisions": len(table.by_bot),
        "cards": _cards(table.catalogue, view, labels), "paused": table.paused, "failure": table.failure,
        "rules": rules, "replayed": table.replayed,
    }


def designer_bytes(table: Table) -> bytes:
    return page_bytes(designer_page(table))


def state_at(table: Table, upto: Any) -> dict[str, Any] | str:
    """The true state after the first `upto` decisions (played again from the seed), with the cards it
    shows; or why not."""
    made = len(table.by_bot)
    if type(upto) is not int or not 0 <= upto <= made:
        return f"the decision number must be from 0 to {made}"
    m = replay(table.game, table.players, table.seed, table.match.history[:upto])
    view = true_view(m)
    return {"decisions": upto, "view": view, "cards": _cards(table.catalogue, view, [])}
