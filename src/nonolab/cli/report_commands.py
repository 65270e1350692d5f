"""``check --report`` (the designer's report as text or JSON) and ``repair`` (write the repaired puzzle)."""

from __future__ import annotations

import sys

import click

from nonolab.cli import clock, options, sets, streams
from nonolab.cli.interrupt import CANCEL
from nonolab.cli.group import EXIT_NO
from nonolab.core.words import counted


def _repair_lines(repaired, full: bool, puzzle) -> list[str]:
    """The repair part of the report: the fewest flips, and each repair before and after."""
    from nonolab.cli import streams
    from nonolab.render import diff_text
    from nonolab.render.text import LIMIT_FIRST

    if repaired.status == "unique":
        return []
    if not repaired.suggestions:
        why = f"timeout ({LIMIT_FIRST})" if repaired.status == "timeout" else "none found within the limits"
        bound = f"; at least {repaired.lower_bound} flips are needed" if repaired.lower_bound else ""
        return [f"repair: {why}{bound}"]
    best = repaired.best
    n = len(best.flips)
    how = ("the fewest possible (every smaller set of flips was ruled out)" if repaired.minimal
           else f"greedy, not proven the fewest (at least {repaired.lower_bound} needed)")
    out = [f"repair: {counted(n, 'cell flip')} of the {repaired.source} (solution 1) make{'s' * (n == 1)} the "
           f"puzzle unique, {how}; each checked by an exact count:"]
    for k, s in enumerate(repaired.suggestions, 1):
        out.append(f"  {k}. {s.describe()}: {'unique' if s.unique else 'NOT unique'}")
        out += [f"     {kind} {i + 1}: {puzzle.blocks_label(before)} -> {puzzle.blocks_label(after)}"
                for kind, i, before, after in s.lines]
    after = best.puzzle.goal
    if after is not None and repaired.picture is not None:
        if full or streams.fits(after.width, after.height):
            out += ["before (solution 1), after, flipped cells (*) of repair 1:",
                    diff_text(repaired.picture, after, puzzle.chars)]
        else:
            out.append(streams.too_big(after.width, after.height, "the picture before and after"))
    return out


def _ambiguity_lines(amb, puzzle, stopped: str) -> list[str]:
    """How many solutions, and the regions where they differ, as far as they were proven."""
    from nonolab.render.text import LIMIT_FIRST

    from nonolab.cli.why import _cells

    count = f"{amb.solution_count} solutions" if amb.count_exact else f"at least {amb.solution_count} solutions"
    if not amb.regions_known:     # the cells that differ were not all found or placed: no region is known
        return [f"{count}; regions where they differ: {stopped} (not computed: {LIMIT_FIRST})"]
    n = len(amb.regions)
    out = [f"{count}; {counted(n, 'region')} where they differ:"]
    out += [f"  {chr(ord('a') + k % 26)}: {r.describe()}" for k, r in enumerate(amb.regions)]
    unplaced = amb.unplaced()
    if unplaced:
        out.append(f"  {counted(len(unplaced), 'cell')} where solutions differ not placed in a region: {stopped}")
    if amb.givens_unique:
        given = _cells(amb.givens, None if puzzle.is_colour else puzzle.value_label)   # as --given reads them
        out.append(f"givens instead of a repair (greedy): reveal {len(amb.givens)}, e.g. --given '{given}'")
    return out


