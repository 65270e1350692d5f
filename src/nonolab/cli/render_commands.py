"""``render``: pictures of a puzzle, its solution, two solutions, the ambiguity map or
the steps of ``explain``; and the picture writer ``solve --to svg|png|pdf`` uses."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from nonolab.cli import clock, options, sets
from nonolab.cli.group import EXIT_NO
from nonolab.core.words import counted

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
        sys.stdout.buffer.write(data)   # the stream click writes to


def write_solution(puzzle, solution, fmt: str, output: str | None, cell: float = 20, at_least: int = 1) -> None:
    """The picture of ``solve --to svg|png|pdf``: the solution with its clues (PDF on an A4 page),
    noted in the picture as one of ``at_least`` solutions when that is 2 or more."""
    from nonolab.render import solution_svg
    page = "a4" if fmt == "pdf" else None
    write_picture(solution_svg(solution, puzzle, cell=cell, page=page, at_least=at_least), fmt, output)


def echo_grid(puzzle, solution, terminal: bool | None = None) -> None:
    """Print ``solution``: at a terminal, with its clues beside it in colour (rich; a
    colour puzzle in its RGB colours with a legend), one character a cell when that is
    what fits the terminal's width, and else the plain rows with a note saying so;
    piped or to a file, as the plain text rows (``#``/``.``, or the palette's characters)
    that scripts read."""
    import shutil

    if terminal is None:
        terminal = sys.stdout.isatty()
    if terminal:
        from rich.console import Console

        from nonolab.render.terminal import grid_with_clues
        columns = shutil.get_terminal_size().columns
        for compact in (False, True):
            picture = grid_with_clues(puzzle, solution, compact=compact)
            if picture.width <= columns:
                Console(width=columns).print(picture)
                if compact:
                    click.echo(f"(drawn one character a cell to fit {columns} columns; a wider terminal shows the "
                               "column clues)", err=True)
                return
        click.echo(f"(the grid with its clues needs {picture.width} columns, the terminal has {columns}: printed "
                   "as plain rows; page it sideways with: nonolab solve FILE | less -S)", err=True)
    click.echo(solution.to_text(chars=puzzle.chars))


MODES = ("solution", "diff", "why", "steps")

# The printing options each kind of PDF uses; any other one given is refused, not dropped.
_FOOTER = ("title", "author", "copyright", "source")
_PRINTED = {"pages": ("tiles", "solution_page", *_FOOTER), "sheet": ("sheet", *_FOOTER)}


def _one_mode(command):
    """``--solution``, ``--diff``, ``--why``, ``--steps`` as one ``mode`` (or ``None``): two of
    them draw different pictures, so naming two is refused rather than one kept."""
    import functools

    @functools.wraps(command)
    def with_mode(**kwargs):
        given = [name for name in MODES if kwargs.pop(f"mode_{name}")]
        if len(given) > 1:
            raise click.UsageError(f"--{given[0]} and --{given[1]} draw different pictures: choose one")
        return command(mode=given[0] if given else None, **kwargs)
    return with_mode


def _unused_printing(printing: dict, sheet: bool, mode: str | None) -> None:
    """Refuse printing options the PDF asked would not use: a sheet prints puzzles (no
    tiles, no solution page); --diff, --why and --steps are drawn, not printed."""
    from nonolab.errors import InvalidArgument

    if sheet and mode is not None:
        raise InvalidArgument(f"--sheet prints puzzles, not --{mode}: draw that one file at a time")
    kind = "sheet" if sheet else ("pages" if mode in (None, "solution") else None)
    for key, value in printing.items():
        if value and (kind is None or key not in _PRINTED.get(kind, ())):
            name = f"--{key.replace('_', '-')}"
            raise InvalidArgument(f"{name} is not for {'--sheet' if sheet else '--' + str(mode)}: "
                                  f"{'it prints several puzzles a page' if sheet else 'that picture is drawn on one page, not printed'}")


def _unused_drawing(printed: bool, mode: str | None, labels: bool | None) -> None:
    """Refuse the drawing options the picture asked would not use: printed pages scale their
    cells to the page and number no line; the stepper is drawn for a screen, unnumbered."""
    from nonolab.errors import InvalidArgument

    if not printed and mode != "steps":
        return
    typed = [f"--{name}" for name in (("cell",) if printed else ("page",)) if options.given_on_command_line(name)]
    if labels is not None:
        typed.append("--labels" if labels else "--no-labels")
    if typed:
        why = ("printed pages scale their cells to the page (--page, --tiles) and number no line" if printed
               else "the stepper is drawn for a screen (--cell sizes it), its lines unnumbered")
        raise InvalidArgument(f"{' and '.join(typed)} {'is' if len(typed) == 1 else 'are'} not for "
                              f"{'a printed PDF' if printed else '--steps'}: {why}")


@click.command()
@click.argument("files", nargs=-1, required=True, type=options.InputPath(dir_okay=False, path_type=str), metavar="FILE...")
@options.input_format
@sets.index_option
@click.option("--solution", "mode_solution", is_flag=True,
              help="The solution (found with the auto backend, counted to 2: said when it is one of several).")
@click.option("--diff", "mode_diff", is_flag=True,
              help="Two solutions side by side, the cells where they differ framed in red.")
@click.option("--why", "mode_why", is_flag=True,
              help="The ambiguity map of `check --why`: regions where solutions differ, suggested givens.")
@click.option("--steps", "mode_steps", is_flag=True,
              help="The steps of `explain` (its answer, from the same backend): an HTML page with a slider, one frame per step.")
@click.option("--to", "to_format", type=click.Choice(RENDER_FORMATS, case_sensitive=False), default=None,
              help="Picture format (default: from -o's suffix, else svg; html for --steps).")
@click.option("--output", "-o", default=None, type=options.OUTPUT,
              help="Output file (default: standard output).")
@click.option("--cell", type=options.FiniteRange(min=2, max=200), default=20, show_default=True, metavar="PX",
              help="Cell size in pixels (a PNG's size follows it).")
@click.option("--page", type=click.Choice(["a4", "a3", "letter"], case_sensitive=False), default=None,
              help="Print on this page size, clues at least 6 pt (default for PDF: a4); a PDF too large "
                   "for one page is tiled over several, their overlap marked.")
@click.option("--tiles", default=None, metavar="DOWNxACROSS",
              help="PDF: print on this many pages (e.g. 2x2) instead of the fewest that keep the clues legible.")
@click.option("--solution-page", is_flag=True,
              help="PDF: add the solution after the puzzle (its satisfied clues struck through).")
@click.option("--sheet", is_flag=True,
              help="PDF: several puzzles (FILE...) on each page, as many as print legibly.")
@click.option("--title", default=None, help="PDF footer: the title (default: the puzzle's).")
@click.option("--author", default=None, help="PDF footer: the author (default: the file's 'by'/'author').")
@click.option("--copyright", "copyright_", default=None,
              help="PDF footer: the copyright (default: the file's 'copyright'/'license').")
@click.option("--source", default=None, help="PDF footer: the source (default: the file's 'source'/'url').")
@click.option("--labels/--no-labels", default=None,
              help="Row and column numbers (default: on for --diff and --why).")
@options.time_limit
@_one_mode
def render(files, input_format, index, mode, to_format, output, cell, page, tiles, solution_page, sheet, title, author,
           copyright_, source, labels, time_limit):
    """Draw FILE: the puzzle with its clues (printable), or with --solution, --diff,
    --why or --steps what those find.  A PDF is made to print: tiled when large, with a
    footer, a solution page (--solution-page), or several puzzles a page (--sheet FILE...).
    Exit code 1 when there is nothing to draw (no solution; a single solution for --diff)."""
    import nonolab
    from nonolab.errors import InvalidArgument
    from nonolab.render import ambiguity_svg, check_drawable, diff_svg, puzzle_svg, solution_svg

    fmt = (to_format or (Path(output).suffix[1:] if output else "") or ("html" if mode == "steps" else "svg")).lower()
    if fmt not in RENDER_FORMATS:
        raise InvalidArgument(f"unknown picture format {fmt!r} (from {output}): use --to "
                              + "|".join(RENDER_FORMATS))
    if mode == "steps" and fmt not in ("html", "svg"):
        raise InvalidArgument("--steps draws a sequence: use --to html (or svg, every step shown)")
    if mode != "steps" and fmt == "html":
        raise InvalidArgument("html is the format of --steps")
    page = page.lower() if page else ("a4" if fmt == "pdf" else None)
    printing = {"tiles": tiles, "solution_page": solution_page, "sheet": sheet, "title": title, "author": author,
                "copyright": copyright_, "source": source}
    asked = [f"--{k.replace('_', '-')}" for k, v in printing.items() if v]
    if asked and fmt != "pdf":
        raise InvalidArgument(f"{', '.join(asked)} are for printed pages: write a PDF (--to pdf or -o FILE.pdf)")
    _unused_printing(printing, sheet, mode)
    _unused_drawing(sheet or (fmt == "pdf" and mode in (None, "solution")), mode, labels)
    if sheet and index is not None:
        raise InvalidArgument("--index is not for --sheet: a sheet prints every puzzle of its files")
    if len(files) > 1 and not sheet:
        raise click.UsageError("several files make a sheet: add --sheet (or draw one file at a time)")
    if sheet or (fmt == "pdf" and mode in (None, "solution")):
        _print(files, (input_format, index), mode, output, page, printing, time_limit)
        return
    puzzle = sets.one(files[0], input_format, index, "a picture draws one of them")
    size = {"cell": cell, "page": page}
    if labels is not None:
        size["labels"] = labels
    if mode == "steps":
        _steps(puzzle, fmt, output, cell, time_limit)
        return
    check_drawable(puzzle.width, puzzle.height)   # before a search whose answer could not be drawn
    if fmt == "png":   # every mode draws at least the puzzle's board: a PNG too large for it, before the search
        from nonolab.render.convert import check_png
        check_png(puzzle_svg(puzzle, **size))
    if mode == "solution":
        solution, at_least, unknown = _solution_to_draw(puzzle, time_limit)
        svg = solution_svg(solution, puzzle, **size, at_least=at_least)
        write_picture(svg, fmt, output)
        if at_least > 1 or unknown:
            click.echo(f"{unknown or 'multiple'}: drawn {_which(at_least, unknown)}", err=True)
        return
    elif mode == "diff":
        answer = nonolab.check(puzzle, time_limit=clock.left(time_limit))
        if answer.verdict.value != "multiple":
            cut = answer.verdict.value in ("timeout", "interrupted")
            _nothing(f"{answer.verdict.value}: " + ("two solutions not found in time" if cut
                                                    else "there are no two solutions to compare"))
        svg = diff_svg(*answer.witnesses, puzzle, **size)
    elif mode == "why":
        from nonolab.cli.interrupt import CANCEL
        from nonolab.harness.ambiguity import why_report
        report = why_report(puzzle, time_limit=clock.left(time_limit), cancel=CANCEL)   # check --why's, of its default backend
        drawn = ambiguity_svg(report, puzzle, **size)
        if drawn is None:
            from nonolab.cli.why import no_solution
            _nothing(f"{no_solution(report.verdict.value)} to draw")
        svg = drawn
        if not report.complete:   # said where it is read, as --solution says a count cut short
            write_picture(svg, fmt, output)
            word = "interrupted" if CANCEL.is_set() else "timeout"
            click.echo(f"{word}: drawn what was found before the limit (the map is not complete)", err=True)
            return
    else:
        svg = puzzle_svg(puzzle, **size)
    write_picture(svg, fmt, output)


def _print(files, reading: tuple[str | None, int | None], mode, output, page, printing, time_limit) -> None:
    """The PDF of ``render``: printed pages (tiled when large), or a sheet of several puzzles.
    ``reading``: the input format and --index."""
    import nonolab
    from nonolab.render.convert import to_pdf_pages
    from nonolab.render.printing import Footer, print_pages, sheet_pages

    given = {k: printing[k] for k in ("title", "author", "copyright", "source")}
    if printing["sheet"]:
        from nonolab.formats.limits import one_set

        # A puzzle without a title is named by its file, so the sheet says which is which.  The
        # FILEs are one set, held together to the set limit (NONOLAB_MAX_PUZZLES).
        puzzles = []
        with one_set("the FILEs of a sheet") as held:
            for f in files:
                found = nonolab.load_all(f, reading[0])
                held.add(len(found), f)
                puzzles += [p if p.name else p.with_(name=Path(f).stem) for p in found]
        pages = sheet_pages(puzzles, page=page, footer=Footer(**{k: v or "" for k, v in given.items()}))
        what = counted(len(puzzles), "puzzle")
    else:
        puzzle = sets.one(files[0], reading[0], reading[1], "a PDF prints one of them (or all: --sheet)")
        solution, at_least, unknown = puzzle.goal, 1, ""
        if mode == "solution" or (printing["solution_page"] and solution is None):
            solution, at_least, unknown = _solution_to_draw(puzzle, time_limit)
        one_of = _which(at_least, unknown) if at_least > 1 or unknown else ""
        pages = print_pages(puzzle, page=page, tiles=_tiles(printing["tiles"]), solution=solution,
                            solution_page=printing["solution_page"] or mode == "solution",
                            puzzle_page=mode != "solution", footer=Footer.of(puzzle, **given), at_least=at_least)
        what = (one_of or "the solution") if mode == "solution" else "the puzzle" + (
            f" and {one_of or 'its solution'}" if printing["solution_page"] else "")
        what = f"{unknown or 'multiple'}: {what}" if one_of else what
    write_picture_bytes(to_pdf_pages(pages), output,
                        f"{counted(len(pages), 'page')} of {page}: {what}")


def _solution_to_draw(puzzle, time_limit):
    """The first solution of ``puzzle``, how many solutions a count to 2 found (2 when it
    is one of several, else 1), and, when the count was cut short, its outcome word
    (timeout, interrupted; else ""): a picture of one solution of a multiple puzzle must
    not pass for the solution, nor one whose uniqueness is not known.  Exits 1 when there
    is none to draw."""
    import nonolab
    from nonolab.harness.uniqueness import verdict_of

    found = nonolab.solve(puzzle, max_solutions=2, time_limit=clock.left(time_limit))   # what the command has left
    if found.solution is None:   # none found: contradiction, or stopped before the first
        from nonolab.cli.why import no_solution
        _nothing(no_solution(verdict_of(found).value))
    word = verdict_of(found).value
    return found.solution, 2 if word == "multiple" else 1, "" if word in ("unique", "multiple") else word


def _which(at_least: int, unknown: str) -> str:
    """Which solution a picture shows, in words, when it is not the only one or not known to be."""
    if unknown:
        return "a solution; whether it is the only one is not known (the count to 2 was cut short)"
    return f"one of at least {at_least} solutions (check --why: where they differ)"


def _tiles(text: str | None) -> tuple[int, int] | None:
    import re

    from nonolab.errors import InvalidArgument
    if text is None or text.lower() == "auto":
        return None
    found = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not found or not all(int(n) >= 1 for n in found.groups()):
        raise InvalidArgument(f"--tiles {text}: expected DOWNxACROSS pages, e.g. 2x2 (or auto)")
    return int(found[1]), int(found[2])


def write_picture_bytes(data: bytes, output: str | None, what: str) -> None:
    """PDF ``data`` to ``output`` (atomically), or to standard output when it is not a terminal."""
    from nonolab.errors import InvalidArgument
    if output:
        from nonolab.formats import write_atomically
        write_atomically(output, data)
        click.echo(f"wrote PDF to {output} ({what})", err=True)
    elif sys.stdout.isatty():
        raise InvalidArgument("PDF is binary: give an output file with -o FILE")
    else:
        sys.stdout.buffer.write(data)   # the stream click writes to


def _nothing(why: str) -> NoReturn:
    click.echo(f"nonolab: {why}; nothing drawn", err=True)
    sys.exit(EXIT_NO)


def _steps(puzzle, fmt: str, output: str | None, cell: float, time_limit: float | None) -> None:
    """The step log of `explain` (the library's one answer, :func:`nonolab.harness.explanation.explain`,
    with its default backend: native's deductions, then one cdcl step when they stall), drawn,
    with the verdict of the same run."""
    from nonolab.cli.interrupt import CANCEL
    from nonolab.harness.explanation import explain
    from nonolab.render import check_drawable, steps_html
    from nonolab.render.steps import steps_svg

    check_drawable(puzzle.width, puzzle.height)   # before the search, not after it
    found = explain(puzzle, time_limit=clock.left(time_limit), cancel=CANCEL)
    summary = found.summary()
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
