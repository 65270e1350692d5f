"""Audit 18b: large round trips (400x300 b/w, 300x200 in 5 colours) through every writer,
with CPU seconds per format."""
import random, resource, sys
from nonolab.core import Puzzle, Solution
from nonolab.formats import colour_formats, dump_bytes, load_bytes_all, names
from nonolab.errors import NonolabError

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime

rng = random.Random(7)
bw = Puzzle.from_solution(Solution.from_values([[int(rng.random() < .5) for _ in range(400)] for _ in range(300)]))
co = Puzzle.from_solution(Solution.from_values([[rng.choice([0, 0, 1, 2, 3, 4, 5]) for _ in range(300)] for _ in range(200)]))
bad = 0
for p, tag in ((bw, "bw"), (co, "colour")):
    for fmt in names():
        if p.is_colour and fmt not in colour_formats():
            continue
        t0 = cpu()
        try:
            data = dump_bytes(p, fmt)
        except NonolabError as e:
            print(tag, fmt, "refused:", e); continue
        back = load_bytes_all(data, "x", fmt)
        ok = len(back) == 1 and back[0].canonical() == p.canonical()
        bad += not ok
        print(tag, fmt, "ok" if ok else "DIFF", f"{len(data):,} bytes", f"{cpu() - t0:.2f} CPU s")
print("bad", bad)
