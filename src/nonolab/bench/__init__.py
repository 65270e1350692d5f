"""Benchmarking solver strategies: nonolab's backends beside each other and beside external solvers.

:func:`run` solves every puzzle of some PATHS with every contender (nonolab backend
specs, external programs, and with ``base`` the same specs from another version of
nonolab), each run a process of its own under the same wall-clock limit, in an
interleaved order; it records wall and CPU time, peak memory, the load average and the
engines' counters per run, and sums them up as the SAT and CP competitions do (solved,
PAR-2, virtual best solver, ratios with their spread).  With ``out`` it writes
``runs.csv`` (as it goes), ``summary.md``, ``summary.json``, ``cactus.svg`` and
``scatter.svg``, and a bug report per disagreement.

>>> result = run(["puzzles/nonolab"], ["native", "lcg"], time_limit=20)   # doctest: +SKIP
>>> # or, from the top: nonolab.bench(["puzzles/nonolab"], ["native", "lcg"], time_limit=20)
>>> [(s["solver"], s["solved"]) for s in result.figures["solvers"]]        # doctest: +SKIP
[('native', 6), ('lcg', 6)]
>>> result.ok                                                              # doctest: +SKIP
True

The pieces, one module each: :mod:`.suites` (what to run on), :mod:`.externals`
(other programs and how to read them), :mod:`.spawn` (one process group under a
limit), :mod:`.workers` (versions of nonolab and long-lived workers), :mod:`.runner`
(the plan and one record per run), :mod:`.summary` (the figures), :mod:`.report` (the
files).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
import types
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from nonolab.bench.externals import KNOWN, External, load_definition, parse_external
from nonolab.bench.runner import FIELDS
from nonolab.errors import BenchError

__all__ = ["FIELDS", "KNOWN", "BenchResult", "External", "Settings", "load_definition", "parse_external", "run"]

TASKS = ("check", "solve", "count")
ISOLATION = ("process", "worker")


@dataclass(frozen=True)
class Settings:
    """How to run: the task, the limit, repetitions, parallel runs, isolation, and the report's choices.

    Attributes:
        task: ``check`` (count to 2), ``solve`` (the first solution) or ``count`` (all).
        time_limit: wall-clock seconds per run, the same for every contender (None: none).
        repeat: runs per (puzzle, contender).
        jobs: runs at once (1 for timings; more only when the machine has idle cores).
        isolate: ``process`` (one process per nonolab run, start-up counted) or
            ``worker`` (long-lived workers: the solve alone).
        seed: the seed of generated suites (None: each suite's own).
        first: at most this many puzzles of each PATH.
        base: another version of nonolab (a venv, a source tree): each spec runs from both.
        measure: ``wall`` or ``cpu``: the time the summary and charts use.
        baseline: the solver the others are compared with (default: the first; with
            ``base``, each spec is compared with its base).
        charts: the formats of the charts (``svg``, ``png``, ``pdf``).
        scatter: the two solvers of the scatter plot (default: the first two).
        command: the command line, for the report.
    """

    task: str = "check"
    time_limit: float | None = None
    repeat: int = 1
    jobs: int = 1
    isolate: str = "process"
    seed: int | None = None
    first: int | None = None
    base: str | None = None
    measure: str = "wall"
    baseline: str | None = None
    charts: tuple[str, ...] = ("svg",)
    scatter: tuple[str, str] | None = None
    command: str = ""

    def check(self) -> None:
        """Raises BenchError (one line, naming the setting) on a value out of range."""
        if self.task not in TASKS:
            raise BenchError(f"task must be one of {', '.join(TASKS)}, not {self.task!r}")
        if self.isolate not in ISOLATION:
            raise BenchError(f"isolate must be one of {', '.join(ISOLATION)}, not {self.isolate!r}")
        if self.measure not in ("wall", "cpu"):
            raise BenchError(f"measure must be wall or cpu, not {self.measure!r}")
        # The library's own checks, as every call that takes these says them (a typed error
        # naming the setting: "2" or 1.5 was a comparison error from inside, or a thread's).
        import math

        from nonolab.bench.suites import require_seed
        from nonolab.core.puzzle import require_many
        from nonolab.solvers.base import require_count, require_time_limit

        require_time_limit(self.time_limit, "bench")
        if self.time_limit is not None and not math.isfinite(2 * float(self.time_limit)):
            # PAR-2 counts an unsolved puzzle twice the limit, and the charts draw it: both must be numbers
            raise BenchError(f"{{arg}} must be finite, and twice it too (PAR-2), not {self.time_limit!r}",
                             argument="time_limit")
        for name in ("repeat", "jobs", "first"):
            if name != "first" or self.first is not None:
                require_count(getattr(self, name), "bench", name)
        require_seed(self.seed)
        require_many(self.charts, "bench", "charts")
        if self.scatter is not None and len(require_many(self.scatter, "bench", "scatter")) != 2:  # type: ignore[arg-type]
            raise BenchError(f"{{arg}} names two solvers, not {list(self.scatter)!r}", argument="scatter")
        from nonolab.render.convert import FORMATS

        for fmt in self.charts:
            if fmt not in FORMATS:
                raise BenchError(f"{{arg}}: a chart format is one of {', '.join(FORMATS)}, not {fmt!r}", argument="charts")


@dataclass
class BenchResult:
    """The runs (``records``: runs.csv's rows) and the figures (``figures``: summary.json's ``results``).

    ``complete`` is False when a cancel stopped it; ``reports`` are the bug reports written.
    """

    records: list[dict]
    figures: dict
    complete: bool
    out: Path | None = None
    reports: list[str] = field(default_factory=list)
    document: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No two solvers disagreed and no answer was wrong."""
        return not self.figures["disagreements"] and not self.figures["wrong"]


def contenders(backends: Sequence[str], externals: Sequence[External | str], base: str | None) -> list:
    """The contenders of a run: each spec from this version (and from ``base``), then each external.

    Raises:
        BenchError, UnknownBackend, BackendUnavailable: a spec or an external that cannot run here.
    """
    from nonolab.bench.runner import Contender
    from nonolab.bench.workers import base_tree, this_tree
    from nonolab.solvers import build

    here = this_tree()
    other = base_tree(base) if base is not None else None
    found = []
    for spec in backends:
        build(spec)  # a misspelt spec is refused here, once, not in every run
        found.append(Contender(spec, spec, here))
        if other is not None:
            found.append(Contender(f"{spec}@base", spec, other))
    for external in externals:
        ext = parse_external(external) if isinstance(external, str) else external.resolved()
        found.append(Contender(ext.name, external=ext))
    labels = [c.label for c in found]
    if len(set(labels)) != len(labels):
        raise BenchError("two contenders have the same name: " + ", ".join(sorted({x for x in labels if labels.count(x) > 1})))
    if not found:
        raise BenchError("nothing to run: name --backends or --external")
    return found


def _pairs(labels: Sequence[str], settings: Settings) -> list[tuple[str, str]]:
    if settings.base is not None and settings.baseline is None:
        return [(label, f"{label}@base") for label in labels if f"{label}@base" in labels]
    baseline = settings.baseline or labels[0]
    if baseline not in labels:
        raise BenchError(f"{{arg}} {baseline!r} is not one of the solvers ({', '.join(labels)})", argument="baseline")
    return [(label, baseline) for label in labels if label != baseline]


def run(paths: Sequence[str], backends: Sequence[str] = ("auto",), externals: Sequence[External | str] = (),
        out: str | os.PathLike | None = None, *, cancel: threading.Event | None = None,
        on_start: Callable[[int], None] | None = None, on_run: Callable[[dict], None] | None = None,
        force: bool = False, **settings) -> BenchResult:
    """Benchmark ``backends`` (nonolab specs) and ``externals`` on every puzzle of ``paths``.

    Args:
        paths: files, folders and generated suites (:mod:`nonolab.bench.suites`).
        backends: nonolab backend specs (``auto``, ``native:line=overlap``, ...).
        externals: :class:`External` definitions, or ``--external`` values
            (``pbnsolve``, ``pbnsolve=/path/to/pbnsolve``, ``NAME=COMMAND``, ``NAME=FILE.toml``).
        out: the folder of the reports (None: nothing written).
        cancel: set it to stop: the runs under way are killed and dropped, the reports
            of the rest are written, and ``complete`` is False.
        on_start: called with the number of runs planned.
        on_run: called with each row as it is recorded.
        force: replace the reports of an earlier benchmark in ``out``.
        **settings: the fields of :class:`Settings`.

    Raises:
        BenchError: bad settings, an unknown suite, a missing external program, an
            output folder holding an earlier benchmark (without ``force``).
    """
    from nonolab.bench import report, runner as runs
    from nonolab.bench.suites import items_of
    from nonolab.bench.summary import SCHEMA_VERSION, summarise

    from nonolab.core.puzzle import require_many

    require_many(paths, "bench", "paths")
    require_many(backends, "bench", "backends")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise TypeError(f"bench: cancel is a threading.Event (or None), not {type(cancel).__name__}")
    chosen = Settings(**settings)
    chosen.check()
    skipped: list[str] = []
    items = items_of(paths, chosen.seed, chosen.first, skipped, unreadable=True)
    unread = {item.name: item.error or "" for item in items if item.puzzle is None}
    names = [item.name for item in items]
    if len(set(names)) != len(names):
        raise BenchError("two puzzles have the same name: " + next(n for n in names if names.count(n) > 1))
    entrants = contenders(backends, externals, chosen.base)
    for entrant in entrants:
        if entrant.external is not None and chosen.task not in entrant.external.commands:
            raise BenchError(f"external {entrant.label} declares no command for the task {chosen.task} "
                             f"(it has: {', '.join(entrant.external.commands)})")
    labels = [c.label for c in entrants]
    pairs = _pairs(labels, chosen)
    scatter = chosen.scatter or (tuple(labels[:2]) if len(labels) >= 2 else None)
    if scatter is not None and not set(scatter) <= set(labels):
        raise BenchError(f"{{arg}} {', '.join(scatter)}: not all solvers of this run ({', '.join(labels)})",
                         argument="scatter")
    folder = None if out is None else Path(out)
    if folder is not None:
        if (folder / "runs.csv").exists() and not force:
            raise BenchError("holds the reports of an earlier benchmark (use another folder, or force)",
                             path=str(folder))
        if folder.exists() and not folder.is_dir():   # mkdir's own word is only "File exists" (/dev/null)
            raise BenchError("names the folder of the reports, and this is a file", path=str(folder))
        # No report may replace a file the benchmark reads (a set saved as summary.json there,
        # an external's declaration, a file of the --base version), force or not: force
        # replaces an earlier benchmark, never the input.
        from nonolab.bench.externals import definition_file
        from nonolab.formats._input_guard import refuse_replacing_inputs, refuse_replacing_tree
        targets = report.report_files(folder, names)
        declarations = [definition_file(e) for e in externals if isinstance(e, str)]
        refuse_replacing_inputs("{arg}", folder, targets, sorted({item.source for item in items})
                                + [d for d in declarations if d is not None], argument="out")
        if chosen.base is not None:
            refuse_replacing_tree("{arg}", folder, targets, chosen.base, "--base", argument="out")
        if force:   # replaced whole: no bug report or chart of the earlier run beside the new summary
            report.remove_reports(folder)
        folder.mkdir(parents=True, exist_ok=True)
    cancel = cancel or threading.Event()
    rows: list[dict] = []
    plan = list(runs.plan(len(items), chosen.repeat, entrants))
    if on_start is not None:
        on_start(len(plan))
    started = time.strftime("%Y-%m-%d %H:%M")
    from nonolab.bench.spawn import Spawner

    # The reports are written before anything is cleaned up: after Ctrl-C the process has
    # less than a second, and the reports are what it is for.
    work, spawner = tempfile.mkdtemp(prefix="nonolab-bench-"), Spawner()
    try:
        complete = _execute(plan, runs.Runner(items, chosen.task, chosen.time_limit, chosen.isolate,
                                              runs.Files(work, items), spawner, cancel),
                            chosen.jobs, folder, rows, on_run)
        figures = summarise(rows, labels, chosen.time_limit, chosen.measure, chosen.task, pairs, unread)
        document = {"schema_version": SCHEMA_VERSION, "date": started,
                    "command": chosen.command or f"nonolab.bench.run({list(map(str, paths))!r}, {list(backends)!r})",
                    "machine": report.machine(),
                    "settings": {k: v for k, v in asdict(chosen).items() if k != "command"},
                    "solvers": [{"solver": c.label, "kind": c.kind, "spec": c.spec,
                                 "tree": c.tree.where if c.tree else None,
                                 "program": c.external.program if c.external else None} for c in entrants],
                    "puzzles": len(items), "runs": len(rows), "complete": complete, "skipped": skipped,
                    "load": _load_range(rows), "results": figures}
        result = BenchResult(rows, figures, complete, folder, document=document)
        if folder is not None:
            result.document = report.write_outputs(folder, document, rows, chosen.charts, scatter)
            result.reports = report.write_bug_reports(folder, figures["disagreements"], rows,
                                                      {item.name: item.puzzle for item in items if item.puzzle})
    finally:
        spawner.close()
        shutil.rmtree(work, ignore_errors=True)
    return result


def _execute(plan, runner, jobs: int, folder: Path | None, rows: list[dict],
             on_run: Callable[[dict], None] | None) -> bool:
    """Every run of ``plan``; each row to ``rows``, runs.csv and ``on_run`` as it ends.  False if cancelled."""
    from nonolab.bench import report, runner as runs

    sink = report.RunsFile(folder / "runs.csv") if folder is not None else None

    def emit(row: dict) -> None:
        rows.append(row)
        if sink is not None:
            sink.append(row)
        if on_run is not None:
            on_run(row)

    try:
        return runs.execute(plan, runner, jobs, emit)
    finally:
        if sink is not None:
            sink.close()


def _load_range(rows: Sequence[dict]) -> dict | None:
    """The lowest, median and highest 1-minute load average over the runs."""
    from statistics import median

    loads = [r["load"] for r in rows if isinstance(r.get("load"), float) and r["load"] == r["load"]]
    if not loads:
        return None
    return {"lowest": min(loads), "median": median(loads), "highest": max(loads)}


class _CallablePackage(types.ModuleType):
    """``nonolab.bench`` is both this package and, called, :func:`run` (as ``nonolab.generate``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> BenchResult:
        return run(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
