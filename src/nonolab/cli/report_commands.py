"""``check --report`` (the designer's report as text or JSON) and ``repair`` (write the repaired puzzle)."""

from __future__ import annotations

import sys

import click

from nonolab.cli import clock, options, sets
from nonolab.cli.interrupt import CANCEL
from nonolab.cli.group import EXIT_NO


def _clue(blocks, chars: str | None) -> str:
    """A line's blocks ``(length, colour)``: ``2 1`` in black and white, ``2r 1g`` in colour
    (the palette's characters)."""
    return " ".join(f"{n}{chars[c]}" if chars else str(n) for n, c in blocks) or "0"


def _repair_lines(repaired, full: bool, chars: str | None = None) -> list[str]:
    """The repair part of the report: the fewest flips, and each repair before and after
    (``chars``: the palette's characters of a colour puzzle)."""
    from nonolab.cli import streams
    from nonolab.render import diff_text

    if repaired.status == "unique":
        return []
    if not repaired.suggestions:
        why = "the time limit came first" if repaired.status == "timeout" else "none found within the limits"
        bound = f"; at least {repaired.lower_bound} flips are needed" if repaired.lower_bound else ""
        return [f"repair: {why}{bound}"]
    best = repaired.best
    n = len(best.flips)
    how = ("the fewest possible (every smaller set of flips was ruled out)" if repaired.minimal
           else f"greedy, not proven the fewest (at least {repaired.lower_bound} needed)")
    out = [f"repair: {n} cell flip{'s' * (n != 1)} of the {repaired.source} make{'s' * (n == 1)} the puzzle "
           f"unique, {how}; each checked by an exact count:"]
    for k, s in enumerate(repaired.suggestions, 1):
        out.append(f"  {k}. {s.describe()}: {'unique' if s.unique else 'NOT unique'}")
        out += [f"     {kind} {i + 1}: {_clue(before, chars)} -> {_clue(after, chars)}"
                for kind, i, before, after in s.lines]
    after = best.puzzle.goal
    if after is not None and repaired.picture is not None:
        if full or streams.fits(after.width, after.height):
            out += ["before, after, flipped cells (*) of repair 1:",
                    diff_text(repaired.picture, after, chars or ".#")]
        else:
            out.append(streams.too_big(after.width, after.height, "the picture before and after"))
    return out


def report_lines(rep, full: bool = False) -> list[str]:
    """The report as text; the first line is the verdict."""
    from nonolab.cli import streams
    from nonolab.cli.why import _cells
    from nonolab.render import diff_text

    out = [rep.verdict]
    graded = rep.grade
    if graded is not None and graded.grade is not None:
        out.append(f"grade: {graded.grade.value} (pbnsolve class: {graded.grade.pbnsolve_class}); "
                   f"difficulty {rep.difficulty:.3f} (0-1 line, 1-4 probing, 4-5 search)")
    else:
        out.append("grade: not reached within the time limit")
    for w in rep.warnings:
        out.append(f"warning: {w.message}")
    if rep.verdict == "multiple":
        first, second = rep.solution, rep.alternative
        out.append(f"{len(rep.differing)} cells differ between two solutions (row, column, 1-based): "
                   + streams.cell_list(rep.differing, full))
        if full or streams.fits(first.width, first.height):
            chars = rep.puzzle.palette.chars if rep.puzzle.is_colour else ".#"
            out += ["solution 1, solution 2, differing cells (*):", diff_text(first, second, chars)]
        amb = rep.ambiguity
        if amb is not None:
            count = (f"{amb.solution_count} solutions" if amb.count_exact
                     else f"at least {amb.solution_count} solutions")
            out.append(f"{count}; {len(amb.regions)} region{'s' * (len(amb.regions) != 1)} where they differ:")
            out += [f"  {chr(ord('a') + k % 26)}: {r.describe()}" for k, r in enumerate(amb.regions)]
            if amb.givens_unique:
                given = _cells(amb.givens, None if rep.puzzle.is_colour else ".#")   # as --given reads them
                out.append(f"givens instead of a repair (greedy): reveal {len(amb.givens)}, e.g. --given '{given}'")
        if rep.repair is not None:
            out += _repair_lines(rep.repair, full, rep.puzzle.palette.chars if rep.puzzle.is_colour else None)
    if not rep.complete:
        out.append("(the time limit cut part of the report short)")
    out.append(f"{rep.time:.3f} s, backend {rep.backend}")
    return out


