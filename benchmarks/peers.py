"""nonolab and nonosolve side by side: CPU time of both, alternating, in one run.

    python -m benchmarks.peers tournament [--sets taai2011,tcga2016] [--mode first|check] [--rounds 1]
        [--backend auto] [--out DIR]
    python -m benchmarks.peers puzzles FILE... [--mode check|first] [--time-limit 60] [--backend auto] [--out DIR]

The machine is shared, so every figure is CPU time (user + sys) and the two solvers run
alternately (round r: nonosolve first when r is even), one process at a time.

``tournament``: each TAAI set of ``../shared/tournament`` (1000 puzzles of 25x25) whole,
in order, in one process per solver, as the tournament rule has it: ``nonosolve --taai SET``
(``-n 2`` with ``--mode check``) against ``nonolab solve SET --json`` (``--check``), the
command a user runs.  The process's CPU time is read from ``wait4`` (its children
included: auto's Kissat worker); Python's start-up and imports are in it.  Per puzzle:
nonosolve's ``--log`` and nonolab's JSON give wall times (the same load for both: their
ratio and medians are fair, their absolute values inflated).  Every answer is checked
against the clues here, nonosolve's too.

``puzzles``: each file alone, count to 2 by default: ``nonosolve -n 2 --timeout T FILE`` in a
process of its own against nonolab in one long-lived process (``--child``) that solves
them in turn and reports each puzzle's CPU time: the process's own, plus any Kissat worker's
(read from /proc while it lives, from the reaped children once it ends).

Writes ``OUT/peers-<kind>-<mode>.csv`` and prints a markdown table with the ratios;
``tournament`` also writes ``OUT/peers-tournament-<mode>-slow.csv``: every puzzle over 1 s of
wall for either solver, with both solvers' wall times (and, with ``--mode check``, both verdicts).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
NONOSOLVE = Path(os.environ.get("NONOSOLVE", "/work/peers/bin/nonosolve"))
TOURNAMENT = SHARED / "tournament"
SETS = ("taai2011", "taai2013", "taai2014", "taai2015", "taai2016", "taai2017", "taai2018", "tcga2012", "tcga2013",
        "tcga2014", "tcga2015", "tcga2016", "icga2016", "icga2017", "icga2018")
CHILD_PREFIX = "PEER "


def _spawn(command: list[str]) -> tuple[str, str, int, float]:
    """Run ``command``; (stdout, stderr, exit status, CPU seconds), reaping it ourselves."""
    import selectors

    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Read both pipes without waiting on the process (wait4 below reaps it, with its usage).
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    selector.register(process.stderr, selectors.EVENT_READ)
    chunks = {process.stdout: [], process.stderr: []}
    while selector.get_map():
        for key, _ in selector.select():
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                selector.unregister(key.fileobj)
            else:
                chunks[key.fileobj].append(data)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    out, err = b"".join(chunks[process.stdout]), b"".join(chunks[process.stderr])
    return out.decode(), err.decode(), process.returncode, usage.ru_utime + usage.ru_stime


def _taai_rows(path: Path) -> dict[str, list[str]]:
    """A TAAI solution file (``$id`` then rows of tab-separated 0/1) as {id: rows of #/.}."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in path.read_text().splitlines():
        if line.startswith("$"):
            current = found.setdefault(line[1:].strip(), [])
        elif line.strip() and current is not None:
            current.append("".join("#" if v == "1" else "." for v in line.split()))
    return found


def _check(puzzle, rows: list[str]) -> bool:
    from nonolab.core import Solution, violations
    return bool(rows) and not violations(puzzle, Solution.from_rows(rows))


def tournament(sets: list[str], mode: str, rounds: int, backend: str, out: Path) -> list[dict]:
    from nonolab.formats import load_all

    rows, slow = [], []
    for r in range(rounds):
        for name in sets:
            path = TOURNAMENT / f"{name}.txt"
            puzzles = {p.name.lstrip("$"): p for p in load_all(path)}
            order = ("nonosolve", "nonolab") if r % 2 == 0 else ("nonolab", "nonosolve")
            load_start = round(os.getloadavg()[0], 2)
            got: dict[str, dict] = {}
            for solver in order:
                got[solver] = (_nonosolve_set if solver == "nonosolve" else _nonolab_set)(path, mode, backend, puzzles)
            row = {"set": name, "round": r, "mode": mode, "load_start": load_start,
                   "load": round(os.getloadavg()[0], 2)}
            for solver in ("nonosolve", "nonolab"):
                g = got[solver]
                times = sorted(g["times"].values())
                row.update({f"{solver}_cpu": round(g["cpu"], 3), f"{solver}_median_wall": round(median(times), 5),
                            f"{solver}_over1_wall": sum(t > 1 for t in times),
                            f"{solver}_over2_wall": sum(t > 2 for t in times),
                            f"{solver}_max_wall": round(times[-1], 3),
                            f"{solver}_slowest": max(g["times"], key=g["times"].get),
                            f"{solver}_wrong": g["wrong"], f"{solver}_unsolved": g["unsolved"],
                            f"{solver}_multiple": g.get("multiple", "")})
            row["ratio_cpu"] = round(row["nonolab_cpu"] / row["nonosolve_cpu"], 3)
            if mode == "check":
                row["verdicts_differ"] = sum(got["nonosolve"]["verdicts"].get(k) != got["nonolab"]["verdicts"].get(k)
                                             for k in puzzles)
            rows.append(row)
            slow.extend(_slow_puzzles(name, r, got, mode))
            _write(out / f"peers-tournament-{mode}-slow.csv", slow)
            print(json.dumps(row), flush=True)
            _write(out / f"peers-tournament-{mode}.csv", rows)
    return rows


def _slow_puzzles(name: str, r: int, got: dict[str, dict], mode: str, over: float = 1.0) -> list[dict]:
    """The puzzles of one set over ``over`` s of wall for either solver, both solvers' times."""
    ns, nl = got["nonosolve"], got["nonolab"]
    keys = [k for k in ns["times"] if ns["times"][k] > over] + [k for k in nl["times"] if nl["times"][k] > over]
    found = []
    for key in sorted(set(keys), key=lambda k: int(k) if k.isdigit() else k):
        entry = {"set": name, "round": r, "puzzle": key, "nonosolve_wall": ns["times"].get(key),
                 "nonolab_wall": nl["times"].get(key)}
        if mode == "check":
            entry.update(nonosolve_verdict=ns["verdicts"].get(key), nonolab_verdict=nl["verdicts"].get(key))
        found.append(entry)
    return found


_NONOSOLVE_VERDICTS = {"UNIQUE": "unique", "MULTIPLE": "multiple", "NONE": "contradiction", "TIMEOUT": "timeout"}


def _nonosolve_set(path: Path, mode: str, backend: str, puzzles: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        solution, log = Path(tmp) / "out.sol", Path(tmp) / "log.txt"
        command = [str(NONOSOLVE), "--taai", str(path), "-o", str(solution), "--log", str(log)]
        if mode == "check":
            command += ["-n", "2"]
        _, _, _, cpu = _spawn(command)
        times, statuses = {}, {}
        for line in log.read_text().splitlines():
            if line.startswith("#"):
                parts = line[1:].split("\t")
                times[parts[0]] = float(parts[1])
                statuses[parts[0]] = parts[2]
        answers = _taai_rows(solution)
    wrong = sum(not _check(puzzles[k], answers.get(k, [])) for k in puzzles if statuses.get(k) != "NONE")
    unsolved = sum(statuses.get(k) in (None, "TIMEOUT", "ERROR") for k in puzzles)
    return {"cpu": cpu, "times": times, "wrong": wrong, "unsolved": unsolved,
            "multiple": sum(s == "MULTIPLE" for s in statuses.values()) if mode == "check" else "",
            "verdicts": {k: _NONOSOLVE_VERDICTS.get(s, s.lower()) for k, s in statuses.items()}}


def _nonolab_set(path: Path, mode: str, backend: str, puzzles: dict) -> dict:
    command = [sys.executable, "-m", "nonolab", "solve", "-b", backend, "--json", str(path)]
    if mode == "check":
        command.append("--check")
    out, err, code, cpu = _spawn(command)
    document = json.loads(out)
    records = document["puzzles"] if "puzzles" in document else [document]
    times, verdicts, wrong, unsolved, multiple = {}, {}, 0, 0, 0
    for record in records:
        key = (record.get("title") or "").lstrip("$")
        times[key] = record["time"]
        verdicts[key] = record.get("verdict")
        solutions = record.get("solutions") or []
        unsolved += not solutions
        wrong += bool(solutions) and not _check(puzzles[key], solutions[0])
        multiple += record.get("verdict") == "multiple"
    return {"cpu": cpu, "times": times, "wrong": wrong, "unsolved": unsolved,
            "multiple": multiple if mode == "check" else "", "verdicts": verdicts}


def puzzles_side_by_side(files: list[str], mode: str, limit: float, backend: str, out: Path) -> list[dict]:
    """Each file: nonosolve in a process of its own, nonolab in one long-lived child."""
    child = subprocess.Popen([sys.executable, "-m", "benchmarks.peers", "--child", backend, mode, str(limit)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO)
    rows = []
    try:
        for i, file in enumerate(files):
            row = {"puzzle": Path(file).name, "mode": mode, "load": round(os.getloadavg()[0], 2)}
            for solver in (("nonosolve", "nonolab") if i % 2 == 0 else ("nonolab", "nonosolve")):
                if solver == "nonosolve":
                    command = [str(NONOSOLVE), "-q", "--timeout", str(limit), "-n", "2" if mode == "check" else "1",
                               file]
                    text, _, _, cpu = _spawn(command)
                    first = text.splitlines()[0].split() if text else ["?", "?", "ERROR"]
                    row.update(nonosolve_cpu=round(cpu, 4), nonosolve_answer=first[2].lower())
                else:
                    child.stdin.write(file + "\n")
                    child.stdin.flush()
                    line = child.stdout.readline()
                    while not line.startswith(CHILD_PREFIX):
                        line = child.stdout.readline()
                    answer = json.loads(line[len(CHILD_PREFIX):])
                    row.update(nonolab_cpu=round(answer["cpu"], 4), nonolab_answer=answer["answer"],
                               nonolab_phase=answer["phase"])
            row["ratio_cpu"] = round(row["nonolab_cpu"] / max(row["nonosolve_cpu"], 1e-4), 3)
            rows.append(row)
            print(json.dumps(row), flush=True)
            _write(out / f"peers-puzzles-{mode}.csv", rows)
    finally:
        child.stdin.close()
        child.wait()
    return rows


def _child(backend: str, mode: str, limit: float) -> None:
    """The long-lived nonolab process of ``puzzles``: one file per stdin line."""
    from nonolab.formats import load
    from nonolab.harness.uniqueness import verdict_of
    from nonolab.solvers import build
    from nonolab.solvers.base import Limits

    solver = build(backend)
    solver.solve(load(str(REPO / "puzzles" / "hakank" / "lambda.non")), Limits(2, 60))  # imports, engines loaded
    for line in sys.stdin:
        puzzle = load(line.strip())
        before = _cpu_with_workers()
        result = solver.solve(puzzle, Limits(2 if mode == "check" else 1, limit))
        cpu = _cpu_with_workers() - before
        answer = verdict_of(result).value if mode == "check" or result.complete else (
            "found" if result.solutions else verdict_of(result).value)
        print(CHILD_PREFIX + json.dumps({"cpu": cpu, "answer": answer,
                                         "phase": result.stats.counters.get("phase")}), flush=True)


def _cpu_with_workers() -> float:
    """This process's CPU seconds and all its children's: those reaped (``getrusage``) and
    those still in ``/proc`` (:func:`_live_children_cpu`).

    Every child counts whatever state it is in, so the difference of two readings is never
    negative: counting only auto's idle Kissat workers lost a worker's past CPU once it was
    taken from the pool and killed mid-puzzle, not yet reaped (a negative figure).
    """
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    live = _live_children_cpu()
    # Reading /proc costs this process a few ms a call: left out, so that the difference
    # of two readings is the work between them (the earlier call's reading is in it).
    counted = own - _READING[0]
    _READING[0] += time.process_time() - own
    return counted + children.ru_utime + children.ru_stime + live


_READING = [0.0]   # CPU seconds this process has spent in _cpu_with_workers itself


def _live_children_cpu(parent: int | None = None) -> float:
    """CPU seconds of the processes whose parent is ``parent`` (default: this one) that are
    not reaped yet: running, idle, or killed and not yet waited for (a zombie keeps its
    times in ``/proc`` until reaped, when they move to ``RUSAGE_CHILDREN``); each with its
    own reaped children's."""
    parent = os.getpid() if parent is None else parent
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    try:
        entries = os.listdir("/proc")
    except OSError:   # no /proc: reaped children only
        return 0.0
    for name in entries:
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):   # ended meanwhile
            continue
        if int(fields[1]) == parent:    # utime, stime, cutime, cstime
            total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return total / ticks


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fields = list(dict.fromkeys(k for row in rows for k in row))
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def report(rows: list[dict], kind: str) -> str:
    """A markdown table of the rows and the totals."""
    if kind == "tournament":
        lines = ["| set | round | load | nonosolve CPU s | nonolab CPU s | ratio | median wall (ns / nl) | "
                 "over 1 s wall (ns / nl) | over 2 s wall (ns / nl) | slowest wall (ns / nl) |",
                 "|---|---:|---:|---:|---:|---:|---|---|---|---|"]
        for r in rows:
            lines.append(f"| {r['set']} | {r['round']} | {r.get('load_start', '')}-{r['load']} | "
                         f"{r['nonosolve_cpu']} | {r['nonolab_cpu']} | **{r['ratio_cpu']}** | "
                         f"{r['nonosolve_median_wall']} / {r['nonolab_median_wall']} | "
                         f"{r['nonosolve_over1_wall']} / {r['nonolab_over1_wall']} | "
                         f"{r['nonosolve_over2_wall']} / {r['nonolab_over2_wall']} | "
                         f"{r['nonosolve_max_wall']} (#{r['nonosolve_slowest']}) / "
                         f"{r['nonolab_max_wall']} (#{r['nonolab_slowest']}) |")
        ns, nl = sum(r["nonosolve_cpu"] for r in rows), sum(r["nonolab_cpu"] for r in rows)
        lines.append(f"| total | | | {ns:.1f} | {nl:.1f} | **{nl / ns:.3f}** | | | | |")
        return "\n".join(lines)
    lines = ["| puzzle | load | nonosolve | CPU s | nonolab | CPU s | ratio | nonolab phase |",
             "|---|---:|---|---:|---|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['puzzle']} | {r['load']} | {r['nonosolve_answer']} | {r['nonosolve_cpu']} | "
                     f"{r['nonolab_answer']} | {r['nonolab_cpu']} | {r['ratio_cpu']} | {r['nonolab_phase']} |")
    ns, nl = sum(r["nonosolve_cpu"] for r in rows), sum(r["nonolab_cpu"] for r in rows)
    lines.append(f"| total | | | {ns:.3f} | | {nl:.3f} | **{nl / ns:.3f}** | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2], float(argv[3]))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks.peers", description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("tournament", "puzzles"))
    parser.add_argument("files", nargs="*", help="puzzles: the puzzle files")
    parser.add_argument("--sets", default=",".join(SETS), help="tournament: comma-separated set names")
    parser.add_argument("--mode", choices=("first", "check"), default=None,
                        help="first solution or count to 2 (default: first for tournament, check for puzzles)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args(argv)
    if not NONOSOLVE.exists():
        print(f"nonosolve not found at {NONOSOLVE} (set NONOSOLVE)", file=sys.stderr)
        return 2
    if args.kind == "tournament":
        rows = tournament(args.sets.split(","), args.mode or "first", args.rounds, args.backend, args.out)
    else:
        rows = puzzles_side_by_side(args.files, args.mode or "check", args.time_limit, args.backend, args.out)
    print(report(rows, args.kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
