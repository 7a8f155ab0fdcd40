"""Stage 3: DSL text → lark tree, with every position shifted into the YAML file that holds the text."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import ClassVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from ..diagnostics import Anchor, Diagnostic, DslSyntaxError, Pos
from ..paths import data_dir

MAX_ERRORS = 20  # syntax errors reported for one text; past that, the first ones are what to fix
MAX_DIGITS = 18  # the longest whole number a text may write (anything longer is surely a typo)


class _BadIndent(Exception):
    """A line indented to a depth that no enclosing block has (lark's DedentError, with its place)."""

    def __init__(self, line: int, indent: int, levels: list[int]) -> None:
        super().__init__(line)
        self.line, self.indent, self.levels = line, indent, levels

    def diagnostic(self, at: Pos | Anchor) -> Diagnostic:
        """Columns as the file has them: a YAML block's own indentation included."""
        here = at.shifted(self.line, self.indent + 1)
        columns = " or ".join(str(at.shifted(self.line, level + 1).col) for level in self.levels)
        return Diagnostic(here, f"this line starts at column {here.col}, but the blocks around it start at "
                                f"column {columns}", "indent it exactly like the other lines of its block")


class _Layout(Indenter):
    """Indentation blocks plus game verbs: NAME runs that spell a declared procedure form become one VERB."""

    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR"]  # lists, as lark declares them
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, list[tuple[str, ...]]] = {}

    def process(self, stream):
        return super().process(self._verbs(stream))

    def handle_NL(self, token: Token):
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent_str = token.rsplit("\n", 1)[1]
            indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
            raise _BadIndent((token.line or 1) + token.count("\n"), indent, levels) from None

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


NEWER_KEYWORDS = {
    "knock": "`knock out P`",
    "is": "`P is out`",
    "group": "`for each group g in …`",
}
"""Words that became keywords after games were written with them as names, and the statement or
expression that took them: content using one is told what to write instead (`renamed`)."""


def renamed(name: str) -> str:
    """The hint for a name that is a keyword: a word taken by a newer part of the language says so."""
    if name in NEWER_KEYWORDS:
        return (f"`{name}` became a keyword with {NEWER_KEYWORDS[name]}: rename it where it is "
                f"declared and used (for example `{name}_count`)")
    return f"`{name}` is a DSL keyword and cannot be used as a name"


def keywords() -> set[str]:
    """The DSL's reserved words (a game may not use them as names)."""
    parser, _ = _lark()
    return {
        t.pattern.value
        for t in parser.terminals
        if t.pattern.type == "str" and t.pattern.value.isidentifier()
    }


PARSED_KEPT = 1024
"""Texts whose trees a process keeps (`_parsed`, the least recently read go first): every text of the bundled
games four times over (243 texts, 1.9 MB of trees), in 8 MB or so at most."""


def parse(text: str, at: Pos | Anchor, verbs: dict[str, list[tuple[str, ...]]], expression: bool = False) -> Tree:
    """Parse a statement block (or one expression) that starts at `at` in its file.

    Every syntax error of a block is reported: after each one the parse starts again with the faulty line
    replaced by a stand-in of the same indentation (`nothing`, or `if true:` where a block follows).

    A text that parses without an error is parsed once per process: its tree depends only on the text, the
    kind and the verbs (positions in it count from the text's own first line; `at` places only diagnostics),
    so the same text anywhere (two cards with one ability, the same game loaded again) shares one tree, which
    nothing changes. A text with errors is parsed again each time, its diagnostics placed at its own `at`."""
    start = "expr_start" if expression else "start"
    try:
        return _parsed(_lark(), text, start, tuple((word, tuple(forms)) for word, forms in verbs.items()))
    except (UnexpectedInput, _BadIndent, _Oversized):
        return _parse_reporting(text, at, verbs, start, expression)


class _Oversized(Exception):
    """A text that parsed holds a number too long (`_oversized_numbers` places it)."""


