#!/bin/bash
# ab.sh ROUNDS: the ten tail puzzles to their first solution, main's build (BASE, a copy of
# main's src with its compiled engines) and this branch's (NEW) alternating, each in a fresh process.
# drive.py prints each puzzle's counters and the CPU of Engine.run alone (getrusage).
HERE=$(cd "$(dirname "$0")" && pwd)
TEN="icga2018:626 tcga2012:652 tcga2014:694 taai2015:701 taai2015:575 taai2015:600 icga2017:631 taai2014:670 tcga2016:492 tcga2013:708"
for r in $(seq 1 ${1:-2}); do
  if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for b in $order; do
    if [ $b = base ]; then SRC=$BASE; else SRC=$NEW; fi
    echo "# round $r build $b load $(cut -d' ' -f1 /proc/loadavg) $(date -u +%H:%M:%S)"
    PYTHONPATH=$SRC:$WT $WT/.venv/bin/python $HERE/drive.py 0 $TEN | sed "s/^{/{\"round\": $r, \"build\": \"$b\", /"
    echo "# end round $r build $b load $(cut -d' ' -f1 /proc/loadavg) $(date -u +%H:%M:%S)"
  done
done
