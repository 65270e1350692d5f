"""Ctrl-C and SIGTERM: every command ends within a second, with one line and 130 or 143.

Python runs signal handlers only in the main thread, and only between bytecodes: a
solver inside a C library (CP-SAT, CaDiCaL, a C++ engine) would hold the main thread
for as long as it searches.  So :func:`run` does the command's work in a worker
thread, while the main thread waits in short joins and keeps the handlers.  A signal
sets :data:`CANCEL`, the process-wide ``threading.Event`` the commands pass on as
``Limits.cancel`` (or the harness functions' ``cancel=``), so that backends stop; the
main thread then withholds whatever the command would still print, gives the worker
:data:`GRACE` seconds to stop, removes any half-written temporary file, prints
``nonolab: interrupted`` and leaves with ``os._exit`` (no interpreter shutdown, which
could wait for or abort inside a C library's threads).

A closed standard output (``nonolab label CORPUS | head -2``: ``head`` has gone) ends
the command the same way, silently, with 141 (128 + SIGPIPE, what the shell reports of a
process SIGPIPE killed): :func:`stdout_closed`, called by the failed write
(:mod:`nonolab.cli.streams`), stops the work, its workers and children, within a second,
where running on would only compute for nobody.

A command that keeps what it did on a signal (``bench`` writes the reports of the runs
that ended) calls :func:`finish_on_cancel`: its output is not silenced, its writes are
not refused, and it gets up to that many seconds to stop by itself and write; a second
signal ends it at once.

Targets written in place are complete or untouched: ``write_atomically`` writes a
temporary file and renames it; the temporary files of writes still under way are
deleted here.  And once the signal came no write lands at all (the handler closes
``write_atomically``'s gate): work stopped by the cancel may still try to write what it
has (a repair cut short would write the puzzle unrepaired), and is refused.  Batch
records are appended with one ``write`` each.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Callable, TypeVar

T = TypeVar("T")

#: Set by SIGINT or SIGTERM while a command runs; pass it on as ``Limits(cancel=CANCEL)``.
CANCEL = threading.Event()
#: Seconds the worker may take to stop after a signal before the process exits anyway.
GRACE = 0.4
#: Seconds the last flush of standard output and error may take before the process exits anyway.
FLUSH = 0.2
#: The exit code of each signal: 128 + its number, as a shell reports a death by it.
EXIT_CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}   # by signal number: handlers get ints

#: The exit code of a command whose standard output was closed under it (128 + SIGPIPE).
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE

_received: list[int] = []
_line_open: list[bool] = [False]  # a progress line on stderr (``\r...``) not ended yet
_stderr: list[int] = []  # a copy of the real stderr, for the one line
_finishing: list[float] = []  # the grace of a command that finishes by itself (finish_on_cancel)
_running: list[bool] = []  # a command's work runs in the worker thread of :func:`run`


def progress_line(text: str, ended: bool) -> None:
    """Show ``text`` on stderr over the last progress line (a carriage return before it);
    ``ended``: it is the last one (a newline follows).  An interruption then says so on a
    line of its own, not glued to the progress line."""
    sys.stderr.write("\r" + text + ("\n" if ended else ""))
    sys.stderr.flush()
    _line_open[0] = not ended


def _said_interrupted() -> bytes:
    return (b"\n" if _line_open[0] else b"") + b"nonolab: interrupted\n"


def finish_on_cancel(grace: float = 0.9) -> None:
    """The running command stops by itself once :data:`CANCEL` is set and writes what it has:
    keep its output, and give it ``grace`` seconds (a second signal ends it at once)."""
    _finishing[:] = [grace]


def _writes(action: str) -> None:
    """Open or close the file writers' gate, if the formats were loaded (nothing was
    written before they were)."""
    files = sys.modules.get("nonolab.formats._files")
    if files is not None:
        getattr(files, action)()


def _handler(signum: int, frame) -> None:
    if _received and _finishing:  # the second signal: no more waiting
        os.write(_stderr[0] if _stderr else 2, _said_interrupted())
        os._exit(EXIT_CODES.get(signum, 130))
    if not _finishing:  # a finishing command writes what it kept (its own cancel stops its work)
        _writes("close_writes")     # first: a write must not land after the signal
    if not _received and not _finishing:
        # Silence first, cancel second: a backend that stops at once must not get to
        # print its cut-short answer (``timeout``) before the process leaves.
        _silence()
    _received.append(signum)
    CANCEL.set()


def stdout_closed() -> None:
    """Standard output's reader has gone (a write failed with EPIPE): stop as SIGPIPE would.

    In the command's worker (:func:`run`): the work is cancelled, as on a signal, and the
    main thread ends the process with :data:`EXIT_CLOSED_PIPE` and no message (nothing
    half-written stays on disk).  Anywhere else (the output printed after the work, in the
    main thread) there is no work left to stop: the process leaves at once.
    """
    _writes("close_writes")     # a write must not land after the output was lost
    if _running and threading.current_thread() is not threading.main_thread():
        if not _received:
            _silence()
        _received.append(signal.SIGPIPE)
        _finishing.clear()     # (bench's reports are of runs nobody will read of)
        CANCEL.set()
        return
    _discard_pending()
    os._exit(EXIT_CLOSED_PIPE)


def _discard_pending() -> None:
    """Remove the temporary files of writes not finished (only if the command wrote any)."""
    files = sys.modules.get("nonolab.formats._files")
    if files is not None:
        files.discard_pending()


def _silence() -> None:
    """Standard output and error to ``/dev/null`` (a copy of stderr kept for the one line)."""
    _stderr.append(os.dup(2))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def exit_at_once() -> None:
    """Before and after a command's work (parsing, printing): a signal ends the process at once."""
    def leave(signum: int, frame) -> None:
        os.write(2, _said_interrupted())
        os._exit(EXIT_CODES.get(signum, 130))
    for sig in EXIT_CODES:
        signal.signal(sig, leave)


