"""The package type-checks: mypy, with the `[tool.mypy]` settings of pyproject.toml, finds no error in
interpreter/ (the package ships `py.typed`, so its annotations are part of what it offers)."""

import os
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def cache_dir() -> str:
    """Where mypy keeps what it worked out: `MYPY_CACHE_DIR` if set, else the user's cache folder
    (`$XDG_CACHE_HOME/meeple/mypy`, else `~/.cache/meeple/mypy`), not `.mypy_cache` of the checkout: a fresh
    clone would check every module again, 13-15 s of CPU (2 s warm; the parts of dependencies interpreter/ never
    reaches are not read: `[tool.mypy]` of pyproject.toml). mypy takes an entry of another checkout of the same
    module only when the file's bytes are the same (it compares their hash)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return os.environ.get("MYPY_CACHE_DIR") or str(Path(base) / "meeple" / "mypy")


def test_mypy_finds_no_error_in_the_package():
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", cache_dir(),
                                str(ROOT / "interpreter")])
    assert status == 0 and out.startswith("Success"), out + err


def test_the_package_says_it_is_typed():
    assert (ROOT / "interpreter" / "py.typed").is_file()
    assert '"interpreter" = ["py.typed"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
