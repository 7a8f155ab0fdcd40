"""Ctrl-C: a real SIGINT to `meeple sim --workers 2` or `meeple check` stops it at once (workers included),
reports what finished, writes no file; a second SIGINT ends it at once; never a traceback. A worker that dies
is reported with the seeds that did finish."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.run import sim

ROOT = Path(__file__).resolve().parent.parent
EXIT_BOUND = 10.0  # seconds from SIGINT to exit the test allows; the promise is 2 s (it takes well under 1)
START_BOUND = 60.0  # seconds a command may take to start on a busy machine

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; sends POSIX signals")


def start(tmp_path: Path, *argv: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    work = tmp_path / "work"
    work.mkdir()
    return subprocess.Popen([sys.executable, "-m", "interpreter", *argv], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, bound: float = START_BOUND) -> None:
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, "the command did not start in time"
        time.sleep(0.05)


def interrupt(process: subprocess.Popen, times: int = 1) -> tuple[float, str, str]:
    """Send SIGINT (`times` times, 50 ms apart); seconds until the process exited, its output."""
    sent = time.monotonic()
    for i in range(times):
        if i:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=EXIT_BOUND + START_BOUND)
    return time.monotonic() - sent, out, err


def test_ctrl_c_stops_sim_and_its_workers_at_once_and_reports_what_finished(tmp_path):
    process = start(tmp_path, "sim", "go-fish", "-n", "1000000", "--workers", "2", "--check")
    wait_for(lambda: len(children(process.pid)) >= 2)
    workers = children(process.pid)
    time.sleep(2)  # some chunks finish
    seconds, out, err = interrupt(process)
    print(f"sim --workers 2: exited {seconds:.2f} s after SIGINT")
    assert seconds < EXIT_BOUND
    assert process.returncode == 130 and "Traceback" not in err
    assert "meeple sim: interrupted; " in err and " matches finished (" in err
    if not err.count("0 matches finished"):
        assert out.startswith("Go Fish: ") and "seeds 0–" in out
    wait_for(lambda: not any(alive(w) for w in workers), EXIT_BOUND)
    assert list((tmp_path / "work").iterdir()) == [], "no file written, not even in part"


def test_a_second_ctrl_c_ends_check_at_once_without_a_traceback(tmp_path):
    process = start(tmp_path, "check", "hearts", "--examples", "100000")
    assert process.stdout is not None
    assert process.stdout.readline().startswith("Hearts: checking")
    seconds, _, err = interrupt(process, times=2)
    print(f"check, SIGINT twice: exited {seconds:.2f} s after the first")
    assert seconds < EXIT_BOUND
    assert process.returncode in (130, -signal.SIGINT) and "Traceback" not in err and "ignored" not in err
    assert list((tmp_path / "work").iterdir()) == []


def test_ctrl_c_stops_check_and_says_so(tmp_path):
    process = start(tmp_path, "check", "hearts", "--examples", "100000")
    assert process.stdout is not None
    assert process.stdout.readline().startswith("Hearts: checking")
    seconds, _, err = interrupt(process)
    print(f"check: exited {seconds:.2f} s after SIGINT")
    assert seconds < EXIT_BOUND
    assert process.returncode == 130 and "Traceback" not in err
    assert err.strip() == "meeple check: interrupted"


def test_seed_ranges_name_the_seeds_that_finished():
    assert sim.seed_ranges([(250, 500), (0, 250), (750, 1000)]) == "seeds 0–499, 750–999"
    assert sim.seed_ranges([(3, 4)]) == "seed 3"
    assert sim.seed_ranges([(3, 4), (9, 10)]) == "seeds 3, 9"
    assert sim.seed_ranges([]) == "no seed"


def test_a_worker_dying_before_any_match_finished_names_no_seed_range(monkeypatch, capsys):

    real = sim.run_chunk
    parent = os.getpid()

    def dies_in_a_worker(*args):
        if os.getpid() != parent:
            os._exit(9)
        return real(*args)

    monkeypatch.setattr(sim, "run_chunk", dies_in_a_worker)
    monkeypatch.setattr("interpreter.cli.matches._cores", lambda: 2)
    assert main(["sim", "go-fish", "-n", "40", "--workers", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "meeple sim: error: a worker process died (killed, or out of memory); 0 matches finished " \
                  "(40 did not)\n"


def test_a_duel_whose_worker_dies_says_so_without_a_traceback(monkeypatch, capsys):
    from interpreter.bots import duel

    real = duel._play_games
    parent = os.getpid()

    def dies_in_a_worker(*args):
        if os.getpid() != parent:
            os._exit(9)
        return real(*args)

    monkeypatch.setattr(duel, "_play_games", dies_in_a_worker)
    monkeypatch.setattr("interpreter.cli.matches._cores", lambda: 2)
    assert main(["duel", "go-fish", "random", "first", "-n", "8", "--workers", "2"]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    assert err.startswith("meeple duel: error: a worker process died after 0 of 8 games (killed, or out of memory?)")
