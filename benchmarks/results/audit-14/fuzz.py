"""audit-14's engine fuzzer: random small puzzles x every backend variant x counts, keeps and limits,
judged against oracle.py (its own brute force).  Throw-away driver, kept for the record.

    PYTHONPATH=. nice python benchmarks/results/audit-14/fuzz.py --start 0 --count 500 --out DIR

Writes DIR/findings.jsonl (one line a disagreement), DIR/tally-<start>.json, DIR/current (the case
running, for a crash or hang that kills the process).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402

CAP = 12          # the oracle counts to CAP (exact below it)


def make_case(seed: int):
    rnd = random.Random(f"a14-{seed}")
    colours = rnd.choice((1, 1, 1, 2, 2, 3, 4))
    shape = rnd.random()
    if shape < 0.15:
        h, w = 1, rnd.randint(1, 12)
    elif shape < 0.3:
        h, w = rnd.randint(1, 12), 1
    elif shape < 0.85:
        h, w = rnd.randint(1, 8), rnd.randint(1, 8)
    else:
        h, w = rnd.randint(9, 12), rnd.randint(9, 12)
    kind = rnd.choice(("sparse", "dense", "half", "runs", "mixed", "empty", "full", "lines", "sparse3", "sparse3",
                       "perm", "switches"))
    dens = {"sparse3": 0.3, "perm": 0.0, "switches": 0.1, "sparse": 0.15, "dense": 0.85, "half": 0.5, "mixed": rnd.choice((0.2, 0.5, 0.8)), "empty": 0.0,
            "full": 1.0, "runs": 0.5, "lines": 0.4}[kind]
    pic = [[rnd.randint(1, colours) if rnd.random() < dens else 0 for _ in range(w)] for _ in range(h)]
    if kind == "runs":
        for r in range(h):
            for c in range(1, w):
                if rnd.random() < 0.6:
                    pic[r][c] = pic[r][c - 1]
    if kind == "lines":   # some empty and some full lines
        for r in range(h):
            if rnd.random() < 0.3:
                pic[r] = [0] * w
            elif rnd.random() < 0.2:
                pic[r] = [rnd.randint(1, colours)] * w
    if kind == "perm":   # a permutation-like picture: one cell a row, many solutions
        for r in range(h):
            pic[r][rnd.randrange(w)] = rnd.randint(1, colours)
    if kind == "switches":   # 2x2 diagonal switches dropped on a sparse picture
        for _ in range(rnd.randint(1, 4)):
            if h >= 2 and w >= 2:
                r, c = rnd.randrange(h - 1), rnd.randrange(w - 1)
                v = rnd.randint(1, colours)
                pic[r][c], pic[r][c + 1], pic[r + 1][c], pic[r + 1][c + 1] = v, 0, 0, v
    rows = tuple(oracle.runs(r) for r in pic)
    cols = tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))
    if kind == "mixed" or rnd.random() < 0.1:
        cells = [v for row in pic for v in row]
        rnd.shuffle(cells)
        other = [cells[r * w:(r + 1) * w] for r in range(h)]
        cols = tuple(oracle.runs([other[r][c] for r in range(h)]) for c in range(w))
    givens = {}
    if rnd.random() < 0.35:
        src = pic if rnd.random() < 0.6 else [[rnd.randint(0, colours) for _ in range(w)] for _ in range(h)]
        for _ in range(rnd.randint(1, min(4, h * w))):
            r, c = rnd.randrange(h), rnd.randrange(w)
            givens[(r, c)] = src[r][c]
    return rnd, colours, rows, cols, givens


def puzzle_of(colours, rows, cols, givens=None):
    from nonolab.core import Palette, Puzzle
    L = lambda ls: tuple(tuple(n for n, _ in l) for l in ls)  # noqa: E731
    g = {k: v for k, v in (givens or {}).items()}
    if colours == 1:
        return Puzzle(rows=L(rows), columns=L(cols), givens=g)
    C = lambda ls: tuple(tuple(c for _, c in l) for l in ls)  # noqa: E731
    return Puzzle(rows=L(rows), columns=L(cols), row_colours=C(rows), column_colours=C(cols),
                  palette=Palette.default_for(colours), givens=g)


class Judge:
    def __init__(self, out: Path):
        self.out = out
        self.tally = Counter()
        self.findings = 0

    def bad(self, seed, what, spec, detail, extra=None):
        self.findings += 1
        rec = {"seed": seed, "what": what, "spec": spec, "detail": detail, **(extra or {})}
        with open(self.out / "findings.jsonl", "a") as f:
            f.write(json.dumps(rec, default=str) + "\n")


def judge_result(r, truth, exact, N, keep, limited, colours, caps, given_cells, rows, cols):
    """What is wrong with SolveResult r, or ''."""
    from nonolab.harness.uniqueness import verdict_of
    from nonolab.solvers import Capability, Status
    sols = [tuple(tuple(row) for row in s.cells) for s in r.solutions]
    T = len(truth)
    for s in sols:
        if not oracle.fits(s, rows, cols, given_cells):
            return "a solution that breaks the clues or givens"
    if len(set(sols)) != len(sols):
        return "the same solution twice"
    if keep is not None and len(sols) > keep and Capability.MODEL_COUNT not in caps:
        return f"{len(sols)} solutions listed under keep={keep}"
    if exact and r.count > T:
        return f"count {r.count} > the {T} there are"
    if r.complete:
        if r.status not in (Status.SOLVED, Status.UNSAT):
            return f"complete with status {r.status.value}"
        if not exact or r.count != T:
            return f"complete count {r.count}, oracle {T}{'' if exact else '+'}"
        if (r.status is Status.UNSAT) != (T == 0):
            return f"status {r.status.value} with {T} solutions"
    else:
        if r.status is Status.UNSAT:
            return "UNSAT but not complete"
        if r.status is Status.SOLVED:
            if N is None or r.count < N:
                return f"SOLVED, not complete, count {r.count} under max_solutions {N}"
        elif not limited:
            return f"{r.status.value} with no limit set"
    if N is not None and N >= 2:
        v = verdict_of(r).value
        want = {0: "contradiction", 1: "unique"}.get(T, "multiple") if exact else "multiple"
        if v in ("unique", "multiple", "contradiction") and v != want:
            return f"verdict {v}, oracle {want}"
        if v not in ("unique", "multiple", "contradiction", "timeout", "interrupted"):
            return f"verdict word {v}"
        if v in ("timeout",) and not limited:
            return "timeout with no limit"
    # the remainder: every solution not listed satisfies it
    if (not r.complete and exact and keep is None and Capability.REMAINDER in caps
            and r.status in (Status.TIMEOUT, Status.INTERRUPTED)):
        rem = r.remainder
        if rem is not None:
            listed = set(sols)
            for t in truth:
                if t in listed:
                    continue
                for i, v in enumerate(x for row in t for x in row):
                    state = rem.cells[i]
                    # as auto reads it (Given.from_grid): 1 the background, 2 value 1
                    ok = True if state not in (1, 2) else (state == 1 and v == 0) or (state == 2 and v == 1)
                    if colours == 1 and state == 0:
                        ok = False
                    if not ok:
                        return f"remainder excludes an unlisted solution at cell {i} (state {state}, value {v})"
    return ""


def variant_pool():
    from tests.wall.variants import every_variant
    vs = every_variant()
    extra = ["native:node_limit=1", "native:node_limit=2", "native:node_limit=5", "native:node_limit=30",
             "native:node_limit=3,probing=none", "native:node_limit=7,restarts=false",
             "native:node_limit=4,threads=2", "native:threads=2", "native:node_limit=2,record_steps=true",
             "auto:threads=1", "auto:rival=none", "auto:native_budget=0", "auto:native_budget=0.001,handoff_by=0.002",
             "auto:handoff_max_states=1", "auto:rival=native,native_budget=0", "auto:early=false,native_budget=0",
             "auto:cdcl=cpsat,native_budget=0", "auto:cdcl=cnf,native_budget=0", "auto:solo_side=0",
             "lcg:seed=3,shake=2,vivify=1,modes=3,rescue=2,probe_binaries=true",
             "lcg:interleave=1", "lcg:modes=1,first_mode=stable", "lcg:vivify=1,vivify_probe=true",
             "lcg:slice_seconds=0.001", "lcg:follow_conflicts=1", "lcg:rescue=1,rescue_with=hints",
             "lcg:hint_after=1,hint_min_open=0", "lcg:rephase=1", "lcg:shake=1,seed=11",
             "cnf:max_states=50", "cpsat:max_states=50", "backtrack:max_states=3", "dlx:max_states=3",
             "cpsat:workers=2", "cpsat:colour_cells=onehot"]
    from tests.wall.variants import Variant
    from nonolab.solvers import capabilities_of, parse_spec
    for spec in extra:
        name, opts = parse_spec(spec)
        vs.append(Variant(name, tuple((k, str(v)) for k, v in opts.items()), capabilities_of(name),
                          bounded="limit" in spec or "max_states" in spec or "budget=0" in spec))
    return vs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--per-case", type=int, default=8)
    ap.add_argument("--out", default="/tmp/a14")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.errors import NonolabError, WrongAnswer
    from nonolab.solvers import Capability, Given, Limits, build, capabilities
    from nonolab.core import Solution
    from nonolab.harness.uniqueness import check as h_check, count as h_count, check_many as h_check_many
    judge = Judge(out)
    pool = variant_pool()
    built = {}
    batch_list = []
    for seed in range(a.start, a.start + a.count):
        rnd, colours, rows, cols, givens = make_case(seed)
        puzzle_givens = givens if (givens and rnd.random() < 0.5) else {}
        call_givens = givens if not puzzle_givens else {}
        try:
            truth = oracle.solutions(rows, cols, givens, limit=CAP + 1)
        except oracle.TooBig:
            judge.tally["oracle-toobig"] += 1
            continue
        exact = len(truth) <= CAP
        try:
            p = puzzle_of(colours, rows, cols, puzzle_givens)
        except NonolabError as e:
            # a given the clues cannot hold (value not in the puzzle's palette...)
            if puzzle_givens and "given" in str(e).lower():
                judge.tally["puzzle-given-refused"] += 1
                continue
            judge.bad(seed, "puzzle", "", f"Puzzle refused: {e}")
            continue
        judge.tally["cases"] += 1
        judge.tally[f"truth-{min(len(truth), 3)}"] += 1
        if len(batch_list) < 60 and not call_givens:
            batch_list.append((seed, p, truth, exact))
        # sessions: many questions under different givens on one puzzle
        if rnd.random() < 0.25:
            spec = rnd.choice(["cnf", "cnf:solver=minisat22", "cnf:solver=glucose4", "cpsat", "native", "lcg"])
            sess_solver = built.get(spec) or build(spec)
            built[spec] = sess_solver
            scaps = capabilities(sess_solver)
            if colours == 1 or Capability.COLOUR in scaps:
                from nonolab.solvers import open_session
                (out / "current").write_text(json.dumps({"seed": seed, "spec": spec, "what": "session"}))
                try:
                    sess = open_session(sess_solver, p)
                    always = {}
                    for q in range(rnd.randint(2, 6)):
                        src = sorted(truth)[0] if truth and rnd.random() < 0.6 else None
                        cells = {}
                        for _ in range(rnd.randint(0, 3)):
                            r, c = rnd.randrange(len(rows)), rnd.randrange(len(cols))
                            cells[(r, c)] = src[r][c] if src else rnd.randint(0, colours)
                        if rnd.random() < 0.15 and truth:
                            # restrict to a cell every solution shares (what restrict is for)
                            common = [(r, c) for r in range(len(rows)) for c in range(len(cols))
                                      if len({t[r][c] for t in truth}) == 1 and exact]
                            if common:
                                cell = rnd.choice(common)
                                always[cell] = sorted(truth)[0][cell[0]][cell[1]]
                                sess.restrict({cell: always[cell]})
                        g_all = {**givens, **cells, **always}
                        if any(givens.get(k, v) != v for k, v in cells.items()) or \
                                any(always.get(k, v) != v for k, v in cells.items()):
                            continue   # a given against the puzzle's own: refused, tested elsewhere
                        sub = oracle.solutions(rows, cols, g_all, limit=CAP + 1)
                        N = rnd.choice((1, 2, None)) if len(sub) <= CAP else 2
                        try:
                            r_ = sess.solve(Limits(max_solutions=N), Given.of({**call_givens, **cells}))
                        except NonolabError as e:
                            judge.tally[f"session refused {type(e).__name__}"] += 1
                            continue
                        judge.tally["session-solves"] += 1
                        why = judge_result(r_, sub, len(sub) <= CAP, N, None, False, colours, frozenset(), g_all,
                                           rows, cols)
                        if why:
                            judge.bad(seed, "session", spec, why, {"q": q, "cells": cells, "always": always, "N": N})
                    sess.close()
                except NonolabError as e:
                    judge.tally[f"session refused {type(e).__name__}"] += 1
                except oracle.TooBig:
                    judge.tally["oracle-toobig"] += 1
                except Exception as e:  # noqa: BLE001
                    judge.bad(seed, "session", spec, f"raised {type(e).__name__}: {e}",
                              {"tb": traceback.format_exc()[-1500:]})
        chosen = rnd.sample(pool, a.per_case)
        for variant in chosen:
            spec = variant.spec
            if spec not in built:
                try:
                    built[spec] = build(spec)
                except NonolabError as e:
                    built[spec] = e
            solver = built[spec]
            if isinstance(solver, Exception):
                judge.tally["unbuildable"] += 1
                continue
            caps = capabilities(solver)
            if colours > 1 and Capability.COLOUR not in caps:
                continue
            if givens and Capability.GIVEN_CELLS not in caps:
                continue
            N = rnd.choice((1, 2, 3, 10, None, 2, 2))
            if N is None and not exact:
                N = 10
            keep = rnd.choice((None, None, 1, 2))
            tl = rnd.choice((None, None, None, 0.0005, 0.002, 0.02))
            cancel = None
            roll = rnd.random()
            if roll < 0.03:
                cancel = threading.Event()
                cancel.set()
            elif roll < 0.07:   # set during the search, from another thread
                from nonolab.solvers.stopping import Alarm
                cancel = Alarm() if rnd.random() < 0.5 else threading.Event()
                threading.Timer(rnd.choice((0.0005, 0.002, 0.01)), cancel.set).start()
            hint = None
            if Capability.HINT in caps and rnd.random() < 0.3:
                hint = Solution.from_values([[rnd.randint(0, colours) for _ in cols] for _ in rows]) if colours > 1 \
                    else Solution([[rnd.randint(0, 1) for _ in cols] for _ in rows])
            given = Given.of(call_givens, (), hint) if (call_givens or hint is not None) else None
            if spec.startswith("sharpsat") and len(rows) * len(cols) > 64 and tl is None:
                tl = 5.0   # Ganak counts everything first: a sparse 11x12 took minutes (not a wrong answer)
            limited = tl is not None or cancel is not None or variant.bounded
            (out / "current").write_text(json.dumps({"seed": seed, "spec": spec, "N": N, "keep": keep, "tl": tl}))
            t0 = time.process_time()
            try:
                r = solver.solve(p, Limits(max_solutions=N, time_limit=tl, keep=keep, cancel=cancel), given)
            except WrongAnswer as e:
                judge.bad(seed, "solve", spec, f"WrongAnswer: {e}", {"N": N, "keep": keep, "tl": tl})
                continue
            except NonolabError as e:
                judge.tally[f"refused {type(e).__name__}"] += 1
                judge.tally[f"refused: {spec.split(':')[0]}: {str(e)[:70]}"] += 1
                continue
            except Exception as e:  # noqa: BLE001
                judge.bad(seed, "solve", spec, f"raised {type(e).__name__}: {e}",
                          {"N": N, "keep": keep, "tl": tl, "tb": traceback.format_exc()[-1500:]})
                continue
            dt = time.process_time() - t0
            judge.tally["runs"] += 1
            judge.tally[f"status-{r.status.value}"] += 1
            if dt > 20:
                judge.bad(seed, "slow", spec, f"{dt:.1f} s CPU", {"N": N, "keep": keep, "tl": tl})
            if (Capability.REPRODUCIBLE in caps and tl is None and cancel is None and rnd.random() < 0.25
                    and r.status.value in ("solved", "unsat")):
                again = solver.solve(p, Limits(max_solutions=N, time_limit=tl, keep=keep), given)
                judge.tally["reproduced"] += 1
                if [s.cells for s in again.solutions] != [s.cells for s in r.solutions] or again.count != r.count:
                    judge.bad(seed, "reproducible", spec, "another answer the second time", {"N": N, "keep": keep})
            why = judge_result(r, truth, exact, N, keep, limited, colours, caps, givens, rows, cols)
            if why:
                judge.bad(seed, "solve", spec, why, {"N": N, "keep": keep, "tl": tl, "cancel": cancel is not None,
                                                      "hint": hint is not None, "puzzle_givens": bool(puzzle_givens),
                                                      "status": r.status.value, "count": r.count,
                                                      "complete": r.complete, "truth": len(truth)})
        # a big exact count (many solutions) by one backend, against the oracle's
        if len(rows) * len(cols) <= 49 and rnd.random() < 0.3 and (len(truth) > 3 or rnd.random() < 0.2):
            try:
                many = oracle.solutions(rows, cols, givens, limit=3001, budget=300_000)
            except oracle.TooBig:
                many = None
            if many is not None and len(many) <= 3000:
                spec = rnd.choice(["native", "lcg", "cnf", "cpsat", "backtrack", "dlx", "auto", "sharpsat",
                                   "native:probing=none", "native:threads=2", "lcg:seed=5"])
                solver = built.get(spec) or build(spec)
                built[spec] = solver
                caps = capabilities(solver)
                if not ((colours > 1 and Capability.COLOUR not in caps) or (givens and Capability.GIVEN_CELLS not in caps)):
                    (out / "current").write_text(json.dumps({"seed": seed, "spec": spec, "what": "bigcount"}))
                    k = rnd.choice((1, 2, None))
                    try:
                        n = h_count(p, solver, None, 60.0, given=Given.of(call_givens) if call_givens else None, keep=k)
                        judge.tally["bigcounts"] += 1
                        judge.tally["bigcount-solutions"] += len(many)
                        if n.exact and n.count != len(many):
                            judge.bad(seed, "bigcount", spec, f"exact {n.count}, oracle {len(many)}", {"keep": k})
                        if not n.exact and n.count > len(many):
                            judge.bad(seed, "bigcount", spec, f"at least {n.count}, oracle {len(many)}", {"keep": k})
                        if not n.exact:
                            judge.tally["bigcount-timeout"] += 1
                        if any(tuple(map(tuple, s.cells)) not in set(many) for s in n.result.solutions):
                            judge.bad(seed, "bigcount", spec, "a kept solution not the oracle's", {"keep": k})
                    except NonolabError as e:
                        judge.tally[f"bigcount refused {type(e).__name__}"] += 1
                    except Exception as e:  # noqa: BLE001
                        judge.bad(seed, "bigcount", spec, f"raised {type(e).__name__}: {e}",
                                  {"tb": traceback.format_exc()[-1500:]})
        # the library's questions, with the default backend and one random one
        others = ["native", "lcg", "cnf", "cpsat", "backtrack", "dlx"] + (["sharpsat"] if len(rows) * len(cols) <= 64 else [])
        for spec in ("auto", rnd.choice(others)):
            solver = built.get(spec) or build(spec)
            built[spec] = solver
            caps = capabilities(solver)
            if (colours > 1 and Capability.COLOUR not in caps) or (givens and Capability.GIVEN_CELLS not in caps):
                continue
            given = Given.of(call_givens) if call_givens else None
            (out / "current").write_text(json.dumps({"seed": seed, "spec": spec, "what": "check/count"}))
            try:
                c = h_check(p, solver, None, given=given)
                want = {0: "contradiction", 1: "unique"}.get(len(truth), "multiple")
                judge.tally["checks"] += 1
                if c.verdict.value != want:
                    judge.bad(seed, "check", spec, f"{c.verdict.value}, oracle {want}")
                if c.verdict.value == "multiple" and (len(c.witnesses) != 2 or c.witnesses[0] == c.witnesses[1]):
                    judge.bad(seed, "check", spec, "multiple without two distinct witnesses")
                lim = rnd.choice((1, 2, 3, 10, None)) if exact else rnd.choice((1, 2, 3, 10))
                k = rnd.choice((1, 2, None))
                n = h_count(p, solver, lim, None, given=given, keep=k)
                judge.tally["counts"] += 1
                T = len(truth)
                if n.exact and n.count != T:
                    judge.bad(seed, "count", spec, f"exact {n.count}, oracle {T}", {"limit": lim, "keep": k})
                if not n.exact:
                    if n.reason != "limit" or lim is None or n.count < lim or n.count > T:
                        judge.bad(seed, "count", spec, f"inexact {n.count} ({n.reason}), oracle {T}",
                                  {"limit": lim, "keep": k})
                if n.count > T and exact:
                    judge.bad(seed, "count", spec, f"count {n.count} > {T}", {"limit": lim, "keep": k})
            except NonolabError as e:
                judge.tally[f"q-refused {type(e).__name__}"] += 1
            except Exception as e:  # noqa: BLE001
                judge.bad(seed, "check/count", spec, f"raised {type(e).__name__}: {e}",
                          {"tb": traceback.format_exc()[-1500:]})
    # check_many through the batching backends
    for spec, tl in (("native", None), ("auto", None), ("native:probing=none", None), ("auto:threads=1", None),
                     ("native", 0.002), ("auto", 0.003), ("native:node_limit=3", None)):
        (out / "current").write_text(json.dumps({"what": "check_many", "spec": spec, "start": a.start}))
        try:
            got = list(h_check_many([p for _, p, _, _ in batch_list], build(spec), tl))
        except Exception as e:  # noqa: BLE001
            judge.bad(a.start, "check_many", spec, f"raised {type(e).__name__}: {e}")
            continue
        for (seed, p, truth, exact), c in zip(batch_list, got):
            judge.tally["check_many"] += 1
            want = {0: "contradiction", 1: "unique"}.get(len(truth), "multiple")
            if c.verdict.value != want and not (c.verdict.value == "timeout" and (tl or "limit" in spec)):
                judge.bad(seed, "check_many", spec, f"{c.verdict.value}, oracle {want}", {"tl": tl})
    (out / f"tally-{a.start}.json").write_text(json.dumps(judge.tally))
    (out / "current").write_text("")
    print(a.start, dict(judge.tally), "findings", judge.findings, flush=True)


if __name__ == "__main__":
    main()
