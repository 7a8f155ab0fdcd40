"""The resolved shape of a game: zones, counters, properties and cards, numbered for fast play."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Anchor, Pos

BUILTIN_PROPS = ("id", "name", "kind", "owner")

# Who sees a zone's face-up cards.
PUBLIC, OWNER, HIDDEN = 0, 1, 2
VISIBILITY = {"public": PUBLIC, "owner": OWNER, "hidden": HIDDEN}
# What a counter may hold, by the word written in game.yaml (`type:`), as DSL types.
COUNTER_TYPES = {"number": "num", "player": "player", "text": "str"}
# The types a procedure parameter may declare, by the word written in game.yaml.
PARAM_TYPES = {"num": "num", "number": "num", "bool": "bool", "text": "str", "card": "card",
               "cards": "cards", "zone": "zone", "player": "player", "players": "players"}


def kind_of(value: Any) -> str:
    """How a property value reads to an author: a whole number, text, true/false or a list."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, list):
        return "a list"
    return "text"


@dataclass(slots=True)
class ZoneDef:
    name: str
    per_player: bool
    visibility: int
    face_up: bool
    limit: int
    pos: Pos


@dataclass(slots=True)
class CounterDef:
    name: str
    per_player: bool
    initial: int
    reset: str
    floor: int | None
    index: int
    pos: Pos
    type: str = "num"  # num | player | str
    visibility: int = PUBLIC  # who sees its value: everyone, its player (a player counter), nobody
    public_while: str = ""  # a counter that, while not 0, makes this one public (a reveal the rules make)
    by_players: dict[int, int] | None = None  # `initial` written as an expression: its value at each player count

    def initial_for(self, n: int) -> Any:
        """The value the counter starts with (and resets to) when `n` play."""
        return self.initial if self.by_players is None else self.by_players[n]


@dataclass(slots=True)
class CardDef:
    id: str
    name: str
    kind: str
    count: int
    each_player: bool
    start: str
    back: list[str]
    props: dict[str, Any]
    abilities: dict[str, tuple[str, Anchor, str]]  # name -> (DSL text, where it starts, YAML path text)
    pos: Pos
    text: str = ""


@dataclass(slots=True)
class Setup:
    """The numbered layout of a game at one player count; shared by every match at that count."""

    n: int
    card_ids: list[str]
    card_names: list[str]
    card_def: list[int]
    props: tuple[list, ...]
    start_zones: list[list[int]]
    start_zone_of: list[int]
    start_face: list[bool]
    zone_names: list[str]
    zone_owner: list[int]
    zone_face: list[bool]
    zone_vis: list[int]
    zone_limit: list[int]
    zone_def: list[int]
    game_counters: list[int]
    player_counters: list[int]
    orders: list[tuple[int, ...]]
    back: list[tuple[int, ...]]
    # What a seat is shown of a card: its definition's id (and the seat of a card each player has), never
    # which copy it is. Copies of one card share it; `card_ids` (the copies apart) is for the full log.
    face_ids: list[str]
    seat_tables: dict[int, tuple] = field(default_factory=dict)  # by the bit mask of seats out: `seats(out)`

    def player_name(self, p: int) -> str:
        """How a seat is written in logs."""
        return f"P{p}" if p >= 0 else "nobody"

    def seats(self, out: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int], list[int]]:
        """The seat tables of a match in which the seats of bit mask `out` are knocked out, by seat s:
        `orders[s]` the players still in, in turn order from s (from the next one still in if s is out);
        `others[s]` those of them other than s, from the one after s; `after[s]` / `before[s]` the next /
        previous player still in (s itself if nobody else is, -1 if nobody is). Built once per mask."""
        found = self.seat_tables.get(out)
        if found is not None:
            return found
        n = self.n
        circle = [tuple(list(range(s, n)) + list(range(s))) for s in range(n)]
        orders = self.orders if not out else [tuple(p for p in circle[s] if not out >> p & 1) for s in range(n)]
        others = [tuple(p for p in circle[s][1:] if not out >> p & 1) for s in range(n)]
        after = [o[0] if o else (s if not out >> s & 1 else -1) for s, o in enumerate(others)]
        before = [o[-1] if o else (s if not out >> s & 1 else -1) for s, o in enumerate(others)]
        tables = (orders, others, after, before)
        self.seat_tables[out] = tables
        return tables


FLOW_PARTS = ("setup", "deal", "round", "turn", "after_deal", "after_last_round")


@dataclass(frozen=True)
class Flow:
    """The `flow:` section: the phases of each part, and how many rounds a deal and deals a match have at most
    (and whether that number is a safety cap: `{until, at_most}`)."""

    phases: dict[str, tuple[str, ...]]  # part (FLOW_PARTS) → its phases, in order
    rounds: int
    rounds_capped: bool
    deals: int
    deals_capped: bool
    has_deals: bool  # the flow speaks of deals (`deals`, `deal` or `after_deal`)
    at: dict[str, str]  # `rounds`, `deals` → where the flow says it (`file:line:col`; a step limit names it)


@dataclass(frozen=True)
class Outcome:
    """The `result:` section's rules besides its texts: which way the score wins, whether a player knocked out
    of the match is ranked, what the search bots play for (`payoff`: `win` or `score`)."""

    lowest_wins: bool = False
    out_can_win: bool = False
    payoff: str = "win"


