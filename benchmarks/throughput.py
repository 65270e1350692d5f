"""Puzzles per second per core on small random puzzles: check_many against check and batch.

    python -m benchmarks.throughput [--sizes 5,10,15,25] [--count 2000] [--batch-count 200] [--seed 1]

Random pictures as in the public machine-learning sets (NonoDataset: every cell filled
with probability 1/2), their clues as puzzles.  For each size:

* ``check_many``: ``nonolab.check_many(puzzles)`` (native's batch entry), in this process;
* ``check``: ``nonolab.check(p, backend="native")`` a puzzle at a time, in this process;
* ``batch``: ``nonolab batch --jobs 1 --do check -b native`` on one JSON file holding
  ``--batch-count`` of them (today's path: a guarded worker process, a JSON job a puzzle).

Figures are CPU seconds (user + system, this process or the batch's whole process tree),
so the machine's load changes them little; the load averages are printed beside them.
``--profile``: where check_many's time goes (the batch entry's engine time; packing the
clues; building and checking each result), for the largest count.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import nonolab
from nonolab.core.violations import clues_of


def random_puzzles(size: int, count: int, seed: int) -> list:
    import numpy as np
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        grid = rng.random((size, size)) < 0.5
        rows = tuple(clues_of(row.tolist()) for row in grid)
        columns = tuple(clues_of(column.tolist()) for column in grid.T)
        out.append(nonolab.Puzzle(rows=rows, columns=columns))
    return out


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure_many(puzzles: list) -> tuple[float, dict]:
    start = _cpu()
    verdicts: dict = {}
    for result in nonolab.check_many(puzzles):
        verdicts[result.verdict.value] = verdicts.get(result.verdict.value, 0) + 1
    return _cpu() - start, verdicts


def measure_check(puzzles: list) -> float:
    start = _cpu()
    for puzzle in puzzles:
        nonolab.check(puzzle, backend="native")
    return _cpu() - start


def measure_batch(puzzles: list) -> float:
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "set.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(nonolab.formats.dumps_all(puzzles, "json"))
        start = _children_cpu()
        subprocess.run([sys.executable, "-m", "nonolab", "batch", path, "--out", os.path.join(root, "r.jsonl"),
                        "--jobs", "1", "--do", "check", "-b", "native", "--no-progress"], check=True,
                       stdout=subprocess.DEVNULL)
        return _children_cpu() - start


def profile(puzzles: list) -> None:
    import cProfile
    import pstats
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in nonolab.check_many(puzzles):
        pass
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats("many.py|batch.py|base.py:.*(finish|checked)|violations|"
                                               "from_states|_checked|pack", 12)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5,10,15,25")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--batch-count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    import nonolab.formats  # noqa: F401
    nonolab.check_many(random_puzzles(5, 10, 0))  # load the engines before any clock starts
    list(nonolab.check_many(random_puzzles(5, 10, 0)))
    print(f"load before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| size | puzzles | verdicts | check_many /s/core | check /s/core | batch /s/core | many vs batch |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for size in (int(s) for s in args.sizes.split(",")):
        puzzles = random_puzzles(size, args.count, args.seed + size)
        many, verdicts = measure_many(puzzles)
        single = measure_check(puzzles[:max(1, args.count // 4)])
        batch = measure_batch(puzzles[:args.batch_count])
        rates = (len(puzzles) / many, max(1, args.count // 4) / single, args.batch_count / batch)
        print(f"| {size}x{size} | {len(puzzles)} | {', '.join(f'{k} {v}' for k, v in sorted(verdicts.items()))} | "
              f"{rates[0]:,.0f} | {rates[1]:,.0f} | {rates[2]:,.0f} | {rates[0] / rates[2]:.0f}x |")
        if args.profile and size == max(int(s) for s in args.sizes.split(",")):
            profile(puzzles)
    print(f"load after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    time.perf_counter()
    main()
