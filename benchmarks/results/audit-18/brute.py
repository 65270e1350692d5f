"""Independent count (up to 2) of a puzzle's solutions: rows enumerated, columns checked."""
import itertools
def line_options(clue, n, colours=None):
    # clue: list of (length, colour) or ints (bw); returns list of tuples of cell values (0 background)
    blocks = [(b, 1) if isinstance(b, int) else tuple(b) for b in clue if (b if isinstance(b, int) else b[0])]
    out = []
    def rec(i, pos, acc):
        if i == len(blocks):
            out.append(tuple(acc + [0] * (n - len(acc)))); return
        length, col = blocks[i]
        rest = sum(b[0] for b in blocks[i+1:])
        gaps_rest = sum(1 for j in range(i+1, len(blocks)) if blocks[j][1] == blocks[j-1][1])
        for start in range(pos, n - length - rest - gaps_rest + 1):
            a = acc + [0] * (start - len(acc)) + [col] * length
            nxt = start + length
            if i + 1 < len(blocks) and blocks[i+1][1] == col:
                if nxt >= n: continue
                a = a + [0]; nxt += 1
            rec(i + 1, nxt, a)
    rec(0, 0, [])
    return out
def runs(line):
    out = []; prev = 0
    for v in line:
        if v and v == prev: out[-1][0] += 1
        elif v: out.append([v and 1, v])
        prev = v
    return [(l, c) for l, c in out]
def count(rows, cols, width, height, givens=(), limit=2):
    ropts = [line_options(r, width) for r in rows]
    g = {(r, c): v for r, c, v in givens}
    ropts = [[o for o in opts if all(g.get((i, c), o[c]) == o[c] for c in range(width))] for i, opts in enumerate(ropts)]
    ctargets = [[(b, 1) if isinstance(b, int) else tuple(b) for b in col if (b if isinstance(b, int) else b[0])] for col in cols]
    found = []
    grid = []
    def col_ok(final):
        for c in range(width):
            got = runs([grid[r][c] for r in range(len(grid))])
            t = ctargets[c]
            if final:
                if got != t: return False
            else:
                # prefix check: all complete runs must match; last run may be partial
                if len(got) > len(t): return False
                for k, (l, col) in enumerate(got):
                    tl, tc = t[k]
                    if col != tc: return False
                    last = k == len(got) - 1 and grid[-1][c] != 0
                    if (l > tl) or (not last and l != tl): return False
        return True
    def rec(i):
        if len(found) >= limit: return
        if i == height:
            if col_ok(True): found.append([list(r) for r in grid])
            return
        for o in ropts[i]:
            grid.append(o)
            if col_ok(False): rec(i + 1)
            grid.pop()
            if len(found) >= limit: return
    rec(0)
    return found
def count_puzzle(p, limit=2):
    if p.is_colour:
        rows = [list(r) for r in p.coloured_rows]
        cols = [list(c) for c in p.coloured_columns]
    else:
        rows, cols = [list(r) for r in p.rows], [list(c) for c in p.columns]
    return count(rows, cols, p.width, p.height, p.givens, limit)
