"""Colour tests run on every backend that declares colour (decided by capability, never
by name), and check that every other backend refuses colour puzzles."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from nonolab.errors import BackendUnavailable
from nonolab.solvers import Capability, capabilities_of, get, names


def _loads(name: str) -> bool:
    try:
        get(name)
    except BackendUnavailable:
        return False
    return True


# The shared colour corpus, read by path (never copied), and its index rows.
COLOUR = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus-colour"


def corpus_rows() -> list[dict[str, str]]:
    """The rows of the colour corpus's index.csv; none when the corpus is not beside the repository."""
    if not (COLOUR / "index.csv").is_file():
        return []
    with open(COLOUR / "index.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


COLOUR_BACKENDS = [n for n in names() if Capability.COLOUR in capabilities_of(n) and _loads(n)]
OTHER_BACKENDS = [n for n in names() if Capability.COLOUR not in capabilities_of(n) and _loads(n)]


@pytest.fixture(params=COLOUR_BACKENDS)
def colour_backend(request):
    return request.param
