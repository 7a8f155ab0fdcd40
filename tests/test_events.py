"""One catalogue of what happens in a match (interpreter/run/events.py): every event a watched match records
is one of its kinds, read by name through the kind's record; every event line of the match log and every
line a seat observed is named by a kind, which puts it in words."""

import json
import re

import pytest

from interpreter import load_game
from interpreter.run import events
from interpreter.run.information import describe
from interpreter.run.match import play_random

MATCHES = [("go-fish", 3, 1), ("sky-haulers", 2, 1), ("overloaded", 4, 2), ("crazy-eights", 2, 3)]


@pytest.fixture(scope="module")
def matches():
    return [play_random(load_game(name), players, seed, log=True) for name, players, seed in MATCHES]


def test_every_kind_has_its_tag_its_names_and_its_record():
    assert sorted(events.BY_TAG) == sorted("mfswrtcadk")
    for tag, kind in events.BY_TAG.items():
        assert kind.tag == tag and events.BY_NAME[kind.name] is kind
        assert kind._fields[0] == "tag" and callable(kind.seen) and callable(kind.words)


def test_every_recorded_event_reads_as_its_kind(matches):
    tags = set()
    for m in matches:
        for raw in m._watch.events:
            kind = events.BY_TAG[raw[0]]
            record = kind(*raw)  # as many fields as the watcher keeps, in order
            assert tuple(record) == raw and record.tag == kind.tag
            tags.add(raw[0])
    assert tags >= {events.MOVE, events.FLIP, events.SHUFFLE, events.SHOW, events.SAY, events.TABLE, events.ASK,
                    events.DECIDE}


def test_every_log_event_is_written_as_its_kind_writes_it(matches):
    t = matches[0].layout
    for m in matches:
        for line in m.log:
            if line["type"] == "event":
                assert line["event"] in events.BY_NAME, line
                if line["event"] == "move":
                    c = m.layout.card_ids.index(line["card"])
                    src, dst = m.layout.zone_names.index(line["from"]), m.layout.zone_names.index(line["to"])
                    assert events.Moved.log(m.layout, c, src, dst, line["face"] == "up") == line
    assert events.Moved.logs(t, [0, 1], [0, 0], 1, True) == [events.Moved.log(t, c, 0, 1, True) for c in (0, 1)]


def test_every_observed_line_is_put_in_words_by_its_kind(matches):
    for m in matches:
        for seat in range(m.players):
            for line in m.information_state_json(seat)["observed"]:
                name = line.get("event") or line["type"]
                words = describe(line, seat)
                assert name in events.BY_NAME and words == events.BY_NAME[name].words(line, seat)
                assert words != json.dumps(line, sort_keys=True)


def test_every_kind_has_its_words_in_every_language_with_the_same_forms_and_fields():
    import string

    for kind in dict.fromkeys(events.BY_TAG.values()):
        assert set(kind.WORDS) == set(events.LANGS) and callable(kind.told)
        fields = {lang: {form: {f for _, f, _, _ in string.Formatter().parse(text) if f}
                         for form, text in kind.WORDS[lang].items()} for lang in events.LANGS}
        assert all(fields[lang] == fields["en"] for lang in events.LANGS), kind.name
    assert set(events.words_in("en")) == set(events.words_in("ru"))


def test_a_line_is_told_in_the_language_asked_and_plainly_the_same_as_before(matches):
    m = matches[2]  # Overloaded: moves, flips, shuffles, glimpses, sayings, questions and answers
    for line in m.information_state_json(1)["observed"]:
        english, russian = describe(line, 1), events.describe(line, 1, "ru")
        assert english and russian
        if line.get("event") not in ("say", None):  # a sentence is the game's; an answer is its label
            assert english != russian, line
    shown = {"type": "event", "event": "show", "card": {"hidden": True, "advantage": "Scout"}, "to": 0,
             "zone": "table", "at": 2}
    assert describe(shown, 1) == "P0 sees a hidden card [Scout] in table #2"
    assert describe({**shown, "to": 1, "card": "cargo-7"}, 1) == "you see cargo-7 in table #2"
    assert events.describe(shown, 1, "ru") == "P0 видит: скрытая карта [Scout] (table #2)"
    out = {"type": "event", "event": "knock_out", "player": 1, "until": "deal"}
    assert describe(out, 1) == "you are knocked out of the deal" and describe(out, 0) == "P1 is knocked out of the deal"


def test_the_table_tells_events_through_their_kinds(monkeypatch):
    """The terminal table's story takes its words from the catalogue: a kind's words changed there change
    what the table prints, in the language it was given."""
    import io

    from interpreter.run.match import Match
    from interpreter.table import Table
    from interpreter.table_words import WORDS

    words = {lang: dict(WORDS[lang]) for lang in WORDS}
    words["en"]["decision.hidden"] = "{who} picked something"
    words["en"]["move.got"] = "{who} handed you {cards}"
    m = Match(load_game("hearts"), 4, 1, log=True)
    out = io.StringIO()
    table = Table(m, out, words["en"], 0, prompt_out=io.StringIO())
    table.catch_up()
    for _ in range(20):  # the pass: three cards each, chosen in secret, one by one
        together = m.simultaneous
        for seat in m.to_act():
            m.apply(seat, table.ask(seat, read=lambda: "1\n") if seat == 0 else 0)
        table.catch_up(together)
        table.flush()
        if "handed you" in out.getvalue():
            break
    text = out.getvalue()
    assert "P1 picked something" in text and "chose (hidden)" not in text
    assert "P3 handed you " in text and not re.search(r"you get .*\(from P", text)


