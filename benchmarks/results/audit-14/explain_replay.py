import sys, collections
sys.path.insert(0, 'benchmarks/results/audit-14')
import fuzz, oracle
from nonolab.harness.explanation import explain
from nonolab.solvers.steps import replay
from nonolab.errors import NonolabError
t = collections.Counter()
for seed in range(400000, 401500):
    _, colours, rows, cols, givens = fuzz.make_case(seed)
    if len(rows)*len(cols) > 100: continue
    try:
        p = fuzz.puzzle_of(colours, rows, cols, givens)
        truth = oracle.solutions(rows, cols, givens, limit=3, budget=200000)
    except (NonolabError, oracle.TooBig): continue
    for spec in ('auto', 'native', 'native:probing=none', 'native:line=overlap', 'native:line=chain-range', 'native:branching=lalafrog'):
        try: ex = explain(p, spec)
        except NonolabError: t['refused'] += 1; continue
        t['explained'] += 1
        if ex.solution is None:
            continue
        grid = None
        for _, grid in replay(p, ex.steps): pass
        if grid is None:
            cells = None
        if grid is not None and hasattr(grid, "to_solution"):
            text = grid.to_solution().to_text() if grid.is_solved() else "?"
        else:
            text = grid.to_text() if grid is not None else None
        sol = ex.solution.to_text()
        if grid is None:
            t['no-steps'] += 1
            if len(p.givens) < p.width * p.height: t['no-steps-not-all-given'] += 1; print('NOSTEPS', seed, spec, ex.verdict)
            continue
        # the cells the steps decide: all of them, equal to the solution
        if '?' in text:
            t['open-after-steps'] += 1; print('OPEN', seed, spec, ex.verdict.value, colours, len(truth)); continue
        if text != sol:
            t['differs'] += 1; print('DIFF', seed, spec, ex.verdict.value)
        else:
            t['ok'] += 1
print(dict(t))
