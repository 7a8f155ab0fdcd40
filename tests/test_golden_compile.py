"""The Python each bundled game compiles to, as `meeple compile` prints it, kept beside the tests: a change of
the code generator or of a game's rules shows here as a diff of the generated code, to be read and meant.

A change that is meant to alter the generated code writes the files again, and its commit says why:

    python tests/test_golden_compile.py
"""

import sys
from itertools import zip_longest
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: this checkout's engine

from interpreter.load.loader import bundled_games

GOLDEN = Path(__file__).parent / "golden" / "compiled"


def compiled_today(name: str) -> str:
    from interpreter.game import load_game

    return load_game(name).python_source


@pytest.mark.parametrize("name", bundled_games())
def test_a_bundled_game_compiles_to_its_recorded_python(name):
    recorded = (GOLDEN / f"{name}.py.txt").read_text(encoding="utf-8")
    today = compiled_today(name)
    if today != recorded:
        pairs = zip_longest(recorded.splitlines(), today.splitlines())
        first = next(i for i, (a, b) in enumerate(pairs, 1) if a != b)
        pytest.fail(f"{name}: the generated code differs from tests/golden/compiled/{name}.py.txt from line {first}; "
                    "if that is meant, write it again: python tests/test_golden_compile.py")


def test_the_recorded_python_is_what_meeple_compile_prints(capsys):
    from interpreter.cli import main

    assert main(["compile", "go-fish"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "go-fish.py.txt").read_text(encoding="utf-8")


if __name__ == "__main__":
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game in bundled_games():
        (GOLDEN / f"{game}.py.txt").write_text(compiled_today(game), encoding="utf-8")
        print(f"wrote tests/golden/compiled/{game}.py.txt")
