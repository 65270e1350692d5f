"""``render``: pictures of a puzzle, its solution, two solutions, the ambiguity map or
the steps of ``explain``; and the picture writer ``solve --to svg|png|pdf`` uses."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from nonolab.cli import options
from nonolab.cli.group import EXIT_NO

PICTURE_FORMATS = ("svg", "png", "pdf")
RENDER_FORMATS = (*PICTURE_FORMATS, "html")


def picture_format(to_format: str | None, output: str | None) -> str | None:
    """The picture format asked for by ``--to`` or by the output's suffix, or ``None``
    when a puzzle format is asked for instead."""
    if to_format:
        return to_format.lower() if to_format.lower() in PICTURE_FORMATS else None
    suffix = Path(output).suffix[1:].lower() if output else ""
    return suffix if suffix in PICTURE_FORMATS else None


def write_picture(svg: str, fmt: str, output: str | None, page: str | None = None) -> None:
    """``svg`` as ``fmt`` to ``output`` (atomically), or to standard output: text as is,
    PNG and PDF only when standard output is not a terminal."""
    from nonolab.errors import InvalidArgument
    from nonolab.render import encode

    data = encode(svg, fmt)
    if output:
        from nonolab.formats import write_atomically
        write_atomically(output, data)
        click.echo(f"wrote {fmt.upper()} to {output}", err=True)
    elif isinstance(data, str):
        click.echo(data, nl=False)
    elif sys.stdout.isatty():
        raise InvalidArgument(f"{fmt.upper()} is binary: give an output file with -o FILE")
    else:
        click.get_binary_stream("stdout").write(data)


def write_solution(puzzle, solution, fmt: str, output: str | None, cell: float = 20) -> None:
    """The picture of ``solve --to svg|png|pdf``: the solution with its clues (PDF on an A4 page)."""
    from nonolab.render import solution_svg
    page = "a4" if fmt == "pdf" else None
    write_picture(solution_svg(solution, puzzle, cell=cell, page=page), fmt, output)


def echo_grid(puzzle, solution, terminal: bool | None = None) -> None:
    """Print ``solution``: at a terminal, with its clues beside it in colour (rich) when
    it fits the terminal's width; otherwise (a pipe, a file, a grid too wide) as the
    plain text rows of ``#`` and ``.`` that scripts read."""
    import shutil

    if terminal is None:
        terminal = sys.stdout.isatty()
    if puzzle.is_colour:   # the terminal drawing is black and white: the palette's chars
        from nonolab.cli.records import picture_text
        click.echo(picture_text(puzzle, solution))
        return
    if terminal:
        from nonolab.render.terminal import grid_with_clues
        picture = grid_with_clues(puzzle, solution)
        columns = shutil.get_terminal_size().columns
        if picture.width <= columns:
            from rich.console import Console
            Console(width=columns).print(picture)
            return
    click.echo(solution.to_text())


@click.command()
@options.puzzle_file
@options.input_format
@click.option("--solution", "mode", flag_value="solution", help="The solution (found with the auto backend).")
@click.option("--diff", "mode", flag_value="diff",
              help="Two solutions side by side, the cells where they differ framed in red.")
@click.option("--why", "mode", flag_value="why",
              help="The ambiguity map of `check --why`: regions where solutions differ, suggested givens.")
@click.option("--steps", "mode", flag_value="steps",
              help="The steps of `explain` (native backend): an HTML page with a slider, one frame per step.")
@click.option("--to", "to_format", type=click.Choice(RENDER_FORMATS, case_sensitive=False), default=None,
              help="Picture format (default: from -o's suffix, else svg; html for --steps).")
@click.option("--output", "-o", default=None, type=click.Path(dir_okay=False),
              help="Output file (default: standard output).")
@click.option("--cell", type=click.FloatRange(min=2, max=200), default=20, show_default=True, metavar="PX",
              help="Cell size in pixels (a PNG's size follows it).")
