"""Output files respect what they write into: a FIFO or a device stays one after every output option, a regular
file is replaced whole, one file named by two options or a file of the game being read is refused."""

import contextlib
import os
import shutil
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.paths import data_dir

OVERLOADED = data_dir("cards") / "overloaded"
GO_FISH = data_dir("cards") / "go-fish"
NULL_DEVICE = (1, 3)  # the numbers of /dev/null on Linux


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def twelve_rounds(tmp_path) -> Path:
    """Overloaded over 12 rounds: an invariant fails at the first decision, so `check` writes its log."""
    folder = tmp_path / "twelve-rounds"
    shutil.copytree(OVERLOADED, folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("  rounds: 8", "  rounds: 12", 1))
    return folder


# Each output option: the command line with TARGET for the file written, and what the file starts with.
OPTIONS = {
    "compile -o": (["compile", "go-fish", "-o", "TARGET"], b"# "),
    "play --log": (["play", "go-fish", "--seed", "1", "--log", "TARGET"], b'{"type": "match"'),
    "play --log-for": (["play", "go-fish", "--seed", "1", "--log-for", "1", "TARGET"], b'{"type": "match"'),
    "check --out": (["check", "GAME", "--players", "3", "--examples", "5", "--leaks", "0", "--out", "TARGET"],
                    b'{"type": "match"'),
    "sim --check": (["sim", "GAME", "-n", "3", "--players", "3", "--check"], b'{"type": "match"'),
}


def command(option: str, target: Path, game: Path) -> list[str]:
    argv, _ = OPTIONS[option]
    return [str(target) if a == "TARGET" else str(game) if a == "GAME" else a for a in argv]


def target_of(option: str, tmp_path: Path) -> Path:
    """Where the option writes: `sim --check` writes check-failure.jsonl in the working folder."""
    return tmp_path / ("check-failure.jsonl" if option == "sim --check" else "out")


@contextlib.contextmanager
def fifo_reader(path: Path) -> Iterator[dict[str, bytes]]:
    """A FIFO at `path` with a reader thread; yields what it read (under "data") once the writer closed it."""
    os.mkfifo(path)
    got: dict[str, bytes] = {}

    def read() -> None:
        with open(path, "rb") as f:
            got["data"] = f.read()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield got
    finally:
        if reader.is_alive():  # nothing opened it for writing: let the reader go
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)


def temp_files(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("option", OPTIONS)
def test_a_fifo_is_written_into_and_stays_a_fifo(capsys, tmp_path, monkeypatch, twelve_rounds, option):
    monkeypatch.chdir(tmp_path)
    target = target_of(option, tmp_path)
    with fifo_reader(target) as got:
        code, _, err = run(capsys, *command(option, target, twelve_rounds))
    assert "Traceback" not in err and "internal error" not in err
    assert code == (0 if option in ("compile -o", "play --log", "play --log-for") else 1), err
    assert stat.S_ISFIFO(os.stat(target).st_mode), f"{option} replaced the FIFO"
    assert got.get("data", b"").startswith(OPTIONS[option][1]), f"{option} wrote nothing into the FIFO"
    assert temp_files(tmp_path) == []


def null_device(path: Path) -> None:
    """A character device like /dev/null at `path` (skips unless this process may make and open one)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*NULL_DEVICE))
        os.chmod(path, 0o666)  # mknod applies the umask
        os.close(os.open(path, os.O_WRONLY))
    except OSError as err:  # no CAP_MKNOD, or a file system mounted nodev
        pytest.skip(f"cannot make or open a device node here: {err.strerror}")


@pytest.mark.parametrize("option", OPTIONS)
def test_a_device_is_written_into_and_stays_that_device(capsys, tmp_path, monkeypatch, twelve_rounds, option):
    monkeypatch.chdir(tmp_path)
    target = target_of(option, tmp_path)
    null_device(target)
    code, _, err = run(capsys, *command(option, target, twelve_rounds))
    assert "Traceback" not in err and "internal error" not in err
    assert code == (0 if option in ("compile -o", "play --log", "play --log-for") else 1), err
    after = os.stat(target)
    assert stat.S_ISCHR(after.st_mode), f"{option} turned the device into another kind of file"
    assert (os.major(after.st_rdev), os.minor(after.st_rdev)) == NULL_DEVICE
    assert stat.S_IMODE(after.st_mode) == 0o666, f"{option} changed the device's permissions"
    assert temp_files(tmp_path) == []


def test_a_regular_file_is_replaced_whole_keeping_its_permissions_and_a_link_stays_a_link(capsys, tmp_path):
    real = tmp_path / "real.py"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    code, _, err = run(capsys, "compile", "go-fish", "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and real.read_text().startswith("# ")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert temp_files(tmp_path) == []


@pytest.mark.parametrize("second", ["--log", "--log-for 1", "link"])
def test_one_file_named_by_two_options_is_refused_before_the_match(capsys, tmp_path, second):
    log = tmp_path / "m.jsonl"
    other = log
    if second == "link":
        other = tmp_path / "link.jsonl"
        other.symlink_to(log)
    argv = ["play", "go-fish", "--seed", "1", "--log-for", "0", str(log)]
    argv += ["--log", str(other)] if second in ("--log", "link") else ["--log-for", "1", str(other)]
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith("meeple play: error: cannot write ") and " twice: " in err and "name the same file" in err
    assert not log.exists()


@pytest.fixture
def go_fish(tmp_path) -> Path:
    folder = tmp_path / "go-fish"
    shutil.copytree(GO_FISH, folder)
    return folder


def game_file_cases(folder: Path) -> list[list[str]]:
    scenario = sorted((folder / "scenarios").glob("*.yaml"))[0]
    cards = sorted(p for p in folder.glob("*.yaml") if p.name != "game.yaml")
    link = folder.parent / "link.yaml"
    link.symlink_to(folder / "game.yaml")
    return [
        ["compile", str(folder), "-o", str(folder / "game.yaml")],
        ["compile", str(folder), "-o", str(link)],
        ["play", str(folder), "--seed", "1", "--log", str(scenario)],
        ["play", str(folder), "--seed", "1", "--log-for", "0", str(folder / "game.yaml")],
        ["check", str(folder), "--examples", "1", "--out", str(folder / "game.yaml")],
    ] + [["compile", str(folder), "-o", str(card)] for card in cards]


def test_a_file_of_the_game_being_read_is_never_written_over(capsys, go_fish):
    before = {p: p.read_bytes() for p in go_fish.rglob("*") if p.is_file()}
    for argv in game_file_cases(go_fish):
        code, out, err = run(capsys, *argv)
        assert code == 1, argv
        assert "of the game being read" in err and "Traceback" not in err, err
        assert "checking" not in out, "refused before any work"
    assert {p: p.read_bytes() for p in go_fish.rglob("*") if p.is_file()} == before


def test_a_log_written_from_python_is_refused_over_a_game_file_too(go_fish):
    from interpreter import load_game
    from interpreter.logfile import LogError, write_log

    game = load_game(go_fish)
    with pytest.raises(LogError, match="of the game being read"):
        write_log(go_fish / "game.yaml", [{"type": "match", "game": "go-fish"}], game)

