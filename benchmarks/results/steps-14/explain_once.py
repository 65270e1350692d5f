"""One explain in this process: prints puzzle, verdict, steps, a digest of the steps, CPU s (all threads)."""
import hashlib, sys, time, resource
from nonolab.formats import load
from nonolab.harness.explanation import explain
path = sys.argv[1]
p = load(path)
t = time.process_time()
e = explain(p, sys.argv[3] if len(sys.argv) > 3 else "auto", time_limit=float(sys.argv[2]) if len(sys.argv) > 2 else 60)
cpu = time.process_time() - t
digest = hashlib.sha1(repr([(s.technique.value, s.source, tuple(s.cells)) for s in e.steps]).encode()).hexdigest()[:8]
print(path.split("/")[-1], e.verdict.value, len(e.steps), e.search_steps, digest, f"{cpu:.3f}", e.result.stats.counters.get("phase"), e.result.stats.counters.get("native_nodes", e.result.stats.counters.get("nodes")), e.result.stats.counters.get("conflicts"), sep="\t")
