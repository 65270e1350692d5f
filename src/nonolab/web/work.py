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
#: The most cells of a puzzle the workbench reads (the command line's older default): a
#: server runs jobs for a page, several at once, so it keeps a smaller limit than one
#: user's command (100 M cells); a lower NONOLAB_MAX_CELLS still holds.
MAX_CELLS = 25_000_000
#: The most cells the server holds in all its puzzles together: two of the largest it reads.
#: A stored puzzle costs about 15 bytes a cell (its clues as Python tuples, its picture), so
#: 200 of the largest would hold 75 GB; the cells, not the count, bound the memory.
STORE_CELLS = 2 * MAX_CELLS
#: What a stored cell costs, in bytes: the unit that weighs other things the server holds
#: (an image a queued job keeps) against :data:`STORE_CELLS`.
BYTES_PER_CELL = 15
PICTURE_FORMATS = ("svg", "png", "pdf")

#: The puzzle the page opens with: a house whose window is a 2x2 switch (two solutions),
#: so a first visit sees a verdict, the regions, a one-flip repair and the givens at once.
SAMPLE = ("....##....", "...####...", "..######..", ".########.", "##########",
          ".#......#.", ".#.#...##.", ".#..#..##.", ".#......#.", ".########.")


@dataclass
class Entry:
    """A puzzle the workbench holds (its givens, if any, are part of it)."""

    puzzle: Puzzle
    origin: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(16))
    locked: tuple[tuple[int, int], ...] = ()
    """Cells (0-based) the designer locked in the drawing: repairs never change them."""
    solution: Solution | None = None
    """The one solution an analysis proved (a unique puzzle): a puzzle without a goal
    downloads with it as its picture, as ``solve --to png`` writes it."""


class Store:
    """The puzzles of this server, by id: the most recent, at most ``keep`` of them and at
    most ``max_cells`` cells in all (the newest is always kept: it is at most
    :data:`MAX_CELLS`); an older puzzle is forgotten (its id then answers 404).

    >>> store = Store(max_cells=8)
    >>> first, second = store.add(drawn(["##", "##"])), store.add(drawn(["#.#", "#.#"]))
    >>> store.get(first.id) is None, store.get(second.id) is second
    (True, True)
    """

    def __init__(self, keep: int = 200, max_cells: int | None = None):
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._keep = keep
        self._max_cells = STORE_CELLS if max_cells is None else max_cells
        self._cells = 0
        self._lock = threading.Lock()

    def add(self, entry: Entry | Puzzle) -> Entry:
        entry = entry if isinstance(entry, Entry) else Entry(entry)
        with self._lock:
            self._entries[entry.id] = entry
            self._cells += cells(entry)
            while len(self._entries) > 1 and (len(self._entries) > self._keep or self._cells > self._max_cells):
                _, old = self._entries.popitem(last=False)
                self._cells -= cells(old)
        return entry

    def get(self, entry_id: str) -> Entry | None:
        with self._lock:
            return self._entries.get(entry_id)


def cells(entry: Entry) -> int:
    """The cells of an entry's puzzle (what holding it, or a job's answer about it, costs)."""
    return entry.puzzle.width * entry.puzzle.height


def loaded(data: bytes, name: str | None, fmt: str | None) -> list[Puzzle | NonolabError]:
    """The puzzles of an upload or a paste: read as a file called ``name`` (its suffix
    may decide the format, errors are named after it), or as text when unnamed; each read on
    its own, a puzzle or its error (a set's bad puzzle leaves the others loadable)."""
    from nonolab.formats import InputLimits, load_bytes_each, loads_each
    from nonolab.formats._files import decode

    fmt = fmt or None
    given = InputLimits().resolved().max_cells   # None: no limit but the workbench's own
    limits = InputLimits(max_cells=MAX_CELLS if given is None else min(given, MAX_CELLS))
    if name:
        return load_bytes_each(data, name, fmt, limits)
    return loads_each(decode(data), fmt, limits)


def drawn(rows: Any, name: Any = "") -> Puzzle:
    """The puzzle a drawing gives (rows of ``#`` and ``.``), the drawing as its goal;
    ``name`` is its title, a string (``None`` or empty: ``drawn WxH``).

    Raises:
        InvalidArgument: rows that are no drawing, or a name that is no string (JSON hands
            the page's fields over as they came: ``{"a": 1}`` is no title).
    """
    if name is not None and not isinstance(name, str):
        raise InvalidArgument(f"name must be a string (the drawing's title), not {_json_kind(name)}")
    if (not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows)
            or any(set(r) - set("#.") for r in rows)):
        raise InvalidArgument("a drawing is a list of rows of # (filled) and . (empty)")
    width = len(rows[0])
    if width == 0 or any(len(r) != width for r in rows):
        raise InvalidArgument("every row of a drawing must have the same, positive length")
    if width > MAX_DRAWN or len(rows) > MAX_DRAWN:
        raise InvalidArgument(f"a drawing is at most {MAX_DRAWN}x{MAX_DRAWN} cells")
    return Puzzle.from_solution(Solution.from_rows(rows), name=name or f"drawn {width}x{len(rows)}")


