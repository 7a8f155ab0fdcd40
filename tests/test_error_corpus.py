"""The error corpus (tests/error_corpus.yaml): every broken input gives an AuthoringError at its place,
never another exception and never a hang."""

from __future__ import annotations

import functools
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from interpreter import AuthoringError, load_game
from interpreter.cache import ENV
from interpreter.diagnostics import Diagnostic
from interpreter.game import Game
from interpreter.paths import data_dir
from interpreter.scenarios import check_scenarios, load_scenarios, scenario_files
from tests import work_bound
from tests.work_bound import Hang

# read at collection, in every worker: libyaml's loader where there is one (0.04 s, not 0.27)
CORPUS = yaml.load(Path(__file__).with_name("error_corpus.yaml").read_text(encoding="utf-8"),
                   Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
CALL_BOUND = 20_000_000  # function calls a case may make: the heaviest makes about 2.2 million; only a hang more
LONG_CPU_S = 5  # CPU seconds after which a case is run again with its calls counted (all take well under one)
KINDS = ("yaml", "schema", "cards", "decl", "dsl", "name", "type", "arity", "scenario")


def bounded(work, long_cpu_s: float = LONG_CPU_S, bound: int = CALL_BOUND):
    """`work()`, bounded by the work it does, never by seconds (see tests/work_bound.py): a case that runs long
    (as on a busy machine) is run again with its calls counted, and only more than `bound` of them fail it."""
    return work_bound.bounded(work, long_cpu_s, bound)


def patched_copy(case: dict, under: Path) -> tuple[Path, list[str]]:
    """The case's game folder, copied afresh to `under/<game>` and patched; and the files it patched."""
    folder = under / case["game"]
    shutil.rmtree(folder, ignore_errors=True)
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


@functools.cache
def bundled(name: str) -> Game:
    return load_game(name)


def diagnostics_of(case: dict, folder: Path, files: list[str]) -> list[Diagnostic]:
    """What meeple says about the patched folder: a broken game, else its broken scenario files."""
    if all(Path(f).parts[0] == "scenarios" for f in files):
        game = bundled(case["game"])  # the content is the bundled game's: loaded once for every case
        # the files it patched (the others are the bundled game's, checked by its own scenario tests)
        _, found = check_scenarios(game, [p for p in scenario_files(folder) if str(p.relative_to(folder)) in files])
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


@pytest.fixture(scope="module")
def workbench(tmp_path_factory) -> Path:
    """Where every case of a process patches its copy: one folder per game, at the same path for every case, and
    a compiled-game cache of its own beside it (never the user's). A case's patched file is new text, read and
    checked afresh; the files it left as they are were read once, as a person's cache keeps them between runs
    (the cache names a file by its path and bytes). A third of the corpus's work, and the cache path tested too."""
    return tmp_path_factory.mktemp("corpus")


@pytest.mark.parametrize("case", CORPUS, ids=[case["id"] for case in CORPUS])
def test_broken_input_is_an_authoring_error_at_its_place(case, workbench, monkeypatch):
    folder, files = patched_copy(case, workbench / "games")
    bundled(case["game"])
    monkeypatch.setenv(ENV, str(workbench / "cache"))
    found = bounded(lambda: diagnostics_of(case, folder, files))
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


def test_a_hang_is_found_by_its_work_and_long_bounded_work_passes():
    def spins():
        while True:
            len("spin")

    with pytest.raises(Hang, match="more than 100,000 function calls"):  # noticed at 0.05 s of CPU, then counted
        bounded(spins, 0.05, 100_000)
    assert sys.getprofile() is None
    runs: list[int] = []

    def slow_the_first_time() -> int:  # as a case on a busy machine: it runs long, and its work is bounded
        runs.append(1)
        if len(runs) == 1:
            spins()  # ends only when noticed
        for _ in range(1000):
            len("work")
        return len(runs)

    assert bounded(slow_the_first_time, 0.05, 100_000) == 2  # run again, counted, and passed by its count
    assert sys.getprofile() is None
