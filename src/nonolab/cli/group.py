"""The ``nonolab`` click group, and the only place errors become messages and exit codes.

The commands live in their own modules; :mod:`nonolab.cli.main` tells the group which
module defines each (``lazy``), and the group imports a module when one of its commands
is first asked for.  This module imports none of them (no import loop).

Exit codes:
    0  the command answered what it was asked (``check``: the puzzle is unique);
    1  the answer is not what the command asks for (``check``: multiple, contradiction
       or timeout; ``solve``: no solution found; ``count``: cut by the time limit;
       ``batch``: some puzzle timed out, failed, or its backends disagree);
    2  bad input or usage (one line on stderr naming the file and line);
    3  a backend returned a wrong answer (a bug: please report it);
    130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM (one line, ``nonolab: interrupted``);
    141  standard output was closed under it (``| head``): stopped, silently (128 + SIGPIPE).
"""

from __future__ import annotations

import importlib

import click

from nonolab.errors import NonolabError

# Click 8.2+ raises this usage error for a group called without a command; before, it
# printed the help itself.  (A class nothing raises where it is absent.)
_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", type("_NeverRaised", (Exception,), {}))

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_BUG = 0, 1, 2, 3


class _Group(click.Group):
    """Turns library errors into one-line messages; never a traceback for bad input.

    Commands named in ``lazy`` (command name -> module under ``nonolab.cli``) are added
    when first asked for, with every command of their module (its ``COMMANDS``, and its
    ``ALIASES``: name -> command): ``nonolab check`` does not import the modules of
    ``batch``, ``serve`` or ``render`` (about 9 ms of each start), and help lists them all.
    """

    lazy: dict[str, str] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str):
        if name not in self.commands and name in self.lazy:
            self.load(self.lazy[name])
        return super().get_command(ctx, name)

    def load(self, module: str) -> None:
        """Add every command of ``nonolab.cli.<module>`` (and its aliases) to the group."""
        found = importlib.import_module(f"nonolab.cli.{module}")
        for command in found.COMMANDS:
            self.commands.setdefault(command.name, command)
        for alias, command in getattr(found, "ALIASES", {}).items():
            self.commands.setdefault(alias, command)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Click's ``main``, with a usage error (an unknown option, a bad value) said in one
        line, ``nonolab: error: COMMAND: WHAT (see COMMAND --help)``, exit 2, as every other
        bad input is."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        import sys
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS as err:   # `nonolab` alone: its help, as --help prints it (and click < 8.2 did)
            click.echo(err.ctx.get_help())
            sys.exit(0)
        except click.UsageError as err:
            where = err.ctx.command_path.partition(" ")[2] if err.ctx is not None else ""
            path = f"nonolab {where}".strip()   # the root's name as users type it, however it was started
            message = " ".join(err.format_message().split())
            click.echo(f"nonolab: error: {where + ': ' if where else ''}{message} (see {path} --help)", err=True)
            sys.exit(err.exit_code)
        except click.ClickException as err:
            click.echo(f"nonolab: error: {' '.join(err.format_message().split())}", err=True)
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("nonolab: interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context):
        from nonolab.cli import clock, interrupt

        clock.start()  # --time-limit counts from here: loading and every step share it
        _warnings_in_one_line()
        try:
            from nonolab.formats import InputLimits
            InputLimits().resolved()   # a bad NONOLAB_MAX_* variable: one line before any output
            # In a worker thread: a signal then ends the command at once (see interrupt.py).
            return interrupt.run(lambda: super(_Group, self).invoke(ctx))
        except NonolabError as err:
            from nonolab.cli.options import spoken
            from nonolab.errors import WrongAnswer
            command = self.commands.get(ctx.invoked_subcommand or "")
            click.echo(f"nonolab: error: {spoken(err, command)}", err=True)
            ctx.exit(EXIT_BUG if isinstance(err, WrongAnswer) else EXIT_BAD_INPUT)
        except OSError as err:
            where = f"{err.filename}: " if getattr(err, "filename", None) else ""
            click.echo(f"nonolab: error: {where}{err.strerror or err}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            click.echo("nonolab: interrupted", err=True)
            ctx.exit(130)


def _warnings_in_one_line() -> None:
    """A library warning (a hard link an atomic write broke) as one line on stderr."""
    import warnings

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        click.echo(f"nonolab: warning: {message}", err=True)

    warnings.showwarning = show


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="nonolab", message="nonolab %(version)s")
def cli() -> None:
    """Solve nonograms and prove things about them.

    \b
    Exit codes: 0 ok; 1 the answer is not what the command asks for
    (e.g. `check` on a puzzle that is not unique); 2 bad input or usage;
    3 a backend returned a wrong answer (a bug); 130 Ctrl-C; 143 SIGTERM;
    141 standard output closed (| head).
    \b
    check words: unique, multiple, contradiction, timeout.
    """
