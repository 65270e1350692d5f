"""The 39 hard puzzles: sums of many.py JSON lines against search-4's default column.  python the39.py t39-*.jsonl"""
import csv, json, os, sys
base = {r['puzzle']: float(r['lcg'].rstrip('+')) for r in csv.DictReader(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tail39.csv')))}
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f)]
specs = list(dict.fromkeys(r['spec'] for r in rows))
print('the 39 (default, search-4):', f"{sum(base.values()):,.0f}", 'slowest', f"{max(base.values()):,.0f}", '>50k', sum(v > 50000 for v in base.values()))
for s in specs:
    got = {r['puzzle']: r for r in rows if r['spec'] == s}
    if len(got) < len(base): print(s, 'incomplete', len(got)); continue
    tot = sum(r['conflicts'] for r in got.values())
    print(s, f"{tot:,} ({tot/sum(base.values())-1:+.1%})", 'slowest', f"{max(r['conflicts'] for r in got.values()):,}",
          '>50k', sum(r['conflicts'] > 50000 for r in got.values()), 'worse', sum(got[k]['conflicts'] > base[k] for k in base),
          'rescue won', sum(r['winner'] >= 1 for r in got.values()), 'cpu', round(sum(r['cpu'] for r in got.values()), 1),
          '>2s', sum(r['cpu'] > 2 for r in got.values()))
