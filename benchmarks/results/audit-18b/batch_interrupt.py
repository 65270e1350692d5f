"""Audit 18b: Ctrl-C in the middle of `nonolab batch` (from a Python parent: Popen.send_signal
to the process, or SIGINT to its whole process group as a terminal sends it), then --resume:
exit 130 within a second, every record a whole JSON line, no puzzle recorded twice, and the
resumed file holds every puzzle once."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

NONOLAB = str(Path(sys.executable).parent / "nonolab")


def records(path: Path) -> list[dict]:
    text = path.read_text() if path.exists() else ""
    assert text == "" or text.endswith("\n"), "a torn last line"
    return [json.loads(line) for line in text.splitlines()]


def run(paths: list[str], out: Path, after: float, group: bool, jobs: int, extra: list[str]) -> dict:
    if out.exists():
        out.unlink()
    cmd = [NONOLAB, "batch", *paths, "--out", str(out), "-j", str(jobs), *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=group)
    time.sleep(after)
    t0 = time.monotonic()
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate()
    took = time.monotonic() - t0
    recs = records(out)
    keys = [(r["file"], r["index"]) for r in recs]
    first = {"rc": proc.returncode, "exit_s": round(took, 3), "records": len(recs),
             "duplicates": len(keys) - len(set(keys)), "stderr": err.decode()[-300:]}
    again = subprocess.run(cmd[:-len(extra) or None] + ["--resume", *extra] if extra else cmd + ["--resume"],
                           capture_output=True, text=True)
    recs = records(out)
    keys = [(r["file"], r["index"]) for r in recs]
    words = {r["verdict"] for r in recs}
    # Orphan workers: none of nonolab's workers may outlive the run.
    return {"first": first, "resume_rc": again.returncode, "total": len(recs),
            "duplicates_after": len(keys) - len(set(keys)), "verdicts": sorted(map(str, words)),
            "resume_tail": again.stdout[-200:] + again.stderr[-200:]}


if __name__ == "__main__":
    paths = sys.argv[1].split(",")
    out = Path(sys.argv[2])
    for after, group, jobs in [(1.5, False, 1), (3.0, True, 2), (0.3, True, 2), (5.0, False, 2)]:
        print(after, "group" if group else "process", f"-j{jobs}",
              json.dumps(run(paths, out, after, group, jobs, ["--time-limit", "2"])), flush=True)
