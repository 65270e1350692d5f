"""The ``nonolab`` program's entry point: Ctrl-C is handled from its first instant.

Loading the command line (click, the solvers' registry, the core types) takes tens of
milliseconds, seconds on a busy machine; a signal during that load used to end in a
``KeyboardInterrupt`` traceback.  So the handler goes in before anything else of nonolab
is imported: this module and the package's ``__init__`` import nothing heavy (tests/cli/
test_interrupts.py holds them to it).
"""

from __future__ import annotations


def main() -> None:
    """Run the ``nonolab`` command (``[project.scripts]`` and ``python -m nonolab``)."""
    from nonolab.cli.interrupt import exit_at_once

    exit_at_once()
    from nonolab.cli.main import main as run

    run()
