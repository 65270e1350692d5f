"""Every place a report or a repair names a colour names it the same way: the palette's name
and, in brackets, its character (``blue (%)``), never the bare character; read on a colour
puzzle of two solutions in the text report, ``check --why``, the HTML report and the
workbench's offered repairs."""

from __future__ import annotations

import json
import re

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.formats import dump
from nonolab.harness.report import report

# Two solutions: a same-colour 2x2 switch (rows 1-2, columns 1-2) in a three-colour picture,
# drawn with characters that are not letters, so a bare character is easy to tell from a name.
PALETTE = Palette.of(("blue", (0, 0, 255), "%"), ("red", (255, 0, 0), "@"), ("green", (0, 128, 0), "+"))
PICTURE = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [2, 2, 0, 3], [0, 2, 3, 3]])
NAMED = {1: "blue (%)", 2: "red (@)", 3: "green (+)"}      # written out here, not by the formatter under test


def _said(blocks) -> str:
    return ", ".join(f"{n} {NAMED[c]}" for n, c in blocks) or "0"


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    made = Puzzle.from_solution(PICTURE, "blue switch", palette=PALETTE)
    assert made.is_colour and made.chars == ".%@+"
    return made


@pytest.fixture(scope="module")
def designer(puzzle):
    found = report(puzzle, backend="native")
    assert found.verdict.value == "multiple" and found.repair.suggestions
    assert found.ambiguity.givens_unique
    return found


@pytest.fixture
def path(puzzle, tmp_path) -> str:
    out = tmp_path / "switch.json"
    dump(puzzle, out)
    return str(out)


def test_the_formatter_names_a_colour_and_a_clue_by_the_palette(puzzle):
    assert [puzzle.value_label(v) for v in range(4)] == ["white (.)", *NAMED.values()]
    assert puzzle.blocks_label(((1, 1), (2, 2))) == "1 blue (%), 2 red (@)"
    assert puzzle.blocks_label(()) == "0"
    plain = Puzzle.from_solution(Solution.from_rows(["#.", "##"]))
    assert plain.value_label(1) == "#" and plain.blocks_label(((2, 1), (1, 1))) == "2 1"


def test_the_text_report_names_changed_clues_and_flips_by_the_palette(run, path):
    result = run("check", "--report", path)
    assert result.exit_code == 1 and result.stdout.splitlines()[0] == "multiple"
    data = json.loads(run("check", "--report", path, "--json").stdout)
    lines = result.stdout.splitlines()
    expected = []
    for s in data["repair"]["suggestions"]:
        flips = " and ".join(f"({r + 1},{c + 1}) to {NAMED.get(v, 'white (.)')}" for r, c, v in s["flips"])
        expected.append(f"flip {flips}: unique")
        for x in s["lines"]:
            before = _said(zip(x["before"], x["before_colours"]))
            after = _said(zip(x["after"], x["after_colours"]))
            expected.append(f"{x['kind']} {x['index'] + 1}: {before} -> {after}")
    said = [ln.strip() for ln in lines if re.match(r"\s+(\d+\. flip|(row|column) \d+: )", ln)]
    said = [re.sub(r"^\d+\. ", "", ln) for ln in said]
    assert said == expected
    assert not any(re.search(r"\d[%@+]", ln) for ln in said)   # never a length glued to a bare character


def test_check_why_names_its_givens_by_the_palette(run, path):
    lines = run("check", "--why", path).stdout.splitlines()
    at = lines.index(next(ln for ln in lines if ln.startswith("givens (greedy")))
    # The cells as --given reads them (pasteable, audit-10), then each char named by the palette.
    cells = re.findall(r"\((\d+),(\d+)\)=(\S)", lines[at + 2])
    assert cells and all(char in ".%@+" for _, _, char in cells), lines[at + 2]
    named = {"%": "blue (%)", "@": "red (@)", "+": "green (+)", ".": "white (.)"}
    assert lines[at + 1].strip() == "colours: " + ", ".join(named[c] for c in sorted({c for _, _, c in cells},
                                                                                      key=".%@+".index))


def test_the_html_report_names_changed_clues_and_givens_by_the_palette(designer):
    page = designer._repr_html_()
    for s in designer.repair.suggestions:
        for kind, i, before, after in s.lines:
            assert f"{kind} {i + 1}: {_said(before)} &rarr; {_said(after)}" in page
    (r, c, v), *_ = designer.ambiguity.givens
    assert f"({r + 1},{c + 1})={NAMED[v]}" in page


def test_the_workbench_offers_repairs_and_givens_by_the_palette(designer):
    from nonolab.web.repairs import suggest

    texts = [offer["text"] for offer in suggest(designer)]
    flips = [t for t in texts if t.startswith("flip ")]
    assert flips and all(re.match(r"flip \(\d+,\d+\) to \w+ \(.\)", t) for t in flips)
    reveal = next(t for t in texts if t.startswith("reveal "))
    (r, c, v), *_ = designer.givens
    assert f"({r + 1},{c + 1})={NAMED[v]}" in reveal
