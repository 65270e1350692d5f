"""The same jobs on a Dask cluster, when the user names a scheduler.

Each job is submitted as :func:`~nonolab.batch.guard.run_guarded`, so on the
workers it runs exactly as locally: in a guarded child process per worker thread,
killed when it overruns.  Dask is an optional extra, imported here only.  By default
each job carries its puzzle as data (read here, sent in nonolab's JSON format), so the
workers need no access to the files; with ``send_puzzles=False`` only the path travels
and the files must be readable at the same paths on every worker (a shared file system).

The scheduler and its workers are trusted: they receive pickled jobs and run
code, so only name a scheduler you (or your site) control.  An address is checked
for its form before anything is created, and an unreachable scheduler fails after
:data:`CONNECT_TIMEOUT` seconds.
"""

from __future__ import annotations

import re
import threading
import uuid
from itertools import islice
from typing import Any, Iterable, Iterator

from nonolab.batch.guard import close_batch, run_guarded
from nonolab.batch.tasks import Job, new_record, unchecked, with_puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument, NonolabError

#: Jobs in flight at once: bounds the scheduler's and this process's memory on huge batches.
WINDOW = 1000

#: Seconds to reach the scheduler before giving up (Dask's own default is 30).
CONNECT_TIMEOUT = 5.0

#: Seconds between two looks at the cancel event while no job has completed.
CANCEL_POLL = 0.02

_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_ADDRESS = re.compile(r"^(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})/?$")


def check_address(address: str) -> str:
    """Refuse an address that is not ``[SCHEME://]HOST:PORT`` (SCHEME: tcp, tls, ws, wss, ucx).

    Checked before any client is made: a malformed address given to Dask makes it
    stall for a minute while its half-built client is collected.

    >>> check_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_address("10.0.0.5")
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: scheduler '10.0.0.5': not a Dask scheduler address; expected tcp://HOST:PORT (or tls://, ws://, wss://, ucx://, or HOST:PORT)
    """
    found = _ADDRESS.match(address.strip()) if isinstance(address, str) else None
    if (found is None or (found["scheme"] is not None and found["scheme"] not in _SCHEMES)
            or not 0 < int(found["port"]) < 65536):
        raise InvalidArgument(f"{{arg}} {address!r}: not a Dask scheduler address; expected tcp://HOST:PORT "
                              "(or tls://, ws://, wss://, ucx://, or HOST:PORT)", argument="scheduler")
    return address.strip()


def connect(address: str):
    """A client of the scheduler at ``address``, and dask's ``as_completed``.

    Raises:
        InvalidArgument: the address is malformed.
        BackendUnavailable: dask is not installed, or the scheduler cannot be reached
            within :data:`CONNECT_TIMEOUT` seconds.
    """
    check_address(address)
    try:
        from dask.distributed import Client, as_completed
    except ImportError as exc:
        raise BackendUnavailable("running a batch on a Dask scheduler needs dask.distributed; "
                                 'install it with: pip install "nonolab[distributed]"') from exc
    _answers_as_dask(address.strip())
    try:
        return Client(address.strip(), timeout=CONNECT_TIMEOUT, set_as_default=False), as_completed
    except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError
        raise BackendUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    except MemoryError:   # a frame length read from bytes that are not Dask's
        raise BackendUnavailable(f"the server at {address} does not answer as a Dask scheduler") from None


#: A Dask message larger than this, announced in a handshake, is no Dask handshake.
_HANDSHAKE_BYTES = 1 << 26


