"""The commands.  Each loads, calls the public API, and prints; nothing else."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from nonolab.cli import clock, options, streams
from nonolab.cli.interrupt import CANCEL
from nonolab.cli.main import EXIT_NO, cli


def _load(path: str, fmt: str | None):
    from nonolab.formats import load
    return load(path, fmt)


def _solver(backend: str, probing: str | None, pairs: tuple[str, ...] = (), line: str | None = None,
            **extra: Any):
    from nonolab.solvers import get
    opts = {**options.parse_backend_options(pairs), **extra}
    if probing is not None:
        opts["probing"] = probing
    if line is not None:
        opts["line"] = line
    return get(backend, **opts)


# Backends that report decided cells while they work (the native engine, alone or first).
_PROGRESS_BACKENDS = ("native", "auto")


def _emit_json(data: dict) -> None:
    click.echo(json.dumps(data, indent=2))


def _rows(solution) -> list[str]:
    return solution.to_text().splitlines()


def _result_json(path: str, result) -> dict:
    return {
        "file": path,
        "status": result.status.value,
        "count": result.count,
        "complete": result.complete,
        "solutions": [_rows(s) for s in result.solutions],
        "stats": result.stats.as_dict(),
    }


@cli.command()
@options.puzzle_and_solver
@options.max_solutions
@options.time_limit
@click.option("--to", "to_format", default=None, metavar="FMT",
              help="Write the puzzle with its first solution as goal in this format.")
@click.option("--output", "-o", default=None, type=click.Path(dir_okay=False),
              help="File for --to (default: standard output); format from its suffix if --to is not given.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar of decided cells on long native runs (default: on a terminal).")
@options.full
@options.as_json
def solve(file, input_format, backend, probing, line, backend_options, max_solutions, time_limit, to_format, output,
          progress, full, as_json):
    """Solve FILE and print the solution (and whether it is unique)."""
    from nonolab.formats import dump, dumps
    from nonolab.harness.uniqueness import verdict_of

    from nonolab.cli.progress import DecidedCells

    puzzle = _load(file, input_format)
    with DecidedCells(force=bool(progress)) as bar:
        extra = {"progress": bar} if backend in _PROGRESS_BACKENDS and progress is not False else {}
        solver = _solver(backend, probing, backend_options, line, **extra)
        result = solver.solve(puzzle, clock.limits(max_solutions, time_limit))
    verdict = verdict_of(result) if max_solutions >= 2 else None
    if result.solution is not None and (to_format or output):
        solved = puzzle.with_(goal=result.solution)
        if output:
            dump(solved, output, to_format)
        else:
            click.echo(dumps(solved, to_format), nl=False)
    if as_json:
        data = _result_json(file, result)
        data["verdict"] = verdict.value if verdict else None
        _emit_json(data)
    elif not (to_format and not output):
        if result.solution is not None and not output:  # with -o the solution is in the file
            grid = result.solution
            fits = full or streams.fits(grid.width, grid.height)
            click.echo(grid.to_text() if fits else streams.too_big(grid.width, grid.height, "solution"))
        summary = verdict.value if verdict else result.status.value
        if result.solution is None:
            summary = "contradiction" if result.complete else "timeout"
        click.echo(f"{summary} ({result.count} solution{'s' * (result.count != 1)} found"
                   f"{', exhaustive' if result.complete else ''}; {result.stats.backend}, "
                   f"{result.stats.wall_time:.3f} s)", err=bool(result.solution))
    if result.solution is None:
        sys.exit(EXIT_NO)


@cli.command()
@options.puzzle_and_solver
@options.time_limit
@options.full
@options.as_json
@click.option("--why", is_flag=True,
              help="Explain the ambiguity: the backbone (cells equal in every solution, exact), the "
                   "regions where solutions differ, and greedy givens that make the puzzle unique. "
                   "Uses the backend if it can fix cells (cnf, cpsat), else cnf.")
@click.option("--why-image", default=None, metavar="PATH", type=click.Path(dir_okay=False),
              help="Also draw the regions and givens: PNG if PATH ends in .png, else SVG (implies --why).")
@click.option("--why-enumerate", type=click.IntRange(min=1), default=256, show_default=True, metavar="N",
              help="With --why: enumerate up to N solutions, and N arrangements per group of free cells; "
                   "within it counts and regions are exact.")
def check(file, input_format, backend, probing, line, backend_options, time_limit, full, as_json, why, why_image,
          why_enumerate):
    """Print one word: unique, multiple, contradiction or timeout.

    For a puzzle with several solutions, also print two of them and the cells
    where they differ (with --why: where and how all of them differ).  Exit code 0
    only for unique.
    """
    from nonolab.harness.uniqueness import Verdict, check as check_puzzle
    from nonolab.render import diff_text

    puzzle = _load(file, input_format)
    if why or why_image:
        from nonolab.cli import why as explain_why
        explain_why.run(file, puzzle, _solver(backend, probing, backend_options, line), clock.left(time_limit),
                        as_json, why_image, why_enumerate, full)
        return
    answer = check_puzzle(puzzle, _solver(backend, probing, backend_options, line), clock.left(time_limit),
                          cancel=CANCEL)
    if as_json:
        data = _result_json(file, answer.result)
        data["verdict"] = answer.verdict.value
        data["differing_cells"] = [list(rc) for rc in answer.differing]
        _emit_json(data)
    else:
        click.echo(answer.verdict.value)
        if answer.verdict is Verdict.MULTIPLE:
            first, second = answer.witnesses
            click.echo(f"{len(answer.differing)} cells differ (row, column, 1-based): "
                       + streams.cell_list(answer.differing, full))
            if full or streams.fits(first.width, first.height):
                click.echo("solution 1, solution 2, differing cells (*):")
                click.echo(diff_text(first, second))
            else:
                click.echo(streams.too_big(first.width, first.height, "the two solutions and their difference"))
    if answer.verdict is not Verdict.UNIQUE:
        sys.exit(EXIT_NO)


@cli.command()
@options.puzzle_and_solver
@click.option("--limit", "--max-solutions", "limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop counting at N (then the answer is 'at least N').")
@options.time_limit
@options.as_json
def count(file, input_format, backend, probing, line, backend_options, limit, time_limit, as_json):
    """Count the solutions of FILE exactly (or 'at least N' when cut by a limit)."""
    from nonolab.harness.uniqueness import count as count_puzzle

    puzzle = _load(file, input_format)
    answer = count_puzzle(puzzle, limit, _solver(backend, probing, backend_options, line), clock.left(time_limit),
                          cancel=CANCEL)
    if as_json:
        data = _result_json(file, answer.result)
        data.update(count=answer.count, exact=answer.exact, stopped_by=answer.reason or None)
        del data["solutions"]
        _emit_json(data)
    else:
        click.echo(answer.describe())
    if answer.reason == "timeout":
        sys.exit(EXIT_NO)


@cli.command()
@options.puzzle_file
@options.input_format
@click.option("--backend", "-b", type=click.Choice(["auto", "native"]), default="auto", show_default=True,
              help="auto: native deductions, then one cdcl step if they stall; native: with its guesses.")
@options.probing
@options.line
@options.time_limit
@click.option("--every", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Print the grid after every N-th step (and after the last).")
@click.option("--no-grid", is_flag=True, help="Print the steps only.")
@options.as_json
def explain(file, input_format, backend, probing, line, time_limit, every, no_grid, as_json):
    """Print the deductions that solve FILE, step by step, with the grid after each.

    Techniques: line (the complete line solver, or enumerate), simple-overlap,
    block-capping and clue-exhaustion (with --line chain-range or overlap),
    contradiction-probe, both-branches-agree (fully probing), depth-2-probe, guess (a
    native search branch) and cdcl (what clause learning decided after auto's hand-off).
    Changed cells are shown as X (filled) and O (empty).
    """
    from nonolab.render import grid_text
    from nonolab.solvers.native.explain import replay

    puzzle = _load(file, input_format)
    result = _solver(backend, probing, line=line, record_steps=True).solve(puzzle, clock.limits(1, time_limit))
    steps = result.steps
    if as_json:
        data = _result_json(file, result)
        data["steps"] = [s.as_dict() for s in steps]
        _emit_json(data)
    else:
        last = len(steps)
        for number, (step, grid) in enumerate(replay(puzzle, steps), 1):
            click.echo(f"step {number}: {step.describe()}")
            if not no_grid and (number % every == 0 or number == last):
                click.echo(grid_text(grid, [(r, c) for r, c, _ in step.cells]))
                click.echo()
        by_kind: dict[str, int] = {}
        for s in steps:
            by_kind[s.technique.value] = by_kind.get(s.technique.value, 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in by_kind.items()) or "no steps"
        state = "solved" if result.solution is not None else (
            "contradiction" if result.complete else "timeout")
        click.echo(f"{state} in {last} steps: {summary}")
    if result.solution is None:
        sys.exit(EXIT_NO)


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, path_type=str))
@click.argument("target", type=click.Path(dir_okay=False, path_type=str))
@options.input_format
@click.option("--to", "to_format", default=None, metavar="FMT",
              help="Output format (default: from TARGET's suffix).")
def convert(source, target, input_format, to_format):
    """Convert SOURCE to TARGET (every puzzle of a multi-puzzle file)."""
    from nonolab.formats import dump, dump_all, load_all

    puzzles = load_all(source, input_format)
    if len(puzzles) == 1:
        dump(puzzles[0], target, to_format)
    else:
        dump_all(puzzles, target, to_format)
    click.echo(f"wrote {len(puzzles)} puzzle{'s' * (len(puzzles) != 1)} to {target}", err=True)


@cli.command()
@options.puzzle_file
@options.input_format
@options.as_json
def info(file, input_format, as_json):
    """Size, clue statistics and format of FILE."""
    from nonolab.formats import detect_format

    fmt = input_format or detect_format(file)
    puzzle = _load(file, fmt)
    data = _info(puzzle)
    data = {"file": file, "format": fmt, **data}
    if as_json:
        _emit_json(data)
        return
    for key, value in data.items():
        if key == "metadata":
            for k, v in value.items():
                click.echo(f"{k + ':':<21} {v}")
        else:
            click.echo(f"{key.replace('_', ' ') + ':':<21} {value}")


def _info(puzzle) -> dict:
    lines = puzzle.rows + puzzle.columns
    blocks = [len(c) for c in lines]
    lengths = [puzzle.width] * puzzle.height + [puzzle.height] * puzzle.width
    slacks = [n - (sum(c) + len(c) - 1 if c else 0) for c, n in zip(lines, lengths)]
    filled = sum(map(sum, puzzle.rows))
    return {
        "name": puzzle.name,
        "width": puzzle.width,
        "height": puzzle.height,
        "filled_cells": filled,
        "density": round(filled / (puzzle.width * puzzle.height), 4),
        "blocks": sum(blocks),
        "max_blocks_per_line": max(blocks),
        "empty_lines": blocks.count(0),
        "full_lines": sum(1 for c, n in zip(lines, lengths) if c == (n,)),
        "mean_slack": round(sum(slacks) / len(slacks), 2),
        "min_slack": min(slacks),
        "has_goal": puzzle.goal is not None,
        "metadata": dict(puzzle.metadata),
    }
