"""Summaries of benchmark rows: the markdown for RESULTS.md and the PNG chart.

Rows are the dicts the runner writes to the CSV (see ``benchmarks.run.FIELDS``).
With repeats, a (puzzle, backend) pair is summarised by the median of its times
and its most frequent outcome (see :func:`outcome`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from pathlib import Path
from statistics import median

OUTCOMES = ("unique", "multiple", "contradiction", "solved", "timeout", "skipped", "error")
FINISHED = ("unique", "multiple", "contradiction")  # proven answers, compared across backends
DONE = FINISHED + ("solved",)  # ended within the time limit: their times are compared


def outcome(row: dict) -> str:
    """The row's verdict, except ``solved`` for a solution found under ``max_solutions=1``.

    ``verdict_of`` calls any incomplete search ``timeout``; when the search stopped
    because it reached the solution limit rather than the time limit, the puzzle was
    solved (first solution) but its uniqueness is not known.
    """
    if row["status"] in ("error", "skipped"):
        return row["status"]
    if row["verdict"] == "timeout" and row["status"] != "timeout":
        return "solved"
    return row["verdict"]


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (``q`` in 0..100).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([5.0], 95)
    (2.5, 5.0)
    """
    ordered = sorted(values)
    if not ordered:
        return math.nan
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def per_puzzle(rows: list[dict]) -> dict[str, dict[str, dict]]:
    """``{puzzle: {backend: {"time", "verdict", "size", "peak_rss_mb", "conflicts", "winner"}}}``,
    repeats folded (conflicts: the median of those reported; winner: the most frequent)."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[r["puzzle"], r["backend"]].append(r)
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for (puzzle, backend), rs in groups.items():
        times = [float(r["time"]) for r in rs if r.get("time") not in (None, "")]
        peaks = [float(r["peak_rss_mb"]) for r in rs if r.get("peak_rss_mb") not in (None, "")]
        conflicts = [int(float(r["conflicts"])) for r in rs if r.get("conflicts") not in (None, "")]
        winners = [r["winner"] for r in rs if r.get("winner") not in (None, "")]
        out[puzzle][backend] = {
            "time": median(times) if times else None,
            "verdict": Counter(outcome(r) for r in rs).most_common(1)[0][0],
            "size": rs[0]["size"],
            "peak_rss_mb": max(peaks) if peaks else None,
            "conflicts": int(median(conflicts)) if conflicts else None,
            "winner": Counter(winners).most_common(1)[0][0] if winners else None,
        }
    return out


def _fmt(t: float | None) -> str:
    if t is None or math.isnan(t):
        return "-"
    return f"{t:.3f}" if t < 100 else f"{t:.1f}"


def _ratio(table: dict, backend: str, base: str) -> tuple[float | None, int]:
    """Geometric mean of time(backend) / time(base) over the puzzles both ended in time."""
    logs = []
    for answers in table.values():
        a, b = answers.get(backend), answers.get(base)
        if a and b and a["verdict"] in DONE and b["verdict"] in DONE:
            logs.append(math.log(max(a["time"], 1e-6) / max(b["time"], 1e-6)))
    return (math.exp(sum(logs) / len(logs)) if logs else None), len(logs)


def summary_lines(table: dict, backends: list[str]) -> list[str]:
    """The per-backend table: totals, median, p95, max, verdict counts, ratio to the first."""
    base = backends[0]
    seen = {a["verdict"] for t in table.values() for a in t.values()}
    shown = [v for v in OUTCOMES if v in seen or v in ("timeout", "error")]
    lines = [f"| backend | puzzles | finished in time | total s | median s | p95 s | max s | "
             + " | ".join(shown) + f" | time / {base} (geo-mean) |",
             "|---|---:|---:|---:|---:|---:|---:|" + "---:|" * len(shown) + "---:|"]
    for b in backends:
        answers = [t[b] for t in table.values() if b in t]
        times = [a["time"] for a in answers if a["time"] is not None and a["verdict"] != "skipped"]
        verdicts = Counter(a["verdict"] for a in answers)
        finished = sum(verdicts[v] for v in DONE)
        ratio, n = _ratio(table, b, base)
        ratio_cell = "1" if b == base else (f"{ratio:.3g} (on {n})" if ratio is not None else "-")
        lines.append(f"| {b} | {len(answers)} | {finished} | {_fmt(sum(times)) if times else '-'} | "
                     f"{_fmt(percentile(times, 50))} | {_fmt(percentile(times, 95))} | "
                     f"{_fmt(max(times) if times else None)} | "
                     + " | ".join(str(verdicts.get(v, 0)) for v in shown) + f" | {ratio_cell} |")
    return lines


def disagreements(table: dict) -> list[str]:
    """Puzzles where two backends finished with different verdicts (a bug somewhere)."""
    out = []
    for puzzle, answers in table.items():
        finished = {b: a["verdict"] for b, a in answers.items() if a["verdict"] in FINISHED}
        if len(set(finished.values())) > 1:
            out.append(f"`{puzzle}`: " + ", ".join(f"{b} {v}" for b, v in finished.items()))
    return out


def puzzle_lines(table: dict, backends: list[str], show: int, memory: bool) -> tuple[str, list[str]]:
    """Per-puzzle times side by side: every puzzle if there are at most ``show``, else the slowest."""
    def slowest(item):
        return max((a["time"] or 0.0) if a["verdict"] != "error" else 0.0 for a in item[1].values())

    items = list(table.items())
    title = "Every puzzle"
    if len(items) > show:
        items = sorted(items, key=slowest, reverse=True)[:show]
        title = f"The {show} slowest puzzles, by their slowest backend"
    head = "| puzzle | size | " + " | ".join(backends) + " |"
    if memory:
        head += " " + " | ".join(f"{b} peak MB" for b in backends) + " |"
    cols = len(backends) * (2 if memory else 1)
    lines = [head, "|---|---|" + "---:|" * cols]
    for puzzle, answers in items:
        size = next(iter(answers.values()))["size"]
        cells = []
        for b in backends:
            a = answers.get(b)
            if a is None:
                cells.append("-")
            elif a["verdict"] == "error" or a["time"] is None:
                cells.append(a["verdict"])
            else:
                cells.append(f"{_fmt(a['time'])} {a['verdict']}" + _engine_note(a))
        if memory:
            for b in backends:
                peak = (answers.get(b) or {}).get("peak_rss_mb")
                cells.append("-" if peak is None else f"{peak:.0f}")
        lines.append(f"| {puzzle} | {size} | " + " | ".join(cells) + " |")
    return title, lines


def _engine_note(answer: dict) -> str:
    """`` (2,771 c, lcg)``: the conflicts and the answering part of a race, when reported.

    >>> _engine_note({"conflicts": 2771, "winner": "lcg"}), _engine_note({"conflicts": None, "winner": None})
    (' (2,771 c, lcg)', '')
    """
    parts = [f"{answer['conflicts']:,} c"] if answer.get("conflicts") is not None else []
    parts += [answer["winner"]] if answer.get("winner") else []
    return f" ({', '.join(parts)})" if parts else ""


BINS = (0.1, 0.2, 0.5, 1.0, 4.0, 10.0, 30.0)


def histogram_lines(table: dict, backends: list[str]) -> list[str]:
    """Puzzles per time bin and backend; timeouts and errors in their own columns."""
    edges = (0.0,) + BINS
    names = [f"{lo:g}-{hi:g} s" for lo, hi in zip(edges, BINS)] + [f">= {BINS[-1]:g} s", "timeout", "error"]
    lines = ["| backend | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for b in backends:
        counts = Counter()
        for answers in table.values():
            a = answers.get(b)
            if a is None:
                continue
            if a["verdict"] in ("timeout", "error"):
                counts[a["verdict"]] += 1
            else:
                counts[names[sum(a["time"] >= edge for edge in BINS)]] += 1
        lines.append(f"| {b} | " + " | ".join(str(counts.get(n, 0)) for n in names) + " |")
    return lines


def markdown(rows: list[dict], backends: list[str], header: list[str], show: int = 30,
             histogram: bool = False) -> str:
    """The whole report: ``header`` lines, then the summary, disagreements, an optional
    histogram of times and the per-puzzle table (at most ``show`` puzzles)."""
    table = per_puzzle(rows)
    memory = any(r.get("peak_rss_mb") not in (None, "") for r in rows)
    lines = list(header) + [""] + summary_lines(table, backends) + [""]
    lines.append("Times are per solve (median over repeats); total, median, p95 (95th percentile) and "
                 "max count a timeout at the time it took and leave errors out; the last column is the "
                 f"geometric mean of the per-puzzle ratio over the puzzles both {backends[0]} and that "
                 "backend ended within the limit (below 1: faster).")
    if any(a["verdict"] == "solved" for t in table.values() for a in t.values()):
        lines.append("`solved`: a solution was found and the search stopped at max_solutions, so "
                     "uniqueness was not decided (the CSV's `verdict_of` column calls this `timeout`; "
                     "its `status` column says `solved`).")
    lines.append("")
    wrong = disagreements(table)
    if wrong:
        lines += ["**Backends disagree** on " + str(len(wrong)) + " puzzle(s):", ""]
        lines += [f"- {w}" for w in wrong] + [""]
    skipped = Counter(r["backend"] for r in rows if r["status"] == "skipped")
    if skipped:
        lines += ["`skipped`: not run, because the backend had already failed to finish smaller puzzles "
                  "within the limit in this run (`--skip-larger K`: K of them): " +
                  ", ".join(f"{b} {n}" for b, n in skipped.items()) + ".", ""]
    errors = [r for r in rows if r["status"] == "error"]
    if errors:
        lines += ["Errors:", ""] + [f"- `{r['puzzle']}` {r['backend']}: {r['error']}" for r in errors[:20]]
        lines += ([f"- ... and {len(errors) - 20} more"] if len(errors) > 20 else []) + [""]
    title, table_lines = puzzle_lines(table, backends, show, memory)
    if histogram:
        lines += ["Solve times, puzzles per bin (bins of nonogrid's rand30 table, "
                  "../shared/docs/algorithms.md §6.2):", ""] + histogram_lines(table, backends) + [""]
    lines += [title + " (time in s and verdict per backend; in brackets the conflicts, where the engine "
                      "reports them, and the part of an auto race that answered):", ""] + table_lines
    return "\n".join(lines) + "\n"


def write_chart(kind: str, rows: list[dict], backends: list[str], path: Path, title: str,
                time_limit: float | None = None) -> str:
    """Draw the suite's chart into ``path`` (PNG); returns a message saying what happened."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        return f"chart skipped: matplotlib is not available ({exc})"
    table = per_puzzle(rows)
    fig = Figure(figsize=(11, 6) if kind != "slowest" else (11, 9), layout="constrained")
    FigureCanvasAgg(fig)
    if kind == "scaling":
        _scaling(fig, table, backends)
    elif kind == "strategies":
        _strategies(fig, table, backends, time_limit)
    elif kind == "distribution":
        _distribution(fig, table, backends)
    else:
        _slowest(fig, table, backends)
    fig.suptitle(title)
    fig.savefig(path, dpi=110)
    return f"chart written: {path}"


