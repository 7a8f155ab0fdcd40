"""The compiler's shape: a statement is added the way docs/architecture.md says, the stages import
only earlier ones (no cycle), and generated code can be read and traced back to the YAML."""

import ast
import functools
import linecache
import re
import textwrap
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from lark import Lark

from interpreter.diagnostics import Anchor, AuthoringError, DslSyntaxError
from interpreter.game import load_game
from interpreter.lang import nodes as n
from interpreter.lang import parser
from interpreter.lang.resolve_statements import STATEMENTS  # (the table as the resolver reads it: blocks.py's too)
from interpreter.lang.statements import statement
from interpreter.paths import data_dir
from interpreter.run.match import play_random
from interpreter.run.runtime import RuleError

ENGINE = Path(__file__).resolve().parent.parent / "interpreter"
STAGES = ("load", "lang", "run")  # each may import only itself and earlier ones


def write_game(tmp_path, main: str) -> Path:
    """A two-player game of one round whose one phase is `main` (a `|` block: its first line is line 10)."""
    body = textwrap.indent(textwrap.dedent(main).strip() + "\n", "    ")
    (tmp_path / "game.yaml").write_text(
        "game: shape\ntitle: Shape\nplayers: {min: 2, max: 2}\ncards: [cards.yaml]\n"
        "zones: {deck: {visibility: hidden, face: down}, table: {visibility: public}}\n"
        "counters: {game: {pot: 0}}\nflow: {rounds: 1, round: [main]}\nphases:\n  main: |\n" + body)
    cards = [{"id": f"c{i}", "start": "deck"} for i in range(1, 4)]
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}))
    return tmp_path


# ---- adding a statement, in the documented steps ----------------------------------------------------


REAL_LARK = parser._lark


@pytest.fixture(scope="module")
def double_grammar():
    """Step 1 of docs/architecture.md for a toy statement `double COUNTER`: a grammar rule, listed among the
    simple statements (the parser made once for the module's tests: analysing the grammar is most of their work)."""
    grammar = (data_dir("grammar") / "meeple.lark").read_text(encoding="utf-8")
    grammar += '\ndouble: "double" expr\n%extend _simple: double\n'
    layout = parser._Layout()
    lark = Lark(grammar, parser="lalr", lexer="basic", postlex=layout, start=["start", "expr_start"],
                propagate_positions=True, maybe_placeholders=True)
    return lark, layout


@pytest.fixture
def double_statement(monkeypatch, double_grammar):
    """Steps 1–4 of docs/architecture.md for a toy statement `double COUNTER` (×2 a game counter)."""
    # 1. the grammar with its rule (double_grammar), fed to the parser from the test
    monkeypatch.setattr(parser, "_lark", lambda: double_grammar)

    # 2. one node class, registered under the rule's name; 3. what it does declared (it does not ask)
    @statement("double")
    @dataclass(eq=False)
    class Double(n.Stmt):
        counter: n.Expr
        effects = frozenset({n.COUNTS})

        # 4. resolve: check the tree, return the typed node …
        @classmethod
        def resolve(cls, r, tree, scope):
            value = r.expr(tree.children[0], scope)
            if not isinstance(value, n.GameCounter):
                r.fail(r.pos(tree), "`double` doubles a game counter")
            return cls(value)

        # … and emit: write it as Python
        def emit(self, w):
            target = self.counter.emit(w)
            w.line(f"{target} = {target} * 2")

    yield Double
    del STATEMENTS["double"]


def test_a_statement_added_as_documented_compiles_and_runs(tmp_path, double_statement):
    game = load_game(write_game(tmp_path, "add 3 to pot\ndouble pot\ndouble pot"))
    m = play_random(game, 2, 0)
    assert m.over and game.flow["round"][0][1] is False  # it does not ask: the phase is no generator
    assert "G[COUNTER_pot] = G[COUNTER_pot] * 2" in game.python_source


def test_a_statement_added_as_documented_reports_its_own_errors(tmp_path, double_statement):
    with pytest.raises(AuthoringError, match="`double` doubles a game counter") as err:
        load_game(write_game(tmp_path, "nothing\ndouble table"))
    assert err.value.diagnostics[0].pos.line == 11  # the second line of the phase text


def test_a_text_read_by_the_added_statement_is_read_again_by_a_grammar_without_it(monkeypatch, double_statement):
    """The parser keeps the trees of texts it has read: never those another grammar made."""
    at = Anchor("game.yaml", 1, 1)
    assert parser.parse("double pot\n", at, {}).children[0].data == "double"
    monkeypatch.setattr(parser, "_lark", REAL_LARK)
    with pytest.raises(DslSyntaxError):
        parser.parse("double pot\n", at, {})


def test_every_grammar_statement_has_one_class():
    grammar = (data_dir("grammar") / "meeple.lark").read_text(encoding="utf-8")
    simple = re.search(r"^_simple: (.*?)\n\n", grammar, re.M | re.S).group(1)
    compound = re.search(r"^_compound: (.*)$", grammar, re.M).group(1)
    rules = set(re.findall(r"[a-z_]+", simple + " " + compound))
    assert rules == set(STATEMENTS)


# ---- the import graph ---------------------------------------------------------------------------------


