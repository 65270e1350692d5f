"""audit-14's fuzzer of the surfaces that derive answers: check --why (why_report), repair, grade,
explain, generate, certify + certify-check, each judged against oracle.py.

    PYTHONPATH=. nice python benchmarks/results/audit-14/surfaces.py --start 0 --count 200 --out DIR
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from fuzz import make_case, puzzle_of  # noqa: E402

ALL = 300   # the oracle lists every solution up to this many


def pic(sol):
    return tuple(tuple(r) for r in sol.cells)


def clues_of(picture):
    h, w = len(picture), len(picture[0])
    return (tuple(oracle.runs(r) for r in picture),
            tuple(oracle.runs([picture[r][c] for r in range(h)]) for c in range(w)))


def line_solve(rows, cols, givens):
    """The fixpoint of the complete line solver (own, by enumeration): grid of value sets."""
    h, w = len(rows), len(cols)
    values = set(range(1 + max([c for cl in rows for _, c in cl] + [c for cl in cols for _, c in cl] + [1])))
    grid = [[set(values) for _ in range(w)] for _ in range(h)]
    for (r, c), v in givens.items():
        grid[r][c] = {v}
    rl = [oracle.lines(cl, w) for cl in rows]
    cl_ = [oracle.lines(cl, h) for cl in cols]
    changed = True
    while changed:
        changed = False
        for r in range(h):
            ok = [l for l in rl[r] if all(l[c] in grid[r][c] for c in range(w))]
            if not ok:
                return None
            for c in range(w):
                s = {l[c] for l in ok}
                if s != grid[r][c]:
                    grid[r][c] = s & grid[r][c]
                    changed = True
        for c in range(w):
            ok = [l for l in cl_[c] if all(l[r] in grid[r][c] for r in range(h))]
            if not ok:
                return None
            for r in range(h):
                s = {l[r] for l in ok}
                if s != grid[r][c]:
                    grid[r][c] = s & grid[r][c]
                    changed = True
    return grid


def _fix(rows, cols, grid):
    """line_solve from a grid of value sets: the narrowed grid, or None on a contradiction."""
    h, w = len(rows), len(cols)
    grid = [[set(x) for x in row] for row in grid]
    rl = [oracle.lines(cl, w) for cl in rows]
    cl_ = [oracle.lines(cl, h) for cl in cols]
    changed = True
    while changed:
        changed = False
        for r in range(h):
            ok = [l for l in rl[r] if all(l[c] in grid[r][c] for c in range(w))]
            if not ok:
                return None
            for c in range(w):
                s = {l[c] for l in ok}
                if s != grid[r][c]:
                    grid[r][c] = s
                    changed = True
        for c in range(w):
            ok = [l for l in cl_[c] if all(l[r] in grid[r][c] for r in range(h))]
            if not ok:
                return None
            for r in range(h):
                s = {l[r] for l in ok}
                if s != grid[r][c]:
                    grid[r][c] = s
                    changed = True
    return grid


def probe_solve(rows, cols, givens, full):
    """Black and white: lines, then contradiction probing (full: and both branches agreeing), to
    a fixpoint.  Returns whether every cell is decided (None on a contradiction)."""
    h, w = len(rows), len(cols)
    grid = [[{0, 1} for _ in range(w)] for _ in range(h)]
    for (r, c), v in givens.items():
        grid[r][c] = {v}
    grid = _fix(rows, cols, grid)
    if grid is None:
        return None
    changed = True
    while changed:
        changed = False
        for r in range(h):
            for c in range(w):
                if len(grid[r][c]) == 1:
                    continue
                outs = []
                for v in (0, 1):
                    g2 = [[set(x) for x in row] for row in grid]
                    g2[r][c] = {v}
                    outs.append(_fix(rows, cols, g2))
                if outs[0] is None and outs[1] is None:
                    return None
                if outs[0] is None or outs[1] is None:
                    grid = outs[1] if outs[0] is None else outs[0]
                    changed = True
                elif full:
                    merged = [[outs[0][i][j] | outs[1][i][j] for j in range(w)] for i in range(h)]
                    if merged != grid:
                        grid = _fix(rows, cols, merged)
                        changed = True
    return all(len(x) == 1 for row in grid for x in row)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", default="/tmp/a14s")
    ap.add_argument("--areas", default="why,repair,grade,explain,certify,report")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    areas = set(a.areas.split(","))
    tally = Counter()

    def bad(seed, area, detail, **extra):
        tally[f"BAD {area}"] += 1
        with open(out / "findings.jsonl", "a") as f:
            f.write(json.dumps({"seed": seed, "area": area, "detail": detail, **extra}, default=str) + "\n")

    from nonolab.errors import NonolabError
    from nonolab.harness.ambiguity import why_report
    from nonolab.harness.repair import repair
    from nonolab.harness.classify import grade
    from nonolab.harness.explanation import explain
    from nonolab.core import Solution

    for seed in range(a.start, a.start + a.count):
        rnd, colours, rows, cols, givens = make_case(seed)
        h, w = len(rows), len(cols)
        if h * w > 49:
            continue
        try:
            truth = oracle.solutions(rows, cols, givens, limit=ALL + 1, budget=300_000)
        except oracle.TooBig:
            continue
        if len(truth) > ALL:
            continue
        try:
            p = puzzle_of(colours, rows, cols, givens)
        except NonolabError:
            continue
        T = len(truth)
        want = {0: "contradiction", 1: "unique"}.get(T, "multiple")
        tl = rnd.choice((None, None, None, 0.001, 0.005, 0.02, 0.1))   # a limit that may cut each question
        if tl:
            tally["time-limited"] += 1
        (out / "current").write_text(str(seed))
        # why
        if "why" in areas:
            backend = rnd.choice(["auto", "native", "cnf", "lcg", "cpsat"])
            try:
                r = why_report(p, backend, tl)
                tally["why"] += 1
                if r.verdict.value != want and not (tl and r.verdict.value == "timeout"):
                    bad(seed, "why", f"{backend}: verdict {r.verdict.value}, oracle {want}")
                if r.complete and r.count_exact and r.solution_count != T:
                    bad(seed, "why", f"{backend}: count {r.solution_count} exact, oracle {T}")
                if r.solution_count > T:
                    bad(seed, "why", f"{backend}: count {r.solution_count} > {T}")
                if T:
                    ref = pic(r.reference) if r.reference is not None else None
                    if ref not in truth and not (tl and ref is None):
                        bad(seed, "why", f"{backend}: reference not a solution")
                    fixed = {(i, j) for i in range(h) for j in range(w) if len({t[i][j] for t in truth}) == 1}
                    if not set(r.backbone) <= fixed:
                        bad(seed, "why", f"{backend}: backbone holds a free cell", cells=sorted(set(r.backbone) - fixed))
                    if r.backbone_exact and set(r.backbone) != fixed:
                        bad(seed, "why", f"{backend}: backbone_exact but {len(r.backbone)} != {len(fixed)}")
                    if set(r.free) & fixed:
                        bad(seed, "why", f"{backend}: a backbone cell said free")
                    if r.givens and ref is not None:
                        g = dict(givens)
                        for rr, cc, v in r.givens:
                            if ref[rr][cc] != v:
                                bad(seed, "why", f"{backend}: given ({rr},{cc})={v} not the reference's")
                            g[(rr, cc)] = v
                        n = len(oracle.solutions(rows, cols, g, limit=2))
                        if r.givens_unique and n != 1:
                            bad(seed, "why", f"{backend}: givens_unique but {n} solutions with them")
                    for region in r.regions:
                        pats = {tuple(t[i][j] for i, j in region.cells) for t in truth}
                        if region.arrangements_exact and region.arrangements != len(pats):
                            bad(seed, "why", f"{backend}: region arrangements {region.arrangements}, oracle {len(pats)}")
                        if region.arrangements > len(pats):
                            bad(seed, "why", f"{backend}: region arrangements {region.arrangements} > {len(pats)}")
            except NonolabError as e:
                tally[f"why refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                bad(seed, "why", f"raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
        # repair
        if "repair" in areas and T >= 1 and h * w <= 30:
            backend = rnd.choice(["native", "native", "cnf", "lcg", "auto"])
            try:
                picture = None
                if rnd.random() < 0.5:
                    t = sorted(truth)[rnd.randrange(T)]
                    picture = Solution.from_values(t) if colours > 1 else Solution(t)
                rr = repair(p, picture, backend, max_flips=3, time_limit=tl)
                tally["repair"] += 1
                if T == 1 and rr.status != "unique" and not (tl and rr.status == "timeout"):
                    bad(seed, "repair", f"{backend}: status {rr.status} of a unique puzzle")
                if T > 1 and rr.status == "unique":
                    bad(seed, "repair", f"{backend}: unique of a {T}-solution puzzle")
                if rr.picture is not None and pic(rr.picture) not in truth:
                    bad(seed, "repair", f"{backend}: picture not a solution")
                if picture is not None and rr.picture is not None and pic(rr.picture) != pic(picture):
                    bad(seed, "repair", f"{backend}: repaired another picture than given")
                best = None
                for s in rr.suggestions:
                    goal = pic(s.puzzle.goal)
                    base = list(map(list, pic(rr.picture)))
                    for r_, c_, v in s.flips:
                        base[r_][c_] = v
                    if tuple(map(tuple, base)) != goal:
                        bad(seed, "repair", f"{backend}: goal is not the picture with its flips")
                    if any((r_, c_) in givens and givens[(r_, c_)] != v for r_, c_, v in s.flips):
                        bad(seed, "repair", f"{backend}: a flip changes a given")
                    nr, nc = clues_of(goal)
                    n = len(oracle.solutions(nr, nc, givens, limit=2))
                    if s.unique and n != 1:
                        bad(seed, "repair", f"{backend}: suggestion unique by it, {n} by brute force", flips=s.flips)
                    best = len(s.flips) if best is None else min(best, len(s.flips))
                if rr.minimal and best is not None and h * w <= 16 and colours <= 2 and best > 1:
                    # no smaller set of flips makes it unique
                    base = pic(rr.picture)
                    cells = [(i, j) for i in range(h) for j in range(w) if (i, j) not in givens]
                    found = None
                    for k in range(1, best):
                        for combo in itertools.combinations(cells, k):
                            for vals in itertools.product(*[[v for v in range(colours + 1) if v != base[i][j]]
                                                            for i, j in combo]):
                                g2 = [list(x) for x in base]
                                for (i, j), v in zip(combo, vals):
                                    g2[i][j] = v
                                nr, nc = clues_of(g2)
                                if len(oracle.solutions(nr, nc, givens, limit=2)) == 1:
                                    found = (combo, vals)
                                    break
                            if found:
                                break
                        if found:
                            break
                    tally["repair-minimal-checked"] += 1
                    if found:
                        bad(seed, "repair", f"{backend}: minimal {best} flips, brute force {found}")
            except NonolabError as e:
                tally[f"repair refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                bad(seed, "repair", f"raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
        # grade
        if "grade" in areas:
            backend = rnd.choice(["auto", "native", "cnf", "lcg"])
            try:
                g = grade(p, backend, tl)
                tally["grade"] += 1
                if g.verdict is None or (g.verdict.value != want and not (tl and g.verdict.value == "timeout")):
                    bad(seed, "grade", f"{backend}: verdict {g.verdict}, oracle {want}")
                ls = line_solve(rows, cols, givens)
                solved_by_lines = ls is not None and all(len(x) == 1 for row in ls for x in row)
                if T == 1 and (g.grade is not None or not tl):
                    if (g.grade is not None and g.grade.value == "line") != solved_by_lines:
                        bad(seed, "grade", f"{backend}: grade {g.grade}, own line solver solves: {solved_by_lines}")
                if T == 1 and colours == 1 and g.grade is not None and h * w <= 36:
                    rank = ["line", "contradiction-probe", "full-probe", "depth-2", "search"].index(g.grade.value)
                    cp = probe_solve(rows, cols, givens, False)
                    fp = probe_solve(rows, cols, givens, True)
                    tally["grade-probed"] += 1
                    tally[f"grade-probed-{g.grade.value}"] += 1
                    if cp and rank > 1:
                        bad(seed, "grade", f"{backend}: grade {g.grade.value}, own contradiction probing solves it")
                    if not cp and rank == 1:
                        bad(seed, "grade", f"{backend}: grade contradiction-probe, own contradiction probing does not solve it")
                    if fp and rank > 2:
                        bad(seed, "grade", f"{backend}: grade {g.grade.value}, own full probing solves it")
                    if not fp and rank == 2:
                        bad(seed, "grade", f"{backend}: grade full-probe, own full probing does not solve it")
                if T == 0 and g.grade is not None:
                    bad(seed, "grade", f"{backend}: grade {g.grade} of a contradiction")
            except NonolabError as e:
                tally[f"grade refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                bad(seed, "grade", f"raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
        # explain
        if "explain" in areas:
            backend = rnd.choice(["auto", "native", "native:probing=none", "native:probing=contradiction",
                                  "native:line=overlap", "native:probing=depth-2"])
            try:
                ex = explain(p, backend, tl)
                tally["explain"] += 1
                if ex.verdict.value != want and not (tl and ex.verdict.value == "timeout"):
                    bad(seed, "explain", f"{backend}: verdict {ex.verdict.value}, oracle {want}")
                if T and ex.solution is not None and pic(ex.solution) not in truth:
                    bad(seed, "explain", f"{backend}: solution not a solution")
                # each cell's values: the background and the colours both its clues hold (a colour
                # engine starts from these), narrowed to one by each step
                grid = [[({0} | {c for _, c in rows[i]}) & ({0} | {c for _, c in cols[j]}) for j in range(w)]
                        for i in range(h)]
                for (r_, c_), v in givens.items():
                    grid[r_][c_] = {v}
                rl = {("row", i): oracle.lines(rows[i], w) for i in range(h)}
                rl.update({("column", j): oracle.lines(cols[j], h) for j in range(w)})
                searching = probed = False
                for k, step in enumerate(ex.steps):
                    searching = searching or step.technique.is_search or step.depth > 0
                    if step.technique.value == "cdcl" or (searching and colours > 1):
                        break
                    if searching and step.technique.value != "line":
                        for r_, c_, v in step.cells:   # a guess, or a probe under one: the path it took
                            grid[r_][c_] = {v}
                        tally["explain-search-steps"] += 1
                        continue
                    if searching:
                        tally["explain-line-steps-under-a-guess"] += 1
                    if T == 0:
                        break   # (on the way to a contradiction a step may set what no solution has)
                    if step.technique.value == "line" and step.source[0] in ("row", "column"):
                        kind, i = step.source[0], step.source[1]
                        n = w if kind == "row" else h
                        known = [grid[i][x] if kind == "row" else grid[x][i] for x in range(n)]
                        ok = [l for l in rl[(kind, i)] if all(l[x] in d for x, d in enumerate(known))]
                        fix = line_solve(rows, cols, givens) if colours > 1 else None
                        for r_, c_, v in step.cells:
                            x = c_ if kind == "row" else r_
                            # colour: the engine narrows each cell's colours by its lines first
                            # (not logged as a step): a line step must agree with the lines' fixpoint
                            if fix is not None:
                                if not probed and fix[r_][c_] != {v}:
                                    bad(seed, "explain", f"{backend}: step {k + 1} line {kind} {i} sets "
                                        f"({r_},{c_})={v}, the lines' fixpoint has {fix[r_][c_]}")
                                    break
                            elif not ok or any(l[x] != v for l in ok):
                                bad(seed, "explain", f"{backend}: step {k + 1} line {kind} {i} sets ({r_},{c_})={v} "
                                    "which the line does not force")
                                break
                    elif not searching:
                        probed = True
                        for r_, c_, v in step.cells:
                            if any(t[r_][c_] != v for t in truth):
                                bad(seed, "explain", f"{backend}: step {k + 1} {step.technique.value} sets "
                                    f"({r_},{c_})={v} against a solution")
                                break
                    for r_, c_, v in step.cells:
                        grid[r_][c_] = {v}
                if T == 1 and not searching and ex.verdict.value == "unique":
                    if any(len(grid[i][j]) != 1 for i in range(h) for j in range(w)):
                        bad(seed, "explain", f"{backend}: unique without search, yet the steps leave cells open")
                    elif tuple(tuple(min(x) for x in row) for row in grid) not in truth:
                        bad(seed, "explain", f"{backend}: final grid of the steps is not the solution")
            except NonolabError as e:
                tally[f"explain refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                bad(seed, "explain", f"raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
        # report: the designer's all-in-one
        if "report" in areas and h * w <= 30:
            from nonolab.harness.report import report
            backend = rnd.choice(["auto", "native", "cnf", "lcg"])
            try:
                rep = report(p, backend, tl)
                tally["report"] += 1
                if rep.verdict.value != want and not (tl and rep.verdict.value == "timeout"):
                    bad(seed, "report", f"{backend}: verdict {rep.verdict.value}, oracle {want}")
                for sol in (rep.solution, rep.alternative):
                    if sol is not None and pic(sol) not in truth:
                        bad(seed, "report", f"{backend}: a picture that is not a solution")
                if rep.solution is not None and rep.alternative is not None and pic(rep.solution) == pic(rep.alternative):
                    bad(seed, "report", f"{backend}: the alternative is the solution")
                if rep.grade is not None and rep.grade.grade is not None and T == 1:
                    ls = line_solve(rows, cols, givens)
                    if (rep.grade.grade.value == "line") != all(len(x) == 1 for row in ls for x in row):
                        bad(seed, "report", f"{backend}: grade {rep.grade.grade.value} against our line solver")
                if rep.givens:
                    g2 = dict(givens)
                    g2.update({(r_, c_): v for r_, c_, v in rep.givens})
                    n = len(oracle.solutions(rows, cols, g2, limit=2))
                    if n != 1:
                        bad(seed, "report", f"{backend}: its givens leave {n} solutions")
                if rep.repair is not None:
                    for s in rep.repair.suggestions:
                        nr, nc = clues_of(pic(s.puzzle.goal))
                        n = len(oracle.solutions(nr, nc, givens, limit=2))
                        if s.unique and n != 1:
                            bad(seed, "report", f"{backend}: a repair said unique, {n} by brute force")
            except NonolabError as e:
                tally[f"report refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                bad(seed, "report", f"raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
        # certify
        if "certify" in areas and colours == 1 and seed % 2 == 0:
            from nonolab.certify import certify
            from nonolab.certcheck import check_certificate
            try:
                with tempfile.TemporaryDirectory() as d:
                    folder = Path(d) / "cert"
                    from nonolab.solvers import build as _build
                    spec = rnd.choice(["auto", "native", "cnf", "cpsat", "lcg", "cnf:solver=glucose4",
                                       "cnf:solver=kissat404", "lcg:probe_binaries=true", "lcg:vivify=1"])
                    made = certify(p, folder, _build(spec))
                    tally["certify"] += 1
                    if made.verdict.value != want:
                        bad(seed, "certify", f"{spec}: verdict {made.verdict.value}, oracle {want}")
                    if made.path is None:
                        continue
                    ok = check_certificate(folder)
                    tally["certify-check"] += 1
                    if not ok.ok or ok.verdict != want:
                        bad(seed, "certify", f"{spec}: own certificate not accepted: {ok}")
                # forge: a certificate of the opposite claim, with a made-up proof and its hashes right
                from nonolab.certify.files import write_certificate
                from nonolab.harness.uniqueness import Verdict
                sols = sorted(truth)
                S = lambda t: Solution(t)  # noqa: E731
                forgeries = []
                if T >= 2:
                    forgeries.append(("unique", Verdict.UNIQUE, [S(sols[0])]))
                    forgeries.append(("contradiction", Verdict.CONTRADICTION, []))
                if T == 1:
                    forgeries.append(("contradiction", Verdict.CONTRADICTION, []))
                    other = [list(r) for r in sols[0]]
                    other[0][0] = 1 - other[0][0]
                    forgeries.append(("unique-wrong-solution", Verdict.UNIQUE, [S(other)]))
                if T == 0:
                    bogus = [[0] * w for _ in range(h)]
                    forgeries.append(("unique-of-contradiction", Verdict.UNIQUE, [S(bogus)]))
                for label, v, sl in forgeries:
                    for proof in ("0\n", "", "1 0\n-1 0\n0\n"):
                        with tempfile.TemporaryDirectory() as d:
                            folder = Path(d) / "cert"
                            folder.mkdir()
                            (folder / "proof.drat").write_text(proof)
                            write_certificate(folder, p, v, sl, "forger", "lcg")
                            tally["certify-forged"] += 1
                            again = check_certificate(folder)
                            if again.ok:
                                bad(seed, "certify", f"a forged {label} certificate accepted (proof {proof!r})")
            except NonolabError as e:
                tally[f"certify refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                bad(seed, "certify", f"raised {type(e).__name__}: {e}", tb=traceback.format_exc()[-1200:])
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
