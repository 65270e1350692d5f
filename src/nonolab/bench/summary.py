"""The figures of a benchmark from its rows: the conventions of the SAT and CP competitions.

Per solver and puzzle, the time is the median of the repetitions (the upper one for
an even count: :func:`puzzle_time`, the one definition of every figure below, the
geometric mean's too), an unsolved repetition counting as infinite, so a puzzle is solved
when at least half of its runs solved it (all of them, for two).  Then, per solver:

* ``refused``: the puzzles it did not accept (every run of it ``status`` refused: a
  declared limit, such as a grid beyond the engine's memory budget).  As in the
  competitions, where a solver that does not take an instance is marked so, they are
  no part of its score: ``puzzles`` and everything below count the puzzles it accepted;
* ``solved``, ``wrong`` (a grid that breaks the clues, or a verdict contrary to what
  nonolab proved: checked solutions or a complete search, see :mod:`.judge`),
  ``timeouts``, ``errors``;
* ``par2``: the mean over the accepted puzzles of the time, an unsolved puzzle
  counting twice the time limit (PAR-2, the SAT competition's score; None without a limit);
* ``total``, ``median``, ``p95``, ``max`` of the solved puzzles' times;
* ``wins``: the puzzles on which it was the fastest (ties go to the first listed).

A puzzle of a set that could not be read (``unread``: its name and located error) has its
rows (``status`` error, given to no solver) but is no part of any solver's figures nor of
the virtual best: it says nothing about a solver.  ``unread`` lists it.

The virtual best solver takes, on each puzzle, the best time of any solver that accepted it.  A ratio
compares a solver with a baseline on the puzzles both solved: its total time over the
baseline's, per repetition (the median, and the spread from the lowest to the highest
repetition), and the geometric mean of the per-puzzle ratios.

>>> rows = [dict(puzzle="p", solver=s, kind="nonolab", verdict=v, solved=v != "timeout", repeat=1, wall=t, cpu=t)
...         for s, v, t in (("a", "unique", 1.0), ("b", "timeout", 10.0))]
>>> figures = summarise(rows, ["a", "b"], time_limit=10, measure="wall")
>>> [(s["solver"], s["solved"], s["par2"]) for s in figures["solvers"]], figures["virtual_best"]["par2"]
([('a', 1, 1.0), ('b', 0, 20.0)], 1.0)
>>> rows.append(dict(puzzle="q", solver="b", kind="nonolab", status="refused", verdict=None, solved=False,
...                  repeat=1, wall=0.1, cpu=0.1))
>>> [(s["solver"], s["puzzles"], s["refused"], s["par2"]) for s in summarise(rows, ["a", "b"], 10)["solvers"]]
[('a', 1, 0, 1.0), ('b', 1, 1, 20.0)]
"""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import median
from typing import Collection, Iterable, Mapping, Sequence

from nonolab.bench.judge import judge

#: The version of summary.json's names.
SCHEMA_VERSION = 1


