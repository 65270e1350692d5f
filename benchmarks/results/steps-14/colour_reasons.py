import random, sys
sys.path.insert(0, "/work/wt/steps13")
from nonolab.core import Palette, Puzzle, Solution
from nonolab.harness.explanation import explain
from nonolab.solvers import Technique
from tests.colour import brute
rnd = random.Random(int(sys.argv[1]))
total = line = bad = puzzles_bad = ruled = 0
for n in range(300):
    h, w, k = rnd.randint(2, 6), rnd.randint(2, 6), rnd.randint(2, 4)
    cells = [[rnd.randint(1, k) if rnd.random() < 0.6 else 0 for _ in range(w)] for _ in range(h)]
    p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
    e = explain(p)
    dom = {(r, c): set(range(k + 1)) for r in range(h) for c in range(w)}
    pb = False
    for step in e.steps:
        total += 1; ruled += bool(step.ruled_out)
        if step.technique is Technique.LINE:
            line += 1
            kind, idx = step.source
            cs = [(idx, c) for c in range(w)] if kind == "row" else [(r, idx) for r in range(h)]
            clue = p.coloured_rows[idx] if kind == "row" else p.coloured_columns[idx]
            fits = [l for l in brute.lines_of(clue, len(cs), k) if all(v in dom[x] for v, x in zip(l, cs))]
            new = {(r, c): {v} for r, c, v in step.cells}
            for r, c, v in step.ruled_out: new.setdefault((r, c), set(dom[(r, c)])).discard(v)
            if any(x in new and not {l[i] for l in fits} <= new[x] for i, x in enumerate(cs)):
                bad += 1; pb = True
        for r, c, v in step.cells: dom[(r, c)] = {v}
        for r, c, v in step.ruled_out: dom[(r, c)].discard(v)
    puzzles_bad += pb
print(f"seed {sys.argv[1]}: steps {total}, line steps {line}, line steps not following from the shown state {bad} ({bad/line:.1%}); puzzles {puzzles_bad}/300; steps that rule values out {ruled}")
