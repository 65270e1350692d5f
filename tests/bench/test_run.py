"""nonolab bench end to end on small fixtures: externals, both isolations, the files and their schema,
disagreements, the exit codes and Ctrl-C."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.bench import FIELDS, run
from nonolab.cli.main import cli

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"



def _rows(folder) -> list[dict]:
    with (folder / "runs.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames) == FIELDS
        return list(reader)


@pytest.mark.parametrize("isolate", ["process", "worker"])
def test_both_isolations_give_one_row_per_run_with_the_figures(tmp_path, two_puzzles, isolate):
    result = run(two_puzzles, ["native", "lcg"], out=tmp_path, repeat=2, isolate=isolate)
    assert result.complete and result.ok
    rows = _rows(tmp_path)
    assert len(rows) == len(result.records) == 2 * 2 * 2
    assert {(r["solver"], r["verdict"]) for r in rows} == {
        ("native", "unique"), ("native", "multiple"), ("lcg", "unique"), ("lcg", "multiple")}
    for r in rows:
        assert r["kind"] == "nonolab" and r["solved"] == "True" and r["killed"] in ("", "False")
        assert float(r["wall"]) > 0 and float(r["cpu"]) > 0 and float(r["peak_rss_mb"]) > 1
        assert r["load"] != ""
    # interleaved: each repetition of a puzzle runs both, the first of them rotating
    firsts = [r["solver"] for r in rows if r["slot"] == "0"]
    assert firsts == ["native", "lcg", "native", "lcg"]
    assert all(r["conflicts"] != "" for r in rows if r["solver"] == "lcg")  # the engine's counters
    assert all(r["line_solves"] != "" for r in rows if r["solver"] == "native")


def test_the_summary_json_and_md(tmp_path, two_puzzles, fake):
    result = run(two_puzzles, ["native"], [fake("echoer", "print('unique' if 'car' in open(path).read() "
                                                "or True else '')")],
                 out=tmp_path, time_limit=30, baseline="echoer", scatter=("native", "echoer"))
    document = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert document["schema_version"] == 1 and document["puzzles"] == 2 and document["runs"] == 4
    assert document["complete"] is True
    assert set(document["settings"]) >= {"task", "time_limit", "repeat", "jobs", "isolate", "measure", "base"}
    assert [s["solver"] for s in document["solvers"]] == ["native", "echoer"]
    assert [s["kind"] for s in document["solvers"]] == ["nonolab", "external"]
    results = document["results"]
    for entry in results["solvers"]:
        assert set(entry) == {"solver", "puzzles", "solved", "wrong", "timeouts", "errors", "refused", "par2",
                              "total", "median", "p95", "max", "wins"}
    assert set(results["virtual_best"]) == {"puzzles", "solved", "par2", "total", "median", "p95", "max"}
    assert results["ratios"][0]["solver"] == "native" and results["ratios"][0]["baseline"] == "echoer"
    # switch.non has two solutions: the fake's "unique" is refuted by native's two verified ones
    assert [(w["puzzle"].endswith("switch.non"), w["solver"]) for w in results["wrong"]] == [(True, "echoer")]
    assert not result.ok
    report = list((tmp_path / "disagreements").glob("*.json"))
    assert len(report) == 1 and "puzzle_non" in json.loads(report[0].read_text(encoding="utf-8"))
    text = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| native | 2/2 | 0 | 0 | 0 |" in text and "| echoer | 1/2 | 1 | 0 | 0 |" in text
    assert "*virtual best*" in text and "## Disagreements" in text
    assert (tmp_path / "cactus.svg").read_text(encoding="utf-8").count('class="series"') == 2
    assert (tmp_path / "scatter.svg").read_text(encoding="utf-8").count('class="point') == 2


def test_a_timeout_kills_the_external_and_costs_twice_the_limit(tmp_path, two_puzzles, fake):
    result = run(two_puzzles[:1], [], [fake("sleeper", "time.sleep(600)")], out=tmp_path, time_limit=0.5)
    (row,) = result.records
    assert row["verdict"] == "timeout" and row["killed"] is True and not row["solved"]
    assert result.figures["solvers"][0]["par2"] == 1.0 and result.figures["solvers"][0]["timeouts"] == 1


def test_the_verdict_rule_and_the_grid_check(tmp_path, two_puzzles):
    rule = tmp_path / "mine.toml"
    rule.write_text(f'''
program = "{sys.executable}"
[commands]
check = "{{program}} -c 'print(\\"RESULT: one\\"); print(\\"##\\"); print(\\"##\\")' {{file.non}}"
[verdicts]
unique = "RESULT: one"
[exit_codes]
3 = "contradiction"
[grid]
filled = "#"
empty = "."
''', encoding="utf-8")
    result = run([two_puzzles[1]], [], [f"mine={rule}"])
    (row,) = result.records
    assert row["verdict"] == "wrong" and "breaks the clues" in row["error"]  # 2x2 all filled is no solution


def test_cli_exit_code_one_and_a_loud_line_on_disagreement(tmp_path, two_puzzles, fake):
    outcome = CliRunner().invoke(cli, ["bench", *two_puzzles, "--backends", "native",
                                       "--external", fake("liar", "print('contradiction')"),
                                       "--out", str(tmp_path / "b")])
    assert outcome.exit_code == 1, outcome.output
    assert "DISAGREEMENT" in outcome.stderr and "| liar | 0/2 | 2 |" in outcome.stdout


def test_cli_refuses_a_missing_external_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    outcome = CliRunner().invoke(cli, ["bench", "ndom:3", "--external", "pbnsolve", "--out", str(tmp_path / "b")])
    assert outcome.exit_code == 2
    assert outcome.stderr.strip() == ("nonolab: error: --external pbnsolve: the program 'pbnsolve' is not on PATH "
                                      "(name it: --external pbnsolve=/path/to/pbnsolve)")
    assert not (tmp_path / "b").exists()


def test_cli_refuses_an_earlier_benchmark_folder(tmp_path):
    (tmp_path / "runs.csv").write_text("keep me", encoding="utf-8")
    outcome = CliRunner().invoke(cli, ["bench", "ndom:3", "--backends", "native", "--out", str(tmp_path)])
    assert outcome.exit_code == 2 and "earlier benchmark" in outcome.stderr
    assert (tmp_path / "runs.csv").read_text(encoding="utf-8") == "keep me"


def test_cli_refuses_an_out_that_is_a_file_by_name():
    # -o /dev/null said "nonolab: error: /dev/null: File exists" (mkdir's word).
    import os
    outcome = CliRunner().invoke(cli, ["bench", "ndom:3", "--backends", "native", "--out", os.devnull])
    assert outcome.exit_code == 2
    assert outcome.stderr.strip() == f"nonolab: error: {os.devnull}: names the folder of the reports, and this is a file"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_keeps_what_was_measured_and_writes_the_reports(tmp_path, two_puzzles, fake):
    out = tmp_path / "b"
    slow = fake("slow", "print('unique' if 'car' in path or 'p00001' in path else '', flush=True); "
                        "time.sleep(0 if 'p00001' in path else 600)")
    process = subprocess.Popen([sys.executable, "-m", "nonolab", "bench", *two_puzzles, "--backends", "",
                                "--external", slow, "--time-limit", "300", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(600):  # until the first run is on disk (bounded by count)
        if (out / "runs.csv").exists() and len((out / "runs.csv").read_text(encoding="utf-8").splitlines()) > 1:
            break
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr.strip().endswith("nonolab: interrupted")
    rows = _rows(out)
    assert [r["verdict"] for r in rows] == ["unique"]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "**Interrupted**" in summary and "| slow | 1/1 |" in summary
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["complete"] is False
    assert "| slow | 1/1 |" in stdout
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]


def test_base_runs_each_spec_from_both_versions_in_alternation(tmp_path, two_puzzles):
    import nonolab

    # The installed package as the base (a source checkout's src/ has no compiled engines unless built in place).
    installed = Path(nonolab.__file__).resolve().parents[1]
    result = run(two_puzzles, ["native"], base=str(installed), repeat=2, isolate="worker")
    assert {r["solver"]: r["tree"] for r in result.records} == {"native": "", "native@base": "base"}
    assert [r["solver"] for r in result.records if r["slot"] == 0] == ["native", "native@base"] * 2
    (ratio,) = result.figures["ratios"]
    assert (ratio["solver"], ratio["baseline"], ratio["puzzles"], ratio["repeats"]) == ("native", "native@base", 2, 2)
    assert ratio["low"] <= ratio["ratio"] <= ratio["high"]


def test_base_must_be_a_version_of_nonolab(tmp_path):
    from nonolab.errors import BenchError

    with pytest.raises(BenchError, match="not a virtual environment"):
        run(["ndom:3"], ["native"], base=str(tmp_path))


def test_a_worker_that_overruns_is_killed_and_the_next_run_gets_a_fresh_one():
    # 14-Dom defeats native's search for far longer than the limit plus the grace.
    result = run(["ndom:14", "ndom:3"], ["native:probing=none"], time_limit=0.3, isolate="worker")
    first, second = result.records
    assert first["verdict"] == "timeout" and not first["solved"]
    assert second["verdict"] == "unique" and second["solved"]


def test_count_compares_exact_counts(two_puzzles):
    result = run([str(PUZZLES / "hakank" / "nonunique.non")], ["native", "lcg"], task="count", isolate="worker")
    assert [(r["count"], r["exact"]) for r in result.records] == [(43, True), (43, True)] and result.ok


def test_the_child_warms_its_backend_up_wherever_the_version_keeps_warm_up():
    # child.py looks warm_up up by module name (solvers.warm here; solvers.base in older trees).
    from nonolab.bench import child

    solved = []

    class Recorder:
        name = "bench-warm-up-recorder"
        CAPABILITIES: frozenset = frozenset()

        def solve(self, puzzle, limits=None, given=None):
            solved.append(puzzle)

    child._warm_up(Recorder())
    assert len(solved) == 1


def test_the_child_builds_a_spec_with_build_or_an_older_versions_get_spec(monkeypatch):
    # `bench --base` runs child.py inside older checkouts, which built specs with get_spec.
    import nonolab.solvers as solvers
    from nonolab.bench import child

    assert child._build("native:line=overlap").line.name == "overlap"
    asked = []
    monkeypatch.delattr(solvers, "build")
    monkeypatch.setattr(solvers, "get_spec", lambda spec: asked.append(spec) or spec, raising=False)
    assert child._build("native:line=overlap") == "native:line=overlap" and asked == ["native:line=overlap"]


@pytest.mark.parametrize("isolate", ["process", "worker"])
def test_a_run_that_gave_no_answer_has_no_verdict(tmp_path, two_puzzles, fake, isolate):
    """Issue 23, as it applies to bench: error is none of the words.  A run that could not be run
    or gave no verdict (an external's silence) has status error, an empty verdict and the reason,
    in runs.csv and the figures alike; the summary counts it under errors.  A backend that does
    not accept the puzzle by a declared limit (cnf's model beyond max_states: TooLarge) has
    status refused, no verdict and the limit's words, counted under refused, not errors."""
    result = run(two_puzzles[:1], ["native", "cnf:max_states=1"], [fake("mute", "print('nothing to say')")],
                 out=tmp_path, isolate=isolate)
    rows = {r["solver"]: r for r in _rows(tmp_path)}
    refused = rows["cnf:max_states=1"]
    assert (refused["status"], refused["verdict"], refused["solved"]) == ("refused", "", "False")
    assert "max_states" in refused["error"]
    assert (rows["mute"]["status"], rows["mute"]["verdict"], rows["mute"]["solved"]) == ("error", "", "False")
    assert rows["mute"]["error"].startswith("no verdict in its output")
    assert (rows["native"]["status"], rows["native"]["verdict"]) == ("ok", "unique")
    assert {(r["solver"], r["status"], r["verdict"]) for r in result.records} == {
        ("mute", "error", None), ("native", "ok", "unique"), ("cnf:max_states=1", "refused", None)}
    mute = next(s for s in result.figures["solvers"] if s["solver"] == "mute")
    assert (mute["solved"], mute["errors"], mute["timeouts"], mute["refused"]) == (0, 1, 0, 0)
    cnf = next(s for s in result.figures["solvers"] if s["solver"] == "cnf:max_states=1")
    assert (cnf["puzzles"], cnf["solved"], cnf["errors"], cnf["timeouts"], cnf["refused"]) == (0, 0, 0, 0, 1)
    assert "| cnf:max_states=1 | 0/0 | 0 | 0 | 0 | 1 |" in (tmp_path / "summary.md").read_text(encoding="utf-8")


COLOUR = Path(__file__).resolve().parents[1] / "data" / "colour" / "probe-six.xml"


@pytest.mark.parametrize("isolate", ["process", "worker"])
def test_a_colour_puzzle_is_refused_by_the_solvers_that_declare_black_and_white_only(tmp_path, two_puzzles, fake,
                                                                                     isolate):
    """A mixed set: dlx declares black and white only (no Capability.COLOUR), as an external
    does unless its definition says colour = true.  Each refuses the colour puzzle (status
    refused, the reason in error, counted under refused) and answers the other; native, which
    declares colour, answers both.  Before, dlx's refusal was an error row (InvalidArgument)
    and the external was handed the colour puzzle as if it could read it."""
    said = fake("saysunique", "print('unique')")
    result = run([two_puzzles[0], str(COLOUR)], ["native", "dlx"], [said], out=tmp_path, isolate=isolate)
    rows = {(r["solver"], Path(r["puzzle"]).name): r for r in _rows(tmp_path)}
    for solver in ("dlx", "saysunique"):
        refused = rows[(solver, COLOUR.name)]
        assert (refused["status"], refused["verdict"], refused["solved"]) == ("refused", "", "False"), refused
        assert "black-and-white" in refused["error"]
        assert (rows[(solver, "car.non")]["status"], rows[(solver, "car.non")]["verdict"]) == ("ok", "unique")
    assert (rows[("native", COLOUR.name)]["status"], rows[("native", COLOUR.name)]["verdict"]) == ("ok", "multiple")
    figures = {s["solver"]: s for s in result.figures["solvers"]}
    for solver in ("dlx", "saysunique"):
        assert (figures[solver]["puzzles"], figures[solver]["refused"], figures[solver]["errors"]) == (1, 1, 0)
    assert (figures["native"]["puzzles"], figures["native"]["refused"]) == (2, 0)


@pytest.mark.parametrize("args, said", [
    # Audit 7: these said "baseline 'dlx'", "scatter: ...", "chart format ...": no option named.
    (["--baseline", "dlx"], "nonolab: error: --baseline 'dlx' is not one of the solvers (native)"),
    (["--scatter", "native,dlx"], "nonolab: error: --scatter native, dlx: not all solvers of this run (native)"),
    (["--charts", "gif"], "nonolab: error: --charts: a chart format is one of svg, png, pdf, not 'gif'"),
])
def test_cli_names_the_option_of_a_bad_choice(tmp_path, args, said):
    outcome = CliRunner().invoke(cli, ["bench", "ndom:3", "--backends", "native", *args, "--out", str(tmp_path / "b")])
    assert outcome.exit_code == 2 and outcome.stderr.strip() == said, outcome.stderr
    assert not (tmp_path / "b").exists()


def test_force_replaces_the_earlier_benchmark_whole_its_bug_reports_and_charts_too(tmp_path, two_puzzles, fake):
    """--force used to rewrite runs.csv and the summaries but leave the earlier run's
    disagreements/ (bug reports the new summary does not mention) and its scatter.svg (a
    chart of solvers no longer in the run); a file that is no report stays."""
    out = tmp_path / "b"
    first = run(two_puzzles, ["native"], [fake("liar", "print('contradiction')")], out=out)
    assert first.reports and (out / "scatter.svg").exists()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    run(two_puzzles, ["native"], [], out=out, force=True)
    assert not (out / "disagreements").exists() and not (out / "scatter.svg").exists()
    assert sorted(p.name for p in out.iterdir()) == ["cactus.svg", "notes.txt", "runs.csv", "summary.json",
                                                      "summary.md"]


def test_a_claim_contrary_to_a_complete_search_is_a_wrong_answer_everywhere(tmp_path, fake):
    """native proves contradiction.non has no solution (a complete search) and heart.non
    unique; a fake that says "unique" of the first and "multiple" of the second, printing no
    grid, was only a disagreement: now it is wrong in the table, the JSON and the bug reports."""
    puzzles = [str(PUZZLES / "nonolab" / "contradiction.non"), str(PUZZLES / "nonolab" / "heart.non")]
    claims = fake("claims", "print('unique' if os.path.basename(path) == 'contradiction.non' else 'multiple')")
    out = tmp_path / "b"
    outcome = CliRunner().invoke(cli, ["bench", *puzzles, "--backends", "native", "--external", claims,
                                       "--out", str(out)])
    assert outcome.exit_code == 1, outcome.output
    assert "| claims | 0/2 | 2 | 0 | 0 |" in outcome.stdout and "| native | 2/2 | 0 |" in outcome.stdout
    document = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    wrong = {Path(w["puzzle"]).name: (w["solver"], w["error"]) for w in document["results"]["wrong"]}
    assert wrong == {"contradiction.non": ("claims", "refuted by native's complete search (contradiction)"),
                     "heart.non": ("claims", "refuted by native's complete search (unique)")}
    assert [s["wrong"] for s in document["results"]["solvers"]] == [0, 2]
    reports = sorted((out / "disagreements").glob("*.json"))
    assert len(reports) == 2
    for path in reports:
        report = json.loads(path.read_text(encoding="utf-8"))
        assert report["refuted"] == ["claims"] and report["proof"].startswith("native's complete search")
    rows = _rows(out)
    assert {(r["solver"], r["checked"]) for r in rows} == {("native", "0"), ("native", "1"), ("claims", "0")}


def test_docs_name_every_column_of_runs_csv_in_order():
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "bench.md").read_text(encoding="utf-8")
    paragraph = text[text.index("- `runs.csv`: one row per run"):text.index("- `summary.json`:")]
    named = [name.strip() for quoted in re.findall(r"`([^`]+)`", paragraph) for name in quoted.split(",")]
    assert list(dict.fromkeys(n for n in named if n in FIELDS)) == list(FIELDS)   # each first named in order
