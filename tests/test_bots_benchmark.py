"""A small run of `benchmarks/bots.py` (speed, the breakdown of an iteration, strength and the ladder) on Kuhn
poker: the script the bots' figures come from runs, and its tables say what they claim."""

import importlib.util
import re
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "bots.py"


def rows(text: str, heading: str) -> list[list[str]]:
    """The body rows of the table under the line starting with `heading`, as cells."""
    lines = text[text.index(heading):].splitlines()[1:]
    end = next((i for i, line in enumerate(lines) if not line.startswith("|")), len(lines))
    table = lines[:end]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]


def test_the_bots_benchmark_prints_its_tables(monkeypatch, capsys):
    spec = importlib.util.spec_from_file_location("bots_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(sys, "argv", ["bots.py", "--games", "kuhn-poker", "--budget", "4", "--seeds", "1",
                                      "--breakdown", "--strength", "4", "--ladder", "2", "--horizon", "2",
                                      "--worlds", "3"])
    module.main()
    out = capsys.readouterr().out

    speed = rows(out, "Speed:")
    assert {(r[2], r[3]) for r in speed} == {(p, b) for p in ("early", "mid", "late") for b in ("mc:4", "ismcts:4")}
    for r in speed:
        assert float(r[4].replace(",", "")) > 0 and float(r[5].replace(",", "")) > 0 and int(r[6]) >= 1

    parts = rows(out, "Breakdown:")
    assert len(parts) == 6
    for r in parts:
        shares = [int(cell.rstrip("%")) for cell in r[5:]]
        assert len(shares) == 7 and all(s >= 0 for s in shares)
        assert 95 <= sum(shares) <= 105, r  # every part of the decision's time, each counted once
        if r[3].startswith("mc:"):
            assert shares[1] == shares[2] == shares[3] == 0, r  # flat Monte Carlo never steps into a world

    for heading, pairs in (("Strength:", {("mc:4", "random"), ("ismcts:4", "random")}),
                           ("Ladder:", {("ismcts:16", "ismcts:4")}),
                           ("Horizon:", {("ismcts-deal:12", "ismcts:4")})):
        table = rows(out, heading)
        assert {(r[2], r[3]) for r in table} == pairs
        for r in table:
            rate, low, high = (float(x) for x in re.findall(r"(-?[\d.]+)%", r[4]))
            assert low <= rate <= high and r[5] == "50.0%"

    worlds = rows(out, "Worlds:")
    assert [r[2] for r in worlds] == ["early", "mid", "late"]
    for r in worlds:
        # the other seat holds one of two cards the seat cannot see: one or two distinct worlds of three
        assert r[3] == "3" and 1 <= int(r[4]) <= 2 and float(r[5]) >= 0, r
