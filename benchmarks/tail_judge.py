"""The tail judge: a change to lcg's search against the default's spread over seeds, in conflicts.

    python -m benchmarks.tail judge SPEC [--seeds 0,1,2,3] [--candidate-seeds 0] [--sets taai2011,...]
                                         [--part both|guards|population] [--out DIR] [--fresh]

Issue 25 item 3 (no tournament puzzle over 2 CPU s, about 60,000 conflicts) is judged on two
things: the **population** (lcg's conflicts to the first solution on every puzzle of the 15
tournament sets, ``../shared/tournament``) and the **guards** (the survey's hard eight, N-Dom
for N = 5..15 and Knotty, each asked for one solution and for two).  Every run has a
conflict limit (``lcg:conflict_limit``, :data:`CAP`) and no clock, so every number is
deterministic and the same under any load (the old guards driver's 120 s wall limit cut
runs short under load: lower bounds, not counts).

A search's conflicts on one puzzle depend on its luck: at seed 0 15-Dom/1 takes 47,630
conflicts, at seeds 1-3 117-208k (``benchmarks/log/2026-11-27-tail-14.md``).  So the
candidate is put beside the default's **range over seeds** (``--seeds``, 0-3), never beside
seed 0 alone: each measure in the verdict says whether the candidate is below, inside or
above the default's min-max.

Runs are cached: a population scan or a guards run is written to ``--out`` (one csv per
spec, its name from the canonical spec) and read back on the next judge; the default's
population scans of seeds 0-3 (and a few candidates') already exist from tail-13/tail-14
(:data:`SCANS`).  A cached file is trusted only after a spot check: a sample of its cheap
rows is run again and must give the same conflicts (else the engine changed since, and the
judge stops: ``--fresh`` runs everything again).

**lcg specs only.** The measure is conflicts, and conflicts are lcg's: the count of its
learning search's dead ends, which its ``conflict_limit`` bounds exactly, so a run is the same
on any machine.  The other engines count other work (native's nodes and probes, cnf's CaDiCaL
conflicts on another model, cpsat's own counters) or stop on the clock (auto), and the
baseline is the default lcg at its seeds: a spec of another engine is refused in one line
before anything runs (:func:`judged_spec`), not judged against a measure it does not have.
"""

from __future__ import annotations

import csv
import gzip
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from benchmarks.peers import SETS, SHARED, TOURNAMENT

CAP = 300_000
THRESHOLDS = (30_000, 60_000, 100_000)
RESULTS = Path(__file__).resolve().parent / "results" / "tournament-2026-11-27"
OUT = RESULTS / "judge"
SURVEY = SHARED / "corpus" / "webpbn-survey"
# The population scans that exist (first solution, cap 300,000, tail-13/scan.py): canonical spec -> file.
SCANS = {
    "lcg": RESULTS / "tail-13" / "scan-lcg.csv.gz",
    "lcg:seed=1": RESULTS / "tail-13" / "scan-seed1.csv.gz",
    "lcg:seed=2": RESULTS / "tail-13" / "scan-seed2.csv.gz",
    "lcg:seed=3": RESULTS / "tail-13" / "scan-seed3.csv.gz",
    "lcg:shake=5000": RESULTS / "tail-13" / "scan-shake5000.csv.gz",
    "lcg:lookahead=8": RESULTS / "tail-14" / "scan-la8.csv.gz",
    "lcg:lookahead=8,seed=1": RESULTS / "tail-14" / "scan-la8-seed1.csv.gz",
    "lcg:lookahead=16,lookahead_levels=3": RESULTS / "tail-14" / "scan-la16-levels3.csv.gz",
    "lcg:lookahead=16,lookahead_levels=3,seed=1": RESULTS / "tail-14" / "scan-la16-levels3-seed1.csv.gz",
}
SURVEY_GUARDS = (("9-Dom", "webpbn-08098-9-dom.non"), ("Forever", "webpbn-06574-forever.non"),
                 ("Lion", "webpbn-02712-lion.non"), ("Marley", "webpbn-10088-marley.non"),
                 ("Thing", "webpbn-18297-thing.non"), ("Nature", "webpbn-09892-nature.non"),
                 ("Sierp", "webpbn-12548-sierp.non"), ("Gettys", "webpbn-22336-gettys.non"))
N_DOMS = (5, 6, 7, 8, 10, 12, 15)
SPOT_ROWS = 150          # rows of a cached scan run again before it is trusted
SPOT_BELOW = 5_000       # ... among those under this many conflicts (cheap to run again)


class StaleCache(Exception):
    """A cached run no longer matches what the engine does now."""


# --- specs ------------------------------------------------------------------------------


