"""A logged match re-run and compared line by line (what `meeple replay` reports).

`replay_log(game, lines, file)` plays the log's header (seed, players, bots, chance outcomes of a checked
match) again, sends each decision as the log has it, and compares every line the match writes with the log's;
a failure of the rules or of a check the log records must come out at the same point. Any difference is a
`ReplayFailed` whose message starts with `FILE:LINE:`; what matched comes back as a `Replayed`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .check import Stopped, begin, describe, recheck, stop_where_logged
from .logfile import LogError, WholeStates, check_record, files_changed, short_line
from .run.match import ChanceMismatch, Match, Recorded
from .run.runtime import RuleError

CHANGED = " (the game's files changed since this log was written)"


class ReplayFailed(Exception):
    """The replay differs from the log, or the log cannot be replayed: the message starts with `FILE:LINE:`."""


@dataclass
class Replayed:
    """A replay that matched its log: the match as it ended, and what the log held."""

    match: Match
    events: int
    decisions: int
    ending: str  # the result matches, or the rules or a check fail at the same point
    changed: bool  # the game's files changed since the log was written (and the match is still the same)


def replay_log(game: Any, lines: list[dict[str, Any]], file: str) -> Replayed:
    """Re-run the match of `lines` (a full log, header first) on `game`; ReplayFailed at the first difference."""
    run = _Replay(game, lines, file)
    for i, line in enumerate(lines):
        run.line(i, line)
    return run.finish()


def _normal(line: dict[str, Any], index: int) -> dict[str, Any]:
    """A line as the file has it, the header without what does not change the match."""
    line = json.loads(json.dumps(line))  # tuples → lists, as the file has them
    if index == 0:
        line.pop("bots", None)  # who played a seat does not change the match
        line.pop("path", None)  # nor where the game's folder lies
        line.pop("files", None)  # compared on its own, to say why a replay differs
        line.pop("chance", None)  # fed in, and all of them must be used (finish)
    return line


class _Replay:
    """One replay under way: the match, the log, and where they stand."""

    def __init__(self, game: Any, expected: list[dict[str, Any]], file: str) -> None:
        self.game, self.expected, self.file = game, expected, file
        header = expected[0]
        self.changed = files_changed(header, game)
        self.chance = header.get("chance")  # a checked match: its chance outcomes were drawn, not seeded
        try:
            self.m, _ = begin(game, header["players"], header["seed"], log=True, bots=header["bots"],
                              chance=None if self.chance is None else Recorded(self.chance),
                              ended=stop_where_logged(game, expected))
        except ValueError as err:
            raise ReplayFailed(f"{file}:1: error: {err}") from None
        except ChanceMismatch as err:
            raise ReplayFailed(f"{file}:1: mismatch: {err}") from None
        assert self.m.log is not None  # made with its log
        self.log: list[dict[str, Any]] = self.m.log
        self.checked: str | None = None  # the message of a property a check found broken, found again
        self.states = WholeStates(file)  # a state line of changes is made whole to compare it with the match's

    def mismatch(self, index: int, got: Any) -> ReplayFailed:
        expected, file = self.expected, self.file
        if index < len(expected):
            problems = check_record(expected[index], index + 1, file)  # a malformed line: say how
            if problems:
                return ReplayFailed("\n".join(problems))
        why = CHANGED if self.changed else ""
        if index >= len(expected):
            return ReplayFailed(f"{file}:{index}: mismatch: the log ends here, but the replay goes on with "
                                f"{short_line(got)}{why}")
        return ReplayFailed(f"{file}:{index + 1}: mismatch: expected {short_line(expected[index])} "
                            f"got {short_line(got)}{why}")

    def line(self, i: int, line: dict[str, Any]) -> None:
        """Compare line i of the log with the match's, sending the log's decision or check first if it is one."""
        m = self.m
        if line.get("type") == "decision" and len(self.log) == i and not m.over and m.failure is None:
            self.decide(i, line)
        if line.get("type") == "error" and "check" in line and len(self.log) == i and m.failure is None:
            self.recheck(i, line)
        if i >= len(self.log):
            waiting = ", ".join(m.layout.player_name(p) for p in m.to_act())
            raise self.mismatch(i, f"a decision of {waiting}" if waiting else "the end of the match")
        if line.get("type") == "state":
            try:
                line = self.states.line(line, i + 1)
            except LogError as err:
                raise ReplayFailed(str(err)) from None
        if self.log[i] != line and _normal(self.log[i], i) != _normal(line, i):  # (most lines are equal as they are)
            raise self.mismatch(i, self.log[i])

    def recheck(self, i: int, line: dict[str, Any]) -> None:
        """Check again the property that `meeple check` found broken at line i (its `error` line, held to the log
        schema first): still broken, the match's own error line says so; else it says that it holds."""
        problems = check_record(line, i + 1, self.file)
        if problems:
            raise ReplayFailed("\n".join(problems))
        m = self.m
        self.checked = recheck(m, line["check"])
        message = self.checked or f"it holds here: {describe(line['check'], self.game)}"
        self.log.append({"type": "error", "message": message, "decisions": len(m.history), "check": line["check"]})

    def decide(self, i: int, line: dict[str, Any]) -> None:
        problems = check_record(line, i + 1, self.file)
        if problems:
            raise ReplayFailed("\n".join(problems))
        try:
            problem = self.m.apply(line["who"], line["choice"])
        except (RuleError, Stopped):
            problem = None  # the failure is a line of the log, compared like any other
            # (a check that failed at the end of a turn or round stops the replay there too)
        except ChanceMismatch as err:
            raise ReplayFailed(f"{self.file}:1: mismatch: {err}") from None
        if problem is not None:
            raise self.mismatch(i, f"{problem.code}: {problem.reason}")

    def finish(self) -> Replayed:
        m, expected, file = self.m, self.expected, self.file
        if len(self.log) > len(expected):
            raise self.mismatch(len(expected), self.log[len(expected)])
        if not m.over and m.failure is None and self.checked is None:
            waiting = ", ".join(m.layout.player_name(p) for p in m.to_act())
            raise ReplayFailed(f"{file}:{len(expected)}: mismatch: the log ends, but the match waits for "
                               f"{waiting}{CHANGED if self.changed else ''}")
        if self.chance is not None and m.st.chance_used != len(self.chance):
            told = len(self.chance)
            raise ReplayFailed(f"{file}:1: mismatch: the header has {told} chance outcome{'s' * (told != 1)}, "
                               f"but the match used {m.st.chance_used}")
        ending = "result matches" if m.failure is None else f"the rules fail at the same point: {m.failure}"
        if self.checked is not None:
            ending = f"the check fails at the same point: {self.checked}"
        return Replayed(m, sum(1 for line in expected if line.get("type") == "event"),
                        sum(1 for line in expected if line.get("type") == "decision"), ending, self.changed)
