"""Jupyter's HTML of reports, check results, puzzles and solutions: read back as a person would.

Each block is parsed with :mod:`html.parser` (tags must balance, and a title full of
markup must come out as text, never as tags); its inline SVG pictures are parsed as XML
and must carry every clue.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from svg_reading import PUZZLES, assert_every_clue_drawn, parse

import nonolab
from nonolab.core import Puzzle, Solution
from nonolab.formats import load
from nonolab.harness.report import report

SIMPLE2 = PUZZLES / "hakank" / "simple2.non"      # several solutions: alternative, regions, repairs
CAR = PUZZLES / "hakank" / "car.non"              # unique
HOSTILE = '<script>alert("x")</script> & <b>bold</b>'
VOID = {"br", "img", "hr", "meta", "input", "rect", "line", "path", "circle"}


class _Reader(HTMLParser):
    """Tags opened (with their class), text per class, and a check that tags balance."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.stack: list[tuple[str, str]] = []
        self.text: list[str] = []
        self.by_class: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in VOID:
            self.stack.append((tag, dict(attrs).get("class") or ""))

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1][0] == tag, (tag, self.stack[-3:])
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        for _, cls in self.stack:
            if cls:
                self.by_class.setdefault(cls, []).append(data)


def read(page: str) -> _Reader:
    reader = _Reader()
    reader.feed(page)
    reader.close()
    assert not reader.stack, f"unclosed tags: {reader.stack}"
    return reader


def words(reader: _Reader) -> str:
    return " ".join("".join(reader.text).split())


def pictures(page: str) -> list:
    return [parse(svg) for svg in re.findall(r"<svg\b.*?</svg>", page, flags=re.S)]


def test_the_report_of_several_solutions_has_its_verdict_warnings_pictures_and_repairs():
    puzzle = load(SIMPLE2)
    rep = report(puzzle, backend="native")
    page = rep._repr_html_()
    reader = read(page)
    text = words(reader)
    assert "".join(reader.by_class["verdict"]) == "multiple"
    assert rep.warnings and all(" ".join(w.message.split()) in text for w in rep.warnings)
    assert f"difficulty {rep.difficulty:.3f}" in text and rep.grade.grade.value in text
    drawn = pictures(page)
    assert len(drawn) >= 3                     # two solutions, the ambiguity map, before and after a repair
    assert_every_clue_drawn(drawn[0], puzzle, boards=2)
    for suggestion in rep.repair.suggestions:
        assert f"{suggestion.describe()}: unique (exact count)" in text
    assert "script" not in reader.tags


def test_the_report_of_a_unique_puzzle_draws_its_solution_with_every_clue():
    puzzle = load(CAR)
    rep = report(puzzle, backend="native")
    page = rep._repr_html_()
    reader = read(page)
    assert "".join(reader.by_class["verdict"]) == "unique"
    assert "repairs" not in reader.by_class
    (drawn,) = pictures(page)
    assert_every_clue_drawn(drawn, puzzle)


def test_the_report_of_a_puzzle_with_no_solution_says_not_graded_never_none():
    rep = report(load(PUZZLES / "nonolab" / "contradiction.non"), backend="native")
    reader = read(rep._repr_html_())
    assert "".join(reader.by_class["grade"]) == "grade: not graded (a puzzle with no solution has no grade)"
    assert not re.search(r"\bnone\b", words(reader)), words(reader)


def test_a_title_full_of_markup_is_text_not_tags():
    picture = Solution.from_rows(["#.", ".#"])
    puzzle = Puzzle.from_solution(picture, name=HOSTILE)
    for page in (report(puzzle, backend="native")._repr_html_(), puzzle._repr_html_()):
        reader = read(page)
        assert HOSTILE not in page                          # never raw
        assert HOSTILE in "".join(reader.text)              # but shown, as text
        assert "script" not in reader.tags and "b" not in reader.tags


def test_a_warning_with_markup_is_escaped(monkeypatch):
    from nonolab.harness import report as report_module

    rep = report(load(CAR), backend="native", repair=False)
    odd = report_module.Warning("trivial", "cells <i>and</i> lines & more")
    page = rep.__class__(**{**rep.__dict__, "warnings": (odd,)})._repr_html_()
    reader = read(page)
    assert "warning: cells <i>and</i> lines & more" in words(reader) and "i" not in reader.tags


def test_puzzles_solutions_and_check_results_have_html_too():
    puzzle = load(SIMPLE2)
    reader = read(puzzle._repr_html_())
    assert "simple2" in words(reader) or f"{puzzle.width}x{puzzle.height}" in words(reader)
    assert_every_clue_drawn(pictures(puzzle._repr_html_())[0], puzzle)
    solution = nonolab.solve(puzzle, "native").solution
    assert_every_clue_drawn(pictures(solution._repr_html_())[0], Puzzle.from_solution(solution))
    answer = nonolab.check(puzzle, "native")
    page = answer._repr_html_()
    assert "".join(read(page).by_class["verdict"]) == "multiple"
    assert len(pictures(page)) == 1
    huge = Solution.from_bytes(bytes(400 * 400), 400)
    page = huge._repr_html_()
    assert "<svg" not in page and "not drawn" in words(read(page))