def canonical(spec: str, seed: int = 0) -> str:
    """``spec`` at ``seed`` in one spelling: its options sorted, ``seed=0`` dropped.

    >>> canonical("lcg:lookahead=8", 1), canonical("lcg:seed=0"), canonical("lcg", 2)
    ('lcg:lookahead=8,seed=1', 'lcg', 'lcg:seed=2')
    """
    from nonolab.solvers import parse_spec
    name, options = parse_spec(spec)
    if seed:
        if options.get("seed", "0") not in ("0", str(seed)):
            raise ValueError(f"{spec!r} sets its own seed: give it without one, or no --candidate-seeds")
        options["seed"] = str(seed)
    options = {k: v for k, v in options.items() if not (k == "seed" and v == "0")}
    return name + (":" + ",".join(f"{k}={options[k]}" for k in sorted(options)) if options else "")


def judged_spec(spec: str) -> str:
    """``spec`` if the judge can judge it: an lcg spec whose options lcg takes.

    Raises:
        ValueError: one line: another engine (conflicts are lcg's measure), or an option lcg refuses.

    >>> judged_spec("lcg:lookahead=8")
    'lcg:lookahead=8'
    >>> judged_spec("native:line=overlap")
    Traceback (most recent call last):
    ...
    ValueError: the tail judge judges lcg specs only, not 'native:line=overlap': its measure and its baseline are lcg's conflicts (the dead ends of lcg's learning search, bounded exactly by its conflict_limit), not native's work
    """
    from nonolab.errors import NonolabError
    from nonolab.solvers import parse_spec
    try:
        name, options = parse_spec(spec)
        if name != "lcg":
            raise ValueError(f"the tail judge judges lcg specs only, not {spec!r}: its measure and its baseline are "
                             f"lcg's conflicts (the dead ends of lcg's learning search, bounded exactly by its "
                             f"conflict_limit), not {name}'s work")
        if "conflict_limit" in options:
            raise ValueError(f"{spec!r}: the tail judge sets conflict_limit itself (the cap, {CAP:,}); "
                             "give the spec without it")
        _solver(spec, CAP)          # an option lcg refuses: now, not after the default's runs
    except NonolabError as err:
        raise ValueError(f"the tail judge cannot build {spec!r}: {err}") from None
    return spec


def slug(spec: str) -> str:
    """A file name's part for a canonical spec: ``lcg:lookahead=8,seed=1`` -> ``lcg_lookahead8_seed1``."""
    return re.sub(r"[^A-Za-z0-9]+", "_", spec.replace("=", "")).strip("_")


# --- the arithmetic ------------------------------------------------------------------------


def summarise(rows: Iterable[dict]) -> dict[str, int]:
    """A population's measures: puzzles, total conflicts, the counts over each threshold, the
    runs stopped at the cap (not solved).

    >>> summarise([{"conflicts": 10, "solved": 1}, {"conflicts": 70_000, "solved": 1}])["> 60k"]
    1
    """
    rows = list(rows)
    found = {"puzzles": len(rows), "total conflicts": sum(int(r["conflicts"]) for r in rows)}
    for t in THRESHOLDS:
        found[f"> {t // 1000}k"] = sum(int(r["conflicts"]) > t for r in rows)
    found["at the cap"] = sum(not int(r["solved"]) for r in rows)
    return found


def place(value: float, others: list[float]) -> str:
    """Where ``value`` lies against the range of ``others``: ``below``, ``inside`` or ``above``.

    >>> place(3, [4, 9]), place(4, [4, 9]), place(10, [4, 9])
    ('below', 'inside', 'above')
    """
    return "below" if value < min(others) else "above" if value > max(others) else "inside"


@dataclass(frozen=True)
class Side:
    """One configuration's measures: its population summary (or None) and each guard's
    (conflicts, stopped at the cap)."""

    label: str
    population: dict[str, int] | None
    guards: dict[str, tuple[int, bool]]


def guard_sum(side: Side) -> tuple[int, bool]:
    """The guards' conflicts summed, and whether any run was stopped at the cap (a lower bound)."""
    return sum(c for c, _ in side.guards.values()), any(cut for _, cut in side.guards.values())


