"""Commands that compare backends or grade puzzles: verify, backends, export, grade."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from nonolab.cli import options
from nonolab.cli.main import EXIT_NO, cli


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=str))
@options.input_format
@click.option("--backends", default=None, metavar="A,B,...",
              help="Backends to run (default: the solvers and auto; dlx and backtrack only when named).")
@options.max_solutions
@options.time_limit
@click.option("--report-dir", default=".", show_default=True, type=click.Path(file_okay=False),
              help="Where a disagreement is saved as a JSON bug report.")
@options.as_json
def verify(files, input_format, backends, max_solutions, time_limit, report_dir, as_json):
    """Run several backends on each FILE, verify every answer, and check that they agree.

    Prints a table per puzzle (backend, status, count, exact?, time) and AGREE or
    DISAGREE.  Exit code 1 if any puzzle's backends disagree; the puzzle and every
    answer are then saved to REPORT_DIR.
    """
    import json

    from nonolab.formats import dumps, load
    from nonolab.harness.crosscheck import crosscheck, write_report

    chosen = [b.strip() for b in backends.split(",") if b.strip()] if backends else None
    results = []
    disagreements = 0
    for path in files:
        puzzle = load(path, input_format)
        check = crosscheck(puzzle, chosen, max_solutions, time_limit)
        data = {"file": path, **check.as_dict()}
        if not check.agree:
            disagreements += 1
            Path(report_dir).mkdir(parents=True, exist_ok=True)
            report = Path(report_dir) / f"nonolab-disagreement-{Path(path).stem}.json"
            write_report(check, report, dumps(puzzle, "non"))
            data["report"] = str(report)
        results.append(data)
        if not as_json:
            _print_table(path, check, data.get("report"))
    if as_json:
        click.echo(json.dumps(results if len(results) > 1 else results[0], indent=2))
    if disagreements:
        sys.exit(EXIT_NO)


def _print_table(path, check, report) -> None:
    click.echo(f"{path} ({check.puzzle.width}x{check.puzzle.height})")
    click.echo(f"  {'backend':<10} {'status':<8} {'verdict':<13} {'count':>6} {'exact':<5} {'time s':>9}")
    for a in check.answers:
        if a.result is None:
            click.echo(f"  {a.backend:<10} {'error':<8} {'-':<13} {'-':>6} {'-':<5} {a.wall_time:>9.3f}  {a.error}")
            continue
        r = a.result
        click.echo(f"  {a.backend:<10} {r.status.value:<8} {a.verdict:<13} {r.count:>6} "
                   f"{'yes' if r.complete else 'no':<5} {a.wall_time:>9.3f}")
    click.echo(f"  {check.verdict}" + (f": {'; '.join(check.problems)}" if check.problems else ""))
    if report:
        click.echo(f"  report saved to {report}")


@cli.command("backends")
def list_backends():
    """List the registered backends, their role and whether each can run here.

    Roles: solver (an independent complete solver), strategy (auto: composes the
    solvers), baseline (dlx, backtrack: for comparison; verify runs them only when named).
    Under each, its options (-O KEY=VALUE, or in a spec such as native:line=overlap):
    name=default, what it accepts, what it does.  Then the variants backends declare (e.g. native's line strategies, as specs that
    `bench --strategies` accepts) and the native line strategies.
    """
    from nonolab.errors import NonolabError
    from nonolab.solvers import DEFAULT, get, names, options_of, role, variants
    from nonolab.solvers.options import describe

    declared = []
    for name in names():
        try:
            get(name)
            state = "available"
        except NonolabError as err:
            state = f"unavailable: {err}"
        click.echo(f"{name:<10} {role(name):<9} {state}" + ("  (the default)" if name == DEFAULT else ""))
        try:
            for option in options_of(name):  # the declarations the -O and spec parser checks against
                click.echo(f"    -O {describe(option)}")
        except NonolabError:
            pass  # its library is missing: said above
        declared += variants(name)
    if declared:
        click.echo("variants: " + ", ".join(declared))
    from nonolab.solvers.native.strategies import STRATEGIES
    click.echo("native line strategies (--line, -O line=NAME):")
    for strategy in STRATEGIES.values():
        kind = "complete" if strategy.complete else "incomplete"
        click.echo(f"  {strategy.name:<12} {kind:<10} {strategy.summary}")


@cli.command()
@options.puzzle_file
@options.input_format
@click.option("--to", "to_format", type=click.Choice(["dimacs", "dzn"]), required=True,
              help="dimacs: the CNF backend's clauses; dzn: data for models/nonogram.mzn.")
@click.option("--output", "-o", default=None, type=click.Path(dir_okay=False),
              help="Write to this file (default: standard output).")
def export(file, input_format, to_format, output):
    """Export FILE as a model for an external solver (DIMACS CNF or MiniZinc data)."""
    from nonolab.formats import load, write_atomically

    puzzle = load(file, input_format)
    if to_format == "dimacs":
        from nonolab.solvers.cnf.encode import to_dimacs
        text = to_dimacs(puzzle)
    else:
        from nonolab.formats import dumps
        text = dumps(puzzle, "dzn")
    if output:
        write_atomically(output, text)
    else:
        click.echo(text, nl=False)


@cli.command()
@options.puzzle_file
@options.input_format
@options.time_limit
@click.option("--up-to", type=click.Choice(["line", "contradiction-probe", "full-probe", "depth-2", "search"]),
              default="search", show_default=True,
              help="Stop once this level is shown not to suffice (e.g. a generator's bound).")
@options.as_json
def grade(file, input_format, time_limit, up_to, as_json):
    """The weakest technique that solves FILE, and how many steps of each kind it took.

    Levels, weakest first: line < contradiction-probe < full-probe < depth-2 < search.
    pbnsolve's classes: line -> line, the probing levels -> depth-2, search -> search.
    Exit code 1 if the puzzle has no unique solution, or if grading did not finish.
    """
    import json

    from nonolab.formats import load
    from nonolab.harness.classify import Grade, grade as grade_puzzle

    puzzle = load(file, input_format)
    result = grade_puzzle(puzzle, time_limit, Grade(up_to))
    if as_json:
        click.echo(json.dumps({"file": file, **result.as_dict()}, indent=2))
    else:
        if result.grade is not None:
            head = f"{result.grade.value} (pbnsolve class: {result.grade.pbnsolve_class})"
        else:
            head = f"not graded: harder than {result.harder_than.value}" if result.harder_than else "not graded"
        click.echo(f"grade: {head}; {result.verdict}; {result.time:.3f} s")
        if result.steps:
            click.echo("steps: " + ", ".join(f"{n} {kind}" for kind, n in result.steps.items()))
    if result.grade is None or result.verdict != "unique":
        sys.exit(EXIT_NO)
