"""Certificates over the corpus (issue 29): what share is certified, proof sizes, time against plain check.

    python -m benchmarks.certify [--backend auto] [--time-limit 60] [--checker auto] [--corpus DIR]
        [--only GLOB] [--provers lcg,cnf] [--out FILE]

For each puzzle of the corpus, in this process, one after the other:

1. ``check`` with the backend (count to 2, the time limit): the verdict and its time;
2. ``certify`` with the same backend and limit (answer, then the proof, written to disk):
   its time, the prover, the proof's lines and bytes;
3. ``certify-check`` on the certificate (second encoder, then the external checker):
   accepted or the reason, and its time;
4. for each of ``--provers``, the engine alone: its ``solve`` against its ``prove`` (the
   cost of the proof log), on the puzzles it answers unique or contradiction.

Times are wall seconds (``time.perf_counter``) and process CPU seconds around each call;
the load average is printed beside them.  Writes one CSV row per puzzle as it goes
(default ``benchmarks/results/certify.csv``) and prints a summary.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
FIELDS = ("puzzle", "verdict", "check_s", "check_cpu", "certify_s", "certify_cpu", "ratio", "certified", "prover",
          "proof_lines", "proof_bytes", "accepted", "checker", "check_cert_s", "reason", "provers", "command_check_s",
          "command_certify_s", "command_ratio")


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.certify", description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--checker", default="auto")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--only", default="*", help="a glob on the puzzle's path under the corpus")
    parser.add_argument("--provers", default="lcg", help="engines timed alone: solve against prove")
    parser.add_argument("--commands", action="store_true",
                        help="also time `nonolab check FILE` against `nonolab check --certify DIR FILE`, each a process")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "certify.csv")
    return parser.parse_args(argv)


def _timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    value = call()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def _provers(puzzle, names: list[str], limit: float, work: Path) -> str:
    """``name:solve_s/prove_s/lines`` for each engine alone (the proof log's cost)."""
    from nonolab.solvers import build
    from nonolab.solvers.base import Limits

    out = []
    for name in names:
        engine = build(name)
        plain, solve_s, _ = _timed(lambda: engine.solve(puzzle, Limits(2, limit)))
        proved, prove_s, _ = _timed(lambda: engine.prove(puzzle, Limits(2, limit), work / f"{name}.drat"))
        lines = proved.stats.counters.get("proof_lines", 0)
        out.append(f"{name}:{solve_s:.4f}/{prove_s:.4f}/{lines}" + ("" if proved.complete else "(incomplete)"))
    return " ".join(out)


def _commands(path: Path, args: argparse.Namespace, work: Path) -> dict:
    """Wall seconds of the two commands as a user runs them (start-up and loading included)."""
    import subprocess

    base = [sys.executable, "-m", "nonolab", "check", "-b", args.backend, "--time-limit", str(args.time_limit)]
    _, plain, _ = _timed(lambda: subprocess.run(base + [str(path)], capture_output=True, check=False))
    _, certified, _ = _timed(lambda: subprocess.run(base + ["--certify", str(work / "by-command"), str(path)],
                                                    capture_output=True, check=False))
    return {"command_check_s": round(plain, 4), "command_certify_s": round(certified, 4),
            "command_ratio": round(certified / plain, 3)}


def run_one(path: Path, args: argparse.Namespace, work: Path) -> dict:
    from nonolab.certcheck import check_certificate
    from nonolab.certify import certify
    from nonolab.formats import load
    from nonolab.harness.uniqueness import check
    from nonolab.solvers import build

    puzzle = load(path)
    solver = build(args.backend)
    row = {"puzzle": str(path.relative_to(args.corpus))}
    answer, row["check_s"], row["check_cpu"] = _timed(lambda: check(puzzle, solver, args.time_limit))
    row["verdict"] = answer.verdict.value
    if row["verdict"] not in ("unique", "contradiction", "multiple"):
        return row
    folder = work / "certificate"
    made, row["certify_s"], row["certify_cpu"] = _timed(lambda: certify(puzzle, folder, solver, args.time_limit))
    row.update(certified=made.certified, prover=made.prover, proof_lines=made.proof_lines,
               proof_bytes=made.proof_bytes, ratio=round(row["certify_s"] / max(row["check_s"], 1e-6), 3),
               reason=made.reason)
    if made.certified:
        checked, row["check_cert_s"], _ = _timed(lambda: check_certificate(folder, args.checker))
        row.update(accepted=checked.ok, checker=checked.checker, reason=checked.reason)
    if args.commands:
        row.update(_commands(path, args, work))
    if row["verdict"] in ("unique", "contradiction") and args.provers:
        row["provers"] = _provers(puzzle, [p for p in args.provers.split(",") if p], args.time_limit, work)
    return row


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    files = sorted(p for p in args.corpus.glob("*/*.non") if fnmatch(str(p.relative_to(args.corpus)), args.only))
    if not files:
        raise SystemExit(f"certify: no puzzle under {args.corpus} matches {args.only!r}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    print(f"# {len(files)} puzzles, backend {args.backend}, limit {args.time_limit} s, "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    rows = []
    with open(args.out, "w", newline="") as stream, tempfile.TemporaryDirectory() as work:
        writer = csv.DictWriter(stream, FIELDS, extrasaction="ignore")
        writer.writeheader()
        for path in files:
            row = run_one(path, args, Path(work))
            rows.append(row)
            writer.writerow(row)
            stream.flush()
            print(" ".join(f"{k}={row[k]}" for k in FIELDS if k in row), f"load={os.getloadavg()[0]:.1f}",
                  flush=True)
    decided = [r for r in rows if r["verdict"] in ("unique", "contradiction")]
    accepted = [r for r in decided if r.get("accepted")]
    ratios = [r["ratio"] for r in decided if "ratio" in r]
    print(f"# unique or contradiction: {len(decided)}; certified and accepted: {len(accepted)} "
          f"({100 * len(accepted) / max(len(decided), 1):.1f} %); multiple certified: "
          f"{sum(1 for r in rows if r['verdict'] == 'multiple' and r.get('accepted'))}")
    if ratios:
        print(f"# certify / check time (library calls): median {statistics.median(ratios):.2f}, "
              f"max {max(ratios):.2f}; proof bytes median {statistics.median(r['proof_bytes'] for r in decided):,.0f}")
    commands = [r["command_ratio"] for r in decided if "command_ratio" in r]
    if commands:
        print(f"# certify / check time (commands): median {statistics.median(commands):.2f}, max {max(commands):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
