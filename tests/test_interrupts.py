"""Ctrl-C: a real SIGINT to `meeple sim --workers 2` or `meeple check` stops it at once (workers included),
reports what finished, writes no file; a second SIGINT ends it at once; never a traceback. A worker that dies
is reported with the seeds that did finish.

"At once" is told by work, not by the clock: the CPU time the command and its workers spend after the
signal (a busy machine makes that wait longer, not the work more). Waiting for a command to start or end has
only a guard against a hang, far above anything a loaded machine takes."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter import cache
from interpreter.cli import main
from interpreter.run import sim

ROOT = Path(__file__).resolve().parent.parent
CPU_AFTER_SIGINT = 2.0  # CPU seconds the command and its workers may spend after SIGINT (it takes a tenth)
HANG_GUARD = 300.0  # seconds a wait for an event may last: only a hang reaches it, however busy the machine
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
ERRORS: dict[int, Path] = {}  # each command's file of error output, by its process id

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; sends POSIX signals")


def start(tmp_path: Path, *argv: str) -> subprocess.Popen:
    """The command, its output going to files beside (not in) its working folder, Hypothesis's in a cache folder
    of its own; the compiled games are those of this process's cache (a game is not compiled again)."""
    compiled = cache.folder()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           cache.ENV: str(compiled) if compiled else "off"}
    work = tmp_path / "work"
    work.mkdir()
    with open(tmp_path / "stdout", "w") as out, open(tmp_path / "stderr", "w") as err:
        process = subprocess.Popen([sys.executable, "-m", "interpreter", *argv], cwd=work, env=env,
                                   stdout=out, stderr=err, text=True)
    ERRORS[process.pid] = tmp_path / "stderr"
    return process


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def cpu(pid: int) -> float:
    """CPU seconds process `pid` has spent so far, with those of the children it has waited for."""
    stat = _stat(pid)
    return 0.0 if stat is None else sum(int(f) for f in stat[11:15]) / TICK


def wait_for(condition, what: str, process: subprocess.Popen) -> None:
    """Wait until `condition()` holds while the command runs (an event, not a duration: HANG_GUARD only
    stops a hang)."""
    guard = time.monotonic() + HANG_GUARD
    while not condition():
        assert alive(process.pid), f"{what}: the command ended first: {ERRORS[process.pid].read_text()[-2000:]}"
        assert time.monotonic() < guard, f"{what}: not in {HANG_GUARD:.0f} s, a hang"
        time.sleep(0.05)


def first_line(process: subprocess.Popen, tmp_path: Path) -> str:
    """The command's first line of output, once it has written one."""
    out = tmp_path / "stdout"
    wait_for(lambda: "\n" in out.read_text(), "the first line of output", process)
    return out.read_text().split("\n", 1)[0]


def interrupt(process: subprocess.Popen, tmp_path: Path, times: int = 1) -> tuple[float, str, str]:
    """Send SIGINT (`times` times, 50 ms apart) and wait for the process to end; the CPU seconds it and its
    workers spent after the first, its output. Work past CPU_AFTER_SIGINT fails at once."""
    workers = children(process.pid)
    before = cpu(process.pid) + sum(cpu(w) for w in workers)
    for i in range(times):
        if i:
            time.sleep(0.05)
        # os.kill, not Popen.send_signal: that polls first, and a command already ended would be reaped there,
        # leaving wait4 below nothing to wait for (its usage lost); unreaped, its pid stays its own
        os.kill(process.pid, signal.SIGINT)
    guard = time.monotonic() + HANG_GUARD
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        spent = cpu(process.pid) + sum(cpu(w) for w in workers) - before
        assert spent < CPU_AFTER_SIGINT, f"still working after SIGINT: {spent:.2f} s of CPU"
        assert time.monotonic() < guard, f"no exit in {HANG_GUARD:.0f} s after SIGINT, a hang"
        time.sleep(0.02)
    process.returncode = os.waitstatus_to_exitcode(status)
    # the process's own CPU and that of the children it waited for (its workers), less what was spent before
    spent = usage.ru_utime + usage.ru_stime - before
    return spent, (tmp_path / "stdout").read_text(), (tmp_path / "stderr").read_text()


