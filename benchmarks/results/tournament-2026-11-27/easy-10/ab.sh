#!/bin/bash
# benchmarks.easy alternating this branch and main (a git archive of main's src with main's
# compiled engines, first on PYTHONPATH), N pairs from index FIRST; the load before and after each.
# Run from the worktree: bash benchmarks/results/tournament-2026-11-27/easy-10/ab.sh FIRST N MAINSRC
R=benchmarks/results/tournament-2026-11-27/easy-10
first=$1; n=$2; main=$3
for i in $(seq $first $((first + n - 1))); do
  for tree in branch main; do
    if [ $tree = main ]; then pp=$main:.; else pp=.:src; fi
    echo "== $tree $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    PATH=/work/peers/bin:$PATH PYTHONPATH=$pp .venv/bin/python -m benchmarks.easy --set taai2011 --count 300 \
        --specs auto,lcg --rounds 3 --out $R/$tree-$i.csv
    echo "   after: load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