@lru_cache(maxsize=PARSED_KEPT)
def _parsed(lark: tuple[Lark, _Layout], text: str, start: str,
            verbs: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]) -> Tree:
    """The tree of a text that has no syntax error (else lark's exception, or _Oversized), read by `lark` (the
    parser is part of the key: one made from another grammar never shares a tree with it)."""
    parser, layout = lark
    layout.forms = {word: list(forms) for word, forms in verbs}
    tree = parser.parse(text if text.endswith("\n") else text + "\n", start=start)
    if _oversized_numbers(tree, Pos("", 1, 1)):
        raise _Oversized
    return tree


def _parse_reporting(text: str, at: Pos | Anchor, verbs: dict[str, list[tuple[str, ...]]], start: str,
                     expression: bool) -> Tree:
    """`parse` of a text with an error: every error found, each at its place in the file."""
    parser, layout = _lark()
    layout.forms = verbs
    lines = (text if text.endswith("\n") else text + "\n").splitlines(keepends=True)
    found: list[Diagnostic] = []
    fixed_up_to = 0
    while True:
        source = "".join(lines)
        try:
            tree = parser.parse(source, start=start)
            break
        except UnexpectedInput as err:
            diagnostic, line = _explain(err, source, verbs, at, start, expression)
            indented = isinstance(err, UnexpectedToken) and err.token.type == "_INDENT"
            bad_indent = None
        except _BadIndent as err:
            diagnostic, line, indented, bad_indent = err.diagnostic(at), err.line, False, err
        found.append(diagnostic)
        if (expression or not fixed_up_to < line <= len(lines) or len(found) >= MAX_ERRORS
                or _open_ended(lines[line - 1])):
            raise DslSyntaxError(found)
        if bad_indent is not None:
            lines[line - 1] = _reindented(lines[line - 1], bad_indent)
        elif indented:
            lines[line - 1] = _indent_of(_code_line_before(lines, line - 1)) + lines[line - 1].lstrip(" \t")
        else:
            lines[line - 1] = _stand_in(lines, line - 1)
        fixed_up_to = line
    found += _oversized_numbers(tree, at)
    if found:
        raise DslSyntaxError(found)
    return tree


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _is_code(line: str) -> bool:
    return bool(line.strip()) and not line.strip().startswith("#")


def _code_line_before(lines: list[str], i: int) -> str:
    return next((line for line in reversed(lines[:i]) if _is_code(line)), "")


def _stand_in(lines: list[str], i: int) -> str:
    """A harmless statement in place of faulty line `i`, keeping the block structure around it."""
    here = _indent_of(lines[i])
    after = next((line for line in lines[i + 1:] if _is_code(line)), "")
    heads_block = _masked(lines[i]).rstrip().endswith(":") or len(_indent_of(after)) > len(here)
    return here + ("if true:" if heads_block else "nothing") + "\n"


def _open_ended(line: str) -> bool:
    """Whether a line leaves a bracket open (or closes one it did not open): it goes on past its end,
    so a stand-in for it alone would only start a run of false errors."""
    code = _masked(line)
    return code.count("(") != code.count(")")


def _reindented(line: str, err: _BadIndent) -> str:
    """A badly indented line moved to the nearest enclosing block's depth."""
    depth = max(level for level in err.levels if level <= err.indent)
    return " " * depth + line.lstrip(" \t")


def _oversized_numbers(tree: Tree, at: Pos | Anchor) -> list[Diagnostic]:
    """Whole numbers longer than MAX_DIGITS digits (in numbers and dice)."""
    found = []
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type in ("NUMBER", "DIE")):
        digits = tok.lstrip("d")
        if len(digits) > MAX_DIGITS:
            found.append(Diagnostic(at.shifted(tok.line, tok.column + len(tok) - len(digits)),
                                    f"the number {digits[:8]}… has {len(digits)} digits; numbers have at most "
                                    f"{MAX_DIGITS}", "check for a typo"))
    return found


_STRING = re.compile(r'"([^"\\\n]|\\.)*"')
_COMMENT = re.compile(r"#[^\n]*")
_SEPARATOR = re.compile(r",[ \t]*then\b|;|:")
_WORD = re.compile(r"[a-z_][a-z0-9_]*")


