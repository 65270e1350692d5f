"""Limits on the solver side: size guards, the clock, cancels and SIGINT.

* Model-building backends refuse a model beyond their ``max_states`` before building
  any of it, naming the size, the limit and the native backend; ``auto`` never hands
  such a puzzle over.
* The clock covers everything inside ``solve`` (the CNF encoding included), and the
  default backend keeps under 1.5 GB with a 10 s limit on a blank 5000x5000 grid and a
  generated 2000x2000 one.
* ``Limits.cancel`` stops every backend with ``INTERRUPTED``; SIGINT while a solver
  library runs never aborts the process.

No test here times anything (a busy machine failed them for nothing, issue 23): each
asserts what the limit or the cancel did (the status, work not done, memory not used);
how soon is measured in ``benchmarks/``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from nonolab.core import Puzzle
from nonolab.errors import BackendUnavailable, TooLarge
from nonolab.formats import load
from nonolab.solvers import DEFAULT, Limits, Status, get, names
from nonolab.solvers.size import model_states

import nonolab  # noqa: E402

# Subprocesses import the very package this process imported (site-packages after
# `pip install .`, src/ in an editable install), with its compiled engine caches and extensions.
INSTALLED = Path(nonolab.__file__).resolve().parents[1]

SRC = INSTALLED
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "webpbn-survey"
GETTYS = CORPUS / "webpbn-22336-gettys.non"
needs_corpus = pytest.mark.skipif(not GETTYS.exists(), reason="../shared/corpus is not here")


def _loads(name: str) -> bool:
    try:
        get(name)
    except BackendUnavailable:
        return False
    return True


# The backends that declare a size guard: found from their declarations, not by name.
GUARDED = [n for n in names() if _loads(n) and hasattr(get(n), "max_states")]


def _diagonal(n: int) -> Puzzle:
    """n rows and columns of one single block each: 4n^2 line states, n! solutions."""
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


# --- size guards ---------------------------------------------------------------------

def test_the_model_size_counts_cells_and_line_states():
    assert model_states(Puzzle(rows=((),) * 5000, columns=((),) * 5000)) == 25_000_000
    assert model_states(_diagonal(10)) == 100 + 20 * (2 * 10)


def test_the_model_size_of_touching_colour_blocks_is_their_length():
    # A 1x3 row of three blocks of 1, red, blue, red: they fill the row with no gap
    # (M = 3, one state per position: 4); each column holds one block of 1 (2 x 1 each).
    # It once counted a gap between every two blocks (M = 5 > 3): the row's share came
    # out at -6 and the whole at 3, under the model's cells.
    from nonolab.core import Palette
    puzzle = Puzzle(rows=((1, 1, 1),), columns=((1,), (1,), (1,)), row_colours=((1, 2, 1),),
                    column_colours=((1,), (2,), (1,)), palette=Palette.default_for(2))
    assert model_states(puzzle) == 3 + 4 * 1 + 3 * (2 * 1)
    # Two red blocks in a row of three need the gap between them (M = 3: 4 states).
    same = Puzzle(rows=((1, 1),), columns=((1,), (), (1,)), row_colours=((1, 1),),
                  column_colours=((1,), (), (1,)), palette=Palette.default_for(2))
    assert model_states(same) == 3 + 4 * 1 + 2 * (2 * 1)
    with pytest.raises(TooLarge):
        get("cpsat", max_states=1).solve(puzzle)


@pytest.mark.parametrize("name", GUARDED)
def test_model_building_backends_refuse_a_huge_model_at_once(name):
    import tracemalloc

    solver, puzzle = get(name), _diagonal(3000)
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge) as err:
            solver.solve(puzzle, Limits())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2 ** 20          # refused before any of the model was built (bounded work, not time)
    message = str(err.value)
    assert f"backend {name!r}" in message and "3000x3000" in message and "-b native" in message
    assert f"{get(name).max_states:,}" in message


@pytest.mark.parametrize("name", GUARDED)
def test_max_states_raises_the_limit(name):
    puzzle = _diagonal(300)  # 369,000 states: beyond the baselines' default guard
    solver = get(name, max_states=str(model_states(puzzle)))
    result = solver.solve(puzzle, Limits(time_limit=0.5))
    assert result.status in (Status.SOLVED, Status.TIMEOUT)


def test_auto_never_hands_a_too_large_puzzle_over():
    result = get("auto", native_budget=0).solve(Puzzle(rows=((),) * 2500, columns=((),) * 2500),
                                                Limits(time_limit=20))
    assert result.stats.counters["phase"] == "native" and "refused" in result.stats.counters["handoff"]
    assert result.unique


# --- the clock -----------------------------------------------------------------------

@pytest.mark.skipif(not _loads("cnf"), reason="python-sat is not installed")
def test_cnf_encoding_counts_against_the_time_limit():
    # 80x80, every line 20 single blocks: about 1.6 million clauses, seconds to encode.
    puzzle = Puzzle(rows=((1,) * 20,) * 80, columns=((1,) * 20,) * 80)
    result = get("cnf").solve(puzzle, Limits(time_limit=0.3))
    assert result.status is Status.TIMEOUT
    assert "clauses" not in result.stats.counters          # cut while encoding: no clause reached a solver


_BIG_RUN = """
import resource, sys, time
from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers import DEFAULT, Limits, get
puzzle = Puzzle(rows=((),) * 5000, columns=((),) * 5000) if sys.argv[1] == "blank" else load(sys.argv[1])
result = get(DEFAULT).solve(puzzle, Limits(time_limit=10))
try:   # this process's own peak: ru_maxrss keeps the parent's peak across fork and exec (Linux)
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(result.status.value, peak)
"""


def _run_big(what: str) -> tuple[str, int]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", _BIG_RUN, what], capture_output=True, text=True, env=env,
                          timeout=300)   # a hang guard: the limit inside is 10 s
    assert done.returncode == 0, done.stderr
    status, peak_kb = done.stdout.split()
    return status, int(peak_kb)


def test_the_default_backend_on_a_blank_5000x5000_grid_keeps_its_limits():
    status, peak_kb = _run_big("blank")
    assert status in ("solved", "timeout") and peak_kb < 1.5 * 2**20


def test_the_default_backend_on_a_generated_2000x2000_puzzle_keeps_its_limits(tmp_path):
    path = tmp_path / "big.non"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    with open(path, "w") as out:
        subprocess.run([sys.executable, "-m", "nonolab", "generate", "--size", "2000x2000", "--seed", "1",
                        "--style", "smooth"], stdout=out, stderr=subprocess.DEVNULL, env=env, check=True,
                       timeout=120)
    status, peak_kb = _run_big(str(path))
    assert status in ("solved", "timeout") and peak_kb < 1.5 * 2**20


# --- cancel --------------------------------------------------------------------------

@needs_corpus
@pytest.mark.parametrize("name", ["native", "cpsat", "cnf", DEFAULT])
def test_a_cancel_stops_a_hard_search(name):
    if not _loads(name):
        pytest.skip(f"{name} cannot load here")
    puzzle = load(GETTYS)
    solver = get(name)
    cancel = threading.Event()
    timer = threading.Timer(0.5, cancel.set)
    timer.start()
    try:
        result = solver.solve(puzzle, Limits(max_solutions=None, cancel=cancel))
    finally:
        timer.cancel()
    assert result.status is Status.INTERRUPTED and not result.complete   # Gettys alone takes minutes


@needs_corpus
@pytest.mark.parametrize("name", ["native", "cpsat", "cnf"])
def test_a_deadline_is_a_timeout_not_an_interrupt(name):
    if not _loads(name):
        pytest.skip(f"{name} cannot load here")
    result = get(name).solve(load(GETTYS), Limits(max_solutions=None, time_limit=0.3, cancel=threading.Event()))
    assert result.status is Status.TIMEOUT


# --- SIGINT in a process running a solver library -------------------------------------

_SIGINT_RUN = """
import signal, sys, threading
from nonolab.formats import load
from nonolab.solvers import Limits, get
cancel = threading.Event()
signal.signal(signal.SIGINT, lambda *_: cancel.set())
solver, puzzle, box = get(sys.argv[1]), load(sys.argv[2]), {}
if sys.argv[3] == "main":      # the solve in the main thread: the handler runs between its waits
    box["result"] = solver.solve(puzzle, Limits(max_solutions=None, cancel=cancel))
