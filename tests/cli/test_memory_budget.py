"""The one resource budget at its edges (issue 30 item 4, issue 24): every command that
takes a puzzle refuses one beyond the cell limit in one line (exit 2), and a search
whose declared memory a cell (``BYTES_PER_CELL``) times the cells exceeds the memory
budget is refused before its backend builds anything."""

from __future__ import annotations

import pytest

from nonolab.core import Puzzle
from nonolab.errors import TooLarge
from nonolab.formats import InputLimits
from nonolab.formats.limits import DEFAULT, MEMORY_VARIABLE, applied
from nonolab.solvers import get, names
from nonolab.solvers.base import Limits

from one_line import one_line_error


# Every command that takes one puzzle file, with what it needs besides it.
COMMANDS = [("check",), ("solve",), ("count",), ("grade",), ("explain",), ("info",), ("repair", "-o", "-"),
            ("render",), ("render", "--solution"), ("export", "--to", "dimacs"), ("verify",), ("crosscheck",)]


@pytest.fixture
def beyond(tmp_path):
    """A game ID one row past the default cell limit: refused from its ``WxH``, before its clues."""
    width = 10_000
    height = DEFAULT.max_cells // width + 1
    path = tmp_path / "beyond.tatham"
    path.write_text(f"{width}x{height}:" + "/" * (width + height - 1) + "\n")
    return path, f"{width}x{height} = {width * height:,} cells, beyond the limit of {DEFAULT.max_cells:,} cells"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_refuses_a_puzzle_beyond_the_cell_limit_in_one_line(run, beyond, command):
    path, words = beyond
    one_line_error(run(command[0], path, *command[1:]), words, "NONOLAB_MAX_CELLS")


def test_generate_refuses_beyond_the_memory_budget_before_drawing(run, monkeypatch):
    monkeypatch.setenv(MEMORY_VARIABLE, str(10 ** 6))
    one_line_error(run("generate", "--size", "200x200"), "generate needs about", "memory budget",
                   MEMORY_VARIABLE)


def test_a_backend_beyond_the_memory_budget_is_one_line(run, tmp_path, monkeypatch):
    (tmp_path / "p.non").write_text("width 300\nheight 300\nrows\n" + "0\n" * 300 + "columns\n" + "0\n" * 300)
    monkeypatch.setenv(MEMORY_VARIABLE, str(10 ** 6))
    one_line_error(run("check", "-b", "lcg", tmp_path / "p.non"), "backend 'lcg' needs about", "(125 bytes a cell)",
                   "beyond the memory budget")
    one_line_error(run("grade", tmp_path / "p.non"), "backend 'native'", "beyond the memory budget")


def _declaring(attribute: str = "BYTES_PER_CELL") -> list[str]:
    """The backends that declare ``attribute``, a memory cost a cell (asked of the class, never by name)."""
    found = []
    for name in names():
        try:
            backend = get(name)
        except Exception:   # not installed here
            continue
        if getattr(backend, attribute, None):
            found.append(name)
    return found


@pytest.mark.parametrize("name", _declaring())
def test_a_declared_cost_beyond_the_budget_is_refused_before_the_engine_is_built(name, monkeypatch):
    backend = get(name)
    blank = Puzzle(rows=((),) * 100, columns=((),) * 100)
    # Whatever engine the backend would build, building it is an error here: the refusal
    # must come first (its accept, the first thing every solve does).
    built = []
    for attribute in ("_engine",):
        if hasattr(backend, attribute):
            class Refusing:
                def __getattr__(self, what):
                    built.append(what)
                    raise AssertionError(f"{name} built {what} before refusing")
            monkeypatch.setattr(backend, attribute, Refusing())
    import nonolab.solvers.native.search as search
    monkeypatch.setattr(search, "engine_module", lambda: pytest.fail(f"{name} built the native engine"))
    from nonolab.solvers import bytes_per_cell
    full = 100 * 100 * bytes_per_cell(backend, blank)   # (its options' cost: native's slot)
    with applied(InputLimits(max_memory=1)):   # what it declares when nothing optional fits (native: no slot)
        just_below = 100 * 100 * bytes_per_cell(backend, blank)
    with applied(InputLimits(max_memory=just_below - 1)), pytest.raises(TooLarge, match="beyond the memory budget"):
        backend.solve(blank, Limits(2))
    assert not built
    monkeypatch.undo()
    for budget in (just_below, full):   # at the budget: it answers
        with applied(InputLimits(max_memory=budget)):
            assert get(name).solve(blank, Limits(2)).unique


