"""Commands that compare backends or grade puzzles: verify, backends, export, grade."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from nonolab.cli import clock, options, records, sets
from nonolab.cli.interrupt import CANCEL
from nonolab.cli.group import EXIT_BAD_INPUT, EXIT_NO
from nonolab.errors import NonolabError


@click.command("crosscheck")
@click.argument("files", nargs=-1, required=True, type=options.InputPath(dir_okay=False, path_type=str))
@options.input_format
@sets.index_option
@click.option("--backends", default=None, metavar="SPEC,SPEC,...",
              help="Backends (or specs such as native:line=overlap) to run, joined by commas "
                   "(default: the solvers and auto; dlx and backtrack only when named).")
@options.backend_option
@options.max_solutions
@options.time_limit_per("per backend and per puzzle")
@click.option("--report-dir", default=".", show_default=True, type=click.Path(file_okay=False),
              envvar="NONOLAB_REPORT_DIR", show_envvar=True,
              help="Where a disagreement is saved as a JSON bug report (nonolab-disagreement-NAME.json, NAME "
                   "the file's stem; files that share a stem add their folders: a-x, b-x): "
                   "the current folder unless this option or NONOLAB_REPORT_DIR names another.")
@options.as_json
def crosscheck_files(files, input_format, index, backends, backend_options, max_solutions, time_limit, report_dir, as_json):
    """Run several backends on each FILE, check every answer, and check that they agree.

    `verify` is another name for this command.

    Prints a table per puzzle (backend, status, count, exact?, time), then the
    verdict the backends proved (unique, multiple, contradiction, timeout) and
    whether they AGREE, DISAGREE, or are INCONCLUSIVE (no backend proved anything:
    every one timed out or failed, so nothing was compared).  Every puzzle of a set is checked.  -O
    options go to every backend (a spec gives one backend its own).  --time-limit
    bounds each backend on each puzzle (so N backends on one puzzle may take N times
    the limit).  Exit code 1
    unless every puzzle's backends AGREE; a disagreement's puzzle and answers are
    then saved to REPORT_DIR (the current folder, or $NONOLAB_REPORT_DIR), the only
    file this command writes.  Every FILE is read first: a report that would replace
    one of them is refused (exit 2) before any work.
    """
    from nonolab.cli.backends import backend_options as parse_options
    from nonolab.formats import dumps
    from nonolab.formats._input_guard import refuse_replacing_inputs
    from nonolab.harness.crosscheck import Agreement, crosscheck, split_specs, write_report
    from nonolab.solvers import names

    # Unnamed: crosscheck's default, the solvers and strategies that can take each puzzle.
    chosen = split_specs(backends) or None
    extra = parse_options(backend_options)
    per_backend = {spec: extra for spec in chosen or names(("solver", "strategy"))} if extra else None
    found = []
    worst = errors = 0
    loaded = [(path, sets.load(path, input_format, index)) for path in files]
    reports = _reports(report_dir, [(path, [number for number, _ in puzzles]) for path, puzzles in loaded])
    # Before any work, every file's: a report onto an input (crosscheck a.non nonolab-disagreement-a.json,
    # or the input listed first) is refused before an earlier file's report is written.
    refuse_replacing_inputs("--report-dir", report_dir, reports.values(), options.inputs())
    for path, puzzles in loaded:
        for number, puzzle in puzzles:
            if isinstance(puzzle, NonolabError):   # it could not be read: its one-line error in its place
                if len(files) == 1 and len(puzzles) == 1:
                    raise puzzle
                found.append({**records.record(path, number, None), "verdict": None, "error": str(puzzle)})
                worst, errors = max(worst, EXIT_BAD_INPUT), errors + 1
                if not as_json:
                    click.echo(f"{path} {sets.name(number, None)}: error: {puzzle}")
                continue
            check = crosscheck(puzzle, chosen, max_solutions, time_limit, per_backend, cancel=CANCEL)
            data = {**records.record(path, number, puzzle), **records.crosscheck_fields(check)}
            if check.agreement is not Agreement.AGREE:
                worst = EXIT_NO
            if check.agreement is Agreement.DISAGREE:
                Path(report_dir).mkdir(parents=True, exist_ok=True)
                report = reports[path, number]
                write_report(check, report, dumps(puzzle, "non"))
                data["report"] = str(report)
            found.append(data)
            if not as_json:
                title = f"{path} {sets.name(number, puzzle)}" if len(puzzles) > 1 else path
                _print_table(title, check, data.get("report"))
    if as_json:
        records.emit(found[0] if len(found) == 1 else
                     records.set_document(files[0] if len(files) == 1 else None, found, worst, errors=errors,
                                     agreements=True))
    elif len(found) > 1:
        disagree = sum(d.get("agreement") == "disagree" for d in found)
        click.echo(sets.summary_line([d["verdict"] for d in found], errors)
                   + (f"; backends disagree: {disagree}" if disagree else ""))
    if worst:
        sys.exit(worst)


def _reports(report_dir: str, files: list[tuple[str, list[int]]]) -> dict[tuple[str, int], Path]:
    """Where a disagreement on each puzzle (``files``: each path and its puzzles' numbers) is
    saved: ``nonolab-disagreement-NAME.json``, NAME the file's stem (``-N`` added for the N-th
    puzzle of a set).  Files of the run that share a stem are named with as few of their
    folders as tell them apart (``a/x.non``, ``b/x.non``: ``a-x``, ``b-x``), so that no report
    replaces another; a file given twice is one file.  Two that would still share a name
    (``a-x.non`` beside ``a/x.non``) are refused before any work.

    >>> sorted(p.name for p in _reports(".", [("a/x.non", [1]), ("b/x.non", [1]), ("y.non", [1, 2])]).values())
    ['nonolab-disagreement-a-x.json', 'nonolab-disagreement-b-x.json', 'nonolab-disagreement-y-1.json', 'nonolab-disagreement-y-2.json']

    Raises:
        InvalidArgument: two puzzles of different files would share a report.
    """
    from nonolab.errors import InvalidArgument

    where = {path: Path(path).resolve() for path, _ in files}
    by_stem: dict[str, set[Path]] = {}
    for path, _ in files:
        by_stem.setdefault(Path(path).stem, set()).add(where[path])
    names: dict[Path, str] = {}
    for stem, same in by_stem.items():
        depth = 0   # folders named: none while no other file has the stem
        if len(same) > 1:
            deepest = max(len(f.parent.parts) for f in same)
            depth = next((d for d in range(1, deepest + 1) if len({_named(f, stem, d) for f in same}) == len(same)),
                         deepest)
        names.update({f: _named(f, stem, depth) for f in same})
    reports: dict[tuple[str, int], Path] = {}
    owner: dict[Path, str] = {}
    for path, numbers in files:
        for number in numbers:
            report = Path(report_dir) / (f"nonolab-disagreement-{names[where[path]]}"
                                         + (f"-{number}" if len(numbers) > 1 else "") + ".json")
            first = owner.setdefault(report, path)
            if where[first] != where[path]:
                raise InvalidArgument(f"--report-dir {report_dir}: {first} and {path} would share the report "
                                      f"name {report.name}: rename one, or cross-check them in two runs")
            reports[path, number] = report
    return reports


def _named(file: Path, stem: str, depth: int) -> str:
    """``stem`` after the names of the ``depth`` folders ``file`` is in, joined by ``-``."""
    folders = [part for part in file.parent.parts if part != file.anchor][-depth:] if depth else []
    return "-".join([*folders, stem])


def _print_table(title, check, report) -> None:
    click.echo(f"{title} ({check.puzzle.width}x{check.puzzle.height})")
    click.echo(f"  {'backend':<10} {'status':<8} {'verdict':<13} {'count':>6} {'exact':<5} {'time s':>9}")
    for a in check.answers:
        if a.result is None:
            status = "declined" if a.declined else "error"
            click.echo(f"  {a.backend:<10} {status:<8} {'-':<13} {'-':>6} {'-':<5} {a.wall_time:>9.3f}  {a.error}")
            continue
        r = a.result
        click.echo(f"  {a.backend:<10} {r.status.value:<8} {a.verdict.value if a.verdict else '-':<13} {r.count:>6} "
                   f"{'yes' if r.complete else 'no':<5} {a.wall_time:>9.3f}")
    click.echo(f"  {check.consensus().value}: backends {check.agreement.value}"
               + (f": {'; '.join(check.problems)}" if check.problems else ""))
    if report:
        click.echo(f"  report saved to {report}")


@click.command("backends")
def list_backends():
    """List the registered backends, their role and whether each can run here.

    Roles: solver (an independent complete solver), strategy (auto: composes the
    solvers), baseline (dlx, backtrack: for comparison; verify runs them only when named).
    Under each, its options (-O KEY=VALUE, or in a spec such as native:line=overlap):
    name=default, what it accepts, what it does.  Then the variants backends declare (e.g. native's line strategies, as specs that
    `nonolab bench --backends` accepts) and the native line strategies.
    """
    from nonolab.errors import NonolabError
    from nonolab.solvers import DEFAULT, describe_option, get, line_strategies, names, options_of, role, variants

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
                click.echo(f"    -O {describe_option(option)}")
        except NonolabError:
            pass  # its library is missing: said above
        declared += variants(name)
    if declared:
        click.echo("variants: " + ", ".join(declared))
    click.echo("native line strategies (--line, -O line=NAME):")
    for strategy, complete, summary in line_strategies():
        click.echo(f"  {strategy:<12} {'complete' if complete else 'incomplete':<10} {summary}")


@click.command()
@options.puzzle_file
@options.input_format
@sets.index_option
@click.option("--to", "to_format", type=click.Choice(["dimacs", "dzn"]), required=True,
              help="dimacs: the CNF backend's clauses; dzn: data for models/nonogram.mzn.")
@click.option("--output", "-o", default=None, type=options.OUTPUT,
              help="Write to this file (default: standard output).")
@click.option("--max-states", type=click.IntRange(min=1), default=None, metavar="N",
              help="dimacs: refuse a model of more than N cells and line states (default: the cnf backend's "
                   "limit, which -O max_states=N raises there).")
def export(file, input_format, index, to_format, output, max_states):
    """Export FILE as a model for an external solver (DIMACS CNF or MiniZinc data)."""
    from nonolab.formats import write_atomically

    puzzle = sets.one(file, input_format, index, "a model is of one of them")
    if to_format == "dimacs":
        from nonolab.harness import dimacs
        text = dimacs(puzzle, max_states)
    else:
        from nonolab.formats import dumps
        text = dumps(puzzle, "dzn")
    if output:
        write_atomically(output, text)
    else:
        click.echo(text, nl=False)


@click.command()
@options.puzzle_file
@options.input_format
@sets.index_option
@options.backend
@options.backend_option
@options.time_limit
@click.option("--up-to", type=click.Choice(["line", "contradiction-probe", "full-probe", "depth-2", "search"]),
              default="search", show_default=True,
              help="Stop once this level is shown not to suffice (e.g. a generator's bound).")
@options.as_json
def grade(file, input_format, index, backend, backend_options, time_limit, up_to, as_json):
    """The weakest technique that solves FILE, and how many steps of each kind it took.

    Levels, weakest first: line < contradiction-probe < full-probe < depth-2 < search.
    pbnsolve's classes: line -> line, the probing levels -> depth-2, search -> search.
    A colour puzzle climbs up to full-probe (no depth-2 in colour), then search.
    The deductions are the native engine's; --backend (and -O) is the backend that
    counts to 2 when they are not enough.  A file holding several puzzles: one
    line per puzzle, then a summary.  Exit code 1 if a puzzle has no unique
    solution, or if grading did not finish.
    """
    from nonolab.cli.backends import build
    from nonolab.harness.classify import Grade, grade as grade_puzzle
    from nonolab.harness.uniqueness import Verdict
    from nonolab.render.text import LIMIT_FIRST

    searcher = build(backend, backend_options)

    def answer(puzzle) -> sets.Answer:
        result = grade_puzzle(puzzle, searcher, clock.left(time_limit), Grade(up_to), cancel=CANCEL)
        if result.grade is not None:
            head = f"{result.grade.value} (pbnsolve class: {result.grade.pbnsolve_class})"
        elif result.verdict is Verdict.CONTRADICTION:
            head = "not graded (a puzzle with no solution has no grade)"
        else:
            head = f"not graded: harder than {result.harder_than.value}" if result.harder_than else "not graded"
            if result.limited:
                head += f" ({LIMIT_FIRST})"
        body = ["steps: " + ", ".join(f"{n} {kind}" for kind, n in result.steps.items())] if result.steps else []
        code = EXIT_NO if result.grade is None or result.verdict is not Verdict.UNIQUE else 0
        # A set's summary counts outcome words (unique, multiple, ...), as every command's does;
        # the grade is a difficulty, said on each puzzle's line and in its record.
        verdict = result.verdict.value if result.verdict is not None else None
        said = verdict if verdict is not None else "uniqueness not decided (--up-to)"
        return sets.Answer(verdict, code, records.grade_fields(result, searcher.name),
                           f"grade: {head}; {said}; {result.time:.3f} s", body)

    code = sets.run_set(file, input_format, index, as_json, answer, time_limit=time_limit)
    if code:
        sys.exit(code)


COMMANDS = (crosscheck_files, list_backends, export, grade)
# The cross-check's first name, kept: scripts and habits use it.
ALIASES = {"verify": crosscheck_files}
