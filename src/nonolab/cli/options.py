"""Options shared by several commands, defined once."""

from __future__ import annotations

import click

from nonolab.solvers import DEFAULT

class OutputFile(click.Path):
    """A file a command will write (``-``: standard output): a folder, a name ending in /,
    a missing folder or a read-only file is refused when the options are read, before any
    work (:func:`nonolab.cli.streams.writable_file`); so is a file the same command reads
    (an :class:`InputPath`), even with ``--force`` (:func:`nonolab.cli.streams.not_an_input`).

    >>> OutputFile().convert("-", None, None)
    '-'
    """

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=str)

    def convert(self, value, param, ctx):
        from nonolab.cli.streams import not_an_input, writable_file
        path = writable_file(super().convert(value, param, ctx))
        for _, read in _values_of(ctx, InputPath):
            not_an_input(path, _spoken_name(param), read)
        return path


OUTPUT = OutputFile()


class InputPath(click.Path):
    """A file (or folder) a command reads: no :class:`OutputFile` of the same command may be
    it.  Whichever of the two click reads second (their order is the command line's)
    makes the check, so it holds whatever the order.

    >>> InputPath(dir_okay=False).convert("-", None, None)
    '-'
    """

    def convert(self, value, param, ctx):
        from nonolab.cli.streams import not_an_input
        path = super().convert(value, param, ctx)
        for output, written in _values_of(ctx, OutputFile):
            not_an_input(written, _spoken_name(output), path)
        return path


def inputs() -> list[str]:
    """The files (and folders) the running command reads: its :class:`InputPath` values.  A
    command that writes into an output folder checks the files it would write there against
    them (:func:`nonolab.formats._input_guard.refuse_replacing_inputs`), as an :class:`OutputFile` is."""
    return [value for _, value in _values_of(click.get_current_context(silent=True), InputPath)]


def _values_of(ctx, kind: type) -> list:
    """``(parameter, value)`` for each value already read of the parameters of type ``kind``."""
    if ctx is None:
        return []
    found = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name) if isinstance(param.type, kind) else None
        for one in value if isinstance(value, tuple) else (value,):
            if one is not None:
                found.append((param, one))
    return found


def _spoken_name(param) -> str:
    """How the command line names ``param``: its longest option (``--output``), or an argument's ``TARGET``."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return param.human_readable_name if param is not None else "the output"


def given_on_command_line(name: str) -> bool:
    """Whether the running command's parameter ``name`` was typed (not its default): an
    option that only matters beside another is then refused or implies it, not dropped."""
    from click.core import ParameterSource
    return click.get_current_context().get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                                        ParameterSource.ENVIRONMENT)


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``nan`` and ``inf`` are refused: neither is a
    limit, and ``nan`` compares false with every clock reading, so it would mean none).

    >>> Seconds().convert("2.5", None, None)
    2.5
    """

    name = "seconds"

    def convert(self, value, param, ctx):
        import math

        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
        return seconds


SECONDS = Seconds()


class FiniteRange(click.FloatRange):
    """``click.FloatRange`` that refuses ``nan`` too (every comparison with ``nan`` is false,
    so the range alone let it through, to a traceback inside the drawing).

    >>> FiniteRange(min=2, max=200).convert("2.5", None, None)
    2.5
    """

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number in the range {self._describe_range()}", param, ctx)
        return number

time_limit = click.option(
    "--time-limit", type=SECONDS, default=None, metavar="SECONDS",
    help="Stop after this many seconds of wall time for the whole command (loading included); "
         "the answer is then 'timeout'.")


def time_limit_per(what: str):
    """``--time-limit`` for commands that run many searches: the limit holds for each ``what``."""
    return click.option(
        "--time-limit", type=SECONDS, default=None, metavar="SECONDS",
        help=f"Stop each search after this many seconds of wall time, {what}; such a search is then "
             "'timeout'.")


full = click.option("--full", is_flag=True,
                    help="Print grids and cell lists whole, however big (by default a grid of more than "
                         "100 rows or columns is summarised).")
max_solutions = click.option(
    "--max-solutions", type=click.IntRange(min=1), default=2, show_default=True, metavar="N",
    help="Stop after N distinct solutions.")
