"""What keeping the compiled-game cache to its size costs a write, printed (not a timed test): `cache._prune` on a
folder of N entries under the limit (the usual case) and at one over it, CPU milliseconds a call (the process's
own, user and system), the mean of R calls. `--against DIR` times another checkout's `_prune` too (an earlier
commit unpacked there: `git archive REV | tar -x -C DIR`).

    python benchmarks/cache_prune.py [--entries 1000] [--repeat 50] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def prune_of(checkout: Path):
    """The `_prune` function of a checkout's interpreter/cache.py, loaded on its own (it needs only the stdlib)."""
    source = (checkout / "interpreter/cache.py").read_text(encoding="utf-8")
    start = source.index("def _prune(")
    namespace: dict = {}
    exec("import os\nfrom pathlib import Path\n" + source[start:], namespace)
    return namespace["_prune"]


def ms_per_call(prune, where: Path, keep: int, repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        prune(where, keep)
    return (time.process_time() - start) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    sides = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        for i in range(args.entries):
            (where / f"{i:064x}.pickle").write_bytes(b"x")
            os.utime(where / f"{i:064x}.pickle", ns=(10**18 + i,) * 2)
        print(f"_prune on a folder of {args.entries} entries, CPU ms a call (mean of {args.repeat})")
        for name, checkout in sides:
            prune = prune_of(checkout)
            under = ms_per_call(prune, where, args.entries, args.repeat)  # at the limit: nothing to remove
            over = ms_per_call(prune, where, args.entries - 1, 1)  # one over: the oldest is removed
            (where / f"{0:064x}.pickle").write_bytes(b"x")
            print(f"  {name:8} under the limit {under:7.3f}   one over {over:7.3f}")


if __name__ == "__main__":
    main()