def _masked(line: str) -> str:
    """A line with the insides of strings and comments blanked, so that words and separators are code."""
    line = _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', line)
    return _COMMENT.sub(lambda m: " " * len(m.group()), line)


def _explain(err: UnexpectedInput, source: str, verbs: dict, at: Pos | Anchor, start: str,
             expression: bool) -> tuple[Diagnostic, int]:
    """The diagnostic of a parse error, and the line (of `source`) at fault."""
    unclosed = _unclosed(err, source)
    if unclosed is not None:
        line, col = unclosed
        return Diagnostic(at.shifted(line, col), "this `(` is never closed",
                          "close it with `)` before the statement ends"), line
    misspelt = _misspelt(err, source, verbs, at, start)
    if misspelt is not None:
        return misspelt, err.line
    return _diagnose(err, source, at, expression)


def _unclosed(err: UnexpectedInput, source: str) -> tuple[int, int] | None:
    """The line and column of a `(` that is open where the error is, was opened on an earlier line and
    is never closed (the error is then the bracket's fault, not the fault of what follows)."""
    at_end = isinstance(err, UnexpectedToken) and err.token.type == "$END"
    end = getattr(err, "pos_in_stream", None)
    end = len(source) if at_end or end is None or end < 0 else end
    opened: list[tuple[int, int]] = []
    suspect, depth = None, 0
    offset = 0
    for number, line in enumerate(source.splitlines(keepends=True), 1):
        for col, char in enumerate(_masked(line), 1):
            if suspect is None and offset + col - 1 >= end:
                if not opened or opened[-1][0] >= _line_at(source, end):
                    return None
                suspect, depth = opened[-1], len(opened)
            if char == "(":
                opened.append((number, col))
            elif char == ")" and opened:
                opened.pop()
                if suspect is not None and len(opened) < depth:
                    return None  # closed after all, further on
        offset += len(line)
    if suspect is None and opened and (at_end or opened[-1][0] < _line_at(source, end)):
        return opened[-1]
    return suspect