def report_lines(rep, full: bool = False) -> list[str]:
    """The report as text; the first line is the verdict.  Every picture is the report's
    ``solution`` (and ``alternative``): the one the ambiguity report and the repair start from."""
    from nonolab.cli import streams
    from nonolab.render import diff_text
    from nonolab.render.text import LIMIT_FIRST

    stopped = rep.stopped.value if rep.stopped is not None else "timeout"
    out = [rep.verdict.value]
    graded = rep.grade
    if graded is not None and graded.grade is not None:
        out.append(f"grade: {graded.grade.value} (pbnsolve class: {graded.grade.pbnsolve_class}); "
                   f"difficulty {rep.difficulty:.3f} (0-1 line, 1-4 probing, 4-5 search)")
    elif rep.verdict.value == "contradiction":
        out.append("grade: not graded (a puzzle with no solution has no grade)")
    elif rep.verdict.value in ("unique", "multiple"):
        out.append(f"grade: {stopped} (not reached: {LIMIT_FIRST})")
    for w in rep.warnings:
        out.append(f"warning: {w.message}")
    if rep.verdict.value == "multiple":
        first, second = rep.solution, rep.alternative
        out.append(f"{len(rep.differing)} cells differ between two solutions (row, column, 1-based): "
                   + streams.cell_list(rep.differing, full))
        if full or streams.fits(first.width, first.height):
            label = "solution 1 (the goal)" if rep.puzzle.goal is not None else "solution 1"
            out += [f"{label}, solution 2, differing cells (*):", diff_text(first, second, rep.puzzle.chars)]
        if rep.ambiguity is not None:
            out += _ambiguity_lines(rep.ambiguity, rep.puzzle, stopped)
        if rep.repair is not None:
            out += _repair_lines(rep.repair, full, rep.puzzle)
    if not rep.complete:
        out.append(f"({stopped}: {LIMIT_FIRST}; part of the report is missing)" if stopped == "timeout"
                   else "(interrupted: part of the report was not finished)")
    out.append(f"{rep.time:.3f} s, backend {rep.backend}")
    return out


def answer(puzzle, solver, time_limit: float | None, full: bool = False, certify_into=None) -> sets.Answer:
    """One puzzle's report (a :class:`nonolab.cli.sets.Answer`); with ``certify_into`` (a
    folder), its certificate too: a "certified" line and the JSON's ``certificate``."""
    from nonolab.harness.report import report
    from nonolab.solvers import Budget

    budget = Budget(time_limit, CANCEL)   # the report, then the certificate, share it
    rep = report(puzzle, solver, time_limit, cancel=CANCEL)
    lines = report_lines(rep, full)
    data = rep.as_dict()
    if certify_into is not None:
        from nonolab.certify import certify
        from nonolab.cli.certify_commands import note

        made = certify(puzzle, certify_into, solver, budget.time_limit(), cancel=CANCEL)
        lines.insert(1, note(made))
        data["certificate"] = made.as_dict()
    return sets.Answer(rep.verdict.value, 0 if rep.verdict.value == "unique" else EXIT_NO, data, lines[0],
                       lines[1:])


@click.command()
@options.puzzle_file
@options.input_format
@sets.index_option
@options.backend
@options.backend_option
@options.time_limit
@click.option("--max-flips", type=click.IntRange(min=1), default=3, show_default=True, metavar="K",
              help="Search every set of up to K flips for the fewest (beyond, a greedy repair).")
@click.option("--givens", "as_givens", is_flag=True,
              help="Keep the picture and reveal cells as givens instead (greedy, as check --why finds them; "
                   "the result checked unique by an exact count); written in a format that holds givens "
                   "(json, non, tatham).")
@click.option("--output", "-o", default=None, type=options.OUTPUT,
              help="Write the repaired puzzle(s) here (default, and -: standard output).")
@click.option("--to", "to_format", default=None, metavar="FMT",
              help="Output format (default: from --output's suffix, else the input's format).")
