"""No input makes a reader fail with anything but a NonolabError.

Random text, text from a puzzle-like alphabet, and valid files with random
mutations go through every reader and through sniffing; random bytes go through
``load``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.errors import NonolabError
from nonolab.formats import dumps, format_for_path, load_all, loads_all, names

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
FORMATS = [*names(), None]
ALPHABET = "0123456789 ,.#\n\n\t\r:/$<>|\"'=-_P!?xXabdgrtwz&;{}[]()é\x00\ufeff"
NUMBERS = ["0", "1", "7", "25", "99999999", "1" * 12, "9" * 5000, "-1", "1.5", "1e3", "٣"]


def _seeds() -> list[tuple[str | None, str]]:
    seeds: list[tuple[str | None, str]] = []
    for path in sorted(DATA.iterdir()):
        seeds.append((format_for_path(path), path.read_bytes().decode("latin-1")))
    small = Puzzle.from_solution(Solution.from_rows(["#.#", "...", "##."]), name="s & <t>",
                                 by="me")
    for fmt in names():
        seeds.append((fmt, dumps(small, fmt)))
    return seeds


SEEDS = _seeds()


def _check(text: str, fmt: str | None) -> None:
    try:
        puzzles = loads_all(text, fmt)
    except NonolabError as err:
        assert "\n" not in str(err), str(err)
        return
    assert puzzles and all(isinstance(p, Puzzle) for p in puzzles)


@st.composite
def mutated(draw) -> tuple[str | None, str]:
    fmt, text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "dup_line", "drop_line",
                                   "swap_lines", "truncate", "number"]))
        n = len(text)
        i = draw(st.integers(0, n))
        lines = text.split("\n")
        k = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 8)):]
        elif op == "insert":
            text = text[:i] + draw(st.text(ALPHABET, min_size=1, max_size=6)) + text[i:]
        elif op == "replace" and n:
            i = min(i, n - 1)
            text = text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1:]
        elif op == "dup_line":
            text = "\n".join(lines[:k + 1] + lines[k:])
        elif op == "drop_line":
            text = "\n".join(lines[:k] + lines[k + 1:])
        elif op == "swap_lines":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
            text = "\n".join(lines)
        elif op == "truncate":
            text = text[:i]
        elif op == "number":
            digits = [m for m in range(n) if text[m].isdigit()]
            if digits:
                m = draw(st.sampled_from(digits))
                text = text[:m] + draw(st.sampled_from(NUMBERS)) + text[m + 1:]
    return fmt, text


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200))
def test_random_text(text):
    for fmt in FORMATS:
        _check(text, fmt)


@settings(max_examples=300, deadline=None)
@given(text=st.text(ALPHABET, max_size=200))
def test_puzzle_like_text(text):
    for fmt in FORMATS:
        _check(text, fmt)


@settings(max_examples=1500, deadline=None)
@given(case=mutated())
def test_mutated_valid_files(case):
    fmt, text = case
    _check(text, fmt)
    _check(text, None)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=st.sampled_from([b"", b"P4\n", b"P4\n3 2\n", b"P1\n2 2\n", b"<?xml", b"width 2\n"]),
       data=st.binary(max_size=120),
       suffix=st.sampled_from([".non", ".pbm", ".xml", ".txt", ".nin", ".json", ".bin"]))
def test_random_bytes_through_load(prefix, data, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"fuzz{suffix}"
        path.write_bytes(prefix + data)
        for fmt in (None, format_for_path(path)):
            try:
                load_all(path, fmt)
            except NonolabError as err:
                assert str(err).startswith(str(path)) and "\n" not in str(err)


def test_every_number_of_every_seed_replaced_by_a_huge_one():
    """Each run of digits in each seed, in turn, becomes 5,000 nines: more than int() takes.

    The TOML and JSON readers once let the standard library's ValueError through for this.
    """
    import re
    for fmt, text in SEEDS:
        runs = list(re.finditer(r"[0-9]+", text))
        for run in runs[:60]:
            huge = text[:run.start()] + "9" * 5000 + text[run.end():]
            _check(huge, fmt)
            _check(huge, None)


def test_toml_and_json_values_no_library_takes_are_one_line_errors():
    """Found by the fuzz test in CI: tomllib raises a bare ValueError for an integer of
    5,000 digits and RecursionError for deep nesting; JSON the same.  Both must be
    ParseErrors that say what is wrong, not how to configure Python."""
    import pytest

    from nonolab.errors import ParseError, TooLarge
    huge, deep = "9" * 5000, "[" * 100_000
    cases = [("toml", f"[clues]\ncolumns = {huge}\nrows = \"1\"\n", "thousands of digits"),
             ("toml", f"[clues]\ncolumns = {deep}\nrows = \"1\"\n", "nested too deeply"),
             ("toml", "[clues]\ncolumns = " + "{a=" * 100_000 + "\n", "nested too deeply"),
             ("json", f'{{"rows": [[{huge}]], "columns": [[1]]}}', "thousands of digits")]
    for fmt, text, words in cases:
        with pytest.raises(ParseError, match=words):
            loads_all(text, fmt)
        with pytest.raises(ParseError) as caught:     # sniffing may pick another reader
            loads_all(text, None)
        assert "set_int_max_str_digits" not in str(caught.value)
    # JSON's depth is the input budget's (max_depth), checked before json recurses.
    for fmt in ("json", None):
        with pytest.raises(TooLarge, match="nested more than 100 levels deep"):
            loads_all(f'{{"rows": {deep}', fmt)
