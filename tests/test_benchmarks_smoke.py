"""Smoke runs of ``python -m benchmarks.run``: every suite, two puzzles, into tmp_path."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"

if str(REPO) not in sys.path:  # `benchmarks` is a top-level folder of the repository
    sys.path.insert(0, str(REPO))

from benchmarks import run  # noqa: E402
from benchmarks.run import FIELDS, MEMORY_FIELDS  # noqa: E402

needs_corpus = pytest.mark.skipif(not (CORPUS / "index.csv").exists(),
                                  reason="../shared/corpus is not beside the repository")


def _run(tmp_path, suite: str, *extra: str) -> tuple[int, list[dict]]:
    code = run.main([suite, "--limit", "2", "--backends", "native", "--time-limit", "20",
                     "--out", str(tmp_path), *extra])
    with (tmp_path / f"{suite}.csv").open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        rows = list(reader)
        assert reader.fieldnames == FIELDS + (MEMORY_FIELDS if suite == "large" else [])
    assert (tmp_path / f"{suite}.md").read_text(encoding="utf-8").startswith(f"### `{suite}`")
    return code, rows


@pytest.mark.parametrize("suite", [
    pytest.param("corpus", marks=needs_corpus),
    pytest.param("survey", marks=needs_corpus),
    "random30",
    "taai25",
])
def test_in_process_suites(tmp_path, suite):
    code, rows = _run(tmp_path, suite)
    assert code == 0
    assert len(rows) == 2 and len({r["puzzle"] for r in rows}) == 2
    for r in rows:
        assert r["suite"] == suite and r["backend"] == "native" and r["repeat"] == "1"
        assert r["status"] in ("solved", "unsat", "timeout") and r["error"] == ""
        assert float(r["time"]) >= 0 and r["size"].count("x") == 1
    if suite == "taai25":  # first solution only
        assert all(r["count"] == "1" for r in rows)


def test_conflicts_and_the_race_winner_are_columns(tmp_path):
    code = run.main(["random30", "--limit", "2", "--backends", "lcg,native,auto:native_budget=0",
                     "--time-limit", "20", "--out", str(tmp_path)])
    assert code == 0
    with (tmp_path / "random30.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    by_backend = {b: [r for r in rows if r["backend"] == b] for b in ("lcg", "native", "auto:native_budget=0")}
    assert all(int(r["conflicts"]) >= 0 for r in by_backend["lcg"])   # lcg reports them
    assert all(r["conflicts"] == "" for r in by_backend["native"])    # native learns nothing
    for row in by_backend["auto:native_budget=0"]:  # an engine's answer comes with its conflicts
        assert row["winner"] in ("", "native", "lcg", "cpsat")
        assert (row["conflicts"] != "") == (row["winner"] in ("lcg", "cpsat"))
    text = (tmp_path / "random30.md").read_text(encoding="utf-8")
    assert f"{int(by_backend['lcg'][0]['conflicts']):,} c)" in text


def test_large_suite_runs_children_and_records_memory(tmp_path):
    code, rows = _run(tmp_path, "large", "--sizes", "30,40", "--repeat", "2")
    assert code == 0
    assert [(r["puzzle"], r["repeat"]) for r in rows] == [
        ("smooth-30x30", "1"), ("smooth-30x30", "2"), ("smooth-40x40", "1"), ("smooth-40x40", "2")]
    for r in rows:
        assert r["status"] == "solved", r["error"]
        assert float(r["peak_rss_mb"]) >= float(r["rss_before_mb"]) > 10
    assert "peak MB" in (tmp_path / "large.md").read_text(encoding="utf-8")


class _Flaky:
    """The native solver, except that it raises on some puzzles."""

    name = "flaky"

    def __init__(self, fail_on: dict):
        from nonolab.solvers.native import NativeSolver
        self.inner = NativeSolver()
        self.fail_on = fail_on

    def solve(self, puzzle, limits):
        if puzzle.name in self.fail_on:
            raise self.fail_on[puzzle.name]
        return self.inner.solve(puzzle, limits)


def test_an_error_is_a_row_and_ctrl_c_keeps_what_was_measured(tmp_path, monkeypatch):
    flaky = _Flaky({"r30-0002": ValueError("broken\nbackend"), "r30-0003": KeyboardInterrupt()})
    monkeypatch.setattr(run, "get_spec", lambda spec: flaky)
    for name in [m for m in sys.modules if m.split(".")[0] == "matplotlib"] + ["matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)  # no matplotlib: the chart is skipped
    code = run.main(["random30", "--limit", "5", "--backends", "flaky", "--out", str(tmp_path)])
    assert code == 130
    rows = list(csv.DictReader((tmp_path / "random30.csv").open(encoding="utf-8", newline="")))
    assert [(r["puzzle"], r["status"]) for r in rows] == [("r30-0001", "solved"), ("r30-0002", "error")]
    assert rows[1]["error"] == "ValueError: broken backend" and rows[1]["verdict"] == "error"
    text = (tmp_path / "random30.md").read_text(encoding="utf-8")
    assert "**interrupted**" in text and "ValueError: broken backend" in text
    assert not (tmp_path / "random30.png").exists()


def test_an_unknown_backend_is_a_usage_error(tmp_path, capsys):
    assert run.main(["random30", "--backends", "nosuch", "--out", str(tmp_path)]) == 2
    assert "nosuch" in capsys.readouterr().err


def test_generate_unique_smoke(tmp_path):
    from benchmarks import generate_unique

    assert generate_unique.main(["--count", "2", "--sample", "1", "--time-limit", "20", "--out", str(tmp_path)]) == 0
    with (tmp_path / "generate_unique.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * len(generate_unique.PROVEN_SETS)
    assert all(row[f"{b}_verdict"] == "unique" for row in rows for b in generate_unique.BACKENDS)
    assert "| noise-0.5 | cnf | 2 | 0 |" in (tmp_path / "generate_unique.md").read_text(encoding="utf-8")


def test_strategy_specs_and_the_skip_rule(tmp_path):
    # Backends named by spec: each spec is its own column; an unknown option value is a usage error.
    code = run.main(["random30", "--limit", "2", "--strategies", "native:line=chain-range,native",
                     "--time-limit", "20", "--out", str(tmp_path), "--name", "specs"])
    rows = list(csv.DictReader((tmp_path / "specs.csv").open(encoding="utf-8", newline="")))
    assert code == 0
    assert [r["backend"] for r in rows] == ["native:line=chain-range", "native"] * 2
    assert "| native:line=chain-range | 2 | 2 |" in (tmp_path / "specs.md").read_text(encoding="utf-8")
    assert run.main(["random30", "--limit", "1", "--strategies", "native:line=bogus", "--out", str(tmp_path)]) == 2


@needs_corpus
def test_corpus30_is_by_size_and_skips_larger_puzzles_after_a_timeout(tmp_path):
    code = run.main(["corpus30", "--limit", "12", "--strategies", "native,dlx", "--time-limit", "1e-9",
                     "--skip-larger", "1", "--out", str(tmp_path)])
    rows = list(csv.DictReader((tmp_path / "corpus30.csv").open(encoding="utf-8", newline="")))
    def cells(row):
        width, height = row["size"].split("x")
        return int(width) * int(height)

    sizes = [cells(r) for r in rows[::2]]
    assert sizes == sorted(sizes) and max(sizes) <= 900
    for backend in ("native", "dlx"):
        failed = []  # the puzzles this backend did not finish so far
        for r in (r for r in rows if r["backend"] == backend):
            skip = any(f < cells(r) for f in failed)
            assert (r["status"] == "skipped") == skip, (backend, r)
            if r["status"] == "timeout":
                failed.append(cells(r))
    assert any(r["status"] == "skipped" for r in rows)
    assert code == 0
    assert "`skipped`: not run" in (tmp_path / "corpus30.md").read_text(encoding="utf-8")


@needs_corpus
def test_only_keeps_the_puzzles_whose_name_matches(tmp_path):
    code = run.main(["survey", "--only", "*-cat.non,*-edge.non", "--strategies", "native", "--time-limit", "20",
                     "--out", str(tmp_path), "--name", "only"])
    rows = list(csv.DictReader((tmp_path / "only.csv").open(encoding="utf-8", newline="")))
    assert code == 0
    assert sorted(r["puzzle"].rsplit("/", 1)[-1] for r in rows) == ["webpbn-00006-cat.non", "webpbn-00023-edge.non"]


def test_line_speed_measures_the_compiled_line_solver():
    from benchmarks import line_speed
    ns_per_cell, us_per_line = line_speed.measure(30, 0.5, lines=3, work=300)
    assert 0 < ns_per_cell and 0 < us_per_line


@needs_corpus
@pytest.mark.parametrize("script, table", [
    ("check_corpus", "check_corpus.csv"),
    ("grade_corpus", "grade_corpus.csv"),
    ("verify_corpus", "verify_corpus.csv"),
])
def test_corpus_scripts_run_on_one_folder(tmp_path, monkeypatch, script, table):
    import importlib
    module = importlib.import_module(f"benchmarks.{script}")
    monkeypatch.setattr(module, "OUT", tmp_path)
    assert module.main(["--only", "cgi-lab", "--time-limit", "20"]) == 0
    with (tmp_path / table).open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [Path(r[next(iter(r))]).parent.name for r in rows] == ["cgi-lab"]
    assert "multiple" in (tmp_path / table).read_text(encoding="utf-8")
    report = (tmp_path / table.replace(".csv", ".md")).read_text(encoding="utf-8")
    assert f"Command: `python -m benchmarks.{script} --only cgi-lab --time-limit 20`" in report


def test_sizes_prints_one_row_per_side(capsys):
    from benchmarks import sizes
    assert sizes.main(["--backends", "native", "--sizes", "5,6", "--count", "2", "--time-limit", "10"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| native")]
    assert [row.split("|")[2].strip() for row in rows] == ["5", "6"]
    assert all("2/2" in row for row in rows)


def test_ndom_suite_counts_its_unique_puzzles(tmp_path):
    code, rows = _run(tmp_path, "ndom", "--sizes", "3,5")
    assert code == 0
    assert [(r["puzzle"], r["size"], r["status"], r["count"], r["complete"]) for r in rows] == [
        ("3-dom", "7x7", "solved", "1", "True"), ("5-dom", "11x11", "solved", "1", "True")]


@needs_corpus
def test_n_dom_for_nine_is_wolters_9_dom():
    from benchmarks.suites import n_dom
    from nonolab.formats import load
    assert n_dom(9) == load(CORPUS / "webpbn-survey" / "webpbn-08098-9-dom.non")


def test_startup_times_whole_processes_and_writes_csv_and_json(tmp_path, capsys):
    from benchmarks import startup

    out = tmp_path / "startup"
    assert startup.main(["--runs", "1", "--large", "60", "--large-runs", "1", "--out", str(out)]) == 0
    with out.with_suffix(".csv").open(encoding="utf-8", newline="") as fh:
        rows = {row["case"]: row for row in csv.DictReader(fh)}
    assert rows["nonolab check (20x20)"]["answer"] == "unique"
    assert rows["nonolab --help"]["answer"].startswith("Usage:")
    large = rows["smooth-60x60: nonolab check -b native"]
    assert large["answer"] in ("unique", "multiple") and float(large["in_process_s"]) > 0
    assert all(float(row["median_s"]) > 0 for row in rows.values())
    assert "| nonolab check (20x20) | 1 |" in capsys.readouterr().out
    assert len(json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["rows"]) == len(rows)


def test_lcg_ab_solves_each_puzzle_with_each_version_and_spec(tmp_path, capsys):
    import nonolab
    from benchmarks import lcg_ab

    installed = Path(nonolab.__file__).resolve().parents[1]  # a tree with its compiled engines
    out = tmp_path / "ab.csv"
    assert lcg_ab.main([str(installed), "--new", str(installed), "--new-specs", "lcg,lcg:phases=saved",
                        "--ndom", "5,6", "--time-limit", "20", "--out", str(out)]) == 0
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["puzzle"], r["version"], r["spec"]) for r in rows] == [
        ("5-dom", "base", "lcg"), ("5-dom", "new", "lcg"), ("5-dom", "new", "lcg:phases=saved"),
        ("6-dom", "new", "lcg:phases=saved"), ("6-dom", "new", "lcg"), ("6-dom", "base", "lcg")]
    assert all(r["status"] == "solved" and r["count"] == "1" and int(r["conflicts"]) >= 0 for r in rows)
    # The same tree and spec twice: the same deterministic search.
    assert rows[0]["conflicts"] == rows[1]["conflicts"]
    table = capsys.readouterr().out
    assert "| puzzle | base lcg | new lcg | new lcg:phases=saved |" in table and "| 6-dom |" in table


def test_startup_runs_a_base_tree_in_turn_with_this_one(tmp_path):
    import nonolab
    from benchmarks import startup

    # The installed package as the base: a source checkout's src/ has no compiled engines
    # unless it was built in place (CI installs with `pip install .`).
    installed = Path(nonolab.__file__).resolve().parents[1]
    out = tmp_path / "startup"
    assert startup.main(["--runs", "2", "--large", "40", "--large-runs", "2", "--base", str(installed),
                         "--out", str(out)]) == 0
    with out.with_suffix(".csv").open(encoding="utf-8", newline="") as fh:
        rows = {row["case"]: row for row in csv.DictReader(fh)}
    for case in ("nonolab --help", "nonolab check (20x20)", "smooth-40x40: nonolab check -b native"):
        assert rows[f"{case} [base]"]["answer"] == rows[case]["answer"] and rows[f"{case} [base]"]["runs"] == "2"
    assert rows["smooth-40x40: nonolab check -b native"]["in_process_s"]


def test_measure_together_rotates_the_order_each_round(monkeypatch):
    from benchmarks import startup

    order = []
    monkeypatch.setattr(startup, "_wall", lambda command, env: (order.append(command[0]) or 1.0, command[0], 0.5))
    rows = startup.measure_together([("a", ["a"], None), ("b", ["b"], None), ("c", ["c"], None)], 3)
    assert order[3:] == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]     # after one untimed run each
    assert [r["answer"] for r in rows] == ["a", "b", "c"] and all(r["runs"] == 3 for r in rows)


def test_ab_child_solves_the_warm_up_and_the_large_squares(tmp_path):
    from benchmarks.ab import run_child

    rows = run_child(REPO / "src", "", 20, "30,40", tmp_path)
    assert [(r["suite"], r["puzzle"]) for r in rows] == [
        ("warmup", "warm-up"), ("large", "smooth-30x30"), ("large", "smooth-40x40")]
    assert all(r["status"] == "solved" for r in rows[1:])


def test_ab_summary_takes_the_fastest_round_and_leaves_out_timeouts():
    from benchmarks.ab import summarise

    def rows(warm, times, status=("solved", "solved")):
        return [{"suite": "warmup", "puzzle": "warm-up", "time": warm}] + [
            {"suite": "corpus", "puzzle": name, "time": t, "status": s}
            for name, t, s in zip(("a", "b"), times, status)]

    rounds = {"base": [rows(60.0, (1.0, 2.0)), rows(1.0, (3.0, 9.0))],
              "new": [rows(30.0, (2.0, 8.0), ("solved", "timeout")), rows(0.5, (1.5, 1.0))]}
    text = "\n".join(summarise(rounds))
    assert "| 60.0 s | 30.0 s | 0.500 |" in text  # the first process compiles
    assert "| 1.00 s | 0.50 s | 0.500 |" in text  # later ones load the cache
    # b timed out once in new: left out; a: fastest of each, 1.0 against 1.5
    assert "corpus: 1 puzzles finished by both (sum of fastest times) | 1.00 s | 1.50 s | 1.500" in text
    assert "left out (a timeout in some round) | 1 |" in text


def test_ab_summary_of_cold_processes_reports_the_fastest_compile():
    from benchmarks.ab import summarise

    def warm(wall, cpu):
        return [{"suite": "warmup", "puzzle": "warm-up", "time": wall, "cpu": cpu}]

    rounds = {"base": [warm(90.0, 60.0), warm(70.0, 50.0)], "new": [warm(80.0, 55.0), warm(140.0, 75.0)]}
    text = "\n".join(summarise(rounds, cold=True))
    assert "wall time (fastest of 2) | 70.0 s | 80.0 s | 1.143 |" in text
    assert "CPU time (fastest of 2) | 50.0 s | 55.0 s | 1.100 |" in text
    assert "later processes" not in text
