"""The generator loop: draw candidate pictures, filter, judge, repair, accept.

Each candidate is a picture (``smooth`` blurred noise, ``noise``, or an image
file), filtered (its filled fraction inside the "fun zone", 20-70 % by default;
no row or column all filled or all empty unless allowed), turned into clues and
judged by :func:`~nonolab.generate.criteria.assess`.  With ``repair``, a rejected
picture gets one cell flipped and is judged again, up to ``max_repairs`` times: for
an ambiguous puzzle, a cell where two of its solutions differ; for one too hard,
a cell line logic leaves undecided (which holds the former too); for an
all-filled or all-empty line, a cell of it.  In colour (``Recipe.colours`` above 1)
the picture holds colour indices, a repair changes a cell to another colour or to
the background, and a drawn candidate that lacks a colour of its palette is discarded.

Reproducible: candidate ``i`` of master seed ``S`` draws its picture and its
repair choices from seeds derived from ``(S, i)`` alone, and the two solutions a
repair aims between come from a backend that declares ``Capability.REPRODUCIBLE``
(the judge when it does, else lcg: ``auto`` races engines, so which two it finds
depends on timing), so the same arguments give the same puzzles, unless a time limit
cuts a proof (a timeout depends on the machine; it is counted, never accepted).

>>> report = make_puzzles(2, Recipe(width=8, height=8, unique=True), seed=3)
>>> len(report.puzzles), report.puzzles[0].puzzle.name
(2, 'gen-8x8-seed3-001')
>>> [g.seed for g in report.puzzles] == [g.seed for g in make_puzzles(2, Recipe(8, 8, unique=True), seed=3).puzzles]
True
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from nonolab.core.palette import Palette
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.formats.limits import check_cells, check_memory
from nonolab.generate.criteria import (Criteria, Outcome, assess, differing_cells, repair_witness,
                                       undecided_cells)
from nonolab.generate.grids import MAX_COLOURS, puzzle_from_array, random_grid, smooth_grid
from nonolab.generate.image import colour_picture_from_image, picture_from_image
from nonolab.generate.repair import cells_of_lines, choose_change, filled_fraction, uniform_lines
from nonolab.generate.screen import Screen
from nonolab.generate.screen import applies as screen_applies
from nonolab.generate.space import PictureSpace
from nonolab.core.words import counted
from nonolab.solvers import DEFAULT, backends_with, build
from nonolab.solvers.base import Budget, Capability, capabilities

__all__ = ["STYLES", "Recipe", "GeneratedPuzzle", "GenerateReport", "candidate_seed", "make_puzzles", "parse_size"]

STYLES = ("smooth", "noise")
CANDIDATES_PER_PUZZLE = 100  # the default budget of max_candidates, per puzzle asked
#: The memory making one candidate holds a cell: the smooth picture's noise, its blurs
#: and threshold (float64 arrays), the clues and the check of the candidate (96 bytes a
#: cell measured at 5000x5000, benchmarks/log/2026-11-26-limits-3.md), held to the
#: memory budget before a cell is drawn.
BYTES_PER_CELL = 100
_REPAIRABLE = (Outcome.MULTIPLE, Outcome.TOO_HARD, Outcome.UNIFORM_LINES)


@dataclass(frozen=True)
class Recipe:
    """What to generate: the size, the picture source, the filters and the criteria.

    Args:
        width, height: the grid size.
        density: the filled fraction asked for, strictly between 0 and 1.
        style: ``"smooth"`` (blurred noise, image-like) or ``"noise"`` (uniform).
        radius: the blur radius of ``smooth`` (default: see ``smooth_grid``).
        image: an image file to take the picture from instead of ``style``.
        density_range: a candidate whose filled fraction is outside is discarded
            (the "fun zone"); ``density`` must lie inside it.
        allow_uniform_lines: accept rows and columns (longer than 2) that are all
            filled or all empty; ``None`` (the default): yes for an ``image``, whose
            background is often whole rows (refusing them would make repairs draw stray
            cells on it), no for a drawn picture.
        unique, max_grade, backend: the criteria (see :class:`~nonolab.generate.criteria.Criteria`).
        repair, max_repairs: flip cells of a rejected picture and retry, at most
            ``max_repairs`` flips per candidate.
        candidate_time_limit: wall seconds to judge one candidate, repairs included.
        colours: foreground colours, 1 (black and white) to ``MAX_COLOURS``.  A drawn
            picture has exactly this many, from :meth:`Palette.default_for`; an image is
            quantised to at most this many plus its background (``density`` then
            plays no part: see :func:`~nonolab.generate.image.colour_picture_from_image`).
            Colour puzzles are graded on the colour engine's steps for ``max_grade``
            (no depth-2 level: what full probing leaves open is ``search``).

    Raises:
        InvalidArgument: any value out of its range.
    """

    width: int
    height: int
    density: float = 0.5
    style: str = "smooth"
    radius: int | None = None
    image: str | os.PathLike | None = None
    density_range: tuple[float, float] = (0.2, 0.7)
    allow_uniform_lines: bool | None = None
    unique: bool = False
    max_grade: str | None = None
    backend: str = DEFAULT
    repair: bool = False
    max_repairs: int = 20
    candidate_time_limit: float | None = 10.0
    colours: int = 1

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise InvalidArgument(f"grid size must be positive integers, got {self.width}x{self.height}")
        if not 0.0 < self.density < 1.0:
            raise InvalidArgument(f"{{arg}} must be strictly between 0 and 1, got {self.density!r}", argument="density")
        low, high = self.density_range
        if not 0.0 <= low <= high <= 1.0:
            raise InvalidArgument(f"density range must satisfy 0 <= low <= high <= 1, got {low!r}-{high!r}")
        if not low <= self.density <= high:
            raise InvalidArgument(f"{{arg}} {self.density} is outside the accepted range {low}-{high}; "
                                  "widen the range (its low and high ends)", argument="density")
        if self.style not in STYLES:
            raise InvalidArgument(f"{{arg}} must be one of {', '.join(STYLES)}, not {self.style!r}", argument="style")
        if self.radius is not None and (self.image is not None or self.style != "smooth"):   # dropped, once
            raise InvalidArgument("{arg} blurs the smooth style's noise: not with " + (
                "an image" if self.image is not None else f"style {self.style}"), argument="radius")
        if self.radius is not None and (isinstance(self.radius, bool) or not isinstance(self.radius, (int, np.integer))
                                        or self.radius < 0):   # here, not at the first draw as smooth_grid's error
            raise InvalidArgument(f"{{arg}} must be a non-negative integer, not {self.radius!r}", argument="radius")
        if self.max_repairs < 0:
            raise InvalidArgument(f"{{arg}} must be non-negative, got {self.max_repairs}", argument="max_repairs")
        if self.candidate_time_limit is not None and self.candidate_time_limit <= 0:
            raise InvalidArgument(f"{{arg}} must be positive, got {self.candidate_time_limit}",
                                  argument="candidate_time_limit")
        Criteria(self.unique, self.max_grade, self.backend)  # validates max_grade
        if (isinstance(self.colours, bool) or not isinstance(self.colours, (int, np.integer))
                or not 1 <= self.colours <= MAX_COLOURS):
            raise InvalidArgument(f"{{arg}} must be an integer from 1 to {MAX_COLOURS} (the legible, "
                                  f"distinct colours of the palette), not {self.colours!r}", argument="colours")

    @property
    def uniform_lines_allowed(self) -> bool:
        """Whether all-filled and all-empty lines are accepted (see ``allow_uniform_lines``)."""
        return self.image is not None if self.allow_uniform_lines is None else self.allow_uniform_lines

    @property
    def palette(self) -> Palette | None:
        """The palette of a drawn colour picture (None in black and white, or from an image)."""
        return Palette.default_for(self.colours) if self.colours > 1 and self.image is None else None

    @property
    def source(self) -> str:
        """``"image"`` or the style."""
        return "image" if self.image is not None else self.style

    @property
    def criteria(self) -> Criteria:
        return Criteria(self.unique, self.max_grade, self.backend)


@dataclass(frozen=True)
class GeneratedPuzzle:
    """One accepted puzzle and how it was found.

    ``puzzle`` carries the picture as its goal and this record in its metadata.
    ``seed`` is the candidate's own seed (``smooth_grid(h, w, seed=seed, density=d)``
    redraws the picture before repairs); ``candidates`` counts the candidates drawn
    since the previous accepted puzzle, this one included; ``time`` is the wall
    time they took.
    """

    puzzle: Puzzle
    index: int
    seed: int
    source: str
    density: float
    grade: str | None
    candidates: int
    repairs: int
    time: float

    def as_record(self) -> dict[str, Any]:
        return {"name": self.puzzle.name, "width": self.puzzle.width, "height": self.puzzle.height,
                "source": self.source, "seed": self.seed, "density": self.density, "grade": self.grade or "",
                "candidates": self.candidates, "repairs": self.repairs, "time": round(self.time, 4)}


@dataclass
class GenerateReport:
    """The accepted puzzles and the cost of finding them.

    ``stopped`` is None when ``asked`` puzzles were found, else why the loop ended
    early: ``"max-candidates"``, ``"time-limit"``, ``"image"`` (an image without
    repair gives one candidate) or ``"exhausted"`` (every one of the ``pictures`` a small
    grid can draw within the density range was met, none of them at all on a 1x1 grid:
    see :mod:`~nonolab.generate.space`).  ``rejected`` counts the discarded candidates by
    :class:`~nonolab.generate.criteria.Outcome` value.
    """

    asked: int
    puzzles: list[GeneratedPuzzle] = field(default_factory=list)
    candidates: int = 0
    repairs: int = 0
    rejected: Counter = field(default_factory=Counter)
    stopped: str | None = None
    time: float = 0.0
    pictures: int | None = None   # the drawn pictures possible, when few enough to follow

    @property
    def complete(self) -> bool:
        return len(self.puzzles) >= self.asked

    @property
    def candidates_per_puzzle(self) -> float | None:
        """Candidates tried per accepted puzzle (None when none was accepted)."""
        return self.candidates / len(self.puzzles) if self.puzzles else None

    def summary(self) -> str:
        """One line: accepted, candidates tried, the mean per puzzle, repairs, rejections, time."""
        mean = self.candidates_per_puzzle
        per = f"{mean:.2f} per accepted puzzle" if mean is not None else "none accepted"
        rejected = ", ".join(f"{k} {n}" for k, n in sorted(self.rejected.items())) or "none"
        return (f"accepted {len(self.puzzles)} of {self.asked}; {counted(self.candidates, 'candidate')} tried ({per}); "
                f"{counted(self.repairs, 'repair')}; rejected: {rejected}; {self.time:.2f} s")


def parse_size(text: str) -> tuple[int, int]:
    """``"30x20"`` -> ``(30, 20)`` (width, height).

    >>> parse_size("30x20"), parse_size("7X7")
    ((30, 20), (7, 7))
    """
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text or "")
    if not m:
        raise InvalidArgument(f"size must be WIDTHxHEIGHT (e.g. 30x30), not {text!r}")
    width, height = int(m.group(1)), int(m.group(2))
    if width < 1 or height < 1:
        raise InvalidArgument(f"grid size must be positive, got {width}x{height}")
    return width, height


def candidate_seed(seed: int, index: int) -> int:
    """The seed of candidate ``index`` (0-based) of master seed ``seed``: a 32-bit int.

    >>> candidate_seed(7, 0) == candidate_seed(7, 0) != candidate_seed(7, 1)
    True
    """
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def make_puzzles(count: int, recipe: Recipe, seed: int = 0, max_candidates: int | None = None,
                 time_limit: float | None = None,
                 on_puzzle: Callable[[GeneratedPuzzle], None] | None = None,
                 on_candidate: Callable[[GenerateReport], None] | None = None,
                 cancel: Any = None) -> GenerateReport:
    """Generate ``count`` puzzles that satisfy ``recipe``.

    Args:
        count: the number of puzzles wanted.
        seed: the master seed (a non-negative integer).
        max_candidates: stop after this many candidates (default 100 per puzzle asked).
        time_limit: stop after this many wall seconds in all.
        on_puzzle: called with each accepted puzzle as soon as it is accepted.
        on_candidate: called with the report so far after each candidate.
        cancel: a ``threading.Event``; once set, the searches stop and the loop ends
            (``stopped`` is ``"cancelled"``), whatever phase it is in.

    Returns:
        The report; ``report.complete`` says whether ``count`` puzzles were found.

    Raises:
        InvalidArgument: a count, seed or limit out of range.
        ParseError, MissingDependency: the image cannot be read.
        UnknownBackend, BackendUnavailable: the counting backend cannot run.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidArgument(f"{{arg}} must be a positive integer, got {count!r}", argument="count")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgument(f"{{arg}} must be a non-negative integer, got {seed!r}", argument="seed")
    if max_candidates is None:
        max_candidates = CANDIDATES_PER_PUZZLE * count
    if max_candidates < 1:
        raise InvalidArgument(f"{{arg}} must be positive, got {max_candidates}", argument="max_candidates")
    if time_limit is not None and time_limit <= 0:
        raise InvalidArgument(f"{{arg}} must be positive, got {time_limit}", argument="time_limit")
    check_cells(recipe.width, recipe.height)   # the input limit holds for what is made too, before a cell is drawn
    check_memory("generate", recipe.width, recipe.height, BYTES_PER_CELL)   # and the memory budget
    if recipe.criteria.checks:
        solver = build(recipe.backend)  # an unknown or missing backend fails before any candidate
        if recipe.colours > 1 and Capability.COLOUR not in capabilities(solver):
            raise InvalidArgument(f"backend {recipe.backend!r} solves black-and-white puzzles only; colour "
                                  f"puzzles need one of: {', '.join(backends_with(Capability.COLOUR))}")
    image, palette = None, recipe.palette
    if recipe.image is not None and recipe.colours > 1:
        image, palette = colour_picture_from_image(recipe.image, recipe.width, recipe.height, recipe.colours)
        # The image, not the density, decides how much is filled: the accepted range widens to take it.
        low, high = recipe.density_range
        filled = filled_fraction(image)
        recipe = replace(recipe, density_range=(min(low, filled), max(high, filled)))
    elif recipe.image is not None:
        image = picture_from_image(recipe.image, recipe.width, recipe.height, recipe.density)
        # An image with less ink than the density asks is not padded with background: the range widens to it.
        low, high = recipe.density_range
        filled = filled_fraction(image)
        recipe = replace(recipe, density_range=(min(low, filled), max(high, filled)))
    report = GenerateReport(asked=count)
    budget = Budget(time_limit, cancel)
    # Drawn candidates counted to 2 a group at a time (check_many), then judged one by one as before.
    screen = (Screen(recipe, palette, lambda i: _draw(recipe, candidate_seed(seed, i)), max_candidates, budget)
              if screen_applies(recipe) else None)
    since_last, last_time = 0, budget.start
    judged: dict[tuple, Outcome] = {}  # clues -> outcome, so a picture met again is not judged again
    # A small grid's drawn pictures can all be met: then no draw can give a new puzzle.
    space = None if image is not None else PictureSpace.of(recipe.width, recipe.height, recipe.colours,
                                                           recipe.density_range)
    report.pictures = None if space is None else space.size
    index = 0
    while not report.complete:
        if budget.expired():
            report.stopped = "cancelled" if budget.cancelled() else "time-limit"
            break
        if space is not None and space.exhausted():
            report.stopped = "exhausted"
            break
        if index >= max_candidates:
            report.stopped = "max-candidates"
            break
        if image is not None and not recipe.repair and index >= 1:
            report.stopped = "image"
            break
        candidate = candidate_seed(seed, index)
        counted = None
        if screen is not None:
            picture, counted = screen.take(index)
        else:
            picture = image.copy() if image is not None else _draw(recipe, candidate)
        index += 1
        since_last += 1
        report.candidates += 1
        drawn = picture.copy() if space is not None else None   # (repairs change the picture in place)
        limit = _min(recipe.candidate_time_limit, budget.time_limit())
        outcome, grade, repairs = _judge_with_repairs(picture, palette, recipe, candidate, limit, judged, cancel,
                                                      counted)
        if space is not None and drawn is not None and outcome is not Outcome.TIMEOUT:
            space.saw(drawn)   # judged for good: met again, it is judged the same (or a duplicate)
        report.repairs += repairs
        if cancel is not None and cancel.is_set() and outcome is not Outcome.ACCEPTED:
            report.stopped = "cancelled"   # its searches were stopped: not a verdict on the candidate
            break
        if outcome is Outcome.ACCEPTED:
            now = time.perf_counter()
            number, density = len(report.puzzles) + 1, filled_fraction(picture)
            grade_word = grade.value if grade is not None else None
            puzzle = _accepted(picture, palette, recipe, _name(recipe, seed, number, count), seed=candidate,
                               density=density, grade=grade_word, candidates=since_last, repairs=repairs)
            generated = GeneratedPuzzle(puzzle, number, candidate, recipe.source, density, grade_word, since_last,
                                        repairs, now - last_time)
            report.puzzles.append(generated)
            since_last, last_time = 0, now
            if on_puzzle is not None:
                on_puzzle(generated)
        else:
            report.rejected[outcome.value] += 1
        report.time = budget.elapsed()
        if on_candidate is not None:
            on_candidate(report)
    report.time = budget.elapsed()
    return report


