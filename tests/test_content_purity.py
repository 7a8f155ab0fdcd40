"""Games are content: nothing under interpreter/ may name a card, zone, stat or phase of a bundled game."""

import ast
import builtins
import functools
import re
from pathlib import Path

import yaml

from interpreter import load_game
from interpreter.lang.parser import keywords
from interpreter.load.loader import bundled_games
from interpreter.paths import data_dir

ENGINE = Path(__file__).resolve().parent.parent / "interpreter"
# The launch games' own words: never anywhere in the engine, not even in a comment.
LAUNCH_WORDS = re.compile(
    r"\b(donkeys?|drovers?|overloaded|passengers?|pilots?|dogfights?|cargo|sky.?haulers?|artifacts?)\b", re.IGNORECASE)
# Words every card game shares, which the engine may use in their generic sense (and the standard
# library's own names that happen to match a game's verb).
GENERIC = {"round", "turn", "name", "id", "kind", "text", "value", "count", "first", "last", "top", "bottom",
           "setup", "players", "player", "owner", "effect", "hand", "deck", "discard", "load", "loads", "score",
           "scores", "table", "use",
           # the common vocabulary of classic card games (ranks and suits, tricks, books, the stock)
           "rank", "ranks", "suit", "suits", "trick", "tricks", "lead", "led", "book", "books", "stock", "deal",
           "deals", "dealer", "pass", "passed", "out", "points", "pool", "keep", "plural", "draw", "draws", "pick",
           "picks", "won", "wins", "winner", "hearts", "spades", "clubs", "diamonds", "ask", "asks",
           "play", "plays",  # also the engine's own command (`meeple play`)
           }  # `load` and `loads`: also pickle's, and the adapters' `openspiel.load` of the contract


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's where there is one: the same data, faster


@functools.cache  # (read once for the module's tests)
def game_vocabulary(card_words: bool = True) -> frozenset[str]:
    """Every name a bundled game declares: zones, counters, phases, verbs, properties, cards.

    A one-word card (`Loop`, `Bank`) is ordinary English, so `card_words=False` leaves those out
    (for checking the engine's messages rather than its code names)."""
    words: set[str] = set()
    for game in bundled_games():
        folder = data_dir("cards") / game
        spec = yaml.load((folder / "game.yaml").read_text(), Loader=LOADER)
        for section in ("zones", "procedures", "functions", "phases", "properties", "invariants"):
            words |= set(spec.get(section) or {})
        for scope in ("player", "game"):
            words |= set((spec.get("counters") or {}).get(scope) or {})
        words |= set(spec.get("abilities") or [])
        for proc in (spec.get("procedures") or {}).values():
            words |= {form.replace(" ", "_") for form in proc["forms"]}
        for card in load_game(game).model.cards:  # written out or generated
            for word in (card.id, card.name.lower().replace(" ", "_")):
                if card_words or "-" in word or "_" in word:
                    words.add(word)
    return frozenset({w for w in words if len(w) > 2} - GENERIC - keywords() - set(dir(builtins)))


WORD = re.compile(r"[a-z][a-z0-9_-]*")
PHRASE = re.compile(r"[a-z]+(?: [a-z]+)+")


def engine_names(tree: ast.AST) -> list[tuple[int, str, bool]]:
    """Identifiers (True) and non-docstring string words (False) of one module (one walk: a module, class or
    function comes before what its body holds, so its docstring is known before the walk meets it)."""
    docstrings: set[int] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.append((node.lineno, node.id, True))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr, True))
        elif isinstance(node, ast.arg):
            found.append((node.lineno, node.arg, True))
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value.lower()
                found += [(node.lineno, w, False) for w in WORD.findall(text)]
                found += [(node.lineno, p.replace(" ", "_"), False) for p in PHRASE.findall(text)]
        elif isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                found.append((node.lineno, node.name, True))
            if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
                docstrings.add(id(node.body[0].value))
    return found


def test_the_interpreter_names_no_zone_counter_verb_or_card_of_a_bundled_game():
    code_words, message_words = game_vocabulary(), game_vocabulary(card_words=False)
    assert {"cargo-1", "pile", "capacity"} <= code_words and "loop" not in message_words
    hits = [f"{path.name}:{line}: {word}"
            for path in sorted(ENGINE.rglob("*.py"))
            for line, word, is_code in engine_names(ast.parse(path.read_text()))
            if word.lower() in (code_words if is_code else message_words)]
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
