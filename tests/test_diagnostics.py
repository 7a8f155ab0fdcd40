"""How a diagnostic is printed: one located line, the source line with a caret under the fault, the
hint; author text in it (file names, names, source lines) cannot act on the terminal that shows it."""

from interpreter.diagnostics import AuthoringError, Diagnostic, Pos, remember_source
from interpreter.load.source import load_yaml


def rendered(line: str, col: int, message: str = "bad", hint: str | None = None) -> list[str]:
    remember_source("author.yaml", f"first: line\n{line}\n")
    return Diagnostic(Pos("author.yaml", 2, col), message, hint).render().splitlines()


def test_a_plain_diagnostic_shows_the_line_and_a_caret_under_the_column():
    head, source, caret, hint = rendered("name: Queen", 7, hint="quote it")
    assert head == "author.yaml:2:7: error: bad"
    assert source == "    name: Queen"
    assert caret.index("^") == source.index("Queen")
    assert hint == "  hint: quote it"


def test_an_escape_sequence_in_the_source_line_is_shown_escaped_and_the_caret_stays_under_the_fault():
    _, source, caret = rendered("a: \x1b[2J\x1b]0;owned\x07 target", 19)
    assert "\x1b" not in source and "\x07" not in source
    assert source == "    a: \\x1b[2J\\x1b]0;owned\\x07 target"
    assert source[caret.index("^"):].startswith("target")


def test_a_tab_keeps_counting_as_one_column():
    _, source, caret = rendered("a:\tvalue", 4)
    assert source[caret.index("^"):].startswith("value")


def test_control_characters_in_the_message_and_hint_cannot_forge_lines():
    out = rendered("x: 1", 1, message="unknown `a\nfake.yaml:1:1: error: b`", hint="c\rd\x9b31m")
    assert len(out) == 4
    assert out[0] == "author.yaml:2:1: error: unknown `a\\nfake.yaml:1:1: error: b`"
    assert out[3] == "  hint: c\\rd\\x9b31m"


def test_a_bidirectional_override_in_a_name_is_shown_escaped():
    [head, *_] = rendered("x: 1", 1, message="unknown zone `abc\u202edcba`")
    assert "\u202e" not in head and "\\u202e" in head


def test_a_control_character_in_a_file_name_is_shown_escaped():
    d = Diagnostic(Pos("evil\x1b[31m.yaml", 1, 1), "bad")
    assert d.render(with_source=False) == "evil\\x1b[31m.yaml:1:1: error: bad"


def test_a_warning_says_warning():
    d = Diagnostic(Pos("author.yaml", 1, 1), "not listed", severity="warning")
    assert d.render(with_source=False) == "author.yaml:1:1: warning: not listed"


def test_a_yaml_file_with_a_raw_escape_character_is_refused_without_echoing_it(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_bytes(b"cards:\n  - id: a\x1b]0;owned\x07\n")
    try:
        load_yaml(path)
    except AuthoringError as err:
        text = str(err)
    else:
        raise AssertionError("a control character in a YAML file must be refused")
    assert "U+001B" in text
    assert "\x1b" not in text and "\x07" not in text
    source, caret = text.splitlines()[1:3]
    assert source[caret.index("^"):].startswith("\\x1b")
