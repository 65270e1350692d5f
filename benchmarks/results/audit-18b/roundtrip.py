"""Audit 18b: write -> read round trips of every writer, random puzzles (b/w, colour, givens,
1xN, Nx1, empty lines, large), through text, bytes and files, with and without --from."""
from __future__ import annotations

import json
import random
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import NonolabError
from nonolab.formats import (colour_formats, dump, dump_bytes, givens_formats, holds_several, is_binary,
                             load, load_bytes_all, names, dumps_all, loads_all)

PICTURE = {"png", "pbm", "picture", "emoji"}
NUMBERED = {"ctu", "png", "emoji"}  # colours renumbered by first use


def picture(rng: random.Random, colours: int) -> Solution:
    shape = rng.choice(["small", "1xN", "Nx1", "1x1", "large", "small"])
    h, w = {"small": (rng.randint(1, 12), rng.randint(1, 12)), "1xN": (1, rng.randint(1, 60)),
            "Nx1": (rng.randint(1, 60), 1), "1x1": (1, 1),
            "large": (rng.randint(40, 90), rng.randint(40, 90))}[shape]
    density = rng.choice([0.0, 0.1, 0.5, 0.9, 1.0, rng.random()])
    rows = []
    for _ in range(h):
        kind = rng.choice(["empty", "full", "random", "random", "random"])
        if kind == "empty":
            rows.append([0] * w)
        elif kind == "full":
            rows.append([rng.randint(1, colours)] * w)
        else:
            rows.append([rng.randint(1, colours) if rng.random() < density else 0 for _ in range(w)])
    return Solution.from_values(rows)


def rgb_by_use(p: Puzzle) -> dict[int, tuple]:
    order: dict[int, int] = {}
    blocks = p.coloured_rows + p.coloured_columns if p.is_colour else ()
    for line in blocks:
        for _, c in line:
            order.setdefault(c, len(order) + 1)
    if not p.is_colour:
        return {1: p.palette[1].rgb} if p.palette is not None and len(p.palette) > 1 else {}
    return {n: p.palette[c].rgb for c, n in order.items()}


RGB = {"webpbn", "json", "toml", "pynogram", "non", "g", "png"}


def same(a: Puzzle, b: Puzzle, fmt: str) -> bool:
    """b read back from a: the same clues (colours numbered by first use: readers keep the
    colours a file uses) and, where the format holds RGB, each colour's RGB."""
    if a.is_colour or b.is_colour:
        ok = a.canonical() == b.canonical()
        return ok and (fmt not in RGB or rgb_by_use(a) == rgb_by_use(b))
    return a == b


def main(n: int, seed: int) -> dict:
    rng = random.Random(seed)
    tally: Counter = Counter()
    bad: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix="rt18b-"))
    for i in range(n):
        colours = rng.choice([1, 1, 2, 3, 5])
        sol = picture(rng, colours)
        if sol.colours <= 1 and colours > 1:
            colours = 1
        try:
            p = Puzzle.from_solution(sol, name=rng.choice(["", "t", "a & <b> \"q\"", "é ü"]))
        except NonolabError as e:
            tally["puzzle-refused"] += 1
            continue
        if rng.random() < 0.2:
            cells = [(r, c) for r in range(p.height) for c in range(p.width)]
            pick = rng.sample(cells, min(len(cells), rng.randint(1, 4)))
            p = p.with_(givens={rc: sol.values()[rc[0]][rc[1]] if hasattr(sol, 'values') else 0 for rc in pick}) \
                if False else p.with_(givens={rc: list(sol.row_bytes(rc[0]))[rc[1]] for rc in pick})
        for fmt in names():
            if p.is_colour and fmt not in colour_formats():
                continue
            if p.givens and fmt not in givens_formats():
                continue
            key = f"{fmt}:{'c' if p.is_colour else 'bw'}{':g' if p.givens else ''}"
            try:
                data = dump_bytes(p, fmt)
            except NonolabError as e:
                tally[key + ":write-refused"] += 1
                if "wr" not in str(e) and tally[key + ":write-refused"] < 3:
                    bad.append(f"refused {key} {p.width}x{p.height}: {e}")
                continue
            except Exception:
                bad.append(f"TRACEBACK write {key} {p.width}x{p.height}: {traceback.format_exc(limit=2)}")
                continue
            for how in ("named", "sniffed", "file"):
                try:
                    if how == "named":
                        back = load_bytes_all(data, "x", fmt)
                    elif how == "sniffed":
                        back = load_bytes_all(data, "x")
                    else:
                        path = tmp / f"p{i}.{fmt}"
                        dump(p, path, fmt)
                        back = [load(path, fmt)]
                    ok = len(back) == 1 and same(back[0], p, fmt)
                    if ok and p.givens and not p.is_colour:
                        ok = back[0].givens == p.givens
                    if ok and fmt in ("non", "webpbn", "json") and p.goal is not None and not p.is_colour:
                        ok = back[0].goal == p.goal
                    tally[f"{key}:{how}:{'ok' if ok else 'DIFF'}"] += 1
                    if not ok:
                        bad.append(f"DIFF {key} {how} {p.width}x{p.height} seed{seed} i{i}")
                except NonolabError as e:
                    tally[f"{key}:{how}:error"] += 1
                    if how != "sniffed" or fmt not in ("keen", "syro", "ish", "faase", "makhorin", "ctu"):
                        bad.append(f"ERR {key} {how} {p.width}x{p.height} i{i}: {e}")
                except Exception:
                    bad.append(f"TRACEBACK {key} {how}: {traceback.format_exc(limit=3)}")
    return {"tally": dict(sorted(tally.items())), "bad": bad}


if __name__ == "__main__":
    out = main(int(sys.argv[1]), int(sys.argv[2]))
    print(json.dumps(out["bad"][:60], indent=1))
    total = sum(out["tally"].values())
    print("cases", total, "bad", len(out["bad"]))
    Path(sys.argv[3] if len(sys.argv) > 3 else "/tmp/rt18b.json").write_text(json.dumps(out, indent=1))
