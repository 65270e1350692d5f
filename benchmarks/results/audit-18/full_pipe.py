import subprocess, signal, time, glob, sys
import os; NL = os.environ.get("NONOLAB", "nonolab")
def blocked(pid):
    for t in glob.glob(f"/proc/{pid}/task/*/wchan"):
        try:
            if "pipe_write" in open(t).read(): return True
        except OSError: pass
    return False
def run(args, sig=signal.SIGINT):
    p = subprocess.Popen([NL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    end = time.monotonic() + 60
    while not blocked(p.pid) and p.poll() is None and time.monotonic() < end: time.sleep(0.05)
    if p.poll() is not None: return ("ended", p.returncode)
    t = time.monotonic(); p.send_signal(sig)
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill(); p.wait(); return ("HUNG > 10 s after the signal", None)
    err = p.stderr.read().decode()
    return (round(time.monotonic() - t, 2), rc, err.strip()[-100:])
for args in (["generate", "--size", "100x100", "-n", "40", "-t", "json"],
             ["solve", "/tmp/a18r/big500.txt"] if False else ["convert", "/tmp/a18r/big500.txt", "--to", "json"]):
    for sig in (signal.SIGINT, signal.SIGTERM):
        print(args[0], sig.name, run(args, sig))
