"""`--lang` on every command that prints words to a person (issue: `--lang` worked only on `play` and `replay`):
each command's own words change with the language, the game's words and the figures do not."""

import re
import shutil

import pytest

from interpreter.cli import main
from interpreter.i18n import LANGS, all_words
from interpreter.paths import data_dir
from interpreter.run import events
from interpreter.table_words import WORDS


def said(capsys, *argv: str, code: int = 0) -> tuple[str, str]:
    assert main(list(argv)) == code
    out, err = capsys.readouterr()
    return out, err


def both(capsys, *argv: str, code: int = 0) -> tuple[str, str]:
    """The command's output in English and in Russian."""
    english, _ = said(capsys, *argv, code=code)
    russian, _ = said(capsys, *argv, "--lang", "ru", code=code)
    return english, russian


def figures(text: str) -> list[str]:
    """The numbers of an output, timings left out (what the language must not change)."""
    text = "\n".join(line for line in text.splitlines() if not re.search(r"/(?:s|с)\b", line))  # the speed
    text = re.sub(r"[\d.]+ (?:s|с)\b", "", text)
    return re.findall(r"\d+(?:\.\d+)?%?", text)


def test_every_language_has_every_word():
    """The command line's words, the table's and every event kind's are written in the same languages, each
    with the same keys; the command line's with the same fields to fill."""
    assert set(LANGS) == set(events.LANGS) == set(WORDS)
    for table in (all_words(), WORDS):
        assert all(set(table[lang]) == set(table["en"]) for lang in LANGS)
    words = all_words()
    for key, english in words["en"].items():
        assert all(set(re.findall(r"{(\w+)", words[lang][key])) == set(re.findall(r"{(\w+)", english))
                   for lang in LANGS), key


def test_games_speaks_the_language_asked(capsys):
    english, russian = both(capsys, "games")
    assert "go-fish        Go Fish              2–5 players (default 3)\n" in english
    assert "go-fish        Go Fish              игроков: 2–5 (по умолчанию 3)\n" in russian
    assert "hearts         Hearts               4 игрока (по умолчанию 4)\n" in russian


def test_sim_speaks_the_language_asked_with_the_same_figures(capsys):
    english, russian = both(capsys, "sim", "go-fish", "-n", "3", "--bots", "first,random,random")
    assert "win rate" in english and "mean turns" in english and "доля побед" not in english
    assert "доля побед" in russian and "в среднем ходов" in russian and "win rate" not in russian
    assert "3 партии, 3 игрока, зёрна 0–2" in russian and "first" in russian  # the bot names stay
    assert figures(english) == figures(russian)


def test_duel_speaks_the_language_asked_with_the_same_figures(capsys):
    english, russian = both(capsys, "duel", "go-fish", "first", "random", "-n", "2", "--players", "2")
    assert "win rate" in english and "highest wins" in english
    assert "доля побед first" in russian and "побеждает наибольший счёт" in russian and "win rate" not in russian
    assert figures(english) == figures(russian)


def test_check_speaks_the_language_asked(capsys):
    english, russian = both(capsys, "check", "go-fish", "--players", "2", "--examples", "2", "--leaks", "1")
    assert "every property holds" in english and "nothing leaks" in english
    assert "все свойства выполнены" in russian and "утечек нет" in russian and "holds" not in russian


def test_check_tells_a_failed_match_in_the_language_asked(capsys, tmp_path):
    folder = tmp_path / "twelve-rounds"  # Overloaded over 12 rounds: players hold too few cards to load
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("  rounds: 8", "  rounds: 12", 1))
    out = str(tmp_path / "failure.jsonl")
    english, russian = both(capsys, "check", str(folder), "--players", "3", "--examples", "5", "--out", out, code=1)
    assert "  FAILS HERE: invariant `enough_cards_to_load`" in english and "chance: donkeys is shuffled" in english
    assert "  ОШИБКА ЗДЕСЬ: invariant `enough_cards_to_load`" in russian
    assert "случай: donkeys: перемешано" in russian and "сокращённая партия: 0 решений" in russian
    assert "    donkeys → box (рубашкой вверх): weak-donkey, mule, foal" in russian and "(12 карт)" in russian
    assert "FAILS HERE" not in russian and "shuffled" not in russian
    assert "\nproperty: invariant `enough_cards_to_load` holds for every player at every decision\n" in english
    assert "\nсвойство: инвариант `enough_cards_to_load` верен для каждого игрока при каждом решении\n" in russian


