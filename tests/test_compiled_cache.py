"""The compiled-game cache: a game folder compiled once is read back in a later process (no stage runs), the
same game; an entry is never trusted across engines or edits, a broken one is compiled and written again."""

import pickle
from pathlib import Path

import pytest

from interpreter import RuleError, cache, load_game
from interpreter import game as game_module
from interpreter.run.sim import simulate

GAME = """
game: cached
title: Cached
players: {min: 2, max: 2}
cards: [cards.yaml]
counters:
  game:
    total: 3
zones:
  hand: {owner: player, visibility: owner}
  table: {visibility: public}
phases:
  play: |
    let c = I choose a card from my hand "Play which card?"
    move c to table
    add 12 / (round - 2) to total
flow: {rounds: 3, turn: [play]}
result: {score: count(table)}
"""
CARDS = "cards:\n  - {id: a, name: A, each_player: true, count: 3, start: hand}\n"


@pytest.fixture
def entries(tmp_path, monkeypatch):
    """The cache in a folder of the test's own; what is in it."""
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(where))
    game_module._load.cache_clear()  # nothing kept in this process either
    yield lambda: sorted(where.glob("*.pickle"))
    game_module._load.cache_clear()


def write_game(tmp_path, game: str = GAME):
    folder = tmp_path / "cached"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(game.lstrip(), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def compiles(monkeypatch) -> list[str]:
    """Count the games compiled from their folder (not read from the cache)."""
    calls: list[str] = []
    compile_folder = game_module._compile

    def counted(root, filename):
        calls.append(str(root))
        return compile_folder(root, filename)

    monkeypatch.setattr(game_module, "_compile", counted)
    return calls


def again(folder):
    """The game loaded as a new process would load it (nothing kept in this one)."""
    game_module._load.cache_clear()
    return load_game(folder)


def test_a_game_compiled_once_is_read_back_the_same(tmp_path, entries, monkeypatch):
    folder = write_game(tmp_path)
    calls = compiles(monkeypatch)
    first = load_game(folder)
    assert len(calls) == 1 and len(entries()) == 1
    second = again(folder)
    assert len(calls) == 1  # read from the cache: no stage ran
    assert second is not first and second.python_source == first.python_source
    assert second.flow.keys() == first.flow.keys() and second.prompts == first.prompts
    with pytest.raises(RuleError) as one:
        simulate(first, 2, 5)
    with pytest.raises(RuleError) as other:  # the same match, failing at the same YAML place
        simulate(second, 2, 5)
    line = GAME.lstrip().splitlines().index("    add 12 / (round - 2) to total") + 1
    assert str(one.value) == str(other.value)
    assert str(other.value).startswith(f"{folder.resolve() / 'game.yaml'}:{line}:")


def test_an_edit_or_another_engine_compiles_again(tmp_path, entries, monkeypatch):
    folder = write_game(tmp_path)
    calls = compiles(monkeypatch)
    load_game(folder)
    write_game(tmp_path, GAME.replace("total: 3", "total: 4"))
    assert again(folder).model.counters["total"].initial == 4 and len(calls) == 2
    monkeypatch.setattr(cache, "engine_digest", lambda: "another engine")
    again(folder)
    assert len(calls) == 3 and len(entries()) == 3


@pytest.mark.parametrize("damage", [b"", b"garbage", b"meeple compiled game 1\n\x80\x04truncated",
                                    "another key"])
def test_a_broken_entry_is_compiled_and_written_again(tmp_path, entries, monkeypatch, damage):
    folder = write_game(tmp_path)
    calls = compiles(monkeypatch)
    source = load_game(folder).python_source
    [entry] = entries()
    if damage == "another key":
        _, built, code = pickle.loads(entry.read_bytes()[len(cache._MAGIC):])
        damage = cache._MAGIC + pickle.dumps(("0" * 64, built, code))
    entry.write_bytes(damage)
    assert again(folder).python_source == source and len(calls) == 2
    assert entries() == [entry] and again(folder).python_source == source and len(calls) == 2  # whole again


def test_off_keeps_nothing(tmp_path, entries, monkeypatch):
    monkeypatch.setenv(cache.ENV, "off")
    folder = write_game(tmp_path)
    calls = compiles(monkeypatch)
    load_game(folder)
    again(folder)
    assert len(calls) == 2 and not (tmp_path / "cache").exists()


def test_a_cache_folder_that_cannot_be_written_only_costs_a_compile(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV, str(blocker / "cache"))
    game_module._load.cache_clear()
    folder = write_game(tmp_path)
    assert again(folder).name == "cached" and again(folder).name == "cached"
    game_module._load.cache_clear()


def test_only_the_newest_entries_are_kept(tmp_path, entries, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    for total in (5, 6, 7):
        write_game(tmp_path, GAME.replace("total: 3", f"total: {total}"))
        again(tmp_path / "cached")
    assert len(entries()) == 2


def test_a_pickled_game_is_the_game_loaded_from_its_folder(tmp_path, entries):
    game = load_game(write_game(tmp_path))
    assert pickle.loads(pickle.dumps(game)) is game
    other = pickle.loads(pickle.dumps(game.with_max_steps(50)))
    assert other.max_steps == 50 and other.python_source is game.python_source


def test_another_step_limit_leaves_the_loaded_game_as_it_was(tmp_path, entries):
    """`--max-steps` gives a copy: the game loaded in the process (which later matches, pickles and other
    commands take) keeps its own limit."""
    game = load_game(write_game(tmp_path))
    limit = game.max_steps
    other = game.with_max_steps(50)
    assert other is not game and other.max_steps == 50 and other.python_source is game.python_source
    assert game.max_steps == limit and load_game(tmp_path / "cached").max_steps == limit


def test_a_file_read_and_checked_once_is_neither_parsed_nor_checked_again(tmp_path, entries, monkeypatch):
    """Beside compiled games the cache keeps a YAML file's data and source map, and that the data passed its
    schema (what `validate` reads in a game's scenarios each time), keyed by the file's path and text."""
    from interpreter.load import schema, source
    from interpreter.paths import data_dir

    parsed, checked = [], []
    real_parse, real_check = source._parse, schema._validate
    monkeypatch.setattr(source, "_parse", lambda *a: parsed.append(a[0]) or real_parse(*a))
    monkeypatch.setattr(schema, "_validate", lambda *a: checked.append(a[3]) or real_check(*a))
    file = tmp_path / "donkeys.yaml"
    file.write_bytes((data_dir("cards") / "overloaded" / "scenarios" / "donkeys.yaml").read_bytes())

    def read_and_check() -> list:
        data, smap = source.load_yaml(file)
        assert smap.pos((0, "name")).line > 0
        return schema.validate(data, smap, "scenario.schema.json", str(file))

    assert read_and_check() == [] and len(parsed) == len(checked) == 1
    assert read_and_check() == [] and len(parsed) == len(checked) == 1  # read back: neither runs again
    assert len(list((tmp_path / "cache" / "values").glob("*.pickle"))) == 2 and entries() == []
    file.write_text(file.read_text() + "# an edit\n")
    assert read_and_check() == [] and (len(parsed), len(checked)) == (2, 1)  # another text, the same data
    file.write_text(file.read_text().replace("name: ", "name: edited ", 1))
    assert read_and_check() == [] and (len(parsed), len(checked)) == (3, 2)  # other data: checked again
    file.write_text(file.read_text().replace("name:", "nome:", 1))
    assert read_and_check() and read_and_check() and (len(parsed), len(checked)) == (4, 4)  # failing: each time
    monkeypatch.setenv(cache.ENV, "off")
    read_and_check()
    assert len(parsed) == 5  # off: nothing kept, nothing read back


def test_the_engine_is_named_by_its_files_bytes_worked_out_once_while_they_stand(tmp_path, entries, monkeypatch):
    files = [tmp_path / "engine.py", tmp_path / "grammar.lark"]
    for f in files:
        f.write_text("x = 1\n")
    monkeypatch.setattr(cache, "_engine_files", lambda: [str(f) for f in files])
    written = []
    real_write = cache.write_value
    monkeypatch.setattr(cache, "write_value", lambda name, value: written.append(value) or real_write(name, value))

    def digest() -> str:
        cache.engine_digest.cache_clear()  # as a new process would
        return cache.engine_digest()

    first = digest()
    assert digest() == first and written == [first]  # the second time only looked up
    files[0].write_text("x = 22\n")
    second = digest()
    assert second != first and written == [first, second]  # an edit: worked out from the bytes again
    files[0].write_text("x = 1\n")
    assert digest() == first  # the bytes name it, not when they were written
    cache.engine_digest.cache_clear()


def test_the_engine_is_every_module_of_the_package_with_its_grammar_and_schemas():
    """An entry is trusted only by the engine that wrote it: every module counts, in every subpackage, and no
    bytecode file (which Python writes as it pleases)."""
    package = Path(cache.__file__).resolve().parent
    modules = sorted(str(p) for p in package.rglob("*.py") if "__pycache__" not in p.parts)
    files = cache._engine_files()
    assert [f for f in files if f.endswith(".py")] == modules
    assert str(package / "run" / "runtime.py") in files and str(package / "cli" / "__init__.py") in files
    others = [Path(f) for f in files if not f.endswith(".py")]
    assert {p.suffix for p in others} == {".lark", ".json"}
    assert {p.name for p in others} >= {"meeple.lark", "game.schema.json", "log.schema.json"}
