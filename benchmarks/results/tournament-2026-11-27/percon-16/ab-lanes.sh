#!/bin/bash
# (throwaway, as run: "final" was the build of c5fe3d2 with the four-lane code, "novec" the same without it, the branch's final one)
P="icga2018:626 taai2015:701 tcga2016:492 tcga2013:708"
for r in 1 2; do
  if [ $r = 1 ]; then order="novec final"; else order="final novec"; fi
  for b in $order; do
    echo "# round $r build $b load $(cut -d' ' -f1 /proc/loadavg)"
    PYTHONPATH=$SRC_DIR/$b-src:/work/wt/percon16 /work/wt/percon16/.venv/bin/python drive.py 0 $P | sed "s/^{/{\"round\": $r, \"build\": \"$b\", /" | cut -c1-100
  done
done
