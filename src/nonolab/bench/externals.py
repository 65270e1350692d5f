"""External solvers: a command template, the rule that reads its verdict, and an optional grid check.

An :class:`External` says how to run another program on one puzzle and how to read
what it printed.  The command is a template: ``{file}`` is the puzzle's own file (or
a ``.non`` copy when its file holds several puzzles), ``{file.nin}``, ``{file.non}``,
``{file.xml}`` ... the puzzle converted first with nonolab's writer for that suffix,
``{program}`` the program, ``{limit}`` the time limit in whole seconds (rounded up).
The verdict comes from a declared rule: regular expressions per verdict, tried in
order over its standard output, or exit codes.  When a grid rule is declared, a grid
the program prints is checked against the clues: a picture that breaks them makes
the run ``wrong``.

Definitions for nonosolve, pbnsolve and nonogrid ship here (:data:`KNOWN`); another
solver is declared on the command line (``NAME="./solver {file.non}"``, read with
the nonolab words) or in a TOML file (``NAME=path/to/solver.toml``, see
:func:`load_definition`).

>>> ext = External("echo", {"check": "echo unique {file.non}"}, verdicts=(("unique", r"^unique"),))
>>> ext.command("check", {"non": "/tmp/p.non"}, "/tmp/p.non", 10)
['echo', 'unique', '/tmp/p.non']
>>> ext.verdict("unique /tmp/p.non\\n", 0)
'unique'
"""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Mapping

from nonolab.errors import BenchError

#: The verdicts an external may report (``solved``: a solution found, uniqueness not asked).
VERDICTS = ("unique", "multiple", "contradiction", "solved", "timeout", "error")
#: The rule of a command given on the command line: the nonolab words, first one printed wins.
WORDS = tuple((word, rf"(?m)^\s*{word}\b") for word in ("unique", "multiple", "contradiction", "solved", "timeout"))
_FIELD = re.compile(r"\{([a-z_]+)(?:\.([A-Za-z0-9]+))?\}")


@dataclass(frozen=True)
class GridRule:
    """How a printed grid looks: one line per row, ``filled`` and ``empty`` characters
    (``separator`` between cells, if any).  The first block of rows of the puzzle's
    shape in the output is the grid."""

    filled: str = "#"
    empty: str = "."
    separator: str = ""

    def __post_init__(self) -> None:
        # A rule that cannot match (two characters, none, the same twice) is refused here,
        # not found out by every run (an empty one made each run's expression fail).
        for key in ("filled", "empty"):
            value = getattr(self, key)
            if not isinstance(value, str) or len(value) != 1 or value.isspace():
                raise BenchError(f"[grid]: {key} must be one character, not {value!r}")
        if self.filled == self.empty:
            raise BenchError(f"[grid]: filled and empty must differ (both {self.filled!r})")
        if not isinstance(self.separator, str) or self.filled in self.separator or self.empty in self.separator:
            raise BenchError(f"[grid]: separator must be a string of neither cell character, not {self.separator!r}")

    def find(self, text: str, width: int, height: int) -> list[str] | None:
        """The grid's rows as ``#``/``.`` strings, or None when no block of that shape is printed."""
        cells = re.escape(self.filled + self.empty)
        sep = re.escape(self.separator) + "?" if self.separator else ""
        row = re.compile(rf"[{cells}](?:{sep}[{cells}]){{{width - 1}}}")
        block: list[str] = []
        for line in text.splitlines():
            stripped = line.strip()
            if row.fullmatch(stripped):
                block.append("".join("#" if ch == self.filled else "." for ch in stripped
                                     if ch in (self.filled, self.empty)))
                if len(block) == height:
                    return block
            else:
                block = []
        return None


