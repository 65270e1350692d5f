"""What a benchmark leaves in its folder: runs.csv (as it goes), summary.md, summary.json,
cactus and scatter charts, and a bug report per disagreement.

Every file but runs.csv is written whole and atomically at the end (a Ctrl-C leaves the
last complete version or none); runs.csv gets one line per run as soon as the run ends,
so an interrupted benchmark keeps what it measured.
"""

from __future__ import annotations

import csv
import json
import math
import os
import platform
import re
from pathlib import Path
from statistics import median
from typing import Sequence

from nonolab.bench.runner import FIELDS
from nonolab.bench.summary import SCHEMA_VERSION

MEASURES = {"wall": "wall-clock time", "cpu": "CPU time (user + system, the process and its children)"}
TASKS = {"check": "check (count to 2: unique, multiple or contradiction)", "solve": "solve (the first solution)",
         "count": "count (every solution)"}


class RunsFile:
    """runs.csv, one row per run, flushed as each run ends."""

    def __init__(self, path: Path):
        self.path = path
        self._handle = path.open("w", encoding="utf-8", newline="")
        self._writer = csv.DictWriter(self._handle, fieldnames=FIELDS, extrasaction="ignore")
        self._writer.writeheader()
        self._handle.flush()

    def append(self, row: dict) -> None:
        self._writer.writerow({k: _cell(row.get(k, "")) for k in FIELDS})
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


def _cell(value) -> str:
    if value is None:
        return ""
    return " ".join(str(value).split()) if isinstance(value, str) else str(value)


def machine() -> dict:
    """The machine, as a benchmark's reader needs it: processor, cores, system, Python."""
    model = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            found = re.search(r"model name\s*:\s*(.+)", handle.read())
            model = found.group(1).strip() if found else model
    except OSError:
        pass
    return {"processor": model, "cores": os.cpu_count(), "system": f"{platform.system()} {platform.release()}",
            "python": platform.python_version()}


def _f(value, digits: int = 3) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def _load_line(rows: Sequence[dict]) -> str:
    loads = [r["load"] for r in rows if isinstance(r.get("load"), (int, float)) and not math.isnan(r["load"])]
    if not loads:
        return "not known"
    return f"{min(loads):.2f} / {median(loads):.2f} / {max(loads):.2f} (lowest / median / highest, 1-minute)"


