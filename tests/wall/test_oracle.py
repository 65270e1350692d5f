"""The wall's own parts: the oracle is right and independent, the judge catches wrong
answers of every kind, and the variants cover every declared option value."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from nonolab.solvers import Capability, Limits, SolveResult, Step, Technique, capabilities_of, get, names, \
    options_of
from tests import reference
from tests.colour import brute as colour_brute
from tests.wall import brute, puzzles
from tests.wall.judge import AGREE, STOPPED, WRONG, ask
from tests.wall.variants import PRODUCT_CAP, UNVARIED, Variant, of_backend

HERE = Path(__file__).resolve().parent


def test_the_oracle_imports_nothing_of_nonolab():
    tree = ast.parse((HERE / "brute.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not [m for m in imported if m.split(".")[0] in ("nonolab", "tests")], imported


def test_the_oracle_counts_as_the_older_brute_forces_do():
    # Two earlier oracles (enumeration of row products for black and white; the colour
    # tests' row search) written separately: the three agree on 300 puzzles.
    for case in puzzles.cases(5, 150, False, 5):
        rows = [[n for n, _ in line] for line in case.rows]
        columns = [[n for n, _ in line] for line in case.columns]
        assert len(brute.solutions(case.rows, case.columns, 2)) == reference.count_by_rows(rows, columns), case
    for case in puzzles.cases(5, 150, True, 4):
        older = {s.cells for s in colour_brute.solutions(case.puzzle())}
        assert brute.solutions(case.rows, case.columns, case.values) == older, case


def test_the_oracle_on_hand_counted_puzzles():
    one = ((1, 1),)
    assert brute.solutions([one, ()], [one, ()], 2) == {((1, 0), (0, 0))}
    assert len(brute.solutions([one] * 3, [one] * 3, 2)) == 6                  # the 3x3 permutations
    assert brute.solutions([((2, 1),)], [one, one], 2, givens={(0, 0): 0}) == set()
    assert brute.solutions([((1, 1), (1, 2))], [one, ((1, 2),)], 3) == {((1, 2),)}    # two colours touch
    assert brute.solutions([((1, 1), (1, 1))], [one, one], 3) == set()             # same colour needs a gap
    assert brute.solutions([one], [one, ()], 2) == {((1, 0),)}                      # a 1x2 grid
    assert len(brute.solutions([one, one], [one, one], 2)) == 2
    assert len(brute.solutions([one, one], [one, one], 2, limit=1)) == 1


def test_the_puzzles_have_every_outcome_and_shape():
    cases = puzzles.cases(1, 600, False, 7) + puzzles.cases(1, 600, True, 6)
    counts = {min(len(brute.solutions(c.rows, c.columns, c.values, limit=3)), 2) for c in cases}
    assert counts == {0, 1, 2}
    assert {c.kind for c in cases} == set(puzzles.KINDS)
    assert any(c.height == 1 for c in cases) and any(c.width == 1 for c in cases)
    assert any(not line for c in cases for line in c.rows + c.columns)                 # empty lines
    assert any(a[1] != b[1] for c in cases if c.colours > 1 for line in c.rows for a, b in zip(line, line[1:]))
    assert {c.colours for c in cases} == {1, 2, 3, 4}


def test_the_variants_cover_every_declared_option_value():
    for name in names():
        variants = of_backend(name)
        set_values = {pair for v in variants for pair in v.options}
        for option in options_of(name):
            if option.name in UNVARIED:
                continue
            if option.kind == "choice":
                wanted = set(option.allowed()) - {option.default}
            elif option.kind == "bool":
                wanted = {"false" if option.default else "true"}
            else:
                continue
            missing = {v for v in wanted if (option.name, v) not in set_values}
            assert not missing, (name, option.name, missing)
        assert all(v.capabilities == capabilities_of(name) for v in variants)
        assert len(variants) == len({v.spec for v in variants})
    # Few enough switches: every combination (native's probing x line x record_steps x restarts).
    numeric = {o.name for o in options_of("native") if o.kind in ("int", "float")}
    native = [v for v in of_backend("native") if not any(key in numeric for key, _ in v.options)]
    assert len(native) <= PRODUCT_CAP and "native:probing=none,line=overlap" in {v.spec for v in native}
    assert "native:probing=contradiction,line=enumerate,record_steps=true,restarts=false" in {
        v.spec for v in native}


def test_a_variant_whose_option_needs_another_runs_with_it_never_alone():
    # Audit 7: the wall ran lcg:first_mode=stable, lcg:focused_phases=target and
    # lcg:focused_decay=0.5 (three ways) alone: each only matters with modes on, so each ran
    # the plain lcg again under another name (interleave_ratio=1 likewise without interleave).
    for name in names():
        declared = {o.name: o for o in options_of(name)}
        for variant in of_backend(name):
            pairs = dict(variant.options)
            for key, value in pairs.items():
                needed = declared[key].needs
                if needed is not None and value != str(declared[key].default):
                    assert needed in pairs and pairs[needed] not in ("0", "false", "none"), variant.spec
            if name == "lcg":
                variant.build()                                 # and the backend takes it
    specs = {v.spec for v in of_backend("lcg")}
    assert {"lcg:first_mode=stable,modes=5", "lcg:focused_phases=target,modes=5",
            "lcg:focused_decay=0.5,modes=5", "lcg:interleave_ratio=1,interleave=3"} <= specs
    assert not {"lcg:first_mode=stable", "lcg:focused_phases=target", "lcg:focused_decay=0.5"} & specs
    # with nothing to turn the needed option on with, the variant is left out
    from tests.wall.variants import with_needed
    lcg = {o.name: o for o in options_of("lcg")}
    assert with_needed(Variant("lcg", (("first_mode", "stable"),), frozenset()), lcg, {}) is None
    kept = Variant("lcg", (("first_mode", "stable"), ("modes", "7")), frozenset())
    assert with_needed(kept, lcg, {"modes": "5"}) == kept       # already on: as it was


# Backends that answer wrong on purpose: the judge must say so.
class _Wrapped:
    """A real backend's answer, spoiled by ``spoil``."""

    name = "spoiled"

    def __init__(self, inner, spoil):
        self.inner, self.spoil = inner, spoil

    def solve(self, puzzle, limits=Limits(), given=None):
        return self.spoil(self.inner.solve(puzzle, limits, given))


