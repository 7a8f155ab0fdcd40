"""The scenario runner as a designer meets it: `meeple test`, `interpreter.testing`, bad scenario files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter import AuthoringError, load_game
from interpreter.cli import main
from interpreter.paths import data_dir
from interpreter.scenarios import ScenarioFailure, check_scenarios, find, load_scenarios, play, scenario_files
from interpreter.testing import check_scenario, scenario_cases

OVERLOADED = data_dir("cards") / "overloaded"
STRONG = '"Round 1: Strong Donkey, capacity 18"'


def copy_with(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of Overloaded whose scenario files have `old` replaced by `new` (once each)."""
    folder = tmp_path / "game"
    shutil.copytree(OVERLOADED, folder)
    for name, (old, new) in edits.items():
        path = folder / "scenarios" / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def edited_scenarios(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> list[Path]:
    """Overloaded's scenario files, those named in `edits` copied with `old` replaced by `new` (once each): to
    check against the bundled game, compiled once, where a copy of its folder would be compiled again."""
    where = tmp_path / "scenarios"
    where.mkdir(exist_ok=True)
    files = []
    for path in scenario_files(OVERLOADED):
        if path.name in edits:
            old, new = edits[path.name]
            text = path.read_text(encoding="utf-8")
            assert old in text, (path.name, old)
            path = where / path.name
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
        files.append(path)
    return files


def line_of(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- meeple test ------------------------------------------------------------------------------------


def test_meeple_test_prints_one_line_per_scenario_with_its_rule(capsys):
    code, out, err = run(capsys, "test", "overloaded")
    assert code == 0, out + err
    lines = out.splitlines()
    count = len(load_scenarios(load_game("overloaded")))
    assert sum(line.startswith("pass  ") for line in lines) == count
    assert "pass  strong donkey carries five per player plus three — capacity 5 × N + 3" in lines
    assert re.fullmatch(rf"{count} scenarios: all passed \(\d+\.\d\d s\)", lines[-1])


def test_meeple_test_k_selects_by_name_or_file(capsys):
    code, out, _ = run(capsys, "test", "sky-haulers", "-k", "CHAIN")
    assert code == 0
    ran = {line.split("  ", 1)[1].split(" — ")[0] for line in out.splitlines() if line.startswith("pass")}
    every = load_scenarios(load_game("sky-haulers"))
    in_file = {sc.name for sc in every if Path(sc.file).stem == "chain"}
    by_name = {sc.name for sc in every if "chain" in sc.name}
    assert in_file and by_name - in_file and ran == in_file | by_name
    code, _, err = run(capsys, "test", "overloaded", "-k", "no such words")
    assert code == 1 and "no scenario of overloaded matches `no such words`" in err


def test_a_failing_scenario_is_told_at_its_line_and_exits_1(tmp_path, capsys):
    folder = copy_with(tmp_path, {"donkeys.yaml": (STRONG, STRONG.replace("18", "19"))})
    code, out, _ = run(capsys, "test", str(folder), "-k", "donkey")
    assert code == 1
    path = folder / "scenarios" / "donkeys.yaml"
    assert "FAIL  strong donkey carries five per player plus three — capacity 5 × N + 3" in out
    assert f"  {path}:{line_of(path, 'capacity 19')}: no say sentence contains 'Round 1: Strong Donkey, capacity 19'" \
        in out
    assert "decisions made:" in out and "Round 1: Strong Donkey, capacity 18" in out  # the story so far
    assert re.search(r"^\d+ scenarios: 1 failed, \d+ passed", out, re.MULTILINE)


def test_a_wrong_pick_fails_at_the_decision_line_with_the_options_on_offer(tmp_path, capsys):
    old = "- {who: [0, 1, 2], pick: [cargo-6@0, cargo-6@1, cargo-6@2]}"
    folder = copy_with(tmp_path, {"donkeys.yaml": (old, old.replace("cargo-6@2", "cargo-11@2"))})
    code, out, _ = run(capsys, "test", str(folder), "-k", "strong donkey")
    assert code == 1
    path = folder / "scenarios" / "donkeys.yaml"
    line = line_of(path, "cargo-11@2")
    assert re.search(rf"{re.escape(str(path))}:{line}: seat 2 cannot pick 'cargo-11@2': .*options \[", out)


def test_a_bad_scenario_file_is_an_authoring_error_at_file_line_col(tmp_path, capsys):
    folder = copy_with(tmp_path, {
        "donkeys.yaml": ("arrange: {deck: [weak-donkey]}", "arrange: {deck: [weak-donkye]}"),
        "rounds.yaml": ("  decisions:", "  decision:"),
    })
    code, out, err = run(capsys, "test", str(folder))
    assert code == 1
    donkeys, rounds = folder / "scenarios" / "donkeys.yaml", folder / "scenarios" / "rounds.yaml"
    assert f"{donkeys}:{line_of(donkeys, 'weak-donkye')}:20: error: no card `weak-donkye`" in err
    assert "did you mean `weak-donkey`?" in err
    assert f"{rounds}:{line_of(rounds, 'decision:')}:3: error: unknown key `decision`" in err
    assert "^" in err  # the caret under the mistake
    assert re.search(r"; 2 errors in scenario files \(", out)
    # the other files still run
    assert "pass  the contract card offers accept or refuse" in out


@pytest.mark.parametrize("edit, message", [
    (("players: 4\n", "players: 9\n"), "overloaded is played by 3–6 players, not 9"),
    (("pick: [cargo-5@0, cargo-5@1, cargo-5@2, cargo-5@3]}", "pick: [cargo-5@0, cargo-5@1]}"),
     "`who` and `pick` must pair up"),
    (("- {who: [0, 1, 2, 3], pick: [none, none, none, none]}", "- {who: [0, 1, 2, 7], pick: [none, none, none, none]}"),
     "no seat 7: seats are 0–3"),
    (("arrange: {deck: [standard-donkey#8]}", "arrange: {dekc: [standard-donkey#8]}"), "no zone `dekc`"),
    (("arrange: {deck: [standard-donkey#8]}", "counters: {capacity: [1, 2, 3, 4]}"),
     "`capacity` is a game counter: give one number, not a list"),
    (("arrange: {deck: [standard-donkey#8]}", "counters: {capacty: 3}"), "no counter `capacty`"),
    (("- name: standard donkey carries five per player with no effect",
      "- name: strong donkey carries five per player plus three"), "is used twice"),
    (("- {who: [0, 1, 2, 3], pick: [none, none, none, none]}", "- {who: 0}"), "this decision has no `pick`"),
    (("- {who: [0, 1, 2, 3], pick: [none, none, none, none]}", "- {who: 0, pick: none, expect: {over: false}}"),
     "either a decision"),
    (("  rule: '\"Standard\" means capacity 5 × N and no effect.'\n", ""), "missing required key `rule`"),
])
def test_scenario_file_mistakes(tmp_path, edit, message):
    scenarios, found = check_scenarios(load_game("overloaded"), edited_scenarios(tmp_path, {"donkeys.yaml": edit}))
    assert found and message in found[0].message, [d.message for d in found]
    assert found[0].pos.file.endswith("donkeys.yaml") and found[0].pos.line > 1
    assert not any(sc.file.endswith("donkeys.yaml") for sc in scenarios)  # a broken file runs nothing


def test_a_scenario_file_that_is_not_yaml_is_reported(tmp_path):
    folder = copy_with(tmp_path, {})
    (folder / "scenarios" / "broken.yaml").write_text("- name: x\n  rule: [unclosed\n", encoding="utf-8")
    with pytest.raises(AuthoringError) as err:
        load_scenarios(load_game(folder))
    assert "YAML syntax" in err.value.diagnostics[0].message


def test_a_game_without_scenarios_says_where_to_write_them(tmp_path, capsys):
    folder = tmp_path / "bare"
    shutil.copytree(OVERLOADED, folder, ignore=shutil.ignore_patterns("scenarios"))
    code, _, err = run(capsys, "test", str(folder))
    assert code == 1 and f"write them in {folder / 'scenarios'}/*.yaml" in err


def test_a_rule_failing_at_run_time_is_a_scenario_failure_not_a_crash(tmp_path):
    # a chance script that the die cannot show
    files = edited_scenarios(tmp_path, {"donkeys.yaml": ("arrange: {deck: [strong-donkey]}",
                                                         "arrange: {deck: [moody-donkey]}\n  chance: [9]")})
    sc = next(sc for sc in load_scenarios(load_game("overloaded"), files) if "chance" in sc.data)
    with pytest.raises(ScenarioFailure, match=r"the chance script does not fit: scripted chance outcome 9 is not "
                                              r"one of 1\.\.6"):
        play(sc)


def test_unused_chance_outcomes_fail_at_the_chance_line(tmp_path):
    files = edited_scenarios(tmp_path, {"donkeys.yaml": ("arrange: {deck: [strong-donkey]}",
                                                         "arrange: {deck: [strong-donkey]}\n  chance: [1, 1]")})
    sc = find(load_scenarios(load_game("overloaded"), files), "strong donkey carries five per player plus three")
    with pytest.raises(ScenarioFailure) as failure:
        play(sc)
    (pos, text), = failure.value.problems
    assert text == "scripted chance outcomes [1, 1] were never used"
    assert pos.line == line_of(Path(sc.file), "chance: [1, 1]")


# ---- interpreter.testing ----------------------------------------------------------------------------


def test_scenario_cases_are_pytest_params_with_readable_ids():
    cases = scenario_cases("overloaded")
    assert len(cases) == len(load_scenarios(load_game("overloaded")))
    assert "donkeys: strong donkey carries five per player plus three" in {c.id for c in cases}
    check_scenario(cases[0].values[0])


def test_check_scenario_raises_an_assertion_error_with_the_difference(tmp_path):
    folder = copy_with(tmp_path, {"donkeys.yaml": (STRONG, STRONG.replace("18", "19"))})
    name = "donkeys: strong donkey carries five per player plus three"
    case = next(c for c in scenario_cases(folder) if c.id == name)
    with pytest.raises(AssertionError) as failure:
        check_scenario(case.values[0])
    text = str(failure.value)
    assert text.startswith("scenario 'strong donkey carries five per player plus three' fails\n"
                           "rule: capacity 5 × N + 3\n")
    assert "donkeys.yaml:" in text and "no say sentence contains 'Round 1: Strong Donkey, capacity 19'" in text


def test_scenario_cases_of_a_broken_file_raise_an_authoring_error(tmp_path):
    folder = copy_with(tmp_path, {"donkeys.yaml": ("players: 4\n", "players: four\n")})
    with pytest.raises(AuthoringError, match=r"donkeys\.yaml:\d+:\d+: error: \[0\]\.players must be a whole number"):
        scenario_cases(folder)
