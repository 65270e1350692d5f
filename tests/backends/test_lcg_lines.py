"""The lcg backend's compiled line DP: the table DP against brute force, the bit-set line solver
and its explanations against the table DP, and the lines each refuses."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core.violations import clues_of

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    ENGINE = lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)


# --- the line DP -------------------------------------------------------------------


def _brute_all_clues(n: int, states: tuple[int, ...]) -> dict[tuple[int, ...], bytes | None]:
    """For one partial line, every clue's answer by enumerating the 2^n lines."""
    must_fill = sum(1 << i for i, s in enumerate(states) if s == 2)
    must_empty = sum(1 << i for i, s in enumerate(states) if s == 1)
    may: dict[tuple[int, ...], list[int]] = {}
    for bits in range(1 << n):
        if bits & must_empty or (bits & must_fill) != must_fill:
            continue
        line = tuple((bits >> i) & 1 for i in range(n))
        seen = may.setdefault(clues_of(line), [0] * n)
        for i, b in enumerate(line):
            seen[i] |= 2 if b else 1
    return {clue: bytes(cells) for clue, cells in may.items()}


@pytest.mark.parametrize("n", range(0, 9))
def test_the_line_dp_equals_brute_force_on_every_line_up_to_length_8(n):
    clues = sorted({clues_of(bits) for bits in itertools.product((0, 1), repeat=n)})
    clues += [tuple([1] * (n // 2 + 1)), (n + 1,)]  # clues that fit no line of this length
    for states in itertools.product((1, 2, 3), repeat=n):
        expected = _brute_all_clues(n, states)
        cells = bytes(states)
        for clue in clues:
            assert ENGINE.solve_line(clue, cells) == expected.get(clue), (clue, states)
            for bits in (64, 128) if n else ():  # the bit-set solver the engine uses on lines of up to 127 cells
                assert ENGINE.solve_line(clue, cells, bits) == expected.get(clue), (bits, clue, states)


@st.composite
def long_lines(draw):
    """A line of 1..127 cells: a picture's clue (or random lengths) and part of its cells."""
    n = draw(st.integers(1, 127))
    density = draw(st.floats(0.0, 1.0))
    rng = random.Random(draw(st.integers(0, 2**32)))
    picture = [rng.random() < density for _ in range(n)]
    clue = clues_of(picture)
    if draw(st.integers(0, 4)) == 0:
        clue = tuple(draw(st.lists(st.integers(1, 12), max_size=15)))
    known = draw(st.floats(0.0, 1.0))
    cells = bytes((2 if b else 1) if rng.random() < known else 3 for b in picture)
    if draw(st.integers(0, 4)) == 0:  # states no picture of the clue need agree with
        cells = bytes(rng.choice((1, 2, 3)) for _ in range(n))
    return clue, cells


@settings(max_examples=3000, deadline=None)
@given(long_lines())
def test_the_bit_set_line_solver_equals_the_table_dp_up_to_127_cells(case):
    # Lines longer than 64 cells use both words of the bit sets, and 127 cells the top
    # bit (the whole line's prefix): brute force cannot reach them, the table DP can.
    clue, cells = case
    expected = ENGINE.solve_line(clue, cells)
    assert ENGINE.solve_line(clue, cells, 128) == expected
    if len(cells) <= 63:
        assert ENGINE.solve_line(clue, cells, 64) == expected


@pytest.mark.parametrize("n", range(28, 37))
def test_the_bit_set_line_solver_equals_the_table_dp_around_32_cells(n):
    # Lines of under 32 cells reverse two rows of the 64-bit solver's tables in one word
    # (bitline.hpp); 28-36 cells cross that edge, with clues of odd and even block counts
    # (the rows are reversed in pairs, the last one alone when their number is odd).
    rng = random.Random(n)
    for _ in range(300):
        density = rng.random()
        picture = [rng.random() < density for _ in range(n)]
        clue = clues_of(picture)
        known = rng.random()
        cells = bytes((2 if b else 1) if rng.random() < known else 3 for b in picture)
        if rng.random() < 0.2:  # states no picture of the clue need agree with
            cells = bytes(rng.choice((1, 2, 3)) for _ in range(n))
        assert ENGINE.solve_line(clue, cells, 64) == ENGINE.solve_line(clue, cells), (clue, cells)


@settings(max_examples=2000, deadline=None)
@given(long_lines(), st.randoms(use_true_random=False), st.booleans())
def test_the_bit_set_explanation_checks_equal_the_table_checks_up_to_127_cells(case, rng, right_to_left):
    # Lines made infeasible by a few flipped cells, dropped in the engine's order (right
    # to left) or any order: each check's answer, so the cells kept, must be the same.
    clue, cells = case
    line = bytearray(cells)
    for _ in range(rng.randint(0, 3)):
        line[rng.randrange(len(line))] = rng.choice((1, 2))
    order = list(range(len(line)))
    if right_to_left:
        order.reverse()
    else:
        rng.shuffle(order)
    expected = ENGINE.drop_cells(list(clue), bytes(line), order)
    assert ENGINE.drop_cells(list(clue), bytes(line), order, 128) == expected
    if len(line) <= 63:
        assert ENGINE.drop_cells(list(clue), bytes(line), order, 64) == expected


@pytest.mark.parametrize("n", [6, 7])
def test_the_bit_set_explanation_drops_equal_the_table_drops_on_every_short_line(n):
    # Every line of n cells and every clue, right to left (the engine's order within a
    # band): a check that fails at an early block leaves the starts that its cell adds
    # to the later blocks for dropped() to add (bitline.hpp); forgetting them keeps
    # cells that are not needed, which this catches.
    clues = sorted({clues_of(bits) for bits in itertools.product((0, 1), repeat=n)})
    order = list(range(n - 1, -1, -1))
    for states in itertools.product((1, 2, 3), repeat=n):
        cells = bytes(states)
        for clue in clues:
            expected = ENGINE.drop_cells(list(clue), cells, order)
            assert ENGINE.drop_cells(list(clue), cells, order, 64) == expected, (clue, states)
            assert ENGINE.drop_cells(list(clue), cells, order, 128) == expected, (clue, states)


def test_the_bit_set_line_solver_refuses_lines_it_cannot_hold():
    for bits, too_long in ((64, 64), (128, 128)):
        with pytest.raises(ValueError):
            ENGINE.solve_line((1,), bytes([3] * too_long), bits)
        with pytest.raises(ValueError):
            ENGINE.drop_cells((1,), bytes([3] * too_long), [0], bits)
        assert ENGINE.solve_line((1,), bytes([3] * (too_long - 1)), bits) == bytes([3] * (too_long - 1))
    with pytest.raises(ValueError):
        ENGINE.solve_line((1,), bytes([3]), 32)


def test_the_line_dp_refuses_bad_states():
    with pytest.raises(ValueError):
        ENGINE.solve_line((1,), bytes([0, 3]))
