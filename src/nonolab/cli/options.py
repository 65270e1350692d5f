"""Options shared by several commands, defined once."""

from __future__ import annotations

import click

time_limit = click.option(
    "--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
    help="Stop after this many seconds of wall time; the answer is then 'timeout'.")
max_solutions = click.option(
    "--max-solutions", type=click.IntRange(min=1), default=2, show_default=True, metavar="N",
    help="Stop after N distinct solutions.")
as_json = click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
input_format = click.option(
    "--from", "-f", "input_format", default=None, metavar="FMT",
    help="Format of the input file (default: recognised from its content and suffix).")
backend = click.option(
    "--backend", "-b", default="native", show_default=True, envvar="NONOLAB_BACKEND",
    help="Solver backend (see `nonolab backends`).")
probing = click.option(
    "--probing", type=click.Choice(["full", "contradiction", "none"]), default=None,
    help="Native solver: probing between line propagation and search (default: full).")
puzzle_file = click.argument("file", type=click.Path(dir_okay=False, path_type=str))