def _json_kind(value: Any) -> str:
    """What JSON called ``value``: ``an object``, ``a list``, ``a number``, ``true``...

    >>> _json_kind({"a": 1}), _json_kind(2.5), _json_kind(False)
    ('an object', 'a number', 'false')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a number" if isinstance(value, (int, float)) else type(value).__name__


def locked_cells(value: Any, puzzle: Puzzle) -> tuple[tuple[int, int], ...]:
    """The cells a drawing locks, as the page sends them (``[[row, column], ...]``, 0-based).

    Raises:
        InvalidArgument: not a list of cells of the grid.
    """
    if value in (None, []):
        return ()
    if (not isinstance(value, list) or len(value) > puzzle.width * puzzle.height
            or not all(isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v) for v in value)):
        raise InvalidArgument("locked cells are a list of [row, column], 0-based")
    cells = tuple(sorted({(r, c) for r, c in value}))
    if any(not (0 <= r < puzzle.height and 0 <= c < puzzle.width) for r, c in cells):
        raise InvalidArgument(f"a locked cell is outside the {puzzle.width}x{puzzle.height} grid")
    return cells


def _drawing(draw: Any, *args: Any, **kwargs: Any) -> tuple[str | None, str]:
    """An SVG of a picture, or ``None`` and why, for a puzzle too large to draw."""
    from nonolab.errors import TooLarge
    try:
        return draw(*args, **kwargs), ""
    except TooLarge as err:
        return None, f"{err}: the page shows no picture of it; every answer still holds"


def summary(entry: Entry) -> dict[str, Any]:
    """The puzzle as the page shows it: size, clues, the picture with its clues, its text
    (the ``non`` format, which keeps a goal and givens) and the cells locked."""
    from nonolab.formats import dumps
    from nonolab.render import puzzle_svg

    p = entry.puzzle
    svg, note = _drawing(puzzle_svg, p, labels=True)
    return {"id": entry.id, "name": p.name, "width": p.width, "height": p.height,
            "rows": [list(c) for c in p.rows], "columns": [list(c) for c in p.columns],
            "goal": p.goal.to_text().splitlines() if p.goal is not None else None,
            "givens": [list(g) for g in p.givens], "locked": [list(c) for c in entry.locked],
            "origin": entry.origin, "svg": svg, "svg_note": note, "text": dumps(p, "non")}


def sample() -> Entry:
    """The puzzle a first visit opens with (:data:`SAMPLE`)."""
    return Entry(drawn(list(SAMPLE), "a house (sample)"), origin="the sample: a house whose window has two "
                                                                "ways to be drawn")


#: The share of the progress bar at which each part of the report starts, in the order the
#: workbench asks for them: the grade last, so that a slow grading delays nothing else.
_PARTS = {"check": (0.05, "checking uniqueness"), "ambiguity": (0.35, "finding where the solutions differ"),
          "repair": (0.55, "looking for the fewest flips"), "grade": (0.8, "grading")}


def analyse(entry: Entry, job: Job, time_limit: float | None) -> dict[str, Any]:
    """The designer's report (:func:`nonolab.harness.report.report`, as ``check --report``
    gives it, under its own names, the fewest flips searched as the CLI does) with the
    pictures the page shows and the repairs it offers.  Every picture is of the report's
    one ``solution`` (and ``alternative``); repairs never change the entry's locked cells.

    Each part is published on the job as it ends (``job.partial``: the report so far and
    ``parts``, the parts done), so the page shows the verdict as soon as it is known.
    """
    from nonolab.harness.report import report
    from nonolab.render import ambiguity_svg, diff_svg, solution_svg
    from nonolab.solvers import DEFAULT

    puzzle = entry.puzzle
    pictures: dict[str, str] = {}
    notes: list[str] = []
    done: list[str] = []

    def picture(name: str, draw: Any, *args: Any, **kwargs: Any) -> None:
        svg, note = _drawing(draw, *args, **kwargs)
        if svg is not None:
            pictures[name] = svg
        elif note and note not in notes:
            notes.append(note)

    def shown(found: Any) -> dict[str, Any]:
        return {**found.as_dict(), "pictures": dict(pictures), "picture_notes": list(notes),
                "repairs": repairs.suggest(found), "parts": list(done)}

    def ended(part: str, found: Any) -> None:
        if part == "check":
            if found.alternative is not None:
                picture("diff", diff_svg, found.solution, found.alternative, puzzle)
            elif found.solution is not None:
                picture("solution", solution_svg, found.solution, puzzle, labels=True)
        elif part == "ambiguity" and found.ambiguity is not None:
            picture("why", ambiguity_svg, found.ambiguity, puzzle)
        done.append(part)
        job.publish(shown(found))

    found = report(puzzle, DEFAULT, time_limit, cancel=job.cancel, grade_last=True, keep=entry.locked,
                   on_part=lambda part: job.step(*_PARTS[part]), on_result=ended)
    job.check()
    if found.verdict.value == "unique":
        entry.solution = found.solution
    return shown(found)


def explain(entry: Entry, job: Job, time_limit: float | None) -> dict[str, Any]:
    """The step log with its verdict (:func:`nonolab.harness.explanation.explain` with its
    default backend, as ``nonolab explain`` and ``render --steps`` give them): the board with one
    frame per step (:func:`nonolab.render.steps.steps_svg`) and captions."""
    from nonolab.harness.explanation import explain as explain_puzzle
    from nonolab.render import check_drawable
    from nonolab.render.steps import start_caption, steps_svg

    check_drawable(entry.puzzle.width, entry.puzzle.height)   # refused before the search, not after it
    job.step(0.1, "solving step by step")
    found = explain_puzzle(entry.puzzle, time_limit=time_limit, cancel=job.cancel)
    job.check()
    job.step(0.8, "drawing the steps")
    return {"verdict": found.verdict.value, "summary": found.summary(), "steps": len(found.steps),
            "search_steps": found.search_steps, "svg": steps_svg(entry.puzzle, found.steps),
            "start": start_caption(entry.puzzle),
            "captions": [f"step {n}: {s.describe()}" for n, s in enumerate(found.steps, 1)]}


def image_recipe(width: int, height: int, density: float, time_limit: float | None, colours: int = 1,
                 image: str = "image", uniform: bool | None = None) -> Any:
    """The recipe of a puzzle from an image (``generate --from-image --unique --repair
    [--colours K] [--allow-uniform-lines|--no-uniform-lines]``: ``uniform`` as the CLI's
    choice, ``None`` its default, yes for an image); the library's own checks, so the API
    calls it before starting a job.

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
                  max_repairs=40, density_range=(low, high), colours=colours, allow_uniform_lines=uniform,
                  candidate_time_limit=min(5.0, time_limit or 5.0))


