"""Audit 18b: tampered certificates, re-hashed as a forger would (manifest and SHA256SUMS
updated), checked by both external checkers.  A tampering that changes what is claimed
(the puzzle, the CNF, the solution, the verdict) must be rejected; a tampered proof may
still be a valid proof, so an accepted one is checked by the other checker too: the two
must agree."""
from __future__ import annotations

import hashlib
import json
import random
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

from nonolab.certcheck import check_certificate


def rehash(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in list(manifest["files"]):
        manifest["files"][name] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))
    (folder / "SHA256SUMS").write_text("".join(f"{d}  {n}\n" for n, d in manifest["files"].items()))


def lines_of(path: Path) -> list[str]:
    return path.read_text().split("\n")


def tamper_proof(folder: Path, rng: random.Random) -> str:
    path = folder / "proof.drat"
    lines = [x for x in lines_of(path) if x.strip()]
    op = rng.choice(["drop", "dup", "flip", "renumber", "truncate", "drop_empty", "swap", "insert", "only_empty",
                     "drop_deletions", "delete_early"])
    if op == "drop" and lines:
        lines.pop(rng.randrange(len(lines)))
    elif op == "dup" and lines:
        k = rng.randrange(len(lines)); lines.insert(k, lines[k])
    elif op in ("flip", "renumber") and lines:
        k = rng.randrange(len(lines)); words = lines[k].split()
        lits = [i for i, w in enumerate(words) if w not in ("0", "d")]
        if lits:
            i = rng.choice(lits)
            v = int(words[i])
            words[i] = str(-v if op == "flip" else (abs(v) % 600 + 1) * (1 if v > 0 else -1))
            lines[k] = " ".join(words)
    elif op == "truncate":
        lines = lines[: rng.randrange(len(lines) + 1)]
    elif op == "drop_empty":
        lines = [x for x in lines if x.strip() != "0"]
    elif op == "swap" and len(lines) > 1:
        i, j = rng.sample(range(len(lines)), 2); lines[i], lines[j] = lines[j], lines[i]
    elif op == "insert":
        lits = [rng.choice([-1, 1]) * rng.randint(1, 625) for _ in range(rng.randint(1, 3))]
        lines.insert(rng.randrange(len(lines) + 1), " ".join(map(str, lits)) + " 0")
    elif op == "only_empty":
        lines = ["0"]
    elif op == "drop_deletions":
        lines = [x for x in lines if not x.startswith("d ")]
    elif op == "delete_early" and lines:
        k = rng.randrange(len(lines))
        lines.insert(rng.randrange(k + 1), "d " + lines[k].removeprefix("d "))
    path.write_text("\n".join(lines) + "\n")
    return "proof:" + op


def tamper_cnf(folder: Path, rng: random.Random) -> str:
    name = "refute.cnf" if (folder / "refute.cnf").exists() else "puzzle.cnf"
    path = folder / name
    lines = lines_of(path)
    body = [i for i, x in enumerate(lines) if x and x[0] not in "cp"]
    op = rng.choice(["drop", "flip", "add", "header", "cell", "dup"])
    k = rng.choice(body)
    header = next(i for i, x in enumerate(lines) if x.startswith("p "))
    _, _, v, c = lines[header].split()
    if op == "drop":
        lines.pop(k); lines[header] = f"p cnf {v} {int(c) - 1}"
    elif op == "flip":
        words = lines[k].split(); words[0] = str(-int(words[0])); lines[k] = " ".join(words)
    elif op == "add":
        lines.append(f"{rng.choice([-1, 1]) * rng.randint(1, int(v))} 0"); lines[header] = f"p cnf {v} {int(c) + 1}"
    elif op == "header":
        lines[header] = f"p cnf {int(v) + 1} {c}"
    elif op == "cell":
        cells = [i for i, x in enumerate(lines) if x.startswith("c cell")]
        i, j = rng.sample(cells, 2)
        a, b = lines[i].split(), lines[j].split()
        a[4], b[4] = b[4], a[4]; lines[i], lines[j] = " ".join(a), " ".join(b)
    elif op == "dup":
        lines.insert(k, lines[k]); lines[header] = f"p cnf {v} {int(c) + 1}"
    path.write_text("\n".join(lines))
    return f"{name}:{op}"


