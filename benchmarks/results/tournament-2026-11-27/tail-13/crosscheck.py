"""CPU to the first solution, lcg (default) against nonosolve, alternating, one puzzle at a time.

    PYTHONPATH=<worktree>/src:<worktree> python crosscheck.py ROUNDS set:key ...

Each puzzle is cut from its tournament set into a one-puzzle TAAI file under /tmp/tail13 (the sets are
GPL: never copied into the repo) for ``nonosolve --format taai -n 1 -q FILE`` (its CPU: children's
user+sys); lcg runs in this process (new engine, user+sys of this process, its answer checked against
the clues).  Round r: nonosolve first when r + the puzzle's index is even.  One json line per run with
the load."""
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from benchmarks.peers import NONOSOLVE, TOURNAMENT
from benchmarks.tail import _puzzles
from nonolab.core.grid import Solution
from nonolab.solvers import build
from nonolab.solvers.base import checked_solutions

TMP = Path("/tmp/tail13")


def one_file(name: str, key: str) -> Path:
    lines = (TOURNAMENT / f"{name}.txt").read_text().splitlines()
    start = lines.index(f"${key}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("$")), len(lines))
    TMP.mkdir(exist_ok=True)
    path = TMP / f"{name}-{key}.txt"
    path.write_text("\n".join(lines[start:end]) + "\n")
    return path


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def run_nonosolve(path: Path) -> dict:
    before = cpu(resource.RUSAGE_CHILDREN)
    subprocess.run([str(NONOSOLVE), "--format", "taai", "-n", "1", "-q", str(path)], capture_output=True, check=True)
    return {"cpu": round(cpu(resource.RUSAGE_CHILDREN) - before, 3)}


def run_lcg(solver, puzzle) -> dict:
    engine = solver._build(puzzle, [], {})
    before = cpu(resource.RUSAGE_SELF)
    outcome = engine.run(100000.0, 10**9)
    spent = cpu(resource.RUSAGE_SELF) - before
    assert outcome == 1, outcome
    checked_solutions(puzzle, [Solution.from_bytes(engine.solution(), puzzle.width)], "lcg")
    return {"cpu": round(spent, 3), "conflicts": engine.stats()["conflicts"]}


rounds, targets = int(sys.argv[1]), sys.argv[2:]
solver = build("lcg")
for r in range(rounds):
    for i, target in enumerate(targets):
        name, key = target.split(":")
        path, puzzle = one_file(name, key), _puzzles(name)[key]
        order = ("nonosolve", "lcg") if (r + i) % 2 == 0 else ("lcg", "nonosolve")
        for who in order:
            got = run_nonosolve(path) if who == "nonosolve" else run_lcg(solver, puzzle)
            print(json.dumps({"round": r, "puzzle": target, "solver": who, **got,
                              "load": round(os.getloadavg()[0], 2)}), flush=True)
