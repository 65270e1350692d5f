"""Every line strategy is sound against brute force; enumerate under its cap is the DP.

Sound: a strategy never removes a value some arrangement of the clue allows, and it
reports a contradiction on every fully decided line whose runs are not the clue.
The rule-based ones (overlap, chain-range) may fix fewer cells than the DP, never
others; chain ranges add capping and repetition to overlap, so they decide at
least what overlap decides.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core.violations import clues_of
from nonolab.errors import InvalidArgument
from nonolab.solvers.native.lines import BLOCK_CAPPING, CLUE_EXHAUSTION, SIMPLE_OVERLAP, fix_line_with
from nonolab.solvers.native.modes import STRATEGIES, line_strategy
from reference import brute_line, truth_tables

EMPTY, FILLED, UNKNOWN = 1, 2, 3
RULES = [name for name, s in STRATEGIES.items() if s.labelled]


def _assert_sound(name, clue, cells, expected, got, labels):
    if expected is None:
        if UNKNOWN not in cells:
            assert got is None, (name, clue, cells, "a decided line that breaks its clue must contradict")
        return
    assert got is not None, (name, clue, cells, "a contradiction on a consistent line")
    for c, e, g, label in zip(cells, expected, got, labels):
        assert g & e == e, (name, clue, cells, got, expected, "removed a possible value")
        assert g & c == g and g != 0, (name, clue, cells, got)
        if not STRATEGIES[name].labelled:
            assert label == 0
            continue
        assert (label != 0) == (g != c), (name, clue, cells, got, labels)  # every decided cell has its rule
        if label:
            assert label in (SIMPLE_OVERLAP, BLOCK_CAPPING, CLUE_EXHAUSTION)
            assert (g == FILLED) == (label == SIMPLE_OVERLAP), (name, clue, cells, got, labels)


@pytest.mark.parametrize("n", range(1, 8))
def test_every_strategy_on_every_clue_and_partial_line(n):
    checked = 0
    for clue, cells, expected in truth_tables(n):
        answers = {name: fix_line_with(name, clue, cells) for name in STRATEGIES}
        for name, (got, labels) in answers.items():
            _assert_sound(name, clue, cells, expected, got, labels)
            if STRATEGIES[name].complete:
                assert got == expected, (name, clue, cells)
        assert answers["enumerate"][0] == expected, (clue, cells)  # under its cap: the DP
        chain, plain = answers["chain-range"][0], answers["overlap"][0]
        if plain is None:
            assert chain is None, (clue, cells)
        elif chain is not None:
            assert all(a & b == a for a, b in zip(chain, plain)), (clue, cells, chain, plain)
        checked += 1
    assert checked > 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((EMPTY, FILLED, UNKNOWN, UNKNOWN)), min_size=8, max_size=14),
       st.lists(st.booleans(), min_size=14, max_size=14))
def test_longer_lines_are_sound(states, picture):
    cells = bytes(states)
    clue = clues_of(picture[:len(states)])
    expected = brute_line(clue, cells)
    for name in STRATEGIES:
        got, labels = fix_line_with(name, clue, cells)
        _assert_sound(name, clue, cells, expected, got, labels)
    assert fix_line_with("enumerate", clue, cells)[0] == expected


def test_enumerate_past_its_cap_leaves_the_line_but_still_checks_decided_lines():
    clue = (1, 1, 1, 1)
    cells = bytes([UNKNOWN] * 16)
    assert fix_line_with("enumerate", clue, cells, cap=10)[0] == cells  # unchanged: sound, not complete
    assert fix_line_with("enumerate", clue, cells, cap=1 << 16)[0] == brute_line(clue, cells)
    decided = bytes([FILLED, EMPTY] * 3 + [EMPTY] * 10)  # three blocks for a clue of four
    assert fix_line_with("enumerate", clue, decided, cap=1)[0] is None
    good = bytes([FILLED, EMPTY] * 4 + [EMPTY] * 8)
    assert fix_line_with("enumerate", clue, good, cap=1)[0] == good


def test_each_rule_labels_the_cells_it_decides():
    # simple overlap: a block of 3 in 4 cells covers the middle two wherever it lies
    assert fix_line_with("overlap", (3,), bytes([3, 3, 3, 3])) == (bytes([3, 2, 2, 3]), (0, 1, 1, 0))
    # block capping: the middle box may be either 1, but both are 1 long, so it is capped
    got, labels = fix_line_with("chain-range", (1, 1), bytes([3, 3, 2, 3, 3]))
    assert got == bytes([3, 1, 2, 1, 3]) and labels == (0, BLOCK_CAPPING, 0, BLOCK_CAPPING, 0)
    # clue exhaustion: a space leaves one place for the 2, so the cells beyond it are out of reach
    got, labels = fix_line_with("chain-range", (2,), bytes([3, 2, 3, 1, 3, 3]))
    assert got[3:] == bytes([1, 1, 1]) and labels[4:] == (CLUE_EXHAUSTION, CLUE_EXHAUSTION)
    # overlap does not cap: the middle box could be either block, so their ranges cover its ends
    assert fix_line_with("overlap", (1, 1), bytes([3, 3, 2, 3, 3]))[0] == bytes([3, 3, 2, 3, 3])


def test_unknown_strategy_names_are_refused_with_the_known_ones():
    with pytest.raises(InvalidArgument, match="chain-range"):
        line_strategy("chain")
    assert line_strategy("dp").complete and not any(s.complete for n, s in STRATEGIES.items() if n != "dp")
    assert RULES == ["chain-range", "overlap"]
