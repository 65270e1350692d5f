import sys; sys.argv = ["x", "0"]
exec(open(__file__.replace("image_quantisers.py", "image_inks.py")).read().split("cases = ")[0])
import numpy as np
from PIL import Image
def variant(path, n, k, resample, method, kmeans=0):
    im = Image.open(path).convert("RGB")
    if im.width > 4*n: im = im.resize((4*n, 4*n), resample)
    q = im.quantize(colors=k+1, method=method, dither=Image.Dither.NONE, kmeans=kmeans)
    tab = q.getpalette(); e = np.asarray(q); found = int(e.max()) + 1
    cnt = np.bincount(e.ravel(), minlength=found)
    rgbs = [tuple(tab[3*i:3*i+3]) for i in range(found) if cnt[i]]
    return rgbs
cases = [make(s) for s in range(200)]
for name, rs, m, km in [("box-median", Image.Resampling.BOX, Image.Quantize.MEDIANCUT, 0), ("nearest-median", Image.Resampling.NEAREST, Image.Quantize.MEDIANCUT, 0),
                        ("box-octree", Image.Resampling.BOX, Image.Quantize.FASTOCTREE, 0), ("nearest-octree", Image.Resampling.NEAREST, Image.Quantize.FASTOCTREE, 0),
                        ("nearest-maxcov", Image.Resampling.NEAREST, Image.Quantize.MAXCOVERAGE, 0),
                        ("nearest-median-kmeans", Image.Resampling.NEAREST, Image.Quantize.MEDIANCUT, 10), ("box-median-kmeans", Image.Resampling.BOX, Image.Quantize.MEDIANCUT, 10)]:
    ok = tot = 0
    for path, inks, n in cases:
        inks = present(path, inks)
        if len(inks) < 2: continue
        got = variant(path, n, len(inks), rs, m, km)
        tot += 1; ok += all(any(sum((a-b)**2 for a, b in zip(ink, g)) ** .5 < 80 for g in got) for ink in inks)
    print(name, ok, "of", tot)
