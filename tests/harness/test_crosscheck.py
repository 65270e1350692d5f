"""The harness: agreement across backends, and disagreements caught and reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import nonolab
from nonolab.cli.main import cli
from nonolab.formats import load
from nonolab.harness.crosscheck import crosscheck
from nonolab.solvers import _REGISTRY, names

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
NONUNIQUE = PUZZLES / "hakank" / "nonunique.non"


@pytest.fixture
def broken_backends(monkeypatch):
    for name, cls in (("undercount", "UndercountingSolver"), ("wrongpicture", "WrongPictureSolver"),
                      ("crash", "CrashingSolver"), ("timingout", "TimingOutSolver")):
        monkeypatch.setitem(_REGISTRY, name, ("fake_backends", cls, None, "solver"))


def test_all_backends_agree_on_shipped_puzzles():
    for file in ("hakank/nonunique.non", "nonolab/contradiction.non", "webpbn/webpbn-00023-edge.non"):
        check = crosscheck(load(PUZZLES / file), max_solutions=None)
        assert check.agree, check.problems
        assert {a.backend for a in check.answers} >= {"native"}


def test_public_api_verify():
    check = nonolab.crosscheck(load(NONUNIQUE), max_solutions=None)
    assert check.agreement == "AGREE" and check.consensus().value == "multiple"
    assert all(a.result.count == 43 for a in check.answers)


def test_undercount_is_a_disagreement(broken_backends):
    check = crosscheck(load(NONUNIQUE), ["native", "undercount"], max_solutions=None)
    assert not check.agree and any("undercount says exactly 1" in p for p in check.problems)


def test_wrong_picture_and_crash_are_disagreements(broken_backends):
    check = crosscheck(load(NONUNIQUE), ["native", "wrongpicture", "crash"])
    assert not check.agree
    errors = {a.backend: a.error for a in check.answers}
    assert "wrong solution" in errors["wrongpicture"] and "segfault imitation" in errors["crash"]


def test_stopped_searches_agree_with_exact_ones():
    # native counts everything; the others stop at 2: intervals [43,43] and [2, inf) meet.
    puzzle = load(NONUNIQUE)
    exact = crosscheck(puzzle, ["native"], max_solutions=None)
    partial = crosscheck(puzzle, names(), max_solutions=2)
    assert exact.agree and partial.agree


def test_cli_verify_table_and_exit_codes(broken_backends, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(cli, ["verify", str(NONUNIQUE), "--backends", "native", "--max-solutions", "50"])
    assert ok.exit_code == 0 and "AGREE" in ok.stdout and "43" in ok.stdout
    bad = runner.invoke(cli, ["verify", str(NONUNIQUE), "--backends", "native,undercount",
                              "--report-dir", str(tmp_path), "--max-solutions", "50"])
    assert bad.exit_code == 1 and "multiple: backends DISAGREE: " in bad.stdout
    report = json.loads((tmp_path / "nonolab-disagreement-nonunique.json").read_text())
    # The verdict is a word (the one native's 43 checked solutions prove); the disagreement apart.
    assert (report["verdict"], report["agreement"]) == ("multiple", "disagree")
    assert {a["backend"] for a in report["answers"]} == {"native", "undercount"}
    data = json.loads(runner.invoke(cli, ["verify", str(NONUNIQUE), "--backends", "native,undercount", "--json",
                                          "--report-dir", str(tmp_path), "--max-solutions", "50"]).stdout)
    assert (data["verdict"], data["agreement"]) == ("multiple", "disagree") and data["report"]
    assert nonolab.loads(report["puzzle_non"], "non") == load(NONUNIQUE)


def test_a_disagreement_report_goes_where_the_caller_says(broken_backends, tmp_path, monkeypatch):
    # A disagreement once left nonolab-disagreement-*.json in the folder the tests ran from:
    # the folder is the caller's choice (--report-dir, else NONOLAB_REPORT_DIR, else the current one).
    work, reports, chosen = tmp_path / "work", tmp_path / "reports", tmp_path / "chosen"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("NONOLAB_REPORT_DIR", str(reports))
    args = ["verify", str(NONUNIQUE), "--backends", "native,undercount", "--max-solutions", "50"]
    name = "nonolab-disagreement-nonunique.json"
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1 and f"report saved to {reports / name}" in result.stdout, result.stdout
    assert list(work.iterdir()) == [] and [p.name for p in reports.iterdir()] == [name]
    assert CliRunner().invoke(cli, args + ["--report-dir", str(chosen)]).exit_code == 1   # the option first
    assert [p.name for p in chosen.iterdir()] == [name] and list(work.iterdir()) == []
    monkeypatch.delenv("NONOLAB_REPORT_DIR")
    assert CliRunner().invoke(cli, args).exit_code == 1          # neither: the current folder, as documented
    assert [p.name for p in work.iterdir()] == [name]


def test_cli_verify_json_over_several_files():
    runner = CliRunner()
    files = [str(PUZZLES / "nonolab" / "switch.non"), str(PUZZLES / "nonolab" / "heart.non")]
    out = runner.invoke(cli, ["verify", *files, "--json"])
    data = json.loads(out.stdout)
    assert out.exit_code == 0 and [d["verdict"] for d in data["puzzles"]] == ["multiple", "unique"]
    assert [d["agreement"] for d in data["puzzles"]] == ["agree", "agree"]
    assert data["summary"] == {"puzzles": 2, "verdicts": {"multiple": 1, "unique": 1}, "errors": 0, "exit_code": 0,
                               "agreements": {"agree": 2}}


def test_cli_backends_lists_every_registered_backend_with_its_role():
    from nonolab.solvers import role
    from nonolab.solvers import specs
    from nonolab.solvers.native.modes import STRATEGIES

    text = CliRunner().invoke(cli, ["backends"]).stdout
    table, _, rest = text.partition("variants:")  # the backends first, then variants and line strategies
    # (a backend's options are listed under it, indented)
    listed = {line.split()[0]: line.split()[1] for line in table.splitlines() if line.strip() and line[0] != " "}
    assert listed == {name: role(name) for name in names()}
    assert listed["dlx"] == "baseline" and listed["auto"] == "strategy" and listed["cnf"] == "solver"
    for spec in specs():
        assert ":" not in spec or spec in rest
    for name, strategy in STRATEGIES.items():
        assert f"{name} " in rest and ("incomplete" if not strategy.complete else "complete") in rest


def test_verify_leaves_the_baselines_out_unless_named():
    from nonolab.harness.crosscheck import crosscheck
    from nonolab.formats import load
    checked = crosscheck(load(PUZZLES / "nonolab" / "heart.non"))
    ran = {a.backend for a in checked.answers}
    assert ran == set(names(("solver", "strategy"))) and {"native", "auto", "cpsat", "cnf"} <= ran
    assert not ran & set(names(("baseline",)))


def test_cli_export_dimacs_solves_to_a_verified_picture(tmp_path):
    from pysat.solvers import Solver

    from nonolab.core import Solution, violations
    out = tmp_path / "p.cnf"
    result = CliRunner().invoke(cli, ["export", str(PUZZLES / "nonolab" / "heart.non"), "--to", "dimacs",
                                      "-o", str(out)])
    assert result.exit_code == 0
    lines = out.read_text().splitlines()
    cells = {(int(p[2]), int(p[3])): int(p[4]) for p in (l.split() for l in lines) if p[:2] == ["c", "cell"]}
    clauses = [[int(x) for x in l.split()[:-1]] for l in lines if l and l[0] not in "cp"]
    with Solver(name="minisat22", bootstrap_with=clauses) as sat:
        assert sat.solve()
        model = set(sat.get_model())
    picture = Solution(tuple(tuple(int(cells[(r, c)] in model) for c in range(1, 11)) for r in range(1, 11)))
    assert violations(load(PUZZLES / "nonolab" / "heart.non"), picture) == []


def test_cli_export_dzn_reads_back():
    result = CliRunner().invoke(cli, ["export", str(NONUNIQUE), "--to", "dzn"])
    assert result.exit_code == 0 and nonolab.loads(result.stdout, "dzn") == load(NONUNIQUE)


def test_nothing_proved_is_inconclusive_never_agree(broken_backends):
    from nonolab.harness.crosscheck import Agreement

    timed_out = crosscheck(load(NONUNIQUE), ["timingout"])
    assert timed_out.agreement is Agreement.INCONCLUSIVE and not timed_out.agree
    failed = crosscheck(load(NONUNIQUE), ["timingout", "crash"])
    assert failed.agreement is Agreement.INCONCLUSIVE and failed.problems  # the crash is still reported
    # one backend that proved something: the others' timeouts do not spoil the agreement
    assert crosscheck(load(NONUNIQUE), ["native", "timingout"]).agreement is Agreement.AGREE
    # a wrong picture is a disagreement even when nothing else answered
    assert crosscheck(load(NONUNIQUE), ["wrongpicture", "timingout"]).agreement is Agreement.DISAGREE


def test_cli_verify_with_every_backend_timed_out_is_inconclusive(broken_backends, tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", str(NONUNIQUE), "--backends", "timingout", "--report-dir", str(tmp_path)])
    assert result.exit_code == 1 and "INCONCLUSIVE" in result.stdout and "AGREE" not in result.stdout
    assert not list(tmp_path.iterdir())  # nothing to report as a bug
    data = json.loads(runner.invoke(cli, ["verify", str(NONUNIQUE), "--backends", "timingout", "--json"]).stdout)
    assert (data["verdict"], data["agreement"]) == ("timeout", "inconclusive")


def test_cli_verify_with_a_real_time_limit_too_small_is_inconclusive(tmp_path):
    from nonolab.core import Puzzle
    from nonolab.formats import dump
    from reference import n_dom

    rows, cols = n_dom(14)  # unique, and far beyond a few milliseconds of any backend
    path = tmp_path / "dom14.non"
    dump(Puzzle(rows=rows, columns=cols), path)
    result = CliRunner().invoke(cli, ["verify", str(path), "--backends", "native,cnf", "--time-limit", "0.01",
                                      "--report-dir", str(tmp_path)])
    assert result.exit_code == 1 and "INCONCLUSIVE" in result.stdout, result.stdout


def test_verify_takes_specs_and_options(broken_backends):
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", str(NONUNIQUE), "--backends", "native:line=overlap,probing=contradiction,cnf",
                                 "--json"])
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    assert [a["backend"] for a in data["answers"]] == ["native:line=overlap,probing=contradiction", "cnf"]


def test_capable_only_leaves_out_the_backends_that_refuse_givens():
    # batch --do crosscheck names every backend: dlx and backtrack refused a puzzle with
    # givens, and their refusals made the cross-check "disagree" (the CLI agreed).
    from nonolab.core import Puzzle
    from nonolab.harness.crosscheck import Agreement, crosscheck
    given = Puzzle(rows=((2,), ()), columns=((1,), (1,)), givens={(1, 0): 1})   # the givens exclude ##/..
    named = ["dlx", "backtrack", "native", "cnf"]
    checked = crosscheck(given, named, capable_only=True)
    assert checked.agreement is Agreement.AGREE and checked.consensus().value == "contradiction"
    assert {a.backend for a in checked.answers} == {"native", "cnf"}
    assert crosscheck(given, named).agreement is not Agreement.AGREE   # asked by name: each answers


def test_a_named_backend_that_cannot_take_the_puzzle_is_inconclusive_not_a_disagreement(tmp_path):
    # Audit 7: `crosscheck colour.xml --backends dlx,native` said DISAGREE and saved a bug
    # report: dlx declares no colour, it declined; nothing was compared with it.
    from nonolab.core import Puzzle
    from nonolab.harness.crosscheck import Agreement
    given = Puzzle(rows=((2,), ()), columns=((1,), (1,)), givens={(1, 0): 1})
    checked = crosscheck(given, ["dlx", "native"])
    assert checked.agreement is Agreement.INCONCLUSIVE and checked.problems == ()
    declined = checked.answers[0]
    assert declined.declined and "does not take given cells" in declined.error
    assert declined.as_dict()["verdict"] is None
    source = tmp_path / "given.non"
    nonolab.dump(given, source)
    result = CliRunner().invoke(cli, ["crosscheck", str(source), "--backends", "dlx,native",
                                      "--report-dir", str(tmp_path)])
    assert result.exit_code == 1 and "INCONCLUSIVE" in result.stdout and "DISAGREE" not in result.stdout
    assert "  dlx        declined" in result.stdout, result.stdout
    assert not list(tmp_path.glob("*disagreement*"))   # no bug report: nothing disagreed


def test_a_cross_check_capped_at_one_solution_is_refused_not_a_timeout():
    # Audit 10: `verify cat.non --max-solutions 1` said "timeout: backends INCONCLUSIVE" of a
    # unique puzzle in 0.03 s, no limit reached: each backend stopped at its first solution,
    # and one solution proves no verdict (count --limit 1 says none, check refuses --check -n 1).
    cat = PUZZLES / "webpbn" / "webpbn-00006-cat.non"
    with pytest.raises(nonolab.NonolabError, match="max_solutions must be at least 2"):
        crosscheck(load(cat), ["native"], max_solutions=1)
    result = CliRunner().invoke(cli, ["verify", str(cat), "--max-solutions", "1"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == ["nonolab: error: a cross-check compares verdicts, each a count to 2: "
                                          "--max-solutions must be at least 2"]
    assert crosscheck(load(cat), ["native"], max_solutions=2).consensus().value == "unique"


def test_every_files_reports_are_checked_against_the_inputs_before_any_work(broken_backends, tmp_path, monkeypatch):
    # Each file's reports were checked as it was loaded: x.non's disagreement was saved (and
    # its table printed) before y.non's report, onto the input nonolab-disagreement-y.json,
    # was refused.  Now nothing is done or written: one line, exit 2.
    from nonolab.formats import dump_bytes
    from tests.one_line import one_line_error
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.non").write_bytes(NONUNIQUE.read_bytes())
    (tmp_path / "y.non").write_bytes(NONUNIQUE.read_bytes())
    (tmp_path / "nonolab-disagreement-y.json").write_bytes(dump_bytes(load(NONUNIQUE), "json"))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    args = ["crosscheck", "x.non", "nonolab-disagreement-y.json", "y.non", "--backends", "native,undercount",
            "--max-solutions", "50", "--report-dir", "."]
    result = CliRunner().invoke(cli, args)
    one_line_error(result, "--report-dir .", "the input file nonolab-disagreement-y.json")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before and result.stdout == ""
    # elsewhere, the same files are checked: the first one's disagreement is saved there
    result = CliRunner().invoke(cli, args[:-1] + ["reports"])
    assert result.exit_code == 1 and (tmp_path / "reports" / "nonolab-disagreement-x.json").is_file()


def test_files_that_share_a_stem_get_reports_of_their_own(broken_backends, tmp_path, monkeypatch):
    # a/x.non and b/x.non were both saved to nonolab-disagreement-x.json: the second replaced
    # the first.  Now each is named with as few of its folders as tell them apart.
    monkeypatch.chdir(tmp_path)
    switch = PUZZLES / "nonolab" / "switch.non"
    for where, puzzle in (("a/x.non", NONUNIQUE), ("b/x.non", switch), ("p/c/y.non", NONUNIQUE),
                          ("q/c/y.non", switch), ("z.non", switch)):
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_bytes(puzzle.read_bytes())
    result = CliRunner().invoke(cli, ["crosscheck", "a/x.non", "b/x.non", "p/c/y.non", "q/c/y.non", "z.non",
                                      "--backends", "native,undercount", "--max-solutions", "50",
                                      "--report-dir", "reports"])
    assert result.exit_code == 1, result.output
    saved = {p.name: load_report(p) for p in (tmp_path / "reports").iterdir()}
    assert sorted(saved) == ["nonolab-disagreement-a-x.json", "nonolab-disagreement-b-x.json",
                             "nonolab-disagreement-p-c-y.json", "nonolab-disagreement-q-c-y.json",
                             "nonolab-disagreement-z.json"]
    # each report holds its own file's puzzle (43 solutions; the switch's 2)
    counts = {name: max(a["count"] for a in data["answers"]) for name, data in saved.items()}
    assert counts == {"nonolab-disagreement-a-x.json": 43, "nonolab-disagreement-b-x.json": 2,
                      "nonolab-disagreement-p-c-y.json": 43, "nonolab-disagreement-q-c-y.json": 2,
                      "nonolab-disagreement-z.json": 2}
    assert "report saved to reports/nonolab-disagreement-b-x.json" in result.output


def test_two_files_whose_reports_would_still_share_a_name_are_refused_before_any_work(broken_backends, tmp_path,
                                                                                     monkeypatch):
    from tests.one_line import one_line_error
    monkeypatch.chdir(tmp_path)
    for where in ("a/x.non", "b/x.non", "a-x.non"):
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_bytes(NONUNIQUE.read_bytes())
    result = CliRunner().invoke(cli, ["crosscheck", "a-x.non", "a/x.non", "b/x.non", "--backends", "native,undercount",
                                      "--report-dir", "reports"])
    one_line_error(result, "--report-dir reports", "a-x.non and a/x.non", "nonolab-disagreement-a-x.json")
    assert result.stdout == "" and not (tmp_path / "reports").exists()
    # the same file twice is one file: one report, no refusal
    twice = CliRunner().invoke(cli, ["crosscheck", "a/x.non", "./a/x.non", "--backends", "native,undercount",
                                     "--report-dir", "reports"])
    assert twice.exit_code == 1 and [p.name for p in (tmp_path / "reports").iterdir()] == [
        "nonolab-disagreement-x.json"]


def load_report(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
