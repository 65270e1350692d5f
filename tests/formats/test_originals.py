"""Every real original file of the shared corpora reads, as a new user would load it.

``../shared/corpus/originals`` holds the source files of the black-and-white corpus
in their own formats (.non, .nin, TAAI, pynogram text, Kyle Keen's format as
gramcracker keeps it): each must load with the format found from its suffix and
content alone, and where ``index.csv`` names a corpus ``.non`` of the same puzzle
(``original_copy``, or an ``also_in`` copy that is among the originals), the clues
must be those of the ``.non``.  ``../shared/corpus-colour/format_samples.csv`` lists
real colour files: until colour support lands they must be refused with the colour
message (rows in formats nonolab does not read at all are expected failures).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from nonolab.errors import NonolabError
from nonolab.formats import load, load_all

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
CORPUS = SHARED / "corpus"
COLOUR = SHARED / "corpus-colour"
pytestmark = pytest.mark.skipif(not (CORPUS / "originals").is_dir(),
                                reason=f"the shared corpus is not at {CORPUS}")

_NOT_PUZZLES = {"LICENSE", "LISCENSE", "README", "COPYING"}
COLOUR_REFUSAL = re.compile(r"colour puzzles? .*(is|are) not supported")


def _originals() -> list[Path]:
    if not (CORPUS / "originals").is_dir():
        return []
    return sorted(p for p in (CORPUS / "originals").rglob("*")
                  if p.is_file() and p.stem.upper() not in _NOT_PUZZLES and p.suffix != ".md")


def _same_puzzle() -> dict[str, list[str]]:
    """originals-relative path -> the corpus .non files holding the same puzzle."""
    same: dict[str, list[str]] = {}
    if not (CORPUS / "index.csv").is_file():
        return same
    with open(CORPUS / "index.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            copies = [row["original_copy"]] if row["original_copy"] else []
            for other in filter(None, (x.strip() for x in row["also_in"].split(";"))):
                repo, _, path = other.partition(":")
                copies.append(f"originals/{repo.replace('/', '+')}/{path}")
            for copy in copies:
                if (CORPUS / copy).is_file():
                    same.setdefault(copy, []).append(row["file"])
    return same


ORIGINALS = _originals()
SAME = _same_puzzle()


def _rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


def test_the_originals_include_every_text_format():
    names = [_rel(p) for p in ORIGINALS]
    assert sum("tsionyx+pynogram" in n for n in names) == 8
    assert sum("danioellay+gramcracker" in n for n in names) == 4
    assert sum(n.endswith(".nin") for n in names) >= 100
    # Almost every original is a corpus puzzle: the comparison below is not vacuous.
    assert sum(_rel(p) in SAME for p in ORIGINALS) >= 190


@pytest.mark.parametrize("path", ORIGINALS, ids=[_rel(p) for p in ORIGINALS])
def test_every_original_reads(path):
    puzzles = load_all(path)
    assert puzzles
    for name in SAME.get(_rel(path), []):
        expected = load(CORPUS / name)
        assert (puzzles[0].rows, puzzles[0].columns) == (expected.rows, expected.columns), name


def _samples() -> list:
    if not (COLOUR / "format_samples.csv").is_file():
        return []
    with open(COLOUR / "format_samples.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    # Formats nonolab does not read at all yet (issue 17, item 3).
    unread = ("json (klepaczmikolaj)", "csv", "png image", "char-grid")
    return [pytest.param(r, id=r["original"].split("/", 2)[-1],
                         marks=[pytest.mark.xfail(strict=True, reason=f"{r['format']} is not read yet")]
                         if r["format"].startswith(unread) else [])
            for r in rows]


@pytest.mark.parametrize("row", _samples())
def test_colour_samples_are_refused_with_the_colour_message(row):
    path = COLOUR / row["original"]
    assert path.is_file(), path
    if "= black-and-white" in row["note"]:
        # One colour only: a black-and-white puzzle, which must read.
        assert load_all(path)
        return
    with pytest.raises(NonolabError) as info:
        load_all(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}:")
    if "triddler" in row["format"]:
        assert "triddlers are not supported" in message
    else:
        assert COLOUR_REFUSAL.search(message), message
