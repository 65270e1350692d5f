import threading, time, os
from benchmarks.tail import _puzzles
from nonolab.solvers import build
from nonolab.solvers.base import Limits
p = _puzzles("icga2017")["631"]
def spin(seconds):
    n = 0; c0 = time.thread_time(); end = time.perf_counter() + seconds
    while time.perf_counter() < end: n += 1
    return n, time.thread_time() - c0
alone = spin(1.0)
done = threading.Event()
t = threading.Thread(target=lambda: (build("lcg:conflict_limit=1000000").solve(p, Limits(1, 3.0)), done.set()))
t.start(); time.sleep(0.2)
beside = spin(1.0)
t.join()
print(f"python loop alone: {alone[0]} iterations, {alone[1]:.2f} CPU s; beside an lcg search in another thread: {beside[0]} iterations, {beside[1]:.2f} CPU s; load {os.getloadavg()[0]:.2f}")