def test_test_speaks_the_language_asked(capsys):
    english, russian = both(capsys, "test", "go-fish", "-k", "out")
    assert re.search(r"^pass  a player who is out", english, re.M) and "all passed" in english
    assert re.search(r"^успех a player who is out", russian, re.M) and "все успешны" in russian  # the rule: as written
    assert "pass" not in russian.replace("passes", "")


def test_cards_speaks_the_language_asked_and_keeps_the_cards_words(capsys):
    english, russian = both(capsys, "cards", "go-fish")
    assert english.splitlines()[0].split() == ["id", "name", "count", "kind", "text"]
    assert russian.splitlines()[0].split() == ["id", "название", "копий", "вид", "текст"]
    assert "Go Fish: 13 cards, 52 copies" in english and "Go Fish: 13 карт, 52 копии" in russian
    assert "Правила: meeple rules go-fish" in russian
    assert [line.split()[:3] for line in english.splitlines()[1:-2]] == \
        [line.split()[:3] for line in russian.splitlines()[1:-2]]  # every card as the game names it


def test_rules_prints_the_page_in_the_language_asked_where_the_game_has_one(capsys, tmp_path):
    folder = tmp_path / "go-fish"
    shutil.copytree(data_dir("cards") / "go-fish", folder)
    english, err = said(capsys, "rules", str(folder), "--lang", "ru")
    assert english == (folder / "README.md").read_text() and "нет страницы правил на русском" in err
    (folder / "README.ru.md").write_text("# Рыбалка\n\nСпросите у соседа карту **своего** ранга.\n")
    russian, err = said(capsys, "rules", str(folder), "--lang", "ru")
    assert russian == "# Рыбалка\n\nСпросите у соседа карту своего ранга.\n" and err == ""
    assert said(capsys, "rules", str(folder)) == (english, "")


def test_report_speaks_the_language_asked_with_the_same_figures(capsys):
    english, russian = both(capsys, "report", "go-fish", "-n", "12", "--players", "2")
    assert "win rate by seat (95% interval):" in english and "all seats equal?" in english
    assert "доля побед по месту (95% интервал):" in russian and "все места равны?" in russian
    assert "win rate" not in russian and "Go Fish: 12 партий, 2 игрока, боты random" in russian
    assert figures(english) == figures(russian)


def test_compare_speaks_the_language_asked_with_the_same_figures(capsys):
    english, russian = both(capsys, "compare", "overloaded", "--set", "flow.rounds=6", "-n", "6")
    assert "paired matches" in english and "real differences: " in english
    assert "парных партий" in russian and "реальные различия: " in russian and "real differences" not in russian
    assert figures(english) == figures(russian)


def test_serve_says_where_it_listens_in_the_language_asked(capsys, monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # listen, say so, serve nothing
    english, russian = both(capsys, "serve", "go-fish", "--port", "0")
    assert re.fullmatch(r"meeple serve: go-fish at http://127\.0\.0\.1:\d+/ \(Ctrl-C stops it\)\n", english)
    assert re.fullmatch(r"meeple serve: go-fish по адресу http://127\.0\.0\.1:\d+/ \(Ctrl-C — остановить\)\n",
                        russian)


@pytest.mark.parametrize("command", ["games", "sim", "duel", "check", "test", "cards", "rules", "serve", "report",
                                     "compare"])
def test_an_unknown_language_is_one_usage_error(capsys, command):
    args = {"sim": ["go-fish", "-n", "1"], "duel": ["go-fish", "first", "random"], "games": []}
    assert main([command, *args.get(command, ["go-fish"]), "--lang", "xx"]) == 2
    assert "--lang: invalid choice: 'xx'" in capsys.readouterr().err


def test_replay_says_its_own_words_in_the_language_asked(tmp_path, capsys):
    full = tmp_path / "m.jsonl"
    assert main(["play", "go-fish", "--seed", "1", "--log", str(full)]) == 0
    capsys.readouterr()
    english, russian = both(capsys, "replay", str(full), "--as", "1")
    assert english.startswith("replay ok: ") and "\nas P1 saw it:\n" in english and "\n  scores [" in english
    assert russian.startswith("повтор совпал: ") and "\nкак видел P1:\n" in russian and "\n  очки [" in russian
    assert "replay ok" not in russian and figures(english) == figures(russian)
