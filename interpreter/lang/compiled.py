"""What stage 5 hands on: the generated module's source and its tables (plain data, kept by the compiled-game
cache; importing it loads nothing of the compiler)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import Pos

# `Game.face_props` (lang/faces.py `reading_props`): the key of what a rule reads of a card wherever it lies (a card
# held in a variable); no zone is named so. Here, where the runtime reads it without loading the compiler
ANY_ZONE = ""


@dataclass
class Compiled:
    """The generated module: its source, the DSL place of each line, the prompt table, and where
    each routine starts (for errors Python itself finds in the source)."""

    source: str
    anchors: list[Pos | None]  # anchors[i]: the DSL place line i + 1 was written for
    prompts: list[str]
    starts: list[tuple[int, Any]]  # (line, Routine of lang/program.py); left empty once the module compiled
    places: list[Pos]  # AT[k] in the source: a DSL place an error may name, its file relative to the game folder
    constants: dict[str, int]  # the named numbers (ZONE_hand, PROP_rank, …) the source uses

    def anchor_at(self, lineno: int) -> Pos | None:
        return self.anchors[lineno - 1] if 1 <= lineno <= len(self.anchors) else None
