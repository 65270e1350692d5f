"""`nonolab batch --do check` puzzles per second per core, two versions of nonolab side by side.

    python -m benchmarks.batch_throughput --before /work/main/.venv/bin/python \
        [--sizes 5,10,15,25] [--counts 5:500/4000,10:500/4000,15:300/2000,25:50/300] [--rounds 2] [--seed 1]

Random pictures as in the public machine-learning sets (NonoDataset: every cell filled with
probability 1/2; ``benchmarks.throughput.random_puzzles``), their clues as puzzles, written as
one TAAI set per count (the tournament sets' format; a JSON set read the same way before this
branch cost time quadratic in its length, which would be measured here instead of the checks).  For each size, each round runs ``python -m nonolab batch SET --out
R.jsonl --jobs 1 --do check -b BACKEND --no-progress`` (``--backend``, default native) with the ``--before`` interpreter and with
this one (``after``), alternating, on the small and the large set, from an empty directory (so
each imports its own installed nonolab).  Figures are CPU seconds of the whole process tree
(user + system, the batch and its worker), so the load of the machine changes them little:

* ``whole``: puzzles / CPU of the run on the large set, start-up included (its wall time is
  printed beside it: it adds what the CPU figure does not see, such as the waits for the disk);
* ``marginal``: (large - small puzzles) / (its CPU - the small run's CPU): the cost of a
  puzzle once the processes are up, start-up taken out.

The verdicts of both versions are compared puzzle by puzzle; a difference stops the script.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from benchmarks.throughput import random_puzzles


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_batch(python: str, path: str, out: str, backend: str = "native") -> tuple[float, float, dict[int, str]]:
    """CPU and wall seconds of the batch's process tree, and its verdict per puzzle index."""
    start, wall = _children_cpu(), time.perf_counter()
    subprocess.run([python, "-m", "nonolab", "batch", path, "--out", out, "--force", "--jobs", "1", "--do",
                    "check", "-b", backend, "--no-progress"], check=True, stdout=subprocess.DEVNULL,
                   cwd=os.path.dirname(path))
    cpu, wall = _children_cpu() - start, time.perf_counter() - wall
    with open(out, encoding="utf-8") as f:
        verdicts = {r["index"]: r["verdict"] for r in map(json.loads, f)}
    return cpu, wall, verdicts


def _counts(text: str) -> dict[int, tuple[int, int]]:
    found = {}
    for part in text.split(","):
        size, counts = part.split(":")
        small, large = counts.split("/")
        found[int(size)] = (int(small), int(large))
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the Python of the version to compare against")
    parser.add_argument("--backend", default="native", help="the backend of both batches (-b)")
    parser.add_argument("--sizes", default="5,10,15,25")
    parser.add_argument("--counts", default="5:500/4000,10:500/4000,15:300/2000,25:50/300")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    import nonolab.formats

    counts = _counts(args.counts)
    versions = {"before": args.before, "after": sys.executable}
    print(f"load before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| size | version | round | small: puzzles, CPU s | large: puzzles, CPU s, wall s | whole /s/core | "
          "marginal /s/core |")
    print("|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as root:
        for size in (int(s) for s in args.sizes.split(",")):
            small, large = counts[size]
            puzzles = random_puzzles(size, large, args.seed + size)
            paths = {}
            for n in (small, large):
                paths[n] = os.path.join(root, f"set{size}-{n}.txt")
                with open(paths[n], "w", encoding="utf-8") as f:
                    f.write(nonolab.formats.dumps_all(puzzles[:n], "taai"))
            seen: dict[str, dict[int, str]] = {}
            for round_ in range(1, args.rounds + 1):
                order = ("before", "after") if round_ % 2 else ("after", "before")
                for name in order:
                    cpu_small, _, _ = run_batch(versions[name], paths[small], os.path.join(root, "r.jsonl"), args.backend)
                    cpu_large, wall, verdicts = run_batch(versions[name], paths[large], os.path.join(root, "r.jsonl"), args.backend)
                    seen[name] = verdicts
                    marginal = (large - small) / (cpu_large - cpu_small) if cpu_large > cpu_small else float("nan")
                    print(f"| {size}x{size} | {name} | {round_} | {small}, {cpu_small:.2f} | {large}, {cpu_large:.2f}, {wall:.1f} | "
                          f"{large / cpu_large:,.0f} | {marginal:,.0f} |", flush=True)
            if seen["before"] != seen["after"]:
                raise SystemExit(f"{size}x{size}: the verdicts differ between the versions")
            tally: dict[str, int] = {}
            for verdict in seen["after"].values():
                tally[verdict] = tally.get(verdict, 0) + 1
            print(f"|  | verdicts of {large} (same in both) | | {', '.join(f'{k} {v}' for k, v in sorted(tally.items()))} | | | |")
    print(f"load after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
