"""The census on a Dask cluster: its chunks as tasks, and a cancel that stops the chunks running.

Dask cannot interrupt a running task, and cancelling a future only drops the tasks not
started yet: a chunk on a worker would run to its end (seconds) for a census that has
gone.  So, as ``batch --scheduler`` closes its workers' solving processes on Ctrl-C
(:func:`nonolab.batch.guard.close_batch`), a cancelled census asks every worker to stop
its chunks (:func:`stop_census`, through ``client.run``, which the workers answer from
their event loop while their threads compute): each chunk of that census asks between its
steps and every tenth of a second of the engine's counts, and ends (its tallies unwanted).
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from typing import Any, Generator

from nonolab.errors import LimitReached, NonolabError
from nonolab.exhaustive.count import census_chunk

__all__ = ["chunk_task", "on_dask", "running_censuses", "stop_census"]

# In a Dask worker process: the censuses told to stop, and the chunks running of each.
_STOPPED: set[str] = set()
_RUNNING: Counter[str] = Counter()
_LOCK = threading.Lock()


def chunk_task(census: str, width: int, height: int, chunk: tuple[int, ...], deep: bool,
               symmetry: bool) -> dict[str, Any]:
    """What a Dask worker runs: :func:`~nonolab.exhaustive.count.census_chunk`, which ends
    with :class:`~nonolab.errors.LimitReached` soon after :func:`stop_census` of ``census``
    ran in this process (a task started after it ends at once).

    >>> chunk_task("doc", 2, 2, (), True, False)["unique"]
    14
    """
    with _LOCK:
        if census in _STOPPED:
            raise LimitReached(f"census {census} was stopped")
        _RUNNING[census] += 1
    try:
        return census_chunk(width, height, chunk, deep, symmetry, stop=lambda: census in _STOPPED)
    finally:
        with _LOCK:
            _RUNNING[census] -= 1
            if not _RUNNING[census]:
                del _RUNNING[census]


def stop_census(census: str) -> int:
    """Stop the chunks of ``census`` in this process, now and later; returns how many were running."""
    with _LOCK:
        _STOPPED.add(census)
        return _RUNNING[census]


def running_censuses() -> list[str]:
    """The censuses with a chunk running in this process (one entry per chunk)."""
    with _LOCK:
        return list(_RUNNING.elements())


def on_dask(width: int, height: int, todo: list, deep: bool, symmetry: bool, address: str,
            cancel: threading.Event | None = None) -> Generator[dict, None, None]:
    """The tallies of the chunks ``todo``, computed on the workers of the scheduler at
    ``address``, as they come.  Once ``cancel`` is set the tallies stop within
    :data:`~nonolab.batch.cluster.CANCEL_POLL` seconds, and the chunks still running on
    the workers are stopped (see the module notes); so are they when the caller closes this
    generator early.

    Raises:
        NonolabError: a chunk was lost on the cluster (a worker died too often), or what a
            chunk raised.
    """
    # The cluster module of batch is where nonolab meets Dask: the address check, the
    # client and its timeout, the wait that looks at the cancel, are the same for both workloads.
    from nonolab.batch.cluster import connect, until_cancelled
    client, as_completed = connect(address)
    census = uuid.uuid4().hex
    futures: list = []
    try:
        futures = [client.submit(chunk_task, census, width, height, chunk, deep, symmetry, pure=False)
                   for chunk in todo]
        for future in until_cancelled(as_completed(futures, loop=client.loop), cancel):
            try:
                yield future.result()
            except NonolabError:
                raise
            except Exception as err:  # noqa: BLE001 — KilledWorker: say which chunk, the file keeps the rest
                raise NonolabError(f"census: a chunk was lost on the cluster ({type(err).__name__}: {err}); "
                                   "run the same command again to go on from the results file") from err
    finally:
        try:
            unfinished = not all(f.done() for f in futures)
            client.cancel(futures)   # the chunks not started
            if unfinished:
                client.run(stop_census, census)   # and those running
        except Exception:  # noqa: BLE001 — a cluster already gone has nothing to stop
            pass
        client.close()
