"""The colour step log as native holds it: bytes (CellRun), read from the engine's structs,
the same steps whichever way it is read (tuples for a log of one piece, numpy pieces for
a longer one, a step running on across pieces) as the log's rows say."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings

from nonolab.core import Palette, Puzzle, Solution
from nonolab.solvers import Limits, get
from nonolab.solvers.base import Given
from nonolab.solvers.native.colour import colour_engine
from nonolab.solvers.native.colour import log
from nonolab.solvers.steps import CellRun
from tests.colour.test_properties import colour_puzzles


def _engine_at_first_solution(puzzle: Puzzle):
    engine = colour_engine(puzzle, Given.of({}), 2, record_steps=True)
    while engine.run(10.0, -1) == 0:
        pass
    return engine


def _rows_said(rows, width):
    """Each step as the rows say it, in plain tuples: (technique code, source, depth, the cells
    decided, the values ruled out of open cells, each value of a mask in order)."""
    steps: dict[int, tuple] = {}
    for step, code, source, cell, value, depth, removed in rows:
        said = steps.setdefault(step, (code, source, depth, [], []))
        where = (cell // width, cell % width)
        if value >= 0:
            said[3].append((*where, value))
        else:
            said[4].extend((*where, v) for v in range(64) if removed >> v & 1)
    return list(steps.values())


def _as_said(steps, height, width):
    codes = {"line": 0, "contradiction-probe": 1, "both-branches-agree": 2, "guess": 3}
    out = []
    for s in steps:
        source = (s.source[1] if s.source[0] == "row" else height + s.source[1] if s.source[0] == "column"
                  else s.source[1] * width + s.source[2])
        out.append((codes[s.technique.value], source, s.depth, list(s.cells), list(s.ruled_out)))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_the_log_read_in_pieces_or_as_tuples_is_the_steps_its_rows_say(puzzle):
    engine = _engine_at_first_solution(puzzle)
    rows = engine.steps()
    said = _rows_said(rows, puzzle.width)
    whole = log.read_steps(engine, puzzle.height, puzzle.width)     # one piece: as tuples
    assert _as_said(whole, puzzle.height, puzzle.width) == said
    for size in (1, 3, 7):   # in numpy pieces of `size` rows, steps running across them
        blocks = [log.log_rows(rows[at:at + size]) for at in range(0, len(rows), size)]
        assert log.grouped(blocks, puzzle.height, puzzle.width) == whole
        assert [s.describe() for s in log.grouped(blocks, puzzle.height, puzzle.width)] == [s.describe() for s in whole]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_the_engine_writes_any_piece_of_its_compact_log_as_its_rows(puzzle):
    # The engine holds a step's fields once and 16 bytes a cell; a piece starting anywhere (in
    # the middle of a step too) is written out as the rows, and so is the log cut back to a
    # level when the search goes on to the next solution.
    engine = colour_engine(puzzle, Given.of({}), 2, record_steps=True)
    for _ in range(2):
        while engine.run(10.0, -1) == 0:
            pass
        rows = engine.steps()
        assert engine.step_rows() == len(rows)
        for start in range(len(rows) + 1):
            for stop in {start, start + 1, start + 3, len(rows)}:
                block = log.log_rows(rows[start:stop]) if stop > start else log.log_rows([])
                written = np.frombuffer(engine.step_block(start, stop), dtype=np.dtype(log.LOG_ROW))
                assert written.tolist() == block.tolist(), (start, stop)
        if engine.exhausted():
            break


def test_a_long_log_is_read_from_the_engine_in_pieces(monkeypatch):
    cells = [[0 if c % 4 == 0 else 1 + r % 3 for c in range(12)] for r in range(12)]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(3))
    engine = _engine_at_first_solution(puzzle)
    whole = log.read_steps(engine, puzzle.height, puzzle.width)
    pieces, read = [], log._blocks

    def spied(engine, total):
        for block in read(engine, total):
            pieces.append(len(block))
            yield block

    monkeypatch.setattr(log, "LOG_ROWS_PER_PIECE", 5)
    monkeypatch.setattr(log, "_blocks", spied)
    assert log.read_steps(engine, puzzle.height, puzzle.width) == whole
    assert sum(pieces) == engine.step_rows() > 5 and set(pieces[:-1]) == {5}

def test_native_holds_the_colour_log_as_bytes_not_a_tuple_a_cell():
    cells = [[0 if c % 4 == 0 else 1 + r % 3 for c in range(12)] for r in range(12)]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(3))
    found = get("native", record_steps=True).solve(puzzle, Limits(1))
    assert found.steps and any(s.ruled_out for s in found.steps)
    assert all(isinstance(s.cells, CellRun) and isinstance(s.ruled_out, CellRun) for s in found.steps)
    assert pickle.loads(pickle.dumps(found.steps)) == found.steps


def test_the_json_of_a_colour_step_streamed_is_its_dict_s_text():
    import json

    from nonolab.formats import load

    puzzle = load(Path(__file__).parent.parent / "data" / "colour" / "probe-six.xml")  # steps that only rule out
    found = get("native", record_steps=True).solve(puzzle, Limits(1))
    assert any(s.ruled_out and s.cells for s in found.steps) and any(s.ruled_out and not s.cells for s in found.steps)
    for step in found.steps:
        for size in (1, 2, 1 << 16):   # values ruled out, like cells, a block at a time
            assert "".join(step.json_chunks(size)) == json.dumps(step.as_dict())
