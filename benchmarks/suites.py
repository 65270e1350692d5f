"""The benchmark suites: each a lazy stream of ``(name, puzzle)`` with its defaults.

* ``corpus``: every puzzle of ../shared/corpus, in ``index.csv`` order; count to 2.
* ``survey``: the ``webpbn-survey`` folder of the corpus (Wolter's survey); count to 2.
* ``corpus30``: the corpus puzzles with both sides at most 30, smallest (in cells)
  first, so a runner can skip a backend past the size where it first timed out;
  count to 2.
* ``large``: smooth image-like squares of 250 ... 4000 cells a side; count to 2; one
  fresh process per (size, backend) so that the peak memory can be measured.
* ``random30``: 1000 uniform random 30x30 at 50 % (Wolter's rand30 style); count to 2.
* ``taai25``: 1000 random 25x25 whose density falls from 0.50 to 0.35, as the
  TAAI/TCGA tournaments; first solution only.
* ``ndom``: the N-Dom family (Wolter's "9-Dom" is N = 9), one puzzle per N of
  ``--sizes``; unique puzzles whose proof defeats search without learning; count to 2.

A corpus file that cannot be read is yielded as the exception instead of a puzzle;
the runner records it as an error row and goes on.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from benchmarks.corpus_batch import CORPUS
from nonolab.core.puzzle import Puzzle
from nonolab.generate import puzzle_from_array, random_grid, smooth_grid, taai_density

Item = tuple[str, "Puzzle | Exception"]

LARGE_SIZES = (250, 500, 1000, 2000, 4000)
NDOM_SIZES = (5, 6, 7, 8, 9, 10, 12, 15)
RANDOM_COUNT = 1000


@dataclass(frozen=True)
class Options:
    """What a suite needs to know about the command line."""

    seed: int | None = None  # None: the suite's own default seed
    sizes: tuple[int, ...] | None = None  # None: the suite's own sizes (large, ndom)
    corpus: Path = CORPUS


@dataclass(frozen=True)
class Suite:
    """A named suite.

    Attributes:
        items: ``items(options)`` yields ``(name, puzzle)`` lazily.
        planned: ``planned(options)`` is how many items it will yield (for progress lines).
        max_solutions: the default solution limit.
        chart: ``"scaling"`` (time and memory against size), ``"strategies"`` (time
            against size, timeouts marked), ``"distribution"`` (sorted times) or
            ``"slowest"`` (per-puzzle bars).
        isolated: run each (puzzle, backend) in a fresh process and record peak memory.
        default_seed: the seed of a generated suite (None for file suites).
        description: one line for the markdown heading.
    """

    name: str
    items: Callable[[Options], Iterator[Item]]
    planned: Callable[[Options], int]
    max_solutions: int
    chart: str
    description: str
    isolated: bool = False
    default_seed: int | None = None

    def seed(self, options: Options) -> int | None:
        return self.default_seed if options.seed is None else options.seed


def _index(corpus: Path, source: str | None = None) -> list[dict[str, str]]:
    with (corpus / "index.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return [r for r in rows if source is None or r["source"] == source]


def _load_files(corpus: Path, entries: list[dict[str, str]]) -> Iterator[Item]:
    from nonolab.errors import NonolabError
    from nonolab.formats import load

    for entry in entries:
        try:
            yield entry["file"], load(corpus / entry["file"])
        except (NonolabError, OSError) as exc:
            yield entry["file"], exc


def corpus_items(options: Options) -> Iterator[Item]:
    """Every puzzle of the corpus, in ``index.csv`` order."""
    return _load_files(options.corpus, _index(options.corpus))


def _small(entry: dict[str, str], side: int = 30) -> bool:
    return int(entry["width"]) <= side and int(entry["height"]) <= side


def corpus30_items(options: Options) -> Iterator[Item]:
    """The corpus puzzles with both sides <= 30, by cells (ties: index.csv order)."""
    entries = [e for e in _index(options.corpus) if _small(e)]
    entries.sort(key=lambda e: int(e["width"]) * int(e["height"]))
    return _load_files(options.corpus, entries)


def survey_items(options: Options) -> Iterator[Item]:
    """The ``webpbn-survey`` folder, in ``index.csv`` order (by webpbn number)."""
    return _load_files(options.corpus, _index(options.corpus, "webpbn-survey"))


def large_name(size: int) -> str:
    return f"smooth-{size}x{size}"


def large_puzzle(size: int, seed: int) -> Puzzle:
    """The smooth ``size`` x ``size`` puzzle of the ``large`` suite (no goal: it is big)."""
    array = smooth_grid(size, size, seed=seed + size)
    return puzzle_from_array(array, name=large_name(size), generator="smooth_grid",
                             seed=seed + size)


def large_sizes(options: Options) -> tuple[int, ...]:
    return options.sizes or LARGE_SIZES


def large_items(options: Options) -> Iterator[Item]:
    seed = LARGE.seed(options)
    for size in large_sizes(options):
        yield large_name(size), large_puzzle(size, seed)


def n_dom(n: int) -> Puzzle:
    """The N-Dom puzzle, (2N+1) x (2N+1): Josh Greifer's "Domino Logic III" for N = 9.

    Row 0 is ``3``, rows 1 .. 2N-1 alternate ``1`` (odd) and ``3 1`` (even), row 2N is
    ``1``; columns 0 and 1 are ``1``, columns 2 .. 2N-1 alternate ``1 3`` (even) and
    ``1`` (odd), column 2N is ``3``.  Its one solution is a chain of vertical 3-blocks
    (the dominoes), found by counting rows, which no line or probing logic sees.

    >>> p = n_dom(2)
    >>> p.rows, p.columns
    (((3,), (1,), (3, 1), (1,), (1,)), ((1,), (1,), (1, 3), (1,), (3,)))
    """
    if n < 2:
        raise ValueError(f"n_dom: N must be at least 2, not {n}")
    rows = [(3,)] + [(1,) if i % 2 else (3, 1) for i in range(1, 2 * n)] + [(1,)]
    columns = [(1,), (1,)] + [(1,) if i % 2 else (1, 3) for i in range(2, 2 * n)] + [(3,)]
    return Puzzle(rows=tuple(rows), columns=tuple(columns), name=f"{n}-dom")


def ndom_sizes(options: Options) -> tuple[int, ...]:
    return options.sizes or NDOM_SIZES


def ndom_items(options: Options) -> Iterator[Item]:
    for n in ndom_sizes(options):
        yield f"{n}-dom", n_dom(n)


def _random_items(prefix: str, count: int, side: int, seed: int,
                  density: Callable[[int], float]) -> Iterator[Item]:
    base = seed * 1_000_000  # puzzle i gets seed base + i: reproducible one by one
    for i in range(count):
        d = density(i)
        name = f"{prefix}-{i + 1:04d}"
        array = random_grid(side, side, d, seed=base + i)
        yield name, puzzle_from_array(array, name=name, generator="random_grid",
                                      density=f"{d:.4f}", seed=base + i)


def random30_items(options: Options) -> Iterator[Item]:
    return _random_items("r30", RANDOM_COUNT, 30, RANDOM30.seed(options), lambda i: 0.5)


def taai25_items(options: Options) -> Iterator[Item]:
    return _random_items("t25", RANDOM_COUNT, 25, TAAI25.seed(options),
                         lambda i: taai_density(i, RANDOM_COUNT))


CORPUS_SUITE = Suite("corpus", corpus_items, lambda o: len(_index(o.corpus)), 2, "slowest",
                     "every puzzle of ../shared/corpus (index.csv order)")
CORPUS30 = Suite("corpus30", corpus30_items, lambda o: sum(map(_small, _index(o.corpus))), 2, "strategies",
                 "the corpus puzzles with both sides <= 30, smallest first")
SURVEY = Suite("survey", survey_items, lambda o: len(_index(o.corpus, "webpbn-survey")), 2, "slowest",
               "the webpbn-survey folder of ../shared/corpus (Wolter's survey puzzles)")
LARGE = Suite("large", large_items, lambda o: len(large_sizes(o)), 2, "scaling",
              "smooth image-like squares: noise, two box blurs of radius n/20, median threshold",
              isolated=True, default_seed=2000)
RANDOM30 = Suite("random30", random30_items, lambda o: RANDOM_COUNT, 2, "distribution",
                 "1000 uniform random 30x30 puzzles, 50 % filled", default_seed=30)
TAAI25 = Suite("taai25", taai25_items, lambda o: RANDOM_COUNT, 1, "distribution",
               "1000 random 25x25 puzzles, density falling from 0.50 to 0.35 (TAAI style)",
               default_seed=25)

NDOM = Suite("ndom", ndom_items, lambda o: len(ndom_sizes(o)), 2, "strategies",
             "the N-Dom family, (2N+1)-square unique puzzles (9-Dom is webpbn #8098)")

SUITES: dict[str, Suite] = {s.name: s for s in (CORPUS_SUITE, CORPUS30, SURVEY, LARGE, RANDOM30, TAAI25, NDOM)}


def warmup_puzzle() -> Puzzle:
    """A small puzzle with several solutions: one solve compiles and imports everything."""
    return puzzle_from_array(random_grid(8, 8, 0.5, seed=1), name="warm-up")
