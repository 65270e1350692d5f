#!/bin/bash
# ab.sh ROUNDS: the ten tail puzzles to their first solution, base and new builds alternating
cd /tmp/tail10
TEN="icga2018:626 tcga2012:652 tcga2014:694 taai2015:701 taai2015:575 taai2015:600 icga2017:631 taai2014:670 tcga2016:492 tcga2013:708"
for r in $(seq 1 ${1:-2}); do
  if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for b in $order; do
    if [ $b = base ]; then SRC=/tmp/tail10/base-src; else SRC=${NEWSRC:-/work/wt/tail10/src}; fi
    echo "# round $r build $b load $(cut -d' ' -f1 /proc/loadavg)"
    PYTHONPATH=$SRC:/work/wt/tail10 /work/wt/tail10/.venv/bin/python drive.py 0 $TEN | sed "s/^{/{\"round\": $r, \"build\": \"$b\", /"
    echo "# end round $r build $b load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
