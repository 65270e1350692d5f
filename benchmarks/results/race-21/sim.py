# Race simulation: wall conflicts = min(lcg seed 0, join + rival), from the population scans
# (first solution, cap 300,000).  Run from benchmarks/results/tournament-2026-11-27:
#   python3 ../race-21/sim.py THRESHOLD JOIN,JOIN,...
# "odd" = the 1st, 3rd... of benchmarks.peers.SETS (the choice), "even" = the others (the check).
import csv, gzip, glob, os, sys
SETS = ("taai2011", "taai2013", "taai2014", "taai2015", "taai2016", "taai2017", "taai2018", "tcga2012", "tcga2013",
        "tcga2014", "tcga2015", "tcga2016", "icga2016", "icga2017", "icga2018")
ODD = set(SETS[0::2]); EVEN = set(SETS[1::2])
def load(p):
    with gzip.open(p,'rt') as f:
        return {(r['set'],r['puzzle']): int(r['conflicts']) if int(r.get('solved',1) or 0) else 300000 for r in csv.DictReader(f)}
base = load('tail-13/scan-lcg.csv.gz')
rivals = {'seed1':'tail-13/scan-seed1.csv.gz','seed2':'tail-13/scan-seed2.csv.gz','seed3':'tail-13/scan-seed3.csv.gz',
  'shake5000':'tail-13/scan-shake5000.csv.gz','viv-probe-s1':'tail-13/scan-vivify2000-probe-seed1.csv.gz',
  'viv-probe-s2':'tail-13/scan-vivify2000-probe-seed2.csv.gz','viv-probe':'tail-13/scan-vivify2000-probe.csv.gz',
  'la8':'tail-14/scan-la8.csv.gz','la8-s1':'tail-14/scan-la8-seed1.csv.gz','la16l3':'tail-14/scan-la16-levels3.csv.gz','la16l3-s1':'tail-14/scan-la16-levels3-seed1.csv.gz'}
for f in sorted(glob.glob('judge/scan-*.csv.gz')):
    rivals[os.path.basename(f)[9:-7]] = f
T = int(sys.argv[1]) if len(sys.argv) > 1 else 65000
joins = [int(x) for x in sys.argv[2].split(',')] if len(sys.argv) > 2 else [4000, 8000, 16000]
def stats(keys, r, b):
    over = sum(min(base[k], b + r.get(k, 300000)) > T for k in keys)
    extra = sum(min(max(base[k]-b, 0), r.get(k, 300000)) for k in keys)
    wall = sum(min(base[k], b + r.get(k, 300000)) for k in keys)
    return over, extra / sum(base[k] for k in keys) * 100, wall / sum(base[k] for k in keys) * 100
odd = [k for k in base if k[0] in ODD]; even = [k for k in base if k[0] in EVEN]
print(f'base over {T}: odd {sum(base[k]>T for k in odd)} even {sum(base[k]>T for k in even)}; rows {len(base)}')
print(f'{"rival":45s} ' + ' '.join(f'{"join "+str(b):>28s}' for b in joins))
print(f'{"":45s} ' + ' '.join(f'{"odd/even over, +cpu%, wall%":>28s}' for b in joins))
for name, p in rivals.items():
    r = load(p)
    miss = sum(k not in r for k in base)
    cells = []
    for b in joins:
        o = stats(odd, r, b); e = stats(even, r, b)
        cells.append(f'{o[0]:3d}/{e[0]:3d} +{(o[1]+e[1])/2:4.1f}% w{(o[2]+e[2])/2:5.1f}%')
    print(f'{name:45s} ' + ' '.join(f'{c:>28s}' for c in cells) + (f'  missing {miss}' if miss else ''))
