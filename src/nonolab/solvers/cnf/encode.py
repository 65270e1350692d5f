"""The regular (DFA) CNF encoding of a nonogram, with support clauses.

Each line runs the automaton of its clue (:mod:`.automaton`) over its cells: one
variable per (step, state) and per (step, transition), restricted to the states
that are reachable from the start and can still reach the end, so a line costs
O(n * (slack + 1)).  One function per clause family below; ``models/cnf.md``
explains each family, why it is there, and the exact sizes.

With the forward, backward and value support clauses, unit propagation alone
fixes every cell the complete line solver fixes and finds every line
contradiction.  Nothing here imports python-sat: the pool is a small class of its
own, so :func:`to_dimacs` works without any SAT library.

>>> from nonolab.core import Puzzle
>>> enc = encode(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> enc.cell_var(1, 0), enc.num_vars > 4
(3, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Iterator, Mapping, Sequence

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument, LimitReached
from nonolab.solvers.cnf.automaton import Line

__all__ = ["Encoding", "Line", "VarPool", "cells_as_assumptions", "encode", "encode_line",
           "line_size", "to_dimacs"]

Clause = list[int]

# The clause families, in the order they are emitted (and counted).
FAMILIES = ("empty_line", "initial_state", "accepting_state", "transition",
            "forward_support", "backward_support", "value_support")


class VarPool:
    """Variable numbers handed out in order and remembered by key.

    Keys are ``(line, "q", position, state)`` for state variables and
    ``(line, "t", position, state, value)`` for transition variables.  Variables
    ``1 .. first - 1`` are reserved (the cells).

    >>> pool = VarPool(first=5)
    >>> pool.id(("row", 0, "q", 0, 0)), pool.id(("row", 0, "q", 0, 0)), pool.top
    (5, 5, 5)
    """

    def __init__(self, first: int = 1):
        self.top = first - 1
        self._ids: dict[Hashable, int] = {}
        self._tags = 0

    def id(self, key: Hashable) -> int:
        var = self._ids.get(key)
        if var is None:
            self.top += 1
            var = self._ids[key] = self.top
        return var

    def fresh_tag(self) -> int:
        """A line tag nobody used yet, for :func:`encode_line` called without one."""
        self._tags += 1
        return -self._tags


def state_var(pool: VarPool, line: Line, i: int, s: int) -> int:
    """Q[i][s]: after ``i`` cells the automaton is in state ``s``."""
    return pool.id((line.tag, "q", i, s))


def transition_var(pool: VarPool, line: Line, i: int, s: int, v: int) -> int:
    """T[i][s, v]: the automaton is in ``s`` at step i and cell i has value v."""
    return pool.id((line.tag, "t", i, s, v))


def cell_literal(line: Line, i: int, v: int) -> int:
    return line.cells[i] if v else -line.cells[i]


def empty_line_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """An empty clue: every cell is empty (no automaton needed)."""
    for x in line.cells:
        yield [-x]


def initial_state_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """The run starts in state 0."""
    yield [state_var(pool, line, 0, 0)]


def accepting_state_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """The run ends in the accepting state, the only state kept at step n."""
    yield [state_var(pool, line, line.n, line.final)]


def transition_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """T[i][s,v] -> Q[i][s], T -> cell literal, T -> Q[i+1][next].

    These remove a transition as soon as its source, its value or its target is
    removed.  ``Q & lit -> T`` is not needed: backward support derives it by unit
    propagation (the other outgoing transition of ``s`` has the other value).
    """
    for i in range(line.n):
        for s, v, t in line.edges(i):
            tv = transition_var(pool, line, i, s, v)
            yield [-tv, state_var(pool, line, i, s)]
            yield [-tv, cell_literal(line, i, v)]
            yield [-tv, state_var(pool, line, i + 1, t)]


def forward_support_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """Q[i+1][t] -> OR(transitions into t): a state nothing leads to is removed.

    This carries what is known on the left of a cell to the right.
    """
    for i in range(line.n):
        incoming: dict[int, Clause] = {t: [-state_var(pool, line, i + 1, t)] for t in line.states(i + 1)}
        for s, v, t in line.edges(i):
            incoming[t].append(transition_var(pool, line, i, s, v))
        yield from incoming.values()


def backward_support_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """Q[i][s] -> OR(transitions out of s): a state that cannot finish is removed.

    This carries what is known on the right of a cell to the left; without it,
    unit propagation finds only a fraction of the forced cells.
    """
    for i in range(line.n):
        outgoing: dict[int, Clause] = {s: [-state_var(pool, line, i, s)] for s in line.states(i)}
        for s, v, t in line.edges(i):
            outgoing[s].append(transition_var(pool, line, i, s, v))
        yield from outgoing.values()


def value_support_clauses(pool: VarPool, line: Line) -> Iterator[Clause]:
    """lit(x_i, v) -> OR(transitions at step i reading v): this is what fixes cells.

    When no surviving transition reads ``v`` at step i, cell i cannot take ``v``;
    when neither value survives, the clause pair is the contradiction.
    """
    for i in range(line.n):
        support: dict[int, Clause] = {0: [-cell_literal(line, i, 0)], 1: [-cell_literal(line, i, 1)]}
        for s, v, t in line.edges(i):
            support[v].append(transition_var(pool, line, i, s, v))
        yield support[0]
        yield support[1]


_FAMILY_FUNCTIONS = {
    "initial_state": initial_state_clauses,
    "accepting_state": accepting_state_clauses,
    "transition": transition_clauses,
    "forward_support": forward_support_clauses,
    "backward_support": backward_support_clauses,
    "value_support": value_support_clauses,
}


def encode_line(clue: Sequence[int], cell_vars: Sequence[int], pool: VarPool,
                line: Hashable = None) -> dict[str, list[Clause]]:
    """The clauses that make ``cell_vars`` spell a line of ``clue``, by family.

    Args:
        clue: block lengths, ``()`` for an empty line.
        cell_vars: the variable of each cell, in order (true = filled).
        pool: hands out the state and transition variables.
        line: a tag that makes this line's variables distinct in the pool; a fresh
            one is taken when it is omitted.

    Returns:
        ``{family: clauses}`` for the families of :data:`FAMILIES` that apply.

    Raises:
        ValueError: the clue does not fit in the line.

    >>> pool = VarPool(first=4)
    >>> encode_line((3,), [1, 2, 3], pool)["value_support"][:2]  # cell 1 cannot be empty
    [[1], [-1, 6]]
    """
    clue = tuple(clue)
    need = sum(clue) + len(clue) - 1 if clue else 0
    if need > len(cell_vars):
        raise ValueError(f"encode_line: clue {clue} needs {need} cells, the line has {len(cell_vars)}")
    data = Line(pool.fresh_tag() if line is None else line, clue, tuple(cell_vars))
    if not clue:
        return {"empty_line": list(empty_line_clauses(pool, data))}
    return {name: list(fn(pool, data)) for name, fn in _FAMILY_FUNCTIONS.items()}


def line_size(clue: Sequence[int], n: int) -> tuple[int, int]:
    """Exact ``(auxiliary variables, clauses)`` of :func:`encode_line` for one line.

    With ``k`` blocks, ``M = sum(clue) + k - 1`` and slack ``S = n - M``: states
    ``(M+1)(S+1)``, transitions ``E = M(S+1) + S(k+1)``; clauses
    ``3E + 2(M+1)(S+1) + 2n``.  An empty clue costs ``n`` unit clauses.

    >>> line_size((3,), 3), line_size((), 4)
    ((7, 23), (0, 4))
    """
    k = len(clue)
    if k == 0:
        return 0, n
    m = sum(clue) + k - 1
    s = n - m
    states = (m + 1) * (s + 1)
    transitions = m * (s + 1) + s * (k + 1)
    return states + transitions, 3 * transitions + 2 * states + 2 * n


@dataclass(frozen=True)
class Encoding:
    """The CNF of a whole puzzle.

    Attributes:
        clauses: DIMACS-style integer clauses.
        num_vars: the highest variable number.
        width, height: the puzzle size; cell (r, c) is variable ``r * width + c + 1``.
        families: clause count of each family over all lines.
    """

    clauses: list[Clause]
    num_vars: int
    width: int
    height: int
    families: Mapping[str, int]

    def cell_var(self, r: int, c: int) -> int:
        return r * self.width + c + 1

    @property
    def cell_vars(self) -> dict[tuple[int, int], int]:
        """``{(row, column): variable}`` for every cell, row-major."""
        return {(r, c): self.cell_var(r, c) for r in range(self.height) for c in range(self.width)}

    @property
    def num_cells(self) -> int:
        return self.width * self.height


def encode(puzzle: Puzzle, stop: Callable[[], bool] | None = None) -> Encoding:
    """The regular encoding of every row and column of ``puzzle``.

    ``stop`` is asked after each line; when it returns true the encoding ends with
    :class:`~nonolab.errors.LimitReached` (so a solve's clock covers encoding).

    Deterministic: the same puzzle always gives the same numbering and clause order
    (rows top to bottom, then columns left to right, families in :data:`FAMILIES`
    order within a line).

    >>> from nonolab.core import Puzzle
    >>> enc = encode(Puzzle(rows=((1,),), columns=((1,), ())))
    >>> enc.families["empty_line"], len(enc.clauses) == sum(enc.families.values())
    (1, True)
    """
    w, h = puzzle.width, puzzle.height
    pool = VarPool(first=w * h + 1)
    clauses: list[Clause] = []
    counts = dict.fromkeys(FAMILIES, 0)
    lines = [(("row", r), clue, [r * w + c + 1 for c in range(w)]) for r, clue in enumerate(puzzle.rows)]
    lines += [(("col", c), clue, [r * w + c + 1 for r in range(h)]) for c, clue in enumerate(puzzle.columns)]
    for tag, clue, cells in lines:
        if stop is not None and stop():
            raise LimitReached("cnf: stopped while encoding")
        for name, family in encode_line(clue, cells, pool, line=tag).items():
            counts[name] += len(family)
            clauses.extend(family)
    return Encoding(clauses, max(pool.top, w * h), w, h, counts)


def cells_as_assumptions(fixed: Mapping[tuple[int, int], int], width: int,
                         height: int | None = None) -> list[int]:
    """Known cells as assumption literals (positive = filled), in sorted cell order.

    Args:
        fixed: ``{(row, column): 0 or 1}``.
        width: the puzzle width (cell (r, c) is variable ``r * width + c + 1``).
        height: when given, rows are checked against it too.

    Raises:
        ValueError: a cell outside the grid or a value other than 0/1.

    >>> cells_as_assumptions({(1, 0): 1, (0, 1): 0}, width=2)
    [-2, 3]
    """
    out = []
    for (r, c), value in sorted(fixed.items()):
        if not (0 <= c < width and r >= 0 and (height is None or r < height)):
            raise ValueError(f"cells_as_assumptions: cell {(r, c)} is outside the grid")
        if value not in (0, 1) or isinstance(value, float):
            raise ValueError(f"cells_as_assumptions: cell {(r, c)} has value {value!r}, not 0 or 1")
        var = r * width + c + 1
        out.append(var if value else -var)
    return out


def _comment(text: str) -> str:
    return " ".join(str(text).split())  # one line, whatever the name holds


def to_dimacs(puzzle: Puzzle) -> str:
    """The encoding as DIMACS text, for any external SAT solver.

    Comment lines come first: ``c nonolab ...`` headers (name, size, encoding,
    clause families, one unit clause per given cell), then ``c cell R C VAR`` for every cell (1-based row and
    column), then ``p cnf V C`` and the clauses.  Cells are variables
    ``1 .. width*height``, so a model's first literals are the picture.

    >>> from nonolab.core import Puzzle
    >>> text = to_dimacs(Puzzle(rows=((1,),), columns=((1,),), name="dot"))
    >>> [ln for ln in text.splitlines() if ln.startswith(("c cell", "p "))]
    ['c cell 1 1 1', 'p cnf 7 18']
    """
    if puzzle.is_colour:
        raise InvalidArgument("the DIMACS export holds black-and-white puzzles only (a colour puzzle's "
                              "one-hot encoding is not exported yet)")
    enc = encode(puzzle)
    # The puzzle's givens are part of it: a unit clause each, so the model's solutions are its.
    givens = [[lit] for lit in cells_as_assumptions(puzzle.given_cells, puzzle.width, puzzle.height)]
    families = {**enc.families, "givens": len(givens)}
    out = [f"c nonolab puzzle {_comment(puzzle.name) or '(unnamed)'}",
           f"c nonolab size {puzzle.width} {puzzle.height} (width height)",
           "c nonolab encoding regular-dfa with forward/backward/value support clauses",
           "c nonolab families " + " ".join(f"{k}={v}" for k, v in families.items() if v)]
    out += [f"c cell {r + 1} {c + 1} {var}" for (r, c), var in enc.cell_vars.items()]
    out.append(f"p cnf {enc.num_vars} {len(enc.clauses) + len(givens)}")
    out += [" ".join(map(str, clause)) + " 0" for clause in enc.clauses + givens]
    return "\n".join(out) + "\n"


def implication_clauses(implications: Sequence[tuple[tuple[int, int, int], tuple[int, int, int]]],
                        width: int) -> list[list[int]]:
    """Binary clauses from implications ``((r, c, a), (q, d, b))``: cell ``(r, c)`` with
    value ``a`` implies cell ``(q, d)`` with value ``b`` (0 empty, 1 filled; cell
    ``(r, c)`` is variable ``r * width + c + 1``).

    >>> implication_clauses([((0, 0, 1), (1, 1, 0))], width=2)
    [[-1, -4]]
    """
    out = []
    for (r, c, a), (q, d, b) in implications:
        first, second = r * width + c + 1, q * width + d + 1
        out.append([-first if a else first, second if b else -second])
    return out