def puzzle_time(repetitions: Iterable[float]) -> float:
    """A solver's time on a puzzle from the times of its repetitions (``inf``: not solved):
    their upper median, a time that was measured, so a puzzle is solved when at least half
    of its runs solved it (both of two).  The one definition every figure uses, the
    per-puzzle ratios of the geometric mean as PAR-2, the totals, the wins and the charts.

    >>> puzzle_time([1.0, 3.0]), puzzle_time([2.0, 1.0, 9.0]), puzzle_time([1.0, float("inf")])
    (3.0, 2.0, inf)
    """
    ordered = sorted(repetitions)
    return ordered[len(ordered) // 2]


def _percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of non-empty ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _time(row: dict, measure: str) -> float:
    value = row.get(measure)
    if not row.get("solved") or row.get("verdict") == "wrong" or not isinstance(value, (int, float)):
        return math.inf
    return float(value)


def puzzle_times(rows: Sequence[dict], measure: str, unread: Collection[str] = ()) -> dict[str, dict[str, float]]:
    """solver -> puzzle -> its time (:func:`puzzle_time` of its repetitions; inf: not solved), as the figures count it:
    the puzzles it accepted (see :func:`refused`), not those that could not be read (``unread``)."""
    gathered: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row["puzzle"] in unread:
            continue
        gathered[row["solver"]][row["puzzle"]].append(_time(row, measure))
    no = refused(rows)
    return {s: {p: puzzle_time(ts) for p, ts in by.items() if (s, p) not in no} for s, by in gathered.items()}


def refused(rows: Sequence[dict]) -> set[tuple[str, str]]:
    """The (solver, puzzle) pairs every run of which the solver refused (``status`` refused: a
    declared limit), which its figures leave out: not accepted is not unsolved.

    >>> refused([dict(solver="s", puzzle="p", status="refused"), dict(solver="s", puzzle="q", status="ok")])
    {('s', 'p')}
    """
    statuses: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in rows:
        statuses[(row["solver"], row["puzzle"])].add(row.get("status") or "")
    return {pair for pair, seen in statuses.items() if seen == {"refused"}}


def _stats(times: dict[str, float], limit: float | None) -> dict:
    solved = [t for t in times.values() if math.isfinite(t)]
    penalty = None if limit is None else 2 * limit
    par2 = None if penalty is None or not times else \
        round(sum(t if math.isfinite(t) else penalty for t in times.values()) / len(times), 6)
    return {"puzzles": len(times), "solved": len(solved), "par2": par2,
            "total": round(sum(solved), 6), "median": round(median(solved), 6) if solved else None,
            "p95": round(_percentile(solved, 0.95), 6) if solved else None,
            "max": round(max(solved), 6) if solved else None}


def summarise(rows: Sequence[dict], solvers: Sequence[str], time_limit: float | None, measure: str = "wall",
              task: str = "check", pairs: Iterable[tuple[str, str]] = (), unread: Mapping[str, str] | None = None) -> dict:
    """Every figure of the summary, as plain data (summary.json's ``results``).

    Args:
        rows: the runs (runs.csv's rows, with numbers as numbers).
        solvers: the solver labels, in the order they are listed.
        time_limit: seconds per run (PAR-2 counts twice this for an unsolved puzzle).
        measure: ``wall`` or ``cpu``: which time the figures use.
        task: ``check``, ``solve`` or ``count`` (how answers are compared).
        pairs: ``(solver, baseline)`` pairs to give the ratio of.
        unread: the puzzles of a set that could not be read, each with its located error:
            listed as ``unread``, left out of every figure.
    """
    unread = dict(unread or {})
    rows = [r for r in rows if r["puzzle"] not in unread]
    disagreements, refuted = judge(rows, task)
    rows = [dict(r, verdict="wrong", error=refuted[i]) if i in refuted else r for i, r in enumerate(rows)]
    puzzles = list(dict.fromkeys(r["puzzle"] for r in rows))
    runs: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        runs[(row["solver"], row["puzzle"])].append(row)
    found = puzzle_times(rows, measure)
    times = {s: found.get(s, {}) for s in solvers}
    not_taken = refused(rows)
    table = []
    for solver in solvers:
        wrong = timeouts = errors = 0
        for puzzle in puzzles:
            mine = runs.get((solver, puzzle))
            if not mine or (solver, puzzle) in not_taken:
                continue
            verdicts = {r["verdict"] for r in mine}
            wrong += "wrong" in verdicts
            if not math.isfinite(times[solver][puzzle]) and "wrong" not in verdicts:
                timeouts += "timeout" in verdicts
                errors += "timeout" not in verdicts
        table.append({"solver": solver, **_stats(times[solver], time_limit), "wrong": wrong, "timeouts": timeouts,
                      "errors": errors, "refused": sum(s == solver for s, _ in not_taken), "wins": 0})
    best: dict[str, float] = {}
    for puzzle in puzzles:
        scored = [(times[s][puzzle], k) for k, s in enumerate(solvers) if puzzle in times[s]]
        if not scored:
            continue
        fastest, k = min(scored)
        best[puzzle] = fastest
        if math.isfinite(fastest):
            table[k]["wins"] += 1
    return {"solvers": table, "virtual_best": _stats(best, time_limit),
            "ratios": [ratio(rows, solver, baseline, measure) for solver, baseline in pairs],
            "disagreements": disagreements,
            "wrong": [{"puzzle": r["puzzle"], "solver": r["solver"], "repeat": r["repeat"], "verdict": r["verdict"],
                       "error": r.get("error") or "a wrong answer"}
                      for r in rows if r["verdict"] == "wrong"],
            "unread": [{"puzzle": name, "error": error} for name, error in unread.items()]}


def ratio(rows: Sequence[dict], solver: str, baseline: str, measure: str) -> dict:
    """``solver``'s time over ``baseline``'s on the puzzles both solved in every repetition.

    ``ratio`` is the median over the repetitions of the total-time ratio, ``low`` and
    ``high`` its lowest and highest; ``geomean`` the geometric mean of the per-puzzle
    ratios of the puzzle's times (:func:`puzzle_time`, as every other figure).
    """
    by: dict[tuple[str, str], dict[int, float]] = defaultdict(dict)
    for row in rows:
        if row["solver"] in (solver, baseline):
            by[(row["solver"], row["puzzle"])][int(row["repeat"])] = _time(row, measure)
    puzzles = [p for (s, p), t in by.items() if s == solver and (baseline, p) in by
               and all(math.isfinite(v) for v in (*t.values(), *by[(baseline, p)].values()))]
    repeats = sorted({r for p in puzzles for r in by[(solver, p)]} & {r for p in puzzles for r in by[(baseline, p)]})
    per_repeat = []
    for r in repeats:
        mine = sum(by[(solver, p)].get(r, 0.0) for p in puzzles if r in by[(baseline, p)])
        theirs = sum(by[(baseline, p)].get(r, 0.0) for p in puzzles if r in by[(solver, p)])
        if theirs > 0:
            per_repeat.append(mine / theirs)
    times = {p: (puzzle_time(by[(solver, p)].values()), puzzle_time(by[(baseline, p)].values())) for p in puzzles}
    logs = [math.log(mine / theirs) for mine, theirs in times.values() if min(mine, theirs) > 0]
    return {"solver": solver, "baseline": baseline, "puzzles": len(puzzles), "repeats": len(per_repeat),
            "ratio": round(median(per_repeat), 4) if per_repeat else None,
            "low": round(min(per_repeat), 4) if per_repeat else None,
            "high": round(max(per_repeat), 4) if per_repeat else None,
            "geomean": round(math.exp(sum(logs) / len(logs)), 4) if logs else None}
