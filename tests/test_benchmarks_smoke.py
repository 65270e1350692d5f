"""Smoke runs of the benchmark scripts: the named suites (``nonolab bench``), and the others, on a few puzzles."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"

if str(REPO) not in sys.path:  # `benchmarks` is a top-level folder of the repository
    sys.path.insert(0, str(REPO))

from benchmarks import run  # noqa: E402
from benchmarks.suites import SUITES  # noqa: E402

needs_corpus = pytest.mark.skipif(not (CORPUS / "index.csv").exists(),
                                  reason="../shared/corpus is not beside the repository")


def test_a_named_suite_is_nonolab_bench_with_its_paths_and_defaults(tmp_path):
    out = tmp_path / "b"
    assert run.main(["random30", "--first", "2", "--backends", "native", "--time-limit", "20",
                     "--out", str(out)]) == 0
    with (out / "runs.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["puzzle"] for r in rows] == ["random-30x30-0001", "random-30x30-0002"]
    assert all(r["verdict"] in ("unique", "multiple") for r in rows)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["settings"]["isolate"] == "worker"  # the suite's default
    assert summary["settings"]["time_limit"] == 20.0   # the caller's option wins


def test_every_named_suite_names_paths_the_library_reads():
    from nonolab.bench.suites import items_of

    for name, suite in SUITES.items():
        if suite.needs_shared and not CORPUS.exists():
            continue
        assert items_of(suite.paths, first=1), name


def test_an_unknown_suite_lists_the_suites(capsys):
    assert run.main(["nosuch"]) == 2
    assert "random30" in capsys.readouterr().out


def test_random30_is_the_same_puzzles_as_before_the_library():
    # The puzzles of benchmarks' random30 (seed 30, puzzle i seeded 30_000_000 + i), so the
    # figures of earlier sessions stay comparable.
    from nonolab.bench.suites import items_of
    from nonolab.generate import puzzle_from_array, random_grid

    first = items_of(["random:30x30:2"])[1].puzzle
    assert first.rows == puzzle_from_array(random_grid(30, 30, 0.5, seed=30_000_001)).rows


def test_generate_unique_smoke(tmp_path):
    from benchmarks import generate_unique

    assert generate_unique.main(["--count", "2", "--sample", "1", "--time-limit", "20", "--out", str(tmp_path)]) == 0
    with (tmp_path / "generate_unique.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * len(generate_unique.PROVEN_SETS)
    assert all(row[f"{b}_verdict"] == "unique" for row in rows for b in generate_unique.BACKENDS)
    assert "| noise-0.5 | cnf | 2 | 0 |" in (tmp_path / "generate_unique.md").read_text(encoding="utf-8")


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


def test_ndom_suite_counts_its_unique_puzzles():
    from nonolab.bench import run as bench

    rows = bench(["ndom:3,5"], ["native"], time_limit=20, isolate="worker").records
    assert [(r["puzzle"], r["width"], r["verdict"], r["count"], r["exact"]) for r in rows] == [
        ("3-dom", 7, "unique", 1, True), ("5-dom", 11, "unique", 1, True)]


@needs_corpus
def test_n_dom_for_nine_is_wolters_9_dom():
    from nonolab.bench.suites import n_dom
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


def test_measure_together_rotates_the_order_each_round(monkeypatch):
    from benchmarks import startup

    order = []
    monkeypatch.setattr(startup, "_wall", lambda command, env: (order.append(command[0]) or 1.0, command[0], 0.5))
    rows = startup.measure_together([("a", ["a"], None), ("b", ["b"], None), ("c", ["c"], None)], 3)
    assert order[3:] == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]     # after one untimed run each
    assert [r["answer"] for r in rows] == ["a", "b", "c"] and all(r["runs"] == 3 for r in rows)


NONOSOLVE = Path(os.environ.get("NONOSOLVE", "/work/peers/bin/nonosolve"))  # as benchmarks/peers.py finds it


@pytest.mark.skipif(not NONOSOLVE.exists(), reason="nonosolve is not built here (see benchmarks/peers.py)")
def test_peers_runs_both_solvers_on_a_set_and_on_files(tmp_path, monkeypatch):
    from benchmarks import peers
    from nonolab.formats import dumps_all, load

    # A two-puzzle TAAI set (shipped puzzles) as the tournament folder: the whole set in
    # one process each, every answer checked against the clues.
    files = [str(REPO / "puzzles" / "webpbn" / "webpbn-00006-cat.non"), str(REPO / "puzzles" / "hakank" / "simple2.non")]
    puzzles = [load(f) for f in files]
    (tmp_path / "tiny.txt").write_text(dumps_all(puzzles, "taai"), encoding="utf-8")
    monkeypatch.setattr(peers, "TOURNAMENT", tmp_path)
    monkeypatch.setattr(peers, "NONOSOLVE", NONOSOLVE)
    rows = peers.tournament(["tiny"], "check", 1, "auto", tmp_path / "out")
    (row,) = rows
    assert row["nonosolve_wrong"] == row["nonolab_wrong"] == 0 and row["nonolab_unsolved"] == 0
    assert row["nonosolve_multiple"] == row["nonolab_multiple"] == 1  # simple2: two solutions
    assert row["verdicts_differ"] == 0 and row["nonolab_over2_wall"] == 0
    assert (tmp_path / "out" / "peers-tournament-check.csv").exists()
    assert (tmp_path / "out" / "peers-tournament-check-slow.csv").exists()   # header only: none over 1 s
    assert "**" in peers.report(rows, "tournament")
    rows = peers.puzzles_side_by_side(files, "check", 20, "auto", tmp_path / "out")
    answers = [(r["nonosolve_answer"], r["nonolab_answer"]) for r in rows]
    assert answers == [("unique", "unique"), ("multiple", "multiple")]


def test_peers_lists_each_puzzle_over_a_second_for_either_solver_with_both_times_and_verdicts():
    from benchmarks import peers

    verdicts = {"1": "unique", "2": "multiple", "10": "unique"}
    got = {"nonosolve": {"times": {"1": 0.01, "2": 2.5, "10": 0.2}, "verdicts": verdicts},
           "nonolab": {"times": {"1": 0.02, "2": 0.3, "10": 1.4}, "verdicts": verdicts}}
    slow = peers._slow_puzzles("s", 0, got, "check")
    assert [(e["puzzle"], e["nonosolve_wall"], e["nonolab_wall"]) for e in slow] == [("2", 2.5, 0.3), ("10", 0.2, 1.4)]
    assert slow[0]["nonosolve_verdict"] == slow[0]["nonolab_verdict"] == "multiple"
    assert "nonolab_verdict" not in peers._slow_puzzles("s", 0, got, "first")[0]
    row = {"set": "s", "round": 0, "load_start": 1.0, "load": 2.0, "ratio_cpu": 0.5}
    for solver, cpu in (("nonosolve", 2.0), ("nonolab", 1.0)):
        row.update({f"{solver}_cpu": cpu, f"{solver}_median_wall": 0.01, f"{solver}_over1_wall": 1,
                    f"{solver}_over2_wall": 1, f"{solver}_max_wall": 2.5, f"{solver}_slowest": "2"})
    assert "| 1 / 1 | 2.5 (#2) / 2.5 (#2) |" in peers.report([row], "tournament")


def test_batch_throughput_runs_both_versions_and_compares_their_verdicts(capsys):
    from benchmarks import batch_throughput

    batch_throughput.main(["--before", sys.executable, "--sizes", "4", "--counts", "4:2/5", "--rounds", "1"])
    out = capsys.readouterr().out
    assert out.count("| 4x4 | before | 1 |") == 1 and out.count("| 4x4 | after | 1 |") == 1
    assert "verdicts of 5 (same in both)" in out


def test_tail_scans_a_set_per_puzzle_and_compares_specs(tmp_path, monkeypatch, capsys):
    from benchmarks import tail
    from nonolab.formats import dumps_all, load

    files = [REPO / "puzzles" / "webpbn" / "webpbn-00006-cat.non", REPO / "puzzles" / "hakank" / "simple2.non"]
    (tmp_path / "tiny.txt").write_text(dumps_all([load(str(f)) for f in files], "taai"), encoding="utf-8")
    monkeypatch.setattr(tail, "TOURNAMENT", tmp_path)
    tail.scan(["tiny"], "lcg", "check", 20, tmp_path / "scan.csv")
    with (tmp_path / "scan.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["solutions"] for r in rows] == ["1", "2"]  # cat is unique, simple2 has two solutions
    assert all(r["conflicts"] != "" and float(r["cpu"]) >= 0 for r in rows)
    capsys.readouterr()
    tail.ab(["lcg", "lcg:hint_rounds=0"], ["tiny:2"], "first", 2, 20)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["round"], r["spec"]) for r in lines[:-1]] == [(0, "lcg"), (0, "lcg:hint_rounds=0"),
                                                             (1, "lcg:hint_rounds=0"), (1, "lcg")]
    assert set(lines[-1]["total_cpu"]) == {"lcg", "lcg:hint_rounds=0"}


@pytest.mark.skipif(not NONOSOLVE.exists(), reason="nonosolve is not built here (see benchmarks/peers.py)")
def test_easy_times_each_puzzle_of_a_set_prefix_for_both_solvers(tmp_path, monkeypatch):
    from benchmarks import easy
    from nonolab.formats import dumps_all, load

    files = [REPO / "puzzles" / "webpbn" / "webpbn-00006-cat.non", REPO / "puzzles" / "hakank" / "simple2.non",
             REPO / "puzzles" / "webpbn" / "webpbn-00006-cat.non"]
    path = tmp_path / "tiny.txt"
    path.write_text(dumps_all([load(str(f)) for f in files], "taai"), encoding="utf-8")
    assert easy.first_puzzles_text(path, 2).count("$") == 2
    monkeypatch.setattr(easy, "NONOSOLVE", NONOSOLVE)
    summary = easy.measure(path, 2, ["lcg", "lcg:hint_rounds=0"], 2)
    assert summary["puzzles"] == 2 and set(summary["solvers"]) == {"nonosolve", "lcg", "lcg:hint_rounds=0"}
    assert summary["solvers"]["nonosolve"]["wrong"] == 0 and summary["solvers"]["lcg"]["unsolved"] == 0
    assert len(summary["per_puzzle"]) == 5 and all(len(times) == 2 for times in summary["per_puzzle"].values())
    assert summary["solvers"]["nonosolve"]["cpu"] > 0 and summary["solvers"]["lcg"]["median_ratio"] > 0
    assert summary["solvers"]["lcg"]["cpu_ratio"] >= 0
    assert "| lcg |" in easy.report(summary)
    assert easy.main(["--set", str(path), "--count", "1", "--rounds", "1", "--specs", "lcg",
                      "--out", str(tmp_path / "easy.csv")]) == 0
    with (tmp_path / "easy.csv").open(encoding="utf-8", newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 1
    assert easy.main(["--set", str(tmp_path / "none.txt")]) == 2
