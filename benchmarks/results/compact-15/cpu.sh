for i in 1 2; do for py in /work/main/.venv/bin/python /work/wt/compact14/.venv/bin/python; do
  echo "$(cat /proc/loadavg | cut -d' ' -f1) $py $(nice $py -B cpu.py 700 6)"; done; done
