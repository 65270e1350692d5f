"""A run that fails (a bug, a full disk) is that failure, never an interruption: the caller's
cancel is its own, and the command says the error, not ``nonolab: interrupted``."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from nonolab.bench import run

# The puzzle files of every run go to a temporary folder: make that write fail as a full disk does.
FULL_DISK = """
import errno, sys
from nonolab.bench import runner
def full(self, index, suffix):
    raise OSError(errno.ENOSPC, "No space left on device", self.folder)
runner.Files.path = full
from nonolab.cli.main import main
sys.argv = ["nonolab", "bench", *sys.argv[1:]]
main()
"""


def _full_disk(self, index, suffix):
    raise OSError(28, "No space left on device", self.folder)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failed_run_leaves_the_callers_cancel_alone(tmp_path, two_puzzles, monkeypatch, jobs):
    from nonolab.bench import runner

    monkeypatch.setattr(runner.Files, "path", _full_disk)
    cancel = threading.Event()
    with pytest.raises(OSError, match="No space left"):
        run(two_puzzles, ["native", "lcg"], out=tmp_path / "out", cancel=cancel, jobs=jobs)
    assert not cancel.is_set()   # the caller's event: set only by the caller (it stops the caller's next calls)


def test_the_command_says_a_failed_run_in_one_line_not_interrupted(tmp_path, two_puzzles):
    done = subprocess.run([sys.executable, "-c", FULL_DISK, *two_puzzles, "-b", "native", "-o", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parent)
    assert done.returncode == 2, done.stderr
    assert "interrupted" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nonolab: error: ") and "No space left on device" in lines[0]


SWITCH = str(Path(__file__).resolve().parents[2] / "puzzles" / "nonolab" / "switch.non")
CAR = Path(__file__).resolve().parents[2] / "puzzles" / "hakank" / "car.non"


@pytest.mark.parametrize("setting, error, named", [
    (dict(time_limit="5"), TypeError, "time_limit"),
    (dict(repeat=1.5), "InvalidArgument", "repeat"),
    (dict(repeat="2"), TypeError, "repeat"),
    (dict(jobs="2"), TypeError, "jobs"),
    (dict(first=2.5), "InvalidArgument", "first"),
    (dict(seed="x"), TypeError, "seed"),
    (dict(seed=-1), "InvalidArgument", "seed"),   # numpy's ValueError from inside a suite's draw, a traceback
    (dict(charts="svg"), TypeError, "charts"),
    (dict(scatter=("native",)), "BenchError", "scatter"),
    (dict(scatter="native,lcg"), TypeError, "scatter"),
    (dict(cancel="yes"), TypeError, "cancel"),
])
def test_a_setting_of_the_wrong_kind_is_refused_before_any_run_naming_it(tmp_path, setting, error, named):
    """As every library call refuses them (require_count, require_time_limit): a typed error
    naming the setting, not a comparison error from inside or a thread's traceback."""
    with pytest.raises(Exception) as caught:
        run([SWITCH], ["native", "lcg"], out=tmp_path / "o", **setting)
    kind = type(caught.value)
    assert (kind is error) if isinstance(error, type) else (kind.__name__ == error or error in
                                                            [k.__name__ for k in kind.__mro__]), (kind, caught.value)
    assert named in str(caught.value) or named == getattr(caught.value, "argument", None), caught.value
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("suite", ["random:5x5:2", "taai:1", "large:8"])
def test_a_negative_seed_is_refused_in_one_line_naming_seed(tmp_path, suite):
    """``bench random:8x8:2 --seed -1`` was numpy's ValueError traceback (exit 1): a seed of a
    generated suite is a whole number >= 0, refused by the library (items_of) and the command."""
    from click.testing import CliRunner

    from nonolab.bench.suites import items_of
    from nonolab.cli.main import cli
    from nonolab.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="seed must be a whole number >= 0"):
        items_of([suite], seed=-1)
    result = CliRunner().invoke(cli, ["bench", suite, "-b", "native", "--seed", "-1", "-o", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert result.output == "nonolab: error: --seed must be a whole number >= 0 (or none: each suite's own), not -1\n"
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("suite", ["random:100000x100000:1", "large:100000"])
def test_a_generated_suite_beyond_the_cell_limit_is_refused_before_a_cell_is_drawn(tmp_path, suite):
    """As ``generate --size`` is: it was numpy's MemoryError traceback (74.5 GiB for one array)."""
    from click.testing import CliRunner

    from nonolab.bench.suites import items_of
    from nonolab.cli.main import cli
    from nonolab.errors import TooLarge
    from nonolab.generate import random_grid, smooth_grid

    with pytest.raises(TooLarge, match="beyond the limit of 100,000,000 cells"):
        items_of([suite])
    for draw in (random_grid, smooth_grid):
        with pytest.raises(TooLarge):
            draw(100_000, 100_000)
    result = CliRunner().invoke(cli, ["bench", suite, "-b", "native", "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and result.output.startswith("nonolab: error: ") and result.output.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_a_puzzle_with_givens_is_refused_by_an_external_that_does_not_declare_them(tmp_path, fake):
    """An external that reads the clues only answers another puzzle than the one with givens
    (the switch, unique with its given cell, has two solutions without it): it was judged
    wrong and the run a DISAGREEMENT, "a bug", exit 1.  As a colour puzzle is, it is refused
    unless its definition says ``givens = true``; then it is given the puzzle."""
    from nonolab.bench.externals import load_definition

    given = tmp_path / "given.non"
    given.write_text(Path(SWITCH).read_text(encoding="utf-8") + '\ngivens "1???"\n', encoding="utf-8")
    fake("saysmultiple", "print('multiple')")   # its answer without the given cell
    result = run([str(given), str(CAR)], ["native"], [fake("saysunique", "print('unique')")], out=tmp_path / "o")
    assert result.ok and not result.figures["disagreements"]
    rows = {(r["solver"], Path(r["puzzle"]).name): r for r in result.records}
    refused = rows[("saysunique", "given.non")]
    assert (refused["status"], refused["verdict"]) == ("refused", None) and "givens" in refused["error"], refused
    assert rows[("native", "given.non")]["verdict"] == "unique"
    assert rows[("saysunique", "car.non")]["verdict"] == "unique"
    mine = {s["solver"]: s for s in result.figures["solvers"]}["saysunique"]
    assert (mine["puzzles"], mine["refused"], mine["errors"]) == (1, 1, 0)
    declared = tmp_path / "g.toml"
    declared.write_text(f'program = "{sys.executable}"\ngivens = true\n[commands]\n'
                        f'check = "{{program}} {tmp_path / "saysmultiple.py"} {{file.non}}"\n', encoding="utf-8")
    assert load_definition(declared, "g").givens is True
    result = run([str(given)], ["native"], [f"g={declared}"], out=tmp_path / "o2")
    row = next(r for r in result.records if r["solver"] == "g")
    assert (row["status"], row["verdict"]) == ("ok", "multiple")   # given it, its claim is judged: wrong
    assert {s["solver"]: s for s in result.figures["solvers"]}["g"]["wrong"] == 1


@pytest.mark.parametrize("limit", ["inf", "1e308", "nan"])
def test_a_time_limit_without_a_finite_par2_is_refused_in_one_line(tmp_path, limit):
    """PAR-2 counts twice the limit and the charts draw it: ``--time-limit inf`` (which every other
    command refuses) and ``1e308`` (twice it is infinite) were an OverflowError traceback in the
    charts after every run, and an error row for every external run ({limit})."""
    from click.testing import CliRunner

    from nonolab.cli.main import cli
    from nonolab.errors import NonolabError

    result = CliRunner().invoke(cli, ["bench", SWITCH, "-b", "native", "-t", limit, "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and result.output.startswith("nonolab: error: ") and result.output.count("\n") == 1, \
        result.output
    assert "--time-limit" in result.output and not (tmp_path / "o").exists()
    with pytest.raises(NonolabError, match="time_limit"):
        run([SWITCH], ["native"], time_limit=float(limit))


@pytest.mark.parametrize("suite", ["random:3x3:100000000", "taai:10001", "ndom:2-100000000", "large:5,6,7,8"])
def test_a_generated_suite_beyond_the_set_limit_is_refused_before_a_puzzle_is_built(tmp_path, monkeypatch, suite):
    """The set limit of a file (``NONOLAB_MAX_PUZZLES``) is the limit of a generated suite:
    ``random:3x3:100000000`` was built whole before the first run, growing without bound.
    Refused in one line naming the suite, before a grid is drawn (counted by a spy)."""
    from click.testing import CliRunner

    from nonolab import generate
    from nonolab.bench import suites
    from nonolab.cli.main import cli
    from nonolab.errors import TooLarge
    from nonolab.formats.limits import InputLimits, applied

    drawn = []
    for name in ("random_grid", "smooth_grid"):
        real = getattr(generate, name)
        monkeypatch.setattr(generate, name, lambda *a, _real=real, **k: drawn.append(a) or _real(*a, **k))
    monkeypatch.setattr(suites, "n_dom", lambda n, _real=suites.n_dom: drawn.append(n) or _real(n))
    limit = 3 if suite.startswith("large") else None      # four sides: beyond a limit of three
    with applied(InputLimits(max_puzzles=limit)):
        with pytest.raises(TooLarge, match="the limit of one set") as caught:
            suites.items_of([suite])
    assert caught.value.path == suite and "NONOLAB_MAX_PUZZLES=N" in str(caught.value)
    if limit:
        monkeypatch.setenv("NONOLAB_MAX_PUZZLES", str(limit))
    result = CliRunner().invoke(cli, ["bench", suite, "-b", "native", "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and result.output.startswith(f"nonolab: error: {suite}: ") \
        and result.output.count("\n") == 1, result.output
    assert drawn == [] and not (tmp_path / "o").exists()


def test_a_generated_suite_within_the_set_limit_runs_and_first_bounds_what_is_built(monkeypatch):
    """The limit is the suite's count (or ``--first``'s, which is all that is built): at
    the limit it is built, one beyond it is refused."""
    from nonolab.bench.suites import items_of
    from nonolab.errors import TooLarge
    from nonolab.formats.limits import InputLimits, applied

    with applied(InputLimits(max_puzzles=3)):
        assert len(items_of(["random:3x3:3"])) == 3 and len(items_of(["random:3x3:100000000"], first=2)) == 2
        with pytest.raises(TooLarge):
            items_of(["random:3x3:4"])
        with pytest.raises(TooLarge):
            items_of(["ndom:2-5"])
    with pytest.raises(TooLarge, match="beyond the limit of 100,000,000 cells"):
        items_of(["ndom:100000000"])      # one puzzle, but its clues alone were 200 M tuples


def test_the_set_limit_holds_for_every_path_of_a_run_together(tmp_path, monkeypatch):
    """Each PATH under the set limit is no run under it: ``bench random:3x3:3 random:3x3:3``
    with a limit of 5 was 6 puzzles built and run.  Refused in one line naming the limit,
    before the second suite's first grid is drawn (counted by a spy); a set file is read no
    further than the limit; a folder's files count as they are met."""
    from click.testing import CliRunner

    from nonolab import generate
    from nonolab.bench.suites import items_of
    from nonolab.cli.main import cli
    from nonolab.errors import TooLarge

    drawn = []
    real = generate.random_grid
    monkeypatch.setattr(generate, "random_grid", lambda *a, **k: drawn.append(a) or real(*a, **k))
    monkeypatch.setenv("NONOLAB_MAX_PUZZLES", "5")
    result = CliRunner().invoke(cli, ["bench", "random:3x3:3", "random:3x3:3", "-b", "native",
                                      "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("nonolab: error: random:3x3:3: bench's PATHs hold 6 puzzles") \
        and "beyond 5, the limit of one set" in result.output and "NONOLAB_MAX_PUZZLES=N" in result.output
    assert len(drawn) == 3 and not (tmp_path / "o").exists()
    sets = tmp_path / "sets"
    sets.mkdir()
    for name in ("a.taai", "b.taai"):
        (sets / name).write_text("$1\n1\n1\n$2\n1\n1\n$3\n1\n1\n")
    # The limit of 5 from the environment, as each file's reader resolves it.
    assert len(items_of(["random:3x3:2", str(sets / "a.taai")])) == 5
    with pytest.raises(TooLarge, match=r"more puzzles than 5, the limit of one set, with this input \(3 before it\)") \
            as caught:
        items_of([str(sets / "a.taai"), str(sets / "b.taai")])
    assert caught.value.path == str(sets / "b.taai") and caught.value.line == 7   # $3: read no further
    with pytest.raises(TooLarge, match="the limit of one set") as caught:
        items_of([str(sets)])                                 # a folder: refused, not its file skipped
    assert caught.value.path == str(sets / "b.taai")
    with pytest.raises(TooLarge, match="the limit of one set"):
        items_of([str(Path(SWITCH).parents[1] / "hakank"), "ndom:2-3"])   # six files, then a suite of two
    assert len(items_of(["random:3x3:100", "random:3x3:100"], first=2)) == 4   # --first's counts
