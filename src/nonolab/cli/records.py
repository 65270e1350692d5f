"""Every command's ``--json`` output, built here so that the same thing has the same name.

The shape is described by the JSON Schema files shipped in ``nonolab/schemas``
(one per command, sharing ``common.json``).  A file holding one puzzle (or one
chosen with ``--index``) gives one *record*; a file holding several gives one
*set document*, ``{"schema_version", "file", "puzzles": [records], "summary"}``.

Names shared by every record: ``schema_version``, ``file``, ``index`` (1-based
position in the file), ``title``, ``width``, ``height``, ``backend``, ``status``
(how the search ended: solved, unsat, timeout, interrupted), ``verdict``,
``count``, ``exact`` (the count is the true number of solutions), ``time``
(seconds), ``solutions`` (each a list of row strings of ``#`` and ``.``) and
``stats``.  Cells are ``[row, column]``, 0-based.

>>> record("cat.non", 2, None)["index"]
2
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable

import click

#: Bumped when a name or a meaning changes (not when a field is added).  4: ``verify``'s
#: ``verdict`` is the word the backends proved (it was agree/disagree/inconclusive, the word in
#: ``consensus``), whether they agree is ``agreement``.
SCHEMA_VERSION = 4


def rows(solution) -> list[str]:
    """A solution as row strings (``#`` filled, ``.`` empty; a colour picture: ``.`` the
    background, then each colour's index, ``1``-``9`` then ``a``-``z``)."""
    return solution.to_text().splitlines()


def picture_text(puzzle, solution) -> str:
    """A solution as people read it: ``#``/``.``, or a colour puzzle's palette chars."""
    return solution.to_text(chars=puzzle.chars)


def record(file: str, index: int, puzzle) -> dict[str, Any]:
    """The fields that name one puzzle of one file; ``puzzle`` may be None (it could not be read:
    its title and size are then null)."""
    data: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "file": file, "index": index}
    if puzzle is not None:
        data.update(title=puzzle.name or None, width=puzzle.width, height=puzzle.height)
    else:
        data.update(title=None, width=None, height=None)
    return data


def result_fields(result, solutions: bool = True) -> dict[str, Any]:
    """What one backend run answered: backend, status, count, exact, time, solutions, stats."""
    return result.as_dict(solutions)


def why_fields(report) -> dict[str, Any]:
    """``check --why``: the ambiguity report under the shared names (its extra parts kept)."""
    data = report.as_dict()
    complete = data.pop("complete")
    data["count"] = data.pop("solution_count")
    data["exact"] = data.pop("count_exact")
    data["status"] = ("timeout" if not complete else "unsat" if report.reference is None else "solved")
    data["time"] = data.get("stats", {}).get("wall_time")
    return data


def explain_fields(found, deadline: float | None = None) -> dict[str, Any]:
    """``explain --json``'s record of an :class:`~nonolab.harness.explanation.Explanation`:
    its :meth:`~nonolab.harness.explanation.Explanation.as_dict`, the steps :class:`Streamed`
    (each step's cells written a block at a time by :func:`emit`), each only while it
    still fits before ``deadline`` (``time.perf_counter`` time, the command's
    ``--time-limit``): the steps left out are counted in ``steps_cut``."""
    steps = found.steps
    pace = None if deadline is None else Pace(deadline, [len(step.cells) + 1 for step in steps],
                                              STEP_TEXT_PER_CELL, "steps_cut")
    return {**found.as_dict(steps=False),
            "steps": Streamed(lambda: (step.json_chunks() for step in steps), pace)}


def grade_fields(result, backend: str) -> dict[str, Any]:
    """``grade``: the level, its verdict and steps, ``backend`` (the one that counts to 2) and
    ``stats`` (the counters of the deciding run); ``time`` in seconds."""
    data = result.as_dict()
    data["stats"] = data.pop("counters")
    return {"backend": backend, **data}


def crosscheck_fields(check) -> dict[str, Any]:
    """``verify``: the verdict (one of the words: what the backends proved), the ``agreement``
    (agree, disagree, inconclusive) and every backend's answer."""
    data = check.as_dict()
    data.pop("name", None)
    data.pop("width", None)
    data.pop("height", None)
    return data


def summary(verdicts: Iterable[str | None], exit_code: int, errors: int = 0,
            agreements: Iterable[str | None] | None = None) -> dict[str, Any]:
    """How many puzzles got each verdict, how many a library error stopped (``errors``), and
    the exit code of the whole set; for ``verify``, how many puzzles' backends
    ``agree``/``disagree``/are ``inconclusive`` (``agreements``: each puzzle's, None for one
    that could not be read).

    >>> summary(["unique", "multiple"], 1, agreements=["agree", "disagree"])["agreements"]
    {'agree': 1, 'disagree': 1}
    """
    counted: dict[str, int] = {}
    total = 0
    for verdict in verdicts:
        total += 1
        if verdict is not None:
            counted[verdict] = counted.get(verdict, 0) + 1
    data: dict[str, Any] = {"puzzles": total, "verdicts": counted, "errors": errors, "exit_code": exit_code}
    if agreements is not None:
        agreed: dict[str, int] = {}
        for agreement in agreements:
            if agreement is not None:
                agreed[agreement] = agreed.get(agreement, 0) + 1
        data["agreements"] = agreed
    return data