def test_the_table_names_players_its_own_way_through_the_same_words():
    """The table's teller names players as the game does and the person as `P0 (you)`, but a line about the
    person themselves takes the second person, as in a seat's observations."""
    import io

    from interpreter.run.match import Match
    from interpreter.table import Table
    from interpreter.table_words import WORDS

    m = Match(load_game("go-fish"), 3, 1, log=True)
    out = {"type": "event", "event": "knock_out", "player": 0, "until": "deal"}
    back = {"type": "event", "event": "back_in", "players": [0, 2]}
    for lang, you, other, again in (
            ("en", "you are knocked out of the deal", "P1 is knocked out of the match", "P0 (you), P2 back in"),
            ("ru", "вы выбываете до конца раздачи", "P1 выбывает до конца партии", "P0 (вы), P2 снова в игре")):
        teller = Table(m, io.StringIO(), WORDS[lang], 0).teller
        assert events.SeatsChanged.told(out, teller) == you
        assert events.SeatsChanged.told({**out, "player": 1, "until": "match"}, teller) == other
        assert events.SeatsChanged.told(back, teller).startswith(again)
    omniscient = Table(m, io.StringIO(), WORDS["en"], None).teller
    assert events.SeatsChanged.told(out, omniscient) == "P0 is knocked out of the deal"


TOLD = """
    phases:
      play: |
        move my hand to pile face down
        flip all pile face up
        flip the top card of pile face down
        let r = roll d6
        say "rolled {r}"
        if deal == 1 and turn == 1:
          knock out previous player before me for the deal
    """


def test_flips_rolls_and_who_is_in_reach_the_watcher_and_the_log_through_their_typed_hooks(tmp_path, capsys):
    """A flip (the verb's, and the turn face up written out in compiled code), a roll, a knock-out and a
    back-in each reach the watcher as their kind's record and the log as their kind's `log` line, in the
    same order; a match watched but not logged records the same events; the compiled code calls the hook."""
    from test_flow import tiny

    from interpreter.cli import main
    from interpreter.run.match import Match
    from interpreter.run.runtime import State

    game = tiny(tmp_path, "flow: {rounds: 2, turn: [play], deals: 2}\n", TOLD)
    m = play_random(game, 3, 1, log=True)
    lines = [line for line in m.log if line.get("event") in ("flip", "roll", "knock_out", "back_in")]
    raws = [raw for raw in m._watch.events if raw[0] in (events.FLIP, events.ROLL, events.SEATS)]
    assert len(lines) == len(raws)
    for line, raw in zip(lines, raws, strict=True):
        record = events.BY_TAG[raw[0]](*raw)
        if isinstance(record, events.Flipped):
            assert line == events.Flipped.log(m.layout, record.card, record.up)
        elif isinstance(record, events.Rolled):
            assert line == events.Rolled.log(record.sides, record.result) and 1 <= record.result <= 6
        else:
            assert line == events.SeatsChanged.log(record.what, record.fields)
    told = [(line["event"], line.get("face")) for line in lines]
    assert {("flip", "up"), ("flip", "down"), ("roll", None), ("knock_out", None), ("back_in", None)} <= set(told)
    assert {"type": "event", "event": "knock_out", "player": 2, "until": "deal"} in lines
    assert {"type": "event", "event": "back_in", "players": [2]} in lines

    quiet = Match(game, 3, 1)  # watched, not logged (the game asks no question: the same match)
    assert quiet.over and quiet.log is None
    assert [r for r in quiet._watch.events if r[0] in (events.FLIP, events.ROLL, events.SEATS)] == raws

    assert not hasattr(State, "event")
    assert main(["compile", str(tmp_path / "tiny")]) == 0
    source = capsys.readouterr().out
    assert "st.flipped(" in source and "event(" not in source


def test_checks_story_tells_each_event_in_its_kinds_words(monkeypatch):
    """`meeple check`'s story of a failed match puts each event in the words of its kind in the catalogue: a
    kind's words changed there change the story; in another language the story is in that language's words."""
    from interpreter.check_story import story

    game = load_game("go-fish")
    m = play_random(game, 3, 1, log=True)
    told = story(game, m.log)
    assert "  chance: stock is shuffled" in told and told[1].startswith("  stock → hand@0 (up): ")
    assert told[-2] == "All 13 books are made"
    assert told[-1].startswith("the match ends: scores ")
    monkeypatch.setitem(events.Shuffled.WORDS["en"], "", "{zone} mixed")
    monkeypatch.setitem(events.Moved.WORDS["en"], "many", "{cards} went from {src} to {dst}")
    monkeypatch.setitem(events.Decided.WORDS["en"], "option", "{who} took {label}")
    again = story(game, m.log)
    assert "  chance: stock mixed" in again and "chance: stock is shuffled" not in "\n".join(again)
    assert any(line.endswith(" went from stock to hand@0") for line in again)
    assert sum(line.startswith("P") and " took " in line for line in again) == len(m.history)
    russian = story(game, m.log, lang="ru")
    assert "  случай: stock: перемешано" in russian and russian[-1].startswith("партия окончена: очки ")
