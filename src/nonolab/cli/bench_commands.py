"""``nonolab bench``: solver strategies and external solvers side by side, as the competitions measure them."""

from __future__ import annotations

import shlex
import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # rich is imported only when the bar is drawn
    from rich.progress import Progress, TaskID

from nonolab.cli import options
from nonolab.cli.group import EXIT_NO
from nonolab.core.words import counted


class _Bar:
    """Runs done / planned, drawn with rich on stderr on a terminal (imported only when drawn)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def start(self, total: int) -> None:
        if not self.enabled or not total:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(TextColumn("runs"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TextColumn("{task.description}"), console=Console(file=sys.stderr), transient=True)
        progress.start()
        self._progress, self._task = progress, progress.add_task("", total=total)

    def advance(self, row: dict) -> None:
        if self._progress is not None and self._task is not None:
            word = row["verdict"] or "could not be checked"   # no verdict: status error, never "error"
            self._progress.update(self._task, advance=1, description=f"{row['puzzle'][-40:]} {row['solver']} {word}")

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _pair(value: str | None) -> tuple[str, str] | None:
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 2 or not all(parts):
        raise click.BadParameter("expected two solver names: A,B", param_hint="--scatter")
    return parts[0], parts[1]


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--backends", "-b", default="auto", show_default=True, metavar="SPEC[,SPEC...]",
              help="nonolab backends or specs (auto, native:line=chain-range, lcg:phases=saved ...); '' for none.")
@click.option("--external", "-e", "externals", multiple=True, metavar="NAME[=COMMAND]",
              help="An external solver (repeatable): nonosolve, pbnsolve or nonogrid (on PATH, or NAME=/path/to/it), "
                   "NAME=FILE.toml (a declaration), or NAME='prog ARGS {file.non}' (it prints the check words).")
@click.option("--task", type=click.Choice(["check", "solve", "count"]), default="check", show_default=True,
              help="check: count to 2 (unique?); solve: the first solution; count: every solution.")
@click.option("--time-limit", "-t", type=options.SECONDS, default=60.0, show_default=True,
              help="Wall-clock seconds per run, the same for every solver (start-up included).")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Runs per puzzle and solver.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Runs at once (keep 1 for timings unless cores are idle).")
@click.option("--isolate", type=click.Choice(["process", "worker"]), default="process", show_default=True,
              help="process: one process per nonolab run (start-up counted, as a user pays it); "
                   "worker: long-lived workers (the solve alone).")
@click.option("--out", "-o", default="bench-results", show_default=True, type=click.Path(file_okay=False),
              help="The folder of runs.csv, summary.md, summary.json and the charts.")
@click.option("--force", is_flag=True, help="Replace the reports of an earlier benchmark in --out.")
@click.option("--seed", type=int, default=None, help="Seed of the generated suites (default: each suite's own).")
@click.option("--first", type=click.IntRange(min=1), default=None, metavar="K",
              help="Only the first K puzzles of each PATH.")
@click.option("--base", default=None, type=click.Path(exists=True, file_okay=False),
              help="Another version of nonolab (a venv, or a source tree with its engines built): every spec "
                   "also runs from there, in alternation, and is compared with it.")
@click.option("--measure", type=click.Choice(["wall", "cpu"]), default="wall", show_default=True,
              help="The time the summary and charts use (cpu: user + system, fairer on a busy machine).")
@click.option("--baseline", default=None, metavar="SOLVER",
              help="The solver the others are compared with (default: the first; with --base, each spec's base).")
@click.option("--scatter", default=None, metavar="A,B", help="The two solvers of scatter.svg (default: the first two).")
@click.option("--charts", default="svg", show_default=True, metavar="FMT[,FMT]",
              help="Chart formats: svg, png, pdf (png and pdf need cairosvg).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: on a terminal).")
def bench(paths, backends, externals, task, time_limit, repeat, jobs, isolate, out, force, seed, first, base,
          measure, baseline, scatter, charts, progress):
    """Benchmark backends (and external solvers) on every puzzle of PATHS.

    \b
    PATHS: puzzle files (every puzzle of a set), folders, and generated suites:
    random:WxH:N[:DENSITY], taai:N (25x25, TAAI densities), tournament:FILE (a
    TAAI set), ndom:A-B, large:S,S,... (seeded: the same puzzles everywhere).
    \b
    Every run is a process in a process group of its own (nonolab's, with
    --isolate worker, a job of a long-lived worker), killed with the group at
    the limit; runs go puzzle by puzzle, the solvers in a rotating order, and record wall and CPU time, peak memory, the load average and the
    engines' counters.  Writes to --out: runs.csv (as it goes), summary.md and
    summary.json (solved, wrong, timeouts, refused, PAR-2 over the puzzles
    each solver accepted, total, median, p95, max, the
    virtual best solver, wins, ratios with their spread), cactus.svg and
    scatter.svg.  Ctrl-C keeps the runs that ended and writes the reports.
    \b
    Exit code 0; 1 when two solvers gave answers that cannot both be true or an
    answer was wrong (a proof beats a claim: an answer contrary to solutions
    nonolab checked or to its complete search is wrong; a bug report per puzzle
    in --out/disagreements); 2 on bad input
    (an unknown suite, an external solver that is not there); 130 on Ctrl-C.
    """
    from nonolab import bench as library
    from nonolab.cli import interrupt
    from nonolab.harness.crosscheck import split_specs

    chosen_charts = tuple(c.strip() for c in charts.split(",") if c.strip())
    bar = _Bar(sys.stderr.isatty() if progress is None else progress)
    interrupt.finish_on_cancel()
    command = " ".join(shlex.quote(a) for a in ["nonolab", "bench", *sys.argv[2:]]) \
        if sys.argv[1:2] == ["bench"] else "nonolab bench " + " ".join(map(shlex.quote, paths))
    try:
        result = library.run(list(paths), split_specs(backends), list(externals), out,
                             cancel=interrupt.CANCEL, on_start=bar.start, on_run=bar.advance, force=force,
                             task=task, time_limit=time_limit, repeat=repeat, jobs=jobs, isolate=isolate, seed=seed,
                             first=first, base=base, measure=measure, baseline=baseline, charts=chosen_charts,
                             scatter=_pair(scatter), command=command)
    finally:
        bar.stop()
    click.echo((result.out / "summary.md").read_text(encoding="utf-8"), nl=False)
    click.echo(f"reports: {result.out}/ (" + ", ".join(["runs.csv", "summary.md", "summary.json",
                                                         *result.document.get("charts", [])]) + ")")
    if not result.ok:
        figures = result.figures
        wrong = len(figures['wrong'])
        click.echo(f"nonolab: DISAGREEMENT: {counted(len(figures['disagreements']), 'puzzle')} got answers that cannot "
                   f"all be true and {counted(wrong, 'answer')} {'was' if wrong == 1 else 'were'} wrong: a bug; "
                   f"reports in {result.out}/disagreements",
                   err=True)
    if not result.complete:
        return  # the interrupt's own exit (130) follows
    if not result.ok:
        sys.exit(EXIT_NO)


COMMANDS = (bench,)
