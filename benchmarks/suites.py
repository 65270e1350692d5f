"""The project's named benchmark suites: each a few PATHS for ``nonolab bench`` and its defaults.

The puzzles come from the library (:mod:`nonolab.bench.suites`: files, folders and seeded
generated suites); ../shared is read by path and a suite that needs it is refused when
it is absent.  ``python -m benchmarks.run SUITE [nonolab bench options]`` runs one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
TOURNAMENT = SHARED / "tournament"
LARGE_SIZES = (250, 500, 1000, 2000, 4000)
NDOM_SIZES = (5, 6, 7, 8, 9, 10, 12, 15)


@dataclass(frozen=True)
class Suite:
    """PATHS and the ``nonolab bench`` options it runs with by default (the caller's come after and win)."""

    paths: tuple[str, ...]
    options: tuple[str, ...]
    measures: str
    needs_shared: bool = False


def _sizes(sizes: tuple[int, ...]) -> str:
    return ",".join(map(str, sizes))


SUITES: dict[str, Suite] = {
    "corpus": Suite((str(CORPUS),), ("--time-limit", "60"),
                    "every puzzle of ../shared/corpus, count to 2", True),
    "survey": Suite((str(CORPUS / "webpbn-survey"),), ("--time-limit", "60"),
                    "Wolter's survey puzzles (the hard eight among them), count to 2", True),
    "tournament": Suite(tuple(f"tournament:{TOURNAMENT / name}.txt" for name in ("taai2011", "taai2013")),
                        ("--task", "solve", "--time-limit", "10", "--isolate", "worker", "--measure", "cpu"),
                        "two TAAI tournament sets (1000 25x25 each), first solution, per-puzzle solve cost", True),
    "random30": Suite(("random:30x30:1000",), ("--time-limit", "60", "--isolate", "worker"),
                      "1000 uniform random 30x30 at 50 % (Wolter's rand30 style), count to 2"),
    "taai25": Suite(("taai:1000",), ("--task", "solve", "--time-limit", "60", "--isolate", "worker"),
                    "1000 random 25x25, density 0.50 falling to 0.35 (TAAI style), first solution"),
    "large": Suite((f"large:{_sizes(LARGE_SIZES)}",), ("--time-limit", "300"),
                   "smooth image-like squares of 250 to 4000 a side, count to 2, one process each (memory)"),
    "ndom": Suite((f"ndom:{_sizes(NDOM_SIZES)}",), ("--time-limit", "300"),
                  "the N-Dom family, unique puzzles whose proof defeats search without learning"),
    "startup": Suite((str(REPO / "puzzles" / "webpbn" / "webpbn-00006-cat.non"),),
                     ("--time-limit", "60", "--repeat", "10"),
                     "one 20x20 puzzle, ten processes: import and start-up as a user pays them"),
}
