"""The ``nonolab`` command: the group of :mod:`nonolab.cli.group` with every command added.

See :mod:`nonolab.cli.group` for the exit codes.
"""

from __future__ import annotations

import os
import sys

from nonolab.cli.group import EXIT_BAD_INPUT, EXIT_BUG, EXIT_NO, EXIT_OK, cli

__all__ = ["EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_NO", "EXIT_OK", "cli", "main", "COMMAND_MODULES"]

#: Which module under ``nonolab.cli`` defines each command: the group imports a module
#: when one of its commands is asked for (tests/test_architecture.py checks this table
#: against every module's ``COMMANDS`` and ``ALIASES``).
COMMAND_MODULES = {
    **dict.fromkeys(("solve", "check", "count", "explain", "convert", "info"), "commands"),
    **dict.fromkeys(("crosscheck", "verify", "backends", "export", "grade"), "harness_commands"),
    "batch": "batch_commands",
    "bench": "bench_commands",
    "certify-check": "certify_commands",
    "census": "census_commands",
    "label": "census_commands",
    "generate": "generate_commands",
    "render": "render_commands",
    "repair": "report_commands",
    "serve": "serve_commands",
}
cli.lazy = COMMAND_MODULES


def main() -> None:
    """The ``nonolab`` command: run it, flush its output, and leave without the interpreter's teardown.

    Why ``os._exit``: the interpreter's teardown (finalising every module and solver
    library loaded; numba's once took a second) comes after the answer is printed and
    would count against ``--time-limit`` as the user sees it.  Every file a command
    writes is complete (and closed) before it returns.
    """
    from nonolab.cli.interrupt import exit_at_once
    from nonolab.cli.streams import quiet_closed_pipe, reopen_closed_descriptors

    exit_at_once()
    reopen_closed_descriptors()
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
        if stream is None:   # started with that descriptor closed (`>&-`): nothing to flush
            continue
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
