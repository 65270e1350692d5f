"""The shared corpus: every .non file, and the original-format copies we can read."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from nonolab.formats import load, load_all

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"
pytestmark = pytest.mark.skipif(not (CORPUS / "index.csv").is_file(),
                                reason=f"the shared corpus is not at {CORPUS}")


def _index() -> list[dict[str, str]]:
    if not (CORPUS / "index.csv").is_file():
        return []
    with open(CORPUS / "index.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


INDEX = _index()


def _original_format(path: str) -> str | None:
    """The reader for an original copy, or None to let the suffix or content choose."""
    if path.endswith((".non", ".nin")):
        return None     # chosen by suffix
    if "CGI-LAB" in path:
        return "taai"
    return None         # pynogram and Kyle Keen (gramcracker) text: sniffed


def test_index_lists_238_non_files():
    assert len(INDEX) == 238
    assert len(list(CORPUS.glob("*/*.non"))) == 238


@pytest.mark.parametrize("row", INDEX, ids=[r["file"] for r in INDEX])
def test_corpus_file_matches_index(row):
    puzzle = load(CORPUS / row["file"])
    assert puzzle.size == (int(row["width"]), int(row["height"]))
    assert (puzzle.goal is not None) == (row["has_goal"] == "yes")
    # The .non files carry the title's double quotes as single quotes.
    assert puzzle.name.replace("'", '"') == row["title"].replace("'", '"')


ORIGINALS = [r for r in INDEX
             if r["original_copy"] and _original_format(r["original_copy"]) != "skip"]


def test_most_originals_are_readable():
    assert len(ORIGINALS) >= 190


@pytest.mark.parametrize("row", ORIGINALS, ids=[r["original_copy"] for r in ORIGINALS])
def test_original_copy_gives_the_same_clues(row):
    expected = load(CORPUS / row["file"])
    original = CORPUS / row["original_copy"]
    fmt = _original_format(row["original_copy"])
    got = load(original, fmt)
    assert (got.rows, got.columns) == (expected.rows, expected.columns)
    # Content sniffing alone finds the format too (the .txt suffix is ambiguous).
    assert load_all(original) == [got]