def answer(puzzle, solver, time_limit: float | None, full: bool = False, certify_into=None) -> sets.Answer:
    """One puzzle's report (a :class:`nonolab.cli.sets.Answer`); with ``certify_into`` (a
    folder), its certificate too: a "certified" line and the JSON's ``certificate``."""
    import time

    from nonolab.harness.report import report

    start = time.perf_counter()
    rep = report(puzzle, solver, time_limit, cancel=CANCEL)
    lines = report_lines(rep, full)
    data = rep.as_dict()
    if certify_into is not None:
        from nonolab.certify import certify
        from nonolab.cli.certify_commands import note

        left = None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1e-3)
        made = certify(puzzle, certify_into, solver, left, cancel=CANCEL)
        lines.insert(1, note(made))
        data["certificate"] = made.as_dict()
    return sets.Answer(rep.verdict, 0 if rep.verdict == "unique" else EXIT_NO, data, lines[0], lines[1:])


@click.command()
@options.puzzle_file
@options.input_format
@sets.index_option
@options.backend
@options.backend_option
@options.time_limit
@click.option("--max-flips", type=click.IntRange(min=1), default=3, show_default=True, metavar="K",
              help="Search every set of up to K flips for the fewest (beyond, a greedy repair).")
@click.option("--output", "-o", default=None, type=click.Path(dir_okay=False),
              help="Write the repaired puzzle(s) here (default: standard output).")
@click.option("--to", "to_format", default=None, metavar="FMT",
              help="Output format (default: from --output's suffix, else the input's format).")
@options.as_json
def repair(file, input_format, index, backend, backend_options, time_limit, max_flips, output, to_format, as_json):
    """Make FILE unique by flipping the fewest cells of its picture, and write the result.

    The picture is the puzzle's goal if the file has one, else its first solution.  In
    colour a changed cell takes another colour of the palette or the background.
    Each repair is proven by an exact count to 2.  A puzzle that is already unique is
    written unchanged.  Every puzzle of a set is repaired.  Exit code 1 if some puzzle
    could not be made unique within the limits (it is written unchanged).
    """
    from nonolab.cli.backends import build
    from nonolab.formats import detect_format, dump, dump_all, dumps, dumps_all
    from nonolab.harness.repair import repair as repair_puzzle
    from nonolab.solvers import get_spec, role

    solver = build(backend, backend_options)
    if role(solver.name) != "solver":     # hundreds of small counts: see harness.report
        solver = get_spec("native")
    chosen = sets.load(file, input_format, index)
    fmt = to_format or (None if output else input_format or detect_format(file))
    written = []

    def answer(puzzle) -> sets.Answer:
        result = repair_puzzle(puzzle, None, solver, max_flips, clock.left(time_limit), 1, cancel=CANCEL)
        best = result.best
        unique = result.status == "unique" or (best is not None and best.unique)
        written.append(best.puzzle if best is not None and best.unique else puzzle)
        data = {"verdict": "unique" if unique else result.status, "backend": solver.name, **result.as_dict()}
        if result.status == "unique":
            head = "already unique: written unchanged"
        elif best is not None and best.unique:
            head = (f"repaired: {best.describe()} ({'the fewest' if result.minimal else 'greedy'}; "
                    "unique by an exact count)")
        else:
            head = f"not repaired ({result.status}): written unchanged"
        return sets.Answer(data["verdict"], 0 if unique else EXIT_NO, data, head)

    heads: list[str] = []
    to_stdout = not output and not as_json       # the puzzles go to standard output, the answers to stderr
    code = sets.run_set(file, input_format, index, as_json, lambda p: _keep(answer(p), heads), chosen,
                        show=not to_stdout)
    if to_stdout:
        for (number, puzzle), head in zip(chosen, heads):
            click.echo(f"{sets.name(number, puzzle)}: {head}" if len(chosen) > 1 else head, err=True)
    try:
        if output:
            dump(written[0], output, fmt) if len(written) == 1 else dump_all(written, output, fmt)
        elif not as_json:
            click.echo(dumps(written[0], fmt) if len(written) == 1 else dumps_all(written, fmt), nl=False)
    except ValueError as err:
        from nonolab.errors import InvalidArgument
        raise InvalidArgument(str(err)) from None
    if code:
        sys.exit(code)


def _keep(answer: sets.Answer, heads: list[str]) -> sets.Answer:
    heads.append(answer.headline)
    return answer


COMMANDS = (repair,)
