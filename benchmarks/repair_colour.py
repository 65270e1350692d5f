"""The repair (``nonolab.harness.repair.repair``) in colour, and black and white before and after.

* colour: random pictures (seeded) whose clues have several solutions, per size and
  number of colours: how many were repaired, how many with the fewest changes proven,
  the changes, the time; every repaired puzzle counted again by native and CNF (exactly 1);
* black and white: the corpus puzzles with several solutions, the repair of this tree
  against another copy of ``repair.py`` (``--before FILE``, e.g. ``git show
  int:src/nonolab/harness/repair.py > /tmp/before.py``), alternating, in one process.

    python -m benchmarks.repair_colour [--per-set 8] [--time-limit 20] [--before /tmp/before.py] [--no-colour]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from nonolab.core import Puzzle, Solution
from nonolab.formats import load
from nonolab.harness.repair import repair
from nonolab.solvers import get
from nonolab.solvers.base import Limits

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
BW_MULTIPLE = ["hakank-classic/nonunique.non", "hakank-classic/simple2.non", "hakank-classic/t2.non",
               "jwilk/data001.non", "jwilk/data083.non", "jwilk/data084.non", "jwilk/data087.non",
               "pynogram/xmas.non", "cgi-lab/lalafrogkk-puzzle-cannot-solve.non"]


def _ambiguous(size: int, colours: int, count: int, seed: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    native, found = get("native"), []
    while len(found) < count:
        cells = rng.integers(0, colours + 1, (size, size))
        picture = Solution.from_values(cells.astype(np.uint8).tolist())
        if picture.colours < 2:
            continue
        puzzle = Puzzle.from_solution(picture)
        if not native.solve(puzzle, Limits(2)).unique:
            found.append(puzzle)
    return found


def colour_table(per_set: int, time_limit: float) -> None:
    native, cnf = get("native"), get("cnf")
    print("| size | colours | repaired | fewest proven | changes (median, max) | seconds (median, max) | "
          "counted 1 by native and CNF |")
    print("|---|---|---|---|---|---|---|")
    for size in (8, 12, 16, 20):
        for colours in (2, 3, 4):
            rows = []
            for puzzle in _ambiguous(size, colours, per_set, seed=size * 10 + colours):
                began = time.perf_counter()
                result = repair(puzzle, time_limit=time_limit, suggestions=1)
                wall = time.perf_counter() - began
                best = result.best
                proven = (best is not None and best.unique and native.solve(best.puzzle, Limits(None)).count == 1
                          and cnf.solve(best.puzzle, Limits(None)).count == 1)
                rows.append((result.status == "repaired", result.minimal, len(best.flips) if best else None,
                             wall, proven))
            changes = [r[2] for r in rows if r[2] is not None]
            walls = [r[3] for r in rows]
            print(f"| {size}x{size} | {colours} | {sum(r[0] for r in rows)}/{len(rows)} | {sum(r[1] for r in rows)} | "
                  f"{statistics.median(changes) if changes else '-'}, {max(changes) if changes else '-'} | "
                  f"{statistics.median(walls):.3f}, {max(walls):.3f} | {sum(r[4] for r in rows)}/{sum(r[0] for r in rows)} |")


def bw_table(before: str, time_limit: float, rounds: int) -> None:
    spec = importlib.util.spec_from_file_location("repair_before", before)
    old = importlib.util.module_from_spec(spec)
    sys.modules["repair_before"] = old         # its dataclasses look their module up
    spec.loader.exec_module(old)      # type: ignore[union-attr]
    print("| puzzle | flips before / after | minimal before / after | s before | s after | after / before |")
    print("|---|---|---|---|---|---|")
    for name in BW_MULTIPLE:
        puzzle = load(CORPUS / name)
        times = {"before": [], "after": []}
        results = {}
        for _ in range(rounds):
            for label, fn in (("before", old.repair), ("after", repair)):
                began = time.perf_counter()
                results[label] = fn(puzzle, time_limit=time_limit)
                times[label].append(time.perf_counter() - began)
        b, a = results["before"], results["after"]
        tb, ta = min(times["before"]), min(times["after"])
        flips = lambda r: len(r.best.flips) if r.best else "-"   # noqa: E731
        print(f"| {name} | {flips(b)} / {flips(a)} | {b.minimal} / {a.minimal} | {tb:.3f} | {ta:.3f} | "
              f"{ta / tb:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--before", default=None)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-colour", action="store_true", help="only the black-and-white comparison")
    args = parser.parse_args()
    repair(Puzzle.from_solution(Solution.from_values([[1, 0], [0, 1]])))   # warm-up: the engine loads
    if not args.no_colour:
        colour_table(args.per_set, args.time_limit)
    if args.before:
        bw_table(args.before, args.time_limit, args.rounds)


if __name__ == "__main__":
    main()
