"""``serve``: the local web workbench (nonolab.web), on this machine only unless asked."""

from __future__ import annotations

import click

from nonolab.cli import options


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on.  Only this machine can reach 127.0.0.1; any other "
                   "address lets other machines use the workbench (and its CPU).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port (0: a free one, chosen by the system).")
@click.option("--open/--no-open", "open_browser", default=False, show_default=True,
              help="Open the page in the default web browser.")
@options.time_limit_per("per job (a report, an explanation, a puzzle from an image)")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Jobs that run at once; others wait their turn.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Another name a request's Host may give (with --host beyond this machine: the name others "
                   "use to reach it); repeatable.  Requests naming any other host are refused.")
def serve(host, port, open_browser, time_limit, workers, allow_hosts):
    """A web workbench in the browser: open, paste, drop or draw a puzzle; see its
    verdict, grade and ambiguity map; step through `explain`; apply a repair; make a
    puzzle from an image; download it in any format.

    Prints the address, then serves until Ctrl-C.  Needs the serve extra
    (pip install "nonolab[serve]").  --time-limit defaults to 60 seconds per job.
    With --host other than this machine's loopback, a warning says what that exposes.
    """
    from nonolab.web.server import serve as run

    def ready(url: str) -> None:
        click.echo(f"nonolab workbench at {url} (Ctrl-C to stop)", err=True)
        click.echo(url)
        if open_browser:
            import webbrowser
            webbrowser.open(url)

    def warn(line: str) -> None:
        click.echo(line, err=True)

    run(host, port, 60.0 if time_limit is None else time_limit, workers, ready, warn, tuple(allow_hosts))


COMMANDS = (serve,)
