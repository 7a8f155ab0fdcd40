"""Games are content: nothing under interpreter/ may name a card, zone, stat or phase of a bundled game."""

import ast
import re
from pathlib import Path

import yaml

from interpreter.loader import bundled_games
from interpreter.parser import keywords
from interpreter.paths import data_dir

ENGINE = Path(__file__).resolve().parent.parent / "interpreter"
# The launch games' own words: never anywhere in the engine, not even in a comment.
LAUNCH_WORDS = re.compile(
    r"\b(donkeys?|drovers?|overloaded|passengers?|pilots?|dogfights?|cargo|sky.?haulers?|artifacts?)\b", re.I)
# Words every card game shares, which the engine may use in their generic sense (and the standard
# library's own names that happen to match a game's verb).
GENERIC = {"round", "turn", "name", "id", "kind", "text", "value", "count", "first", "last", "top", "bottom",
           "setup", "players", "player", "owner", "effect", "hand", "deck", "discard", "loads", "score",
           "scores", "table", "use"}


def game_vocabulary() -> set[str]:
    """Every name a bundled game declares: zones, counters, phases, verbs, properties, cards."""
    words: set[str] = set()
    for game in bundled_games():
        folder = data_dir("cards") / game
        spec = yaml.safe_load((folder / "game.yaml").read_text())
        for section in ("zones", "procedures", "functions", "phases", "properties", "invariants"):
            words |= set(spec.get(section) or {})
        for scope in ("player", "game"):
            words |= set((spec.get("counters") or {}).get(scope) or {})
        words |= set(spec.get("abilities") or [])
        for proc in (spec.get("procedures") or {}).values():
            words |= {w for form in proc["forms"] for w in form.split()}
        for card_file in spec["cards"]:
            for card in yaml.safe_load((folder / card_file).read_text())["cards"]:
                words.add(card["id"])
                words |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]+", card.get("name", ""))}
    return {w for w in words if len(w) > 2} - GENERIC - keywords()


def engine_names(tree: ast.AST) -> list[tuple[int, str]]:
    """Identifiers and non-docstring string words of one module."""
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
        and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            found.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((line, node.attr))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            found.append((line, node.name))
        elif isinstance(node, ast.arg):
            found.append((line, node.arg))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found += [(line, w) for w in re.findall(r"[a-z][a-z0-9_-]*", node.value.lower())]
    return found


def test_the_interpreter_names_no_zone_counter_verb_or_card_of_a_bundled_game():
    vocabulary = game_vocabulary()
    assert {"cargo-1", "pile", "capacity"} <= vocabulary
    hits = [f"{path.name}:{line}: {word}"
            for path in sorted(ENGINE.rglob("*.py"))
            for line, word in engine_names(ast.parse(path.read_text()))
            if word.lower() in vocabulary]
    assert not hits, "the interpreter names game words:\n" + "\n".join(hits)


def test_the_interpreter_never_mentions_a_launch_game():
    hits = [f"{path.name}:{n}: {line.strip()}"
            for path in sorted(ENGINE.rglob("*.py"))
            for n, line in enumerate(path.read_text().splitlines(), 1) if LAUNCH_WORDS.search(line)]
    assert not hits, "\n".join(hits)


def test_the_grammar_names_no_word_of_a_bundled_game():
    vocabulary = game_vocabulary()
    text = (data_dir("grammar") / "meeple.lark").read_text().lower()
    found = sorted(w for w in set(re.findall(r"[a-z][a-z0-9_-]*", text)) if w in vocabulary)
    assert not found, f"the grammar names game words: {found}"
    assert not LAUNCH_WORDS.search(text)
