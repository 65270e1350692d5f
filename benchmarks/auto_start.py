"""``auto`` against its own parts on the puzzles where the start rule matters, in one run.

    python -m benchmarks.auto_start [--specs "lcg;native;auto;auto:early_open=0.5"]
        [--refs lcg;native] [--repeat 3] [--time-limit 10] [--taai-stride 10]
        [--out FILE]

The puzzles: every corpus puzzle whose root line propagation leaves cells open (native's
``on_stuck`` hook fires; a line-solvable grid never starts a second engine) and that
lcg settles within a second, every ``--taai-stride``-th taai25 puzzle from the fifth,
and the smooth 60..250 squares of ``large``.  Each puzzle is solved ``--repeat`` times
by every spec, the specs alternating, count to 2; the best time of each is kept (the
machine is shared: a neighbour's load falls on every spec alike).  Specs are separated
by ``;`` because an ``auto`` spec's options are separated by commas.

For each spec that is not a reference it prints the total, the geometric mean of its
ratio to the best reference, how many puzzles it takes over 1.25x the best reference,
and how many of those are also over 2 ms behind (below that, a race's fixed cost and
the machine's noise dominate); the worst of those by the time lost.  Writes one CSV row
per (puzzle, spec).
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections import defaultdict
from pathlib import Path

from benchmarks.corpus_batch import OUT

SMOOTH = (60, 100, 150, 250)


def _opens_cells(puzzle) -> bool:
    """Whether native's root line propagation leaves some cell open."""
    from nonolab.solvers import get
    from nonolab.solvers.base import Limits

    seen: list[bool] = []
    get("native", on_stuck=lambda grid: seen.append(True)).solve(puzzle, Limits(max_solutions=2, time_limit=0.5))
    return bool(seen)


def puzzles(taai_stride: int, time_limit: float) -> list[tuple[str, object]]:
    """The puzzles described above, in order."""
    from benchmarks.suites import CORPUS
    from nonolab.bench.suites import items_of
    from nonolab.solvers import get
    from nonolab.solvers.base import Limits, Status

    chosen = []
    for item in items_of([str(CORPUS)]):
        if not _opens_cells(item.puzzle):
            continue
        if get("lcg").solve(item.puzzle, Limits(max_solutions=2, time_limit=1.0)).status is not Status.TIMEOUT:
            chosen.append((item.name, item.puzzle))
    chosen += [(i.name, i.puzzle) for i in items_of(["taai:1000"])[5::taai_stride]]
    chosen += [(i.name, i.puzzle) for i in items_of([f"large:{','.join(map(str, SMOOTH))}"])]
    return chosen


def summary(times: dict[str, dict[str, float]], refs: list[str]) -> list[str]:
    """The printed lines: one per spec that is not a reference."""
    specs = [s for s in next(iter(times.values())) if s not in refs]
    lines = []
    for spec in specs:
        best = {p: min(t[r] for r in refs) for p, t in times.items()}
        over = [(p, t[spec], best[p]) for p, t in times.items() if t[spec] > 1.25 * best[p]]
        far = sorted((o for o in over if o[1] - o[2] > 0.002), key=lambda o: o[1] - o[2])
        geo = math.exp(sum(math.log(t[spec] / best[p]) for p, t in times.items()) / len(times))
        worst = ", ".join(f"{p.split('/')[-1]} {a * 1e3:.1f}/{b * 1e3:.1f} ms" for p, a, b in far[-4:])
        lines.append(f"{spec:50s} total {sum(t[spec] for t in times.values()):7.3f} s  geo {geo:.3f}  "
                     f"over 1.25x {len(over):3d}  and 2 ms behind {len(far):3d}  worst: {worst}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--specs", default="lcg;native;auto;auto:early_open=0.5")
    parser.add_argument("--refs", default="lcg;native", help="the single backends auto is held to")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--taai-stride", type=int, default=10)
    parser.add_argument("--out", type=Path, default=OUT / "auto_start.csv")
    args = parser.parse_args(argv)
    from nonolab.solvers import build
    from nonolab.solvers.base import Limits

    specs, refs = args.specs.split(";"), args.refs.split(";")
    limits = Limits(max_solutions=2, time_limit=args.time_limit)
    times: dict[str, dict[str, float]] = defaultdict(dict)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["puzzle", "spec", "time", "winner"])
        for name, puzzle in puzzles(args.taai_stride, args.time_limit):
            winners: dict[str, object] = {}
            for _ in range(args.repeat):
                for spec in specs:
                    began = time.perf_counter()
                    result = build(spec).solve(puzzle, limits)
                    took = time.perf_counter() - began
                    if took < times[name].get(spec, math.inf):
                        times[name][spec] = took
                        winners[spec] = result.stats.counters.get("winner")
            for spec in specs:
                out.writerow([name, spec, f"{times[name][spec]:.6f}", winners[spec] or ""])
            fh.flush()
            print(name, " ".join(f"{times[name][s] * 1e3:.2f}" for s in specs), flush=True)
    print("\n".join(summary(times, refs)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