def from_image(data: bytes, name: str, width: int, height: int, density: float, job: Job,
               time_limit: float | None, colours: int = 1, uniform: bool | None = None) -> tuple[Puzzle, Solution]:
    """A unique puzzle from an image (``generate --from-image --unique --repair [--colours K]``),
    and the image's picture before any repair (for a before/after preview)."""
    import os
    import tempfile

    from nonolab.generate import make_puzzles

    suffix = re.sub(r"[^A-Za-z0-9.]", "", os.path.splitext(name or "")[1])[:10]
    with tempfile.TemporaryDirectory(prefix="nonolab-serve-") as folder:
        path = os.path.join(folder, f"image{suffix}")
        recipe = image_recipe(width, height, density, time_limit, colours, path, uniform)
        with open(path, "wb") as stream:
            stream.write(data)
        job.step(0.05, "reading the image")

        def progress(report) -> None:   # after each candidate: a cancel stops the loop here
            job.step(0.05 + 0.9 * report.candidates / 100, f"candidate {report.candidates}: "
                     f"{report.repairs} repairs so far")

        try:
            report = make_puzzles(1, recipe, seed=0, max_candidates=100, time_limit=time_limit,
                                  on_candidate=progress, cancel=job.cancel)
            before = _image_picture(path, width, height, density, colours)   # read as the generator read it
        except NonolabError as err:
            if err.path == path:   # the upload's own name, not the temporary file's
                err.path = name
            raise
    job.check()   # a cancel stopped it: cancelled, not failed
    if not report.complete:
        raise NonolabError(f"generate: no unique puzzle from this image within the limits ({report.summary()})")
    generated = report.puzzles[0].puzzle
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", os.path.splitext(os.path.basename(name or "image"))[0]).strip("_")
    return generated.with_(name=f"{stem or 'image'}-{width}x{height}"), before


def _image_picture(path: str, width: int, height: int, density: float, colours: int) -> Solution:
    """The picture the generator starts from (as ``generate --from-image`` reads the image)."""
    from nonolab.generate import colour_picture_from_image, picture_from_image
    if colours > 1:
        values, _ = colour_picture_from_image(path, width, height, colours)
        return Solution.from_values(values.tolist())
    return Solution.from_rows(picture_from_image(path, width, height, density).tolist())


