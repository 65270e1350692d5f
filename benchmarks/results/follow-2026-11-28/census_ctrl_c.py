"""census --scheduler on one worker (one thread): SIGINT once the first chunk has run a while; the time to exit,
the exit code, and the worker's CPU seconds in the 10 s after the signal (its chunk stopped: ~0; ran on: ~10 x share)."""
import os, signal, subprocess, sys, time
port, worker = open("port").read().strip(), int(open("worker.pid").read())
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
proc = subprocess.Popen([sys.argv[1], "-m", "nonolab", "census", "--size", "5x5", "--no-symmetry", "--out", "c.json",
                         "--scheduler", f"tcp://127.0.0.1:{port}", "--no-progress"], stderr=subprocess.PIPE)
start = cpu(worker)
while cpu(worker) - start < 2.0:   # the worker computes a chunk (5-6 CPU s each at 5x5 without symmetry)
    time.sleep(0.05)
t0 = time.perf_counter(); at = cpu(worker)
proc.send_signal(signal.SIGINT)
err = proc.communicate()[1]
took = time.perf_counter() - t0
time.sleep(10)
print(f"{sys.argv[2]}: exit {proc.returncode} {took:.2f} s after SIGINT; stderr {err.decode().strip()!r}; "
      f"worker CPU in the 10 s after: {cpu(worker) - at:.2f} s; load {open('/proc/loadavg').read().split()[:3]}")
