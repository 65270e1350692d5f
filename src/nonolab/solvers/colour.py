"""The automaton of a colour line, its layered unrolling, and the colour line solver.

A colour line's blocks are ``(length, colour)`` pairs; cell values are 0 (background)
or a colour index.  Blocks of the same colour need at least one 0 between them, blocks
of different colours may touch.  The automaton has the states of the black-and-white
one (``0 1^L1 0 1^L2 0 ... 1^Lk 0``: a leading gap, one state per block cell, a gap
state after each block), with one more kind of transition: from the last cell of a
block straight into the first cell of the next one when their colours differ.

The backends build on it: CP-SAT posts it with ``add_automaton`` over integer cells,
the CNF backend encodes its unrolling (:func:`layers`) with support clauses, and
:func:`solve_line` (a forward/backward pass over the same unrolling) is the complete
colour line solver the tests hold them to.

>>> colour_automaton(((1, 1), (1, 2)))
(0, (4, 3), ((0, 0, 0), (0, 1, 1), (1, 0, 2), (1, 2, 3), (2, 0, 2), (2, 2, 3), (3, 0, 4), (4, 0, 4)))
"""

from __future__ import annotations

from typing import Sequence

Blocks = Sequence[tuple[int, int]]
Transition = tuple[int, int, int]
"""``(state, value, next_state)``: reading cell value ``value`` in ``state``."""


def colour_automaton(blocks: Blocks) -> tuple[int, tuple[int, ...], tuple[Transition, ...]]:
    """The DFA accepting exactly the lines whose coloured runs are ``blocks``.

    Returns ``(start, accepting, transitions)``; there are ``sum(lengths) + len(blocks) + 1``
    states and missing transitions reject.
    """
    transitions: list[Transition] = [(0, 0, 0)]
    state = 0                                  # the gap state before the current block
    for j, (length, colour) in enumerate(blocks):
        first = state + 1
        transitions.append((state, colour, first))
        for s in range(first, first + length - 1):
            transitions.append((s, colour, s + 1))
        last = first + length - 1
        gap = last + 1
        transitions.append((last, 0, gap))
        if j + 1 < len(blocks) and blocks[j + 1][1] != colour:
            transitions.append((last, blocks[j + 1][1], gap + 1))   # touch the next block
        transitions.append((gap, 0, gap))
        state = gap
    transitions = sorted(set(transitions))
    accepting = (state, state - 1) if blocks else (0,)
    return 0, accepting, tuple(transitions)


def layers(blocks: Blocks, n: int) -> list[list[Transition]]:
    """For each cell ``i`` of a line of ``n`` cells, the transitions that lie on some
    accepting run: reachable from the start in ``i`` steps and reaching an accepting
    state in ``n - i - 1`` more.  Empty lists everywhere when no line fits.

    >>> [len(step) for step in layers(((2, 1),), 3)]
    [2, 2, 2]
    """
    start, accepting, transitions = colour_automaton(blocks)
    out_of: dict[int, list[Transition]] = {}
    for t in transitions:
        out_of.setdefault(t[0], []).append(t)
    forward = [{start}]
    for _ in range(n):
        forward.append({t[2] for s in forward[-1] for t in out_of.get(s, ())})
    alive = set(accepting) & forward[n]
    kept: list[list[Transition]] = [[] for _ in range(n)]
    for i in range(n - 1, -1, -1):
        kept[i] = [t for s in forward[i] for t in out_of.get(s, ()) if t[2] in alive]
        alive = {t[0] for t in kept[i]}
    if start not in alive:
        return [[] for _ in range(n)]
    return kept


def solve_line(blocks: Blocks, domains: Sequence[int]) -> list[int] | None:
    """The complete colour line solver: each cell's domain (a bit mask, bit ``v`` = may
    take value ``v``) narrowed to the values some line of ``blocks`` within the domains
    gives it; ``None`` when no such line exists.

    A forward pass marks the states reachable along the allowed values, a backward pass
    keeps those that still reach an accepting state; a value survives at a cell when a
    kept transition reads it there.

    >>> solve_line(((2, 1), (1, 2)), [0b111, 0b111, 0b111])   # 3 cells: "1 1 2" only
    [2, 2, 4]
    >>> solve_line(((1, 1), (1, 1)), [0b11, 0b11]) is None
    True
    """
    n = len(domains)
    start, accepting, transitions = colour_automaton(blocks)
    out_of: dict[int, list[Transition]] = {}
    for t in transitions:
        out_of.setdefault(t[0], []).append(t)
    forward = [{start}]
    for i in range(n):
        forward.append({t[2] for s in forward[-1] for t in out_of.get(s, ()) if domains[i] >> t[1] & 1})
    alive = set(accepting) & forward[n]
    if not alive:
        return None
    out = [0] * n
    for i in range(n - 1, -1, -1):
        reached = set()
        for s in forward[i]:
            for _, value, target in out_of.get(s, ()):
                if target in alive and domains[i] >> value & 1:
                    out[i] |= 1 << value
                    reached.add(s)
        alive = reached
    return out