as_json = click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
# The puzzle formats, spelt out here so that `--help` stays fast (no reader is imported);
# tests/cli/test_messages.py checks the list against nonolab.formats.names().
FORMAT_NAMES = ("non", "webpbn", "nin", "mk", "g", "cwd", "taai", "tatham", "json", "picture", "dzn", "pbm",
                "pynogram", "toml", "png", "emoji", "ctu", "keen", "syro", "ish", "makhorin", "faase", "lp")
input_format = click.option(
    "--from", "-f", "input_format", default=None, metavar="FMT",
    help="Format of the input file (default: recognised from its content and suffix): "
         + ", ".join(FORMAT_NAMES) + ".")
backend = click.option(
    "--backend", "-b", default=DEFAULT, show_default=True, envvar="NONOLAB_BACKEND", metavar="SPEC",
    help="Solver backend, or a spec with options such as native:line=overlap (see `nonolab backends`); "
         "auto = native propagation and probing, lcg beside it, then Kissat racing lcg on what is left.")
class Declared(click.Choice):
    """The choices of option ``option`` as backend ``backend`` declares it (its ``OPTIONS``),
    read when first needed: the command line copies no list, and a command that does not
    use the option imports no backend for it.

    >>> "depth-2" in Declared("native", "probing").choices
    True
    """

    def __init__(self, backend: str, option: str):
        self.backend, self.option = backend, option
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        from nonolab.solvers import options_of

        return next(o.allowed() for o in options_of(self.backend) if o.name == self.option)

    @choices.setter
    def choices(self, _value: object) -> None:  # click.Choice sets it; the declaration holds it
        pass


probing = click.option(
    "--probing", type=Declared("native", "probing"), default=None,
    help="Native solver (and auto's native phase): probing between line propagation and search "
         "(default: full).")
line = click.option(
    "--line", type=Declared("native", "line"), default=None,
    help="Native solver (and auto's native phase): the line strategy. dp (default) is the complete "
         "reference; chain-range (block ranges, overlap, capping), overlap (left-right "
         "overlap) and enumerate (every placement, capped) are incomplete and leave more to search; "
         "chain-range and overlap label their steps with human techniques.")
output_format = click.option(
    "--to", "to_format", default=None, metavar="FMT",
    help="Output format (default: from the output file's suffix): " + ", ".join(FORMAT_NAMES) + ".")
puzzle_file = click.argument("file", type=InputPath(dir_okay=False, path_type=str))
backend_option = click.option(
    "--option", "-O", "backend_options", multiple=True, metavar="KEY=VALUE",
    help="A backend option, repeatable (e.g. -O solver=glucose4 for cnf, -O workers=2 for cpsat, "
         "-O probing=contradiction or -O line=chain-range for native).")


def puzzle_and_solver(func):
    """The options every solving command shares: the file, its format, which puzzle, and the backend."""
    from nonolab.cli.sets import index_option

    for option in reversed((puzzle_file, input_format, index_option, backend, probing, line, backend_option)):
        func = option(func)
    return func


given = click.option(
    "--given", "givens", multiple=True, metavar="R,C=#",
    help="A given: cell at row R, column C (1-based, as check --why prints them) is filled (#) or "
         "empty (.), or in a colour puzzle takes the colour its pictures draw with that character "
         "(as check --why prints them, e.g. =%), or colour N (=N, 0 the background); repeatable, and one "
         "value may hold several, e.g. '(2,3)=# (4,1)=.'. The backend "
         "must take given cells (see nonolab backends).")

# A mark is a number (a cell value) or one character a picture draws (not a digit, a space or
# what separates the givens).
_GIVEN = r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*=\s*(\d+|[^\s\d(),;=])"


