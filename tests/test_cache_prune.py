"""The compiled-game cache keeps its newest entries: a write counts the folder's entries by name, and looks at
their times only when there are more than it keeps and an eighth (a stat of each entry on every write of a full
cache cost 7-9 ms at 1,000); then it keeps as many as it keeps."""

import os

from interpreter import cache


def entries(folder, n: int) -> list[str]:
    """`n` entries, the i-th of them i seconds old (the first the newest), and a file that is no entry."""
    names = [f"{i:02}.pickle" for i in range(n)]
    for age, name in enumerate(names):
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, ns=(10**18 - age * 10**9,) * 2)
    (folder / "notes.txt").write_text("not an entry")
    return names


def counting_stats(monkeypatch) -> list[str]:
    """The names of the entries whose times `_prune` looks at."""
    looked: list[str] = []
    scandir = os.scandir

    class Entry:
        def __init__(self, entry):
            self._entry, self.name, self.path = entry, entry.name, entry.path

        def stat(self):
            looked.append(self.name)
            return self._entry.stat()

    class Listing:
        def __init__(self, where):
            self._found = scandir(where)

        def __enter__(self):
            return (Entry(e) for e in self._found)

        def __exit__(self, *exc):
            self._found.close()

    monkeypatch.setattr(cache.os, "scandir", Listing)
    return looked


def test_a_folder_past_its_slack_keeps_its_newest_entries(tmp_path, monkeypatch):
    names = entries(tmp_path, 19)
    looked = counting_stats(monkeypatch)
    cache._prune(tmp_path, 16)  # (slack: 16 // 8 = 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names[:16], "notes.txt"])
    assert sorted(looked) == names


def test_a_folder_within_its_slack_is_left_alone_without_a_stat(tmp_path, monkeypatch):
    for n in (16, 18):
        names = entries(tmp_path, n)
        looked = counting_stats(monkeypatch)
        cache._prune(tmp_path, 16)
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names, "notes.txt"])
        assert looked == []
        monkeypatch.undo()
