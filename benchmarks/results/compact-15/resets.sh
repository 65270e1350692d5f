for py in /work/main/.venv/bin/python /work/wt/compact14/.venv/bin/python; do
  for a in "900 3" "1500 3" "700 6" "1200 6"; do echo "$py $(nice $py -B peak_reset.py $a)"; done
done
