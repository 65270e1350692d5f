"""nonosolve's CPU (children's user+sys) on the ten one-puzzle files, first solution."""
import json, os, resource, subprocess, sys
for path in sorted(sys.argv[1:]):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["/work/peers/bin/nonosolve", "--format", "taai", "-n", "1", "-q", "-v", path], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(json.dumps({"file": os.path.basename(path), "cpu": round(cpu, 3), "load": round(os.getloadavg()[0], 2)}), flush=True)
