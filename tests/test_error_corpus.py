"""The error corpus (tests/error_corpus.yaml): every broken input gives an AuthoringError at its place,
never another exception and never a hang."""

from __future__ import annotations

import contextlib
import shutil
import signal
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from interpreter import AuthoringError, load_game
from interpreter.diagnostics import Diagnostic
from interpreter.paths import data_dir
from interpreter.scenarios import check_scenarios, load_scenarios, scenario_files

CORPUS = yaml.safe_load(Path(__file__).with_name("error_corpus.yaml").read_text(encoding="utf-8"))
TIME_BOUND_S = 20  # far above what any case takes (well under a second): only a hang reaches it
KINDS = ("yaml", "schema", "cards", "decl", "dsl", "name", "type", "arity", "scenario")


class Hang(Exception):
    """A case ran past the time bound."""


@contextlib.contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Raise Hang in the block after `seconds` (where the platform has interval timers)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def patched_copy(case: dict, tmp_path: Path) -> tuple[Path, list[str]]:
    """The case's game folder, copied and patched; and the files it patched."""
    folder = tmp_path / case["game"]
    shutil.copytree(data_dir("cards") / case["game"], folder)
    patches = case["patch"] if isinstance(case["patch"], list) else [case["patch"]]
    for patch in patches:
        path = folder / patch["file"]
        if "write" in patch:
            path.write_text(patch["write"], encoding="utf-8")
            continue
        text = path.read_text(encoding="utf-8")
        assert patch["old"] in text, f"stale case: {patch['file']} no longer holds {patch['old']!r}"
        path.write_text(text.replace(patch["old"], patch["new"], 1), encoding="utf-8")
    return folder, [p["file"] for p in patches]


def diagnostics_of(case: dict, folder: Path, files: list[str]) -> list[Diagnostic]:
    """What meeple says about the patched folder: a broken game, else its broken scenario files."""
    if all(Path(f).parts[0] == "scenarios" for f in files):
        game = load_game(case["game"])  # the content is the bundled game's: compiled once for every case
        _, found = check_scenarios(game, scenario_files(folder))
        return found
    try:
        load_scenarios(load_game(folder))
    except AuthoringError as err:
        return err.diagnostics
    return []


def place(folder: Path, at: dict) -> tuple[str, int, int]:
    """The file, line and column that `at` names."""
    path = folder / at["file"]
    text = path.read_text(encoding="utf-8")
    assert at["text"] in text, f"stale case: {at['file']} holds no {at['text']!r}"
    offset = text.index(at["text"]) + at.get("offset", 0)
    before = text[:offset]
    return str(path), before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


@pytest.mark.parametrize("case", CORPUS, ids=[case["id"] for case in CORPUS])
def test_broken_input_is_an_authoring_error_at_its_place(case, tmp_path):
    folder, files = patched_copy(case, tmp_path)
    with time_bound(TIME_BOUND_S):
        found = diagnostics_of(case, folder, files)
    assert found, "no authoring error at all"
    file, line, col = place(folder, case["at"])
    mine = [d for d in found if Path(d.pos.file).resolve() == Path(file).resolve()]
    assert mine, f"no diagnostic in {case['at']['file']}; got:\n" + "\n".join(d.render(False) for d in found)
    first = mine[0]
    assert case["error"] in first.message, first.render(False)
    assert (first.pos.line, first.pos.col) == (line, col), first.render()


def test_the_corpus_is_large_unique_and_covers_every_kind_of_mistake():
    ids = [case["id"] for case in CORPUS]
    assert len(ids) >= 150
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    kinds = Counter(i.split("-")[0] for i in ids)
    assert set(kinds) == set(KINDS), kinds
    assert min(kinds.values()) >= 5, kinds
