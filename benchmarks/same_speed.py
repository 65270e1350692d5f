"""Black-and-white speed of two source trees, in one run: did a change slow the corpus?

    python -m benchmarks.same_speed OLD_SRC NEW_SRC [--backend native] [--time-limit 10] [--rounds 2]

Each tree's package is imported in its own process (``PYTHONPATH=SRC``); the process
loads every ``.non`` puzzle of the shared black-and-white corpus, solves one to warm
up (the compiled engine's first call), then counts each puzzle to 2 with the backend
and prints its per-puzzle ``stats.wall_time``.  The trees run in turn, ``--rounds``
times (old, new, old, new, ...), and the totals over the puzzles both finish are
compared as a ratio (new / old) per round, and once more with each puzzle's fastest time
over the rounds (on a shared machine, the least disturbed run of each puzzle).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

_CHILD = r"""
import json, sys, time
from pathlib import Path
from nonolab.formats import load
from nonolab.solvers import Limits, get
corpus, backend, limit = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
files = sorted(p for p in corpus.glob("*/*.non"))
solver = get(backend)
solver.solve(load(files[0]), Limits(2, limit))
out = {}
for path in files:
    puzzle = load(path)
    result = solver.solve(puzzle, Limits(2, limit))
    out[str(path.relative_to(corpus))] = (result.stats.wall_time, result.complete or result.count >= 2)
print(json.dumps(out))
"""


def times(src: str, backend: str, limit: float) -> dict[str, tuple[float, bool]]:
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(CORPUS), backend, str(limit)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.same_speed", description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--backend", default="native")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    print("| round | puzzles finished by both | old total s | new total s | new / old |")
    print("|---|---:|---:|---:|---:|")
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    finished: set[str] | None = None
    for k in range(args.rounds):
        old = times(args.old, args.backend, args.time_limit)
        new = times(args.new, args.backend, args.time_limit)
        both = {p for p in old if p in new and old[p][1] and new[p][1]}
        finished = both if finished is None else finished & both
        for side, run in (("old", old), ("new", new)):
            for p, (seconds, _) in run.items():
                best[side][p] = min(seconds, best[side].get(p, seconds))
        a = sum(old[p][0] for p in both)
        b = sum(new[p][0] for p in both)
        print(f"| {k + 1} | {len(both)} | {a:.2f} | {b:.2f} | {b / a:.3f} |", flush=True)
    common = sorted(finished or ())
    a = sum(best["old"][p] for p in common)
    b = sum(best["new"][p] for p in common)
    print(f"| fastest of each puzzle | {len(common)} | {a:.2f} | {b:.2f} | {b / a:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
