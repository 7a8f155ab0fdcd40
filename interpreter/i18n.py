"""The command line's own words in each language (`--lang`), for every command that prints to a person: the
frame of what it prints (headings, figures' names, verdicts), never the game's own words (its sentences,
card names and texts, counters, rules page are printed as the game wrote them). What happens in a match is
told in the words of the catalogue of event kinds (run/events.py); the terminal table's own words are in
table_words.py. This module imports nothing of the engine, so that any command may take its words at start.
"""

from __future__ import annotations

from typing import Any

LANGS = ("en", "ru")
"""The languages the command line speaks (the event kinds' words and the table's are written in these too)."""

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        # counted forms: `one|many` (`one|few|many` where a language has three)
        "n.game": "game|games", "n.match": "match|matches", "n.player": "player|players",
        "n.decision": "decision|decisions", "n.example": "example|examples", "n.worker": "worker|workers",
        "n.scenario": "scenario|scenarios", "n.error": "error|errors", "n.card": "card|cards",
        "n.copy": "copy|copies", "n.invariant": "invariant|invariants", "n.check": "check|checks",
        "n.point": "point|points", "n.determinization": "determinization|determinizations",
        "n.core": "core|cores", "n.win": "win|wins",
        "seeds.many": "seeds {ranges}", "seeds.one": "seed {seed}", "seeds.none": "no seed",
        # games
        "games.range": "{low}–{high} players", "games.counts": "{counts} (default {default})",
        "games.broken": "(broken: run `meeple validate {game}`)",
        # sim
        "sim.title": "{title}: {games}, {players}, {seeds}",
        "sim.seat": "seat", "sim.bot": "bot", "sim.wins": "wins", "sim.win_rate": "win rate",
        "sim.mean_score": "mean score",
        "sim.means": "mean turns {turns:.2f}, mean decisions {decisions:.2f}",
        "sim.by_group": "win rate by {group}:",
        "sim.per_round": "{name} per round: {rate:.1%}",
        "sim.capped": "ended at the round limit: {rate:.1%}",
        "sim.counters": "mean game counters at the end: {means}",
        "sim.speed": "{rate:.0f} games/s, {seconds:.2f} s, {workers}",
        # duel
        "duel.title": "{title}: {a} against {b}, {games}, {players} (A at each seat in turn, B at the others; "
                      "{seeds})",
        "duel.seed": "seed {first}", "duel.seeds": "seeds {first}–{last}",
        "duel.rate": "{a} win rate {rate:.1%} (95% CI {low:.1%}–{high:.1%}); a bot as good as {b} wins "
                     "{even:.1%}: {verdict} it",
        "duel.better": "better than", "duel.worse": "worse than", "duel.same": "not told from",
        "duel.score": "{a} mean score {score:.2f} (95% CI {low:.2f} to {high:.2f}; {wins})",
        "wins.highest": "highest wins", "wins.lowest": "lowest wins",
        "duel.by_seat": "{a} win rate by seat: {seats}",
        "duel.time": "{seconds:.1f} s",
        # check
        "check.title": "{title}: checking {what} and the built-in properties, {matches} per player count "
                       "(seed {seed})",
        "check.holds": "{players}: {examples}, {decisions} checked, {seconds:.2f} s: every property holds",
        "check.failed": "{players}: FAILED (after {examples}, shrunk, {seconds:.2f} s)",
        "check.property": "property: {what}",
        "check.failure": "failure:  {message}",
        "check.shrunk": "the shrunk match: {decisions}, {chance}",
        "check.no_chance": "no chance outcomes",
        "check.chance_count": "chance outcome|chance outcomes",
        "check.its_log": "its log: {path} (`{command}` re-runs it)",
        "check.leaks_failed": "{players}: FAILED the leak check",
        "check.leak_property": "property: no seat is shown what the rules hide from it (a hidden answer or deal "
                               "replaced by another changes nothing it sees)",
        "check.leak_match": "the match: `meeple play {game} --players {n} --seed S` plays it with the same random "
                            "bots (S and the decisions are above)",
        "check.no_leak": "{players}: leak check of {matches}, {points} checked, {seconds:.2f} s: nothing leaks",
        "check.no_world": " ({count} found no world)",
        "property.invariant": "invariant `{name}` holds for every player at every decision",
        "property.check": "check `{name}` holds", "property.check_when": "check `{name}` holds {when}{whom}",
        "property.each_player": " for every player",
        "property.end": "at the end of the match", "property.round_end": "at the end of every round",
        "property.turn_end": "at the end of every turn",
        "property.rules": "no rule fails during play", "property.cards": "every card lies in exactly one zone",
        "property.ends": "the match ends",
        "property.replays": "the same seed, decisions and chance outcomes give the same log",
        # check's story of a failed match
        "story.chance": "chance: {what}",
        "story.cards": "({count})",
        "story.ends": "the match ends: scores {scores}, won by {winners}",
        "story.nobody": "nobody",
        "story.fails": "FAILS HERE: {message}",
        # test
        "test.pass": "pass", "test.fail": "FAIL",
        "test.failed": "{scenarios}: {failed} failed, {passed} passed",
        "test.passed": "{scenarios}: all passed",
        "test.none_ran": "no scenario ran",
        "test.bad_files": "; {errors} in scenario files",
        "test.time": " ({seconds:.2f} s)",
        # cards
        "cards.id": "id", "cards.name": "name", "cards.count": "count", "cards.kind": "kind", "cards.text": "text",
        "cards.each": "{count} each",
        "cards.copies": "{cards}, {copies}", "cards.copies_each": "{cards}, {copies} per player",
        "cards.copies_both": "{cards}, {copies} + {each} per player",
        "cards.rules": "The rules: meeple rules {game}",
        # rules
        "rules.other_lang": "(this game has no rules page in English: the page as the game wrote it)",
        # report and compare
        "score_wins.highest": "highest score wins", "score_wins.lowest": "lowest score wins",
        "report.title": "{title}: {games}, {players}, bots {bots}, seeds {first}–{last} ({wins})",
        "report.seats": "win rate by seat (95% interval):",
        "report.equal": "all seats equal? chi-square {chi2:.2f}, df {df}, p = {p:.3g}: {verdict}",
        "report.equal_yes": "no evidence against equal seats", "report.equal_no": "the seats are NOT equal",
        "report.first": "first player wins {rate} (fair share {fair})",
        "report.shared": "shared wins {shared}; stopped by a safety cap {capped}",
        "report.length": "length: turns {turns}, rounds {rounds}, decisions {decisions}",
        "report.scores": "mean score by seat: {scores}",
        "report.margin": "margin of victory {margin}; lead changes {changes}; the leader at half-time wins {leader}",
        "report.enough": "enough matches? the widest rate interval is {width:.1f} points; for {target:.0f} points "
                         "every figure needs -n {n:,}",
        "report.speed": "{rate:.3g} matches/s, {seconds:.2f} s",
        "report.thin": "  (thin)",
        "report.per_round": "{name} per round: {rate} ({rounds} rounds)",
        "report.counters": "game counters at the end: {values}",
        "report.by_group": "win rate by {group}:",
        "report.skill": "skill (win rate by bot, against the fair share):",
        "report.edge": "edge",
        "report.cards": "cards that go most with winning or losing (win rate when chosen, or in own zones at the "
                        "end, minus when not):",
        "report.points": "{diff:+.1f} points",
        "verdict.real": "real", "verdict.noise": "noise", "verdict.sure": "REAL", "verdict.maybe": "maybe",
        "rung.none": "{a} vs {b}: no match finished",
        "rung.line": "{a} vs {b}: {rate} of {n} matches (fair {fair}), skill index {index:+.2f} [{low:+.2f}, "
                     "{high:+.2f}]: {verdict}",
        "rung.better": "better", "rung.worse": "worse", "rung.same": "no evidence either way",
        "skill.matters": "does skill matter? {verdict}",
        "skill.index": " (skill index of {base} against random {index:+.2f} [{low:+.2f}, {high:+.2f}]; 0: no better "
                       "than random, 1: wins every match)",
        "compare.title": "{a}  vs  {b}: {games} paired matches (the same seeds and bots), {players}",
        "compare.figure": "figure", "compare.interval": "95% interval", "compare.verdict": "verdict",
        "compare.exactly": "exactly",
        "compare.real": "real differences: {figures}", "compare.none": "none",
        "compare.maybe": "maybe (their own interval leaves out 0, but of {n} figures about {alarms:.1f} would by "
                         "chance alone): {figures}",
        "compare.same": "({same} of {games} matches came out the same in both)",
        "report.html": "HTML page: {path}", "report.csv": "CSV files: {path}",
        # replay
        "n.event": "event|events",
        "replay.ok": "replay ok: {events}, {decisions}, {ending}",
        "replay.changed": " (the game's files changed since this log was written, but the match is the same)",
        "replay.as": "as P{seat} saw it:",
        "replay.result": "scores {scores}, winners {winners}",
        "replay.seat_log": "{file} is what P{seat} saw of a match of {game} for {players} (a seat log: it has no seed "
                           "and not what the seat did not see, so it is shown, not re-run):",
        # serve
        "serve.listening": "meeple serve: {games} at {url} (Ctrl-C stops it)",
    },
    "ru": {
        "n.game": "партия|партии|партий", "n.match": "партия|партии|партий", "n.player": "игрок|игрока|игроков",
        "n.decision": "решение|решения|решений", "n.example": "пример|примера|примеров",
        "n.worker": "процесс|процесса|процессов", "n.scenario": "сценарий|сценария|сценариев",
        "n.error": "ошибка|ошибки|ошибок", "n.card": "карта|карты|карт", "n.copy": "копия|копии|копий",
        "n.invariant": "инвариант|инварианта|инвариантов", "n.check": "проверка|проверки|проверок",
        "n.point": "точка|точки|точек", "n.determinization": "детерминизация|детерминизации|детерминизаций",
        "n.core": "ядро|ядра|ядер", "n.win": "победа|победы|побед",
        "seeds.many": "зёрна {ranges}", "seeds.one": "зерно {seed}", "seeds.none": "без зерна",
        "games.range": "игроков: {low}–{high}", "games.counts": "{counts} (по умолчанию {default})",
        "games.broken": "(ошибка: запустите `meeple validate {game}`)",
        "sim.title": "{title}: {games}, {players}, {seeds}",
        "sim.seat": "игрок", "sim.bot": "бот", "sim.wins": "победы", "sim.win_rate": "доля побед",
        "sim.mean_score": "средний счёт",
        "sim.means": "в среднем ходов {turns:.2f}, решений {decisions:.2f}",
        "sim.by_group": "доля побед по {group}:",
        "sim.per_round": "{name} за раунд: {rate:.1%}",
        "sim.capped": "окончено на пределе раундов: {rate:.1%}",
        "sim.counters": "средние счётчики игры в конце: {means}",
        "sim.speed": "{rate:.0f} партий/с, {seconds:.2f} с, {workers}",
        "duel.title": "{title}: {a} против {b}, {games}, {players} (A по очереди на каждом месте, B на остальных; "
                      "{seeds})",
        "duel.seed": "зерно {first}", "duel.seeds": "зёрна {first}–{last}",
        "duel.rate": "доля побед {a} {rate:.1%} (95% ДИ {low:.1%}–{high:.1%}); бот не сильнее {b} выигрывает "
                     "{even:.1%}: {verdict}",
        "duel.better": "сильнее", "duel.worse": "слабее", "duel.same": "не отличить",
        "duel.score": "средний счёт {a} {score:.2f} (95% ДИ от {low:.2f} до {high:.2f}; {wins})",
        "wins.highest": "побеждает наибольший счёт", "wins.lowest": "побеждает наименьший счёт",
        "duel.by_seat": "доля побед {a} по месту: {seats}",
        "duel.time": "{seconds:.1f} с",
        "check.title": "{title}: проверка ({what} и встроенные свойства), {matches} на каждое число игроков "
                       "(зерно {seed})",
        "check.holds": "{players}: {examples}, проверено: {decisions}, {seconds:.2f} с: все свойства выполнены",
        "check.failed": "{players}: ОШИБКА (после: {examples}, сокращено, {seconds:.2f} с)",
        "check.property": "свойство: {what}",
        "check.failure": "нарушение: {message}",
        "check.shrunk": "сокращённая партия: {decisions}, {chance}",
        "check.no_chance": "случайных исходов нет",
        "check.chance_count": "случайный исход|случайных исхода|случайных исходов",
        "check.its_log": "её журнал: {path} (`{command}` повторит её)",
        "check.leaks_failed": "{players}: ОШИБКА проверки утечек",
        "check.leak_property": "свойство: ни одному игроку не показано то, что правила от него скрывают (скрытый "
                               "ответ или расклад, заменённый другим, не меняет ничего из того, что он видит)",
        "check.leak_match": "партия: `meeple play {game} --players {n} --seed S` играет её с теми же случайными "
                            "ботами (S и решения — выше)",
        "check.no_leak": "{players}: проверка утечек, {matches}, проверено: {points}, {seconds:.2f} с: утечек нет",
        "check.no_world": " (без подходящего мира: {count})",
        "property.invariant": "инвариант `{name}` верен для каждого игрока при каждом решении",
        "property.check": "проверка `{name}` верна", "property.check_when": "проверка `{name}` верна {when}{whom}",
        "property.each_player": " для каждого игрока",
        "property.end": "в конце партии", "property.round_end": "в конце каждого раунда",
        "property.turn_end": "в конце каждого хода",
        "property.rules": "ни одно правило не даёт сбоя в игре",
        "property.cards": "каждая карта лежит ровно в одной зоне",
        "property.ends": "партия заканчивается",
        "property.replays": "то же зерно, решения и случайные исходы дают тот же журнал",
        "story.chance": "случай: {what}",
        "story.cards": "({count})",
        "story.ends": "партия окончена: очки {scores}, победа: {winners}",
        "story.nobody": "никто",
        "story.fails": "ОШИБКА ЗДЕСЬ: {message}",
        "test.pass": "успех", "test.fail": "ОШИБКА",
        "test.failed": "{scenarios}: с ошибкой {failed}, успешно {passed}",
        "test.passed": "{scenarios}: все успешны",
        "test.none_ran": "ни один сценарий не запущен",
        "test.bad_files": "; в файлах сценариев: {errors}",
        "test.time": " ({seconds:.2f} с)",
        "cards.id": "id", "cards.name": "название", "cards.count": "копий", "cards.kind": "вид",
        "cards.text": "текст",
        "cards.each": "{count} каждому",
        "cards.copies": "{cards}, {copies}", "cards.copies_each": "{cards}, {copies} на игрока",
        "cards.copies_both": "{cards}, {copies} + {each} на игрока",
        "cards.rules": "Правила: meeple rules {game}",
        "rules.other_lang": "(у этой игры нет страницы правил на русском: страница, как её написала игра)",
        "score_wins.highest": "побеждает наибольший счёт", "score_wins.lowest": "побеждает наименьший счёт",
        "report.title": "{title}: {games}, {players}, боты {bots}, зёрна {first}–{last} ({wins})",
        "report.seats": "доля побед по месту (95% интервал):",
        "report.equal": "все места равны? хи-квадрат {chi2:.2f}, ст. св. {df}, p = {p:.3g}: {verdict}",
        "report.equal_yes": "нет свидетельств против равенства мест", "report.equal_no": "места НЕ равны",
        "report.first": "первый игрок выигрывает {rate} (честная доля {fair})",
        "report.shared": "общие победы {shared}; остановлено пределом {capped}",
        "report.length": "длина: ходов {turns}, раундов {rounds}, решений {decisions}",
        "report.scores": "средний счёт по месту: {scores}",
        "report.margin": "отрыв победителя {margin}; смен лидера {changes}; лидер на половине выигрывает {leader}",
        "report.enough": "партий достаточно? самый широкий интервал доли — {width:.1f} п.; для {target:.0f} п. "
                         "каждой цифре нужно -n {n:,}",
        "report.speed": "{rate:.3g} партий/с, {seconds:.2f} с",
        "report.thin": "  (мало данных)",
        "report.per_round": "{name} за раунд: {rate} (раундов: {rounds})",
        "report.counters": "счётчики игры в конце: {values}",
        "report.by_group": "доля побед по {group}:",
        "report.skill": "мастерство (доля побед по боту против честной доли):",
        "report.edge": "перевес",
        "report.cards": "карты, больше всего связанные с победой или поражением (доля побед, когда выбрана или "
                        "в своих зонах в конце, минус когда нет):",
        "report.points": "{diff:+.1f} п.",
        "verdict.real": "реально", "verdict.noise": "шум", "verdict.sure": "РЕАЛЬНО", "verdict.maybe": "возможно",
        "rung.none": "{a} против {b}: ни одна партия не окончена",
        "rung.line": "{a} против {b}: {rate} из {n} партий (честно {fair}), индекс мастерства {index:+.2f} "
                     "[{low:+.2f}, {high:+.2f}]: {verdict}",
        "rung.better": "сильнее", "rung.worse": "слабее", "rung.same": "не отличить",
        "skill.matters": "важно ли мастерство? {verdict}",
        "skill.index": " (индекс мастерства {base} против random {index:+.2f} [{low:+.2f}, {high:+.2f}]; 0: не "
                       "лучше случайного, 1: выигрывает каждую партию)",
        "compare.title": "{a}  против  {b}: {games} парных партий (те же зёрна и боты), {players}",
        "compare.figure": "цифра", "compare.interval": "95% интервал", "compare.verdict": "вывод",
        "compare.exactly": "точно",
        "compare.real": "реальные различия: {figures}", "compare.none": "нет",
        "compare.maybe": "возможно (их интервал не содержит 0, но из {n} цифр около {alarms:.1f} дали бы это "
                         "случайно): {figures}",
        "compare.same": "({same} из {games} партий вышли одинаковыми в обеих)",
        "report.html": "HTML-страница: {path}", "report.csv": "файлы CSV: {path}",
        "n.event": "событие|события|событий",
        "replay.ok": "повтор совпал: {events}, {decisions}, {ending}",
        "replay.changed": " (файлы игры изменились после записи журнала, но партия та же)",
        "replay.as": "как видел P{seat}:",
        "replay.result": "очки {scores}, победители {winners}",
        "replay.seat_log": "{file} — то, что видел P{seat} в партии {game} на {players} (журнал игрока: в нём нет "
                           "зерна и того, чего игрок не видел, поэтому он показан, а не повторён):",
        "serve.listening": "meeple serve: {games} по адресу {url} (Ctrl-C — остановить)",
    },
}


