"""The complete line solver equals brute-force enumeration."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core.violations import clues_of
from nonolab.errors import Contradiction
from nonolab.solvers.native.lines import fix_line, solve_line
from reference import brute_line, truth_tables

EMPTY, FILLED, UNKNOWN = 1, 2, 3


def _exhaustive(n: int) -> int:
    """Every clue of length-n lines against every partial line of length n."""
    checked = 0
    for clue, cells, expected in truth_tables(n):
        got = fix_line(clue, cells)
        assert got == expected, (clue, cells, got, expected)
        checked += 1
    return checked


@pytest.mark.parametrize("n", range(1, 10))
def test_every_clue_and_every_partial_line(n):
    assert _exhaustive(n) > 0


@pytest.mark.slow
def test_every_clue_and_every_partial_line_of_length_10():
    assert _exhaustive(10) == 144 * 3 ** 10


def _random_case(rng: random.Random, n: int, p_known: float):
    bits = [rng.random() < rng.choice((0.3, 0.5, 0.7)) for _ in range(n)]
    clue = clues_of(bits) if rng.random() < 0.8 else clues_of(rng.random() < 0.5 for _ in range(n))
    # A partial line: mostly consistent with the picture, sometimes with a wrong cell.
    cells = bytearray(UNKNOWN if rng.random() > p_known else (FILLED if b else EMPTY) for b in bits)
    if rng.random() < 0.3:
        i = rng.randrange(n)
        cells[i] = rng.choice((EMPTY, FILLED))
    return clue, bytes(cells)


def test_random_longer_lines_against_brute_force():
    rng = random.Random(20261122)
    for _ in range(400):
        n = rng.randint(11, 16)
        clue, cells = _random_case(rng, n, rng.random())
        assert fix_line(clue, cells) == brute_line(clue, cells), (clue, list(cells))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((EMPTY, FILLED, UNKNOWN, UNKNOWN)), min_size=1, max_size=14),
       st.lists(st.booleans(), min_size=1, max_size=14))
def test_property_line_solver_is_brute_force(states, picture):
    cells = bytes(states)
    clue = clues_of(picture[:len(states)])
    assert fix_line(clue, cells) == brute_line(clue, cells)


def test_long_lines_are_consistent_with_their_picture():
    # No brute force at n=1000: the picture's own line must stay possible, and every
    # cell the solver fixes must agree with the picture.
    rng = random.Random(7)
    for density in (0.2, 0.5, 0.8):
        bits = [rng.random() < density for _ in range(1000)]
        cells = bytearray(UNKNOWN if rng.random() < 0.7 else (FILLED if b else EMPTY) for b in bits)
        fixed = fix_line(clues_of(bits), bytes(cells))
        assert fixed is not None
        for b, v in zip(bits, fixed):
            assert v & (FILLED if b else EMPTY)
            assert v != 0


def test_solve_line_raises_on_contradiction():
    with pytest.raises(Contradiction):
        solve_line((3,), bytes([UNKNOWN, EMPTY, UNKNOWN, UNKNOWN]))
    assert solve_line((), bytes([UNKNOWN] * 3)) == bytes([EMPTY] * 3)
    assert solve_line((3,), bytes([UNKNOWN] * 3)) == bytes([FILLED] * 3)


def test_the_line_solve_on_bit_sets_and_the_byte_dp_agree_across_the_word_sizes():
    # fix_line takes the bit sets up to 127 cells and the byte DP beyond: both against
    # the picture's own line at 60, 100, 127, 128 and 200 cells (every fixed cell agrees,
    # the picture's line stays possible), and against each other where both apply (lcg's
    # solve_line runs the byte DP at any length).
    from nonolab.solvers.lcg import engine_module as lcg_module

    rng = random.Random(5)
    for n in (60, 100, 127, 128, 200):
        for _ in range(20):
            bits = [rng.random() < 0.6 for _ in range(n)]
            cells = bytes(UNKNOWN if rng.random() < 0.6 else (FILLED if b else EMPTY) for b in bits)
            fixed = fix_line(clues_of(bits), cells)
            assert fixed is not None and all(v & (FILLED if b else EMPTY) for b, v in zip(bits, fixed))
            assert fixed == lcg_module().solve_line(clues_of(bits), cells)