def test_ctrl_c_stops_sim_and_its_workers_at_once_and_reports_what_finished(tmp_path):
    process = start(tmp_path, "sim", "go-fish", "-n", "1000000", "--workers", "2", "--check")
    wait_for(lambda: len(children(process.pid)) >= 2, "sim's workers", process)
    workers = children(process.pid)
    time.sleep(2)  # some chunks finish
    spent, out, err = interrupt(process, tmp_path)
    print(f"sim --workers 2: {spent:.2f} s of CPU after SIGINT")
    assert spent < CPU_AFTER_SIGINT
    assert process.returncode == 130 and "Traceback" not in err
    assert "meeple sim: interrupted; " in err and " matches finished (" in err
    if not err.count("0 matches finished"):
        assert out.startswith("Go Fish: ") and "seeds 0–" in out
    assert not any(alive(w) for w in workers), "a worker outlived the command"
    assert list((tmp_path / "work").iterdir()) == [], "no file written, not even in part"


def test_a_second_ctrl_c_ends_check_at_once_without_a_traceback(tmp_path):
    process = start(tmp_path, "check", "hearts", "--examples", "100000")
    assert first_line(process, tmp_path).startswith("Hearts: checking")
    spent, _, err = interrupt(process, tmp_path, times=2)
    print(f"check, SIGINT twice: {spent:.2f} s of CPU after the first")
    assert spent < CPU_AFTER_SIGINT
    assert process.returncode in (130, -signal.SIGINT) and "Traceback" not in err and "ignored" not in err
    assert list((tmp_path / "work").iterdir()) == []


def test_ctrl_c_stops_check_and_says_so(tmp_path):
    process = start(tmp_path, "check", "hearts", "--examples", "100000")
    assert first_line(process, tmp_path).startswith("Hearts: checking")
    spent, _, err = interrupt(process, tmp_path)
    print(f"check: {spent:.2f} s of CPU after SIGINT")
    assert spent < CPU_AFTER_SIGINT
    assert process.returncode == 130 and "Traceback" not in err
    assert err.strip() == "meeple check: interrupted"


@pytest.mark.slow
@pytest.mark.parametrize("after", [i / 10 for i in range(12)], ids=lambda s: f"{s:.1f} s")
def test_ctrl_c_at_any_moment_of_check_says_so_and_ends_with_130(tmp_path, after):
    """Ctrl-C at moments spread over check's first second (Hypothesis importing, making its functions, playing):
    once it ended by SIGINT (-2) when it came while code run by `exec` of a string ran."""
    process = start(tmp_path, "check", "hearts", "--examples", "100000")
    assert first_line(process, tmp_path).startswith("Hearts: checking")
    time.sleep(after)  # (where the signal lands, not a limit)
    _, _, err = interrupt(process, tmp_path)
    assert (process.returncode, err.strip()) == (130, "meeple check: interrupted")


CTRL_C_IN_EXEC = """import atexit, os, signal, sys
from interpreter import cli
atexit.register(print, "exit handlers ran")
# a command during which Ctrl-C lands in code run by `exec` of a string (as dataclasses and Hypothesis make functions)
cli.COMMANDS["games"] = lambda args: exec("os.kill(os.getpid(), signal.SIGINT)")
sys.argv = ["meeple", "games"]
sys.exit(cli.main())
"""