def _finished_times(table: dict, backend: str) -> list[tuple[str, float]]:
    return [(p, a[backend]["time"]) for p, a in table.items()
            if backend in a and a[backend]["verdict"] in DONE and a[backend]["time"] is not None]


def _scaling(fig, table: dict, backends: list[str]) -> None:
    ax_time, ax_mem = fig.subplots(1, 2)
    for b in backends:
        points = sorted(((_cells(a[b]["size"]), a[b]) for a in table.values() if b in a),
                        key=lambda point: point[0])
        done = [(c, a["time"]) for c, a in points if a["verdict"] in DONE and a["time"]]
        if done:
            ax_time.plot(*zip(*done), marker="o", label=b)
        mem = [(c, a["peak_rss_mb"]) for c, a in points if a["peak_rss_mb"]]
        if mem:
            ax_mem.plot(*zip(*mem), marker="o", label=b)
    for ax, label in ((ax_time, "solve time (s), finished solves"), (ax_mem, "peak RSS (MB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("cells")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend()


def _strategies(fig, table: dict, backends: list[str], time_limit: float | None) -> None:
    """Time against cells per backend: finished solves as dots, timeouts as crosses at
    the limit (skipped solves are not drawn), with the number finished in the legend."""
    ax = fig.subplots()
    for b in backends:
        points = sorted(((_cells(a[b]["size"]), a[b]) for a in table.values()
                         if b in a and a[b]["size"] != "?"), key=lambda point: point[0])
        done = [(c, max(a["time"], 1e-5)) for c, a in points if a["verdict"] in DONE and a["time"] is not None]
        late = [(c, time_limit or a["time"] or 1.0) for c, a in points if a["verdict"] == "timeout"]
        line = ax.plot(*zip(*done), marker="o", linestyle="none", markersize=3, alpha=0.7,
                       label=f"{b} ({len(done)} finished)")[0] if done else None
        if late:
            ax.plot(*zip(*late), marker="x", linestyle="none", markersize=7,
                    color=line.get_color() if line else None,
                    label=f"{b}: {len(late)} not finished in time")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("cells")
    ax.set_ylabel("solve time (s); x = not finished within the limit")
    ax.grid(True, which="both", alpha=0.3)
    if ax.lines:
        ax.legend(fontsize=8)


def _distribution(fig, table: dict, backends: list[str]) -> None:
    ax = fig.subplots()
    for b in backends:
        times = sorted(t for _, t in _finished_times(table, b))
        if times:
            ax.plot(range(1, len(times) + 1), times, label=f"{b} ({len(times)} finished)")
    ax.set_yscale("log")
    ax.set_xlabel("puzzles finished (sorted by time)")
    ax.set_ylabel("solve time (s)")
    ax.grid(True, which="both", alpha=0.3)
    if ax.lines:
        ax.legend()


def _slowest(fig, table: dict, backends: list[str], show: int = 30) -> None:
    ax = fig.subplots()
    slowest = sorted(table, key=lambda p: max((a["time"] or 0.0) for a in table[p].values()),
                     reverse=True)[:show][::-1]
    height = 0.8 / max(1, len(backends))
    for k, b in enumerate(backends):
        ys = [i + k * height for i in range(len(slowest))]
        xs = [(table[p].get(b) or {}).get("time") or 0.0 for p in slowest]
        bars = ax.barh(ys, [max(x, 1e-4) for x in xs], height=height, label=b)
        for bar, p in zip(bars, slowest):
            if (table[p].get(b) or {}).get("verdict") not in DONE:
                bar.set_hatch("//")  # timeout or error: the bar is not a finished solve
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(slowest))], slowest, fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("solve time (s); hatched: timeout (at the limit) or error")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.legend()


def _cells(size: str) -> int:
    width, height = size.split("x")
    return int(width) * int(height)
