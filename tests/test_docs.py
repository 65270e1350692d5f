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
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name in re.findall(r"`(nonolab(?:\.\w+)+)\*?`", text):
        parts = name.split(".")[1:]
        base = ROOT / "src" / "nonolab" / Path(*parts)
        assert base.with_suffix(".py").exists() or base.is_dir(), f"docs/architecture.md names {name}, which is gone"
