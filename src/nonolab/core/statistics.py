"""Numbers that describe a puzzle from its clues alone (``nonolab info``)."""

from __future__ import annotations

from typing import Any

from nonolab.core.puzzle import Puzzle


def statistics(puzzle: Puzzle) -> dict[str, Any]:
    """Size, filled cells, blocks and slack of ``puzzle``'s lines, and its metadata.

    The slack of a line is its length minus the cells its clue needs at least (blocks
    plus one gap between each two): 0 means the clue alone decides the line.

    >>> s = statistics(Puzzle(rows=((2,), (1,)), columns=((2,), (1,))))
    >>> s["filled_cells"], s["min_slack"], s["full_lines"]
    (3, 0, 2)
    """
    lines = puzzle.rows + puzzle.columns
    blocks = [len(c) for c in lines]
    lengths = [puzzle.width] * puzzle.height + [puzzle.height] * puzzle.width
    slacks = [n - (sum(c) + len(c) - 1 if c else 0) for c, n in zip(lines, lengths)]
    filled = sum(map(sum, puzzle.rows))
    return {
        "name": puzzle.name,
        "width": puzzle.width,
        "height": puzzle.height,
        "filled_cells": filled,
        "density": round(filled / (puzzle.width * puzzle.height), 4),
        "blocks": sum(blocks),
        "max_blocks_per_line": max(blocks),
        "empty_lines": blocks.count(0),
        "full_lines": sum(1 for c, n in zip(lines, lengths) if c == (n,)),
        "mean_slack": round(sum(slacks) / len(slacks), 2),
        "min_slack": min(slacks),
        "has_goal": puzzle.goal is not None,
        "metadata": dict(puzzle.metadata),
    }
