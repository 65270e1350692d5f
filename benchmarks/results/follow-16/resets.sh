# A/B: main's venv and this branch's, alternating, each size once per round (peak_reset.py: what explain adds).
for round in 1 2; do
  for a in "900 3" "1500 3" "700 6" "1200 6"; do
    for py in /work/main/.venv/bin/python /work/wt/follow16/.venv/bin/python; do
      echo "$py $(nice $py -B peak_reset.py $a)"
    done
  done
done