def _line_at(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def _misspelt(err: UnexpectedInput, source: str, verbs: dict, at: Pos | Anchor, start: str) -> Diagnostic | None:
    """'did you mean `move`?' when a near-miss of a DSL word or declared verb explains the error: the
    unexpected word itself, the first word of its statement, or the word just before it — a spelling
    counts only if the text then parses past the error."""
    lines = source.splitlines()
    line, column = getattr(err, "line", None), getattr(err, "column", None)
    if not line or not column or line > len(lines):
        return None
    code = _masked(lines[line - 1])
    col = min(column - 1, len(code))
    known = keywords() | {word for forms in verbs.values() for form in forms for word in form}
    separators = [m.end() for m in _SEPARATOR.finditer(code, 0, col)]
    head = _WORD.search(code, separators[-1] if separators else 0)
    before = list(_WORD.finditer(code, 0, col))
    here = _WORD.match(code, col)
    after = _WORD.search(code, here.end()) if here else None  # the second word of a verb such as `use advantage`
    candidates = [here, head if head and head.start() <= col else None,
                  before[-1] if before and not code[before[-1].end():col].strip() else None,
                  after if after and here and not code[here.end():after.start()].strip() else None]
    tried = set()
    for word in candidates:
        if word is None or word.group() in known or word.start() in tried:
            continue
        tried.add(word.start())
        for fix in difflib.get_close_matches(word.group(), known, n=3, cutoff=0.6):
            if _parses_past(source, lines, line, word, fix, col, start):
                what = "a statement word" if word is head else "a DSL word"
                return Diagnostic(at.shifted(line, word.start() + 1),
                                  f"`{word.group()}` is not {what} or a declared verb", f"did you mean `{fix}`?")
    return None


def _parses_past(source: str, lines: list[str], line: int, word: re.Match, fix: str, col: int, start: str) -> bool:
    """Whether the text, with `word` spelt `fix`, parses beyond the place of the error."""
    parser, _ = _lark()
    text = lines[line - 1]
    fixed = [*lines[: line - 1], text[: word.start()] + fix + text[word.end():], *lines[line:]]
    try:
        parser.parse("\n".join(fixed) + "\n", start=start)
    except UnexpectedInput as again:
        moved = max(0, len(fix) - len(word.group()))
        return (again.line or 0) > line or (again.line == line and (again.column or 0) - 1 > col + moved)
    except _BadIndent:
        return False
    return True


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


def _diagnose(err: UnexpectedInput, source: str, at: Pos | Anchor, expression: bool = False) -> tuple[Diagnostic, int]:
    """The diagnostic of a parse error (where, what was found, what could come), and its line."""
    line = getattr(err, "line", None) or 1
    column = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedToken) and err.token.type == "_INDENT":
        return _stray_indent(source, line, at)
    if isinstance(err, UnexpectedToken) and err.token.type in ("_NL", "_DEDENT", "$END"):
        line, column = _end_of_line(err, source, line)
    pos = at.shifted(line, column)
    if isinstance(err, UnexpectedCharacters):
        at_char = err.pos_in_stream
        char = source[at_char] if at_char is not None and at_char < len(source) else "end of text"
        return Diagnostic(pos, f"unexpected character {char!r}", "check for a typo or a missing quote"), line
    expected = sorted(getattr(err, "expected", None) or getattr(err, "accepts", None) or [])
    names = [_describe(e) for e in expected if not e.startswith("__")]
    want = ", ".join(names[:12]) + (f" (or {len(names) - 12} more)" if len(names) > 12 else "")
    if isinstance(err, UnexpectedToken):
        tok = err.token
        found = _NICE[tok.type] if tok.type in ("_NL", "_DEDENT", "$END") else f"`{tok.value}`"
        hint = _token_hint(tok, expected, expression and _starts_line(source, line, column))
        return Diagnostic(pos, f"unexpected {found}; expected one of: {want}", hint), line
    if isinstance(err, UnexpectedEOF):
        return Diagnostic(pos, f"the text ends too early; expected one of: {want}"), line
    return Diagnostic(pos, str(err).splitlines()[0]), line


def _stray_indent(source: str, line: int, at: Pos | Anchor) -> tuple[Diagnostic, int]:
    """A line indented under one that starts no block: at its first character (past blank lines and comments)."""
    lines = source.splitlines()
    line = next((n for n in range(line + 1, len(lines) + 1) if _is_code(lines[n - 1])), line)
    column = len(_indent_of(lines[line - 1])) + 1
    return Diagnostic(at.shifted(line, column), "this line is indented, but the line before it starts no block",
                      "indent a line only under one that ends with `:`"), line


def _end_of_line(err: UnexpectedToken, source: str, line: int) -> tuple[int, int]:
    """The end of the line that stopped early (line, column), not the start of the next one."""
    lines = source.splitlines()
    if err.token.type == "_NL" or err.token.line is None or line - 1 >= len(lines):
        line = max(1, min(line, len(lines)))
    return line, (len(lines[line - 1]) + 1 if lines else 1)


def _starts_line(source: str, line: int, column: int) -> bool:
    """Is the column that of a line's first character (past its indentation)?"""
    lines = source.splitlines()
    return 0 < line <= len(lines) and column == 1 + len(_indent_of(lines[line - 1]))


def _token_hint(tok: Token, expected: list[str], at_start: bool) -> str | None:
    """How to mend a text where `tok` came unexpected (`at_start`: a keyword starting a line of a value's text)."""
    if "_INDENT" in expected:
        return "a line ending with `:` needs an indented block under it"
    if tok.type == "NAME" and "VERB" in expected:
        return f"`{tok.value}` is not a declared verb: declare it under procedures: in game.yaml"
    if tok.value in ("else", "elif"):
        return f"`{tok.value}` must follow the block of an `if`, at the same indentation as that `if`"
    keyword = tok.type != "NAME" and tok.value in keywords()
    if keyword and at_start:
        return "this text is a value (an expression), not a statement"
    if keyword and "NAME" in expected:
        return renamed(tok.value)
    return None
