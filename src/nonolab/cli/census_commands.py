"""``nonolab census`` (every W x H picture's clues checked) and ``nonolab label`` (labels for a set
of puzzles): the bulk workloads of the native engine's batch entry."""

from __future__ import annotations

import sys

import click

from nonolab.cli import interrupt, options


@click.command()
@click.option("--size", "size", required=True, metavar="WxH", help="The pictures' size, such as 4x4 or 7x4.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes on this machine.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help='Run the chunks on this Dask scheduler\'s workers (pip install "nonolab[distributed]"; '
                   "nonolab installed on every worker). The scheduler and its workers are trusted.")
@click.option("--out", "-o", default=None, type=options.OUTPUT,
              help="The results file (JSON), rewritten after every chunk: run the same command again to go on "
                   "from where a killed run stopped.")
@click.option("--deep/--no-deep", default=True, show_default=True,
              help="Tell depth-2 from search among the unique clue sets that full probing leaves open "
                   "(--no-deep counts them together as beyond-full-probe).")
@click.option("--chunk-pictures", type=click.IntRange(min=1), default=None, metavar="N",
              help="The most pictures a chunk holds (the unit of work and of checkpoints; default about two "
                   "million). A resumed --out keeps its own chunks.")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Check one picture of each orbit of the grid's symmetries (8 for a square, 4 for a "
                   "rectangle), weighted by the orbit's size: the same counts, several times faster. "
                   "--no-symmetry checks every picture.")
@click.option("--progress/--no-progress", default=None, help="Chunks done on stderr (default: on a terminal).")
def census(size, jobs, scheduler, out, deep, chunk_pictures, symmetry, progress):
    """Check the clues of every WxH picture: how many are unique, line-solvable, of each grade.

    \b
    Uniqueness is counted two ways that must agree on every clue set: pictures
    grouped by their clues (unique: the only picture with its clues), and the
    native engine counting each distinct clue set's solutions to 2.  Line-solvable:
    the complete line solver alone solves it.  Grades are those of `nonolab grade`.
    With --symmetry (the default) one picture of each orbit of the grid's
    symmetries is checked and counted as many times as its orbit has pictures.
    \b
    Exit code 0 when the census is complete, 2 on bad usage, 3 when the two
    counts disagree (a bug: please report it), 130 on Ctrl-C (--out then holds
    every chunk finished: run the same command again to go on).
    """
    from nonolab.exhaustive import census as run_census
    from nonolab.exhaustive import parse_size

    width, height = parse_size(size)
    show = sys.stderr.isatty() if progress is None else progress

    def report(result) -> None:
        if show:
            interrupt.progress_line(f"chunks {result.chunks_done}/{result.chunks}, pictures {result.pictures:,}",
                                    ended=result.complete)

    # On Ctrl-C the census stops at once and its last save of --out must land: the
    # signal leaves its writes open for that long (and silences nothing it prints).
    interrupt.finish_on_cancel()
    result = run_census(width, height, jobs=jobs, scheduler=scheduler, out=out, deep=deep, progress=report,
                         chunk_pictures=chunk_pictures, symmetry=symmetry, cancel=interrupt.CANCEL)
    if not interrupt.CANCEL.is_set():   # cut short: the one line "interrupted" says so, not a census
        _print(result, out)


def _print(result, out) -> None:
    total = result.total
    click.echo(f"census {result.width}x{result.height}: {result.pictures:,} of {total:,} pictures"
               + ("" if result.complete else f" (incomplete: {result.chunks_done}/{result.chunks} chunks)"))
    if result.symmetry:
        click.echo(f"  checked            {result.orbits:,} (one picture of each orbit of the grid's symmetries)")
    click.echo(f"  distinct clue sets {result.clue_sets:,}")
    click.echo(f"  unique             {result.unique:,}")
    click.echo(f"  line-solvable      {result.line:,}")
    click.echo(f"  multiple           {result.pictures - result.unique:,}")
    click.echo("  unique by grade:")
    for name, count in result.grades.items():
        click.echo(f"    {name:<20} {count:,}")
    click.echo(f"wall time {result.seconds:.2f} s" + (f"; results: {out}" if out else ""))


@click.command()
@click.argument("paths", nargs=-1, required=True)
@options.time_limit_per("per puzzle")
def label(paths, time_limit):
    """Label every puzzle of PATHS at full speed, one JSON line each on stdout.

    \b
    PATHS: puzzle files, directories (searched recursively, as batch does), and
    JSON Lines streams (one puzzle a line, nonolab's JSON format): a .jsonl file, or
    - for stdin.  Index is then the line number.  JSON Lines and TAAI sets ($N
    headers) are read a puzzle at a time: any number of puzzles, one held at a time.
    Each line: file, index (1-based in its file or stream), width, height, verdict
    (unique, multiple, contradiction, timeout), grade (as `nonolab grade`),
    line_solvable, solutions (the solution, or two of them for multiple) and error.
    A puzzle that cannot be read or labelled has verdict null and the message in
    error; the others go on.
    \b
    Exit code 0 when every puzzle got its label, 1 when some could not be read or
    labelled or timed out, 2 on bad usage (a path that does not exist).
    """
    import json

    from nonolab.cli.group import EXIT_NO
    from nonolab.exhaustive.labels import label_records
    from nonolab.exhaustive.reading import read_puzzles

    unlabelled = 0
    for record in label_records(read_puzzles(paths), time_limit):
        unlabelled += record["verdict"] in (None, "timeout")
        click.echo(json.dumps(record))
    if unlabelled:
        sys.exit(EXIT_NO)


COMMANDS = (census, label)
