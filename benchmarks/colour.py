"""Colour backends on generated colour puzzles and on the shared colour corpus.

    python -m benchmarks.colour [--sizes 20,30,50,100] [--colours 2,4,8] [--per-set 2]
        [--time-limit 60] [--backends native,cpsat,cnf,lcg] [--seed 1] [--density D]

Each generated set holds ``--per-set`` random colour pictures of one size and colour
count (seeded: the same command gives the same puzzles).  A picture's cells are runs:
each cell repeats its left neighbour with probability 1/2, else is the background
(probability 0.4) or a random colour, so lines hold blocks of several lengths and
colours that touch.  With ``--density D`` the cells are independent instead: each is
a random colour with probability D, else the background; at D = 0.3 from 25x25 up such
puzzles need deep search (no runs to anchor the lines).  Every puzzle is counted to 2 by every backend, one after the
other in this process; time is the backend's ``stats.wall_time``.  The answers must
agree (each solution is verified by the contract).  Prints markdown tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus-colour"


def picture(size: int, colours: int, rnd: random.Random, density: float | None = None):
    """A ``size`` x ``size`` colour picture with runs, or of independent cells of the
    given density (see the module notes)."""
    from nonolab.core import Solution

    if density is not None:
        return Solution.from_values([[rnd.randint(1, colours) if rnd.random() < density else 0
                                      for _ in range(size)] for _ in range(size)])
    rows = []
    for _ in range(size):
        row: list[int] = []
        for c in range(size):
            if c and rnd.random() < 0.5:
                row.append(row[-1])
            else:
                row.append(0 if rnd.random() < 0.4 else rnd.randint(1, colours))
        rows.append(row)
    return Solution.from_values(rows)


def generated(size: int, colours: int, count: int, seed: int, density: float | None = None) -> list:
    from nonolab.core import Palette, Puzzle

    rnd = random.Random(f"{seed}-{size}-{colours}" + ("" if density is None else f"-{density}"))
    return [Puzzle.from_solution(picture(size, colours, rnd, density), name=f"{size}x{size}-{colours}c-{i + 1}",
                                 palette=Palette.default_for(colours)) for i in range(count)]


def run(puzzle, spec: str, time_limit: float) -> tuple[str, float]:
    from nonolab.harness.uniqueness import verdict_of
    from nonolab.solvers import Limits, build

    result = build(spec).solve(puzzle, Limits(max_solutions=2, time_limit=time_limit))
    answer = verdict_of(result).value if result.complete or result.count >= 2 else result.status.value
    return answer, result.stats.wall_time


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.colour", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="20,30,50,100")
    parser.add_argument("--colours", default="2,4,8")
    parser.add_argument("--per-set", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--backends", default="native,cpsat,cnf,lcg")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", action="store_true", help="also the shared colour corpus")
    parser.add_argument("--density", type=float, default=None,
                        help="independent cells, each a colour with this probability (default: runs)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    backends = [b for b in args.backends.split(",") if b]
    warm = generated(5, 2, 1, 0)[0]
    for b in backends:   # imports and first-call costs stay out of the table
        run(warm, b, args.time_limit)
    print("| set | puzzles | verdicts | " + " | ".join(f"{b} median s | {b} max s" for b in backends) + " |")
    print("|---|---:|---|" + "---:|---:|" * len(backends))
    disagreements = 0
    kind = "" if args.density is None else f", density {args.density:g}"
    sets = [(f"{s}x{s}, {k} colours{kind}", generated(s, k, args.per_set, args.seed, args.density))
            for s in map(int, args.sizes.split(",")) for k in map(int, args.colours.split(","))]
    if args.corpus and CORPUS.is_dir():
        from nonolab.formats import load
        sets.append(("colour corpus (28)", [load(p) for p in sorted(CORPUS.glob("*/*.xml"))]))
    for label, puzzles in sets:
        times: dict[str, list[float]] = {b: [] for b in backends}
        verdicts: dict[str, int] = {}
        for puzzle in puzzles:
            answers = set()
            for b in backends:
                answer, seconds = run(puzzle, b, args.time_limit)
                times[b].append(seconds)
                if answer in ("unique", "multiple", "contradiction"):
                    answers.add(answer)
                else:
                    verdicts["timeout " + b] = verdicts.get("timeout " + b, 0) + 1
            if len(answers) > 1:
                disagreements += 1
            for a in answers:
                verdicts[a] = verdicts.get(a, 0) + 1
        shown = ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
        cells = " | ".join(f"{statistics.median(times[b]):.3f} | {max(times[b]):.3f}" for b in backends)
        print(f"| {label} | {len(puzzles)} | {shown} | {cells} |", flush=True)
    print(f"\ndisagreements: {disagreements}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
