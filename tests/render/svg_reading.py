"""Reading nonolab's SVG pictures back: what a person would see (clues, numbers, legend)."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

from nonolab.core import Puzzle

SVG = "{http://www.w3.org/2000/svg}"
PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def parse(svg: str) -> ET.Element:
    """The document's root; fails unless the SVG is well-formed XML in the SVG namespace."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element, cls: str) -> list[ET.Element]:
    return [t for t in root.iter(f"{SVG}text") if t.get("class") == cls]


def assert_every_clue_drawn(root: ET.Element, puzzle: Puzzle, boards: int = 1) -> None:
    """Every number of every clue (``0`` for an empty line) is a text element, per board."""
    for kind, clues in (("row", puzzle.rows), ("column", puzzle.columns)):
        for i, clue in enumerate(clues):
            drawn = [t.text for t in texts(root, "clue") if t.get(f"data-{kind}") == str(i)]
            assert drawn == [str(n) for n in (clue or (0,))] * boards, (kind, i, drawn)


def assert_labels_drawn(root: ET.Element, puzzle: Puzzle, boards: int = 1) -> None:
    """1-based row and column numbers, once per line per board."""
    for kind, n in (("row", puzzle.height), ("column", puzzle.width)):
        for i in range(n):
            drawn = [t.text for t in texts(root, "label") if t.get(f"data-{kind}") == str(i)]
            assert drawn == [str(i + 1)] * boards, (kind, i, drawn)


def legend(root: ET.Element) -> list[str]:
    """Each legend entry's text, its wrapped lines (tspans) joined by spaces."""
    return [" ".join(line for line in entry_lines(t)) for t in texts(root, "entry")]


def entry_lines(entry: ET.Element) -> list[str]:
    """The lines of one legend entry as drawn: its text, then each tspan's."""
    return [entry.text or ""] + [span.text or "" for span in entry.iter(f"{SVG}tspan")]


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def declared_size(root: ET.Element) -> tuple[int, int]:
    return int(root.get("width")), int(root.get("height"))


def painted(root: ET.Element) -> list[dict[tuple[int, int], str]]:
    """Per board, the fill of every cell not left white, read back from the runs of
    ``<g class="cells">`` (and failing if two runs paint one cell)."""
    boards = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "cells":
            continue
        gx, gy, size = (float(group.get(k)) for k in ("data-x", "data-y", "data-cell"))
        cells: dict[tuple[int, int], str] = {}
        for rect in group:
            r, c = round((float(rect.get("y")) - gy) / size), round((float(rect.get("x")) - gx) / size)
            assert float(rect.get("height")) == size
            for k in range(round(float(rect.get("width")) / size)):
                assert (r, c + k) not in cells
                cells[(r, c + k)] = rect.get("fill")
        boards.append(cells)
    return boards
