"""Repair in colour: the fewest changes (a cell to another colour or the background), each
proven unique by an exact count of two colour backends, against brute force."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.harness.repair import repair
from nonolab.solvers import get
from nonolab.solvers.base import Limits

NATIVE = get("native")
CNF = get("cnf")

# A same-colour 2x2 switch (rows 1-2, columns 1-2) inside a three-colour picture.
SWITCHED = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [2, 2, 0, 3], [0, 2, 3, 3]])


def _count(picture: bytes, width: int, palette, solver=NATIVE) -> int:
    puzzle = Puzzle.from_solution(Solution.from_bytes(picture, width, colours=True), palette=palette)
    return solver.solve(puzzle, Limits(None)).count


def test_a_colour_switch_gets_the_fewest_changes_each_proven_unique_against_brute_force():
    puzzle = Puzzle.from_solution(SWITCHED)
    assert NATIVE.solve(puzzle, Limits(None)).count == 2
    data, width, top = SWITCHED.to_bytes(), SWITCHED.width, puzzle.colours
    singles = set()
    for i in range(len(data)):
        for v in range(top + 1):
            if v != data[i]:
                changed = bytearray(data)
                changed[i] = v
                if _count(bytes(changed), width, puzzle.palette) == 1:
                    singles.add((i // width, i % width, v))
    result = repair(puzzle, suggestions=100)
    assert result.status == "repaired" and result.minimal and result.method == "exact"
    assert {len(s.flips) for s in result.suggestions} == {1}
    assert {s.flips[0] for s in result.suggestions} == singles       # every single change that works
    assert any(v not in (0, data[r * width + c]) for r, c, v in (s.flips[0] for s in result.suggestions))
    for s in result.suggestions:
        assert s.unique and CNF.solve(s.puzzle, Limits(None)).count == 1
        assert s.puzzle.is_colour and s.puzzle.palette == puzzle.palette
    best = result.best
    assert best.describe().startswith("flip (") and best.as_dict()["lines"][0]["before_colours"]
    names = {colour.name for colour in puzzle.palette}
    (r, c, v), = best.flips
    assert best.describe() == f"flip ({r + 1},{c + 1}) to {puzzle.palette.label(v)}"
    assert puzzle.palette[v].name in names and best.describe().endswith(f"({puzzle.chars[v]})")


def test_a_colour_repair_by_another_colour_backend():
    result = repair(Puzzle.from_solution(SWITCHED), backend="cnf", max_flips=1)
    assert result.status == "repaired" and result.minimal and len(result.best.flips) == 1
    assert NATIVE.solve(result.best.puzzle, Limits(None)).count == 1


@st.composite
def colour_pictures(draw):
    height, width = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    colours = draw(st.integers(2, 3))
    cells = draw(st.lists(st.lists(st.integers(0, colours), min_size=width, max_size=width),
                          min_size=height, max_size=height))
    return Solution.from_values(cells)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(colour_pictures(), st.integers(1, 2))
def test_every_colour_repair_counts_one_by_two_backends_and_changes_exactly_its_cells(picture, max_flips):
    if picture.colours < 2:
        return                                   # a black-and-white picture: tested elsewhere
    puzzle = Puzzle.from_solution(picture)
    if NATIVE.solve(puzzle, Limits(2)).unique:
        return
    result = repair(puzzle, max_flips=max_flips, suggestions=5)
    assert result.status in ("repaired", "not-found")
    for s in result.suggestions:
        assert s.unique
        assert NATIVE.solve(s.puzzle, Limits(None)).count == 1 and CNF.solve(s.puzzle, Limits(None)).count == 1
        assert s.puzzle.goal.diff(picture) == sorted((r, c) for r, c, _ in s.flips)
        assert all(s.puzzle.goal[r][c] == v != picture[r][c] for r, c, v in s.flips)
    if result.minimal:
        assert len(result.best.flips) <= max_flips and result.method == "exact"


@pytest.mark.parametrize("backend", ["dlx"])
def test_a_backend_without_colour_is_refused_in_one_line(backend):
    from nonolab.errors import InvalidArgument
    with pytest.raises(InvalidArgument, match="colour"):
        repair(Puzzle.from_solution(SWITCHED), backend=backend)
