#!/bin/bash
# check.sh LIMIT: counters of the worktree build vs the base build on four puzzles
cd /tmp/inc17
P="icga2018:626 tcga2016:492 taai2015:701 tcga2012:652"
L=${1:-20000}
[ -f base.$L.txt ] || PYTHONPATH=/tmp/inc17/base-src:/work/wt/inc17 nice -n 19 /work/wt/inc17/.venv/bin/python drive.py $L $P | sed 's/"cpu": [0-9.]*, //' > base.$L.txt
PYTHONPATH=/work/wt/inc17/src:/work/wt/inc17 nice -n 19 /work/wt/inc17/.venv/bin/python drive.py $L $P > new.$L.txt
sed 's/"cpu": [0-9.]*, //' new.$L.txt > new.$L.cmp
python3 - $L <<'PY'
import json,sys
L=sys.argv[1]
b=[json.loads(l) for l in open(f'/tmp/inc17/base.{L}.txt')]; n=[json.loads(l) for l in open(f'/tmp/inc17/new.{L}.cmp')]
for x,y in zip(b,n):
    diff={k:(x[k],y[k]) for k in x if x[k]!=y[k]}
    print(x['puzzle'], 'SAME' if not diff else diff)
PY
