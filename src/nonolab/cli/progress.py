"""A progress bar of decided cells for long solves: shown on a terminal after one second."""

from __future__ import annotations

import sys
import time
from typing import Any


class DecidedCells:
    """A ``progress(decided, total)`` callback, and a bar a user sees on any long run.

    Once a run has lasted ``delay`` seconds (``NONOLAB_PROGRESS_DELAY`` overrides it), a
    rich bar appears on stderr: a spinner and the elapsed time always, and the cells
    decided while the backend reports them (native, and auto's native phase; a CDCL
    engine reports nothing, and the spinner still shows the run is alive).  Nothing is
    drawn when stderr is not a terminal (unless ``force``), so scripts and tests see clean
    output; the bar is transient, gone when the run ends.
    """

    def __init__(self, delay: float = 1.0, force: bool = False, what: str = "solving"):
        import os
        import threading

        self.delay = float(os.environ.get("NONOLAB_PROGRESS_DELAY", delay))
        self.enabled = force or sys.stderr.isatty()
        self.what = what
        self._lock = threading.Lock()
        self._latest: tuple[int, int] | None = None
        self._closed = False
        self._bar: Any = None
        self._task: Any = None
        self._timer = threading.Timer(self.delay, self._show) if self.enabled and self.delay > 0 else None
        if self.enabled and self.delay <= 0:
            self._show()
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()

    def _show(self) -> None:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        with self._lock:
            if self._closed:
                return
            self._bar = Progress(SpinnerColumn(), TextColumn(self.what), BarColumn(), TextColumn("{task.fields[cells]}"),
                                 TimeElapsedColumn(), transient=True, console=_console(), refresh_per_second=8)
            self._task = self._bar.add_task(self.what, total=None, cells="")
            self._bar.start()
            if self._latest is not None:
                self._update(*self._latest)

    def _update(self, decided: int, total: int) -> None:
        self._bar.update(self._task, completed=decided, total=total, cells=f"{decided:,}/{total:,} cells decided")

    def __call__(self, decided: int, total: int) -> None:
        with self._lock:
            self._latest = (decided, total)
            if self._bar is not None:
                self._update(decided, total)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._bar is not None:
                self._bar.stop()
                self._bar = None

    def __enter__(self) -> "DecidedCells":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _console():
    from rich.console import Console
    return Console(file=sys.stderr)


class GeneratedPuzzles:
    """A rich bar of accepted puzzles (and candidates tried) for ``generate``, on a terminal only.

    Call it with the generator's report after each candidate; it draws after ``delay`` seconds.
    """

    def __init__(self, asked: int, delay: float = 0.5, force: bool = False):
        self.asked = asked
        self.delay = delay
        self.enabled = force or sys.stderr.isatty()
        self.start = time.perf_counter()
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, report) -> None:
        if not self.enabled or time.perf_counter() - self.start < self.delay:
            return
        if self._bar is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(TextColumn("puzzles"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[candidates]} candidates"), TimeElapsedColumn(),
                                 transient=True, console=_console())
            self._bar.start()
            self._task = self._bar.add_task("generate", total=self.asked, candidates=0)
        self._bar.update(self._task, completed=len(report.puzzles), candidates=report.candidates)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> "GeneratedPuzzles":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
