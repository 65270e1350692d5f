"""Audit 18b: a sample of mutate.py's mutations through `nonolab check` (the CLI): a file the
library refuses must give exit 2 and one stderr line naming the file, never a traceback."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mutate import mutations, seeds, written  # noqa: E402

from nonolab.errors import NonolabError  # noqa: E402
from nonolab.formats import load_all  # noqa: E402

NONOLAB = str(Path(sys.executable).parent / "nonolab")


def main(seed: int, every: int) -> dict:
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="mutcli18b-"))
    tally: Counter = Counter()
    bad = []
    k = 0
    for src in seeds() + written(tmp):
        data = src.read_bytes()
        for label, mutated, _ in mutations(data, rng):
            k += 1
            if k % every:
                continue
            path = tmp / ("m-" + src.name)
            path.write_bytes(mutated)
            try:
                load_all(path)
                expect_error = False
            except NonolabError:
                expect_error = True
            r = subprocess.run([NONOLAB, "check", "--time-limit", "5", str(path)], capture_output=True, text=True)
            err = r.stderr.strip()
            if expect_error:
                ok = r.returncode == 2 and err.count("\n") == 0 and path.name in err and "Traceback" not in err
            else:
                ok = r.returncode in (0, 1) and "Traceback" not in err
            tally[("error" if expect_error else "read") + (":ok" if ok else ":BAD")] += 1
            if not ok:
                bad.append(f"{label} {src.name} rc={r.returncode} {err[:400]!r}")
    return {"tally": dict(tally), "bad": bad}


if __name__ == "__main__":
    out = main(int(sys.argv[1]), int(sys.argv[2]))
    Path(sys.argv[3]).write_text(json.dumps(out, indent=1))
    print(out["tally"], len(out["bad"]))
    for b in out["bad"][:30]:
        print(b)