def module_name(path: Path, package: Path = ENGINE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache  # the engine's graph, read once for the module's tests
def module_imports(package: Path = ENGINE) -> dict[str, set[str]]:
    """Module → the modules of `package` (the interpreter) it imports anywhere: at its top, inside functions
    (imported when they first run) and under `if TYPE_CHECKING:` (for type hints only) alike. `from package
    import module` is an import of that module (its package's `__init__` runs first for any module of it)."""
    paths = {module_name(path, package): path for path in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
                names = {f"{module}.{a.name}" for a in node.names}
                found |= names & paths.keys() if names <= paths.keys() else {module}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def test_no_stage_imports_a_later_one():
    wrong = []
    for name, deps in module_imports().items():
        stage = name.split(".")[1] if name.count(".") >= 1 else None
        if stage not in STAGES:
            continue
        for dep in deps:
            other = dep.split(".")[1] if dep.count(".") >= 1 else None
            if other in STAGES and STAGES.index(other) > STAGES.index(stage):
                wrong.append(f"{name} imports {dep}")
    assert not wrong, wrong


# What the run stage may import besides the stages: the leaf modules below every stage; and, asked for only
# when a `sim` names bots other than random ones, the bots' lineup (the bots play from seat handles above).
BELOW_THE_STAGES = {"interpreter.diagnostics", "interpreter.limits"}
RUN_ASKS_ABOVE = {("interpreter.run.sim", "interpreter.bots.lineup")}


def test_the_run_stage_is_handed_its_game_and_names_no_module_above_it():
    graph = module_imports()
    above = sorted((name, dep) for name, deps in graph.items() if name.startswith("interpreter.run.")
                   for dep in deps if dep.split(".")[1] not in STAGES and dep not in BELOW_THE_STAGES)
    assert "interpreter.run.playable" in graph["interpreter.run.sim"]  # the `Game` interface it plays
    assert set(above) == RUN_ASKS_ABOVE, above


# Import cycles still to be broken, each a strongly connected set of modules; a cycle not listed fails, and so
# does a listed one that is gone (take it off the list).
KNOWN_CYCLES: set[frozenset[str]] = set()
# (None is left. The run stage's last ones: a world drawn or told its chance is made by the class of the match
# given, so belief and chance import no match back; a seat handle names a `Seated` protocol, not the match module
# that hands it out; the illegal-action value both return lives below them both, in run/invalid.py.)


def import_cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.add(frozenset(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_the_modules_import_one_another_without_a_cycle():
    graph = module_imports()
    assert "interpreter.lang.compiler" in graph["interpreter.game"]  # the graph is really read: a call's import…
    assert "interpreter.lang.nodes" in graph["interpreter.lang.compiler"]  # …and a top one
    cycles = import_cycles(graph)
    assert cycles - KNOWN_CYCLES == set(), "new import cycles: " + "; ".join(sorted(
        " ".join(sorted(c)) for c in cycles - KNOWN_CYCLES))
    assert KNOWN_CYCLES - cycles == set(), "these cycles are gone: take them off KNOWN_CYCLES"


def test_a_cycle_through_a_function_or_type_hints_is_seen(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == {frozenset("abc")}
    assert import_cycles(module_imports() | {"interpreter.limits": {"interpreter.game"}}) - KNOWN_CYCLES
    # a package whose modules import one another at the top, in a function and for type hints only, round a cycle
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "top.py").write_text("from . import inner\n")
    (package / "inner.py").write_text("def f():\n    from .hinted import g\n    return g\n")
    (package / "hinted.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                                       "    from .top import inner\n")
    (package / "alone.py").write_text("import pkg.top\n")
    graph = module_imports(package)
    assert graph["pkg.alone"] == {"pkg.top"}
    assert import_cycles(graph) == {frozenset({"pkg.top", "pkg.inner", "pkg.hinted"})}


# ---- generated code that can be read and traced --------------------------------------------------------


def test_generated_code_is_headed_by_its_yaml_places(tmp_path):
    game = load_game(write_game(tmp_path, "add 1 to pot\nif pot > 0:\n  add 2 to pot"))
    src = game.python_source
    assert "# game.yaml:10  phase main\ndef phase_main(st):" in src
    assert "# game.yaml:11  if pot > 0:" in src and "# game.yaml:12  add 2 to pot" in src


def test_each_generated_line_knows_its_dsl_place(tmp_path):
    game = load_game(write_game(tmp_path, "add 1 to pot\nif pot > 0:\n  add 2 to pot"))
    lines = game.python_source.splitlines()
    where = {text.strip(): game.anchor_at(i) for i, text in enumerate(lines, 1)}
    first, second = where["G[COUNTER_pot] += 1"], where["G[COUNTER_pot] += 2"]
    assert (Path(first.file).name, first.line, first.col) == ("game.yaml", 10, 5)
    assert (second.line, second.col) == (12, 7)
    assert game.anchor_at(0) is None and game.anchor_at(len(lines) + 1) is None


def test_a_traceback_shows_the_generated_lines(tmp_path):
    game = load_game(write_game(tmp_path, "add 1 to pot\nset pot to pot / (pot - 1)"))
    assert game.code_filename == f"<meeple game {tmp_path.resolve()}>"
    with pytest.raises(RuleError) as err:
        play_random(game, 2, 0)
    assert str(err.value).startswith(f"{tmp_path.resolve() / 'game.yaml'}:11:5: division by zero")
    failure = err.value.__cause__  # what the generated code raised
    frames = [f for f in traceback.extract_tb(failure.__traceback__) if f.filename == game.code_filename]
    assert frames and frames[-1].line == "G[COUNTER_pot] = floordiv(G[COUNTER_pot], (G[COUNTER_pot] - 1))"
    assert linecache.getline(game.code_filename, frames[-1].lineno).strip() == frames[-1].line
    assert game.anchor_at(frames[-1].lineno).line == 11


def test_every_package_of_the_engine_is_installed():
    """`pip install .` installs the packages pyproject.toml lists, no others: a folder of modules under interpreter/
    left off the list would be missing from an installed engine (its imports failing there, though not from a
    checkout, where the tests run)."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "interpreter").rglob("__init__.py")}
    missing = sorted(found - listed)
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"
