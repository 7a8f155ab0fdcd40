"""The package type-checks: mypy, with the `[tool.mypy]` settings of pyproject.toml, finds no error in
interpreter/ (the package ships `py.typed`, so its annotations are part of what it offers)."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error_in_the_package():
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "interpreter")])
    assert status == 0 and out.startswith("Success"), out + err


def test_the_package_says_it_is_typed():
    assert (ROOT / "interpreter" / "py.typed").is_file()
    assert '"interpreter" = ["py.typed"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