def test_the_step_log_is_part_of_natives_declared_cost():
    from nonolab.solvers import bytes_per_cell
    one = Puzzle(rows=((1,),), columns=((1,),))
    assert bytes_per_cell(get("native", record_steps=True), one) > bytes_per_cell(get("native"), one)


def test_the_workbench_keeps_its_smaller_cell_limit():
    from nonolab.web import work

    assert work.MAX_CELLS < DEFAULT.max_cells
    with pytest.raises(TooLarge, match=f"beyond the limit of {work.MAX_CELLS:,} cells"):
        work.loaded(("5001x5000:" + "/" * 10000).encode(), "big.tatham", None)


@pytest.mark.parametrize("name", _declaring("COLOUR_BYTES_PER_CELL"))
def test_a_colour_puzzle_is_held_to_the_colour_engine_s_declared_cost(name):
    from nonolab.core import Solution

    backend = get(name)
    assert backend.COLOUR_BYTES_PER_CELL != backend.BYTES_PER_CELL   # (else no need to declare it)
    colour = Puzzle.from_solution(Solution.from_values([[1, 2, 0, 1]] * 3 + [[0, 0, 2, 2]]))
    plain = Puzzle.from_solution(Solution.from_rows(["#..#"] * 3 + ["..##"]))
    just_below = 16 * backend.COLOUR_BYTES_PER_CELL
    with applied(InputLimits(max_memory=just_below - 1)), pytest.raises(TooLarge, match="beyond the memory budget"):
        backend.solve(colour, Limits(2))
    with applied(InputLimits(max_memory=just_below)):   # at the budget: it answers
        assert backend.solve(colour, Limits(2)).unique
    # The black-and-white engine keeps its own figure (with its options' share: native's slot).
    from nonolab.solvers import bytes_per_cell
    assert bytes_per_cell(backend, plain) < backend.COLOUR_BYTES_PER_CELL
    with applied(InputLimits(max_memory=16 * bytes_per_cell(backend, plain))):
        assert backend.solve(plain, Limits(2)).solutions
    assert bytes_per_cell(get(name, record_steps=True), colour) > bytes_per_cell(backend, colour)


def test_explain_json_holds_the_engine_and_its_record_together_to_the_budget(run, tmp_path, monkeypatch):
    from nonolab.harness.explanation import RECORD_BYTES_PER_CELL

    blank = tmp_path / "blank.non"
    blank.write_text("width 100\nheight 100\nrows\n" + "0\n" * 100 + "columns\n" + "0\n" * 100)
    from nonolab.solvers import bytes_per_cell
    engine = bytes_per_cell(get("native", record_steps=True), Puzzle(rows=((),), columns=((),)))
    monkeypatch.setenv(MEMORY_VARIABLE, str(100 * 100 * (engine + RECORD_BYTES_PER_CELL) - 1))
    done = run("explain", "--json", "-b", "native", blank)
    assert done.exit_code == 2 and "beyond the memory budget" in done.output
    monkeypatch.setenv(MEMORY_VARIABLE, str(100 * 100 * (engine + RECORD_BYTES_PER_CELL)))
    assert run("explain", "--json", "-b", "native", blank).exit_code == 0


def test_the_native_colour_engine_declares_its_own_cost():
    assert "native" in _declaring("COLOUR_BYTES_PER_CELL")
