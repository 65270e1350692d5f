"""auto declares the memory of the engines it runs on a puzzle (solvers.base.bytes_per_cell
reads it from ``memory_per_cell``), so the one budget refuses auto, before anything is
built, where its members would exceed it; before, auto declared nothing and a grid its
members could not hold was started."""

from __future__ import annotations

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import TooLarge
from nonolab.formats import InputLimits
from nonolab.formats.limits import applied
from nonolab.solvers import bytes_per_cell, get
from nonolab.solvers.base import Limits
from nonolab.solvers.lcg import LcgSolver


def _grid(side: int) -> Puzzle:
    """A unique side x side picture: the first row filled, the rest empty."""
    return Puzzle.from_solution(Solution.from_rows(["#" * side] + ["." * side] * (side - 1)))


def test_auto_s_cost_is_the_sum_of_the_members_its_route_runs():
    small, large = _grid(4), _grid(200)
    native, lcg = get("native"), get("lcg")
    assert get("auto").route(small) == "solo"
    # lcg and, for a first solution, lcg with another seed beside it (Kissat, the count's rival, declares none)
    assert bytes_per_cell(get("auto"), small) == 2 * bytes_per_cell(lcg, small)
    assert bytes_per_cell(get("auto", find_seed=0), small) == bytes_per_cell(lcg, small)
    assert get("auto").route(large) == "duel"
    assert bytes_per_cell(get("auto"), large) == bytes_per_cell(native, large) + bytes_per_cell(lcg, large)
    alone = get("auto", handoff_max_states=1)        # no model handed over: native alone
    assert alone.route(large) == "native" and bytes_per_cell(alone, large) == bytes_per_cell(native, large)
    steps = get("auto", record_steps=True)           # native's step log is part of it
    assert bytes_per_cell(steps, large) == bytes_per_cell(get("native", record_steps=True), large) + bytes_per_cell(
        lcg, large)
    colour = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]), palette=Palette.default_for(2))
    assert bytes_per_cell(get("auto", record_steps=True), colour) == bytes_per_cell(
        get("native", record_steps=True), colour)   # colour steps: native's colour engine alone


def test_the_cost_is_derived_from_the_members_not_copied(monkeypatch):
    large = _grid(200)
    before = bytes_per_cell(get("auto"), large)
    monkeypatch.setattr(LcgSolver, "BYTES_PER_CELL", LcgSolver.BYTES_PER_CELL + 1000)
    assert bytes_per_cell(get("auto"), large) == before + 1000


def test_a_budget_refuses_auto_where_its_members_would_exceed_it():
    large = _grid(200)           # native, then lcg beside it: 12 + 125 bytes a cell
    need = 200 * 200 * (bytes_per_cell(get("native"), large) + bytes_per_cell(get("lcg"), large))
    with applied(InputLimits(max_memory=need - 1)), pytest.raises(TooLarge, match="backend 'auto'.*memory budget"):
        get("auto").solve(large, Limits(2))
    with applied(InputLimits(max_memory=need)):      # at the budget: it answers
        assert get("auto").solve(large, Limits(2)).unique


def test_a_class_that_declares_its_cost_per_instance_is_asked_as_built_with_its_defaults():
    """Read off a class, ``memory_per_cell`` took the puzzle for ``self`` (a TypeError, or
    a wrong figure from a backend whose method ignores the puzzle)."""
    from nonolab.solvers import declared_bytes_per_cell
    from nonolab.solvers.auto import AutoSolver
    small, large = _grid(4), _grid(200)
    for puzzle in (small, large):
        assert bytes_per_cell(AutoSolver, puzzle) == bytes_per_cell(get("auto"), puzzle) > 0
        assert declared_bytes_per_cell("auto", puzzle) == bytes_per_cell(get("auto"), puzzle)


def test_a_spec_s_options_count_in_its_declared_cost():
    """native's step log costs memory: a spec that asks for it declares it (read off the
    class, the options were dropped and the cost was the default's)."""
    from nonolab.solvers import declared_bytes_per_cell
    large = _grid(200)
    with_steps = bytes_per_cell(get("native", record_steps=True), large)
    assert with_steps > bytes_per_cell(get("native"), large)
    assert declared_bytes_per_cell("native:record_steps=true", large) == with_steps
    assert declared_bytes_per_cell("auto:record_steps=true", large) == bytes_per_cell(
        get("auto", record_steps=True), large)
