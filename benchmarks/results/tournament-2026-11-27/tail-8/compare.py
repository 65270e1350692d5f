"""Compare per-puzzle conflicts of scan CSVs: base vs others. python cmp.py N BASE OTHER..."""
import csv, sys
N = int(sys.argv[1])
def load(p): return {r['puzzle']: r for r in csv.DictReader(open(p))}
base = load(sys.argv[2])
bsum = sum(int(r['conflicts']) for r in base.values())
print(f"base {sys.argv[2].split('/')[-1]}: conflicts {bsum:,}, CPU {sum(float(r['cpu']) for r in base.values()):.2f}, slowest {max(int(r['conflicts']) for r in base.values()):,}, >50k {sum(int(r['conflicts'])>50000 for r in base.values())}, >1s/2s {sum(float(r['cpu'])>1 for r in base.values())}/{sum(float(r['cpu'])>2 for r in base.values())}")
for path in sys.argv[3:]:
    other = load(path)
    osum = sum(int(r['conflicts']) for r in other.values())
    under_same = all(other[k]['conflicts'] == r['conflicts'] and other[k]['solutions'] == r['solutions'] and other[k]['complete'] == r['complete']
                     for k, r in base.items() if int(r['conflicts']) <= N)
    changed = [(k, int(base[k]['conflicts']), int(other[k]['conflicts'])) for k in base if base[k]['conflicts'] != other[k]['conflicts']]
    worse = [c for c in changed if c[2] > c[1]]
    print(f"{path.split('/')[-1]}: conflicts {osum:,} ({osum/bsum-1:+.1%}), CPU {sum(float(r['cpu']) for r in other.values()):.2f}, slowest {max(int(r['conflicts']) for r in other.values()):,}, "
          f">50k {sum(int(r['conflicts'])>50000 for r in other.values())}, >1s/2s {sum(float(r['cpu'])>1 for r in other.values())}/{sum(float(r['cpu'])>2 for r in other.values())}, "
          f"under N identical: {under_same}, changed {len(changed)} (worse {len(worse)}), same answers: {all(other[k]['solutions']==base[k]['solutions'] and other[k]['complete']==base[k]['complete'] for k in base)}")
    print("   changed:", sorted(changed, key=lambda c: -c[1])[:12])
