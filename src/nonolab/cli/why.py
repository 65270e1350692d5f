"""``check --why``: print (or write as JSON) the ambiguity report, and draw its regions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from nonolab.cli.main import EXIT_NO


def _cells(cells) -> str:
    return "  ".join(f"({r + 1},{c + 1})={'#' if v else '.'}" for r, c, v in cells)


def _exactness(exact: bool, complete: bool, why: str = "") -> str:
    if exact:
        return "exact"
    return "not exact: " + ("the time limit cut it short" if not complete or not why else why)


def _print(report, puzzle, from_goal: bool, full: bool = False) -> None:
    from nonolab.cli import streams
    from nonolab.render import regions_text

    verdict = report.verdict.value
    total = puzzle.width * puzzle.height
    click.echo(verdict)
    if verdict == "contradiction":
        click.echo("no solution, so nothing to explain")
        return
    if report.reference is None:
        click.echo(f"no solution found within the time limit ({report.backend})")
        return
    if verdict == "unique":
        click.echo(f"backbone: all {total} cells (the solution is unique; exact count with {report.backend})")
        return
    count = (f"{report.solution_count} solutions (exact count" if report.count_exact
             else f"at least {report.solution_count} solutions (not all enumerated")
    click.echo(f"{count}; backend {report.backend}); reference: "
               + ("the puzzle's goal" if from_goal else "the first solution found"))
    click.echo(f"backbone: {len(report.backbone)} of {total} cells are the same in every solution "
               f"({_exactness(report.backbone_exact, report.complete)})")
    if report.undecided:
        click.echo(f"undecided: {len(report.undecided)} cells")
    unplaced = report.unplaced()
    n = len(report.regions)
    if report.regions or report.regions_exact:
        exactness = _exactness(report.regions_exact, report.complete,
                               "too many arrangements to split every region")
        click.echo(f"{n} region{'s' * (n != 1)} where solutions differ ({exactness}):")
    for k, region in enumerate(report.regions):
        click.echo(f"  {chr(ord('a') + k % 26)}: {region.describe()}")
    if unplaced:
        click.echo(f"not placed in a region (marked ?): {len(unplaced)} cells")
    if full or streams.fits(puzzle.width, puzzle.height):
        click.echo("reference solution (# . the same in every solution; letters: regions, capital = filled here):")
        click.echo(regions_text(report.reference, [r.cells for r in report.regions], unplaced))
    else:
        click.echo(streams.too_big(puzzle.width, puzzle.height, "the reference solution with its regions"))
    if report.givens_unique:
        click.echo(f"givens (greedy, not a proven minimum): reveal {len(report.givens)} "
                   f"cell{'s' * (len(report.givens) != 1)} and the puzzle is unique (checked by an exact count):")
        click.echo("  " + _cells(report.givens))
    else:
        click.echo("givens: not found (or not checked) within the time limit")


def _write_image(path: str, report) -> None:
    from nonolab.formats import write_atomically
    from nonolab.render import regions_png, regions_svg

    if report.reference is None:
        click.echo(f"nonolab: no solution, so no picture written to {path}", err=True)
        return
    regions = [r.cells for r in report.regions]
    givens = [(r, c) for r, c, _ in report.givens]
    if Path(path).suffix.lower() == ".png":
        data: str | bytes = regions_png(report.reference, regions, givens, report.unplaced())
    else:
        data = regions_svg(report.reference, regions, givens, report.unplaced(),
                           title=f"nonolab: where the solutions differ ({report.verdict.value})")
    write_atomically(path, data)


def run(path: str, puzzle, solver, time_limit: float | None, as_json: bool, image: str | None,
        enumerate_up_to: int = 256, full: bool = False) -> None:
    """The report of ``puzzle`` with ``solver`` if it is a solver that can fix cells,
    else with ``cnf``: the report asks hundreds of small questions, which a strategy
    such as ``auto`` (the default) would answer by restarting its phases each time."""
    from nonolab.harness.ambiguity import ambiguity_report
    from nonolab.solvers import get, role
    from nonolab.solvers.base import accepts_fixed_cells

    if not accepts_fixed_cells(solver) or role(solver.name) != "solver":
        solver = get("cnf")
    from nonolab.cli.interrupt import CANCEL

    report = ambiguity_report(puzzle, solver, time_limit, enumerate_up_to=enumerate_up_to, cancel=CANCEL)
    if image:
        _write_image(image, report)
    if as_json:
        data = {"file": path, **report.as_dict()}
        if image and report.reference is not None:
            data["image"] = image
        click.echo(json.dumps(data, indent=2))
    else:
        _print(report, puzzle, puzzle.goal is not None, full)
    if report.verdict.value != "unique":
        sys.exit(EXIT_NO)
