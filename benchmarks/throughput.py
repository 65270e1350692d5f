"""Puzzles per second per core on small random puzzles: check_many against check and batch.

    python -m benchmarks.throughput [--sizes 5,10,15,25] [--count 2000] [--batch-count 200] [--seed 1]
    python -m benchmarks.throughput --engine-only [--sizes 10,25] [--count 4000]

Random pictures as in the public machine-learning sets (NonoDataset: every cell filled
with probability 1/2), their clues as puzzles.  For each size:

* ``check_many``: ``nonolab.check_many(puzzles, backend="native")`` (native's batch entry; the
  default backend, auto, puts native's entry first too), in this process;
* ``check``: ``nonolab.check(p, backend="native")`` a puzzle at a time, in this process;
* ``batch``: ``nonolab batch --jobs 1 --do check -b native`` on one JSON file holding
  ``--batch-count`` of them (today's path: a guarded worker process, a JSON job a puzzle).

Figures are CPU seconds (user + system, this process or the batch's whole process tree),
so the machine's load changes them little; the load averages are printed beside them.
``--profile``: where check_many's time goes (the batch entry's engine time; packing the
clues; building and checking each result), for the largest count.  ``--engine-only``: the
compiled batch entry alone (``check_arrays`` on packed clues, native's probing and cache
budget, 50 ms a puzzle), best of three, for A/B runs of the C++ (swap the built module).

``check /s/core`` is measured on the first quarter of the puzzles only; at 25x25 the few
puzzles that take seconds may fall outside it, so compare it with ``check_many`` with care.
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
    for result in nonolab.check_many(puzzles, backend="native"):
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


def measure_engine(puzzles: list) -> tuple[float, int]:
    """Puzzles per CPU second of the batch entry alone (best of three), and how many it left unfinished."""
    from nonolab.solvers import get
    from nonolab.solvers.native.compiled.batch import UNFINISHED, check_arrays, pack

    native = get("native")
    arrays = pack(puzzles)
    best, unfinished = float("inf"), 0
    for _ in range(3):
        start = _cpu()
        answers = check_arrays(*arrays, probing=native.probing.value, puzzle_seconds=0.05, budget=1000.0,
                               cache_bytes=native.cache_bytes)
        best = min(best, _cpu() - start)
        unfinished = int((answers.state == UNFINISHED).sum())
    return len(puzzles) / best, unfinished


def profile(puzzles: list) -> None:
    import cProfile
    import pstats
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in nonolab.check_many(puzzles, backend="native"):
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
    parser.add_argument("--engine-only", action="store_true")
    args = parser.parse_args(argv)
    import nonolab.formats  # noqa: F401
    list(nonolab.check_many(random_puzzles(5, 10, 0), backend="native"))  # load the engines before any clock starts
    print(f"load before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.engine_only:
        measure_engine(random_puzzles(5, 20, 0))
        for size in (int(s) for s in args.sizes.split(",")):
            rate, unfinished = measure_engine(random_puzzles(size, args.count, args.seed + size))
            print(f"{size}x{size}: {rate:,.0f} puzzles per CPU second (batch entry alone, best of 3; "
                  f"{unfinished} of {args.count} unfinished within 50 ms)")
        print(f"load after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        return
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
