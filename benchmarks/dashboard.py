"""benchmarks/RESULTS.md: where the project stands today, one table per question, written from stored results.

    python -m benchmarks.dashboard [--check]

Each question is answered by one ``nonolab bench`` run whose folder (summary.json,
summary.md, runs.csv, charts) is kept under ``benchmarks/results/dashboard/NAME/``; to
bring a table up to date, run the command its summary records into that folder again
and rerun this script.  Questions that are not a bench run (what a certificate costs,
puzzles per second, start-up against Python's floor) are answered by the dated write-ups
themselves: a write-up of ``benchmarks/log/`` may hold one block between
``<!-- headline -->`` and ``<!-- end headline -->`` (its current answer, a short table),
which is copied here under the write-up's title with a link to it.  Below, every dated
write-up is linked, newest first.  ``--check`` exits 1 when RESULTS.md is not what this script
writes (the test suite runs it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
STORED = HERE / "results" / "dashboard"
LOG = HERE / "log"

#: (folder under results/dashboard, the question its table answers)
QUESTIONS = (
    ("tournament-solve", "A tournament set, first solution: how does nonolab compare with the strongest public solvers?"),
    ("tournament-check", "Tournament sets, count to 2: is each puzzle unique, and how fast does each solver say so?"),
    ("survey-check", "Wolter's survey (the hard eight among them), count to 2: who proves what within the limit?"),
    ("shipped-puzzles", "The shipped puzzles, one process per run: what does a command-line user wait for?"),
)


def _f(value, digits: int = 3) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _started(doc: dict) -> str:
    """What a worker-isolated table's times leave out: external programs always start a process per puzzle,
    so beside nonolab's long-lived workers their start-up is counted and nonolab's is not."""
    if doc["settings"]["isolate"] != "worker" or not any(x.get("kind") == "external" for x in doc.get("solvers", [])):
        return ""
    return (" (nonolab's solve alone, in long-lived workers; each external program a process per puzzle, its "
            "start-up counted)")


def table(name: str, question: str) -> list[str]:
    """The section of one question: what was run, and the solvers' table with the virtual best."""
    lines = [f"## {question}", ""]
    path = STORED / name / "summary.json"
    if not path.exists():
        return lines + [f"Not measured yet (no `benchmarks/results/dashboard/{name}/`).", ""]
    doc = json.loads(path.read_text(encoding="utf-8"))
    s, results = doc["settings"], doc["results"]
    unit = "CPU s" if s["measure"] == "cpu" else "s"
    first = f" (the first {s['first']} of each set)" if s.get("first") else ""
    lines += [f"{doc['date']}, {doc['puzzles']} puzzles{first}, {s['task']}, {s['time_limit']:g} s wall limit per run, "
              f"{'CPU' if s['measure'] == 'cpu' else 'wall'} time, isolation {s['isolate']}{_started(doc)}, "
              f"{s['repeat']} repetition(s)" + ("" if doc["complete"] else f", **stopped after {doc['runs']} runs**")
              + (f", load average {doc['load']['lowest']:.1f} to {doc['load']['highest']:.1f}" if doc.get("load") else "")
              + f"; details: [summary](results/dashboard/{name}/summary.md)"
              + "".join(f", [{Path(c).stem}](results/dashboard/{name}/{c})" for c in doc.get("charts", [])
                        if c.endswith(".svg")) + ".", ""]
    lines += [f"| solver | solved | wrong | timeouts | PAR-2 {unit} | total {unit} | median {unit} | p95 {unit} | "
              f"max {unit} | wins |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results["solvers"]:
        lines.append(f"| {r['solver']} | {r['solved']}/{r['puzzles']} | {r['wrong']} | {r['timeouts']} | "
                     f"{_f(r['par2'])} | {_f(r['total'], 2)} | {_f(r['median'])} | {_f(r['p95'])} | "
                     f"{_f(r['max'])} | {r['wins']} |")
    v = results["virtual_best"]
    lines.append(f"| *virtual best* | {v['solved']}/{v['puzzles']} | | | {_f(v['par2'])} | {_f(v['total'], 2)} | "
                 f"{_f(v['median'])} | {_f(v['p95'])} | {_f(v['max'])} | |")
    refused = [f"{r['solver']} {r['refused']}" for r in results["solvers"] if r.get("refused")]
    if refused:   # (summary.json files before the refused count have none)
        lines += ["", f"Refused (a declared limit: out of that solver's solved count and PAR-2): {', '.join(refused)}."]
    if results["disagreements"]:
        lines += ["", f"**{len(results['disagreements'])} disagreement(s)**: see the summary."]
    return lines + [""]


HEADLINE, END = "<!-- headline -->", "<!-- end headline -->"


def headline(text: str) -> list[str]:
    """The lines of a write-up's headline block (none when it has no block).

    >>> headline("# T\\n<!-- headline -->\\n| a | 1 |\\n<!-- end headline -->\\nmore")
    ['| a | 1 |']
    >>> headline("# T\\nno block")
    []
    """
    if HEADLINE not in text:
        return []
    block = text.split(HEADLINE, 1)[1].split(END, 1)[0]
    return block.strip("\n").splitlines()


def _title(text: str, fallback: str) -> str:
    return next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), fallback)


def headlines() -> list[str]:
    """The section of the write-ups' headline blocks, newest write-up first."""
    lines: list[str] = []
    for path in sorted(LOG.glob("*.md"), reverse=True):
        text = path.read_text(encoding="utf-8")
        block = headline(text)
        if block:
            lines += [f"### {_title(text, path.stem)}", "", *block, "", f"Details: [{path.stem}](log/{path.name}).", ""]
    if not lines:
        return []
    return ["## Other questions, answered by the dated write-ups", "",
            "Figures that are not a `nonolab bench` run, each from its write-up (commands, machine and load "
            "there).", "", *lines]


def render() -> str:
    """The whole of RESULTS.md."""
    lines = ["# Benchmark results: where nonolab stands", "",
             "Written by `python -m benchmarks.dashboard` from the `nonolab bench` runs kept in "
             "`benchmarks/results/dashboard/` (do not edit by hand). Each table names its date and settings; "
             "the machine is shared and noisy (2 cores): CPU times and the ratios of one run are the figures "
             "to compare. What each suite measures: [benchmarks/README.md](README.md); how to read the "
             "tables: [docs/bench.md](../docs/bench.md).", ""]
    for name, question in QUESTIONS:
        lines += table(name, question)
    lines += headlines()
    lines += ["## Log", "", "Dated write-ups of every measurement, newest first (the history before this dashboard "
              "is in the first of them):", ""]
    for path in sorted(LOG.glob("*.md"), reverse=True):
        title = _title(path.read_text(encoding="utf-8"), path.stem)
        lines.append(f"- [{path.stem}](log/{path.name}): {title}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in args:
        if not RESULTS.exists() or RESULTS.read_text(encoding="utf-8") != text:
            print("benchmarks/RESULTS.md is out of date: run python -m benchmarks.dashboard", file=sys.stderr)
            return 1
        return 0
    RESULTS.write_text(text, encoding="utf-8")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