def set_document(file: str | None, records: list[dict[str, Any]], exit_code: int,
                 verdicts: Iterable[str | None] | None = None, errors: int = 0,
                 agreements: bool = False) -> dict[str, Any]:
    """Several puzzles' records as one document (see the module docstring).

    ``verdicts`` are the words the summary counts (default: each record's ``verdict``);
    ``errors`` the puzzles a library error stopped (their records carry ``error``);
    ``agreements``: the summary counts the records' ``agreement`` too (``verify``).
    """
    counted = verdicts if verdicts is not None else (r.get("verdict") for r in records)
    agreed = [r.get("agreement") for r in records] if agreements else None
    return {"schema_version": SCHEMA_VERSION, "file": file, "puzzles": records,
            "summary": summary(counted, exit_code, errors, agreed)}


#: The schema files shipped in the package, one per command (and ``common``).
SCHEMAS = ("common", "solve", "check", "check-why", "check-report", "check-certify", "certify-check", "count",
           "explain", "info", "grade", "verify", "repair", "batch-record", "label-record")


def schema(name: str) -> dict[str, Any]:
    """The shipped JSON Schema (draft 2020-12) of one command's ``--json`` output.

    >>> schema("check")["$defs"]["record"]["properties"]["exact"]
    {'$ref': 'common.json#/$defs/exact'}
    """
    from importlib.resources import files

    if name not in SCHEMAS:
        raise ValueError(f"no schema {name!r} (known: {', '.join(SCHEMAS)})")
    import json

    return json.loads(files("nonolab").joinpath("schemas").joinpath(f"{name}.json").read_text(encoding="utf-8"))


# Writing a step's cells as JSON text, a cell, before any step is timed: 54 CPU s and 141 s
# of wall time for 100 M cells on the shared machine under load (benchmarks/log/
# 2026-11-26-limits-4.md); the pace measured on the first steps written replaces it.
STEP_TEXT_PER_CELL = 1.4e-6


class Pace:
    """Whether the next item of a :class:`Streamed` array still fits before ``deadline``
    (``time.perf_counter`` time): item ``k`` weighs ``sizes[k]`` units, at ``per_unit``
    seconds a unit until items are timed, then at the pace measured on those written.
    An item that does not fit is not started, nor any after it: ``cut`` counts them, and
    :func:`emit` writes that count under ``key`` after the array (nothing when none is cut).

    >>> pace = Pace(10.0, [1, 5, 1], 1.0, "cut")
    >>> pace.fits(0, now=0.0), pace.written(0, 2.0), pace.fits(1, now=2.0), pace.fits(1, now=2.5)
    (True, None, False, False)
    >>> pace.cut
    2
    """

    def __init__(self, deadline: float, sizes: list[int], per_unit: float, key: str):
        self.deadline, self.sizes, self.per_unit, self.key = deadline, sizes, per_unit, key
        self.units = 0
        self.seconds = 0.0
        self.cut = 0

    def fits(self, k: int, now: float | None = None) -> bool:
        import time

        now = time.perf_counter() if now is None else now
        rate = self.seconds / self.units if self.units else self.per_unit
        if now + self.sizes[k] * rate <= self.deadline:
            return True
        self.cut = len(self.sizes) - k
        return False

    def written(self, k: int, seconds: float) -> None:
        """Item ``k`` took ``seconds`` to write."""
        self.units += self.sizes[k]
        self.seconds += seconds


class Streamed:
    """A JSON array in a record that :func:`emit` writes a piece at a time: ``items()``
    gives its items, each as the pieces of its JSON text; with a :class:`Pace`, only
    while each still fits before its deadline.  Why: ``explain --json``
    lists every cell of every step; built whole, the record and its indented text cost
    about 400 bytes a cell (100 M cells: 40 GB).

    >>> import io, contextlib
    >>> out = io.StringIO()
    >>> with contextlib.redirect_stdout(out):
    ...     emit({"steps": Streamed(lambda: iter([['{"a": ', '1}'], ['{"a": 2}']])), "n": 2})
    >>> import json; json.loads(out.getvalue())
    {'steps': [{'a': 1}, {'a': 2}], 'n': 2}
    """

    def __init__(self, items: Callable[[], Iterable[Iterable[str]]], pace: Pace | None = None):
        self.items = items
        self.pace = pace


def emit(data: dict[str, Any]) -> None:
    """Print ``data`` as indented JSON; each :class:`Streamed` array in it is written a
    piece at a time (the rest of the record is small: it is encoded whole)."""
    import json  # only --json prints JSON: a plain check does not import it

    streams: list[Streamed] = []

    def placeholder(value: Any) -> str:
        if not isinstance(value, Streamed):
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
        streams.append(value)
        return f"\0nonolab-stream-{len(streams) - 1}\0"

    text = json.dumps(data, indent=2, default=placeholder)
    if not streams:
        click.echo(text)
        return
    import time

    out = sys.stdout
    for n, stream in enumerate(streams):
        before, text = text.split(json.dumps(f"\0nonolab-stream-{n}\0"), 1)
        out.write(before + "[")
        pace = stream.pace
        for k, item in enumerate(stream.items()):
            if pace is not None and not pace.fits(k):
                break
            began = time.perf_counter()
            if k:
                out.write(",\n")
            for piece in item:
                out.write(piece)
            if pace is not None:
                pace.written(k, time.perf_counter() - began)
        out.write("]")
        if pace is not None and pace.cut:   # a member after the array's, at its indent
            line = before.rsplit("\n", 1)[-1]
            out.write(f",\n{line[:len(line) - len(line.lstrip())]}{json.dumps(pace.key)}: {pace.cut}")
    out.write(text + "\n")
    out.flush()