def verdict(defaults: list[Side], candidates: list[Side]) -> list[str]:
    """The verdict table (markdown lines): a row per measure, a column per default seed, the
    default's min-max, then each candidate with where it lies against that range.  A guard
    stopped at the cap shows ``+`` (its count is a lower bound).  Guards under 1,000 conflicts in
    every column are left out (they say nothing of the tail)."""
    columns = defaults + candidates
    head = "| measure | " + " | ".join(f"`{s.label}`" for s in defaults) + " | default min-max | " + \
        " | ".join(f"`{s.label}`" for s in candidates) + " |"
    lines = [head, "|---|" + "---:|" * len(defaults) + "---|" + "---:|" * len(candidates)]

    def row(name: str, values: list[tuple[int, bool]]) -> None:
        shown = [f"{v:,}" + ("+" if cut else "") for v, cut in values]
        base = [v for v, _ in values[:len(defaults)]]
        cells = shown[:len(defaults)] + [f"{min(base):,}-{max(base):,}"]
        cells += [f"{text} ({place(v, base)})" for text, (v, _) in zip(shown[len(defaults):], values[len(defaults):])]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    if all(s.population is not None for s in columns) and columns:
        for measure in next(iter(columns)).population or {}:
            if measure != "puzzles":
                row(measure, [(s.population[measure], False) for s in columns])  # type: ignore[index]
    guards = [g for g in (columns[0].guards if columns else {}) if all(g in s.guards for s in columns)]
    for g in guards:
        if any(s.guards[g][0] >= 1000 for s in columns):
            row(g, [s.guards[g] for s in columns])
    if guards:
        row(f"guards, sum of all {len(guards)}", [guard_sum(s) for s in columns])
    return lines


# --- running and caching --------------------------------------------------------------------


def read_csv(path: Path) -> list[dict]:
    """A csv (plain or gzipped) as rows of text."""
    with (gzip.open(path, "rt") if path.suffix == ".gz" else open(path)) as f:
        return list(csv.DictReader(f))


