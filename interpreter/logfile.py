"""Match logs (JSON Lines): written whole and at once, read back within limits, checked line by line.

A log may come from someone else, so reading it is bounded (see SECURITY.md): its size, each record's
size and nesting, the digits of its numbers. Every record is one line: the writer escapes the characters
that some readers take for line breaks (U+2028, U+2029, U+0085), and the reader splits on "\\n" only.
The writer holds each record to the reader's limits, so that `replay` reads every log `play` writes.

A match's `state` lines are written as what changed: the first one whole, each later one (`"changes": true`)
with only the zones, face-down cards and counters that differ from the state line before it, each changed
list as one splice (`{"at", "cut", "put"}`). A log then grows with what happens in the match, not with the
number of cards; `whole_states` rebuilds every state line whole (as the engine keeps them in memory).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import OutputError, write_whole
from .paths import bundled_games

if TYPE_CHECKING:
    from .run.match import Match

MAX_LOG_BYTES = 16 * 1024 * 1024
"""The largest log read or written (16 MiB); a long match of the bundled games writes well under 1 MB, and
its state lines give only what changed, so a log grows with the match, not with the number of cards."""
MAX_RECORD_BYTES = 1024 * 1024
"""The longest record (one line) of a log, in bytes (1 MiB)."""
MAX_NESTING = 16
"""How deep lists and objects may nest in a record; the engine writes at most 3 levels."""
MAX_INT_DIGITS = 40
"""The most digits of a whole number in a log: a seed, a counter, a choice."""
CHANGES = "changes"
"""The field that marks a state line holding only what changed since the state line before it."""
MAX_PROBLEMS = 100
"""The most faulty lines reported for one log (the rest are counted)."""
_ONE_LINE = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


class LogError(Exception):
    """A log that cannot be read or written; the message names the file (and the line, if any)."""


class _Refused(ValueError):
    """A record that breaks one of the limits."""


# ---- the game's files -----------------------------------------------------------------------------


def game_files(game: Any) -> list[Path]:
    """The files a game is made of: its game.yaml and the card files it lists."""
    root = Path(game.model.root)
    return [root / "game.yaml", *dict.fromkeys(Path(card.pos.file) for card in game.model.cards)]


def own_files(game: Any) -> list[Path]:
    """The files no output may be written over: the game's files and its scenario files."""
    from .load.loader import SCENARIO_FOLDER  # here: a `play` that writes no file starts without the loader

    scenarios = Path(game.model.root) / SCENARIO_FOLDER
    return game_files(game) + sorted(p for p in scenarios.glob("*.y*ml") if p.is_file())


def files_digest(game: Any) -> str:
    """sha256 over the game's files, in order of their paths relative to the game folder: each
    path and the file's bytes, both with their lengths (so that no two sets of files read alike)."""
    root = Path(game.model.root)
    digest = hashlib.sha256()
    for rel, path in sorted((p.relative_to(root).as_posix(), p) for p in game_files(game)):
        data = path.read_bytes()
        name = rel.encode("utf-8")
        digest.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


# ---- writing --------------------------------------------------------------------------------------


def write_log(path: str | Path, records: Iterable[dict[str, Any]], game: Any) -> None:
    """Write a match log whole or not at all (`files.write_whole`: a device or FIFO is written into);
    never over one of the game's own files.

    The header gets the digest of the game's files (and loses the folder a game outside the bundle
    was loaded from: a shared log names no folder of the writer's machine)."""
    target = Path(path)
    lines = []
    size = 0
    shorten: StateChanges | None = None
    for number, record in enumerate(records, 1):
        if number == 1:
            shorten = None if is_seat_log(record) else StateChanges()  # what a seat saw: no state lines
            record = {k: v for k, v in record.items() if k != "path"} | {"files": files_digest(game)}
        elif shorten is not None and record.get("type") == "state":
            record = shorten.line(record)
        line = _encode(record, target, number)
        size += len(line)
        if size > MAX_LOG_BYTES:
            raise LogError(f"cannot write {path}: the log would be larger than {MAX_LOG_BYTES:,} bytes")
        lines.append(line)
    try:
        write_whole(target, b"".join(lines), keep=own_files(game))
    except OutputError as err:
        raise LogError(str(err)) from None


# ---- state lines as changes ---------------------------------------------------------------------------


