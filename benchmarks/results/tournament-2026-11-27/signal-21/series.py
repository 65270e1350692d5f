"""lcg's search signals every CHUNK conflicts on named runs (signal-21 study; Engine.signals, signals.cpp).

    PYTHONPATH=. python benchmarks/results/tournament-2026-11-27/signal-21/series.py OUT.csv SEED RUN...

RUN: ``tail:SET:PUZZLE`` (first solution) or ``guard:NAME/M`` (M solutions, the judge's guards).
Each row: one window of CHUNK conflicts (the last one shorter), its signals' means.  The search
is the default's (the engine run in chunks, as lcg's slices run it), capped at CAP conflicts.
"""
import csv
import sys
import time

from benchmarks.tail_judge import guard_puzzles, puzzles_of
from nonolab.solvers import build

CHUNK, CAP = 1000, 300_000


def series(spec: str, puzzle, solutions: int):
    solver = build(spec, [])
    engine = solver._build(puzzle, [], {})
    engine.signals()
    found, done, rows = 0, 0, []
    while True:
        outcome = engine.run(1e9, CHUNK)
        s, conflicts = engine.signals(), engine.stats()["conflicts"]
        n = max(1, s["conflicts"])
        rows.append({"conflicts": conflicts, "found": found, "window": s["conflicts"],
                     "lbd": s["lbd"] / n, "size": s["learned_size"] / n, "level": s["conflict_level"] / n,
                     "back": s["back_level"] / n, "trail": s["trail"] / n, "max_consistent": s["max_consistent"],
                     "far": s["far_jumps"] / n, "flips": s["phase_flips"], "root": s["root"]})
        if outcome == 1:
            found += 1
            rows[-1]["found"] = found
            if found >= solutions:
                break
        if outcome == 2 or conflicts >= CAP:
            break
    return rows


def main(out: str, seed: int, runs: list[str]) -> None:
    spec = "lcg" if seed == 0 else f"lcg:seed={seed}"
    guards = None
    with open(out, "w", newline="") as f:
        writer = None
        for run in runs:
            kind, rest = run.split(":", 1)
            if kind == "tail":
                name, key = rest.split(":")
                puzzle, m = puzzles_of(name)[key], 1
            else:
                guards = guards or guard_puzzles()
                name, m = rest.rsplit("/", 1)
                puzzle, m = guards[name], int(m)
            before = time.thread_time()
            rows = series(spec, puzzle, m)
            for r in rows:
                r = {"run": run, "seed": seed, **{k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}}
                if writer is None:
                    writer = csv.DictWriter(f, fieldnames=list(r))
                    writer.writeheader()
                writer.writerow(r)
            f.flush()
            print(f"{run} seed {seed}: {rows[-1]['conflicts']:,} conflicts, found {rows[-1]['found']}, "
                  f"{time.thread_time() - before:.1f} CPU s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
