for py in /work/main/.venv/bin/python /work/wt/compact14/.venv/bin/python; do
  for a in "900 3" "1500 3" "700 6" "1200 6"; do
    for m in build explain; do echo "$py $(nice $py -B peak_slope.py $a $m)"; done
  done
done
