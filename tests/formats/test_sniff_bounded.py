"""Recognising a format reads a bounded head of the text, whatever the text's size.

The bound is counted (the characters each detector is given), never timed: before it,
each of the twenty-odd detectors split a whole 40 MB file of garbage into lines.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import nonolab.formats as formats
from nonolab.errors import NonolabError, ParseError, UnknownFormat
from nonolab.formats import SNIFF_CHARS, detect_format, load, loads, sniff
from nonolab.formats.registry import _REGISTRY, Format

ROOT = Path(__file__).resolve().parents[2]
TEN_MB = 10 * 1024 * 1024


def _garbage(n: int) -> str:
    """``n`` characters of printable noise in lines of up to 200: no format's content."""
    rng = random.Random(14)
    letters = "qwxzjkvb!?%&~^@;:"
    chunk = "".join(rng.choice(letters) for _ in range(4093)) + "\n"
    line = "\n".join(chunk[i:i + 200] for i in range(0, len(chunk), 200))
    return (line * (n // len(line) + 1))[:n]


@pytest.fixture
def given_to_detectors(monkeypatch):
    """The length of every text a detector is handed, in order."""
    seen: list[tuple[str, int]] = []
    real = Format.sniff

    def spy(self, text, whole=True):
        seen.append((self.name, len(text)))
        return real(self, text, whole)

    monkeypatch.setattr(Format, "sniff", spy)
    return seen


def test_ten_megabytes_of_garbage_give_each_detector_a_bounded_head(given_to_detectors):
    text = _garbage(TEN_MB)
    with pytest.raises(UnknownFormat):
        sniff(text)
    assert [name for name, _ in given_to_detectors] == [f.name for f in _REGISTRY]   # each once
    assert max(n for _, n in given_to_detectors) <= SNIFF_CHARS
    assert sum(n for _, n in given_to_detectors) <= len(_REGISTRY) * SNIFF_CHARS < TEN_MB * 3


def test_a_large_garbage_file_gets_its_one_line_error_from_a_bounded_head(tmp_path, given_to_detectors):
    path = tmp_path / "noise.txt"
    path.write_text(_garbage(TEN_MB), encoding="utf-8")
    with pytest.raises(NonolabError) as caught:
        load(path)
    assert isinstance(caught.value, (UnknownFormat, ParseError))
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)
    assert given_to_detectors and max(n for _, n in given_to_detectors) <= SNIFF_CHARS


def test_a_puzzle_larger_than_the_head_is_still_recognised(given_to_detectors):
    # 1,200 rows of a 1,000-wide picture: 1.2 MB, beyond the head; its head is whole lines.
    rows = ["#." * 500] * 1200
    text = "\n".join(rows) + "\n"
    assert len(text) > SNIFF_CHARS
    assert sniff(text) == "picture"
    assert loads(text).height == 1200
    assert max(n for _, n in given_to_detectors) <= SNIFF_CHARS


def test_a_text_within_the_head_is_sniffed_whole(given_to_detectors):
    text = "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n"
    assert sniff(text) == "non"
    assert {n for _, n in given_to_detectors} == {len(text)}


def _files() -> list[Path]:
    roots = [ROOT / "puzzles", ROOT / "tests" / "data"]
    roots += sorted((ROOT / ".." / "shared").glob("corpus*"))
    return sorted(p for root in roots if root.is_dir() for p in root.rglob("*")
                  if p.is_file() and p.suffix.lower() not in (".csv", ".md", ".py", ".json5"))


def _detected(path: Path, whole: bool) -> str:
    """What :func:`detect_format` says, sniffing the head (as it does) or, with ``whole``,
    handing each detector the whole text (as before the bound)."""
    try:
        if whole:
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(formats, "_sniffed_head", lambda text: text)
                return detect_format(path)
        return detect_format(path)
    except NonolabError as err:
        return f"{type(err).__name__}"


def test_every_shipped_and_corpus_file_is_detected_as_from_its_whole_text():
    files = _files()
    assert len(files) > 300
    changed = [(p, old, new) for p in files
               if (old := _detected(p, whole=True)) != (new := _detected(p, whole=False))]
    assert changed == []


@pytest.fixture(scope="module")
def beyond_the_head():
    """A random 1,300x1,300 picture's puzzle: its clues alone are over 1 MiB in every format."""
    from nonolab.core import Puzzle, Solution

    rng = random.Random(16)
    return Puzzle.from_solution(Solution.from_rows(["".join(rng.choice("#.") for _ in range(1300))
                                                    for _ in range(1300)]))


@pytest.mark.parametrize("fmt", ["cwd", "nin", "mk", "taai", "g", "non", "faase", "syro", "makhorin", "ctu"])
def test_a_file_beyond_the_head_whose_first_lines_decide_is_recognised_by_content(fmt, beyond_the_head, tmp_path):
    # docs/formats.md ("Recognising a format"): as from its whole text, named .dat.
    path = tmp_path / "big.dat"
    path.write_text(formats.dumps(beyond_the_head, fmt))
    assert path.stat().st_size > SNIFF_CHARS
    assert detect_format(path) == fmt and load(path).rows == beyond_the_head.rows


@pytest.mark.parametrize("fmt", ["keen", "ish"])
def test_a_headerless_file_beyond_the_head_is_recognised_by_its_suffix_or_named(fmt, beyond_the_head, tmp_path):
    # docs/formats.md: these recognisers read every clue to see that the two blocks fit together,
    # and their head shows nothing of their own; the suffix or --from reads the file, nothing else guesses.
    text = formats.dumps(beyond_the_head, fmt)
    assert len(text) > SNIFF_CHARS
    named = tmp_path / f"big.{fmt}"
    named.write_text(text)
    assert load(named).rows == beyond_the_head.rows
    bare = tmp_path / "big.dat"
    bare.write_text(text)
    assert load(bare, fmt).rows == beyond_the_head.rows
    with pytest.raises(UnknownFormat) as refused:
        load(bare)
    message = str(refused.value)
    assert "\n" not in message and str(bare) in message and "cannot recognise the puzzle format" in message


@pytest.mark.parametrize("fmt", ["faase", "syro", "makhorin", "ctu"])
def test_a_cut_head_that_breaks_its_format_on_a_whole_line_is_not_taken_for_it(fmt, beyond_the_head):
    # The cut excuses only what it can cause (the clues' fit, the text ending early): a bad
    # line inside the head still turns the format away, as in a whole text.
    text = formats.dumps(beyond_the_head, fmt)
    lines = text.split("\n")
    lines[3] = "1 x 0" if fmt != "ctu" else "R,1,x"
    head = formats._sniffed_head("\n".join(lines))
    assert len(head) < len(text)
    assert not _REGISTRY[[f.name for f in _REGISTRY].index(fmt)].sniff(head, whole=False)
