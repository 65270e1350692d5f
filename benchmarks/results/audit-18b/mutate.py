"""Audit 18b: mutations of real files (truncate, flip bytes, encodings, BOM, CRLF, huge,
negative and absurd numbers, NULs) through nonolab.formats.load: each must read (and the
neutral ones to the same puzzle) or raise one NonolabError whose one line names the file;
nothing else, and no load over 2 CPU seconds."""
from __future__ import annotations

import json
import random
import re
import resource
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

from nonolab.errors import NonolabError
from nonolab.formats import dump_bytes, load, load_all, names

HERE = Path(__file__).resolve().parents[3]
SHARED = HERE / ".." / "shared"


def seeds() -> list[Path]:
    out = sorted((HERE / "tests" / "data" / "formats").iterdir())
    orig = SHARED / "corpus-colour" / "originals"
    out += sorted(p for p in orig.rglob("*") if p.is_file() and p.suffix in
                  {".g", ".json", ".non", ".pbn", ".png", ".toml", ".txt", ".xml"})
    corpus = sorted(p for p in (SHARED / "corpus").rglob("*") if p.suffix in {".non", ".nin"})
    out += corpus[::6]
    return out


def written(tmp: Path) -> list[Path]:
    """Every writer's output of two puzzles (one colour), so every format is a seed."""
    out = []
    bw = load(HERE / "tests" / "data" / "formats" / "heart.non")
    colour = load(SHARED / "corpus-colour" / "nonny" / "tree.xml")
    for fmt in names():
        for tag, p in (("bw", bw), ("c", colour)):
            try:
                data = dump_bytes(p, fmt)
            except NonolabError:
                continue
            suffix = {"picture": "grid", "pynogram": "txt", "tatham": "tatham", "emoji": "emoji",
                      "webpbn": "xml"}.get(fmt, fmt)
            path = tmp / f"w-{tag}-{fmt}.{suffix}"
            path.write_bytes(data)
            out.append(path)
    return out


NUM = re.compile(rb"\d+")


def mutations(data: bytes, rng: random.Random) -> list[tuple[str, bytes, bool]]:
    """(name, bytes, neutral): a neutral mutation must read as the original."""
    out: list[tuple[str, bytes, bool]] = []
    n = len(data)
    lines = data.split(b"\n")
    for _ in range(3):
        i = rng.randrange(n + 1)
        out.append((f"truncate@{i}", data[:i], False))
    for k in (1, 2, max(1, len(lines) // 2)):
        out.append((f"droplast{k}", b"\n".join(lines[:-k]), False))
    for _ in range(4):
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            if b:
                j = rng.randrange(len(b))
                b[j] ^= 1 << rng.randrange(8)
        out.append(("flip", bytes(b), False))
    out.append(("nul", data[: n // 2] + b"\x00" + data[n // 2:], False))
    if not data.startswith(b"\x89PNG"):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            out.append(("bom", b"\xef\xbb\xbf" + data, True))
            out.append(("crlf", text.replace("\r\n", "\n").replace("\n", "\r\n").encode(), True))
            out.append(("bom+crlf", b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode(), True))
            out.append(("utf16", text.encode("utf-16"), False))
            out.append(("utf16le-nobom", text.encode("utf-16-le"), False))
            out.append(("latin1-e", ("é" + text).encode("latin-1", "replace"), False))
            out.append(("cp1252-inner", text.replace("\n", "\n\x93é\x94", 1).encode("cp1252", "replace"), False))
            out.append(("trailing-ws", text.rstrip("\n").replace("\n", " \t\n") + "\n", True) if False else
                       ("trailing-blank-lines", (text + "\n\n\n").encode(), True))
        nums = list(NUM.finditer(data))
        if nums:
            for label, repl in (("huge9", b"1000000000"), ("huge40", b"9" * 40), ("huge5000", b"9" * 5000),
                                ("zero", b"0"), ("neg", None), ("absurd-first", b"999999999")):
                m = nums[0] if label == "absurd-first" else rng.choice(nums)
                value = b"-" + m.group() if repl is None else repl
                out.append((label, data[:m.start()] + value + data[m.end():], False))
            if len(nums) > 1:
                m = nums[1]
                out.append(("absurd-second", data[:m.start()] + b"99999999" + data[m.end():], False))
    else:
        out.append(("png-cut-idat", data[:n - 20], False))
    out.append(("empty", b"", False))
    out.append(("blank", b"\n \n\t\n", False))
    return out


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main(seed: int) -> dict:
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="mut18b-"))
    files = seeds() + written(tmp)
    tally: Counter = Counter()
    bad: list[str] = []
    successes: list[str] = []
    for src in files:
        data = src.read_bytes()
        try:
            original = load_all(src)
        except NonolabError as e:
            bad.append(f"seed unreadable {src}: {e}")
            continue
        for label, mutated, neutral in mutations(data, rng):
            path = tmp / ("m" + src.name)
            path.write_bytes(mutated)
            t0 = cpu()
            try:
                got = load_all(path)
                kind = "read"
                if neutral and [p.canonical() for p in got] != [p.canonical() for p in original]:
                    bad.append(f"NEUTRAL DIFF {label} {src}")
                if not neutral:
                    same = [p.canonical() for p in got] == [p.canonical() for p in original]
                    successes.append(f"{label} {src.name} same={same}")
            except NonolabError as e:
                kind = "error"
                msg = str(e)
                if "\n" in msg or str(path) not in msg:
                    bad.append(f"MESSAGE {label} {src}: {msg[:300]!r}")
                if neutral:
                    bad.append(f"NEUTRAL ERROR {label} {src}: {msg[:200]}")
            except Exception:
                kind = "crash"
                bad.append(f"CRASH {label} {src}: {traceback.format_exc(limit=4)[-800:]}")
            spent = cpu() - t0
            if spent > 2:
                bad.append(f"SLOW {spent:.1f}s {label} {src}")
            tally[kind] += 1
            tally[f"{label.split('@')[0]}:{kind}"] += 1
    return {"files": len(files), "tally": dict(sorted(tally.items())), "bad": bad, "successes": successes}


if __name__ == "__main__":
    out = main(int(sys.argv[1]))
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1))
    print("files", out["files"], {k: v for k, v in out["tally"].items() if ":" not in k}, "bad", len(out["bad"]))
    for b in out["bad"][:40]:
        print(b[:600])
