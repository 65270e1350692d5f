"""Numbers that describe a puzzle from its clues alone (``nonolab info``)."""

from __future__ import annotations

from typing import Any

from nonolab.core.puzzle import Puzzle


def statistics(puzzle: Puzzle) -> dict[str, Any]:
    """Size, filled cells, blocks and slack of ``puzzle``'s lines, its givens (how many cells
    it reveals), and its metadata.

    The slack of a line is its length minus the cells its clue needs at least (blocks
    plus one gap between each two of the same colour: blocks of different colours may
    touch): 0 means the clue alone decides the line.  A puzzle that carries a palette
    (a colour puzzle, or one drawn in a colour that is not black) also names its
    foreground colours.

    >>> s = statistics(Puzzle(rows=((2,), (1,)), columns=((2,), (1,))))
    >>> s["filled_cells"], s["min_slack"], s["full_lines"]
    (3, 0, 2)
    """
    lines = puzzle.coloured_rows + puzzle.coloured_columns
    blocks = [len(c) for c in lines]
    lengths = [puzzle.width] * puzzle.height + [puzzle.height] * puzzle.width
    needed = [_cells_needed(c) for c in lines]
    slacks = [n - least for least, n in zip(needed, lengths)]
    filled = sum(map(sum, puzzle.rows))
    palette = {"colours": [c.name for c in puzzle.palette][1:]} if puzzle.keeps_palette and puzzle.palette else {}
    return {
        "name": puzzle.name,
        "width": puzzle.width,
        "height": puzzle.height,
        "filled_cells": filled,
        "density": round(filled / (puzzle.width * puzzle.height), 4),
        "blocks": sum(blocks),
        "max_blocks_per_line": max(blocks),
        "empty_lines": blocks.count(0),
        "full_lines": sum(1 for c, n in zip(lines, lengths) if c and sum(length for length, _ in c) == n),
        "mean_slack": round(sum(slacks) / len(slacks), 2),
        "min_slack": min(slacks),
        "has_goal": puzzle.goal is not None,
        # Givens are part of the puzzle as its clues are (switch.non: multiple without its one
        # given, unique with it): a description that left them out described another puzzle.
        "givens": len(puzzle.givens),
        **palette,
        "metadata": dict(puzzle.metadata),
    }


def _cells_needed(blocks: tuple[tuple[int, int], ...]) -> int:
    """The fewest cells a line of these ``(length, colour)`` blocks takes: a gap between
    two neighbours of the same colour only."""
    gaps = sum(1 for (_, a), (_, b) in zip(blocks, blocks[1:]) if a == b)
    return sum(length for length, _ in blocks) + gaps