def before_after(before: Solution, after: Puzzle) -> str | None:
    """The picture before and after a change, the changed cells framed (None: too large)."""
    from nonolab.render import changed_svg
    if after.goal is None:
        return None
    first = Puzzle.from_solution(before, palette=after.palette) if after.is_colour else None
    return _drawing(changed_svg, before, after.goal, first, after)[0]


#: The most pixels of a PNG the workbench draws: the image limit it reads (an image the
#: size of the largest drawable puzzle at 20 px a cell is 173 M pixels, a gigabyte to draw).
PNG_PIXELS = 25_000_000


def png_cell(svg: str, pixels: int | None = None) -> float:
    """The cell size (px) at which the picture ``svg`` (drawn at the default cell) holds at
    most ``pixels`` pixels as a PNG: the default cell when it does, else smaller (at least 2).

    >>> png_cell('<svg width="400" height="300">'), png_cell('<svg width="4000" height="3000">', 3_000_000)
    (20.0, 10.0)
    """
    from nonolab.render.pictures import DEFAULT_CELL

    size = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    if size is None:
        raise InvalidArgument("a picture without its size")   # every SVG render draws has one
    width, height = float(size.group(1)), float(size.group(2))
    shrink = min(1.0, ((pixels or png_pixels()) / (width * height)) ** 0.5)
    return max(2.0, float(int(DEFAULT_CELL * shrink * 10) / 10))


def png_pixels() -> int:
    """The most pixels of a PNG the workbench draws: its own bound, or a lower one the
    operator set for every image (``NONOLAB_MAX_PIXELS``)."""
    from nonolab.formats.limits import active
    return min(PNG_PIXELS, active().max_pixels or PNG_PIXELS)


def png_picture(puzzle: Puzzle, svg: str) -> str:
    """The picture of ``puzzle`` (``svg``: drawn at the default cell) to draw as a PNG within
    :func:`png_pixels`: at :func:`png_cell`'s size, then a tenth of a pixel smaller a cell until
    it holds (the legend's text keeps its size: a 399x399 puzzle at 9.7 px was 25,004,126)."""
    from nonolab.render import puzzle_svg
    from nonolab.render.convert import png_size

    limit = png_pixels()
    cell = png_cell(svg, limit)
    drawn = puzzle_svg(puzzle, cell=cell)
    while cell > 2.0 and (size := png_size(drawn)) is not None and size[0] * size[1] > limit:
        cell = max(2.0, round(cell - 0.1, 1))
        drawn = puzzle_svg(puzzle, cell=cell)
    return drawn


def download(entry: Entry, fmt: str, picture: bool = False) -> tuple[str, bytes]:
    """The file name and bytes of ``entry`` in ``fmt``: a puzzle format (its givens kept,
    or refused in one line by a format that cannot hold them; a format that holds a
    picture takes the goal, else the solution an analysis proved unique), or with ``picture`` the
    printable picture of the puzzle with its clues and givens (svg, png, pdf)."""
    from nonolab.errors import InvalidArgument
    from nonolab.formats import dump_bytes, suffix_of

    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", entry.puzzle.name).strip("_") or "puzzle"
    if picture:
        if fmt not in PICTURE_FORMATS:
            raise InvalidArgument(f"unknown picture {fmt!r} (known: {', '.join(PICTURE_FORMATS)})")
        from nonolab.render import encode, puzzle_svg
        page = "a4" if fmt == "pdf" else None
        svg = puzzle_svg(entry.puzzle, page=page)
        if fmt == "png":
            svg = png_picture(entry.puzzle, svg)
        data = encode(svg, fmt)
        return f"{stem}.{fmt}", data.encode("utf-8") if isinstance(data, str) else data
    from nonolab.errors import InvalidPuzzle

    try:
        return stem + suffix_of(fmt), dump_bytes(entry.puzzle, fmt)
    except InvalidPuzzle as err:
        if err.kind != "goal":
            raise
        if entry.solution is None:   # the CLI's "(solve the puzzle first)" is no advice here
            raise InvalidPuzzle(f"the {fmt} format holds the puzzle's picture, and this one has none: its file "
                                "gives clues only, and no check proved it unique (a unique puzzle downloads "
                                "with its solution as its picture)", kind="goal") from None
    # A format that holds a picture (png, picture, pbm, emoji), of a puzzle whose file gave
    # clues only: its one solution is its picture (solve --to png writes it so).
    return stem + suffix_of(fmt), dump_bytes(entry.puzzle.with_(goal=entry.solution), fmt)
