"""The exhaustive census as a benchmark: time, CPU and load, locally or on a localhost Dask cluster.

    python -m benchmarks.census [--size 5x5] [--jobs 2] [--cluster 2] [--scheduler ADDR] [--out R.json]
                                [--no-symmetry]

``--jobs N``: N local processes.  ``--cluster N``: starts a real ``dask scheduler`` and N
``dask worker`` processes (one thread each) on localhost, runs the census there and stops
them.  ``--scheduler``: an existing cluster.  The counts are compared with the published
ones where known (OEIS A242876 unique, A391619 line-solvable, A384764 rectangles).
Prints one markdown row: size, where, wall seconds, CPU seconds of every process that
worked (this one, its children, or the Dask workers), the load averages before and
after, and the counts.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

import nonolab
from nonolab.exhaustive import parse_size

# size -> (unique, line-solvable); None where not published.
PUBLISHED = {"1x1": (2, 2), "2x2": (14, 14), "3x3": (384, 384), "4x4": (52362, 51234),
             "5x5": (25309575, 24976511), "6x5": (None, 781005372), "5x6": (None, 781005372),
             "7x4": (None, 195819250), "4x7": (None, 195819250)}


def _cpu_here() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _worker_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _start_cluster(workers: int, root: str) -> tuple[str, list[subprocess.Popen]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--no-dashboard"], cwd=root, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for i in range(workers):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads",
                                       "1", "--no-nanny", "--no-dashboard", "--local-directory", f"{root}/w{i}"],
                                      cwd=root, start_new_session=True, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    from dask.distributed import Client
    for _ in range(600):
        try:
            with Client(address, timeout=5, set_as_default=False) as client:
                if len(client.scheduler_info()["workers"]) == workers:
                    return address, procs
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the localhost cluster did not come up")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", type=int, default=0, help="start this many localhost dask workers")
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("--out", default=None)
    parser.add_argument("--no-symmetry", dest="symmetry", action="store_false",
                        help="check every picture (default: one of each orbit of the grid's symmetries)")
    args = parser.parse_args(argv)
    width, height = parse_size(args.size)
    procs: list[subprocess.Popen] = []
    scheduler = args.scheduler
    with tempfile.TemporaryDirectory() as root:
        try:
            if args.cluster:
                scheduler, procs = _start_cluster(args.cluster, root)
            client = None
            if scheduler:
                from dask.distributed import Client
                client = Client(scheduler, set_as_default=False)
                before_workers = sum(client.run(_worker_cpu).values())
            load_before = os.getloadavg()
            cpu, wall = _cpu_here(), time.perf_counter()
            result = nonolab.census(width, height, jobs=args.jobs, scheduler=scheduler, out=args.out,
                                    symmetry=args.symmetry)
            wall, cpu = time.perf_counter() - wall, _cpu_here() - cpu
            if client is not None:
                cpu += sum(client.run(_worker_cpu).values()) - before_workers
                client.close()
            load_after = os.getloadavg()
        finally:
            for proc in procs:
                try:
                    os.killpg(proc.pid, 9)
                except ProcessLookupError:
                    pass
                proc.wait()
    where = f"Dask, {args.cluster} localhost workers" if args.cluster else (
        f"Dask at {scheduler}" if scheduler else f"{args.jobs} local process(es)")
    where += ", symmetry" if args.symmetry else ", every picture"
    expected = PUBLISHED.get(args.size)
    matches = "" if expected is None else " (published: " + ", ".join(
        "ok" if e is None or e == f else f"MISMATCH {f} != {e}" for e, f in zip(expected, (result.unique, result.line))
    ) + ")"
    print("| size | where | wall s | CPU s | load before | load after | checked | unique | line-solvable | grades |")
    print("|---|---|---:|---:|---|---|---:|---:|---:|---|")
    grades = ", ".join(f"{k} {v:,}" for k, v in result.grades.items() if v)
    print(f"| {args.size} | {where} | {wall:.1f} | {cpu:.1f} | {', '.join(f'{x:.1f}' for x in load_before)} | "
          f"{', '.join(f'{x:.1f}' for x in load_after)} | {result.orbits:,} | {result.unique:,} | "
          f"{result.line:,}{matches} | {grades} |")


if __name__ == "__main__":
    main()