else:                          # the CLI's way: a worker solves, the main thread waits
    worker = threading.Thread(target=lambda: box.update(result=solver.solve(
        puzzle, Limits(max_solutions=None, cancel=cancel))))
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
print("ready" if "result" not in box else box["result"].status.value, flush=True)
"""


@needs_corpus
@pytest.mark.parametrize("name, thread", [("cpsat", "worker"), ("cnf", "worker"), ("cnf", "main"),
                                          (DEFAULT, "worker")])
def test_sigint_during_a_solver_library_never_aborts(name, thread):
    if not _loads(name):
        pytest.skip(f"{name} cannot load here")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen([sys.executable, "-c", _SIGINT_RUN, name, str(GETTYS), thread],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(4)  # imports, then well into the search (auto hands over after 0.5 s)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=120)    # a hang guard
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 0, err
    assert "terminate called" not in err and "Traceback" not in err and "invalid state" not in err
    assert out.strip() == "interrupted"


def test_verify_does_not_count_a_size_refusal_as_a_disagreement():
    from nonolab.harness.crosscheck import crosscheck

    # Blank 1000x1000: native proves it unique at once; its one million cells are beyond dlx's guard.
    puzzle = Puzzle(rows=((),) * 1000, columns=((),) * 1000)
    check = crosscheck(puzzle, ["native", "dlx"])
    refused = {a.backend for a in check.answers if a.refused}
    assert refused == {"dlx"} and check.agree and check.consensus().value == "unique"


@pytest.mark.skipif(not _loads("cnf"), reason="python-sat is not installed")
def test_a_cnf_session_encodes_inside_the_first_calls_clock():
    puzzle = Puzzle(rows=((1,) * 20,) * 80, columns=((1,) * 20,) * 80)  # seconds to encode
    with get("cnf").session(puzzle) as session:
        cancel = threading.Event()
        threading.Timer(0.2, cancel.set).start()
        result = session.solve(Limits(cancel=cancel))
        assert result.status is Status.INTERRUPTED and result.count == 0    # cut while it encoded
        assert session.solve(Limits(max_solutions=1)).count == 1  # the next call builds it and answers


@needs_corpus
@pytest.mark.skipif(not _loads("cnf"), reason="python-sat is not installed")
def test_a_cancel_stops_an_ambiguity_report():
    from nonolab.harness.ambiguity import ambiguity_report
    from nonolab.harness.uniqueness import Verdict

    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    report = ambiguity_report(load(GETTYS), cancel=cancel)
    assert report.verdict is Verdict.INTERRUPTED and not report.complete


def test_the_harness_passes_a_cancel_to_every_solve():
    from nonolab.harness.classify import grade
    from nonolab.harness.crosscheck import crosscheck
    from nonolab.harness.uniqueness import Verdict, check, count

    puzzle = _diagonal(12)  # 12! solutions: nothing finishes a count on its own
    cancel = threading.Event()
    cancel.set()
    assert check(puzzle, get("native"), cancel=cancel).verdict is Verdict.INTERRUPTED
    counted = count(puzzle, get("native"), None, cancel=cancel)
    assert counted.reason == "interrupted" and not counted.exact
    assert grade(puzzle, cancel=cancel).verdict == Verdict.INTERRUPTED.value
    answers = crosscheck(puzzle, ["native"], max_solutions=None, cancel=cancel).answers
    assert [a.result.status for a in answers] == [Status.INTERRUPTED]


@needs_corpus
@pytest.mark.parametrize("cdcl, rival", [("cpsat", "native"), ("cnf", "native"), ("lcg", "cpsat"),
                                         ("lcg", "cnf:solver=kissat404")])
def test_a_cancel_stops_both_parts_of_auto(cdcl, rival):
    if not (_loads("auto") and _loads(cdcl)):
        pytest.skip(f"auto with {cdcl} cannot load here")
    cancel = threading.Event()
    threading.Timer(0.8, cancel.set).start()
    # handoff_by=0: the hand-off at once, not at the end of Gettys' root probing (0.5-2 s);
    # solo_side=0: native's path (lcg alone settles Gettys, 99x59, within the second;
    # test_auto_solo stops the solo path).
    result = get("auto", cdcl=cdcl, rival=rival, native_budget=0, handoff_by=0, solo_side=0).solve(
        load(GETTYS), Limits(max_solutions=None, cancel=cancel))
    assert result.status is Status.INTERRUPTED and "native+" in result.stats.counters["phase"]
    # The other parts were told to stop too: they are gone soon after (CP-SAT takes up to
    # 0.45 s to stop on a quiet machine, more on a loaded one: waited for up to a hang guard).
    deadline = time.perf_counter() + 60.0
    while [t for t in threading.enumerate() if t.name.startswith("nonolab-auto-")] and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert not [t for t in threading.enumerate() if t.name.startswith("nonolab-auto-")]
