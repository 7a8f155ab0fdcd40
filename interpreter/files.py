"""Output files: a regular file is replaced whole or not at all; a device or a FIFO is written into.

Every file the command line writes (`compile -o`, `play --log` and `--log-for`, `check --out`, the logs
of a failure) goes through `write_whole`. A regular file (or a new one) is written as a temp file beside
it, then renamed over it, so a reader never sees half of it. Renaming over a device such as /dev/null
would turn it into a plain file (as root), and over a FIFO would cut off its reader: those, and any other
file that is not a regular one, are opened and written into, never renamed, truncated or chmod-ed.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

STALE_TEMP_SECONDS = 3600
"""A temp file of a writer that cannot be seen to be alive is removed once it is this old."""

# After `.NAME`: `.PID.RANDOM.tmp`; `.RANDOM.tmp` from writers that did not name their process.
_TEMP = re.compile(r"\.(?:(?P<pid>[0-9]+)\.)?[^.]+\.tmp")


class OutputError(Exception):
    """An output file that cannot (or must not) be written; the message names it and says why."""


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def _real(path: str | Path) -> Path:
    """The file a path names, links followed (a link is kept a link: its target is what gets written)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return Path(os.path.abspath(path))


def _same(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file (the same path, or links or hard links to one file)."""
    if _real(a) == _real(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_target(path: str | Path, keep: Iterable[str | Path] = ()) -> None:
    """Refuse (OutputError) a path that cannot be written or is one of the files in `keep` (e.g. the game's own
    files), before any work is done; a missing file whose folder exists is fine."""
    shown = str(path)
    for kept in keep:
        if _same(path, kept):
            raise OutputError(f"cannot write {shown}: it is one of the files of the game being read ({kept})")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as err:
        raise OutputError(f"cannot write {shown}: {_why(err) if isinstance(err, OSError) else err}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {shown}: it is a folder")
    if mode is None:
        try:
            if not stat.S_ISDIR(os.stat(_real(path).parent).st_mode):
                raise OutputError(f"cannot write {shown}: its folder is not a folder")
        except OSError as err:
            if isinstance(err, FileNotFoundError):
                raise OutputError(f"cannot write {shown}: its folder does not exist") from None
            raise OutputError(f"cannot write {shown}: {_why(err)}") from None


def check_targets(paths: Iterable[tuple[str, str | Path]], keep: Iterable[str | Path] = ()) -> None:
    """`check_target` for each (option, path) of one command, and refuse one file named twice."""
    kept = list(keep)
    seen: list[tuple[str, str | Path]] = []
    for option, path in paths:
        check_target(path, kept)
        for other_option, other in seen:
            if _same(path, other):
                raise OutputError(f"cannot write {path} twice: {other_option} and {option} name the same file; "
                                  "give each its own")
        seen.append((option, path))


def write_whole(path: str | Path, data: bytes, keep: Iterable[str | Path] = ()) -> None:
    """Write `data` to `path`: a regular (or new) file whole or not at all, a device or FIFO straight into it;
    OutputError says why it cannot be (`keep`: files never to be written, as in `check_target`)."""
    check_target(path, keep)
    shown = str(path)
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        special = False
    except OSError as err:
        raise OutputError(f"cannot write {shown}: {_why(err)}") from None
    if special:
        _write_into(path, data)
        return
    target = _real(path)
    _remove_stale_temps(target)
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp")
    except OSError as err:
        raise OutputError(f"cannot write {shown}: {_why(err)}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, _mode_for(target))
        os.replace(temp, target)
    except OSError as err:
        raise OutputError(f"cannot write {shown}: {_why(err)}") from None
    finally:
        Path(temp).unlink(missing_ok=True)


def _write_into(path: str | Path, data: bytes) -> None:
    """Write into a file that is not a regular one (a device, a FIFO): no temp file, no rename, no truncation
    (O_TRUNC and O_CREAT left out, so a file that went away meanwhile is not made a regular one)."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise OutputError(f"cannot write {path}: {_why(err)}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {_why(err)}") from None


def _mode_for(target: Path) -> int:
    """The permissions the written file gets: those of the file it replaces, else what a new file gets."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)  # the only way to read it; set back at once
        os.umask(mask)
        return 0o666 & ~mask


def _remove_stale_temps(target: Path) -> None:
    """Remove temp files of earlier writes to `target` whose writer died (e.g. by `kill -9`)."""
    prefix = f".{target.name}"
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        if not name.startswith(prefix):
            continue
        match = _TEMP.fullmatch(name, len(prefix))
        if match is None:
            continue
        temp = target.parent / name
        try:
            old = time.time() - temp.lstat().st_mtime > STALE_TEMP_SECONDS
            if old or (match["pid"] is not None and not _alive(int(match["pid"]))):
                temp.unlink()
        except (OSError, ValueError, OverflowError):
            continue  # gone already, or not ours to judge


def _alive(pid: int) -> bool:
    """Whether a process `pid` runs on this machine (where that cannot be told: yes)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True  # the age rule alone applies
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True
