"""audit-14's cross-check at sizes the brute force cannot reach (13x13 to 30x30, black-and-white and
colour): every complete answer of every engine must agree (count to 10), every solution is checked
against the clues by oracle.fits (not nonolab's checker).

    PYTHONPATH=. nice python benchmarks/results/audit-14/cross.py --start 0 --count 50 --out DIR
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from fuzz import puzzle_of  # noqa: E402

SPECS = ["native", "lcg", "cnf", "cpsat", "auto", "native:probing=none", "native:branching=lalafrog",
         "lcg:modes=5", "lcg:vivify=2,probe_binaries=true", "lcg:seed=9,shake=3", "cnf:solver=kissat404",
         "auto:rival=native", "native:threads=2", "lcg:rescue=3", "lcg:interleave=3",
         # low thresholds, so that the search features start within a few conflicts
         "lcg:rescue=1,rescue_with=stable+binaries", "lcg:modes=1,rephase=1,vivify=1,vivify_probe=true",
         "lcg:shake=1,seed=3", "lcg:interleave=1,interleave_ratio=1",
         "lcg:rescue=1,rescue_with=binaries+hints,probe_binaries=true",
         "lcg:restarts=glucose,phases=saved,minimise=none,explain=two-bands", "lcg:hint_rounds=0,probing=false",
         "lcg:modes=1,first_mode=stable,focused_phases=target,focused_decay=0.5", "lcg:follow_conflicts=1,hint_after=1",
         "lcg:vivify=1,vivify_effort=100,shake=2,seed=1", "lcg:slice_seconds=0.001,rescue=2",
         "native:branching=lalafrog,lalafrog_after=0", "native:restarts=false,probing=none", "native:probe_depth=0",
         "native:deep_sweeps=0", "native:cache_bytes=0", "native:probing=depth-2", "native:threads=3,probing=none",
         "auto:native_budget=0,handoff_by=0", "auto:rival=none,native_budget=0.01", "auto:probe_clauses=true,native_budget=0",
         "auto:early=false", "auto:cdcl=cpsat,rival=lcg,native_budget=0", "cpsat:workers=2,presolve=false",
         "cnf:solver=minisat22", "cnf:solver=glucose4", "cnf:solver=cadical153"]


def make(seed):
    rnd = random.Random(f"a14x-{seed}")
    colours = rnd.choice((1, 1, 2, 3))
    h, w = rnd.randint(13, 30), rnd.randint(13, 30)
    dens = rnd.choice((0.3, 0.45, 0.55, 0.65, 0.8))
    style = rnd.choice(("noise", "blobs", "mixed"))
    pic = [[rnd.randint(1, colours) if rnd.random() < dens else 0 for _ in range(w)] for _ in range(h)]
    if style == "blobs":
        for _ in range(2):
            pic = [[max(set(v), key=v.count) for v in
                    ([pic[rr][cc] for rr in range(max(0, r - 1), min(h, r + 2)) for cc in range(max(0, c - 1), min(w, c + 2))]
                     for c in range(w))] for r in range(h)]
    rows = tuple(oracle.runs(r) for r in pic)
    cols = tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))
    if style == "mixed" and rnd.random() < 0.5:
        # swap two columns' clues of the same total: often a contradiction or another picture
        i, j = rnd.randrange(w), rnd.randrange(w)
        if sorted(cols[i]) and sum(n for n, _ in cols[i]) == sum(n for n, _ in cols[j]):
            cols = list(cols)
            cols[i], cols[j] = cols[j], cols[i]
            cols = tuple(cols)
    return rnd, colours, rows, cols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--out", default="/tmp/a14x")
    ap.add_argument("--time-limit", type=float, default=4.0)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.errors import NonolabError
    from nonolab.solvers import Capability, Limits, build, capabilities
    tally = Counter()

    def bad(seed, detail, **extra):
        tally["BAD"] += 1
        with open(out / "findings.jsonl", "a") as f:
            f.write(json.dumps({"seed": seed, "detail": detail, **extra}, default=str) + "\n")

    for seed in range(a.start, a.start + a.count):
        rnd, colours, rows, cols = make(seed)
        try:
            p = puzzle_of(colours, rows, cols)
        except NonolabError:
            continue
        tally["cases"] += 1
        N = rnd.choice((2, 2, 10))
        answers = {}
        for spec in rnd.sample(SPECS, 8):
            solver = build(spec)
            if colours > 1 and Capability.COLOUR not in capabilities(solver):
                continue
            (out / "current").write_text(json.dumps({"seed": seed, "spec": spec}))
            try:
                r = solver.solve(p, Limits(max_solutions=N, time_limit=a.time_limit))
            except NonolabError as e:
                tally[f"refused {type(e).__name__}"] += 1
                continue
            except Exception as e:  # noqa: BLE001
                bad(seed, f"{spec} raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
                continue
            tally["runs"] += 1
            tally[f"status-{r.status.value}"] += 1
            sols = [tuple(tuple(x) for x in s.cells) for s in r.solutions]
            for s in sols:
                if not oracle.fits(s, rows, cols):
                    bad(seed, f"{spec}: a solution that breaks the clues")
            if r.complete and r.count > N:
                bad(seed, f"{spec}: complete count {r.count} over max_solutions {N}")
            answers[spec] = (r.status.value, r.complete, r.count, set(sols))
        complete = {s: v for s, v in answers.items() if v[1]}
        counts = {v[2] for v in complete.values()}
        if len(counts) > 1:
            bad(seed, "complete counts differ", answers={s: v[:3] for s, v in answers.items()})
        # a complete count k: nobody finds more than k; someone's SOLVED-at-cap says at least N
        for s, v in answers.items():
            for s2, v2 in complete.items():
                if v[2] > v2[2]:
                    bad(seed, f"{s} found {v[2]} where {s2} exhausted at {v2[2]}")
                if v2[2] < len(v2[3] | v[3]):
                    bad(seed, f"{s} and {s2}: more distinct solutions ({len(v2[3] | v[3])}) than {s2}'s complete count")
        tally["agreeing"] += 1
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
