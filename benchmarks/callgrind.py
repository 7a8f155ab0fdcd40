"""Machine instructions of chosen spans of a benchmark's run, counted by valgrind's callgrind (figures a shared
machine's load does not move): the spans are the calls a benchmark makes through `sys.call_tracing`, each
counted apart and dumped after it. A module of the benchmarks' own, not a script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent  # the benchmarks' folder


def counted_spans(root: Path, module: str, call: str, args: list, out: Path) -> str:
    """Run `module.call(*args)` (`module` a script of this folder; `args` plain values, passed by `repr`) with the
    engine of the checkout `root`, under callgrind counting only inside `sys.call_tracing`: each span dumped to
    `out.1`, `out.2`, … in turn. Returns what the call printed. Hashing is fixed (`PYTHONHASHSEED=0`), so two runs
    count alike."""
    code = ("import ast, importlib, sys; root, here, module, call, *args = sys.argv[1:]; sys.path.insert(0, root); "
            "import interpreter; assert interpreter.__file__.startswith(root), interpreter.__file__; "
            "sys.path.insert(0, here); getattr(importlib.import_module(module), call)(*map(ast.literal_eval, args))")
    tool = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=sys_call_tracing",
            "--dump-after=sys_call_tracing", f"--callgrind-out-file={out}"]
    run = subprocess.run([*tool, sys.executable, "-c", code, str(root.resolve()), str(HERE), module, call,
                          *map(repr, args)], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    return run.stdout


def total(dump: str) -> int:
    """The instructions a callgrind dump (its text) counted."""
    return next(int(line.split()[1]) for line in dump.splitlines() if line.startswith("summary:"))
