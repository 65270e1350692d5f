import random, sys, os
from PIL import Image, ImageDraw
import nonolab.generate.image as gi
from nonolab.generate import colour_picture_from_image
INKS = [(255,0,0),(0,0,255),(0,160,0),(255,200,0),(128,0,128),(0,0,0),(255,128,0),(0,200,200)]
def make(seed):
    rng = random.Random(seed)
    k = rng.randint(2, 4); inks = rng.sample(INKS, k)
    S = rng.choice([80, 160, 400]); aa = rng.random() < 0.5
    big = S * (4 if aa else 1)
    im = Image.new("RGB", (big, big), "white"); d = ImageDraw.Draw(im)
    for i, ink in enumerate(inks):
        for _ in range(rng.randint(1, 3)):
            x, y = rng.randint(0, big*2//3), rng.randint(0, big*2//3); w = rng.randint(big//8, big//3)
            (d.ellipse if rng.random() < 0.5 else d.rectangle)((x, y, x + w, y + w), fill=ink)
    if aa: im = im.resize((S, S), Image.Resampling.LANCZOS)
    path = f"/tmp/a18img/{seed}.png"; im.save(path)
    return path, inks, rng.choice([10, 15, 20, 30])
os.makedirs("/tmp/a18img", exist_ok=True)
def present(path, inks):
    im = Image.open(path).convert("RGB"); px = im.getcolors(10**7); tot = im.width * im.height
    share = {c: 0 for c in inks}
    for cnt, col in px:
        for ink in inks:
            if sum((a-b)**2 for a, b in zip(ink, col)) ** .5 < 30: share[ink] += cnt
    return [i for i in inks if share[i] / tot > 0.03]
def score(path, inks, n):
    inks = present(path, inks)
    if len(inks) < 2: return None
    pic, pal = colour_picture_from_image(path, n, n, len(inks))
    got = [c.rgb for c in pal][1:]
    hit = sum(1 for ink in inks if any(sum((a-b)**2 for a, b in zip(ink, g)) ** .5 < 80 for g in got))
    return hit, len(inks)
cases = [make(s) for s in range(int(sys.argv[1]))]
res = [r for r in (score(*c) for c in cases) if r]
print("all inks found:", sum(h == k for h, k in res), "of", len(res), "; inks found", sum(h for h, _ in res), "of", sum(k for _, k in res))
