"""audit-14: the command line on sets of random puzzles (one process a set, the batched path):
`nonolab check SET.json` and `nonolab count SET.json --limit N` per puzzle against oracle.py.

    PYTHONPATH=. nice python benchmarks/results/audit-14/cli.py --start 0 --count 10
"""
import argparse, json, random, re, subprocess, sys, tempfile
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from fuzz import make_case, puzzle_of  # noqa: E402

WORDS = ("unique", "multiple", "contradiction", "timeout")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--out", default="/tmp/a14c")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.formats import dumps_all
    from nonolab.errors import NonolabError
    exe = str(Path(sys.executable).parent / "nonolab")
    tally = Counter()

    def bad(**rec):
        tally["BAD"] += 1
        with open(out / "findings.jsonl", "a") as f:
            f.write(json.dumps(rec, default=str) + "\n")

    for chunk in range(a.start, a.start + a.count):
        rnd = random.Random(f"a14c-{chunk}")
        puzzles, truths = [], []
        for i in range(60):
            seed = 900000 + chunk * 60 + i
            _, colours, rows, cols, givens = make_case(seed)
            try:
                t = oracle.solutions(rows, cols, givens, limit=13)
                p = puzzle_of(colours, rows, cols, givens)
            except (oracle.TooBig, NonolabError):
                continue
            puzzles.append(p)
            truths.append(len(t))
        backend = rnd.choice(["auto", "native", "lcg", "cnf", "cpsat", "native:probing=none", "auto:threads=1"])
        tl = rnd.choice([None, None, "0.002", "0.05"])
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "set.json"
            path.write_text(dumps_all(puzzles, "json"))
            for cmd in ("check", "count"):
                args = [exe, cmd, str(path), "-b", backend]
                limit = None
                if tl:
                    args += ["--time-limit", tl]
                if cmd == "count":
                    limit = rnd.choice([None, 1, 2, 3, 10])
                    if limit is None and max(truths) > 12:
                        limit = 10   # (a count of all of a 12x12 permutation's 479 million: not a question to ask here)
                    if limit:
                        args += ["--limit", str(limit)]
                proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
                tally[f"{cmd}-sets"] += 1
                lines = [l for l in proc.stdout.splitlines() if re.match(r"#\d+", l)]
                if len(lines) != len(puzzles) and not (tl and "more puzzles not answered: --time-limit" in proc.stdout):
                    bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, detail=f"{len(lines)} answers for {len(puzzles)}",
                        stdout=proc.stdout[-2000:], stderr=proc.stderr[-2000:], rc=proc.returncode)
                    continue
                all_unique = True
                if len(lines) != len(puzzles):
                    all_unique = False
                    tally["cut-by-the-command-limit"] += 1
                for line, T in zip(lines, truths):
                    n = int(re.match(r"#(\d+)", line).group(1))
                    tail = line.split(":")[-1].strip()
                    tally[f"{cmd}-answers"] += 1
                    if cmd == "check":
                        want = {0: "contradiction", 1: "unique"}.get(T, "multiple")
                        word = tail.split()[0] if tail else ""
                        if word not in WORDS:
                            bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, detail=f"word {word!r}", line=line)
                        elif word != want and not (word == "timeout" and tl):
                            bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, detail=f"{word}, oracle {want}", line=line)
                        all_unique &= word == "unique"
                    else:
                        m = re.match(r"(at least )?(\d+)", tail)
                        if not m:
                            bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, detail="unreadable count", line=line)
                            continue
                        k, exact = int(m.group(2)), not m.group(1)
                        if exact and (k != T or (limit and T > limit)) and T <= 12:
                            bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, limit=limit, detail=f"{k}, oracle {T}", line=line)
                        if exact and T > 12 and k <= 12:
                            bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, limit=limit, detail=f"{k}, oracle >12", line=line)
                        if not exact and (k > T or (not tl and (limit is None or k < limit))):
                            bad(chunk=chunk, cmd=cmd, backend=backend, tl=tl, limit=limit, detail=f"at least {k}, oracle {T}", line=line)
                if cmd == "check" and (proc.returncode == 0) != all_unique:
                    bad(chunk=chunk, cmd=cmd, backend=backend, detail=f"exit {proc.returncode}, all unique {all_unique}")
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
