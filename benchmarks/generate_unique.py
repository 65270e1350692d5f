"""`generate --unique` at 30x30: every puzzle proven unique by native, CP-SAT and CNF.

Issue 6 asks for 100 generated 30x30 puzzles with ``--unique``, each proven unique
by the three complete backends separately.  This runner generates three sets of
``--count`` puzzles with repair (``smooth`` at density 0.5, the image-like default;
uniform ``noise`` at densities 0.6 and 0.5, whose puzzles are less often
line-solvable), proves each puzzle with each backend (count to 2: exact and equal
to 1, within ``--time-limit``), and measures the candidates tried per accepted
puzzle with and without ``--repair``: on the full sets, except for noise at 0.5,
which is rarely unique unrepaired: there ``--sample`` puzzles are asked of at
most three candidates each.

Writes ``out/generate_unique.csv`` (one row per puzzle), ``out/generate_unique.json``
(the summaries) and ``out/generate_unique.md`` (the tables printed at the end).

    python -m benchmarks.generate_unique [--count 100] [--seed 2026] [--sample 20] [--time-limit 60] [--out DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import time
from datetime import date
from pathlib import Path

from nonolab.core.violations import violations
from nonolab.generate import Recipe, make_puzzles
from nonolab.harness.uniqueness import count
from nonolab.solvers import get

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "out"
BACKENDS = ("native", "cpsat", "cnf")
SIZE = 30

# name -> (recipe keyword arguments, compared without repair on the full set?): the sets proven by
# every backend.  Noise at one half is rarely unique unrepaired: its comparison uses --sample.
PROVEN_SETS = {"smooth-0.5": (dict(style="smooth", density=0.5), True),
               "noise-0.6": (dict(style="noise", density=0.6), True),
               "noise-0.5": (dict(style="noise", density=0.5), False)}


def generate_set(count_wanted: int, seed: int, repair: bool, max_candidates: int | None = None, **recipe):
    recipe = Recipe(SIZE, SIZE, unique=True, repair=repair, **recipe)
    return make_puzzles(count_wanted, recipe, seed=seed, max_candidates=max_candidates)


def prove(puzzle, backend: str, time_limit: float) -> tuple[str, float]:
    """``unique`` only for an exact count of 1; ``multiple`` or ``timeout`` otherwise."""
    start = time.perf_counter()
    counted = count(puzzle, get(backend), 2, time_limit=time_limit)
    wall = time.perf_counter() - start
    if counted.exact:
        return ("unique" if counted.count == 1 else "contradiction" if counted.count == 0 else "multiple"), wall
    return ("multiple" if counted.reason == "limit" else "timeout"), wall


def cost(report) -> dict:
    return {"asked": report.asked, "accepted": len(report.puzzles), "candidates": report.candidates,
            "per_puzzle": round(report.candidates_per_puzzle, 3) if report.puzzles else None,
            "repairs": report.repairs, "rejected": dict(report.rejected), "seconds": round(report.time, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sample", type=int, default=20, help="puzzles asked of noise at density 0.5")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per proof")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the CSV, JSON and markdown")
    args = parser.parse_args(argv)
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    get("native").solve(make_puzzles(1, Recipe(8, 8), seed=0).puzzles[0].puzzle)  # compile before timing

    rows, proofs, costs = [], {}, {}
    for set_name, (recipe, full_comparison) in PROVEN_SETS.items():
        repaired = generate_set(args.count, args.seed, True, **recipe)
        if full_comparison:
            plain, plain_label = generate_set(args.count, args.seed, False, **recipe), "no repair"
        else:
            plain = generate_set(args.sample, args.seed, False, max_candidates=3 * args.sample, **recipe)
            plain_label = f"no repair ({args.sample} asked, {3 * args.sample} candidates at most)"
        costs[set_name] = {"repair": cost(repaired), plain_label: cost(plain)}
        print(f"{set_name}: with repair: {repaired.summary()}", flush=True)
        print(f"{set_name}: without repair: {plain.summary()}", flush=True)
        distinct = len({(g.puzzle.rows, g.puzzle.columns) for g in repaired.puzzles})
        assert distinct == len(repaired.puzzles), "generated puzzles repeat"
        tally = {b: {"unique": 0, "other": 0, "seconds": 0.0, "max": 0.0} for b in BACKENDS}
        for g in repaired.puzzles:
            assert violations(g.puzzle, g.puzzle.goal) == [], g.puzzle.name
            row = {"set": set_name, **g.as_record()}
            for backend in BACKENDS:
                verdict, wall = prove(g.puzzle, backend, args.time_limit)
                row[f"{backend}_verdict"], row[f"{backend}_s"] = verdict, round(wall, 4)
                entry = tally[backend]
                entry["unique" if verdict == "unique" else "other"] += 1
                entry["seconds"] += wall
                entry["max"] = max(entry["max"], wall)
            rows.append(row)
        proofs[set_name] = tally
        print(f"{set_name}: proven " + ", ".join(f"{b} {t['unique']}/{len(repaired.puzzles)}"
                                                 for b, t in tally.items()), flush=True)

    with (out / "generate_unique.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    summary = {"date": str(date.today()), "cores": os.cpu_count(), "python": platform.python_version(),
               "args": {k: str(v) for k, v in vars(args).items()}, "proofs": proofs, "costs": costs,
               "grades": {s: _grades(rows, s) for s in PROVEN_SETS}}
    (out / "generate_unique.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    text = _markdown(summary, args)
    (out / "generate_unique.md").write_text(text, encoding="utf-8")
    print(text)
    proven_all = all(t["other"] == 0 for tally in proofs.values() for t in tally.values())
    return 0 if proven_all else 1


def _grades(rows: list[dict], set_name: str) -> dict[str, int]:
    grades: dict[str, int] = {}
    for row in rows:
        if row["set"] == set_name:
            grades[row["grade"]] = grades.get(row["grade"], 0) + 1
    return grades


def _markdown(summary: dict, args) -> str:
    lines = [f"Machine: {summary['cores']} cores, CPython {summary['python']}, {summary['date']}; "
             f"seed {args.seed}, {args.time_limit:g} s per proof.", "",
             "| set | backend | proven unique | not proven | total s | mean s | max s |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for set_name, tally in summary["proofs"].items():
        for backend, t in tally.items():
            n = t["unique"] + t["other"]
            lines.append(f"| {set_name} | {backend} | {t['unique']} | {t['other']} | {t['seconds']:.2f} | "
                         f"{t['seconds'] / max(n, 1):.3f} | {t['max']:.3f} |")
    lines += ["", "| set | repair | accepted / asked | candidates | per accepted puzzle | repairs | "
                  "rejected | generation s |", "|---|---|---:|---:|---:|---:|---|---:|"]
    for set_name, by_mode in summary["costs"].items():
        for mode, c in by_mode.items():
            rejected = ", ".join(f"{k} {n}" for k, n in sorted(c["rejected"].items())) or "none"
            per = f"{c['per_puzzle']:.2f}" if c["per_puzzle"] is not None else "-"
            lines.append(f"| {set_name} | {mode} | {c['accepted']} / {c['asked']} | {c['candidates']} | {per} | "
                         f"{c['repairs']} | {rejected} | {c['seconds']:.1f} |")
    lines += ["", "Grades of the proven sets: " + "; ".join(
        f"{s}: " + ", ".join(f"{g} {n}" for g, n in sorted(grades.items()))
        for s, grades in summary["grades"].items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
