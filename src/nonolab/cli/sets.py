"""A file holding several puzzles: every command answers for each of them (or for ``--index N``).

A command gives :func:`run_set` a function that answers for one puzzle; this module
loads the file, prints each answer (a file of one puzzle prints exactly what it
always did; in a set each answer is named ``#2 "Title": ...``), then a summary
line, and returns the worst exit code.  With ``--json``: one record, or one set
document (:mod:`nonolab.cli.records`).

In a set each puzzle is answered on its own: a puzzle that could not be read (its clues
impossible: :func:`nonolab.formats.load_each`) or a library error on one puzzle (a backend
that refuses it, a model beyond a limit) is that puzzle's one-line answer, ``#2: error:
set.txt:53: puzzle 2: ...``, with a record in ``--json`` (``"verdict": null, "error":
"..."``), and the next puzzle is answered as usual; the exit code is then 2, given once
every puzzle is answered.  A file of one puzzle, or ``--index N`` naming the bad one, ends
with the error (exit 2).

>>> Answer("unique", 0, {}, "unique").code
0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import click

from nonolab.cli import records
from nonolab.errors import InvalidArgument, NonolabError, WrongAnswer
from nonolab.core.words import counted

index_option = click.option(
    "--index", "index", type=int, default=None, metavar="N",
    help="Answer for the N-th puzzle of the file only (1-based; default: every puzzle of a set).")


@dataclass
class Answer:
    """One puzzle's answer.

    Attributes:
        verdict: the word counted in a set's summary (None: nothing to count).
        code: the exit code this puzzle alone would give.
        data: its JSON fields, added to the record naming the puzzle.
        headline: one line; in a set it follows ``#i "Title": ``.
        body: the lines after the headline.
        single: prints a single puzzle's text when that is not headline then body.
    """

    verdict: str | None
    code: int
    data: dict[str, Any]
    headline: str = ""
    body: list[str] = field(default_factory=list)
    single: Callable[[], None] | None = None


def choose(path: str, puzzles: list, index: int | None) -> list[tuple[int, Any]]:
    """``(1-based index, puzzle)`` for every puzzle, or for puzzle ``index`` only; a puzzle
    that could not be read is its error (:func:`nonolab.formats.load_each`), raised when
    ``index`` names it.

    >>> choose("set.xml", ["a", "b"], 2)
    [(2, 'b')]
    >>> choose("set.xml", ["a", "b"], 3)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: set.xml: --index 3 is out of range: the file holds 2 puzzles
    """
    if index is None:
        return list(enumerate(puzzles, 1))
    if not 1 <= index <= len(puzzles):
        n = len(puzzles)
        raise InvalidArgument(f"{path}: --index {index} is out of range: the file holds {counted(n, 'puzzle')}")
    if isinstance(puzzles[index - 1], NonolabError):
        raise puzzles[index - 1]
    return [(index, puzzles[index - 1])]


def load(path: str, fmt: str | None, index: int | None) -> list[tuple[int, Any]]:
    """The chosen puzzles of the file at ``path`` (see :func:`choose`), each read on its own:
    in a set, a puzzle that could not be read is its error, answered in its place by
    :func:`run_set` (its one-line error, exit 2 once the others are answered)."""
    from nonolab.formats import load_each

    return choose(path, load_each(path, fmt), index)


def whole(chosen: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """``chosen`` when every puzzle of it was read, else the first unread one's error: for a
    command that writes the set back (it cannot write a puzzle it could not read)."""
    for _, puzzle in chosen:
        if isinstance(puzzle, NonolabError):
            raise puzzle
    return chosen


def readable(chosen: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """The puzzles of ``chosen`` that were read (not the errors of those that were not)."""
    return [(number, puzzle) for number, puzzle in chosen if not isinstance(puzzle, NonolabError)]


def one(path: str, fmt: str | None, index: int | None, makes: str) -> Any:
    """The one puzzle of ``path`` a command that ``makes`` one thing of one puzzle works on: the
    file's only puzzle, or the one --index names; a set without --index is refused (its
    first puzzle, taken unsaid, would pass for the file)."""
    chosen = load(path, fmt, index)
    if len(chosen) > 1:
        raise InvalidArgument(f"{path} holds {len(chosen)} puzzles, and {makes}: name it with --index N")
    return whole(chosen)[0][1]


def refuse_writing(chosen: list, fmt: str, where: str) -> None:
    """Before any work: refuse to write several puzzles in ``fmt`` when it holds one a file
    (``where``: the output file, or the input file for standard output)."""
    from nonolab.formats import refuse_several

    try:
        refuse_several(fmt, len(chosen))
    except InvalidArgument as err:
        raise InvalidArgument(f"{where}: {err}; or name one puzzle with --index N") from None


def name(index: int, puzzle) -> str:
    """``#2 "Title"`` (``#2`` for an untitled puzzle, or one that could not be read: None)."""
    return f"#{index}" + (f' "{puzzle.name}"' if puzzle is not None and puzzle.name else "")


