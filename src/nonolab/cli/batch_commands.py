"""``nonolab batch``: one task over many puzzle files, results to JSON Lines."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Literal

import click

from nonolab.batch.tasks import SEVERAL_BACKENDS, TASKS
from nonolab.cli import interrupt, options
from nonolab.cli.group import EXIT_NO
from nonolab.solvers import DEFAULT
from nonolab.core.words import counted

if TYPE_CHECKING:  # rich is imported only when the bar is drawn
    from rich.progress import Progress, TaskID


@click.command()
@click.argument("paths", nargs=-1, required=True, type=options.InputPath(exists=True, path_type=str))
@click.option("--do", "task", type=click.Choice(sorted(TASKS)), default="check", show_default=True,
              help="What to do with each puzzle: check (unique?), solve (the first solution), count (all "
                   "solutions) or crosscheck (alias verify: every backend agrees).")
@click.option("--out", "-o", required=True, type=options.OUTPUT,
              help="The results file: one JSON record per puzzle, written as each one ends.")
@click.option("--resume", is_flag=True,
              help="Keep the records already in --out and run only the puzzles it lacks for this task and backend.")
@click.option("--force", is_flag=True, help="Replace an existing --out (without it, an existing file is refused).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes of the local pool.")
@options.time_limit_per("per puzzle (for crosscheck: per backend on each puzzle)")
@click.option("--backend", "-b", default=None, metavar="SPEC",
              help=f"Solver backend or spec such as native:line=overlap (default: {DEFAULT}); for crosscheck, "
                   "SPEC,SPEC,... (default: every registered one).")
@options.backend_option
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help='Run on this Dask scheduler instead of the local pool (pip install "nonolab[distributed]"). '
                   "The scheduler and its workers are trusted: they receive pickled jobs and run code.")
@click.option("--send-puzzles/--shared-files", default=True, show_default=True,
              help="With --scheduler: send each puzzle to the workers as data (they need no access to the "
                   "files), or send only its path (the files must be readable at the same paths on every worker).")
@click.option("--exclude", multiple=True, metavar="GLOB",
              help="Leave out files of the directories whose relative path or name matches (repeatable).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: on a terminal).")
def batch(paths, task, out, resume, force, jobs, time_limit, backend, backend_options, scheduler, send_puzzles,
          exclude, progress):
    """Run one task on every puzzle of PATHS (files, and directories searched recursively).

    \b
    Each puzzle's record (file, index, title, task, backend, status, verdict,
    count, exact, time, error) is appended to --out and flushed to disk as soon
    as it ends, so an interrupted batch loses nothing: run it again with --resume.
    A file holding several puzzles gives one record per puzzle, keyed by (file,
    index).  A puzzle still running 2 s after its --time-limit is killed and
    recorded as a timeout; a puzzle that could not be checked (a file that cannot be
    read, a puzzle over a limit, a library error) has status error, no verdict and
    the reason in its error field; the summary counts it as "could not be checked".
    The largest files start first.  With --do check and a backend that declares
    batching (native, and auto, the default), a worker answers up to 32 puzzles at a time through
    nonolab.check_many, one record each as soon as it is known.
    \b
    Exit code 0 when every puzzle got its answer, 1 when some timed out, failed
    or (crosscheck) disagree or are inconclusive, 2 on bad usage (e.g. --out exists
    without --resume or --force, a malformed or unreachable --scheduler).
    """
    from nonolab.batch import run_batch
    from nonolab.cli.backends import spec_with_options
    from nonolab.harness.crosscheck import split_specs

    if backend_options:
        specs = split_specs(backend) or ([DEFAULT] if task not in SEVERAL_BACKENDS else [])
        if not specs:
            from nonolab.solvers import names
            specs = names()
        backend = ",".join(spec_with_options(spec, backend_options) for spec in specs)
    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    bar = _Bar(sys.stderr.isatty() if progress is None else progress)
    try:
        summary = run_batch(paths, task, out, jobs=jobs, time_limit=time_limit, backend=backend, resume=resume,
                            force=force, scheduler=scheduler, exclude=exclude, on_start=bar.start,
                            on_record=bar.advance, send_puzzles=send_puzzles, cancel=interrupt.CANCEL)
    finally:
        bar.stop()
    _print_summary(summary)
    if not summary.answered:
        sys.exit(EXIT_NO)


class _Bar:
    """Puzzles done / total, drawn with rich on stderr (imported only when drawn)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._verdicts: dict[str, int] = {}

    def start(self, total: int, earlier: int) -> None:
        if earlier:
            click.echo(f"{counted(earlier, 'puzzle')} already in the results file; "
                       f"{total} to run", err=True)
        if not self.enabled or not total:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(TextColumn("puzzles"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TextColumn("{task.description}"), console=Console(file=sys.stderr), transient=True)
        progress.start()
        self._progress, self._task = progress, progress.add_task("", total=total)

    def advance(self, record: dict) -> None:
        from nonolab.batch.results import summary_word

        verdict = summary_word(record)
        self._verdicts[verdict] = self._verdicts.get(verdict, 0) + 1
        if self._progress is not None and self._task is not None:
            text = " ".join(f"{k} {v}" for k, v in sorted(self._verdicts.items()))
            self._progress.update(self._task, advance=1, description=text)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _print_summary(summary) -> None:
    from rich.console import Console
    from nonolab.batch.results import summary_word
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    if not console.is_terminal:  # a log or a pipe: room for whole paths rather than folded ones
        console.width = max(80, max((len(r["file"]) for r in summary.records), default=0) + 36)
    n = len(summary.records)
    counts = Table(title=counted(n, "puzzle"), title_justify="left")
    counts.add_column("verdict")
    counts.add_column("puzzles", justify="right")
    for verdict, number in summary.counts().items():
        counts.add_row(verdict, str(number))
    console.print(counts)
    if summary.unchecked:   # no verdict ("error" is none of the four words): counted apart
        console.print(f"could not be checked: {summary.unchecked}")
    if summary.disagreements:   # a bug in a backend: loud, apart from the verdicts (which stay words)
        console.print(f"backends disagree: {summary.disagreements} (see each record's problems)", style="bold red")
    console.print("status: " + ", ".join(f"{k} {v}" for k, v in summary.counts("status").items()))
    where = f"Dask at {summary.scheduler}" if summary.scheduler else f"{summary.jobs} local job(s)"
    console.print(f"wall time {summary.wall_time:.2f} s ({where}); sum of puzzle times {summary.puzzle_time:.2f} s"
                  + (f"; {summary.earlier} record(s) from an earlier run" if summary.earlier else ""))
    slow = Table(title="slowest", title_justify="left")
    columns: tuple[tuple[str, Literal["left", "right"]], ...] = (("file", "left"), ("size", "left"),
                                                                 ("verdict", "left"), ("time s", "right"))
    for column, justify in columns:
        slow.add_column(column, justify=justify, overflow="fold")
    sets = {r["file"] for r in summary.records if (r.get("index") or 1) > 1}  # files holding several puzzles
    for record in summary.slowest(5):
        size = f"{record['width']}x{record['height']}" if record.get("width") else "-"
        name = record["file"] + (f" #{record.get('index') or 1}" if record["file"] in sets else "")
        slow.add_row(name, size, summary_word(record), f"{record.get('time') or 0:.3f}")
    console.print(slow)
    console.print(f"results: {summary.out}")


COMMANDS = (batch,)
