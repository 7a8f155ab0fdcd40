"""The commands that live beside the command line (the lab's report and compare, print, serve) are library calls
taking plain values: the command line (interpreter/cli/) alone parses arguments, and a program calling them gets
what the command prints."""

import ast
from pathlib import Path

from interpreter.cli import main
from interpreter.lab.command import Compare, Report, compare, report
from interpreter.printing.command import print_game
from tests.test_report import figures_of as figures

ROOT = Path(__file__).resolve().parent.parent
KUHN = str(ROOT / "tests" / "games" / "kuhn-poker")


def test_only_the_command_line_parses_arguments():
    parsing = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        if path.parent.name == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            parsing += [path.relative_to(ROOT).as_posix() for name in names if name.split(".")[0] == "argparse"]
    assert not parsing, f"these import argparse (parse arguments in interpreter/cli/): {parsing}"


def test_report_and_compare_called_with_values_print_what_the_commands_print(capsys):
    assert report(Report(game=KUHN, n=6, seed=2, json=True)) == 0
    called = figures(capsys.readouterr().out)
    assert main(["report", KUHN, "-n", "6", "--seed", "2", "--json"]) == 0
    assert called == figures(capsys.readouterr().out) and called["games"] == 6
    assert compare(Compare(game_a=KUHN, game_b=KUHN, n=4, json=True)) == 0
    called = figures(capsys.readouterr().out)
    assert main(["compare", KUHN, KUHN, "-n", "4", "--json"]) == 0
    assert called == figures(capsys.readouterr().out)


def test_print_called_with_values_writes_the_sheets(tmp_path, capsys):
    out = tmp_path / "hearts.pdf"
    assert print_game("hearts", output=str(out), paper="letter", cards=["12-spades", "14-hearts"]) == 0
    assert "2 cards" in capsys.readouterr().out and out.read_bytes().startswith(b"%PDF")
