"""``check --why``: print (or write as JSON) the ambiguity report, and draw its regions."""

from __future__ import annotations

from pathlib import Path

import click

from nonolab.cli.group import EXIT_NO
from nonolab.core.words import counted


def _cells(cells, name=None) -> str:
    """``(1,2)=#  (3,1)=.``: each value as ``name`` names it (a puzzle's chars, as ``--given``
    reads them); without, as a number."""
    return "  ".join(f"({r + 1},{c + 1})={name(v) if name else v}" for r, c, v in cells)


def _exactness(exact: bool, complete: bool, why: str = "") -> str:
    from nonolab.render.text import LIMIT_FIRST

    if exact:
        return "exact"
    return "not exact: " + (LIMIT_FIRST if not complete or not why else why)


def _lines(report, puzzle, from_goal: bool, full: bool = False) -> list[str]:
    """The report as text; its first line is the verdict (a big grid summarised unless ``full``)."""
    from nonolab.cli import streams

    from nonolab.render import regions_text
    from nonolab.render.text import LIMIT_FIRST

    out: list[str] = []
    chars = puzzle.chars
    verdict = report.verdict.value
    total = puzzle.width * puzzle.height
    out.append(verdict)
    if verdict == "contradiction":
        out.append("no solution, so nothing to explain")
        return out
    if report.reference is None:
        out.append(f"no solution found: {LIMIT_FIRST} ({report.backend})")
        return out
    if verdict == "unique":
        out.append(f"backbone: all {counted(total, 'cell')} (the solution is unique; exact count with {report.backend})")
        return out
    count = (f"{report.solution_count} solutions (exact count" if report.count_exact
             else f"at least {report.solution_count} solutions (not all enumerated")
    out.append(f"{count}; backend {report.backend}); reference: "
               + ("the puzzle's goal" if from_goal else "the first solution found"))
    out.append(f"backbone: {len(report.backbone)} of {total} cells are the same in every solution "
               f"({_exactness(report.backbone_exact, report.complete)})")
    if report.undecided:
        out.append(f"undecided: {counted(len(report.undecided), 'cell')}")
    if not report.regions_known:   # what is known, and that the regions are not: a timeout, not "0 regions"
        out.append(f"where solutions differ: {counted(len(report.free), 'cell')} known; regions: timeout ({LIMIT_FIRST}, "
                   f"{len(report.regions)} found)")
    unplaced = report.unplaced()
    n = len(report.regions)
    if report.regions or report.regions_exact:
        exactness = _exactness(report.regions_exact, report.complete,
                               "too many arrangements to split every region")
        out.append(f"{counted(n, 'region')} where solutions differ ({exactness}):")
    for k, region in enumerate(report.regions):
        out.append(f"  {chr(ord('a') + k % 26)}: {region.describe()}")
    if unplaced:
        differ = len(report.unplaced_free())
        out.append(f"not placed in a region (marked ?): {differ} that differ, {len(unplaced) - differ} undecided")
    if full or streams.fits(puzzle.width, puzzle.height):
        same, capital = ("the palette's chars", "a colour") if puzzle.is_colour else ("# .", "filled")
        out.append(f"reference solution ({same} the same in every solution; letters: regions, "
                   f"capital = {capital} here):")
        out.append(regions_text(report.reference, [r.cells for r in report.regions], unplaced, chars))
    else:
        out.append(streams.too_big(puzzle.width, puzzle.height, "the reference solution with its regions"))
    if report.givens_unique:
        out.append(f"givens (greedy, not a proven minimum): reveal {counted(len(report.givens), 'cell')} "
                   "and the puzzle is unique (checked by an exact count):")
        if puzzle.is_colour:   # what each char is, as the palette names it
            out.append("  colours: " + ", ".join(puzzle.value_label(v)
                                                 for v in sorted({v for _, _, v in report.givens})))
        out.append("  " + _cells(report.givens, chars.__getitem__))   # last, pasteable: --given reads these
    else:
        out.append(f"givens: not found or not checked ({LIMIT_FIRST})")
    return out


def no_solution(verdict: str) -> str:
    """Why there is no picture, in the verdict's word: a limit found none in time, which is
    not "no solution".

    >>> no_solution("contradiction"), no_solution("timeout")
    ('contradiction: no solution', 'timeout: no solution found in time')
    """
    return f"{verdict}: no solution" + (" found in time" if verdict in ("timeout", "interrupted") else "")


def _write_image(path: str, report, puzzle) -> None:
    from nonolab.formats import write_atomically
    from nonolab.render import ambiguity_svg, encode

    svg = ambiguity_svg(report, puzzle)
    if svg is None:
        click.echo(f"nonolab: {no_solution(report.verdict.value)}, so no picture written to {path}", err=True)
        return
    write_atomically(path, encode(svg, "png" if Path(path).suffix.lower() == ".png" else "svg"))


def answer(puzzle, solver, time_limit: float | None, image: str | None, enumerate_up_to: int = 256,
           full: bool = False):
    """The report of ``puzzle`` (:func:`nonolab.harness.ambiguity.why_report`): the verdict
    is the count to 2 of ``solver``, as ``check`` gives it; the questions go to ``solver``
    if it is a solver that can fix cells, else to ``cnf`` (``native`` for a grid beyond cnf's
    model guard): the report asks hundreds of small questions, which a strategy such as
    ``auto`` (the default) would answer by restarting its phases each time.

    Returns a :class:`nonolab.cli.sets.Answer`: one puzzle of a set, or the only one.
    """
    from nonolab.cli import records
    from nonolab.cli.sets import Answer
    from nonolab.cli.interrupt import CANCEL
    from nonolab.harness.ambiguity import why_report

    report = why_report(puzzle, solver, time_limit, enumerate_up_to=enumerate_up_to, cancel=CANCEL)
    if image:
        _write_image(image, report, puzzle)
    data = records.why_fields(report)
    if image and report.reference is not None:
        data["image"] = image
    verdict = report.verdict.value
    lines = _lines(report, puzzle, puzzle.goal is not None, full)
    return Answer(verdict, 0 if verdict == "unique" else EXIT_NO, data, lines[0], lines[1:])
