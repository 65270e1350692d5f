"""The whole census: chunks run here (processes) or on a Dask cluster, with checkpoints.

The results file is the checkpoint: it is rewritten (atomically) with the tallies of
every chunk done so far after every chunk (every few seconds when there are thousands)
and when the run ends or is stopped, so a killed run loses at most the chunks in flight
(or a few seconds of them), and the same call with the same file goes on from there.
Each chunk's tallies are kept under its name, so a chunk that is answered twice (a
Dask worker died after finishing it, and the scheduler ran it again) counts once.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any, Callable, Generator, Iterable, Iterator

from nonolab.exhaustive.count import BEYOND, GRADES, census_chunk, skipped_tally
from nonolab.exhaustive.pictures import Plan
from nonolab.exhaustive.symmetry import Symmetries
from nonolab.errors import InvalidArgument
from nonolab.formats import write_atomically
from nonolab.solvers.base import require_count

__all__ = ["CensusResult", "census", "parse_size"]

FORMAT = "nonolab-census/1"
#: A census of at most this many chunks rewrites its results file after every chunk;
#: a larger one every SAVE_EVERY seconds (and when it ends or is stopped).
SAVE_ALWAYS, SAVE_EVERY = 1000, 5.0
#: Seconds between two looks at the cancel event while a chunk is under way: a cancelled
#: census saves what it has that soon, not at the end of the chunk in flight (seconds).
CANCEL_POLL = 0.05


def parse_size(text: str) -> tuple[int, int]:
    """``"WxH"`` as ``(width, height)``.

    >>> parse_size("6x5")
    (6, 5)
    """
    parts = str(text).lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InvalidArgument(f"--size {text!r}: expected WIDTHxHEIGHT, such as 5x5")
    return int(parts[0]), int(parts[1])


@dataclass
class CensusResult:
    """The census of every ``width`` x ``height`` picture (so far, when not ``complete``).

    ``unique``: pictures that are the one solution of their clues (the grouping count,
    which the engine's count matched clue set by clue set); ``line``: those the complete
    line solver alone solves; ``grades``: the unique pictures by grade (harness/classify.py's
    ladder; ``beyond-full-probe`` when the last two were not told apart); ``clue_sets``:
    distinct clue sets; ``orbits``: the pictures actually checked (one of each orbit of
    the grid's symmetries when ``symmetry``, else every picture); ``seconds``: wall time
    of this call.
    """

    width: int
    height: int
    pictures: int = 0
    clue_sets: int = 0
    unique: int = 0
    line: int = 0
    grades: dict[str, int] = field(default_factory=dict)
    chunks_done: int = 0
    chunks: int = 0
    seconds: float = 0.0
    orbits: int = 0
    symmetry: bool = False

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.chunks

    @property
    def total(self) -> int:
        """Every picture of the size: 2**(width*height)."""
        return 1 << self.width * self.height

    def as_dict(self) -> dict[str, Any]:
        return {"size": f"{self.width}x{self.height}", "complete": self.complete, "total": self.total,
                "pictures": self.pictures, "clue_sets": self.clue_sets, "unique": self.unique, "line": self.line,
                "multiple": self.pictures - self.unique, "grades": dict(self.grades),
                "symmetry": self.symmetry, "orbits": self.orbits,
                "chunks_done": self.chunks_done, "chunks": self.chunks, "seconds": round(self.seconds, 3)}


def _name(chunk: Iterable[int]) -> str:
    return ",".join(str(c) for c in chunk) or "all"


def _load(path: str, width: int, height: int, deep: bool, symmetry: bool) -> tuple[dict[str, dict], int | None]:
    """The chunks a results file already holds and its chunk size (none when it does not exist)."""
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except FileNotFoundError:
        return {}, None
    except (OSError, ValueError) as exc:
        raise InvalidArgument(f"--out {path}: not a census results file ({exc}); not overwritten") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("size"), str):
        raise InvalidArgument(f"--out {path}: not a census results file; not overwritten")
    if data.get("size") != f"{width}x{height}" or not isinstance(data.get("chunk_pictures"), int):
        raise InvalidArgument(f"--out {path}: holds the {data.get('size')} census, not {width}x{height}; "
                              "not overwritten")
    if data.get("deep") is not deep:
        raise InvalidArgument(f"--out {path}: holds a census run with{'' if data.get('deep') else 'out'} --deep; "
                              "resume it the same way (not overwritten)")
    # A file from before the symmetry reduction (no "symmetry") counted every picture.
    if data.get("symmetry", False) is not symmetry:
        raise InvalidArgument(f"--out {path}: holds a census run with{'' if data.get('symmetry') else 'out'} "
                              "--symmetry (its chunks are counted differently); resume it the same way "
                              "(not overwritten)")
    done = data.get("done", {})
    if not isinstance(done, dict):
        raise InvalidArgument(f"--out {path}: its 'done' is not a table of chunks; not overwritten")
    for name, tally in done.items():
        damage = _damage(tally)
        if damage:
            raise InvalidArgument(f"--out {path}: chunk {name!r} is damaged ({damage}); not overwritten")
    return dict(done), data["chunk_pictures"]


_TALLIES = ("pictures", "clue_sets", "unique", "line")


def _damage(tally: Any) -> str:
    """What a chunk's record lacks for :func:`_add` ("" when whole): a damaged results file is
    refused in one line, never summed into a census (nor a traceback).

    >>> _damage({"pictures": 4, "clue_sets": 3, "unique": 2, "line": 2, "grades": {"line": 2}})
    ''
    >>> _damage({"pictures": 4, "clue_sets": 3, "line": 2, "grades": {}})
    "no whole number 'unique'"
    """
    if not isinstance(tally, dict):
        return "not a record"
    for key in _TALLIES + (("orbits",) if "orbits" in tally else ()):
        value = tally.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"no whole number {key!r}"
    grades = tally.get("grades")
    if not isinstance(grades, dict) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                               for v in grades.values()):
        return "no table of grades"
    return ""


def _summary(width: int, height: int, done: dict[str, dict], chunks: int, deep: bool, seconds: float,
             symmetry: bool) -> CensusResult:
    result = CensusResult(width, height, chunks=chunks, seconds=seconds, symmetry=symmetry)
    result.grades = {name: 0 for name in GRADES} if deep else {name: 0 for name in GRADES[:3] + (BEYOND,)}
    for tally in done.values():
        _add(result, tally)
    return result


def _add(result: CensusResult, tally: dict) -> None:
    """Count one more chunk's tallies in ``result``."""
    result.chunks_done += 1
    result.pictures += tally["pictures"]
    result.clue_sets += tally["clue_sets"]
    result.unique += tally["unique"]
    result.line += tally["line"]
    result.orbits += tally.get("orbits", tally["pictures"])
    for name, count in tally["grades"].items():
        result.grades[name] = result.grades.get(name, 0) + count


def census(width: int, height: int, *, jobs: int = 1, scheduler: str | None = None, out: str | None = None,
           deep: bool = True, progress: Callable[[CensusResult], None] | None = None,
           chunk_pictures: int | None = None, symmetry: bool = True,
           cancel: threading.Event | None = None) -> CensusResult:
    """Check every ``width`` x ``height`` picture's clues (see :mod:`nonolab.exhaustive.count`).

    Args:
        jobs: processes on this machine (ignored with a scheduler).
        scheduler: a Dask scheduler's address: the chunks run on its workers (nonolab
            installed there; nothing but the chunk's name travels).
        out: the results file, rewritten after every chunk; an existing one of the same
            census is resumed.
        deep: tell depth-2 from search among the clue sets full probing leaves open.
        progress: called with the tallies so far after every chunk.
        chunk_pictures: the most pictures a chunk holds (the unit of work, of a
            checkpoint and of a Dask task; default about two million); a resumed file
            keeps its own chunks.
        symmetry: check one picture of each orbit of the grid's symmetries (8 for a
            square, 4 for a rectangle), weighted by its orbit's size: the same counts,
            several times faster (see :mod:`nonolab.exhaustive.symmetry`).
        cancel: once set, the census stops within :data:`CANCEL_POLL` seconds, without
            waiting for the chunks in flight: it saves every chunk finished so far to ``out``
            and returns the incomplete census (the same call goes on from there).  On Dask
            the chunks running on the workers are stopped too (:mod:`.cluster`).

    Raises:
        InvalidArgument: a bad size, or ``out`` holds something else.
        WrongAnswer: the two uniqueness counts disagreed (a bug, loudly).

    >>> census(3, 3).as_dict()["unique"]
    384
    """
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):   # (a side out of range: the plan says so)
            require_count(value, "census", name)   # census("5", 5) was a bare comparison error
    done, kept = _load(out, width, height, deep, symmetry) if out else ({}, None)
    plan = Plan(width, height, kept if kept is not None else chunk_pictures)
    chunks = plan.chunks()
    todo = [c for c in chunks if _name(c) not in done]
    skipped: list[tuple[int, ...]] = []
    if symmetry:  # chunks with no picture to check are tallied here, not sent to a worker
        group = Symmetries.of(plan)
        skipped = [c for c in todo if group.prefix_excluded(c)]
        todo = [c for c in todo if not group.prefix_excluded(c)]
    started = time.perf_counter()
    written = [started]
    # The running totals, a chunk added as it comes (summing every chunk done after each
    # one would be quadratic: 244,241 chunks at 6x6).
    totals = _summary(width, height, done, len(chunks), deep, 0.0, symmetry)

    def save(result: CensusResult, path: str) -> None:
        data = {"format": FORMAT, "size": f"{width}x{height}", "chunk_pictures": plan.most, "deep": deep,
                "symmetry": symmetry,
                **result.as_dict(), "done": done}
        write_atomically(path, json.dumps(data, separators=(",", ":")) + "\n")
        written[0] = time.perf_counter()

    def record(tally: dict) -> None:
        name = _name(tally["chunk"])
        if name not in done:  # a chunk answered twice (a Dask retry) counts once
            done[name] = tally
            _add(totals, tally)
        totals.seconds = time.perf_counter() - started
        result = replace(totals, grades=dict(totals.grades))
        # After every chunk when they are few; else at most every SAVE_EVERY seconds (a
        # census of many chunks would spend its time rewriting a growing file).
        if out and (len(chunks) <= SAVE_ALWAYS or time.perf_counter() - written[0] >= SAVE_EVERY):
            save(result, out)
        if progress is not None:
            progress(result)

    if scheduler:
        from nonolab.exhaustive.cluster import on_dask
        tallies = on_dask(width, height, todo, deep, symmetry, scheduler, cancel)
    elif jobs > 1 and len(todo) > 1:
        tallies = _in_processes(width, height, todo, deep, symmetry, jobs, cancel)
    elif cancel is not None:
        tallies = _in_a_thread(width, height, todo, deep, symmetry, cancel)
    else:
        tallies = (census_chunk(width, height, chunk, deep, symmetry) for chunk in todo)
    try:  # (a cancelled source ends, after the chunks it had finished)
        for tally in chain(tallies, (skipped_tally(chunk, deep) for chunk in skipped)):
            record(tally)
    finally:  # stopped or finished: every chunk done is on disk
        try:
            if out:
                save(_summary(width, height, done, len(chunks), deep, time.perf_counter() - started, symmetry), out)
        finally:
            tallies.close()  # its workers stop now, not when the generator is collected
    return _summary(width, height, done, len(chunks), deep, time.perf_counter() - started, symmetry)


def _orphan_guard(parent: int) -> None:
    """In a worker process: exit as soon as the parent is gone (killed, or ended by a
    signal with os._exit), rather than finish a chunk for nobody; and die of SIGINT and
    SIGTERM, not inherit the command's handlers (which only set its cancel flag)."""
    import signal
    import threading

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(3)
    threading.Thread(target=watch, name="nonolab-orphan-guard", daemon=True).start()


def _in_a_thread(width: int, height: int, todo: list, deep: bool, symmetry: bool,
                 cancel: threading.Event) -> Generator[dict, None, None]:
    """The chunks one after another in a daemon thread, their tallies yielded here as they
    come: a cancel is seen within CANCEL_POLL seconds, not when the chunk in flight ends
    (which then ends for nobody; the thread starts no other).  The thread runs at most one
    chunk ahead of the census (the queue holds one)."""
    import queue
    answers: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()
    end = object()

    def hand_over(answer: object) -> None:
        while not stop.is_set():
            try:
                answers.put(answer, timeout=CANCEL_POLL)
                return
            except queue.Full:
                continue

    def work() -> None:
        try:
            for chunk in todo:
                if stop.is_set():
                    return
                hand_over(census_chunk(width, height, chunk, deep, symmetry))
        except BaseException as err:  # noqa: BLE001 — raised in the census's own thread
            hand_over(err)
        hand_over(end)
    threading.Thread(target=work, name="nonolab-census-chunks", daemon=True).start()
    try:
        while not cancel.is_set():
            try:
                answer = answers.get(timeout=CANCEL_POLL)
            except queue.Empty:
                continue
            if answer is end:
                return
            if isinstance(answer, BaseException):
                raise answer
            yield answer
        stop.set()
        try:  # a chunk finished before the cancel was seen is kept
            answer = answers.get_nowait()
        except queue.Empty:
            return
        if isinstance(answer, dict):
            yield answer
    finally:
        stop.set()


def _in_processes(width: int, height: int, todo: list, deep: bool, symmetry: bool, jobs: int,
                  cancel: threading.Event | None = None) -> Generator[dict, None, None]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_orphan_guard, initargs=(os.getpid(),))
    pending = iter(todo)
    running: set = set()
    finished_all = False
    try:
        for chunk in pending:  # two chunks a process queued: none idles, few are lost to a kill
            running.add(pool.submit(census_chunk, width, height, chunk, deep, symmetry))
            if len(running) >= 2 * jobs:
                break
        while running:
            finished, running = wait(running, timeout=CANCEL_POLL if cancel is not None else None,
                                     return_when=FIRST_COMPLETED)
            if cancel is not None and cancel.is_set():  # the chunks finished are kept, no other is waited for
                for future in finished | {f for f in running if f.done() and not f.cancelled()}:
                    yield future.result()
                return
            for future in finished:
                yield future.result()
                following = next(pending, None)
                if following is not None:
                    running.add(pool.submit(census_chunk, width, height, following, deep, symmetry))
        finished_all = True
    finally:  # stopped early: the processes end with their current chunk, unwaited
        pool.shutdown(wait=finished_all, cancel_futures=True)
