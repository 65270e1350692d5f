"""The design lives in the repository: docs/ and RESULTS.md stay true and self-contained."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_results_history_index_lists_every_section():
    text = (ROOT / "benchmarks" / "log" / "2026-11-22-results-history.md").read_text(encoding="utf-8")
    index = text[text.index("## Index"):]
    index = index[:index.index("\n## ", 1)]
    sections = [line[3:] for line in text.splitlines() if line.startswith("## ") and line != "## Index"]
    missing = [s for s in sections if f"[{s}]" not in index]
    assert not missing, f"add these sections to the index of the results history: {missing}"


def test_results_is_the_dashboard_its_script_writes():
    # RESULTS.md is written by benchmarks/dashboard.py from the stored bench runs and the log's
    # file names: a new log file or run means running the script again.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "benchmarks.dashboard", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_dashboard_carries_each_write_up_s_headline_and_nothing_else():
    # A write-up's <!-- headline --> block is its current answer to a question no bench run
    # answers (certificates, throughput, start-up): RESULTS.md shows it whole, once.
    import sys

    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks import dashboard
    finally:
        sys.path.remove(str(ROOT))
    assert dashboard.headline("# T\n<!-- headline -->\n| a | 1 |\n<!-- end headline -->\nrest") == ["| a | 1 |"]
    assert dashboard.headline("# T\nno block\n") == []
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    blocks = [dashboard.headline(p.read_text(encoding="utf-8")) for p in (ROOT / "benchmarks" / "log").glob("*.md")]
    assert sum(1 for b in blocks if b) >= 3      # certificates, throughput, start-up at least
    for block in filter(None, blocks):
        assert results.count("\n".join(block)) == 1


def test_a_worker_table_says_that_only_the_externals_pay_their_start_up():
    # nonolab in long-lived workers beside externals started per puzzle: the table must say whose start-up counts.
    import sys

    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks import dashboard
    finally:
        sys.path.remove(str(ROOT))
    doc = {"settings": {"isolate": "worker"}, "solvers": [{"kind": "nonolab"}, {"kind": "external"}]}
    assert "external program a process per puzzle" in dashboard._started(doc)
    assert dashboard._started({**doc, "solvers": [{"kind": "nonolab"}]}) == ""
    assert dashboard._started({**doc, "settings": {"isolate": "process"}}) == ""


def _texts():
    yield ROOT / "README.md"
    for folder in ("src", "tests", "models", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".md", ".json", ".mzn") and path.name != "test_docs.py":
                yield path


@pytest.mark.parametrize("path", list(_texts()), ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_depends_on_shared_docs_or_seed_jargon(path):
    # A clone from the package index has no ../shared: the package, its help and its tests
    # point to docs/ in the repository, and name techniques rather than seed documents.
    text = path.read_text(encoding="utf-8", errors="replace")
    assert "shared/docs" not in text
    assert not re.search(r"\bseed 00\d", text)


def test_the_docs_name_existing_modules():
    # A compiled module has no .py in the tree, and its .so is there only in an editable
    # install: it exists when setup.py builds it (a clone installed with `pip install .`
    # has no .so under src/).
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    compiled = set(re.findall(r'extension\("(nonolab(?:\.\w+)+)"', (ROOT / "setup.py").read_text(encoding="utf-8")))
    assert "nonolab.core._check" in compiled        # the pattern still reads setup.py
    for name in re.findall(r"`(nonolab(?:\.\w+)+)\*?`", text):
        parts = name.split(".")[1:]
        base = ROOT / "src" / "nonolab" / Path(*parts)
        exists = base.with_suffix(".py").exists() or base.is_dir() or name in compiled
        assert exists, f"docs/architecture.md names {name}, which is gone"


def test_the_dashboard_names_a_solvers_refusals(tmp_path, monkeypatch):
    # A refused puzzle is out of the solver's solved count and PAR-2 (nonolab.bench.summary): the table says how many.
    import json
    import sys

    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks import dashboard
    finally:
        sys.path.remove(str(ROOT))
    figures = {"puzzles": 1, "solved": 1, "wrong": 0, "timeouts": 0, "errors": 0, "par2": 1.0, "total": 1.0,
               "median": 1.0, "p95": 1.0, "max": 1.0, "wins": 1}
    doc = {"date": "2026-11-27", "puzzles": 2, "complete": True, "runs": 4, "charts": [], "solvers": [],
           "settings": {"task": "check", "time_limit": 10, "measure": "wall", "isolate": "worker", "repeat": 1},
           "results": {"solvers": [{**figures, "solver": "native", "refused": 0},
                                   {**figures, "solver": "lcg", "refused": 1}],
                       "virtual_best": figures, "disagreements": []}}
    (tmp_path / "q").mkdir()
    (tmp_path / "q" / "summary.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(dashboard, "STORED", tmp_path)
    assert "Refused (a declared limit: out of that solver's solved count and PAR-2): lcg 1." in dashboard.table("q", "Q?")