def summary_line(verdicts: list[str | None], errors: int = 0) -> str:
    """``3 puzzles: 2 unique, 1 multiple``; the puzzles a library error stopped have no verdict
    ("error" is none of the words) and are counted apart, as batch counts them.

    >>> summary_line(["unique", "unique", None], errors=1)
    '3 puzzles: 2 unique; could not be checked: 1'
    """
    tally = records.summary(verdicts, 0)["verdicts"]
    n = len(verdicts)
    parts = [f"{number} {verdict}" for verdict, number in tally.items()]
    return (counted(n, "puzzle") + (f": {', '.join(parts)}" if parts else "")
            + (f"; could not be checked: {errors}" if errors else ""))


def _failed(err: NonolabError) -> Answer:
    """A set's puzzle that a library error stopped: its one-line answer and its record."""
    from nonolab.cli.group import EXIT_BAD_INPUT, EXIT_BUG

    return Answer(None, EXIT_BUG if isinstance(err, WrongAnswer) else EXIT_BAD_INPUT,
                  {"verdict": None, "error": str(err)}, f"error: {err}")


def run_set(path: str, fmt: str | None, index: int | None, as_json: bool,
            answer_of: Callable[[Any], Answer], chosen: list[tuple[int, Any]] | None = None,
            show: bool = True, time_limit: float | None = None) -> int:
    """Answer for every chosen puzzle of ``path``; returns the worst exit code.

    ``chosen`` skips the loading (the caller already has the puzzles); ``show=False``:
    standard output carries something else (the puzzles written), so each answer's headline
    and a set's summary go to standard error instead; JSON still goes out.
    ``time_limit`` is the command's (``--time-limit``, counted from its start): once it has
    run out, the puzzles not yet answered are counted ``timeout`` in one line, not asked
    one by one (each would cost a search's set-up however little time it is given).
    """
    from nonolab.cli import clock
    from nonolab.cli.group import EXIT_BAD_INPUT

    chosen = load(path, fmt, index) if chosen is None else chosen
    single = len(chosen) == 1
    found: list[dict[str, Any]] = []
    verdicts: list[str | None] = []
    errors = 0
    worst = 0
    for at, (number, puzzle) in enumerate(chosen):
        if time_limit is not None and clock.elapsed() >= time_limit and not single:
            unread = [(n, p) for n, p in chosen[at:] if isinstance(p, NonolabError)]   # their errors stand
            rest = len(chosen) - at - len(unread)
            verdicts += ["timeout"] * rest + [None] * len(unread)
            errors += len(unread)
            worst = max(worst, 1, EXIT_BAD_INPUT if unread else 0)
            if as_json:   # every puzzle has its record: these say the clock ran out before them
                found += [{**records.record(path, n, None), "verdict": None, "error": str(p)}
                          if isinstance(p, NonolabError) else
                          {**records.record(path, n, p), "verdict": "timeout", "error": None}
                          for n, p in chosen[at:]]
            else:
                for n, p in unread:
                    click.echo(f"{name(n, None)}: error: {p}", err=not show)
                click.echo(f"... {counted(rest, 'more puzzle', grouped=True)} not answered: --time-limit ran out (timeout)",
                           err=not show)
            break
        try:
            if isinstance(puzzle, NonolabError):   # it could not be read: its error is its answer
                raise puzzle
            answer = answer_of(puzzle)
        except NonolabError as err:
            if single:
                raise          # one puzzle: the command's one-line error, exit 2
            answer = _failed(err)
            errors += 1
        if isinstance(puzzle, NonolabError):
            puzzle = None
        worst = max(worst, answer.code)
        verdicts.append(answer.verdict)
        if as_json:
            found.append({**records.record(path, number, puzzle), **answer.data})
        elif not show:   # standard output carries puzzles: the verdict goes beside them
            if answer.headline:
                click.echo(answer.headline if single else f"{name(number, puzzle)}: {answer.headline}", err=True)
            continue
        elif single and answer.single is not None:
            answer.single()
        else:
            if not single:
                click.echo(f"{name(number, puzzle)}: {answer.headline}" if answer.headline
                           else name(number, puzzle))
            elif answer.headline:
                click.echo(answer.headline)
            for line in answer.body:
                click.echo(line)
    if as_json:
        records.emit(found[0] if single else records.set_document(path, found, worst, verdicts, errors))
    elif not single:
        click.echo(summary_line(verdicts, errors), err=not show)
    return worst
