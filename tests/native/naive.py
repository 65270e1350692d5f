"""The native engine's search, written the naive way: the oracle of its search tree.

The engine (C++) is fast because of what this module leaves out: windows, segments,
trails, a line cache, rounds over dirty lines, sweeps that pause.  What it computes is
defined without any of that, and this module computes it so:

* propagation: every row and column solved whole by brute force (``reference.brute_line``),
  over and over, until nothing changes -- the fixpoint is unique, whatever the order;
* probing: cell by cell, both values propagated from the current grid; a refuted value
  fixes the other (``contradiction``), and with ``full`` the cells both trials set alike
  are fixed too; after a deduction the grid is propagated and the sweep goes on with the
  next cell; sweeps repeat until one learns nothing;
* branching: with probing, the unknown cell maximising ``sqrt(max / (min + 1)) + min`` of
  its two trials' gains (the cells each decides, plus one) at the node's fixpoint, the
  first such cell on ties, its larger gain first (filled on equal gains); or by
  LalaFrogKK's ``min + 1.85 ln(1 + (max - min))`` (``branching="lalafrog"``), the same
  way; without probing, the first unknown cell, filled first;
* depth-first search, the first value's subtree before the second's.

So the engine must find the same solutions in the same order, with the same number of
nodes, probes and depth (``restarts=False``: one search style; the default interleaves
two in slices of wall time).  Every probe runs here: the engine's skipped probes (a probe
that would learn nothing again, ``skip_probes``) count with its probes.  Nothing here imports a solver of nonolab.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from reference import brute_line

EMPTY, FILLED, UNKNOWN = 1, 2, 3


def _solve(clue, cells: list[int]) -> list[int] | None:
    got = brute_line(tuple(clue), bytes(cells))
    return None if got is None else list(got)


def propagate(puzzle, grid: list[int], solve=_solve) -> list[int] | None:
    """Solve every row and column whole, over and over, until nothing changes (None: a contradiction)."""
    h, w = puzzle.height, puzzle.width
    grid = list(grid)
    changed = True
    while changed:
        changed = False
        for r in range(h):
            got = solve(puzzle.rows[r], grid[r * w:(r + 1) * w])
            if got is None:
                return None
            changed |= got != grid[r * w:(r + 1) * w]
            grid[r * w:(r + 1) * w] = got
        for c in range(w):
            got = solve(puzzle.columns[c], grid[c::w])
            if got is None:
                return None
            changed |= got != grid[c::w]
            grid[c::w] = got
    return grid


@dataclass
class Node:
    """What one node's propagation and probing left: its grid (None: a contradiction) and
    the probes it made."""

    grid: list[int] | None
    probes: int = 0


def probe(puzzle, grid: list[int], mode: str, solve=_solve) -> Node:
    """Probing at the line fixpoint ``grid`` until a sweep learns nothing (see the module notes)."""
    node = Node(list(grid))
    learnt = mode != "none"
    while node.grid is not None and learnt:
        learnt = False
        for p in range(len(node.grid)):
            if node.grid is None:
                break
            if node.grid[p] != UNKNOWN:
                continue
            trials = []
            for value in (EMPTY, FILLED):
                trial = list(node.grid)
                trial[p] = value
                trials.append(propagate(puzzle, trial, solve))
                node.probes += 1
            if trials[0] is None and trials[1] is None:
                node.grid = None
                break
            if trials[0] is None or trials[1] is None:
                node.grid[p] = FILLED if trials[0] is None else EMPTY
            elif mode == "full":
                agreed = [x for x in range(len(node.grid))
                          if node.grid[x] == UNKNOWN and trials[0][x] == trials[1][x] != UNKNOWN]
                if not agreed:
                    continue
                for x in agreed:
                    node.grid[x] = trials[0][x]
            else:
                continue
            learnt = True
            node.grid = propagate(puzzle, node.grid, solve)
    return node


def _score(low: int, high: int, branching: str) -> float:
    if branching == "wu":
        return math.sqrt(high / (low + 1.0)) + low
    return low + 1.85 * math.log1p(high - low)


def branch(puzzle, grid: list[int], scored: bool, solve=_solve, branching: str = "wu") -> tuple[int, int]:
    """The cell to branch on and its first value; (-1, 0) when the grid is solved."""
    unknown = [p for p, v in enumerate(grid) if v == UNKNOWN]
    if not unknown:
        return -1, 0
    if not scored:
        return unknown[0], FILLED
    best, best_score, value = -1, -1.0, FILLED
    for p in unknown:
        gains = []
        for v in (EMPTY, FILLED):
            trial = list(grid)
            trial[p] = v
            after = propagate(puzzle, trial, solve)
            gains.append(sum(1 for a, b in zip(grid, after) if a != b))  # the cells it decided besides p, plus one
        low, high = min(gains), max(gains)
        score = _score(low, high, branching)
        if score > best_score:
            best, best_score, value = p, score, FILLED if gains[1] >= gains[0] else EMPTY
    return best, value


@dataclass
class Tree:
    """A whole search: its solutions in order (state-mask bytes), nodes, probes, depth."""

    solutions: list[bytes] = field(default_factory=list)
    nodes: int = 0
    probes: int = 0
    max_depth: int = 0


def search(puzzle, probing: str = "full", solve=_solve, branching: str = "wu") -> Tree:
    """Every solution of ``puzzle``, depth first, as the engine searches (one style)."""
    tree = Tree()

    def visit(grid: list[int], depth: int) -> None:
        tree.nodes += 1
        tree.max_depth = max(tree.max_depth, depth)
        grid = propagate(puzzle, grid, solve)
        if grid is None:
            return
        node = probe(puzzle, grid, probing, solve)
        tree.probes += node.probes
        if node.grid is None:
            return
        p, value = branch(puzzle, node.grid, probing != "none", solve, branching)
        if p < 0:
            tree.solutions.append(bytes(node.grid))
            return
        for v in (value, 3 - value):
            child = list(node.grid)
            child[p] = v
            visit(child, depth + 1)

    visit([UNKNOWN] * (puzzle.height * puzzle.width), 0)
    return tree