@dataclass(frozen=True)
class External:
    """An external solver.

    Args:
        name: its label in the reports.
        commands: a template per task it can do (``check``: count to 2, ``solve``: the
            first solution, ``count``: every solution).
        verdicts: ``(verdict, regular expression)`` pairs tried in order over stdout.
        exit_codes: exit code -> verdict, tried when no expression matched.
        grid: how it prints a grid, to check it against the clues (None: not checked).
        program: the program ``{program}`` stands for; a bare name is looked up on PATH.
        colour: it solves colour puzzles.
        givens: it honours given cells (a puzzle with givens is refused otherwise: read
            without them, it is another puzzle).
    """

    name: str
    commands: Mapping[str, str]
    verdicts: tuple[tuple[str, str], ...] = ()
    exit_codes: Mapping[int, str] = field(default_factory=dict)
    grid: GridRule | None = None
    program: str | None = None
    colour: bool = False
    givens: bool = False

    def __post_init__(self) -> None:
        for task, template in self.commands.items():
            _check_template(self.name, task, template)
        for verdict, pattern in self.verdicts:
            if not isinstance(pattern, str):
                raise BenchError(f"external {self.name}: the expression for {verdict} must be a string, not {pattern!r}")
            if verdict not in VERDICTS:
                raise BenchError(f"external {self.name}: unknown verdict {verdict!r} (known: {', '.join(VERDICTS)})")
            try:
                re.compile(pattern)
            except re.error as err:
                raise BenchError(f"external {self.name}: bad regular expression for {verdict}: {err}") from None
        for code, verdict in self.exit_codes.items():
            if verdict not in VERDICTS:
                raise BenchError(f"external {self.name}: exit code {code}: unknown verdict {verdict!r}")

    def suffixes(self, task: str) -> set[str]:
        """The suffixes its command for ``task`` asks the puzzle in (``{file.nin}`` -> ``nin``)."""
        return {ext for name, ext in _FIELD.findall(self.commands[task]) if name == "file" and ext}

    def command(self, task: str, files: Mapping[str, str], own_file: str, limit: float | None) -> list[str]:
        """The argument list for one run: ``files`` maps a suffix to the converted puzzle."""
        values = {"file": own_file, "program": self.program or self.name,
                  "limit": str(max(1, math.ceil(limit))) if limit else "0"}

        def fill(match: re.Match) -> str:
            key, ext = match.group(1), match.group(2)
            if key == "file" and ext:
                return files[ext]
            if key not in values:
                raise BenchError(f"external {self.name}: unknown field {{{key}}} in its command")
            return values[key]

        return [_FIELD.sub(fill, token) for token in shlex.split(self.commands[task])]

    def verdict(self, stdout: str, exit_code: int, stderr: str = "") -> str | None:
        """The verdict its output declares (each expression tried on stdout, then on stderr),
        or the one its exit code declares, or None."""
        for verdict, pattern in self.verdicts:
            if re.search(pattern, stdout) or (stderr and re.search(pattern, stderr)):
                return verdict
        return self.exit_codes.get(exit_code)

    def resolved(self) -> "External":
        """This definition with ``program`` found on disk.

        Raises:
            BenchError: the program is not there (one line, naming it).
        """
        program = self.program or self.name
        if os.sep in program or program.startswith("."):
            found = program if os.access(program, os.X_OK) and os.path.isfile(program) else None
        else:
            found = shutil.which(program)
        if found is None:
            raise BenchError(f"--external {self.name}: the program {program!r} is not "
                             + ("an executable file" if os.sep in program else "on PATH")
                             + (f" (name it: --external {self.name}=/path/to/{self.name})" if self.name in KNOWN else ""))
        return replace(self, program=found)


#: The fields a command may name (``{file.SUFFIX}`` too).
FIELDS = ("file", "program", "limit")


