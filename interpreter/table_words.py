"""The terminal table's own words in each language (`--lang`), and the small helpers that put a game's
names and counts into them. The game's sentences, prompts and card texts are printed as the game wrote them;
what happens in a match is told in the words of the catalogue of event kinds (run/events.py), which each
language's words here take in (`move.got`, `show.you`, …)."""

from __future__ import annotations

from .i18n import counted
from .run.events import LANGS, words_in

__all__ = ["WORDS", "counted", "spoken"]

_OWN: dict[str, dict[str, str]] = {
    "en": {
        "header": "{title}: {players}, seed {seed}",
        "you": "you",
        "you_are": "you are {who}",
        "round_of": "round {round} of {rounds}",
        "round": "round {round}",
        "turn_of": "turn {turn}: {who} to play",
        "first_player": "first player {who}",
        "your": "your {zone}",
        "score": "score",
        "scores": "Scores",
        "final": "final scores",
        "seat": "seat",
        "tiebreak": "tie-break {n}",
        "winner": "Winner",
        "winner_mark": "winner",
        "shared": "Shared win",
        "no_winner": "No winner",
        "summary": "end of round {round}",
        "deal": "deal {deal}",
        "out": "out",
        "lowest_wins": "The lowest score wins.",
        "face_down": "face down",
        "nobody": "nobody",
        "none": "none",
        "cards": "card|cards",
        "yours": "yours",
        "card_of": "card {n} of {zone}",
        "ask": "choice [1-{k}; ? help; q quit]: ",
        "ask_one": "choice [1 or Enter; ? help; q quit]: ",
        "only": "(the only option)",
        "nothing": "(nothing to choose)",
        "help": "Type an option's number (or its name). `? N` or `info N`: the full text of option N's card; "
                "`info NAME`: any card you can see; `?`: this help and every option's card; t: the whole table; "
                "q: leave the match. "
                "[Name] is the back of a card you cannot see.",
        "no_card": "option {n} is not a card you can see",
        "no_such_card": "no card you can see is called `{name}`",
        "bad_choice": "not an option: type a number from 1 to {k} (or ? for help)",
        "eof": "input ended before the match did; the match is abandoned",
        "quit": "the match is abandoned",
        "quit_words": "q|quit|exit",
        "table_words": "t|table",
        "as_before": "({n} more as on the last screen: t shows them)",
        "info_words": "info|i",
        "kind": "kind",
        "count_word": "copies",
    },
    "ru": {
        "header": "{title}: игроков {n}, зерно {seed}",
        "you": "вы",
        "you_are": "вы — {who}",
        "round_of": "раунд {round} из {rounds}",
        "round": "раунд {round}",
        "turn_of": "ход {turn}: ходит {who}",
        "first_player": "первый игрок {who}",
        "your": "{zone} (ваше)",
        "score": "очки",
        "scores": "Очки",
        "final": "итоговые очки",
        "seat": "игрок",
        "tiebreak": "доп. показатель {n}",
        "winner": "Победитель",
        "winner_mark": "победитель",
        "shared": "Общая победа",
        "no_winner": "Победителя нет",
        "summary": "конец раунда {round}",
        "deal": "раздача {deal}",
        "out": "выбыл",
        "lowest_wins": "Побеждает наименьший счёт.",
        "face_down": "рубашкой вверх",
        "nobody": "никто",
        "none": "ничего",
        "cards": "карта|карты|карт",
        "yours": "ваша",
        "card_of": "карта {n}: {zone}",
        "ask": "выбор [1-{k}; ? справка; q — выйти]: ",
        "ask_one": "выбор [1 или Enter; ? справка; q — выйти]: ",
        "only": "(единственный вариант)",
        "nothing": "(выбирать не из чего)",
        "help": "Введите номер варианта (или его название). `? N` или `инфо N`: полный текст карты варианта N; "
                "`инфо НАЗВАНИЕ`: любая видимая вам карта; `?`: эта справка и карты всех вариантов; t: весь стол; "
                "q: выйти из партии. [Название] — рубашка карты, которую вам не видно.",
        "no_card": "вариант {n} — не карта, которую вам видно",
        "no_such_card": "нет видимой вам карты с названием «{name}»",
        "bad_choice": "такого варианта нет: введите число от 1 до {k} (или ? для справки)",
        "eof": "ввод закончился раньше партии; партия прервана",
        "quit": "партия прервана",
        "quit_words": "q|quit|exit|выход|выйти",
        "table_words": "t|table|стол",
        "as_before": "(ещё {n} — как на прошлом экране: t покажет)",
        "info_words": "info|i|инфо",
        "kind": "вид",
        "count_word": "копий",
    },
}


WORDS: dict[str, dict[str, str]] = {lang: {**_OWN[lang], **words_in(lang)} for lang in LANGS}
"""Every word the table prints, by language: its own and the event kinds'."""


def spoken(name: str) -> str:
    """A game's identifier as words: `player_card` → `player card`."""
    return name.replace("_", " ")
