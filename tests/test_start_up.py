"""Start-up: the commands that compile nothing import nothing heavy (the DSL parser, the schema checker,
Hypothesis), and `meeple games` lists the games without compiling them."""

from __future__ import annotations

import subprocess
import sys

import pytest

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
