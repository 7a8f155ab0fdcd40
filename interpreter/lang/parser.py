"""Stage 3: DSL text → lark tree, with every position shifted into the YAML file that holds the text."""

from __future__ import annotations

from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from ..diagnostics import Diagnostic, DslSyntaxError, Pos, did_you_mean
from ..paths import data_dir


class _Layout(Indenter):
    """Indentation blocks plus game verbs: NAME runs that spell a declared procedure form become one VERB."""

    NL_type = "_NL"
    OPEN_PAREN_types = ("LPAR",)
    CLOSE_PAREN_types = ("RPAR",)
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, list[tuple[str, ...]]] = {}

    def process(self, stream):
        return super().process(self._verbs(stream))

    def _verbs(self, stream):
        pending: list[Token] = []
        forms = self.forms
        for tok in stream:
            pending.append(tok)
            while pending:
                first = pending[0]
                if first.value not in forms:
                    yield pending.pop(0)
                    continue
                words = [t.value for t in pending]
                candidates = forms[first.value]
                if any(len(f) > len(words) and tuple(words) == f[: len(words)] for f in candidates):
                    break  # a longer form may still match: read on
                best = max((f for f in candidates if tuple(words[: len(f)]) == f), key=len, default=None)
                if best is None:
                    yield pending.pop(0)
                    continue
                verb = Token.new_borrow_pos("VERB", " ".join(best), first)
                del pending[: len(best)]
                yield verb
        yield from pending


@lru_cache(maxsize=1)
def _lark() -> tuple[Lark, _Layout]:
    layout = _Layout()
    grammar = (data_dir("grammar") / "meeple.lark").read_text(encoding="utf-8")
    parser = Lark(
        grammar,
        parser="lalr",
        lexer="basic",
        postlex=layout,
        start=["start", "expr_start"],
        propagate_positions=True,
        maybe_placeholders=True,
        # The LALR tables are kept in a temp file keyed by the grammar's hash (a stale or broken cache
        # file is rebuilt): a new process starts in milliseconds instead of analysing the grammar again.
        cache=True,
    )
    return parser, layout


def keywords() -> set[str]:
    """The DSL's reserved words (a game may not use them as names)."""
    parser, _ = _lark()
    return {
        t.pattern.value
        for t in parser.terminals
        if t.pattern.type == "str" and t.pattern.value.isidentifier()
    }


def parse(text: str, at: Pos, verbs: dict[str, list[tuple[str, ...]]], expression: bool = False) -> Tree:
    """Parse a statement block (or one expression) that starts at `at` in its file."""
    parser, layout = _lark()
    layout.forms = verbs
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = parser.parse(source, start="expr_start" if expression else "start")
    except UnexpectedInput as err:
        found = _misspelt_start(err, source, verbs, at) or _diagnose(err, source, at)
        raise DslSyntaxError([found]) from None
    return tree


def _misspelt_start(err: UnexpectedInput, source: str, verbs: dict, at) -> Diagnostic | None:
    """'did you mean `shuffle`?' when the failing line starts with a near-miss of a keyword or verb."""
    lines = source.splitlines()
    line = getattr(err, "line", None)
    if not line or line > len(lines):
        return None
    words = lines[line - 1].split()
    if not words:
        return None
    first = words[0]
    known = keywords() | {" ".join(f) for forms in verbs.values() for f in forms}
    if first in known or not first.isidentifier():
        return None
    hint = did_you_mean(first, known)
    if hint is None:
        return None
    col = len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
    return Diagnostic(at.shifted(line, col), f"`{first}` is not a statement word or a declared verb", hint)


_NICE = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a quoted string",
    "VERB": "a game verb",
    "PLUS": "`+`",
    "MINUS": "`-`",
    "MUL_OP": "`*`, `/` or `%`",
    "THEN": "`, then`",
    "COMPARE": "a comparison",
    "$END": "end of text",
}


def _describe(terminal: str) -> str:
    parser, _ = _lark()
    if terminal in _NICE:
        return _NICE[terminal]
    for t in parser.terminals:
        if t.name == terminal and t.pattern.type == "str":
            return f"`{t.pattern.value}`"
    return terminal


def _diagnose(err: UnexpectedInput, source: str, at: Pos) -> Diagnostic:
    line = getattr(err, "line", None) or 1
    column = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedToken) and err.token.type in ("_NL", "_DEDENT", "$END"):
        # Point at the end of the line that stopped early, not at the start of the next one.
        lines = source.splitlines()
        if err.token.type == "_NL" or err.token.line is None or line - 1 >= len(lines):
            line = max(1, min(line, len(lines)))
        column = len(lines[line - 1]) + 1 if lines else 1
    pos = at.shifted(line, column)
    if isinstance(err, UnexpectedCharacters):
        char = source[err.pos_in_stream] if err.pos_in_stream < len(source) else "end of text"
        return Diagnostic(pos, f"unexpected character {char!r}", "check for a typo or a missing quote")
    expected = sorted(getattr(err, "expected", None) or getattr(err, "accepts", None) or [])
    names = [_describe(e) for e in expected if not e.startswith("__")]
    want = ", ".join(names[:12]) + (f" (or {len(names) - 12} more)" if len(names) > 12 else "")
    if isinstance(err, UnexpectedToken):
        tok = err.token
        found = _NICE.get(tok.type) if tok.type in _NICE and tok.type != "NAME" else f"`{tok.value}`"
        hint = None
        if tok.type == "NAME" and "VERB" in expected:
            hint = f"`{tok.value}` is not a declared verb: declare it under procedures: in game.yaml"
        elif tok.type != "NAME" and tok.value in keywords() and "NAME" in expected:
            hint = f"`{tok.value}` is a DSL keyword and cannot be used as a name"
        return Diagnostic(pos, f"unexpected {found}; expected one of: {want}", hint)
    if isinstance(err, UnexpectedEOF):
        return Diagnostic(pos, f"the text ends too early; expected one of: {want}")
    return Diagnostic(pos, str(err).splitlines()[0])