def _check_template(name: str, task: str, template: object) -> None:
    """Refuse, in one line, a command no run could start: not a string, unbalanced quotes,
    no puzzle file, a field :meth:`External.command` does not fill, a suffix no writer has.

    Raises:
        BenchError: what is wrong with it.
    """
    from nonolab.formats import format_for_path, names

    if not isinstance(template, str):
        raise BenchError(f"external {name}: its {task} command must be a string, not {template!r}")
    try:
        shlex.split(template)
    except ValueError as err:   # "No closing quotation"
        raise BenchError(f"external {name}: its {task} command {template!r}: {err}") from None
    fields = _FIELD.findall(template)
    if not any(key == "file" for key, _ in fields):
        raise BenchError(f"--external {name}: its command names no puzzle file ({{file}}, {{file.non}}, ...)")
    for key, suffix in fields:
        shown = "{" + key + (f".{suffix}" if suffix else "") + "}"
        if key not in FIELDS or (suffix and key != "file"):
            raise BenchError(f"external {name}: unknown field {shown} in its {task} command "
                             "(known: {file}, {file.SUFFIX}, {program}, {limit})")
        if suffix and format_for_path(f"x.{suffix}") is None and suffix not in names():
            raise BenchError(f"external {name}: {shown} in its {task} command: nonolab writes no format of "
                             f"that suffix (known: {', '.join(sorted(names()))})")


def _nonosolve() -> External:
    # One status line "FILE WxH STATUS time=... nodes=..." (STATUS: UNIQUE, MULTIPLE, NONE, FOUND with -n 1,
    # TIMEOUT, ERROR), then, unless -q, the first solution in # and .
    status = r"(?m)^.* \d+x\d+ {} time="
    return External(
        "nonosolve",
        {"check": "{program} -n 2 {file.nin}", "solve": "{program} -n 1 {file.nin}"},
        verdicts=(("unique", status.format("UNIQUE")), ("multiple", status.format("MULTIPLE")),
                  ("contradiction", status.format("NONE")), ("solved", status.format("FOUND")),
                  ("timeout", status.format("TIMEOUT"))),
        grid=GridRule("#", "."))


def _pbnsolve() -> External:
    # -b: the puzzle's title, then one line: "[trivial ]unique[ logical| depth-N]", "multiple", "solvable"
    # (a solution, uniqueness not asked), "contradiction" ("contradition" in one branch of 1.10), "timeout".
    # -u: check uniqueness; -x: its own CPU limit (the wall limit kills it anyway).  The title may be any
    # word, so only the last line counts.
    last = r"(?m)^{}[^\n]*\s*\Z"
    return External(
        "pbnsolve",
        {"check": "{program} -b -u -x{limit} -fnon {file.non}", "solve": "{program} -b -x{limit} -fnon {file.non}"},
        verdicts=(("unique", last.format("(?:trivial )?unique")), ("multiple", last.format("multiple")),
                  ("contradiction", last.format("contradic?tion")), ("solved", last.format("solvable")),
                  ("timeout", last.format("timeout"))))


def _nonogrid() -> External:
    # Its line logic solves the puzzle: the board with its clues, no "?" left.  Else its backtracking:
    # "Backtracking found N solutions:" and each in ■ and .; when the backtracking gives up (it has a depth
    # limit), the board with "?" cells and no such line: no verdict.  No solution: a panic "Bad puzzle: ...
    # UnsolvableLine" on stderr.  Its --timeout answers as for a unique puzzle when it fires after one
    # solution: the wall limit is used instead.
    return External(
        "nonogrid",
        {"check": "{program} --max-solutions 2 {file.nin}", "solve": "{program} --max-solutions 1 {file.nin}"},
        verdicts=(("multiple", r"Backtracking found (?:[2-9]|\d{2,}) solutions"),
                  ("unique", r"Backtracking found 1 solutions"),
                  ("contradiction", r"Bad puzzle|UnsolvableLine|found 0 solutions"),
                  ("unique", "\\A[ #0-9.\u25a0\\n]*\u25a0[ #0-9.\u25a0\\n]*\\Z")),
        grid=GridRule("\u25a0", "."))


#: The shipped definitions, by name: used when their program is on PATH or named.
KNOWN: dict[str, External] = {e.name: e for e in (_nonosolve(), _pbnsolve(), _nonogrid())}