def write_csv(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with (gzip.open(path, "wt", newline="") if path.suffix == ".gz" else open(path, "w", newline="")) as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def spot_check(rows: list[dict], key: Callable[[dict], str], rerun: Callable[[list[dict]], list[dict]],
               name: str) -> int:
    """Run again up to :data:`SPOT_ROWS` of ``rows`` (evenly spread among those under
    :data:`SPOT_BELOW` conflicts) with ``rerun`` and compare their conflicts; returns how many
    were checked.

    Raises:
        StaleCache: one differs (the engine changed since the file was written).
    """
    cheap = [r for r in rows if int(r["conflicts"]) < SPOT_BELOW]
    sample = cheap[::max(1, len(cheap) // SPOT_ROWS)][:SPOT_ROWS]
    again = {key(r): r for r in rerun(sample)}
    differ = [key(r) for r in sample if int(again[key(r)]["conflicts"]) != int(r["conflicts"])]
    if differ:
        raise StaleCache(f"{name}: {len(differ)} of {len(sample)} rows run again differ (first {differ[0]}): "
                         f"the engine changed since; run with --fresh")
    return len(sample)


def _solver(spec: str, cap: int):
    from nonolab.solvers import build
    return build(spec, [f"conflict_limit={cap}"])


def _run(solver, puzzle, solutions: int) -> dict:
    from nonolab.solvers.base import Limits
    before = time.thread_time()
    result = solver.solve(puzzle, Limits(solutions))
    return {"conflicts": int(result.stats.counters["conflicts"]), "solutions": result.count,
            "complete": int(result.complete), "cpu": round(time.thread_time() - before, 4),
            "load": round(os.getloadavg()[0], 2)}


def puzzles_of(name: str) -> dict:
    from benchmarks.tail import _puzzles
    return _puzzles(name)


def scan(spec: str, keys: list[tuple[str, str]], cap: int = CAP,
         say: Callable[[str], None] | None = None) -> list[dict]:
    """lcg's run to the first solution on each (set, puzzle) of ``keys``, in scan.py's columns
    (``say``: a line at the end of each set)."""
    solver = _solver(spec, cap)
    rows: list[dict] = []
    for n, (name, key) in enumerate(keys):
        got = _run(solver, puzzles_of(name)[key], 1)
        rows.append({"set": name, "puzzle": key, "conflicts": got["conflicts"], "solved": int(got["solutions"] >= 1),
                     "cpu": got["cpu"], "load": got["load"]})
        if say is not None and (n + 1 == len(keys) or keys[n + 1][0] != name):
            mine = [r for r in rows if r["set"] == name]
            say(f"  {name}: {sum(r['conflicts'] for r in mine):,} conflicts, {sum(r['cpu'] for r in mine):.0f} CPU s, "
                f"load {got['load']}")
    return rows


def guard_puzzles() -> dict:
    """The guards' puzzles by name (the survey's hard eight, N-Dom, Knotty)."""
    from nonolab.bench.suites import n_dom
    from nonolab.formats import load
    found = {name: load(SURVEY / file) for name, file in SURVEY_GUARDS}
    found.update({f"{n}-Dom": n_dom(n) for n in N_DOMS})
    found["Knotty"] = load(SHARED / "hard" / "knotty.non")
    return found


def guards(spec: str, names: list[str] | None = None, cap: int = CAP) -> list[dict]:
    """Each guard asked for one solution and for two (``Thing/1``, ``Thing/2``), or those of ``names``."""
    solver, puzzles = _solver(spec, cap), guard_puzzles()
    wanted = names or [f"{p}/{m}" for p in puzzles for m in (1, 2)]
    rows = []
    for guard in wanted:
        name, m = guard.rsplit("/", 1)
        got = _run(solver, puzzles[name], int(m))
        rows.append({"guard": guard, **got, "cap": int(got["conflicts"] >= cap and not got["complete"]
                                                        and got["solutions"] < int(m))})
    return rows


@dataclass
class Cache:
    """Where each spec's runs are read from and written to, with a spot check before any is trusted."""

    out: Path = OUT
    fresh: bool = False
    say: Callable[[str], None] = print

    def population(self, spec: str, sets: list[str]) -> list[dict]:
        path = self.out / f"scan-{slug(spec)}.csv.gz"
        known = [p for p in (path, SCANS.get(spec)) if p is not None and p.exists()]
        keys = [(s, k) for s in sets for k in puzzles_of(s)]
        if known and not self.fresh:
            rows = {(r["set"], r["puzzle"]): r for r in read_csv(known[0])}
            if all(k in rows for k in keys):
                picked = [rows[k] for k in keys]
                n = spot_check(picked, lambda r: f"{r['set']} #{r['puzzle']}",
                               lambda sample: scan(spec, [(r["set"], r["puzzle"]) for r in sample]), str(known[0]))
                self.say(f"{spec}: population from {known[0]} ({n} rows run again: the same)")
                return picked
        self.say(f"{spec}: scanning {len(keys):,} puzzles ...")
        rows = scan(spec, keys, say=self.say)
        wanted = set(keys)   # kept with the rows of other sets the file holds from this engine
        kept = [r for r in read_csv(path) if (r["set"], r["puzzle"]) not in wanted] if path.exists() else []
        write_csv(path, kept + rows)
        return rows

    def guards(self, spec: str) -> list[dict]:
        path = self.out / f"guards-{slug(spec)}.csv"
        if path.exists() and not self.fresh:
            rows = read_csv(path)
            n = spot_check(rows, lambda r: r["guard"], lambda sample: guards(spec, [r["guard"] for r in sample]),
                           str(path))
            self.say(f"{spec}: guards from {path} ({n} runs again: the same)")
            return rows
        self.say(f"{spec}: running the guards ...")
        rows = guards(spec)
        write_csv(path, rows)
        return rows


def side(label: str, population: list[dict] | None, guard_rows: list[dict] | None) -> Side:
    """One column of the verdict from a configuration's rows."""
    return Side(label, summarise(population) if population is not None else None,
                {r["guard"]: (int(r["conflicts"]), bool(int(r["cap"]))) for r in guard_rows or []})


def judge(spec: str, seeds: list[int], candidate_seeds: list[int], sets: list[str], part: str,
          cache: Cache) -> list[str]:
    """The verdict table of ``spec`` (at each of ``candidate_seeds``) against the default lcg at ``seeds``.

    Raises:
        ValueError: ``spec`` is not an lcg spec lcg builds (:func:`judged_spec`), before anything runs.
    """
    judged_spec(spec)
    if not TOURNAMENT.exists() or not SURVEY.exists():
        raise FileNotFoundError(f"the judge needs {SHARED} (the tournament sets and the survey)")
    columns = []
    for label, specs in (("default", [canonical("lcg", s) for s in seeds]),
                         ("candidate", [canonical(spec, s) for s in candidate_seeds])):
        for one in specs:
            population = cache.population(one, sets) if part in ("both", "population") else None
            guard_rows = cache.guards(one) if part in ("both", "guards") else None
            columns.append((label, side(one, population, guard_rows), population, guard_rows))
    defaults = [s for label, s, _, _ in columns if label == "default"]
    candidates = [s for label, s, _, _ in columns if label == "candidate"]
    cpu = {s.label: sum(float(r["cpu"]) for r in (p or []) + (g or [])) for _, s, p, g in columns}
    loads = [float(r["load"]) for _, _, p, g in columns for r in (p or []) + (g or [])]
    lines = verdict(defaults, candidates)
    lines.append("")
    lines.append(f"Population: {', '.join(sets) if set(sets) != set(SETS) else 'all 15 sets'} "
                 f"({defaults[0].population['puzzles']:,} puzzles), first solution; " if defaults[0].population else
                 "Population: not judged; ")
    lines[-1] += (f"conflicts capped at {CAP:,} a run, no clock. CPU s of the runs (noisy, cached ones as recorded): "
                  + ", ".join(f"{k} {v:.0f}" for k, v in cpu.items())
                  + (f"; load {min(loads):.1f}-{max(loads):.1f}." if loads else "."))
    return lines
