"""Entry point and error handling: the only place errors become messages and exit codes.

Exit codes:
    0  the command answered what it was asked (``check``: the puzzle is unique);
    1  the answer is not what the command asks for (``check``: multiple, contradiction
       or timeout; ``solve``: no solution found; ``count``: cut by the time limit;
       ``batch``: some puzzle timed out, failed, or its backends disagree);
    2  bad input or usage (one line on stderr naming the file and line);
    3  a backend returned a wrong answer (a bug: please report it);
    130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM (one line, ``nonolab: interrupted``).
"""

from __future__ import annotations

import os
import sys

import click

from nonolab.errors import NonolabError

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_BUG = 0, 1, 2, 3


class _Group(click.Group):
    """Turns library errors into one-line messages; never a traceback for bad input."""

    def invoke(self, ctx: click.Context):
        from nonolab.cli import clock, interrupt

        clock.start()  # --time-limit counts from here: loading and every step share it
        try:
            # In a worker thread: a signal then ends the command at once (see interrupt.py).
            return interrupt.run(lambda: super(_Group, self).invoke(ctx))
        except NonolabError as err:
            from nonolab.solvers.base import WrongAnswer
            click.echo(f"nonolab: error: {err}", err=True)
            ctx.exit(EXIT_BUG if isinstance(err, WrongAnswer) else EXIT_BAD_INPUT)
        except OSError as err:
            where = f"{err.filename}: " if getattr(err, "filename", None) else ""
            click.echo(f"nonolab: error: {where}{err.strerror or err}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            click.echo("nonolab: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="nonolab", message="nonolab %(version)s")
def cli() -> None:
    """Solve nonograms and prove things about them.

    \b
    Exit codes: 0 ok; 1 the answer is not what the command asks for
    (e.g. `check` on a puzzle that is not unique); 2 bad input or usage;
    3 a backend returned a wrong answer (a bug); 130 Ctrl-C; 143 SIGTERM.
    \b
    check words: unique, multiple, contradiction, timeout.
    """


def main() -> None:
    """The ``nonolab`` command: run it, flush its output, and leave without the interpreter's teardown.

    Why ``os._exit``: tearing down the compiled native engine takes about a second after
    the answer is printed, which would count against ``--time-limit`` as the user sees
    it.  Every file a command writes is complete (and closed) before it returns.
    """
    from nonolab.cli.interrupt import exit_at_once
    from nonolab.cli.streams import quiet_closed_pipe

    exit_at_once()
    quiet_closed_pipe()
    try:
        cli(prog_name="nonolab")
        code = 0
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            code = done.code or 0
        else:
            print(done.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


from nonolab.cli import commands  # noqa: E402,F401  (registers the commands on `cli`)
from nonolab.cli import harness_commands  # noqa: E402,F401
from nonolab.cli import batch_commands  # noqa: E402,F401
from nonolab.cli import generate_commands  # noqa: E402,F401
from nonolab.cli import render_commands  # noqa: E402,F401
from nonolab.cli import report_commands  # noqa: E402,F401
