"""A preload for Dask workers in tests (``dask worker --preload census_plugin``): while the
file named by ``NONOLAB_TEST_STALL`` exists, every census chunk's engine count stalls (a
chunk that would run for as long as the test lasts), asking its ``stop`` as the real batch
entry does between two calls into the engine.  Once the file is gone, the real count runs.
"""

from __future__ import annotations

import os
import threading
import time

from nonolab.errors import LimitReached
from nonolab.exhaustive import count

_real = count.check_arrays
_stalled: list[int] = []
_lock = threading.Lock()


def _stalling(*args, stop=None, **kwargs):
    flag = os.environ.get("NONOLAB_TEST_STALL", "")
    if flag and os.path.exists(flag):
        with _lock:
            _stalled.append(1)
        try:
            while os.path.exists(flag):
                if stop is not None and stop():
                    raise LimitReached("check_arrays: stopped (census_plugin)")
                time.sleep(0.01)
        finally:
            with _lock:
                _stalled.pop()
    return _real(*args, stop=stop, **kwargs) if stop is not None else _real(*args, **kwargs)


count.check_arrays = _stalling


def stalled() -> int:
    """The chunks stalled in this process now."""
    with _lock:
        return len(_stalled)