def load_definition(path: str | os.PathLike, name: str) -> External:
    """An external solver declared in a TOML file.

    Keys: ``program`` (optional), ``colour`` (optional), ``[commands]`` (a template per
    task), ``[verdicts]`` (verdict = regular expression, in the order they are tried),
    ``[exit_codes]`` ("code" = verdict), ``[grid]`` (``filled``, ``empty``, ``separator``).

    Raises:
        BenchError: the file cannot be read or declares something unknown.
    """
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise BenchError(f"--external {name}: cannot read {path}: {err}") from None
    where = f"--external {name}: {path}"
    unknown = set(data) - {"program", "colour", "givens", "commands", "verdicts", "exit_codes", "grid", "name"}
    if unknown:
        raise BenchError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    for table in ("commands", "verdicts", "exit_codes", "grid"):
        if not isinstance(data.get(table, {}), dict):
            raise BenchError(f"{where}: [{table}] must be a table (its own [{table}] section), not {data[table]!r}")
    for key, kind, said in (("program", str, "a string"), ("colour", bool, "true or false"),
                            ("givens", bool, "true or false")):
        if key in data and not isinstance(data[key], kind):
            raise BenchError(f"{where}: {key} must be {said}, not {data[key]!r}")
    commands = data.get("commands") or {}
    if not commands or set(commands) - {"check", "solve", "count"}:
        raise BenchError(f"{where}: [commands] must give check, solve or count")
    try:
        exit_codes = {int(code): verdict for code, verdict in (data.get("exit_codes") or {}).items()}
    except ValueError:
        raise BenchError(f"{where}: [exit_codes] keys must be integers") from None
    grid = None
    if "grid" in data:
        unknown = set(data["grid"]) - {"filled", "empty", "separator"}
        if unknown:
            raise BenchError(f"{where}: [grid]: unknown keys {', '.join(sorted(unknown))} (known: filled, empty, "
                             "separator)")
        try:
            grid = GridRule(**data["grid"])
        except BenchError as err:
            raise BenchError(f"{where}: {err}") from None
    program = data.get("program")
    if program and not os.path.isabs(program) and os.sep in program:
        program = str(Path(path).resolve().parent / program)  # relative to the definition
    return External(name, commands, tuple((data.get("verdicts") or {}).items()) or WORDS, exit_codes, grid,
                    program, data.get("colour", False), data.get("givens", False))


def definition_file(text: str) -> str | None:
    """The TOML file an ``--external`` value declares its solver in (``NAME=FILE.toml``), if any:
    a file the benchmark reads, which its reports must not replace.

    >>> definition_file("mine=decl/mine.toml"), definition_file("pbnsolve")
    ('decl/mine.toml', None)
    """
    value = text.partition("=")[2].strip()
    return value if value.endswith(".toml") else None


def parse_external(text: str) -> External:
    """``NAME``, ``NAME=PROGRAM`` (a shipped definition), ``NAME=FILE.toml`` or ``NAME=TEMPLATE``, resolved.

    Raises:
        BenchError: a malformed value, an unknown name, or a program that is not there.

    >>> mine = parse_external("mine=echo unique {file.non}")
    >>> mine.command("check", {"non": "p.non"}, "p.non", 10)[1:], mine.verdict("unique\\n", 0)
    (['unique', 'p.non'], 'unique')
    """
    name, _, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not name or not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
        raise BenchError(f"--external {text!r}: expected NAME, NAME=PROGRAM, NAME=FILE.toml or NAME=COMMAND")
    if not value:
        if name not in KNOWN:
            raise BenchError(f"--external {name}: no shipped definition of that name (known: {', '.join(KNOWN)}); "
                             "give its command: --external NAME=COMMAND")
        return replace(KNOWN[name]).resolved()
    if definition_file(text) is not None:
        return load_definition(value, name).resolved()
    if "{" not in value and name in KNOWN and len(value.split()) == 1:   # one word: the program of a shipped one
        return replace(KNOWN[name], program=value).resolved()
    program, rest = (value.split(None, 1) + [""])[:2]
    template = f"{{program}} {rest}".rstrip()
    return External(name, dict.fromkeys(("check", "solve", "count"), template), WORDS, grid=GridRule(),
                    program=program).resolved()
