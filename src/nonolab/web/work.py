"""What the workbench computes, apart from HTTP: the puzzles it holds, and the work of
each job (the report, the steps of ``explain``, a puzzle from an image), as JSON-ready
dicts with the pictures of :mod:`nonolab.render` inline as SVG.

Every answer comes from the library the CLI uses (the designer's report of
``check --report``, ``explain``, the generator), under the library's own names, with
the job's cancel passed on as the CLI passes its interrupt, so a cancel stops the backend.

>>> store = Store()
>>> entry = store.add(drawn(["#.", "##"], "corner"))
>>> summary(entry)["rows"], store.get(entry.id) is entry
([[1], [2]], True)
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument, NonolabError
from nonolab.web import repairs
from nonolab.web.jobs import Job

#: The largest grid drawn in the page (a larger puzzle is loaded from a file).
MAX_DRAWN = 100
PICTURE_FORMATS = ("svg", "png", "pdf")


@dataclass
class Entry:
    """A puzzle the workbench holds (its givens, if any, are part of it)."""

    puzzle: Puzzle
    origin: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(16))


class Store:
    """The puzzles of this server, the ``keep`` most recent, by id."""

    def __init__(self, keep: int = 200):
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._keep = keep
        self._lock = threading.Lock()

    def add(self, entry: Entry | Puzzle) -> Entry:
        entry = entry if isinstance(entry, Entry) else Entry(entry)
        with self._lock:
            self._entries[entry.id] = entry
            while len(self._entries) > self._keep:
                self._entries.popitem(last=False)
        return entry

    def get(self, entry_id: str) -> Entry | None:
        with self._lock:
            return self._entries.get(entry_id)


def loaded(data: bytes, name: str | None, fmt: str | None) -> list[Puzzle]:
    """The puzzles of an upload or a paste: read as a file called ``name`` (its suffix
    may decide the format, errors are named after it), or as text when unnamed."""
    from nonolab.formats import load_bytes_all, loads_all
    from nonolab.formats._files import decode

    fmt = fmt or None
    if name:
        return load_bytes_all(data, name, fmt)
    return loads_all(decode(data), fmt)


def drawn(rows: Any, name: str = "") -> Puzzle:
    """The puzzle a drawing gives (rows of ``#`` and ``.``), the drawing as its goal."""
    if (not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows)
            or any(set(r) - set("#.") for r in rows)):
        raise InvalidArgument("a drawing is a list of rows of # (filled) and . (empty)")
    width = len(rows[0])
    if width == 0 or any(len(r) != width for r in rows):
        raise InvalidArgument("every row of a drawing must have the same, positive length")
    if width > MAX_DRAWN or len(rows) > MAX_DRAWN:
        raise InvalidArgument(f"a drawing is at most {MAX_DRAWN}x{MAX_DRAWN} cells")
    return Puzzle.from_solution(Solution.from_rows(rows), name=name or f"drawn {width}x{len(rows)}")


def summary(entry: Entry) -> dict[str, Any]:
    """The puzzle as the page shows it: size, clues, the picture with its clues."""
    from nonolab.render import puzzle_svg

    p = entry.puzzle
    return {"id": entry.id, "name": p.name, "width": p.width, "height": p.height,
            "rows": [list(c) for c in p.rows], "columns": [list(c) for c in p.columns],
            "goal": p.goal.to_text().splitlines() if p.goal is not None else None,
            "givens": [list(g) for g in p.givens],
            "origin": entry.origin, "svg": puzzle_svg(p, labels=True)}


#: The share of the progress bar at which each part of the report starts.
_PARTS = {"check": (0.05, "checking uniqueness"), "grade": (0.3, "grading"),
          "ambiguity": (0.55, "finding where the solutions differ"), "repair": (0.8, "suggesting repairs")}


def analyse(entry: Entry, job: Job, time_limit: float | None) -> dict[str, Any]:
    """The designer's report (:func:`nonolab.harness.report.report`, as ``check --report``
    gives it, under its own names) with the pictures the page shows and the repairs it
    offers.  Every picture is of the report's one ``solution`` (and ``alternative``)."""
    from nonolab.harness.report import report
    from nonolab.render import ambiguity_svg, diff_svg, solution_svg
    from nonolab.solvers import DEFAULT

    puzzle = entry.puzzle
    found = report(puzzle, DEFAULT, time_limit, max_flips=2, cancel=job.cancel,
                   on_part=lambda part: job.step(*_PARTS[part]))
    job.check()
    pictures = {}
    if found.alternative is not None:
        pictures["diff"] = diff_svg(found.solution, found.alternative, puzzle)
    elif found.solution is not None:
        pictures["solution"] = solution_svg(found.solution, puzzle, labels=True)
    if found.ambiguity is not None and (why := ambiguity_svg(found.ambiguity, puzzle)) is not None:
        pictures["why"] = why
    return {**found.as_dict(), "pictures": pictures, "repairs": repairs.suggest(found)}


