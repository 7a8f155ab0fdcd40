"""What the seat was told in words: which faces a line names (`_face_words`), by the words the game's layout gives
them, and which traded faces a mend risks (`_risked`, `_undone`)."""

from __future__ import annotations

import re
from typing import Any


def _by_face(faces: list[Any], cards: list[int]) -> dict[Any, list[int]]:
    """`cards` by face, each face's in the order they come (the faces in the order they first come)."""
    out: dict[Any, list[int]] = {}
    for c in cards:
        out.setdefault(faces[c], []).append(c)
    return out


def _risked(by_face: dict[Any, list[int]], passed: list[int], where: dict[int, list[int]], first: int, x: int, y: int,
            fx: Any, fy: Any) -> int:
    """How many counts the rules may have read at the answers `passed` from `first` on cards `x` and `y` (faces `fx`,
    `fy`) traded change (see `_Replay.weigher`; `by_face` and `where` as `_Replay.named_passed` makes them)."""
    nowhere = [-1] * len(passed)
    wx, wy = where.get(x, nowhere), where.get(y, nowhere)
    risk = 0
    for i in {*by_face.get(fx, ()), *by_face.get(fy, ())}:
        if passed[i] >= first and wx[i] != wy[i]:
            risk += (wx[i] >= 0) + (wy[i] >= 0)
    return risk


def _undone(faces: list[Any], pins: dict[Any, list[tuple[int, set[int], int, int]]], first: int, x: int, y: int
            ) -> int:
    """How many more of the counts pinned at the answers given from `first` on (`pins`: see `_Replay.weigher`, by
    face, each with the count its zone holds now) cards `x` and `y` traded would undo than they would set back (see
    `_Replay.learned`)."""
    fx, fy = faces[x], faces[y]
    undone = 0
    for f in (fx,) if fx == fy else (fx, fy):
        for e, z, k, count in pins.get(f, ()):
            if e >= first and (x in z) != (y in z):
                delta = (fy == f) - (fx == f) if x in z else (fx == f) - (fy == f)
                undone += (count + delta != k) - (count != k)
    return undone


def _named_in(layout, told: str) -> set[int]:
    """The cards whose face, name or a word of their text properties the observation `told` names (where
    a world parted from what the seat observed: the cards to swap in first)."""
    if not told:
        return set()
    faces, named = layout.face_ids, set()
    for c in range(len(faces)):
        if f'"{faces[c]}"' in told or any(v.__class__ is str and len(v) > 2 and v in told for v in
                                          (column[c] for column in layout.props)):
            named.add(c)
    return named


_WORDS: dict[int, tuple] = {}  # layout id -> (the layout, its `_face_words`)


def _face_words(layout) -> tuple[re.Pattern, dict[str, frozenset]]:
    """What names a face in an observation: its id quoted, or a word of its text properties (longer than two
    letters, whole: `ace` is not in `face`) that some other face has not (a kind every card has names none). One
    pattern for all, and the faces each word it finds names (worked out once per layout)."""
    hit = _WORDS.get(id(layout))
    if hit is None or hit[0] is not layout:
        hit = _WORDS[id(layout)] = (layout, _words_of(layout))
    return hit[1]


def _words_of(layout) -> tuple[re.Pattern, dict[str, frozenset]]:
    """`_face_words`, worked out."""
    words: dict[str, set[Any]] = {}
    for c, f in enumerate(layout.face_ids):
        words.setdefault(f'"{f}"', set()).add(f)
        for column in layout.props:
            v = column[c]
            if v.__class__ is str and len(v) > 2:
                words.setdefault(v, set()).add(f)
    faces = set(layout.face_ids)
    named = {w: frozenset(fs) for w, fs in words.items() if fs != faces or w.startswith('"')}
    pattern = "|".join(re.escape(w) for w in sorted(named, key=len, reverse=True))
    return re.compile(rf"(?<![\w#])(?:{pattern})(?![\w#])"), named