@options.as_json
def repair(file, input_format, index, backend, backend_options, time_limit, max_flips, as_givens, output, to_format,
           as_json):
    """Make FILE unique by flipping the fewest cells of its picture, and write the result.

    The picture is the puzzle's goal if the file has one, else its first solution.  In
    colour a changed cell takes another colour of the palette or the background.
    Each repair is proven by an exact count to 2.  With --givens the clues stay and the
    puzzle reveals cells instead.  A puzzle that is already unique is written unchanged.
    Every puzzle of a set is repaired.  Exit code 1 if some puzzle could not be made
    unique within the limits (it is written unchanged).  Interrupted (Ctrl-C, SIGTERM),
    nothing is written.
    """
    from nonolab.cli.backends import build
    from nonolab.errors import InvalidArgument, NonolabError
    from nonolab.formats import detect_format, dump, dump_all, dumps, dumps_all, givens_formats, holds_givens

    output = streams.file_or_stdout(output, as_json)   # -o -: standard output, the answers on stderr
    chosen = sets.whole(sets.load(file, input_format, index))   # the set is written back: every puzzle read
    fmt = to_format or (None if output else input_format or detect_format(file))
    target = fmt or (None if not output else _format_of(output))
    if target is not None and (output or not as_json):
        sets.refuse_writing(chosen, target, output or file)
    if as_givens:
        if target is not None and not holds_givens(target):
            holding = givens_formats(colour=any(p.is_colour for _, p in chosen))
            raise InvalidArgument(f"--givens: the {target!r} format cannot hold givens (write {', '.join(holding)})")
    solver = build(backend, backend_options)
    written = []

    to_stdout = not output and not as_json       # the puzzles go to standard output, the answers to stderr

    def answer(puzzle) -> sets.Answer:
        try:
            made = (_reveal if as_givens else _flip)(puzzle, solver, max_flips, clock.left(time_limit))
        except NonolabError:
            written.append(puzzle)   # a set keeps every puzzle: one a library error stopped, unchanged
            raise
        written.append(made.puzzle)
        return sets.Answer(made.verdict, 0 if made.verdict == "unique" else EXIT_NO, made.data, made.head)

    code = sets.run_set(file, input_format, index, as_json, answer, chosen, show=not to_stdout,
                        time_limit=time_limit)
    written += [puzzle for _, puzzle in chosen[len(written):]]   # those the clock did not reach: unchanged
    try:
        if output:
            dump(written[0], output, fmt) if len(written) == 1 else dump_all(written, output, fmt)
        elif not as_json:
            click.echo(dumps(written[0], fmt) if len(written) == 1 else dumps_all(written, fmt), nl=False)
    except ValueError as err:
        raise InvalidArgument(str(err)) from None
    if code:
        sys.exit(code)


def _format_of(path: str) -> str:
    """The format ``-o path`` is written in, refused before any work when its suffix names none."""
    from nonolab.formats import format_to_write
    return format_to_write(path)


class _Made:
    """What one puzzle's repair writes and says: the puzzle, the outcome word of the written
    puzzle, its JSON fields and its headline."""

    def __init__(self, puzzle, verdict: str, data: dict, head: str):
        self.puzzle, self.verdict, self.data, self.head = puzzle, verdict, data, head


def _flip(puzzle, solver, max_flips: int, time_limit: float | None) -> _Made:
    """The fewest flips of the picture (:func:`nonolab.harness.repair.repair`)."""
    from nonolab.harness.repair import counter_of, repair as repair_puzzle

    result = repair_puzzle(puzzle, None, solver, max_flips, time_limit, 1, cancel=CANCEL)
    best = result.best
    fixed = best if best is not None and best.unique else None
    verdict = result.verdict.value   # the outcome word of the puzzle the repair leaves
    data = {"verdict": verdict, "backend": counter_of(solver).name, **result.as_dict()}
    if result.status == "unique":
        head = "already unique: written unchanged"
    elif fixed:
        head = (f"repaired: {fixed.describe()} ({'the fewest' if result.minimal else 'greedy'}; "
                "unique by an exact count)")
    else:
        head = f"not repaired ({verdict}): written unchanged"
    return _Made(fixed.puzzle if fixed else puzzle, verdict, data, head)


def _reveal(puzzle, solver, max_flips: int, time_limit: float | None) -> _Made:
    """The greedy givens of the ambiguity report (:meth:`AmbiguityReport.revealed`)."""
    from nonolab.harness.ambiguity import why_report

    report = why_report(puzzle, solver, time_limit, cancel=CANCEL)   # the verdict is solver's, as check --why's
    made = report.revealed(puzzle)
    # Multiple, and no givens proven: the limit cut the search for them short (a finished
    # report always finds some), as a flip repair cut short says timeout, not multiple.
    cut = made is None and report.verdict.value == "multiple" and not report.complete
    verdict = "unique" if made is not None else "timeout" if cut else report.verdict.value
    data = {"verdict": verdict, "backend": report.backend, "givens": [list(g) for g in report.givens],
            "givens_unique": report.givens_unique}
    if report.verdict.value == "unique":
        head = "already unique: written unchanged"
    elif made is not None:
        head = (f"repaired: reveal {counted(len(report.givens), 'cell')} as givens "
                "(greedy; unique by an exact count)")
    else:
        head = f"not repaired ({verdict}): written unchanged"
    return _Made(made if made is not None else puzzle, verdict, data, head)


COMMANDS = (repair,)