def splice(old: list[Any], new: list[Any]) -> dict[str, Any]:
    """One splice that turns `old` into `new`: at `at`, cut `cut` items and put `put` in their place (the
    items both lists share at their start and at their end are kept)."""
    start = _shared(old, new, min(len(old), len(new)))
    end = _shared(old[::-1], new[::-1], min(len(old), len(new)) - start)
    return {"at": start, "cut": len(old) - start - end, "put": new[start:len(new) - end]}


def _shared(a: list[Any], b: list[Any], most: int) -> int:
    """How many items (at most `most`) `a` and `b` share at their start: slices compared in steps that double,
    then halved down to the first difference (a few comparisons of slices, not one per item)."""
    known, step = 0, 1  # a[:known] == b[:known]
    while known < most:
        upto = min(most, known + step)
        if a[known:upto] == b[known:upto]:
            known, step = upto, step * 2
            continue
        while upto - known > 1:  # a difference lies in [known, upto)
            mid = (known + upto) // 2
            if a[known:mid] == b[known:mid]:
                known = mid
            else:
                upto = mid
        return known
    return known


class StateChanges:
    """Turns a match's whole state lines, in order, into the lines a log file holds: the first whole, each
    later one with only what changed since the one before (`"changes": true`)."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None

    def line(self, state: dict[str, Any]) -> dict[str, Any]:
        """The line to write for the whole state line `state` (the next one of the match)."""
        last, self.last = self.last, state
        if last is None:
            return state
        short: dict[str, Any] = {}
        for key, value in state.items():
            if key == "zones":
                value = self._zones(last["zones"], value)
            elif key == "counters":
                before = last["counters"]
                value = {k: v for k, v in value.items() if k not in before or before[k] != v}
            elif key == "face_down":
                if value == last.get("face_down", []):
                    continue
                value = splice(last.get("face_down", []), value)
            short[key] = value
            if key == "type":
                short[CHANGES] = True
        return short

    @staticmethod
    def _zones(last: dict[str, Any], zones: dict[str, Any]) -> dict[str, Any]:
        changed: dict[str, Any] = {}
        for name, cards in zones.items():
            before = last.get(name)
            if cards == before:
                continue
            if isinstance(cards, dict):
                before = before if isinstance(before, dict) else {}
                changed[name] = {seat: splice(before.get(seat, []), ids) for seat, ids in cards.items()
                                 if ids != before.get(seat)}
            else:
                changed[name] = splice(before if isinstance(before, list) else [], cards)
        return changed


class WholeStates:
    """Makes a log's state lines whole again, in order: a whole line is kept as it is, a line of changes is
    applied to the state line before it (only that one is kept)."""

    def __init__(self, file: str | Path) -> None:
        self.file = file
        self.last: dict[str, Any] | None = None

    def line(self, record: dict[str, Any], number: int) -> dict[str, Any]:
        """State line `number` of the log made whole; LogError (`FILE:LINE: error: …`) for a line of changes
        that does not fit what it changes."""
        if record.get(CHANGES) is True:
            problems = check_record(record, number, self.file)
            if problems:
                raise LogError("\n".join(problems))
            if self.last is None:
                raise LogError(f"{self.file}:{number}: error: a state line of changes before any whole state line")
            try:
                record = _applied(self.last, record)
            except _Refused as err:
                raise LogError(f"{self.file}:{number}: error: {err}") from None
        self.last = record
        return record


def whole_states(records: list[dict[str, Any]], file: str | Path) -> list[dict[str, Any]]:
    """The records of a log with every state line whole again (`WholeStates`)."""
    states = WholeStates(file)
    return [states.line(r, n) if r.get("type") == "state" else r for n, r in enumerate(records, 1)]


def _applied(last: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The whole state line that the line of `changes` makes of the whole state line `last`."""
    whole: dict[str, Any] = {}
    for key, value in changes.items():
        if key == CHANGES:
            continue
        if key == "zones":
            value = _zones_applied(dict(last.get("zones", {})), value)
        elif key == "counters":
            value = dict(last.get("counters", {})) | value
        elif key == "face_down":
            value = _spliced(last.get("face_down", []), value, "face_down")
        whole[key] = value
    if "face_down" not in whole and "face_down" in last:
        whole["face_down"] = last["face_down"]
    return {k: whole[k] for k in last if k in whole} | whole  # the keys in the order a whole line has them


