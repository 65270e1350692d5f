"""The exhaustive census (issue 30, item 2): published counts, naive oracles, chunks, checkpoints."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

import nonolab
from nonolab.cli.main import cli
from nonolab.core.violations import clues_of
from nonolab.errors import InvalidArgument, WrongAnswer
from nonolab.exhaustive import count as count_module
from nonolab.exhaustive import parse_size
from nonolab.exhaustive.pictures import Plan
from nonolab.harness.classify import grade
from nonolab.solvers.native.compiled.batch import check_arrays
from tests.reference import brute_line

# OEIS A242876 (unique n x n pictures) and A391619 (line-solvable), n = 1..4.
PUBLISHED = {1: (2, 2), 2: (14, 14), 3: (384, 384), 4: (52362, 51234)}


def _naive(width: int, height: int) -> tuple[Counter, dict]:
    """Every picture's clues (pure Python) and, per clue set, whether naive line
    propagation (tests/reference.brute_line to a fixpoint) solves it."""
    by_clues: Counter = Counter()
    for bits in itertools.product((0, 1), repeat=width * height):
        rows = tuple(clues_of(bits[r * width:(r + 1) * width]) for r in range(height))
        columns = tuple(clues_of(bits[c::width]) for c in range(width))
        by_clues[rows, columns] += 1
    return by_clues, {key: _line_solves(*key, width, height) for key in by_clues}


def _line_solves(rows, columns, width, height) -> bool:
    grid = [[3] * width for _ in range(height)]
    changed = True
    while changed:
        changed = False
        lines = [(rows[r], [(r, c) for c in range(width)]) for r in range(height)]
        lines += [(columns[c], [(r, c) for r in range(height)]) for c in range(width)]
        for clue, cells in lines:
            fixed = brute_line(clue, bytes(grid[r][c] for r, c in cells))
            if fixed is None:
                return False
            for (r, c), value in zip(cells, fixed):
                if grid[r][c] != value:
                    grid[r][c] = value
                    changed = True
    return all(v in (1, 2) for row in grid for v in row)


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_square_census_matches_the_published_counts(n):
    result = nonolab.census(n, n)
    assert (result.unique, result.line) == PUBLISHED[n]
    assert result.pictures == result.total == 2 ** (n * n) and result.complete
    assert sum(result.grades.values()) == result.unique and result.grades["line"] == result.line


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("width,height", [(3, 2), (2, 3), (4, 2), (1, 5), (3, 3), (4, 3)])
def test_census_matches_naive_enumeration_and_line_propagation(width, height, symmetry):
    by_clues, line = _naive(width, height)
    result = nonolab.census(width, height, symmetry=symmetry)
    assert result.clue_sets == len(by_clues)
    assert result.unique == sum(1 for n in by_clues.values() if n == 1)
    assert result.line == sum(1 for key, n in by_clues.items() if line[key])


def test_the_grades_are_those_of_grade_clue_set_by_clue_set():
    # A sample of the 4x4 unique clue sets (every 20th of the 1,128 the line solver
    # leaves open, every 1,000th of the others), each graded by the harness: the batch
    # entry's one-node runs must give the same grade.
    plan = Plan(4, 4)
    numbers = plan.line_numbers(plan.pictures(()))
    keys = plan.keys(numbers)
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    sets = numbers[first[counts == 1]]
    levels = check_arrays(*plan.packed(sets), levels=True).level
    names = ("line", "contradiction-probe", "full-probe")
    sample = np.concatenate((np.flatnonzero(levels > 0)[::20], np.flatnonzero(levels == 0)[::1000]))
    assert len(sample) > 50
    for i in sample:
        puzzle = nonolab.Puzzle(rows=tuple(plan.row_clues[n] for n in sets[i][:4]),
                                columns=tuple(plan.column_clues[n] for n in sets[i][4:]))
        expected = grade(puzzle, backend="native").grade.value
        assert (names[levels[i]] if levels[i] < 3 else "deeper") == expected, puzzle


def test_small_chunks_give_the_same_census():
    plan = Plan(4, 4, chunk_pictures=1 << 12)
    assert {len(c) for c in plan.chunks()} == {1, 2} and all(plan.size(c) <= 1 << 12 for c in plan.chunks())
    assert sum(plan.size(c) for c in plan.chunks()) == 2 ** 16
    assert sorted(int(p) for c in plan.chunks() for p in plan.pictures(c)) == list(range(2 ** 16))
    result = nonolab.census(4, 4, chunk_pictures=1 << 12)
    assert (result.unique, result.line, result.pictures) == (52362, 51234, 65536)


def test_a_killed_census_resumes_from_its_results_file(tmp_path):
    out = tmp_path / "census.json"
    seen = []

    def stop_after_three(result):
        seen.append(result.chunks_done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        nonolab.census(4, 4, out=str(out), progress=stop_after_three, chunk_pictures=1 << 12)
    partial = json.loads(out.read_text())
    assert partial["chunks_done"] == 3 and not partial["complete"]
    ran = []
    result = nonolab.census(4, 4, out=str(out), progress=lambda r: ran.append(r.chunks_done))
    assert ran[0] == 4 and len(ran) == result.chunks - 3  # only the chunks missing from the file
    assert (result.unique, result.line, result.pictures) == (52362, 51234, 65536)
    assert json.loads(out.read_text())["complete"]


@pytest.mark.parametrize("damage", ["a chunk without its unique count", "done as a list", "a grade of text", "no size"])
def test_a_damaged_results_file_is_refused_in_one_line_and_kept(tmp_path, damage):
    # Audit 8: a results file with one chunk's "unique" missing ended in KeyError: 'unique'
    # (a traceback), "done" as a list in a TypeError.  Summed in silence, a damaged tally
    # would have been a wrong census.
    out = tmp_path / "census.json"
    nonolab.census(3, 3, out=str(out), chunk_pictures=1 << 6)
    data = json.loads(out.read_text())
    first = next(iter(data["done"]))
    if damage == "done as a list":
        data["done"] = [1, 2]
    elif damage == "a grade of text":
        data["done"][first]["grades"]["line"] = "many"
    elif damage == "no size":     # it said "holds the None census"
        del data["size"]
    else:
        del data["done"][first]["unique"]
    out.write_text(json.dumps(data))
    kept = out.read_text()
    result = CliRunner().invoke(cli, ["census", "--size", "3x3", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "not overwritten" in result.output, result.output
    assert "None" not in result.output
    assert f"--out {out}: " in result.output and out.read_text() == kept


def test_local_processes_give_the_same_census():
    result = nonolab.census(4, 4, jobs=2, chunk_pictures=1 << 12)
    assert (result.unique, result.line, result.chunks_done) == (52362, 51234, result.chunks)


@pytest.mark.parametrize("symmetry", [True, False])
def test_a_disagreement_between_the_two_counts_is_an_error(monkeypatch, symmetry):
    real = count_module.check_arrays

    def one_solution_too_many(*args, **kwargs):
        answers = real(*args, **kwargs)
        answers.found = answers.found.copy()
        answers.found[answers.found == 1] = 2
        return answers

    monkeypatch.setattr(count_module, "check_arrays", one_solution_too_many)
    with pytest.raises(WrongAnswer, match="share a clue set"):
        nonolab.census(3, 3, symmetry=symmetry)


@pytest.mark.parametrize("symmetry", [True, False])
def test_the_engine_solution_must_be_the_picture(monkeypatch, symmetry):
    real = count_module.check_arrays

    def flipped(*args, **kwargs):
        answers = real(*args, **kwargs)
        answers.grids = answers.grids.copy()
        answers.grids[0] = 3 - answers.grids[0]  # the first clue set's first cell, flipped
        return answers

    monkeypatch.setattr(count_module, "check_arrays", flipped)
    with pytest.raises(WrongAnswer, match="not its picture"):
        nonolab.census(3, 3, symmetry=symmetry)


@pytest.mark.parametrize("size", ["5", "0x3", "7x7", "17x1", "ax2"])
def test_bad_sizes_are_refused(size):
    with pytest.raises(InvalidArgument):
        nonolab.census(*parse_size(size))
    result = CliRunner().invoke(cli, ["census", "--size", size])
    assert result.exit_code == 2 and "--size" in result.output


def test_the_command_prints_the_4x4_census():
    result = CliRunner().invoke(cli, ["census", "--size", "4x4"])
    assert result.exit_code == 0, result.output
    assert "65,536 of 65,536 pictures" in result.output
    assert "unique             52,362" in result.output
    assert "line-solvable      51,234" in result.output


def test_another_census_in_the_results_file_is_left_alone(tmp_path):
    out = tmp_path / "r.json"
    assert CliRunner().invoke(cli, ["census", "--size", "2x2", "--out", str(out)]).exit_code == 0
    before = out.read_text()
    result = CliRunner().invoke(cli, ["census", "--size", "3x3", "--out", str(out)])
    assert result.exit_code == 2 and "2x2" in result.output
    other = CliRunner().invoke(cli, ["census", "--size", "2x2", "--no-deep", "--out", str(out)])
    assert other.exit_code == 2 and "--deep" in other.output
    assert out.read_text() == before


def _group(pgid: int) -> list[int]:
    """The live processes of a process group (Linux /proc)."""
    import os
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry))
    return found


def test_an_interrupted_census_leaves_no_process_behind(tmp_path):
    # SIGINT to the command alone (not its group): it exits 130 and its worker processes,
    # which would otherwise finish their chunks for nobody, end too.
    import os
    import signal
    import subprocess
    import sys
    import time
    if not os.path.isdir("/proc"):
        pytest.skip("needs /proc")
    proc = subprocess.Popen([sys.executable, "-m", "nonolab", "census", "--size", "5x5", "-j", "2", "--out",
                             str(tmp_path / "c.json")], start_new_session=True, stderr=subprocess.PIPE)
    try:
        for _ in range(600):  # until the two workers are up (bounded)
            if len(_group(proc.pid)) >= 3:
                break
            time.sleep(0.1)
        assert len(_group(proc.pid)) >= 3, "the census never started its workers"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert b"interrupted" in proc.stderr.read()
        for _ in range(300):
            if not _group(proc.pid):
                break
            time.sleep(0.1)
        assert not _group(proc.pid), "worker processes outlived the command"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
