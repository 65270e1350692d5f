"""The differential wall, long: thousands of random small puzzles against brute force.

    python -m benchmarks.differential [--bw 10000] [--colour 10000] [--seed 1] [--per-variant 1000]
        [--backends native,lcg] [--bw-side 7] [--colour-side 7] [--out DIR]

The same wall as the test suite (``tests/wall``, see ``docs/differential.md``), at
length.  Every registered backend that loads answers every puzzle of its kinds (the
``--bw`` black-and-white ones, and the ``--colour`` colour ones when it declares
``COLOUR``); each of its declared variants answers ``--per-variant`` of each kind, a
different slice of the same puzzles for each variant (all of them when
``--per-variant`` is at least the count).  Answers are held to exact counts (up to 64
solutions), givens and implications where declared, and step logs.

Writes ``DIR/differential-SEED.csv`` (per variant and kind: puzzles tried, agreeing,
stopped by a bounded variant, refused, step logs replayed, wrong) and every
disagreement as a puzzle file (``DIR/differential-SEED/*.json``, nonolab's JSON, with
what was asked and answered beside it in ``*.answer.json``), prints a markdown table,
and exits 1 if anything disagreed.  ``DIR`` defaults to ``benchmarks/results``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # the wall lives in tests/wall, beside the test suite that runs it
    sys.path.insert(0, str(REPO))

FIELDS = ("variant", "kind", "tried", "agree", "stopped", "refused", "step_logs", "wrong")


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.differential", description=__doc__.split("\n")[0])
    parser.add_argument("--bw", type=int, default=10000, help="black-and-white puzzles (default 10000)")
    parser.add_argument("--colour", type=int, default=10000, help="colour puzzles (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-variant", type=int, default=1000,
                        help="puzzles of each kind each variant answers (default 1000)")
    parser.add_argument("--backends", default="", help="comma-separated backends (default: every one that loads)")
    parser.add_argument("--bw-side", type=int, default=7)
    parser.add_argument("--colour-side", type=int, default=7)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args(argv)
    for name in ("bw", "colour", "per_variant", "bw_side", "colour_side"):
        if getattr(args, name) < (1 if name.endswith("side") else 0):
            parser.error(f"--{name.replace('_', '-')} must be {'positive' if name.endswith('side') else '>= 0'}")
    return args


def _variants(backends: str) -> list:
    from nonolab.solvers import names
    from tests.wall.variants import every_variant

    if not backends:
        return every_variant()
    wanted = [b.strip() for b in backends.split(",") if b.strip()]
    unknown = [b for b in wanted if b not in names()]
    if unknown:
        raise SystemExit(f"differential: unknown backend(s) {', '.join(unknown)} (known: {', '.join(names())})")
    return [v for v in every_variant() if v.backend in wanted]


def _slicer(args: argparse.Namespace):
    """``cases_for`` of :func:`tests.wall.run.run`: all puzzles for a plain backend, a
    rotating slice of ``--per-variant`` for each other variant."""
    from tests.wall import puzzles

    bw = puzzles.cases(args.seed, args.bw, False, args.bw_side)
    colour = puzzles.cases(args.seed, args.colour, True, args.colour_side)

    def window(items: list, i: int) -> list:
        n = min(args.per_variant, len(items))
        if not items or n == len(items):
            return list(items)
        start = (i * n) % len(items)
        return (items + items)[start:start + n]

    def cases_for(i: int, variant) -> list:
        if not variant.options:
            return bw + colour
        return window(bw, i) + window(colour, i)

    return cases_for


def _rows(tally) -> list[dict]:
    rows = []
    for spec, counts in tally.outcomes.items():
        for kind in ("bw", "colour"):
            tried = tally.tried(spec, kind)
            if tried:
                rows.append({"variant": spec, "kind": kind, "tried": tried,
                             **{o: counts[(kind, o)] for o in ("agree", "stopped", "refused", "wrong")},
                             "step_logs": tally.step_logs[(spec, kind)]})
    return rows


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    from tests.wall.run import run, table

    variants = _variants(args.backends)
    started = time.process_time()

    def progress(i: int, variant) -> None:
        print(f"[{i + 1}/{len(variants)}] {variant.spec} (cpu {time.process_time() - started:.0f} s)",
              file=sys.stderr, flush=True)

    folder = args.out / f"differential-{args.seed}"
    tally = run(variants, _slicer(args), folder, progress)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"differential-{args.seed}.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(_rows(tally))
    print(table(tally))
    answers = sum(tally.tried(spec) for spec in tally.outcomes)
    print(f"\n{answers} answers by {len(tally.outcomes)} variants on {args.bw} black-and-white and {args.colour} "
          f"colour puzzles (seed {args.seed}), {time.process_time() - started:.0f} s of CPU in this process; "
          f"{len(tally.wrong)} wrong; {len(tally.unavailable)} variants unavailable. CSV: {path}")
    for case, variant, verdict, saved in tally.wrong:
        print(f"WRONG {variant.spec} on {case.seed}: {verdict.detail} (saved: {saved})")
    return 1 if tally.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