def _draw(recipe: Recipe, candidate: int) -> np.ndarray:
    if recipe.style == "noise":
        return random_grid(recipe.height, recipe.width, recipe.density, seed=candidate, colours=recipe.colours)
    return smooth_grid(recipe.height, recipe.width, recipe.radius, seed=candidate, density=recipe.density,
                       colours=recipe.colours)


def _judge_with_repairs(picture: np.ndarray, palette: Palette | None, recipe: Recipe, candidate: int,
                        time_limit: float | None, judged: dict[tuple, Outcome],
                        cancel: Any = None, counted: Callable[[], Any] | None = None) -> tuple[Outcome, Any, int]:
    """Judge ``picture`` (changed in place by repairs): the outcome, the grade and the repairs made.

    ``counted`` gives the drawn picture's count to 2 when it was made ahead (see
    :mod:`~nonolab.generate.screen`); a repaired picture is counted by the judge."""
    budget = Budget(time_limit, cancel)
    rng = np.random.default_rng([candidate, 1])  # the repair choices: apart from the picture's draw
    repairs = 0
    low, high = recipe.density_range
    if not low <= filled_fraction(picture) <= high:
        return Outcome.DENSITY, None, 0  # repairs flip single cells: they are not for this
    colours = len(palette) - 1 if palette is not None else 1
    if colours > 1 and np.count_nonzero(np.bincount(picture.ravel(), minlength=colours + 1)[1:]) < colours:
        return Outcome.MISSING_COLOUR, None, 0  # the palette promises every colour (repairs keep them)
    while True:
        if budget.expired():
            return Outcome.TIMEOUT, None, repairs
        lines = [] if recipe.uniform_lines_allowed else uniform_lines(picture)
        grade = None
        if lines:
            outcome = Outcome.UNIFORM_LINES
        else:
            puzzle = puzzle_from_array(picture, palette=palette)
            key = (puzzle.rows, puzzle.columns, puzzle.row_colours, puzzle.column_colours)
            found = judged.get(key)
            known = None
            if found is Outcome.ACCEPTED:
                outcome = Outcome.DUPLICATE
            elif found is None:
                known = counted() if counted is not None and repairs == 0 else None
                assessment = assess(puzzle, recipe.criteria, budget.time_limit(), cancel, known)
                outcome, grade, known = assessment.outcome, assessment.grade, assessment.differing
                if cancel is not None and cancel.is_set():
                    return Outcome.TIMEOUT, grade, repairs   # stopped, not judged: not remembered
                judged[key] = outcome
            else:
                outcome = found
            if outcome is Outcome.ACCEPTED:
                return outcome, grade, repairs
        if not recipe.repair or outcome not in _REPAIRABLE:
            return outcome, grade, repairs
        if repairs >= recipe.max_repairs:
            return Outcome.REPAIR_FAILED, grade, repairs
        change = None
        if lines:
            change = choose_change(picture, cells_of_lines(picture, lines), rng, recipe.density_range,
                                   recipe.uniform_lines_allowed, colours, edges=recipe.image is not None)
        else:
            for region in _trouble(puzzle, outcome, recipe.backend, budget, known):
                if region is None:
                    return Outcome.TIMEOUT, grade, repairs
                change = choose_change(picture, region, rng, recipe.density_range, recipe.uniform_lines_allowed,
                                       colours, edges=recipe.image is not None)
                if change is not None:
                    break
        if change is None:
            return Outcome.REPAIR_FAILED, grade, repairs
        cell, value = change
        picture[cell] = value
        repairs += 1


