#!/bin/bash
# Alternate this branch and main (b98896f's package and its compiled engines) on benchmarks.easy.
cd /work/wt/easy8 && . .venv/bin/activate
OUT=benchmarks/results/tournament-2026-11-27/easy-8
for i in 1 2 3; do
  for who in branch main; do
    if [ $who = main ]; then PP=/tmp/e8/main-src/src:.; else PP=.; fi
    echo "== $who $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    PATH=/work/peers/bin:$PATH PYTHONPATH=$PP python -m benchmarks.easy --set taai2011 --count 300 --specs auto,lcg --rounds 3 --out $OUT/$who-$i.csv
    echo "   after: load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
