"""The line solver on word arrays (``native/lines/wide.hpp``) gives exactly the byte DP's
answer (``_cext/line.hpp``), on lines whose length crosses the 64-bit word boundaries, of
few long blocks (the huge grids' lines) and of many short ones, and brute force's answer
where brute force can run.

``fix_line(..., words=1)`` forces the byte DP, ``words=2`` the word arrays, ``words=0`` is
the engine's own choice (one or two words up to 127 cells, then the cheaper of the two).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core.violations import clues_of
from nonolab.solvers.native.compiled import engine_module
from reference import brute_line

EMPTY, FILLED, UNKNOWN = 1, 2, 3
BOUNDARIES = (1, 2, 7, 8, 9, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257, 1000)

fix_line = engine_module().fix_line


def _answers(clue, cells: bytes) -> tuple:
    return tuple(fix_line(0, clue, cells, words=words)[0] for words in (1, 2, 0))


@st.composite
def lines(draw, lengths=st.sampled_from(BOUNDARIES) | st.integers(1, 400)):
    """A picture's line (runs of a drawn length: long blocks or short), its clue (or a
    clue of another picture: often no arrangement), and a partial line mostly consistent
    with the picture, sometimes with wrong cells."""
    n = draw(lengths)
    longest = draw(st.sampled_from((1, 3, 10, 70, 300)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    bits: list[bool] = []
    filled = rng.random() < 0.5
    while len(bits) < n:
        bits += [filled] * rng.randint(1, longest)
        filled = not filled
    bits = bits[:n]
    other = draw(st.booleans()) and draw(st.booleans())
    clue = clues_of(rng.random() < 0.5 for _ in range(n)) if other else clues_of(bits)
    known = draw(st.sampled_from((0.0, 0.1, 0.5, 0.9, 1.0)))
    cells = bytearray(UNKNOWN if rng.random() >= known else (FILLED if b else EMPTY) for b in bits)
    for _ in range(draw(st.integers(0, 2))):
        cells[rng.randrange(n)] = rng.choice((EMPTY, FILLED))
    return clue, bytes(cells)


@settings(max_examples=600, deadline=None)
@given(lines())
def test_word_arrays_give_the_byte_dps_answer(line):
    clue, cells = line
    byte_dp, words, chosen = _answers(clue, cells)
    assert words == byte_dp, (clue, cells)
    assert chosen == byte_dp, (clue, cells)


@settings(max_examples=300, deadline=None)
@given(lines(lengths=st.integers(1, 14)))
def test_word_arrays_give_brute_forces_answer(line):
    clue, cells = line
    assert fix_line(0, clue, cells, words=2)[0] == brute_line(clue, cells), (clue, cells)


def test_every_boundary_length_with_a_consistent_and_a_contradicted_line():
    rng = random.Random(20261126)
    decided = 0
    for n in BOUNDARIES:
        for longest in (1, 5, 60):
            bits = [False] * n
            at = 0
            while at < n:
                run = rng.randint(1, longest)
                if rng.random() < 0.5:
                    bits[at:at + run] = [True] * len(bits[at:at + run])
                at += run + 1
            clue = clues_of(bits)
            cells = bytearray(UNKNOWN if rng.random() < 0.6 else (FILLED if b else EMPTY) for b in bits)
            byte_dp, words, chosen = _answers(clue, bytes(cells))
            assert byte_dp is not None and words == byte_dp == chosen, (n, clue)
            decided += sum(v != UNKNOWN for v in words) - sum(v != UNKNOWN for v in cells)
            # The picture's last cell flipped where it is known: no arrangement may agree.
            cells[-1] = EMPTY if bits[-1] else FILLED
            cells[:-1] = bytes(FILLED if b else EMPTY for b in bits[:-1])
            assert _answers(clue, bytes(cells)) == (None, None, None), (n, clue)
    assert decided > 0  # the solves fixed cells, not only echoed the line


def test_the_words_option_is_checked():
    with pytest.raises(ValueError, match="words"):
        fix_line(0, (1,), bytes([UNKNOWN]), words=3)
