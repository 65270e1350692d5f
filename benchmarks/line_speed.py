"""Nanoseconds per DP cell of the compiled line solver, measured inside compiled code.

One DP cell is one (position, block) pair: n x (k + 1) per line.  Lines are random
at 50 % density, fully unknown (the widest start ranges: the worst case for the
restricted DP) and half known.  Writes ``out/line_speed.md``.

    python -m benchmarks.line_speed
"""

from __future__ import annotations

import os
import platform
import random
import sys
import time
from datetime import date

import numpy as np
from numba import njit

from benchmarks.corpus_batch import OUT
from nonolab.core.violations import clues_of
from nonolab.solvers.native.line import dp_work, line_fix, static_windows, table_size


@njit(cache=True)
def _repeat(line, n, clue, k, out, work, win_lo, win_hi, times):
    ok = 0
    for _ in range(times):
        # The static windows, never narrowed (update 0): every repetition solves the same line.
        ok += line_fix(line, n, clue, 0, k, out, work, win_lo, win_hi, 0)
    return ok


def measure(n: int, known: float, lines: int = 20, seed: int = 1,
            work: int = 400_000) -> tuple[float, float]:
    """(ns per DP cell, µs per line) over ``lines`` random lines of length ``n``,
    each solved about ``work / n`` times."""
    rng = random.Random(seed)
    total_time = 0.0
    total_cells = 0
    repeat = max(1, work // n)
    for _ in range(lines):
        bits = [rng.random() < 0.5 for _ in range(n)]
        clue = clues_of(bits)
        k = len(clue)
        line = np.array([(2 if b else 1) if rng.random() < known else 3 for b in bits], np.uint8)
        size = table_size([clue], n)
        win_lo, win_hi = static_windows(clue, [0, len(clue)], [n])
        args = (line, n, np.array(clue or (0,), np.int32), k, np.empty(n, np.uint8), dp_work(n, k, size),
                win_lo, win_hi)
        if _repeat(*args, 1) != 1:
            raise AssertionError(f"line solver found no arrangement for a line of its own clue {clue}")
        start = time.perf_counter()
        _repeat(*args, repeat)
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
        "Command: `python -m benchmarks.line_speed` (compiled line DP called in a compiled loop)",
        f"Machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
        f"{date.today().isoformat()}", "", *rows]) + "\n"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "line_speed.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