def _trouble(puzzle: Puzzle, outcome: Outcome, backend: str, budget: Budget,
             known: tuple[tuple[int, int], ...] | None = None):
    """The regions to flip a cell in, best first (None: the time limit ran out).

    For two solutions, the cells where they differ: a flip there changes the clues that
    allowed both.  Which two a search finds first depends on the engine, and with a racing
    or time-sliced judge (``auto``, native) on timing, so the two are taken from a
    reproducible backend (:func:`~nonolab.generate.criteria.repair_witness`): the judge's
    own (``known``) when it is one, else solved for again.  Then (or for a puzzle too hard,
    or when no reproducible backend loads) the cells line logic leaves undecided, which
    hold every such cell: the fixpoint of line propagation, which depends on the clues
    alone.  Colour has no such grid to read (native's colour engine reports none): there,
    without a reproducible backend, every cell.
    """
    witness = repair_witness(backend, puzzle.is_colour) if outcome is Outcome.MULTIPLE else None
    # What is left, raw (0.0 once spent): these two answer None (timed out) for nothing left.
    if witness is not None:
        yield list(known) if known is not None and witness == backend else \
            differing_cells(puzzle, witness, budget.left(), budget.cancel)
    if not puzzle.is_colour:
        yield undecided_cells(puzzle, budget.left(), budget.cancel)
    elif outcome is Outcome.MULTIPLE and witness is None:
        yield [divmod(i, puzzle.width) for i in range(puzzle.width * puzzle.height)]


def _name(recipe: Recipe, seed: int, number: int, asked: int) -> str:
    """``gen-WxH-seedS-NNN`` (the image's stem for ``gen`` when there is one)."""
    prefix = "gen" if recipe.image is None else _file_stem(recipe.image)
    return f"{prefix}-{recipe.width}x{recipe.height}-seed{seed}-{number:0{max(3, len(str(asked)))}d}"


def _accepted(picture: np.ndarray, palette: Palette | None, recipe: Recipe, name: str, *, seed: int,
              density: float, grade: str | None, candidates: int, repairs: int) -> Puzzle:
    """The accepted picture as a puzzle with its goal, and how it was found in its metadata."""
    return puzzle_from_array(picture, name=name, with_goal=True, palette=palette, generator="nonolab generate",
                             source=recipe.source, seed=seed, density=density,
                             grade=grade or "not checked", candidates=candidates, repairs=repairs)


def _file_stem(path: str | os.PathLike) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(path).stem).strip("_")
    return stem or "image"


def _min(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else min(a, b)

