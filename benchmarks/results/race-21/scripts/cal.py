import hashlib, threading, time, os
data = b"x" * 200_000_000
def h(): hashlib.sha256(data).digest()
for n in (1,2,1,2):
    t0=time.perf_counter(); c0=time.process_time()
    ts=[threading.Thread(target=h) for _ in range(n)]; [t.start() for t in ts]; [t.join() for t in ts]
    w=time.perf_counter()-t0; c=time.process_time()-c0
    print(n, f"wall {w:.2f} cpu {c:.2f} ratio {c/w:.2f} load {os.getloadavg()[0]:.2f}")
