"""The cookbook's snippets are the games' own lines: each block names the file it is taken from, and
every line of it must still stand there, in order, so that the cookbook cannot go stale. A section
that no bundled game shows may be a small complete game (`example=NAME/FILE` blocks), written out here,
loaded, played at every player count and run through its scenarios (none does now: each example test
is one such game, and without one pytest reports the test skipped)."""

import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.run.match import play_random
from interpreter.scenarios import load_scenarios, play

ROOT = Path(__file__).resolve().parent.parent
COOKBOOK = ROOT / "docs" / "cookbook.md"
# A fenced block: ```yaml from=cards/low-tide/game.yaml
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
SOURCE = re.compile(r"\bfrom=(\S+)")
EXAMPLE = re.compile(r"\bexample=(\S+)")
# A line of a snippet that stands for lines left out: `# …`, at any indentation.
ELISION = re.compile(r"^\s*#\s*…\s*$")
# Where a snippet may come from: a bundled game, or a test game that the tests load and play.
SOURCES = ("cards/", "tests/games/")


def snippets(text: str, marker: re.Pattern = SOURCE) -> list[tuple[int, str | None, list[str]]]:
    """Each fenced block of a Markdown text: its line number, the file it names (or None), its lines."""
    return [(text.count("\n", 0, m.start()) + 1, (marker.search(m.group(2)) or [None, None])[1],
             m.group(3).splitlines()) for m in FENCE.finditer(text)]


def missing_lines(snippet: list[str], source: list[str]) -> list[str]:
    """The snippet's lines that do not stand in the source: each run of lines between two `# …` must be
    a run of the source's lines, and the runs must come in the source's order."""
    runs, run = [], []
    for line in snippet:
        if ELISION.match(line):
            runs.append(run)
            run = []
        else:
            run.append(line.rstrip())
    runs.append(run)
    lines = [line.rstrip() for line in source]
    at = 0
    for run in filter(None, runs):
        found = next((i for i in range(at, len(lines) - len(run) + 1) if lines[i:i + len(run)] == run), None)
        if found is None:
            return run
        at = found + len(run)
    return []


TEXT = COOKBOOK.read_text(encoding="utf-8")
EXAMPLES = [(line, path, lines) for line, path, lines in snippets(TEXT, EXAMPLE) if path]
BLOCKS = [block for block in snippets(TEXT) if block[0] not in {line for line, _, _ in EXAMPLES}]


def test_the_cookbook_has_snippets():
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize(("line", "source", "lines"), BLOCKS, ids=[f"cookbook.md:{b[0]}" for b in BLOCKS])
def test_every_cookbook_snippet_is_lines_of_the_game_file_it_names(line, source, lines):
    assert source, f"cookbook.md:{line}: a snippet must name the file it comes from (```yaml from=PATH)"
    assert source.startswith(SOURCES) and ".." not in source, f"cookbook.md:{line}: {source} is not a game's file"
    path = ROOT / source
    assert path.is_file(), f"cookbook.md:{line}: no file {source}"
    gone = missing_lines(lines, path.read_text(encoding="utf-8").splitlines())
    assert not gone, f"cookbook.md:{line}: these lines no longer stand in {source}:\n" + "\n".join(gone)


def test_a_changed_line_left_out_lines_or_a_changed_order_is_caught():
    source = ["phases:", "  deal: |", "    shuffle deck", "    deal 5", "  play: |", "    play a card"]
    assert missing_lines(["  deal: |", "    shuffle deck"], source) == []
    assert missing_lines(["phases:", "  # …", "    play a card"], source) == []
    assert missing_lines(["  deal: |", "    deal 7"], source) == ["  deal: |", "    deal 7"]
    assert missing_lines(["  deal: |", "    deal 5"], source) == ["  deal: |", "    deal 5"]   # a line left out unsaid
    assert missing_lines(["    play a card", "  # …", "    shuffle deck"], source) == ["    shuffle deck"]


def test_a_block_without_its_source_is_found():
    text = "Intro\n\n```yaml from=cards/go-fish/game.yaml\ngame: go-fish\n```\n\n```yaml\nrounds: 3\n```\n"
    assert snippets(text) == [(3, "cards/go-fish/game.yaml", ["game: go-fish"]), (7, None, ["rounds: 3"])]


EXAMPLE_GAMES = sorted({path.split("/")[0] for _, path, _ in EXAMPLES})


@pytest.mark.parametrize("name", EXAMPLE_GAMES)
def test_a_cookbook_example_loads_passes_its_scenarios_and_plays_at_every_player_count(name, tmp_path):
    for line, path, lines in EXAMPLES:
        assert ".." not in path and not path.startswith("/"), f"cookbook.md:{line}: {path}"
        if path.split("/")[0] == name:
            target = tmp_path / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    game = load_game(tmp_path / name)
    scenarios = load_scenarios(game)
    assert scenarios, f"the cookbook's {name} pins no rule with a scenario"
    for sc in scenarios:
        play(sc)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(20):
            assert play_random(game, players, seed).over
