"""A progress bar of decided cells for long solves: shown on a terminal after one second."""

from __future__ import annotations

import sys
import time
from typing import Callable


class DecidedCells:
    """A ``progress(decided, total)`` callback that draws a rich bar once a run is long.

    Nothing is drawn for runs shorter than ``delay`` seconds or when stderr is not a
    terminal (unless ``force``), so scripts and tests see clean output.
    """

    def __init__(self, delay: float = 1.0, force: bool = False):
        self.delay = delay
        self.enabled = force or sys.stderr.isatty()
        self.start = time.perf_counter()
        self._bar = None
        self._task = None

    def __call__(self, decided: int, total: int) -> None:
        if not self.enabled or time.perf_counter() - self.start < self.delay:
            return
        if self._bar is None:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(TextColumn("cells decided"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                                 TimeElapsedColumn(), transient=True, console=_console())
            self._bar.start()
            self._task = self._bar.add_task("solve", total=total)
        self._bar.update(self._task, completed=decided)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> Callable[[int, int], None]:
        return self

    def __exit__(self, *exc) -> None:
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
        self._bar = None
        self._task = None

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
