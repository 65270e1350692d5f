"""Does sniffing a bounded head recognise every known text as sniffing the whole did?

Two checks, run with ``PYTHONPATH=. python -m benchmarks.sniff_head``:

* files: every file under ``puzzles/``, ``tests/data/`` and ``../shared/corpus*``, by
  :func:`nonolab.formats.detect_format` with the head and with the whole text;
* test cases: every text the format tests hand to the format chooser (``tests/formats``
  run once with this module as a pytest plugin recording them), chosen both ways.

Then the cost on garbage: the characters detectors are handed, and the CPU time of
``detect_format`` on a 40 MB file of noise, head against whole.
"""

from __future__ import annotations

import pickle
import sys
import tempfile
import time
from pathlib import Path

import nonolab.formats as formats
from nonolab.errors import NonolabError

ROOT = Path(__file__).resolve().parents[1]
_RECORD = Path(tempfile.gettempdir()) / "nonolab-sniff-head-cases.pickle"
_recorded: list[tuple[str, list[str]]] = []


def pytest_configure(config):   # as a pytest plugin: record what the chooser is asked
    real = formats._choose

    def recording(text, suffix_names):
        _recorded.append((text, list(suffix_names)))
        return real(text, suffix_names)

    formats._choose = recording


def pytest_unconfigure(config):
    _RECORD.write_bytes(pickle.dumps(_recorded))


def _both(call):
    """``call()`` with the bounded head, then as before it (each detector given the whole text)."""
    def answer():
        try:
            return call()
        except NonolabError as err:
            return type(err).__name__
    head = answer()
    real = formats._sniffed_head
    formats._sniffed_head = lambda text: text
    try:
        return head, answer()
    finally:
        formats._sniffed_head = real


def _files() -> list[Path]:
    roots = [ROOT / "puzzles", ROOT / "tests" / "data", *sorted((ROOT / ".." / "shared").glob("corpus*"))]
    return sorted(p for r in roots if r.is_dir() for p in r.rglob("*") if p.is_file())


def main() -> int:
    import subprocess
    files = _files()
    diff_files = [(p, *both) for p in files if (both := _both(lambda: formats.detect_format(p)))[0] != both[1]]
    print(f"files: {len(files)} detected, {len(diff_files)} differ (largest {max(p.stat().st_size for p in files)} bytes)")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "benchmarks.sniff_head",
                    "-x", "tests/formats"], cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
    cases = pickle.loads(_RECORD.read_bytes())
    choose = formats._choose
    diff_cases = [(t[:60], *both) for t, s in cases if (both := _both(lambda: choose(t, s).name))[0] != both[1]]
    print(f"test cases: {len(cases)} chosen ({len({t for t, _ in cases})} distinct texts), {len(diff_cases)} differ")
    for row in diff_files + diff_cases:
        print("  DIFFERS", row)
    with tempfile.TemporaryDirectory() as tmp:
        noise = Path(tmp) / "noise.txt"
        line = "".join("qwxzjkvb!?%&~^@;:"[(i * 7919) % 17] for i in range(199)) + "\n"
        noise.write_text(line * (40 * 1024 * 1024 // len(line)), encoding="utf-8")
        for label, whole in (("head", False), ("whole", True), ("head", False), ("whole", True)):
            real = formats._sniffed_head
            if whole:
                formats._sniffed_head = lambda text: text
            start = time.process_time()
            try:
                formats.detect_format(noise)
            except NonolabError as err:
                verdict = type(err).__name__
            finally:
                formats._sniffed_head = real
            print(f"40 MB noise, {label}: {verdict} in {time.process_time() - start:.2f} s CPU")
    return 1 if diff_files or diff_cases else 0


if __name__ == "__main__":
    sys.exit(main())
