"""A count to 2 on two cores, in lcg's conflicts (both cores searching at the same rate; Kissat
assumed to answer none of these, as measured: lead-14), from replay.py's lines.

    python3 benchmarks/results/count-22/sim.py replay-tail.jsonl [JOIN_FIRST JOIN_COUNT]

Schemes (conflicts of wall time until the answer):
  first:  one solution, the seeded draw after JOIN_FIRST (main's first-solution mode);
  relay:  main's count: the seeded draw after JOIN_COUNT while lcg has no solution, stopped at
          lcg's first (then Kissat): min(lcg's answer, the seeded draw's if it comes first);
  early:  the same with the seeded draw after JOIN_FIRST;
  union:  early, and the answer as soon as the two engines hold two different solutions.
"""
import json, sys

rows = [json.loads(line) for line in open(sys.argv[1])]
jf, jc = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (12000, 38000)


def seeded(row, j):
    return row.get(f"j{j}")


def first(row):
    s = seeded(row, jf)
    return row["c1"] if s is None else min(row["c1"], jf + s["s1"])


def count(row, j, union=False):
    c1, c2, s = row["c1"], row["c2"], seeded(row, j)
    if s is None:   # lcg had its solution at the join: Kissat joins
        return c2, "lcg"
    if j + s["s2"] < c1:
        return j + s["s2"], "seeded"
    if union and j + s["s1"] < c1 and not s["same"]:
        return c1, "union"
    return c2, "lcg"


over = {k: 0 for k in ("first", "relay", "early", "union")}
tot = {k: 0 for k in over}
print(f"{'puzzle':14s} {'c1':>7s} {'c2':>7s} {'first':>7s} {'relay':>12s} {'early':>12s} {'union':>12s}")
for row in rows:
    f = first(row)
    r, e, u = count(row, jc), count(row, jf), count(row, jf, True)
    for k, v in (("first", f), ("relay", r[0]), ("early", e[0]), ("union", u[0])):
        tot[k] += v
        over[k] += v > 65000
    print(f"{row['puzzle']:14s} {row['c1']:7d} {row['c2']:7d} {f:7d} {r[0]:7d} {r[1]:>4s} {e[0]:7d} {e[1]:>4s} "
          f"{u[0]:7d} {u[1]:>4s}")
print("total", tot)
print("over 65,000", over)