def run(work: Callable[[], T]) -> T:
    """``work()``, run in a worker thread so that a signal ends the process promptly.

    Its result is returned and its exception (``SystemExit`` included) raised here, in
    the calling thread.  Outside the main thread (where no handler can be installed)
    ``work`` runs directly.
    """
    if threading.current_thread() is not threading.main_thread():
        return work()
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = work()
        except BaseException as err:  # noqa: BLE001 — handed to the main thread as is
            outcome["error"] = err

    CANCEL.clear()
    _received.clear()
    _stderr.clear()
    _finishing.clear()
    _writes("open_writes")
    previous = {sig: signal.signal(sig, _handler) for sig in EXIT_CODES}
    _running[:] = [True]
    try:
        worker = threading.Thread(target=target, name="nonolab-command", daemon=True)
        worker.start()
        while worker.is_alive() and not CANCEL.is_set():
            worker.join(0.05)
        if CANCEL.is_set():  # also when the signal came as the work ended: its output is silenced
            _exit_interrupted(worker)
    finally:
        _running.clear()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")  # type: ignore[return-value]


def _exit_interrupted(worker: threading.Thread) -> None:
    """Let the command stop (its output is silenced already), clean up, say so once, and exit."""
    first = _received[0] if _received else signal.SIGINT
    code = EXIT_CLOSED_PIPE if first == signal.SIGPIPE else EXIT_CODES.get(first, 130)
    if _finishing:
        worker.join(_finishing[0])
        _writes("close_writes")     # what it did not finish writing in time is not written
    else:
        _writes("close_writes")     # the formats may have loaded since the signal
        worker.join(GRACE)
    _flush_within(FLUSH)   # what a finishing command printed must not be lost
    _discard_pending()
    if first != signal.SIGPIPE:   # a closed pipe ends silently, as SIGPIPE does
        os.write(_stderr[0] if _stderr else 2, _said_interrupted())
    os._exit(code)


def _flush_within(seconds: float) -> None:
    """Flush standard output and error, giving up after ``seconds``.  A worker blocked
    writing to a pipe nobody reads (``nonolab generate -n 100 -t json | less``, the
    reader waiting) holds the stream's lock for good: flushing here waited on that lock,
    and the process never ended, whatever the signals."""
    def flush() -> None:
        for stream in (sys.stdout, sys.stderr):
            if stream is None:   # started with that descriptor closed
                continue
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    flusher = threading.Thread(target=flush, name="nonolab-flush", daemon=True)
    flusher.start()
    flusher.join(seconds)