@dataclass(frozen=True)
class Report:
    """The `report:` section besides its `by` text: the name of its groups, the counters given per round."""

    title: str = "group"
    per_round: tuple[str, ...] = ()


@dataclass
class GameModel:
    """Names and numbers of a game; the compiler fills in the code."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    default_players: int
    root: str
    zones: list[ZoneDef] = field(default_factory=list)
    counters: dict[str, CounterDef] = field(default_factory=dict)
    prop_defaults: dict[str, Any] = field(default_factory=dict)
    abilities: list[str] = field(default_factory=list)
    conditions: dict[str, bool] = field(default_factory=dict)
    cards: list[CardDef] = field(default_factory=list)
    card_files: list[str] = field(default_factory=list)  # the files `cards:` lists, as written there
    game_zones: dict[str, int] = field(default_factory=dict)
    player_zones: dict[str, int] = field(default_factory=dict)
    _setups: dict[int, Setup] = field(default_factory=dict)

    def zone(self, name: str) -> ZoneDef | None:
        for z in self.zones:
            if z.name == name:
                return z
        return None

    @property
    def prop_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(list(BUILTIN_PROPS) + list(self.prop_defaults))}

    def zone_instance(self, name: str, seat: int, n: int) -> int:
        """The index of a zone instance: game zones first, then each seat's zones in a block."""
        if name in self.game_zones:
            return self.game_zones[name]
        return len(self.game_zones) + seat * len(self.player_zones) + self.player_zones[name]

    def setup(self, n: int) -> Setup:
        """The numbered layout for `n` players (built once, then cached)."""
        if n in self._setups:
            return self._setups[n]
        zones = self._zone_tables(n)
        cards = self._card_tables(n, len(zones["zone_names"]))
        counters = sorted(self.counters.values(), key=lambda c: c.index)
        setup = Setup(
            n=n, **zones, **cards,
            start_face=[zones["zone_face"][zi] for zi in cards["start_zone_of"]],
            game_counters=[c.initial_for(n) for c in counters if not c.per_player],
            player_counters=[c.initial_for(n) for c in counters if c.per_player],
            orders=[tuple(list(range(s, n)) + list(range(s))) for s in range(n)],
        )
        self._setups[n] = setup
        return setup

    def _zone_tables(self, n: int) -> dict[str, Any]:
        """Each zone instance's name, owner, face, visibility, limit and definition, for `n` players."""
        zone_count = len(self.game_zones) + n * len(self.player_zones)
        tables: dict[str, Any] = {"zone_names": [""] * zone_count, "zone_owner": [-1] * zone_count,
                                   "zone_face": [True] * zone_count, "zone_vis": [0] * zone_count,
                                   "zone_limit": [-1] * zone_count, "zone_def": [0] * zone_count}
        for zi, z in enumerate(self.zones):
            for s in range(n) if z.per_player else [-1]:
                i = self.zone_instance(z.name, s, n)
                tables["zone_names"][i] = f"{z.name}@{s}" if z.per_player else z.name
                for key, value in (("zone_owner", s), ("zone_face", z.face_up), ("zone_vis", z.visibility),
                                   ("zone_limit", z.limit), ("zone_def", zi)):
                    tables[key][i] = value
        return tables

    def _card_tables(self, n: int, zone_count: int) -> dict[str, Any]:
        """Every copy of every card for `n` players, numbered: ids, names, definitions, property columns, where
        each starts, its back."""
        names = list(self.prop_defaults)
        t: dict[str, Any] = {"card_ids": [], "face_ids": [], "card_names": [], "card_def": [], "start_zone_of": [],
                             "back": [], "start_zones": [[] for _ in range(zone_count)]}
        columns: list[list] = [[] for _ in range(len(BUILTIN_PROPS) + len(names))]
        prop_index = self.prop_index
        for di, d in enumerate(self.cards):
            for seat in range(n) if d.each_player else [-1]:
                for copy in range(d.count):
                    c = len(t["card_ids"])
                    cid = d.id + (f"#{copy + 1}" if d.count > 1 else "") + (f"@{seat}" if seat >= 0 else "")
                    t["card_ids"].append(cid)
                    t["face_ids"].append(d.id + (f"@{seat}" if seat >= 0 else ""))
                    t["card_names"].append(d.name + (f" (P{seat})" if seat >= 0 else ""))
                    t["card_def"].append(di)
                    for i, value in enumerate((cid, d.name, d.kind, seat)):
                        columns[i].append(value)
                    for i, name in enumerate(names, len(BUILTIN_PROPS)):
                        columns[i].append(d.props.get(name, self.prop_defaults[name]))
                    zi = self.zone_instance(d.start, max(seat, 0), n)
                    t["start_zones"][zi].append(c)
                    t["start_zone_of"].append(zi)
                    t["back"].append(tuple(prop_index[b] for b in d.back))
        for i, default in enumerate(["", "", "", -1] + [self.prop_defaults[x] for x in names]):
            columns[i].append(default)  # index -1: the property of "no card"
        t["props"] = tuple(columns)
        return t
