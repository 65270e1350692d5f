"""Run the workbench: bind a port on this machine (127.0.0.1 unless told otherwise),
then serve the application with uvicorn until stopped.

:class:`Running` serves in a background thread (tests, notebooks); :func:`serve`
blocks (the CLI).

>>> with Running(port=0) as server:
...     server.url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Callable

from nonolab.errors import InvalidArgument, MissingDependency


def _uvicorn():
    try:
        import starlette  # noqa: F401  (the application's stack; say so before it fails inside)
        import uvicorn
    except ImportError as err:
        raise MissingDependency(f"nonolab serve needs starlette and uvicorn ({err}); install them with: "
                                "pip install 'nonolab[serve]'") from None
    return uvicorn


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one, chosen by the system).

    Raises:
        InvalidArgument: the address cannot be bound (in use, not this machine's, ...).
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as err:
        raise InvalidArgument(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    return sock


#: The names this machine answers to on its loopback interface (the Host a browser sends).
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def _loopback(sock: socket.socket) -> bool:
    import ipaddress
    return ipaddress.ip_address(sock.getsockname()[0]).is_loopback


def host_names(sock: socket.socket, host: str, extra: tuple[str, ...] = ()) -> list[str]:
    """The names a request's ``Host`` may give: this machine's loopback names, and when
    bound elsewhere, the address asked for (unless a wildcard), this machine's name and
    its addresses, and ``extra`` (``--allow-host``).  Anything else is refused, so a name
    that an attacker's DNS points here (rebinding) never reaches the workbench.

    >>> sock = bind("127.0.0.1", 0); host_names(sock, "127.0.0.1") == LOOPBACK_NAMES; sock.close()
    True
    """
    names = list(LOOPBACK_NAMES) + [h.lower() for h in extra]
    if _loopback(sock):
        return names
    if host not in ("0.0.0.0", "::", ""):
        names.append(host.lower())
    machine = socket.gethostname()
    for name in {machine, socket.getfqdn()}:
        names.append(name.lower())
        try:
            names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
        except OSError:
            pass
    names += [f"[{n}]" for n in names if ":" in n and not n.startswith("[")]
    return list(dict.fromkeys(names))


def exposure(sock: socket.socket, time_limit: float | None, workers: int, names: list[str]) -> str | None:
    """The warning a server bound beyond this machine prints: what it exposes, to whom."""
    if _loopback(sock):
        return None
    address = sock.getsockname()[0]
    every = " (every interface of this machine)" if address in ("0.0.0.0", "::") else ""
    per_job = f"{time_limit:g} s" if time_limit is not None else "no time limit"
    return (f"nonolab: warning: listening on {address}{every}: any machine that can reach it can open the "
            f"workbench, load files and puzzles into it, and run jobs on this machine's CPU ({workers} at once, "
            f"{per_job} each); it answers only to Host {', '.join(names)} (add names with --allow-host)")


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


class Running:
    """The workbench served in a background thread while the ``with`` block runs.

    ``url`` is where it answers; ``app`` the application (its ``state.jobs`` and
    ``state.store``).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, time_limit: float | None = 60.0,
                 workers: int = 2, allow_hosts: tuple[str, ...] = ()):
        from nonolab.web.api import create_app

        uvicorn = _uvicorn()
        self.sock = bind(host, port)
        self.url = url_of(self.sock)
        self.hosts = host_names(self.sock, host, allow_hosts)
        #: The warning of a server bound beyond this machine (None on loopback).
        self.warning = exposure(self.sock, time_limit, workers, self.hosts)
        self.app = create_app(time_limit, workers, self.hosts)
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="nonolab-serve", daemon=True)

    def __enter__(self) -> "Running":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not self.server.started:
            raise RuntimeError("the workbench did not start")
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def serve(host: str = "127.0.0.1", port: int = 0, time_limit: float | None = 60.0, workers: int = 2,
          ready: Callable[[str], None] | None = None, warn: Callable[[str], None] | None = None,
          allow_hosts: tuple[str, ...] = ()) -> None:
    """Serve until the process is stopped; ``warn(line)`` first when bound beyond this
    machine, ``ready(url)`` once it answers."""
    with Running(host, port, time_limit, workers, allow_hosts) as running:
        if running.warning is not None and warn is not None:
            warn(running.warning)
        if ready is not None:
            ready(running.url)
        while running.thread.is_alive():
            running.thread.join(0.5)
