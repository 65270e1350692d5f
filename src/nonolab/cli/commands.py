"""The commands.  Each loads, calls the public API, and prints; nothing else."""

from __future__ import annotations

import shutil
import sys
from typing import Any

import click

from nonolab.cli import clock, options, records, sets, streams
from nonolab.cli.interrupt import CANCEL
from nonolab.cli.group import EXIT_NO
from nonolab.errors import InvalidArgument


def _solver(backend: str, probing: str | None, pairs: tuple[str, ...] = (), line: str | None = None,
            **extra: Any):
    from nonolab.cli.backends import build
    return build(backend, pairs, probing, line, **extra)




@click.command()
@options.puzzle_and_solver
@click.option("--max-solutions", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after N distinct solutions (default 1: the first solution; 2 with --check).")
@click.option("--check", "check_unique", is_flag=True,
              help="Count to 2 as well: say whether the solution is unique (unique, multiple).")
@options.time_limit
@click.option("--to", "to_format", default=None, metavar="FMT",
              help="Write the puzzle with its first solution as goal in this format (svg, png, pdf: "
                   "a picture of the solution with its clues).")
@click.option("--output", "-o", default=None, type=options.OUTPUT,
              help="File for --to (default, and -: standard output); format from its suffix if --to is not "
                   "given (for -: the input's format).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar of decided cells on long native runs (default: on a terminal).")
@options.full
@options.given
@options.as_json
def solve(file, input_format, index, backend, probing, line, backend_options, max_solutions, check_unique,
          time_limit, to_format, output, progress, full, givens, as_json):
    """Solve FILE and print its first solution (with --check, also whether it is unique).

    A file holding several puzzles: each is solved in turn, in one process (or only
    --index N).  A first solution says nothing of uniqueness unless the search ended
    (then unique or contradiction); --check, or --max-solutions 2, counts to 2.
    """
    from nonolab.formats import dump, dump_all, dumps, dumps_all
    from nonolab.core.words import counted
    from nonolab.harness.uniqueness import NOT_ASKED, outcome_of
    from nonolab.solvers import Given

    from nonolab.cli.progress import DecidedCells

    from nonolab.solvers import Capability, capabilities_of, parse_spec
    fixed = options.parse_givens(givens)
    if check_unique and max_solutions is not None and max_solutions < 2:
        raise InvalidArgument("--check counts to 2: --max-solutions must be at least 2 with it")
    if max_solutions is None:
        max_solutions = 2 if check_unique else 1

    if output == "-" and not to_format:   # the puzzle with its solution, in the input's format
        from nonolab.formats import detect_format
        to_format = input_format or detect_format(file)
    output = streams.file_or_stdout(output, as_json)
    chosen = sets.load(file, input_format, index)
    solved = []
    several: list[bool] = []   # beside each solved puzzle: --check found a second solution
    writes = bool(to_format or output)
    # A backend that reports decided cells while it works (declared) gets the bar.
    reports_progress = Capability.PROGRESS in capabilities_of(parse_spec(backend)[0])

    def answer(puzzle) -> sets.Answer:
        with DecidedCells(force=bool(progress)) as bar:
            extra = {"progress": bar} if reports_progress and progress is not False else {}
            solver = _solver(backend, probing, backend_options, line, **extra)
            result = solver.solve(puzzle, clock.limits(max_solutions, time_limit), Given.of(options.given_values(fixed, puzzle)))
        verdict = outcome_of(result)     # None: a first solution, uniqueness not asked
        if result.solution is not None and writes:
            solved.append(puzzle.with_(goal=result.solution))
            several.append(verdict is not None and verdict.value == "multiple")
        summary = verdict.value if verdict else f"{NOT_ASKED} (--check counts to 2)"
        summary += (f" ({counted(result.count, 'solution')} found"
                    f"{', exhaustive' if result.complete else ''}; {result.stats.backend}, "
                    f"{result.stats.wall_time:.3f} s)")
        # The solution as text lines is read only as a set's body, and the record only
        # with --json: a single puzzle prints its grid through single() (at 4000x4000
        # each text is 16 MB of string building).
        as_body = not as_json and len(chosen) > 1 and result.solution is not None
        grid = records.picture_text(puzzle, result.solution).splitlines() if as_body else []
        data = {**(records.result_fields(result) if as_json else {}), "verdict": verdict.value if verdict else None}

        def single() -> None:
            if writes and not output:
                return
            if result.solution is not None and not output:  # with -o the solution is in the file
                grid = result.solution
                if full or streams.fits(grid.width, grid.height):
                    from nonolab.cli.render_commands import echo_grid
                    echo_grid(puzzle, grid)          # with its clues at a terminal
                else:
                    click.echo(streams.too_big(grid.width, grid.height, "solution"))
            click.echo(summary, err=bool(result.solution))
        return sets.Answer(data["verdict"], 0 if result.solution is not None else EXIT_NO,
                           data, summary, grid, single)

    from nonolab.cli.render_commands import picture_format, write_solution
    picture = picture_format(to_format, output)          # svg, png, pdf: a picture, not a puzzle file
    if picture and len(chosen) > 1:
        raise click.UsageError(f"a picture holds one puzzle: {file} holds {len(chosen)}; name one with --index")
    if writes and not picture:
        from nonolab.formats import format_to_write
        # An -o whose suffix names no format is refused now, not after the search.
        target = format_to_write(output, to_format) if output else to_format
        if target is not None:
            sets.refuse_writing(chosen, target, output or file)
    quiet = writes and not output and not as_json  # the puzzles go to standard output
    code = sets.run_set(file, input_format, index, as_json, answer, chosen, show=not quiet, time_limit=time_limit)
    if solved and picture:
        write_solution(solved[0], solved[0].goal, picture, output, at_least=2 if several[0] else 1)
    elif solved:
        unread = len(chosen) - len(sets.readable(chosen))   # their errors were their answers
        if len(solved) < len(chosen) - unread:
            click.echo(f"nonolab: {len(chosen) - unread - len(solved)} of {len(chosen)} puzzles have no solution "
                       "found and are not written", err=True)
        if unread:
            click.echo(f"nonolab: {unread} of {len(chosen)} puzzles could not be read and are not written", err=True)
        if output and len(chosen) == 1:
            dump(solved[0], output, to_format)
        elif output:
            dump_all(solved, output, to_format)
        elif len(chosen) == 1:
            click.echo(dumps(solved[0], to_format), nl=False)
        else:
            click.echo(dumps_all(solved, to_format), nl=False)
    if code:
        sys.exit(code)


@click.command()
@options.puzzle_and_solver
@options.time_limit
@options.full
@options.as_json
@click.option("--why", is_flag=True,
              help="Explain the ambiguity: the backbone (cells equal in every solution, exact), the "
                   "regions where solutions differ, and greedy givens that make the puzzle unique. "
                   "Uses the backend if it is a solver that can fix cells (see nonolab backends), else cnf "
                   "(native for a grid beyond cnf's model guard).")
@click.option("--why-image", default=None, metavar="PATH", type=options.OUTPUT,
              help="Also draw the regions and givens: PNG if PATH ends in .png, else SVG (implies --why; "
                   "one puzzle: in a set, name it with --index).")
@click.option("--why-enumerate", type=click.IntRange(min=1), default=256, show_default=True, metavar="N",
              help="With --why (implied): enumerate up to N solutions, and N arrangements per group of free "
                   "cells; within it counts and regions are exact.")
@click.option("--report", "as_report", is_flag=True,
              help="The designer's report: verdict, grade, numeric difficulty, warnings, and for a puzzle "
                   "with several solutions an alternative, the regions, givens and the fewest cell flips "
                   "of the picture that make it unique (each proven by an exact count).")
@click.option("--certify", "certify_dir", default=None, metavar="DIR", type=click.Path(file_okay=False),
              help="Also write a certificate into DIR (a set: one sub-folder per puzzle): the puzzle, its CNF, "
                   "and a DRAT proof (unique, contradiction) or two solutions (multiple) that public tools "
                   "check; see `nonolab certify-check`.")
@options.given
def check(file, input_format, index, backend, probing, line, backend_options, time_limit, full, as_json, why, why_image,
          why_enumerate, as_report, certify_dir, givens):
    """Print one word: unique, multiple, contradiction or timeout.

    For a puzzle with several solutions, also print two of them and the cells
    where they differ (with --why: where and how all of them differ).  Exit code 0
    only for unique.  A file holding several puzzles: one line (or block) per
    puzzle, `#2 "Title": multiple`, then a summary; exit code 0 only if every
    puzzle is unique.
    """
    from nonolab.harness.uniqueness import Verdict, check as check_puzzle
    from nonolab.solvers import Given

    fixed = options.parse_givens(givens)
    if options.given_on_command_line("why_enumerate"):   # as --why-image, it asks for --why
        if as_report:
            raise InvalidArgument("--why-enumerate goes with --why, not --report")
        why = True
    if fixed and (why or why_image or as_report):
        raise InvalidArgument("--given works with plain check, solve and count, not with --why or --report")
    if certify_dir is not None and (fixed or why or why_image):
        raise InvalidArgument("--certify certifies the plain check or --report: not with --given or --why")
    chosen = sets.load(file, input_format, index)
    solver = _solver(backend, probing, backend_options, line)
    if certify_dir is not None and not as_report:
        from nonolab.cli import certify_commands
        code = certify_commands.run(file, input_format, index, solver, time_limit, as_json, certify_dir, chosen)
        if code:
            sys.exit(code)
        return
    if as_report:
        if why or why_image:
            raise InvalidArgument("--report already holds what --why shows: give one of them")
        from nonolab.cli import certify_commands, report_commands
        where = certify_commands.places(file, chosen, certify_dir) if certify_dir is not None else {}
        code = sets.run_set(file, input_format, index, as_json,
                            lambda p: report_commands.answer(p, solver, clock.left(time_limit), full,
                                                             where.get(id(p))), chosen,
                            time_limit=time_limit)
        if code:
            sys.exit(code)
        return
    if why or why_image:
        from nonolab.cli import why as explain_why
        if why_image and len(chosen) > 1:
            raise InvalidArgument(f"{file}: --why-image draws one puzzle and the file holds {len(chosen)}: "
                                  "choose one with --index N")
        code = sets.run_set(file, input_format, index, as_json,
                            lambda p: explain_why.answer(p, solver, clock.left(time_limit), why_image, why_enumerate,
                                                        full), chosen, time_limit=time_limit)
        if code:
            sys.exit(code)
        return

    def answer(puzzle) -> sets.Answer:
        from nonolab.cli.progress import DecidedCells
        with DecidedCells(what="checking"):
            found = check_puzzle(puzzle, solver, clock.left(time_limit), cancel=CANCEL, given=Given.of(options.given_values(fixed, puzzle)))
        # The record (every solution as text) only for --json: a 4000x4000 one is 16 MB of rows.
        data = {**records.result_fields(found.result), "verdict": found.verdict.value,
                "differing_cells": [list(rc) for rc in found.differing]} if as_json else {}
        body = []
        if found.verdict is Verdict.MULTIPLE:
            from nonolab.render import diff_text  # the pictures only for a puzzle that needs them

            first, second = found.witnesses
            body = [f"{len(found.differing)} cells differ (row, column, 1-based): "
                    + streams.cell_list(found.differing, full)]
            if full or streams.fits(first.width, first.height):
                body += ["solution 1, solution 2, differing cells (*):", diff_text(first, second, puzzle.chars)]
            else:
                body.append(streams.too_big(first.width, first.height, "the two solutions and their difference"))
        return sets.Answer(found.verdict.value, 0 if found.verdict is Verdict.UNIQUE else EXIT_NO, data,
                           found.verdict.value, body)

    code = sets.run_set(file, input_format, index, as_json, answer, chosen, time_limit=time_limit)
    if code:
        sys.exit(code)


@click.command()
@options.puzzle_and_solver
@click.option("--limit", "--max-solutions", "limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop counting at N (then the answer is 'at least N').")
@options.time_limit
@options.given
@options.as_json
def count(file, input_format, index, backend, probing, line, backend_options, limit, time_limit, givens, as_json):
    """Count the solutions of FILE exactly (or 'at least N' when cut by a limit).

    A file holding several puzzles: one line per puzzle, then a summary.
    """
    from nonolab.harness.uniqueness import count as count_puzzle, outcome_of
    from nonolab.solvers import Given

    solver = _solver(backend, probing, backend_options, line)
    fixed = options.parse_givens(givens)

    def answer(puzzle) -> sets.Answer:
        from nonolab.cli.progress import DecidedCells
        with DecidedCells(what="counting"):
            found = count_puzzle(puzzle, solver, limit, clock.left(time_limit), cancel=CANCEL, given=Given.of(options.given_values(fixed, puzzle)))
        data = records.result_fields(found.result, solutions=False)
        outcome = outcome_of(found)     # None: --limit 1 reached, so uniqueness was not asked
        verdict = outcome.value if outcome is not None else None
        data.update(count=found.count, exact=found.exact, stopped_by=found.reason or None, verdict=verdict)
        return sets.Answer(verdict, EXIT_NO if found.reason == "timeout" else 0, data, found.describe())

    code = sets.run_set(file, input_format, index, as_json, answer, time_limit=time_limit)
    if code:
        sys.exit(code)


@click.command()
@options.puzzle_file
@options.input_format
@sets.index_option
@options.backend
@options.probing
@options.line
@options.backend_option
@options.time_limit
@click.option("--every", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Print the grid after every N-th step (and after the last).")
@click.option("--no-grid", is_flag=True, help="Print the steps only.")
@options.as_json
def explain(file, input_format, index, backend, probing, line, backend_options, time_limit, every, no_grid, as_json):
    """Print the deductions that solve FILE, step by step, with the grid after each.

    The last line gives the verdict (unique, multiple, contradiction, timeout), from
    a count to 2 in the same run: the steps lead to the first solution found, and
    steps of search, not deduction, are marked "(search)".  Exit code 0 only for
    unique.  The backend must record its steps (native, auto: native deductions, then
    one cdcl step if they stall).  Techniques: line (the complete line solver, or
    enumerate), simple-overlap, block-capping and clue-exhaustion (with --line
    chain-range or overlap), contradiction-probe, both-branches-agree (fully
    probing), depth-2-probe, guess (a native search branch: search) and cdcl (what
    clause learning decided after auto's hand-off: search).  Changed cells are shown as X (filled)
    and O (empty); in a colour puzzle the grid shows the palette's chars, with the
    step's cells alone beside it.  A file holding several puzzles: each in turn, then
    a summary.
    """
    if (no_grid or as_json) and options.given_on_command_line("every"):
        raise InvalidArgument("--every picks the grids to print: not with " + ("--no-grid" if no_grid else
                                                                              "--json (its record has no grids)"))
    from nonolab.cli.backends import build_recording
    from nonolab.cli.streams import fits, too_big
    from nonolab.formats.limits import check_memory
    from nonolab.harness.explanation import RECORD_BYTES_PER_CELL, explain as explain_puzzle
    from nonolab.render import grid_text, ruled_out_text
    from nonolab.solvers import bytes_per_cell, replay

    solver = build_recording(backend, backend_options, probing, line)
    columns = shutil.get_terminal_size().columns   # what a step ruled out is wrapped to it

    def answer(puzzle) -> sets.Answer:
        if as_json:   # the engine with its step log, and the record beside it, held to the budget first
            engine = bytes_per_cell(solver, puzzle)
            check_memory("explain --json", puzzle.width, puzzle.height, engine + RECORD_BYTES_PER_CELL)
        found = explain_puzzle(puzzle, solver, clock.left(time_limit), cancel=CANCEL)
        steps = found.steps
        lines: list[str] = []
        last = len(steps)
        chars = puzzle.chars if puzzle.is_colour else None
        shown = fits(puzzle.width, puzzle.height)
        # The grid is replayed only to be shown: without it each step is one line, and a
        # grid too big to show is not rebuilt cell by cell (100 M cells of a blank grid).
        replayed = replay(puzzle, steps) if shown and not no_grid else ((step, None) for step in steps)
        for number, (step, grid) in enumerate(replayed if not as_json else (), 1):
            if time_limit is not None and clock.elapsed() >= time_limit:   # the command's clock holds here too
                lines.append(f"... {last - number + 1:,} more steps not shown: --time-limit ran out")
                break
            lines.append(f"step {number}: {step.describe()}")
            if not no_grid and (number % every == 0 or number == last):
                lines += [grid_text(grid, [(r, c) for r, c, _ in step.cells], chars) if grid is not None
                          else too_big(puzzle.width, puzzle.height, "grid")]
                if step.ruled_out and grid is not None:   # (the grid shows such cells as ?)
                    lines.append(ruled_out_text(step.ruled_out, chars, columns))
                lines.append("")
        headline = found.summary()

        def single() -> None:
            for text in lines:
                click.echo(text)
            click.echo(headline)
        verdict = found.verdict.value
        # The record lists every cell of every step: made only when JSON is asked for, and
        # its steps written a piece at a time (records.Streamed), never held whole, each only
        # while it fits in the command's time (the rest counted in steps_cut, as the text's
        # "more steps not shown": the verdict, and so the exit code, stand).
        data = records.explain_fields(found, clock.budget(time_limit).deadline) if as_json else {}
        return sets.Answer(verdict, 0 if verdict == "unique" else EXIT_NO, data, headline, lines, single)

    code = sets.run_set(file, input_format, index, as_json, answer, time_limit=time_limit)
    if code:
        sys.exit(code)


@click.command()
@click.argument("source", type=options.InputPath(dir_okay=False, path_type=str))
@click.argument("target", type=options.OUTPUT)
@options.input_format
@options.output_format
def convert(source, target, input_format, to_format):
    """Convert SOURCE to TARGET (every puzzle of a multi-puzzle file).

    TARGET may not be SOURCE itself, under any name (a link, ./a.non): the written
    file holds what the format keeps of the puzzle, not the source's comments or
    layout, so the source would be lost; write to another file.
    """
    from nonolab.core.words import counted
    from nonolab.formats import dump, dump_all, load_all

    puzzles = load_all(source, input_format)
    if len(puzzles) == 1:
        dump(puzzles[0], target, to_format)
    else:
        dump_all(puzzles, target, to_format)
    where = "standard output" if target == "-" else target
    click.echo(f"wrote {counted(len(puzzles), 'puzzle')} to {where}", err=True)


@click.command()
@options.puzzle_file
@options.input_format
@sets.index_option
@options.as_json
def info(file, input_format, index, as_json):
    """Size, clue statistics and format of FILE (of each puzzle of a set, or of --index N)."""
    from nonolab.core import statistics
    from nonolab.formats import detect_format

    fmt = input_format or detect_format(file)

    def answer(puzzle) -> sets.Answer:
        data = {"format": fmt, **statistics(puzzle)}
        lines = []
        for key, value in {"file": file, **data}.items():
            if key == "metadata":
                lines += [f"{k + ':':<21} {v}" for k, v in value.items()]
            else:
                shown = ", ".join(value) if isinstance(value, list) else value
                lines.append(f"{key.replace('_', ' ') + ':':<21} {shown}")
        del data["name"]  # the record's title
        return sets.Answer(None, 0, data, "", lines)

    code = sets.run_set(file, fmt, index, as_json, answer)
    if code:   # a puzzle of the set that could not be read
        sys.exit(code)


COMMANDS = (solve, check, count, explain, convert, info)
