"""How many matches are enough: the widest interval the summary names is a rate's, in points, never the width of
the mean number of turns."""

import json
import re

from interpreter.cli import main


def test_the_widest_interval_named_is_a_rate(capsys):
    assert main(["report", "hearts", "-n", "6", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["enough"]["figures"]
    rates = [r["width"] for r in rows if r["unit"] == "rate"]
    turns = [r for r in rows if r["unit"] == "turns"]
    assert turns and turns[0]["width"] > 1  # Hearts' length varies by more than a turn: not a rate at all
    assert main(["report", "hearts", "-n", "6"]) == 0
    named = re.search(r"the widest rate interval is ([0-9.]+) points", capsys.readouterr().out)
    assert named and float(named.group(1)) == round(100 * max(rates), 1) and float(named.group(1)) <= 100
