"""Start-up: the commands that compile nothing import nothing heavy (the DSL parser, the schema checker,
Hypothesis), `meeple games` lists the games without compiling them, and a command on a game read back from the
compiled-game cache imports only what it uses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HEAVY = ("lark", "jsonschema", "hypothesis", "interpreter.game")

PROBE = """
import sys
from interpreter import cli
try:
    code = cli.main(sys.argv[1:])
except SystemExit as exit_:
    code = exit_.code
print(code, *[m for m in {heavy!r} if m in sys.modules], file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["games"], ["--version"], ["--help"], ["play", "--help"]])
def test_a_command_that_compiles_nothing_imports_nothing_heavy(argv):
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv], capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.stderr.split() == ["0"], done.stderr


# What a command on a game read back from the cache must not load: the stages that compile a game (the DSL parser
# and its lark, the analysis, the code writer), the checker of --check and its log reader, the commands of other
# groups, and what only a mistake or a named bot needs.
COMPILING = ("lark", "jsonschema", "hypothesis", "interpreter.lang.parser", "interpreter.lang.analysis",
             "interpreter.lang.resolve", "interpreter.lang.compiler")
WARM = {
    ("sim", "overloaded", "-n", "1"): (
        *COMPILING, "yaml", "interpreter.load.loader", "interpreter.load.source", "interpreter.check",
        "interpreter.logfile", "interpreter.printing.command", "interpreter.web.command", "interpreter.lab.command",
        "interpreter.bots", "difflib",
        # one worker: no process pool (its logging, sockets, queues); random bots: no step API (a Match, who
        # sees what, the worlds a seat may be in)
        "concurrent.futures", "multiprocessing", "interpreter.run.match", "interpreter.run.information",
        "interpreter.run.belief", "interpreter.run.chance", "interpreter.run.seat"),
    ("play", "overloaded", "--seed", "1", "--json"): (
        *COMPILING, "yaml", "interpreter.load.loader", "interpreter.check", "interpreter.printing.command",
        "interpreter.web.command", "interpreter.lab.command"),
    ("validate", "overloaded"): (*COMPILING, "interpreter.check", "interpreter.web.command",
                                 "yaml", "interpreter.load.yaml_reader"),  # every file's data taken from the cache
}


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory):
    """An environment whose cache folder holds Overloaded compiled and its files read (by a `validate` run
    once, cold)."""
    env = {**os.environ, "MEEPLE_CACHE": str(tmp_path_factory.mktemp("cache"))}
    subprocess.run([sys.executable, "-m", "interpreter", "validate", "overloaded"], cwd=ROOT, env=env,
                   capture_output=True, check=True, timeout=120)
    return env


@pytest.mark.parametrize("argv", list(WARM), ids=" ".join)
def test_a_command_on_a_cached_game_imports_only_what_it_uses(warm_cache, argv):
    """Counted without timing anything: the modules in `sys.modules` when the command is done. (An engine edited
    meanwhile would name a new cache entry: a second run is warm again.)"""
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=WARM[argv]), *argv], cwd=ROOT,
                              env=warm_cache, capture_output=True, text=True, check=False, timeout=120)
        if done.stderr.split() == ["0"]:
            break
    assert done.stderr.split() == ["0"], done.stderr


# A bot's draws late in a Hearts match, on the game read back from the cache: the first draw, then draws at the same
# point, which swap two cards the seat cannot tell apart and ask which zones' cards the rules read (the game's
# tables, not its compiler)
DRAWS = """
import random, sys
from interpreter.game import load_game
from interpreter.run.random_bots import random_bot
game = load_game("hearts")
m, bot = game.new_match(players=4, seed=0), random_bot(0)
while len(m.history) < 640:
    for p in m.to_act():
        m.apply(p, bot.pick(len(m.legal_actions(p))))
seat = m.to_act()[0]
for r in range(4):
    m.determinize(seat, random.Random(r))
print(*[m for m in {heavy!r} if m in sys.modules], file=sys.stderr)
"""


def test_a_bot_drawing_worlds_of_a_cached_game_loads_none_of_its_compiler(warm_cache):
    subprocess.run([sys.executable, "-m", "interpreter", "validate", "hearts"], cwd=ROOT, env=warm_cache,
                   capture_output=True, check=True, timeout=120)
    done = subprocess.run([sys.executable, "-c", DRAWS.format(heavy=COMPILING)], cwd=ROOT, env=warm_cache,
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0 and done.stderr.split() == [], done.stderr


def test_the_parser_of_one_command_makes_no_option_of_another(monkeypatch):
    """What the other commands would add is dropped unmade: every option made is one of the parser's own."""
    import argparse

    from interpreter import cli

    made: list[argparse.Action] = []
    real = argparse._ActionsContainer._add_action
    monkeypatch.setattr(argparse._ActionsContainer, "_add_action", lambda self, a: made.append(a) or real(self, a))
    for name in cli.COMMANDS:
        made.clear()
        tree = cli.build_parser(name)
        command = next(a for a in tree._actions if a.dest == "command").choices[name]
        assert {id(a) for a in made} == {id(a) for a in tree._actions + command._actions}, name


def test_version_is_printed_without_building_a_parser(monkeypatch, capsys):
    from interpreter import __version__, cli

    def no_parser(command=None):
        raise AssertionError(f"a parser was built for {command!r}")

    monkeypatch.setattr(cli, "build_parser", no_parser)
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"meeple {__version__}\n"
    with pytest.raises(AssertionError, match="a parser was built"):  # any other command line still parses
        cli.main(["games", "--version"])


def test_games_lists_a_bundled_game_from_its_game_yaml_alone(tmp_path, monkeypatch, capsys):
    """The listing reads only game.yaml's name, title and players: a game whose cards are broken is still
    listed (`validate` reports it), one whose game.yaml lacks its players is listed as broken."""
    from interpreter import cli, paths
    from interpreter.cli import authoring

    for name, head in (("fine", "game: fine\ntitle: Fine Game\nplayers: {min: 2, max: 2}\ncards: [gone.yaml]\n"),
                       ("headless", "game: headless\ntitle: No Players\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.yaml").write_text(head, encoding="utf-8")
    monkeypatch.setattr(paths, "data_dir", lambda folder: tmp_path)
    monkeypatch.setattr(authoring, "data_dir", lambda folder: tmp_path)
    assert cli.main(["games"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["fine           Fine Game            2 players (default 2)",
                   "headless       (broken: run `meeple validate headless`)"]


def test_every_bundled_schema_is_a_valid_json_schema():
    """The validators skip the metaschema check at start-up, so it is made here."""
    import json

    from jsonschema import Draft202012Validator

    from interpreter.paths import data_dir

    schemas = sorted(data_dir("schemas").glob("*.json"))
    assert schemas
    for path in schemas:
        Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_the_parser_of_one_command_is_that_of_the_whole_tree():
    """`meeple COMMAND …` builds COMMAND's parser alone: the same options and help as in the tree of every
    command, and no other command beside it."""
    from interpreter import cli

    def parsers(tree):
        action = next(a for a in tree._actions if a.dest == "command")
        return action.choices

    every = parsers(cli.build_parser())
    assert set(every) == set(cli.COMMANDS)
    for name in cli.COMMANDS:
        alone = parsers(cli.build_parser(name))
        assert list(alone) == [name]
        assert alone[name].format_help() == every[name].format_help(), name
