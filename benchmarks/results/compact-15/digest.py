# digest of explain's steps (text, and JSON as the CLI streams it) on a stripes colour puzzle
import hashlib, sys
from nonolab.core import Palette, Puzzle, Solution
from nonolab.harness.explanation import explain
n, k = int(sys.argv[1]), int(sys.argv[2])
cells = [[0 if c % 10 == 0 else 1 + r % k for c in range(n)] for r in range(n)]
p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
e = explain(p, time_limit=600)
h = hashlib.sha256()
for s in e.steps:
    h.update(s.describe().encode()); h.update("".join(s.json_chunks()).encode())
print(n, k, e.verdict.value, len(e.steps), sum(len(s.ruled_out) for s in e.steps), h.hexdigest()[:16])