def _zones_applied(zones: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`zones` (a copy of the last state line's, changed here) with each zone's splice applied (by seat for a
    zone of each player)."""
    for name, change in changes.items():
        if name not in zones:
            raise _Refused(f"zone `{name}` is not in the state line before")
        if not isinstance(zones[name], dict):
            zones[name] = _spliced(zones[name], change, f"zone `{name}`")
            continue
        if not isinstance(change, dict) or "at" in change:
            raise _Refused(f"zone `{name}` is a zone of each player: its changes go by seat")
        seats = dict(zones[name])
        for seat, one in change.items():
            if seat not in seats:
                raise _Refused(f"zone `{name}` has no seat {seat} in the state line before")
            seats[seat] = _spliced(seats[seat], one, f"zone `{name}` of seat {seat}")
        zones[name] = seats
    return zones


def _spliced(old: Any, change: Any, what: str) -> list[Any]:
    """`old` with one splice applied; _Refused for a splice that does not fit."""
    if not isinstance(old, list) or not isinstance(change, dict) or set(change) != {"at", "cut", "put"}:
        raise _Refused(f"{what}: a change is a splice {{\"at\", \"cut\", \"put\"}} of a list")
    at, cut, put = change["at"], change["cut"], change["put"]
    if type(at) is not int or type(cut) is not int or not isinstance(put, list) or at < 0 or cut < 0 \
            or at + cut > len(old):
        raise _Refused(f"{what}: the splice at {at} cutting {cut} does not fit a list of {len(old)}")
    return old[:at] + put + old[at + cut:]


def _encode(record: dict[str, Any], target: Path, number: int) -> bytes:
    """One record as one line of UTF-8 JSON, held to the limits the reader applies: read back as the
    reader reads it where it might break one (a long line, a long run of digits, a constant json.dumps
    writes for a float that is no number, brackets enough to nest too deep), else by its size alone."""
    try:
        text = _JSON(record)
        if not text.isascii():
            text = text.translate(_ONE_LINE)
        line = (text + "\n").encode("utf-8")
        digits = len(line) - len(line.translate(None, b"0123456789"))
        if len(line) > MAX_RECORD_BYTES or line.count(b"[") + line.count(b"{") > MAX_NESTING \
                or b"NaN" in line or b"Infinity" in line or (digits > MAX_INT_DIGITS and _LONG_NUMBER.search(line)):
            _parse(line[:-1])
    except (ValueError, UnicodeEncodeError) as err:  # json.dumps: a number past Python's own digit limit
        raise LogError(f"cannot write {target}: record {number}: {err}") from None
    return line


_JSON = json.JSONEncoder(ensure_ascii=False).encode  # as json.dumps(record, ensure_ascii=False) writes it
_LONG_NUMBER = re.compile(rb"[0-9]{%d}" % (MAX_INT_DIGITS + 1))


# ---- reading --------------------------------------------------------------------------------------


def read_log(file: str | Path) -> list[dict[str, Any]]:
    """Every record of a match log, each read within the limits, the header checked against
    schemas/log.schema.json; LogError lists the faulty lines (`FILE:LINE: error: …`).

    The other records are checked by `check_record` where it matters (a replay compares them with the
    records the engine writes, which keep to the schema): checking them all up front would cost more
    than the replay."""
    path = Path(file)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_LOG_BYTES + 1)
    except OSError as err:
        raise LogError(f"{file}: error: cannot read the log: {err.strerror or err}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(f"{file}: error: the log is larger than {MAX_LOG_BYTES:,} bytes")
    pieces = raw.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()  # the final line break
    records: list[dict[str, Any]] = []
    problems: list[str] = []
    for number, piece in enumerate(pieces, 1):
        try:
            records.append(_parse(piece))
        except _Refused as err:
            problems.append(f"{file}:{number}: error: {err}")
    if not problems and records:
        problems = seat_header_problems(records[0], file) if is_seat_log(records[0]) else check_record(records[0], 1,
                                                                                                         file)
        if not problems and records[0].get("type") != "match":
            problems = [f"{file}:1: error: the first line must be the `match` header"]
    if problems:
        rest = len(problems) - MAX_PROBLEMS
        shown = problems[:MAX_PROBLEMS] + ([f"{file}: … and {rest:,} more faulty lines"] if rest > 0 else [])
        raise LogError("\n".join(shown))
    if not records:
        raise LogError(f"{file}: error: the log is empty")
    return records


def short_line(line: Any, most: int = 400) -> str:
    """A log line (or a description) for a message, as JSON, cut short (with `…`) past `most` characters."""
    text = line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)
    return text if len(text) <= most else text[:most - 1] + "…"


def check_record(record: dict[str, Any], number: int, file: str | Path) -> list[str]:
    """How record `number` of a log breaks schemas/log.schema.json: `FILE:LINE: error: …` lines."""
    from .load.schema import validate as schema_validate  # here: only a log read back is checked

    problems = []
    for d in schema_validate(record, None, "log.schema.json", str(file)):
        message = d.message.replace("the top level", "the line", 1)
        problems.append(f"{file}:{number}: error: {message}" + (f" ({d.hint})" if d.hint else ""))
    return problems


def seat_log(m: Match, seat: int) -> list[dict[str, Any]]:
    """What one seat saw of a match, as the records of a seat log (`play --log-for`): a header that names the
    seat (and no seed), its observations, the result."""
    lines: list[dict[str, Any]] = [{"type": "match", "game": m.game.name, "version": m.game.version,
                                    "players": m.players, "seat": seat}]
    lines.extend(m.information_state_json(seat)["observed"])
    if m.over:
        lines.append(m.result())
    return lines


def seat_log_words(file: str | Path, lines: list[dict[str, Any]], lang: str = "en") -> list[str]:
    """The records of a seat log after its header in words, one line each; LogError (`FILE:LINE: error: …`)
    for a record of another shape than the engine writes."""
    from .run.information import describe

    seat = lines[0]["seat"]
    told = []
    for number, line in enumerate(lines[1:], 2):
        try:
            if line.get("type") == "result":
                told.append(f"scores {list(line['scores'])}, winners {list(line['winners'])}")
            else:
                told.append(describe(line, seat, lang))
        except (KeyError, TypeError, AttributeError, ValueError):
            raise LogError(f"{file}:{number}: error: not an observation of a seat log: {short_line(line)}") from None
    return told


def is_seat_log(header: dict[str, Any]) -> bool:
    """Whether a log's header is that of what one seat saw (`play --log-for`): it names the seat, not the seed."""
    return header.get("type") == "match" and "seat" in header


def seat_header_problems(header: dict[str, Any], file: str | Path) -> list[str]:
    """How the header of a seat log is faulty (`FILE:1: error: …` lines): the game, the players and the seat."""
    players, seat = header.get("players"), header.get("seat")
    if not isinstance(header.get("game"), str) or type(players) is not int or players < 1:
        return [f"{file}:1: error: a seat log's header must name the game and the number of players"]
    if type(seat) is not int or not 0 <= seat < players:
        return [f"{file}:1: error: the seat must be one of the match's seats 0..{players - 1}"]
    return []


def _parse(piece: bytes) -> dict[str, Any]:
    """One record from one line, within the limits; _Refused says what is wrong."""
    if len(piece) > MAX_RECORD_BYTES:
        raise _Refused(f"the line is longer than {MAX_RECORD_BYTES:,} bytes")
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _Refused(f"not UTF-8 text (byte {err.start + 1})") from None
    try:
        record = json.loads(text, parse_int=_whole, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise _Refused(f"not a JSON line: {err.msg} (column {err.colno})") from None
    except RecursionError:
        raise _Refused(f"the line nests more than {MAX_NESTING} levels deep") from None
    if not isinstance(record, dict):
        raise _Refused("a line must be a JSON object")
    _check_nesting(record)
    return record


def _whole(digits: str) -> int:
    """json's reader of whole numbers, refusing more than MAX_INT_DIGITS digits (before converting)."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(digits)


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON, though Python's reader takes them."""
    raise _Refused(f"`{name}` is not a JSON value")


def _check_nesting(record: dict[str, Any]) -> None:
    """Refuse a record whose lists and objects nest deeper than MAX_NESTING (looked at without recursion)."""
    level: list[tuple[Any, int]] = [(record, 1)]
    while level:
        value, depth = level.pop()
        if depth > MAX_NESTING:
            raise _Refused(f"the line nests more than {MAX_NESTING} levels deep")
        inner = value.values() if isinstance(value, dict) else value
        level.extend((item, depth + 1) for item in inner if isinstance(item, dict | list))


# ---- which game a log is of -------------------------------------------------------------------------


def game_to_replay(header: dict[str, Any], given: str | None, file: str | Path) -> str:
    """What to load for replaying a log: the GAME given on the command line, else the bundled game the
    header names. Never a folder named by the log itself: a log is data, and may come from anyone."""
    if given is not None:
        return given
    name = header["game"]
    if name in bundled_games():
        return name
    raise LogError(f"{file}:1: error: this log is of `{name}`, which is not a bundled game; "
                   "pass its folder with --game FOLDER")


def files_changed(header: dict[str, Any], game: Any) -> bool:
    """Whether the game's files differ from those the log was written with (False if it does not say)."""
    recorded = header.get("files")
    return recorded is not None and recorded != files_digest(game)
