"""The generator counts drawn candidates to 2 a group at a time through check_many (issue 30,
item 1): the same seed must give the same puzzles, candidates, repairs and rejections as
judging each candidate alone, and the counts must have been made ahead."""

from __future__ import annotations

import pytest

import nonolab.generate.make as make
from nonolab.generate import Recipe, make_puzzles
from nonolab.generate import screen as screen_module

RECIPES = [
    Recipe(8, 8, unique=True, style="noise", backend="native"),
    Recipe(12, 12, unique=True, style="noise", backend="native", repair=True, max_repairs=3),
    Recipe(10, 10, max_grade="search", backend="native"),
    Recipe(14, 14, unique=True, style="noise", backend="native", colours=2),
    Recipe(15, 15, unique=True, style="noise", backend="native"),
]


def _made(report) -> tuple:
    return ([(g.puzzle.rows, g.puzzle.columns, g.puzzle.row_colours, g.seed, g.grade, g.candidates, g.repairs)
             for g in report.puzzles], report.candidates, report.repairs, dict(report.rejected), report.stopped)


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda r: f"{r.width}x{r.height}-{r.max_grade or 'unique'}"
                         f"{'-repair' if r.repair else ''}{'-colour' if r.colours > 1 else ''}")
def test_counting_ahead_changes_nothing_but_the_time(recipe, monkeypatch):
    screens: list = []
    real = screen_module.Screen

    class Spy(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            screens.append(self)

    monkeypatch.setattr(make, "Screen", Spy)
    ahead = make_puzzles(4, recipe, seed=5, max_candidates=300)
    assert screens and screens[0].screened >= ahead.rejected.get("multiple", 0)   # counted ahead
    monkeypatch.setattr(make, "screen_applies", lambda recipe: False)
    alone = make_puzzles(4, recipe, seed=5, max_candidates=300)
    assert _made(ahead) == _made(alone)
    assert ahead.rejected.get("multiple", 0) + ahead.repairs > 0     # the counts decided something


def test_a_judge_that_grades_below_search_or_a_backend_without_batch_counts_alone():
    assert not screen_module.applies(Recipe(8, 8, unique=True, max_grade="line", backend="native"))
    assert not screen_module.applies(Recipe(8, 8, unique=True, backend="backtrack"))
    assert not screen_module.applies(Recipe(8, 8, backend="native"))          # nothing is judged
    assert screen_module.applies(Recipe(8, 8, unique=True, backend="native"))


def test_the_counts_ahead_stop_at_the_run_s_time_limit(monkeypatch):
    """The run's deadline reaches the counts made ahead (their cancel): a spent budget ends the run."""
    from nonolab.solvers.base import Budget

    budget = Budget(1e-9)
    screen = screen_module.Screen(Recipe(25, 25, unique=True, style="noise", backend="native"), None,
                                  lambda i: make._draw(Recipe(25, 25, style="noise"), i), 8, budget)
    picture, counted = screen.take(0)
    assert picture.shape == (25, 25) and counted() is None     # interrupted: no answer, the judge decides