def parse_givens(values: tuple[str, ...]) -> tuple[tuple[tuple[int, int], "int | str"], ...]:
    """``("2,3=#", "(4,1)=.")`` -> ``(((1, 2), '#'), ((3, 0), '.'))``: each cell (0-based inside,
    1-based outside) with its mark as typed, a number or a character; :func:`given_values` reads
    the marks against a puzzle (a colour puzzle's characters are its palette's).

    >>> parse_givens(("2,3=#", "(4,1)=. (1,1)=1 (1,2)=%"))
    (((1, 2), '#'), ((3, 0), '.'), ((0, 0), 1), ((0, 1), '%'))
    >>> parse_givens(("0,3=#",))
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: --given 0,3=#: rows and columns count from 1
    """
    import re

    from nonolab.errors import InvalidArgument

    found: list[tuple[tuple[int, int], int | str]] = []
    for text in values:
        matches = list(re.finditer(_GIVEN, text))
        if not matches or re.sub(_GIVEN, "", text).strip(" ,;"):
            raise InvalidArgument(f"--given {text}: expected R,C=# or R,C=. or R,C=N (1-based row and column)")
        for m in matches:
            r, c = int(m.group(1)), int(m.group(2))
            if r < 1 or c < 1:
                raise InvalidArgument(f"--given {text}: rows and columns count from 1")
            mark = m.group(3)
            found.append(((r - 1, c - 1), int(mark) if mark.isdigit() else mark))
    return tuple(found)


def given_values(marks: "tuple[tuple[tuple[int, int], int | str], ...]", puzzle) -> dict[tuple[int, int], int]:
    """The cell values the marks of :func:`parse_givens` give ``puzzle``: a number is the value
    itself; a character is the value the puzzle's pictures draw with it (``puzzle.chars``: in
    colour, the palette's, so the ``%`` that ``check --why`` prints is the colour it drew);
    besides, ``.`` is the background and ``#`` filled (colour 1).

    >>> from nonolab import load
    >>> from nonolab.core import Palette, Puzzle
    >>> p = Puzzle(rows=((1, 1),), columns=((1,), (1,)), row_colours=((2, 1),), column_colours=((2,), (1,)),
    ...            palette=Palette.of(("black", (0, 0, 0), "X"), ("red", (255, 0, 0), "#")))
    >>> given_values(parse_givens(("1,1=# 1,2=X",)), p)
    {(0, 0): 2, (0, 1): 1}
    >>> given_values(parse_givens(("1,1=%",)), p)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: --given (1,1)=%: '%' draws no colour of this puzzle (its characters: .X#)

    Raises:
        InvalidArgument: a character the puzzle does not draw, or one cell given two values.
    """
    from nonolab.errors import InvalidArgument

    chars = puzzle.chars
    values: dict[tuple[int, int], int] = {}
    for (r, c), mark in marks:
        if isinstance(mark, int):
            value = mark
        elif mark in chars:
            value = chars.index(mark)
        elif mark in ".#":
            value = ".#".index(mark)
        else:
            raise InvalidArgument(f"--given ({r + 1},{c + 1})={mark}: {mark!r} draws no colour of this puzzle "
                                  f"(its characters: {chars})")
        if values.get((r, c), value) != value:
            raise InvalidArgument(f"--given: cell ({r + 1},{c + 1}) is given two different values")
        values[(r, c)] = value
    return values


# The library's parameters as this command line spells them: a library message about a
# parameter (NonolabError.argument, "dump:fmt" or "density") is said with the option of
# the running command that feeds it, the first of these click parameter names it has.
FED_BY = {
    "load:fmt": ("input_format",),
    "dump:fmt": ("to_format", "fmt"),
    "picture:fmt": ("to_format",),
}


def spoken(err, command: click.Command | None) -> str:
    """The one-line message of library error ``err`` in this command line's words.

    >>> from nonolab.errors import UnknownFormat
    >>> err = UnknownFormat("cannot tell the format; name it with {arg}", argument="dump:fmt")
    >>> spoken(err, click.Command("convert", params=[click.Option(["--to", "to_format"])]))
    'cannot tell the format; name it with --to'
    """
    if err.argument is None or command is None:
        return str(err)
    names = FED_BY.get(err.argument, (err.argument.rpartition(":")[2],))
    for name in names:
        for param in command.params:
            if param.name == name and isinstance(param, click.Option):
                return err.said_as(max(param.opts, key=len))
    return str(err)