@click.option("--page", type=click.Choice(["a4", "letter"], case_sensitive=False), default=None,
              help="Fit the picture to a printed page, clues at least 6 pt (default for PDF: a4).")
@click.option("--labels/--no-labels", default=None,
              help="Row and column numbers (default: on for --diff and --why).")
@options.time_limit
def render(file, input_format, mode, to_format, output, cell, page, labels, time_limit):
    """Draw FILE: the puzzle with its clues (printable), or with --solution, --diff,
    --why or --steps what those find.  Exit code 1 when there is nothing to draw
    (no solution; a single solution for --diff)."""
    import nonolab
    from nonolab.errors import InvalidArgument
    from nonolab.render import ambiguity_svg, diff_svg, puzzle_svg, solution_svg

    fmt = (to_format or (Path(output).suffix[1:] if output else "") or ("html" if mode == "steps" else "svg")).lower()
    if fmt not in RENDER_FORMATS:
        raise InvalidArgument(f"unknown picture format {fmt!r} (from {output}): use --to "
                              + "|".join(RENDER_FORMATS))
    if mode == "steps" and fmt not in ("html", "svg"):
        raise InvalidArgument("--steps draws a sequence: use --to html (or svg, every step shown)")
    if mode != "steps" and fmt == "html":
        raise InvalidArgument("html is the format of --steps")
    page = page.lower() if page else ("a4" if fmt == "pdf" else None)
    puzzle = nonolab.load(file, input_format)
    size = {"cell": cell, "page": page}
    if labels is not None:
        size["labels"] = labels
    if mode == "steps":
        _steps(puzzle, fmt, output, cell, time_limit)
        return
    if mode == "solution":
        from nonolab.harness.uniqueness import outcome_of
        found = nonolab.solve(puzzle, max_solutions=1, time_limit=time_limit)
        if found.solution is None:
            _nothing(f"no solution ({outcome_of(found).value})")
        svg = solution_svg(found.solution, puzzle, **size)
    elif mode == "diff":
        answer = nonolab.check(puzzle, time_limit=time_limit)
        if answer.verdict.value != "multiple":
            _nothing(f"{answer.verdict.value}: there are no two solutions to compare")
        svg = diff_svg(*answer.witnesses, puzzle, **size)
    elif mode == "why":
        report = nonolab.ambiguity_report(puzzle, "cnf", time_limit)
        drawn = ambiguity_svg(report, puzzle, **size)
        if drawn is None:
            _nothing(f"{report.verdict.value}: no solution to draw")
        svg = drawn
    else:
        svg = puzzle_svg(puzzle, **size)
    write_picture(svg, fmt, output)


def _nothing(why: str) -> None:
    click.echo(f"nonolab: {why}; nothing drawn", err=True)
    sys.exit(EXIT_NO)


def _steps(puzzle, fmt: str, output: str | None, cell: float, time_limit: float | None) -> None:
    """The native engine's step log (as `explain --backend native` records it), drawn,
    with the verdict of the same run (:func:`nonolab.harness.explanation.explain`)."""
    from nonolab.cli import clock
    from nonolab.cli.interrupt import CANCEL
    from nonolab.harness.explanation import explain
    from nonolab.render import check_drawable, steps_html
    from nonolab.render.steps import steps_svg

    check_drawable(puzzle.width, puzzle.height)   # before the search, not after it
    found = explain(puzzle, "native", clock.left(time_limit), cancel=CANCEL)
    summary = f"{found.summary()} (native backend)"
    if fmt == "html":
        data = steps_html(puzzle, found.steps, cell=cell, summary=summary)
        if output:
            from nonolab.formats import write_atomically
            write_atomically(output, data)
            click.echo(f"wrote HTML to {output} ({summary})", err=True)
        else:
            click.echo(data, nl=False)
    else:
        write_picture(steps_svg(puzzle, found.steps, cell=cell), fmt, output)
    if found.solution is None:
        sys.exit(EXIT_NO)


COMMANDS = (render,)
