"""The complete line solver equals brute-force enumeration."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core.violations import clues_of
from nonolab.errors import Contradiction
from nonolab.solvers.native.line import fix_line, solve_line
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


def test_windows_narrowed_by_a_wider_state_give_the_same_answers():
    # line_fix may narrow each block's start range after a solve; any later, narrower
    # state of the same line must get the same answer as with the static ranges.
    import numpy as np

    from nonolab.solvers.native.line import dp_work, line_fix, static_windows, table_size
    rng = random.Random(99)
    for _ in range(500):
        n = rng.randint(1, 40)
        bits = [rng.random() < 0.5 for _ in range(n)]
        clue = clues_of(bits)
        k = len(clue)
        clue_arr = np.array(clue or (0,), np.int32)
        win_lo, win_hi = static_windows(clue_arr[:k], np.array([0, k]), [n])
        size = table_size([clue], n)
        work = dp_work(n, k, size)
        state = np.full(n, UNKNOWN, np.uint8)
        out = np.empty(n, np.uint8)
        for _ in range(4):  # narrow the line step by step (only unknown cells change)
            for i in rng.sample(range(n), k=max(1, n // 4)):
                if state[i] == UNKNOWN:
                    state[i] = FILLED if bits[i] else EMPTY
            i = rng.randrange(n)
            if rng.random() < 0.2 and state[i] == UNKNOWN:  # sometimes a wrong cell: contradictions too
                state[i] = EMPTY if bits[i] else FILLED
            expected = fix_line(clue, state.tobytes())
            ok = line_fix(state, n, clue_arr, 0, k, out, work, win_lo, win_hi, True)
            assert (out[:n].tobytes() if ok else None) == expected
            if not ok:
                break


def test_static_windows_of_many_lines_match_each_lines_definition():
    # The vectorised form restarts its prefix sums at every line; empty clues and
    # lines at the end of the data are the edge cases.
    import numpy as np

    from nonolab.solvers.native.line import static_windows
    rng = random.Random(7)
    for _ in range(500):
        clues = [[rng.randint(1, 4) for _ in range(rng.randint(0, 4))] for _ in range(rng.randint(1, 6))]
        lengths = [rng.randint(0, 20) for _ in clues]
        data = np.array([b for clue in clues for b in clue], np.int32)
        starts = np.cumsum([0] + [len(clue) for clue in clues])
        win_lo, win_hi = static_windows(data, starts, lengths)
        for clue, n, c0 in zip(clues, lengths, starts):
            slack = n - sum(clue) - max(len(clue) - 1, 0)
            lo = [sum(clue[:b]) + b for b in range(len(clue))]
            assert list(win_lo[c0:c0 + len(clue)]) == lo
            assert list(win_hi[c0:c0 + len(clue)]) == [x + slack for x in lo]
