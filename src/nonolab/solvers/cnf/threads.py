"""SAT calls that python-sat's signal handling cannot break.

When ``solve``, ``solve_limited`` or ``propagate`` is called from the main thread,
python-sat installs a SIGINT handler of its own for the call and turns Ctrl-C into
``pysolvers.error: Caught keyboard interrupt``; CaDiCaL is then left "in an invalid
state" and aborts the whole process on the next call (measured with python-sat
1.9.dev22).  python-sat decides by asking whether the calling thread is the main one
(``pysat._utils.MainThread.check``), so a call made from any other thread leaves
SIGINT to the program.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

__all__ = ["off_main_thread"]


def off_main_thread(call: Callable[[], Any], abort: Callable[[], None]) -> Any:
    """``call()``, run in a helper thread when the caller is the main thread.

    python-sat installs its own SIGINT handler around a solve made from the main
    thread, and turns Ctrl-C into ``pysolvers.error``, after which CaDiCaL is left
    "in an invalid state" and aborts the process on the next call.  Run from another
    thread, python-sat leaves SIGINT alone: the caller's own handler (or Python's
    KeyboardInterrupt) sees it.  If the waiting caller is interrupted, ``abort()``
    stops the call, which is awaited before the exception goes on, so that the solver
    is never deleted while it runs.
    """
    if threading.current_thread() is not threading.main_thread():
        return call()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="nonolab-cnf-call", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except BaseException:
        abort()
        worker.join()
        raise
    if "error" in box:
        raise box["error"]
    return box.get("value")