def _answers_as_dask(address: str) -> None:
    """Refuse a plain TCP address whose server does not greet as a Dask scheduler does.

    A scheduler writes its handshake first: eight bytes, the little-endian length of the
    message that follows.  Any other server (a web server, an SSH daemon) sends bytes that
    Dask would read as a length of exabytes and try to allocate (a MemoryError traceback,
    then a client that takes ten seconds to be collected), so its first bytes are read
    here, with the connection's own timeout, and judged before Dask sees them.  Other
    schemes (TLS, websockets, UCX) are left to Dask.
    """
    import socket
    import struct

    found = _ADDRESS.match(address)
    if found is None or found["scheme"] not in (None, "tcp"):
        return
    host = found["host"].strip("[]")
    try:
        with socket.create_connection((host, int(found["port"])), timeout=CONNECT_TIMEOUT) as sock:
            head = b""
            while len(head) < 8:
                more = sock.recv(8 - len(head))
                if not more:
                    break
                head += more
    except OSError as exc:
        raise BackendUnavailable(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
    if len(head) < 8 or not 0 < struct.unpack("<Q", head)[0] <= _HANDSHAKE_BYTES:
        shown = head.decode("latin-1").encode("unicode_escape").decode("ascii")
        raise BackendUnavailable(f"the server at {address} does not answer as a Dask scheduler "
                                 f"(its first bytes: {shown!r})")


def run_on_dask(jobs: Iterable[Job], address: str, grace: float = 2.0,
                preload: tuple[str, ...] = (), connection=None,
                send_puzzles: bool = True, cancel: threading.Event | None = None) -> Iterator[dict[str, Any]]:
    """Submit ``jobs`` to the scheduler at ``address`` and yield their records as they complete.

    ``connection`` is what :func:`connect` returned, when the caller connected first.
    ``send_puzzles``: each job carries its puzzle (read here as it is submitted); a file
    that cannot be read here goes as its path, for the worker to report (or read).
    ``cancel``: once set (Ctrl-C), the records stop within :data:`CANCEL_POLL` seconds and
    the workers' children of this batch are stopped: Dask cannot interrupt a running task,
    so without this a job with no time limit would hold its worker thread (and the jobs
    of the next batch queued behind it) for as long as its search runs.

    A task lost with its worker (Dask gives up after the worker died several times)
    becomes an ``error`` record; a library error raised on a worker (its backend is
    not installed, say) stops the batch, as it would locally.

    Raises:
        BackendUnavailable: dask is not installed, or the scheduler cannot be reached.

    >>> records = list(run_on_dask(jobs, "tcp://127.0.0.1:8786"))     # doctest: +SKIP
    """
    client, as_completed = connection if connection is not None else connect(address)
    batch = uuid.uuid4().hex
    pending = iter(jobs)
    in_flight: dict[Any, Job] = {}
    try:
        def submit(job: Job) -> Any:
            if send_puzzles:
                try:
                    job = with_puzzle(job)
                except NonolabError:
                    pass  # the worker tries the path and records the error in its own words
            future = client.submit(run_guarded, job, grace, tuple(preload), batch, pure=False)
            in_flight[future] = job
            return future

        first = [submit(job) for job in islice(pending, WINDOW)]
        completed = as_completed(first, loop=client.loop)
        for future in until_cancelled(completed, cancel):
            job = in_flight.pop(future)
            try:
                record = future.result()
            except NonolabError:
                raise
            except Exception as err:  # noqa: BLE001 — KilledWorker, CancelledError: this job's end only
                record = unchecked(new_record(job), f"lost on the cluster: {type(err).__name__}: {err}")
            yield record
            following = next(pending, None)
            if following is not None:
                completed.add(submit(following))
    finally:
        try:  # the workers' children would otherwise idle (with their memory) until the workers end
            client.cancel(list(in_flight))
            client.run(close_batch, batch)
        except Exception:  # noqa: BLE001 — a cluster already gone has nothing left to close
            pass
        client.close()


def until_cancelled(completed: Any, cancel: threading.Event | None) -> Iterator[Any]:
    """The futures of ``completed`` (dask's ``as_completed``) as they complete, until
    ``cancel`` is set: it is looked at every :data:`CANCEL_POLL` seconds while none is
    ready, where iterating ``completed`` would block until a job ends."""
    if cancel is None:
        yield from completed
        return
    while not completed.is_empty() and not cancel.is_set():
        if completed.has_ready():
            yield next(completed)
        else:
            cancel.wait(CANCEL_POLL)
