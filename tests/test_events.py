"""One catalogue of what happens in a match (interpreter/run/events.py): every event a watched match records
is one of its kinds, read by name through the kind's record; every event line of the match log and every
line a seat observed is named by a kind, which puts it in words."""

import json

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