def explain(entry: Entry, job: Job, time_limit: float | None) -> dict[str, Any]:
    """The native engine's step log with its verdict (:func:`nonolab.harness.explanation.explain`,
    as ``explain --backend native`` and ``render --steps`` give them): the board with one
    frame per step (:func:`nonolab.render.steps.steps_svg`) and captions."""
    from nonolab.harness.explanation import explain as explain_puzzle
    from nonolab.render import check_drawable
    from nonolab.render.steps import steps_svg

    check_drawable(entry.puzzle.width, entry.puzzle.height)   # refused before the search, not after it
    job.step(0.1, "solving step by step")
    found = explain_puzzle(entry.puzzle, "native", time_limit, cancel=job.cancel)
    job.check()
    job.step(0.8, "drawing the steps")
    return {"verdict": found.verdict.value, "summary": found.summary(), "steps": len(found.steps),
            "search_steps": found.search_steps, "svg": steps_svg(entry.puzzle, found.steps),
            "captions": [f"step {n}: {s.describe()}" for n, s in enumerate(found.steps, 1)]}


def image_recipe(width: int, height: int, density: float, time_limit: float | None, colours: int = 1,
                 image: str = "image") -> Any:
    """The recipe of a puzzle from an image (``generate --from-image --unique --repair
    [--colours K]``); the library's own checks, so the API calls it before starting a job.

    Raises:
        InvalidArgument: a size, density or number of colours out of range.
    """
    from nonolab.generate import Recipe

    if not (2 <= width <= MAX_DRAWN and 2 <= height <= MAX_DRAWN):
        # The page's form allows no more, and the server holds to it: a job is sized by the page, not the request.
        raise InvalidArgument(f"a puzzle from an image is 2x2 to {MAX_DRAWN}x{MAX_DRAWN} cells here, not "
                              f"{width}x{height} (nonolab generate --from-image makes larger ones)")
    low, high = min(0.2, density), max(0.7, density)
    return Recipe(width=width, height=height, density=density, image=image, unique=True, repair=True,
                  max_repairs=40, density_range=(low, high), colours=colours,
                  candidate_time_limit=min(5.0, time_limit or 5.0))


def from_image(data: bytes, name: str, width: int, height: int, density: float, job: Job,
               time_limit: float | None, colours: int = 1) -> Puzzle:
    """A unique puzzle from an image (``generate --from-image --unique --repair [--colours K]``)."""
    import os
    import tempfile

    from nonolab.generate import make_puzzles

    suffix = re.sub(r"[^A-Za-z0-9.]", "", os.path.splitext(name or "")[1])[:10]
    with tempfile.TemporaryDirectory(prefix="nonolab-serve-") as folder:
        path = os.path.join(folder, f"image{suffix}")
        recipe = image_recipe(width, height, density, time_limit, colours, path)
        with open(path, "wb") as stream:
            stream.write(data)
        job.step(0.05, "reading the image")

        def progress(report) -> None:   # after each candidate: a cancel stops the loop here
            job.step(0.05 + 0.9 * report.candidates / 100, f"candidate {report.candidates}: "
                     f"{report.repairs} repairs so far")

        try:
            report = make_puzzles(1, recipe, seed=0, max_candidates=100, time_limit=time_limit,
                                  on_candidate=progress, cancel=job.cancel)
        except NonolabError as err:
            if err.path == path:   # the upload's own name, not the temporary file's
                err.path = name
            raise
    job.check()   # a cancel stopped it: cancelled, not failed
    if not report.complete:
        raise NonolabError(f"generate: no unique puzzle from this image within the limits ({report.summary()})")
    generated = report.puzzles[0].puzzle
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", os.path.splitext(os.path.basename(name or "image"))[0]).strip("_")
    return generated.with_(name=f"{stem or 'image'}-{width}x{height}")


def download(entry: Entry, fmt: str, picture: bool = False) -> tuple[str, bytes]:
    """The file name and bytes of ``entry`` in ``fmt``: a puzzle format (its givens kept,
    or refused in one line by a format that cannot hold them), or with ``picture`` the
    printable picture of the puzzle with its clues and givens (svg, png, pdf)."""
    from nonolab.errors import InvalidArgument
    from nonolab.formats import dump_bytes, suffix_of

    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", entry.puzzle.name).strip("_") or "puzzle"
    if picture:
        if fmt not in PICTURE_FORMATS:
            raise InvalidArgument(f"unknown picture {fmt!r} (known: {', '.join(PICTURE_FORMATS)})")
        from nonolab.render import encode, puzzle_svg
        page = "a4" if fmt == "pdf" else None
        data = encode(puzzle_svg(entry.puzzle, page=page), fmt)
        return f"{stem}.{fmt}", data.encode("utf-8") if isinstance(data, str) else data
    return stem + suffix_of(fmt), dump_bytes(entry.puzzle, fmt)
