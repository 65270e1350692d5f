"""Two ways tried to shorten the proof that N-Dom has no second solution, in one run.

    python -m benchmarks.ndom_proof [--sizes 12,15] [--solvers cadical195,kissat404]
        [--out FILE]

Every engine finds N-Dom's solution at once; the cost is proving that the CNF plus the
clause that blocks that solution is unsatisfiable.  For each size and SAT solver this
times that proof (one call each, python-sat) on:

* ``regular``: our own encoding (``nonolab.solvers.cnf.encode``), as the cnf backend uses;
* ``regular+lex``: the same, plus a lex-leader constraint for each symmetry of the clues
  among the grid's eight (N-Dom: its anti-diagonal) that maps the solution to itself.
  Sound for "is there a second solution": a second solution T and its image are both
  solutions other than the first, and one of them is the lex-leader.  Not for counts;
* ``blocks``: an encoding on block starts instead of automaton states (one variable
  per block and start, at most one start per block, order between consecutive blocks,
  a cell is black iff a block covers it);
* ``both``: the two encodings together.

Writes one CSV row per proof and prints a table.  Measured to decide whether either
belongs in the cnf backend (benchmarks/RESULTS.md, "N-Dom's proof").
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from benchmarks.corpus_batch import OUT


def _symmetries(puzzle):
    """The maps (r, c) -> (r', c') among the square's eight that send the clues to themselves."""
    n, rows, cols = puzzle.height - 1, puzzle.rows, puzzle.columns
    if puzzle.height != puzzle.width:
        return []
    rev = lambda clue: tuple(reversed(clue))  # noqa: E731
    maps = {  # each with what it makes of row i's clue, as a check
        "transpose": (lambda r, c: (c, r), lambda i: cols[i], lambda i: rows[i]),
        "anti-transpose": (lambda r, c: (n - c, n - r), lambda i: rev(cols[n - i]), lambda i: rev(rows[n - i])),
        "rotate-180": (lambda r, c: (n - r, n - c), lambda i: rev(rows[n - i]), lambda i: rev(cols[n - i])),
        "rotate-90": (lambda r, c: (c, n - r), lambda i: rev(cols[i]), lambda i: rows[n - i]),
        "rotate-270": (lambda r, c: (n - c, r), lambda i: cols[n - i], lambda i: rev(rows[i])),
        "flip-rows": (lambda r, c: (n - r, c), lambda i: rows[n - i], lambda i: rev(cols[i])),
        "flip-columns": (lambda r, c: (r, n - c), lambda i: rev(rows[i]), lambda i: cols[n - i]),
    }
    return [(name, f) for name, (f, row_of, col_of) in maps.items()
            if all(tuple(row_of(i)) == tuple(rows[i]) and tuple(col_of(i)) == tuple(cols[i]) for i in range(n + 1))]


def _lex_leader(width, height, mapping, top):
    """Clauses for cells <=lex their image, row-major, with fresh 'equal so far' variables."""
    clauses, equal = [], None
    for r in range(height):
        for c in range(width):
            rr, cc = mapping(r, c)
            if (rr, cc) == (r, c):
                continue
            x, y = r * width + c + 1, rr * width + cc + 1
            guard = [] if equal is None else [-equal]
            clauses.append(guard + [-x, y])
            top += 1
            clauses += [guard + [-x, -y, top], guard + [x, y, top]]
            equal = top
    return clauses, top


def _block_line(clue, cells, top):
    from pysat.card import CardEnc, EncType

    n, clauses = len(cells), []
    if not clue:
        return [[-x] for x in cells], top
    early, at = [], 0
    for length in clue:
        early.append(at)
        at += length + 1
    late, at = [0] * len(clue), n
    for j in range(len(clue) - 1, -1, -1):
        at -= clue[j]
        late[j] = at
        at -= 1
    starts = []
    for j in range(len(clue)):
        row = {}
        for q in range(early[j], late[j] + 1):
            top += 1
            row[q] = top
        starts.append(row)
        clauses.append(list(row.values()))
        card = CardEnc.atmost(list(row.values()), 1, top_id=top, encoding=EncType.seqcounter)
        top = max(top, card.nv)
        clauses += card.clauses
    for j in range(len(clue) - 1):
        for q, v in starts[j].items():
            clauses.append([-v] + [w for s, w in starts[j + 1].items() if s >= q + clue[j] + 1])
        for s, w in starts[j + 1].items():
            clauses.append([-w] + [v for q, v in starts[j].items() if q <= s - clue[j] - 1])
    cover = [[] for _ in range(n)]
    for j, row in enumerate(starts):
        for q, v in row.items():
            for i in range(q, q + clue[j]):
                cover[i].append(v)
                clauses.append([-v, cells[i]])
    clauses += [[-cells[i]] + cover[i] for i in range(n)]
    return clauses, top


def _blocks(puzzle, top):
    w, h, clauses = puzzle.width, puzzle.height, []
    for r, clue in enumerate(puzzle.rows):
        more, top = _block_line(clue, [r * w + c + 1 for c in range(w)], top)
        clauses += more
    for c, clue in enumerate(puzzle.columns):
        more, top = _block_line(clue, [r * w + c + 1 for r in range(h)], top)
        clauses += more
    return clauses, top


def proofs(n: int, solver: str):
    """(variant, seconds, unsat) for each encoding of ``n``-Dom with ``solver``."""
    from pysat.solvers import Solver

    from nonolab.bench.suites import n_dom
    from nonolab.solvers.cnf.encode import encode

    puzzle = n_dom(n)
    regular = encode(puzzle)
    cells = puzzle.width * puzzle.height
    with Solver(name=solver, bootstrap_with=regular.clauses) as sat:
        assert sat.solve()
        model = sat.get_model()[:cells]
    solution = {divmod(v - 1, puzzle.width) for v in model if v > 0}
    block = [[-v for v in model]]
    lex, top = [], regular.num_vars
    for _, mapping in _symmetries(puzzle):
        if {mapping(r, c) for r, c in solution} == solution:
            more, top = _lex_leader(puzzle.width, puzzle.height, mapping, top)
            lex += more
    blocks, _ = _blocks(puzzle, regular.num_vars)
    variants = {"regular": regular.clauses, "regular+lex": regular.clauses + lex, "blocks": blocks,
                "both": regular.clauses + blocks}
    for name, clauses in variants.items():
        with Solver(name=solver, bootstrap_with=clauses + block) as sat:
            began = time.perf_counter()
            unsat = not sat.solve()
            yield name, time.perf_counter() - began, unsat


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="12,15")
    parser.add_argument("--solvers", default="cadical195,kissat404")
    parser.add_argument("--out", type=Path, default=OUT / "ndom_proof.csv")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["n", "solver", "variant", "seconds", "unsat"])
        for n in (int(x) for x in args.sizes.split(",")):
            for solver in args.solvers.split(","):
                for variant, seconds, unsat in proofs(n, solver):
                    out.writerow([n, solver, variant, f"{seconds:.3f}", unsat])
                    fh.flush()
                    print(f"{n}-Dom {solver:12s} {variant:12s} {seconds:7.2f} s  unsat={unsat}", flush=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