def markdown(document: dict, rows: Sequence[dict]) -> str:
    """summary.md: the settings, one table of solvers with the virtual best, ratios, and what went wrong."""
    s, figures = document["settings"], document["results"]
    limit = f"{s['time_limit']:g} s per run" if s["time_limit"] else "no time limit"
    m = document["machine"]
    unread = figures.get("unread") or []
    lines = [f"# nonolab bench: {s['task']} on {document['puzzles']} puzzles"
             + (f" ({len(unread)} could not be read: given to no solver, see the end)" if unread else ""), ""]
    if not document["complete"]:
        lines += ["**Interrupted**: the figures below are of the runs that ended before Ctrl-C.", ""]
    if figures["disagreements"] or figures["wrong"]:
        lines += [f"**{len(figures['disagreements'])} disagreement(s) and {len(figures['wrong'])} wrong answer(s)**: "
                  "see the end of this page.", ""]
    lines += [f"Command: `{document['command']}`  ",
              f"Date: {document['date']}; machine: {m['processor']}, {m['cores']} cores, {m['system']}, "
              f"Python {m['python']}  ",
              f"Load average during the runs: {_load_line(rows)}  ",
              f"Task: {TASKS[s['task']]}; {limit}; times are {MEASURES[s['measure']]}; isolation: {s['isolate']}"
              + (" (one process per run: start-up counted)" if s["isolate"] == "process" else
                 " (long-lived workers: the solve alone)")
              + f"; {s['repeat']} repetition(s), {s['jobs']} at a time; {len(rows)} runs.", "",
              "| solver | solved | wrong | timeouts | errors | refused | PAR-2 s | total s | median s | p95 s | max s "
              "| wins |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in figures["solvers"]:
        lines.append(f"| {row['solver']} | {row['solved']}/{row['puzzles']} | {row['wrong']} | {row['timeouts']} | "
                     f"{row['errors']} | {row.get('refused', 0)} | {_f(row['par2'])} | {_f(row['total'])} | "
                     f"{_f(row['median'])} | "
                     f"{_f(row['p95'])} | {_f(row['max'])} | {row['wins']} |")
    vbs = figures["virtual_best"]
    lines.append(f"| *virtual best* | {vbs['solved']}/{vbs['puzzles']} | | | | | {_f(vbs['par2'])} | "
                 f"{_f(vbs['total'])} | {_f(vbs['median'])} | {_f(vbs['p95'])} | {_f(vbs['max'])} | |")
    lines += ["", "PAR-2: the mean time per puzzle, an unsolved puzzle counting twice the limit. A solver's time "
              "on a puzzle is the median of its repetitions (the upper one of an even count), in every figure and "
              "the geometric mean; wins: the puzzles it was fastest on. Refused: the "
              "puzzles a solver did not accept (a declared limit, such as a grid beyond its memory budget), left "
              "out of its solved count, PAR-2 and times, and of the virtual best where no solver accepted them."]
    if figures["ratios"]:
        lines += ["", "| solver | against | puzzles solved by both | time ratio (median of repetitions) | "
                  "spread (lowest - highest repetition) | geometric mean per puzzle |", "|---|---|---:|---:|---:|---:|"]
        for r in figures["ratios"]:
            lines.append(f"| {r['solver']} | {r['baseline']} | {r['puzzles']} | {_f(r['ratio'], 3)} | "
                         f"{_f(r['low'], 3)} - {_f(r['high'], 3)} | {_f(r['geomean'], 3)} |")
        lines += ["", "A ratio below 1: the solver took less time than the one it is compared with."]
    charts = document.get("charts") or []
    if charts:
        lines += ["", " ".join(f"![{Path(c).stem}]({c})" for c in charts)]
    if figures["disagreements"]:
        lines += ["", "## Disagreements", "", "Solvers gave answers that cannot all be true on these puzzles, or an "
                  "answer contrary to what nonolab proved (a bug in one of them; the bug reports are in "
                  "`disagreements/`):", ""]
        for d in figures["disagreements"]:
            answers = "; ".join(f"{solver}: {', '.join(v)}" for solver, v in d["answers"].items())
            lines.append(f"- {d['puzzle']}: {answers}" + (f" (refuted: {', '.join(d['refuted'])}, by "
                                                          f"{d.get('proof')})" if d["refuted"] else ""))
    if figures["wrong"]:
        lines += ["", "## Wrong answers", ""]
        lines += [f"- {w['puzzle']} ({w['solver']}, repetition {w['repeat']}): {w['error']}" for w in figures["wrong"]]
    skipped = document.get("skipped") or []
    if unread:
        lines += ["", "## Puzzles that could not be read", "",
                  "Each has its rows in runs.csv (status error, this error), and no part in the figures above:", ""]
        lines += [f"- {u['puzzle']}: {u['error']}" for u in unread]
    if skipped:
        lines += ["", "## Left out (unreadable files)", ""] + [f"- {text}" for text in skipped]
    return "\n".join(lines) + "\n"


def write_outputs(out: Path, document: dict, rows: Sequence[dict], chart_formats: Sequence[str],
                  scatter_pair: tuple[str, str] | None) -> dict:
    """summary.json, summary.md, then the charts in ``out``; returns ``document`` with its ``charts``.

    The summaries come first: they are what an interrupted benchmark must leave.
    """
    from nonolab.formats import write_atomically

    names = [f"{name}.{fmt}" for name in ("cactus", "scatter")[:1 + (scatter_pair is not None)] for fmt in chart_formats]
    document = dict(document, charts=names)
    write_atomically(out / "summary.json", json.dumps(document, indent=2) + "\n")
    write_atomically(out / "summary.md", markdown(document, rows))
    write_charts(out, document, rows, chart_formats, scatter_pair)
    return document


def write_charts(out: Path, document: dict, rows: Sequence[dict], formats: Sequence[str],
                 pair: tuple[str, str] | None) -> list[str]:
    """cactus (and with ``pair``, scatter) in each of ``formats``; their file names."""
    from nonolab.formats import write_atomically
    from nonolab.render import charts
    from nonolab.render.convert import encode
    from nonolab.bench.summary import puzzle_times

    settings = document["settings"]
    measure, limit = settings["measure"], settings["time_limit"]
    unit = "CPU time" if measure == "cpu" else "wall time"
    times = puzzle_times(rows, measure, {u["puzzle"] for u in document["results"].get("unread") or []})
    solvers = [s["solver"] for s in document["results"]["solvers"]]
    drawings = {"cactus": charts.cactus({s: list(times.get(s, {}).values()) for s in solvers}, limit,
                                         f"{settings['task']}: puzzles solved within a {unit}", unit)}
    if pair is not None:
        a, b = pair
        common = [p for p in times.get(a, {}) if p in times.get(b, {})]
        points = [(times[a][p], times[b][p], not math.isfinite(times[a][p]), not math.isfinite(times[b][p]))
                  for p in common]
        drawings["scatter"] = charts.scatter(points, a, b, limit, unit)
    written = []
    for name, svg in drawings.items():
        for fmt in formats:
            write_atomically(out / f"{name}.{fmt}", encode(svg, fmt))
            written.append(f"{name}.{fmt}")
    return written


def report_files(out: Path, puzzles: Sequence[str] = ()) -> list[Path]:
    """Every file a benchmark writes or removes in ``out``: runs.csv, the summaries, the
    charts in every format, the bug reports of ``disagreements/`` there now, and those it
    would write for ``puzzles`` (their names in the reports)."""
    from nonolab.render.convert import FORMATS

    names = ["runs.csv", "summary.json", "summary.md"] + [f"{n}.{f}" for n in ("cactus", "scatter") for f in FORMATS]
    folder = out / "disagreements"
    earlier = sorted(folder.glob("nonolab-disagreement-*.json")) if folder.is_dir() else []
    return [out / name for name in names] + earlier + [_bug_report(folder, name) for name in puzzles]


def _bug_report(folder: Path, puzzle: str) -> Path:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", puzzle).strip("-")[-80:] or "puzzle"
    return folder / f"nonolab-disagreement-{stem}.json"


def remove_reports(out: Path) -> None:
    """Remove what a benchmark writes in ``out`` (runs.csv, the summaries, the charts in every
    format, the bug reports of ``disagreements/``), and nothing else: ``--force`` replaces an
    earlier benchmark whole, so that none of its files outlives it beside the new summary."""
    for path in report_files(out):
        path.unlink(missing_ok=True)
    folder = out / "disagreements"
    if folder.is_dir():
        try:
            folder.rmdir()   # only if nothing else is in it
        except OSError:
            pass


def write_bug_reports(out: Path, disagreements: Sequence[dict], rows: Sequence[dict], puzzles: dict) -> list[str]:
    """One JSON file per disagreement in ``out/disagreements``: the puzzle (.non), every answer, the
    solvers whose answer was wrong and what nonolab proved (``proof``: checked solutions or a complete search)."""
    from nonolab.formats import dumps, write_atomically

    if not disagreements:
        return []
    folder = out / "disagreements"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for d in disagreements:
        path = _bug_report(folder, d["puzzle"])
        answers = [{k: r.get(k) for k in FIELDS} for r in rows if r["puzzle"] == d["puzzle"]]
        report = {"puzzle": d["puzzle"], "puzzle_non": dumps(puzzles[d["puzzle"]], "non"),
                  "answers_by_solver": d["answers"], "refuted": d["refuted"], "proof": d.get("proof"),
                  "runs": answers}
        write_atomically(path, json.dumps(report, indent=2) + "\n")
        written.append(str(path))
    return written


__all__ = ["MEASURES", "RunsFile", "SCHEMA_VERSION", "machine", "markdown", "remove_reports", "report_files",
           "write_bug_reports", "write_charts",
           "write_outputs"]