def _drop_last(result: SolveResult) -> SolveResult:
    return dataclasses.replace(result, solutions=result.solutions[:-1]) if len(result.solutions) > 1 else result


def _claim_complete(result: SolveResult) -> SolveResult:
    # A search stopped at its cap says it exhausted the space: "unique" from a count to 1.
    return dataclasses.replace(result, complete=True)


def _claim_stopped(result: SolveResult) -> SolveResult:
    from nonolab.solvers import Status
    return dataclasses.replace(result, status=Status.TIMEOUT, complete=False)


def _flip_first_step(result: SolveResult) -> SolveResult:
    if not result.steps:
        return result
    first = result.steps[0]
    r, c, v = first.cells[0]
    spoiled = Step(first.technique, first.source, ((r, c, 1 - v if v in (0, 1) else 0),) + first.cells[1:])
    return dataclasses.replace(result, steps=(spoiled,) + result.steps[1:])


def _early_guess(result: SolveResult) -> SolveResult:
    # The first solution's every cell as a line step at depth 0, before any search.
    if not result.solutions:
        return result
    cells = tuple((r, c, v) for r, row in enumerate(result.solutions[0].cells) for c, v in enumerate(row))
    return dataclasses.replace(result, steps=(Step(Technique.LINE, ("row", 0), cells),))


@pytest.mark.parametrize("spoil, wanted", [(_drop_last, "found"), (_claim_stopped, "stopped"),
                                           (_claim_complete, "complete with"),
                                           (_flip_first_step, "step"), (_early_guess, "before any search")])
def test_the_judge_catches_a_spoiled_backend(spoil, wanted):
    inner = get("native", record_steps=True)
    variant = Variant("native", (("record_steps", "true"),), capabilities_of("native"))
    spoiled = _Wrapped(inner, spoil)
    verdicts = [ask(variant, spoiled, case) for case in puzzles.cases(11, 60, False, 6)]
    caught = [v for v in verdicts if v.outcome == WRONG]
    assert caught and all(wanted in v.detail for v in caught), verdicts
    assert all(v.outcome == AGREE for v in (ask(variant, inner, case) for case in puzzles.cases(11, 60, False, 6)))


def test_a_bounded_variant_may_stop_and_an_unbounded_one_may_not():
    native = get("native", node_limit=1)
    bounded = Variant("native", (("node_limit", "1"),), capabilities_of("native"), bounded=True)
    verdicts = {ask(bounded, native, case).outcome for case in puzzles.cases(12, 40, False, 7)}
    assert STOPPED in verdicts and WRONG not in verdicts
    unbounded = dataclasses.replace(bounded, bounded=False)
    assert WRONG in {ask(unbounded, native, case).outcome for case in puzzles.cases(12, 40, False, 7)}


def test_givens_reach_the_backends_that_declare_them():
    # A backend that ignores the givens it declares is caught: the judge filters the truth.
    from nonolab.solvers import Given
    lcg = get("lcg")
    variant = Variant("lcg", (), capabilities_of("lcg"))

    class Ignoring:
        name = "ignoring"

        def solve(self, puzzle, limits=Limits(), given=None):
            return lcg.solve(puzzle, limits, Given() if given is not None else None)

    assert Capability.GIVEN_CELLS in variant.capabilities
    verdicts = [ask(variant, Ignoring(), case) for case in puzzles.cases(13, 80, True, 5)]
    assert any(v.outcome == WRONG for v in verdicts)


def test_the_judge_catches_a_remainder_that_leaves_out_a_solution():
    # audit 14: native's remainder once left out the solutions its deadline left unchecked.
    # Spoiled: every stopped answer says all cells are filled in whatever it did not reach.
    from nonolab.core.grid import FILLED, Grid

    def all_filled(result: SolveResult) -> SolveResult:
        if result.complete:
            return result
        grid = Grid(result.remainder.height, result.remainder.width) if result.remainder is not None else None
        if grid is None:
            return result
        grid.cells[:] = bytes([FILLED]) * len(grid.cells)
        return dataclasses.replace(result, remainder=grid)

    bounded = Variant("native", (("node_limit", "1"),), capabilities_of("native"), bounded=True)
    spoiled = _Wrapped(get("native", node_limit=1), all_filled)
    caught = [v for v in (ask(bounded, spoiled, case) for case in puzzles.cases(12, 40, False, 7))
              if v.outcome == WRONG]
    assert caught and all("remainder" in v.detail for v in caught)


def test_the_wall_counts_to_one_two_three_and_sixty_four():
    # A first solution, a uniqueness check and a count each take their own paths (auto's
    # first-solution rival, its count relay): the wall asks all of them.
    from tests.wall.judge import CAPS, cap_of

    assert {cap_of(case) for case in puzzles.cases(23, 200, False, 7)} == set(CAPS) == {1, 2, 3, 64}
