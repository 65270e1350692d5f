"""Every real original file of the shared corpora reads, as a new user would load it.

``../shared/corpus/originals`` holds the source files of the black-and-white corpus
in their own formats (.non, .nin, TAAI, pynogram text, Kyle Keen's format as
gramcracker keeps it): each must load with the format found from its suffix and
content alone, and where ``index.csv`` names a corpus ``.non`` of the same puzzle
(``original_copy``, or an ``also_in`` copy that is among the originals), the clues
must be those of the ``.non``.  ``../shared/corpus-colour/format_samples.csv`` lists
real colour files: each must read and give the puzzle of its corpus XML (up to the
names and order of its colours); the non-standard ones (glue triangles, triddlers)
are refused with one line saying so.
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
    return [pytest.param(r, id=r["original"].split("/", 2)[-1]) for r in rows]


def _rgb_by_canonical_colour(p) -> dict[int, tuple[int, int, int]]:
    """The RGB of each colour, keyed by its number in ``p.canonical()`` (first use)."""
    order: dict[int, int] = {}
    for blocks in p.coloured_rows + p.coloured_columns:
        for _, c in blocks:
            order.setdefault(c, len(order) + 1)
    return {number: p.palette[c].rgb for c, number in order.items()}


@pytest.mark.parametrize("row", _samples())
def test_colour_samples_read_and_equal_their_xml(row):
    path = COLOUR / row["original"]
    assert path.is_file(), path
    if not row["corpus_xml"]:
        if "= black-and-white" in row["note"]:
            # One colour only: a black-and-white puzzle, which must read.
            assert not load_all(path)[0].is_colour
            return
        # Not standard colour nonograms: refused with one line naming why.
        with pytest.raises(NonolabError) as info:
            load_all(path)
        message = str(info.value)
        assert "\n" not in message and message.startswith(f"{path}:")
        assert re.search(r"(triddlers|glue triangles) .*are not supported", message), message
        return
    expected = load(COLOUR / row["corpus_xml"])
    puzzles = load_all(path)
    found = [p for p in puzzles if p.canonical() == expected.canonical()]
    assert found, f"no puzzle of {path.name} has the clues of {row['corpus_xml']}"
    assert found[0].is_colour
    # The same puzzle up to the names and order of its colours; where the source gives
    # RGB values (not a bare letter or an ANSI name), they are the XML's too.
    if not row["format"].startswith(("csv", "json (klepaczmikolaj)")) and "png" not in row["format"] \
            and "triangles" not in row["format"] \
            and "char-grid" not in row["format"]:
        assert _rgb_by_canonical_colour(found[0]) == _rgb_by_canonical_colour(expected)