def tamper_puzzle(folder: Path, rng: random.Random) -> str:
    path = folder / "puzzle.non"
    text = path.read_text()
    op = rng.choice(["number", "second_puzzle", "swap_lines"])
    if op == "number":
        import re
        nums = [m for m in re.finditer(r"(?m)(?<=[ \n])[1-9][0-9]*(?=[ \n,])", text)]
        m = rng.choice(nums)
        text = text[:m.start()] + str(int(m.group()) + rng.choice([-1, 1])) + text[m.end():]
    elif op == "second_puzzle":
        text = text + "\n" + (folder.parent / "_other.non").read_text()
    elif op == "swap_lines":
        lines = text.split("\n")
        i, j = rng.sample(range(len(lines)), 2); lines[i], lines[j] = lines[j], lines[i]
        text = "\n".join(lines)
    path.write_text(text)
    return "puzzle:" + op


def tamper_solution(folder: Path, rng: random.Random) -> str:
    name = "solution.txt" if (folder / "solution.txt").exists() else rng.choice(["solution-1.txt", "solution-2.txt"])
    path = folder / name
    rows = path.read_text().split("\n")
    r = rng.randrange(len([x for x in rows if x]))
    c = rng.randrange(len(rows[r]))
    rows[r] = rows[r][:c] + ("." if rows[r][c] == "#" else "#") + rows[r][c + 1:]
    path.write_text("\n".join(rows))
    return f"{name}:flip"


def tamper_verdict(folder: Path, rng: random.Random) -> str:
    m = json.loads((folder / "manifest.json").read_text())
    m["verdict"] = rng.choice([v for v in ("unique", "multiple", "contradiction") if v != m["verdict"]])
    (folder / "manifest.json").write_text(json.dumps(m))
    return "verdict:" + m["verdict"]


def main(root: Path, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="tamper18b-"))
    certs = sorted(p for p in root.iterdir() if (p / "manifest.json").is_file())
    shutil.copy(root / "heart" / "puzzle.non", work / "_other.non")
    tally: Counter = Counter()
    bad = []
    for cert in certs:
        verdict = json.loads((cert / "manifest.json").read_text())["verdict"]
        ops = [tamper_puzzle, tamper_cnf, tamper_verdict]
        ops += [tamper_proof] if verdict != "multiple" else []
        ops += [tamper_solution] if verdict != "contradiction" else []
        for i in range(rounds):
            folder = work / f"{cert.name}-{i}"
            shutil.copytree(cert, folder)
            what = rng.choice(ops)(folder, rng)
            rehash(folder)
            first = check_certificate(folder, "drat-trim", time_limit=60)
            kind = what.split(":")[0]
            if first.ok:
                second = check_certificate(folder, "dratify", time_limit=60)
                if kind in ("puzzle", "verdict", "solution.txt", "solution-1.txt", "solution-2.txt",
                            "refute.cnf", "puzzle.cnf"):
                    bad.append(f"ACCEPTED {what} {cert.name} (dratify: {second.outcome}) {folder}")
                elif not second.ok:
                    bad.append(f"DISAGREE {what} {cert.name}: drat-trim accepts, dratify {second.reason} {folder}")
                tally[f"{kind}:accepted"] += 1
            else:
                tally[f"{kind}:{first.outcome}"] += 1
                if first.stopped:
                    bad.append(f"STOPPED {what} {cert.name} {first.reason}")
                else:
                    shutil.rmtree(folder)
    return {"tally": dict(sorted(tally.items())), "bad": bad}


if __name__ == "__main__":
    out = main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
    Path(sys.argv[4]).write_text(json.dumps(out, indent=1))
    print(out["tally"])
    for b in out["bad"]:
        print(b)