def counted(count: int, forms: str) -> str:
    """A count with the right one of a language's forms: `one|many`, or `one|few|many` as in Russian."""
    words = forms.split("|")
    if len(words) == 2:
        return f"{count} {words[0] if count == 1 else words[1]}"
    if count % 10 == 1 and count % 100 != 11:
        return f"{count} {words[0]}"
    few = 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14
    return f"{count} {words[1] if few else words[2]}"


class Words:
    """A command's words in one language: `w("sim.title", title=…)` fills a template, `w.n(3, "game")` counts."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.table = _WORDS[lang]

    def __call__(self, key: str, **fields: Any) -> str:
        return self.table[key].format(**fields)

    def seeds(self, ranges: str) -> str:
        """Seed ranges as the run stage words them (`seeds 0–199, 400–599`, `seed 3`, `no seed`) in this
        language."""
        if ranges == "no seed":
            return self("seeds.none")
        many, one = ranges.startswith("seeds "), ranges.startswith("seed ")
        if many:
            return self("seeds.many", ranges=ranges.removeprefix("seeds "))
        return self("seeds.one", seed=ranges.removeprefix("seed ")) if one else ranges

    def n(self, count: int, noun: str) -> str:
        """`3 games`, `3 партии`: a count with its noun (`n.NOUN`) in the right form."""
        return counted(count, self.table[f"n.{noun}"])


def words(lang: str = "en") -> Words:
    """The command line's words in `lang` (one of LANGS)."""
    return Words(lang)


def all_words() -> dict[str, dict[str, str]]:
    """Every language's words, by key (for the tests: every language has every key)."""
    return {lang: dict(table) for lang, table in _WORDS.items()}