def test_ctrl_c_landing_in_code_run_by_exec_still_ends_with_130(tmp_path):
    """CPython takes a KeyboardInterrupt that passed out of `exec` of a string for one never handled, and under
    `python -m` ends the process by SIGINT (-2) after the program ended cleanly: `check` did so when Ctrl-C came
    while Hypothesis made its functions. The command line ends its process itself, after its exit handlers."""
    (tmp_path / "ctrl_c_in_exec.py").write_text(CTRL_C_IN_EXEC, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    done = subprocess.run([sys.executable, "-m", "ctrl_c_in_exec"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD, check=False)
    assert (done.returncode, done.stderr.strip(), done.stdout) == (130, "meeple games: interrupted",
                                                                    "exit handlers ran\n")


REDELIVERED_WITHIN_THE_HOOK = """
import _thread, gc, signal, threading, time
from interpreter import interrupts
real_timer, swallowed, fired = threading.Timer, [], []

class FiresAtOnce:
    # the first redelivery fires at once, inside the hook; the others as they would
    def __init__(self, seconds, function):
        self.timer, self.function, self.daemon = real_timer(seconds, function), function, True

    def start(self):
        if fired:
            self.timer.daemon = True
            self.timer.start()
            return
        fired.append(self.function)
        self.function()  # Ctrl-C, taken in the loop below: within the hook
        for _ in range(3):
            pass

def swallows_ctrl_c(phase, info):
    if not swallowed:
        swallowed.append(phase)
        signal.raise_signal(signal.SIGINT)  # KeyboardInterrupt here: Python drops it

threading.Timer = FiresAtOnce
caught = 0
gc.callbacks.append(swallows_ctrl_c)
try:
    with interrupts.second_ctrl_c_exits():
        try:
            gc.collect()
            for _ in range(3000):  # waits for the KeyboardInterrupt (due in 10 ms): the bound stops a hang
                time.sleep(0.01)
        except KeyboardInterrupt:
            caught += 1
finally:
    gc.callbacks.remove(swallows_ctrl_c)
print(bool(swallowed), fired == [_thread.interrupt_main], caught)
"""


def test_a_ctrl_c_redelivered_while_the_lost_one_is_being_arranged_is_not_lost():
    """A garbage-collector callback swallows Ctrl-C (as Hypothesis's can); its redelivery comes while the hook that
    arranges it still runs (a busy machine can delay the hook past it), where a KeyboardInterrupt is lost too: it is
    delivered again, and the code around gets exactly one KeyboardInterrupt. Played in a fresh interpreter (a test
    process that ran other tests may hold callbacks, hooks and threads of theirs that take the signal first)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", REDELIVERED_WITHIN_THE_HOOK], env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD)
    assert (done.returncode, done.stdout) == (0, "True True 1\n"), done.stderr
    assert "ignored" not in done.stderr


def dies_in_workers(monkeypatch, module, name: str) -> None:
    """`module.name` ends any worker process that calls it (as a worker killed would); this one calls it as before."""
    real = getattr(module, name)
    parent = os.getpid()

    def dies_in_a_worker(*args):
        if os.getpid() != parent:
            os._exit(9)
        return real(*args)

    monkeypatch.setattr(module, name, dies_in_a_worker)


def test_seed_ranges_name_the_seeds_that_finished():
    assert sim.seed_ranges([(250, 500), (0, 250), (750, 1000)]) == "seeds 0–499, 750–999"
    assert sim.seed_ranges([(3, 4)]) == "seed 3"
    assert sim.seed_ranges([(3, 4), (9, 10)]) == "seeds 3, 9"
    assert sim.seed_ranges([]) == "no seed"


def test_a_worker_dying_before_any_match_finished_names_no_seed_range(monkeypatch, capsys):
    dies_in_workers(monkeypatch, sim, "run_chunk")
    monkeypatch.setattr("interpreter.cli.matches._cores", lambda: 2)
    assert main(["sim", "go-fish", "-n", "40", "--workers", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "meeple sim: error: a worker process died (killed, or out of memory); 0 matches finished " \
                  "(40 did not)\n"


def test_a_duel_whose_worker_dies_says_so_without_a_traceback(monkeypatch, capsys):
    from interpreter.bots import duel

    dies_in_workers(monkeypatch, duel, "_play_games")
    monkeypatch.setattr("interpreter.cli.matches._cores", lambda: 2)
    assert main(["duel", "go-fish", "random", "first", "-n", "8", "--workers", "2"]) == 1
    _, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    assert err.startswith("meeple duel: error: a worker process died after 0 of 8 games (killed, or out of memory?)")
