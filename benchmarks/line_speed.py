"""Nanoseconds per DP cell of the native engine's line solve, timed inside compiled code.

One DP cell is one (position, block) pair: n x (k + 1) per line.  Lines are random
at 50 % density, fully unknown (the widest start ranges: the worst case for the
restricted DP; the engine answers them in closed form) and half known.  Each line is
solved many times in one call of the extension (``fix_line(..., repeat=N)``), so no
Python runs between the solves; the solve is the engine's: bit sets up to 127 cells,
then word arrays or the byte DP, whichever it expects to be cheaper.  Writes ``out/line_speed.md``.

    python -m benchmarks.line_speed
"""

from __future__ import annotations

import os
import platform
import random
import sys
import time
from datetime import date

from benchmarks.corpus_batch import OUT
from nonolab.core.violations import clues_of
from nonolab.solvers.native.compiled import engine_module


def measure(n: int, known: float, lines: int = 20, seed: int = 1,
            work: int = 400_000) -> tuple[float, float]:
    """(ns per DP cell, µs per line) over ``lines`` random lines of length ``n``,
    each solved about ``work / n`` times."""
    rng = random.Random(seed)
    total_time = 0.0
    total_cells = 0
    repeat = max(1, work // n)
    fix_line = engine_module().fix_line
    for _ in range(lines):
        bits = [rng.random() < 0.5 for _ in range(n)]
        clue = clues_of(bits)
        k = len(clue)
        line = bytes((2 if b else 1) if rng.random() < known else 3 for b in bits)
        if fix_line(0, clue, line)[0] is None:
            raise AssertionError(f"line solver found no arrangement for a line of its own clue {clue}")
        start = time.perf_counter()
        fix_line(0, clue, line, repeat=repeat)
        total_time += (time.perf_counter() - start) / repeat
        total_cells += n * (k + 1)
    return total_time / total_cells * 1e9, total_time / lines * 1e6


def main() -> int:
    rows = ["| n | known cells | ns per DP cell | µs per line |", "|---:|---:|---:|---:|"]
    for n in (30, 100, 1000):
        for known in (0.0, 0.5):
            ns, us = measure(n, known)
            rows.append(f"| {n} | {known:.0%} | {ns:.2f} | {us:.2f} |")
    text = "\n".join([
        "Command: `python -m benchmarks.line_speed` (the engine's line solve, repeated inside the extension)",
        f"Machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
        f"{date.today().isoformat()}", "", *rows]) + "\n"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "line_speed.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
