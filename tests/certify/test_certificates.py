"""Certificates (issue 29): written for unique, contradiction and multiple, accepted by an
external DRAT checker, and every kind of tampering rejected with a one-line reason.

Each tampering test also rewrites the hashes (manifest.json, SHA256SUMS), as a forger
would, so that the check that catches it is the semantic one, not the hash.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from nonolab.certcheck import check_certificate
from nonolab.certify import certify
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.formats import load
from nonolab.solvers import get

pytest.importorskip("dratify")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
EDGE = PUZZLES / "webpbn" / "webpbn-00023-edge.non"  # unique, and lcg needs 14 conflicts: a real proof


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """One certificate of each kind, made once; each test works on a copy."""
    root = tmp_path_factory.mktemp("certificates")
    out = {}
    for key, file, backend in [("unique", EDGE, "lcg"), ("unique-cnf", EDGE, "cnf"),
                               ("unique-auto", EDGE, "auto"),
                               ("contradiction", PUZZLES / "nonolab" / "contradiction.non", "lcg"),
                               ("multiple", PUZZLES / "hakank" / "t2.non", "auto")]:
        certificate = certify(load(file), root / key, get(backend))
        assert certificate.certified, certificate.reason
        out[key] = certificate
    return out


@pytest.fixture
def copy(made, tmp_path):
    def take(key: str) -> Path:
        return Path(shutil.copytree(made[key].path, tmp_path / key))
    return take


def _rehash(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"] = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in manifest["files"]}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "SHA256SUMS").write_text("".join(f"{d}  {n}\n" for n, d in manifest["files"].items()))


def _edit(folder: Path, name: str, change) -> None:
    path = folder / name
    path.write_text(change(path.read_text()))


def _rejected(folder: Path, *words: str, checker: str = "dratify") -> str:
    outcome = check_certificate(folder, checker)
    assert not outcome.ok
    assert "\n" not in outcome.reason and all(w in outcome.reason for w in words), outcome.reason
    return outcome.reason


@pytest.mark.parametrize("key", ["unique", "unique-cnf", "unique-auto", "contradiction", "multiple"])
def test_every_kind_of_certificate_is_accepted(made, key):
    outcome = check_certificate(made[key].path, "dratify")
    assert outcome.ok, outcome.reason
    assert outcome.verdict == made[key].verdict.value
    assert (outcome.checker is None) == (key == "multiple")


def test_the_pure_python_checker_accepts_the_same_proof(made):
    outcome = check_certificate(made["unique"].path, "dratify-python")
    assert outcome.ok and "python" in outcome.checker


def test_drat_trim_accepts_it_when_installed(made):
    from nonolab.certcheck.checkers import resolve
    try:
        resolve("drat-trim")
    except BackendUnavailable:
        pytest.skip("drat-trim is not on PATH")
    for key in ("unique", "unique-cnf", "contradiction"):
        assert check_certificate(made[key].path, "drat-trim").ok


def test_what_is_in_a_certificate(made):
    unique = made["unique"]
    assert unique.prover == "lcg" and unique.proof_lines > 10
    assert set(unique.files) == {"README.txt", "SHA256SUMS", "manifest.json", "proof.drat", "puzzle.non",
                                 "refute.cnf", "solution.txt"}
    readme = (unique.path / "README.txt").read_text()
    assert "drat-trim refute.cnf proof.drat" in readme and "sha256sum -c SHA256SUMS" in readme
    # refute.cnf: the export's clauses and cell map, one clause more (the solution excluded)
    exported, refute = get_dimacs(EDGE).splitlines(), (unique.path / "refute.cnf").read_text().splitlines()
    body = lambda lines: [line for line in lines if not line.startswith(("c ", "p "))]  # noqa: E731
    assert body(refute)[:-1] == body(exported) and len(body(refute)) == len(body(exported)) + 1
    assert [ln for ln in refute if ln.startswith("c cell")] == [ln for ln in exported if ln.startswith("c cell")]
    assert (made["contradiction"].path / "puzzle.cnf").read_text() == get_dimacs(
        PUZZLES / "nonolab" / "contradiction.non")
    assert made["unique-auto"].answered_by == "auto" and made["unique-auto"].prover == "lcg"
    assert set(made["multiple"].files) >= {"solution-1.txt", "solution-2.txt"} and made["multiple"].prover is None


def get_dimacs(path: Path) -> str:
    from nonolab.harness import dimacs
    return dimacs(load(path))


def test_a_changed_file_breaks_its_hash(copy):
    folder = copy("unique")
    _edit(folder, "solution.txt", lambda t: t.replace("#", ".", 1))
    _rejected(folder, "solution.txt", "SHA-256")


def test_a_solution_that_breaks_a_clue(copy):
    folder = copy("unique")
    _edit(folder, "solution.txt", lambda t: t.replace("#", ".", 1))
    _rehash(folder)
    _rejected(folder, "solution.txt breaks the clue of")


def test_a_changed_clue(copy):
    folder = copy("unique")
    _edit(folder, "puzzle.non", lambda t: t.replace("\ncolumns\n", "\ncolumns\n1,", 1))
    _rehash(folder)
    _rejected(folder, "puzzle")


@pytest.mark.parametrize("key", ["unique", "contradiction", "multiple"])
def test_a_second_puzzle_after_the_certified_one(copy, key):
    # The checks read the first puzzle of the file and accepted it; pbnsolve reads a mix of
    # both (audit 18b).
    folder = copy(key)
    _edit(folder, "puzzle.non", lambda t: t + "\n" + (PUZZLES / "nonolab" / "heart.non").read_text())
    _rehash(folder)
    _rejected(folder, "puzzle.non holds 2 puzzles; a certificate is about one")


def test_a_flipped_literal_in_the_cnf(copy):
    folder = copy("unique")
    _edit(folder, "refute.cnf", lambda t: t.replace("\n-101 ", "\n101 ", 1))
    _rehash(folder)
    _rejected(folder, "refute.cnf is not the encoding of puzzle.non plus that clause")


def test_a_deleted_clause_in_the_cnf(copy):
    folder = copy("contradiction")

    def drop_last(text: str) -> str:
        lines = text.splitlines()
        header = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
        _, _, v, c = lines[header].split()
        lines[header] = f"p cnf {v} {int(c) - 1}"
        return "\n".join(lines[:-1]) + "\n"
    _edit(folder, "puzzle.cnf", drop_last)
    _rehash(folder)
    _rejected(folder, "puzzle.cnf", "lacks the clause")


def test_a_wrong_exclusion_clause(copy):
    folder = copy("unique")
    _edit(folder, "refute.cnf", lambda t: t[:t.rstrip().rfind("\n") + 1] + "1 0\n")
    _rehash(folder)
    _rejected(folder, "refute.cnf lacks the clause that excludes solution.txt")


def test_a_truncated_proof(copy):
    folder = copy("unique")
    _edit(folder, "proof.drat", lambda t: "\n".join(t.splitlines()[:-1]) + "\n")
    _rehash(folder)
    _rejected(folder, "proof.drat", "rejects it")


@pytest.mark.parametrize("damage", [lambda b: b[:len(b) // 2].rstrip(b" 0\n") + b" 4",   # cut inside a clause
                                    lambda b: b"x " + b,                               # not a literal
                                    lambda b: b"\xff\xfe" + b])                        # not ASCII text
def test_a_proof_that_is_not_drat_text_is_rejected_not_a_crash(copy, damage):
    # dratify's parser raised ValueError (and reading raised UnicodeDecodeError) out of
    # certify-check: a traceback instead of "rejected".
    folder = copy("unique")
    proof = folder / "proof.drat"
    proof.write_bytes(damage(proof.read_bytes()))
    _rehash(folder)
    _rejected(folder, "proof.drat", "rejects it")


def test_a_proof_that_claims_the_empty_clause_at_once(copy):
    folder = copy("unique")
    (folder / "proof.drat").write_text("0\n")
    _rehash(folder)
    _rejected(folder, "proof.drat", "rejects it")


def test_flipped_literals_in_the_proof(copy):
    folder = copy("unique")

    def flip(text: str) -> str:
        out = []
        for line in text.splitlines():
            words = line.split()
            if words and words[0] not in ("d", "0"):
                words[0] = str(-int(words[0]))
            out.append(" ".join(words))
        return "\n".join(out) + "\n"
    _edit(folder, "proof.drat", flip)
    _rehash(folder)
    _rejected(folder, "proof.drat", "rejects it")


def test_a_verdict_changed_in_the_manifest(copy):
    folder = copy("unique")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["verdict"] = "contradiction"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    _rejected(folder, "puzzle.cnf")  # a contradiction's CNF is not there, nor would the proof refute it


def test_a_verdict_that_is_not_a_word(copy):
    folder = copy("unique")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["verdict"] = ["unique"]  # was a TypeError (unhashable list) out of check_certificate
    (folder / "manifest.json").write_text(json.dumps(manifest))
    _rejected(folder, "manifest.json", "unknown verdict")


def test_two_solutions_that_are_the_same(copy):
    folder = copy("multiple")
    shutil.copy(folder / "solution-1.txt", folder / "solution-2.txt")
    _rehash(folder)
    _rejected(folder, "the same grid")


def test_no_manifest(tmp_path):
    (tmp_path / "manifest.json").write_text("{}")
    _rejected(tmp_path, "manifest.json", "not a certificate")


def test_colour_puzzles_and_foreign_folders_are_refused(tmp_path):
    from nonolab.core import Puzzle
    from nonolab.core.palette import Palette
    colour = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), row_colours=((1,), (2,)),
                    column_colours=((1,), (2,)), palette=Palette.default_for(2))
    with pytest.raises(InvalidArgument, match="black-and-white"):
        certify(colour, tmp_path / "colour", get("lcg"))
    assert not (tmp_path / "colour").exists()
    stranger = tmp_path / "notes"
    stranger.mkdir()
    (stranger / "keep.txt").write_text("mine")
    with pytest.raises(InvalidArgument, match="not a certificate"):
        certify(load(EDGE), stranger, get("lcg"))
    assert (stranger / "keep.txt").read_text() == "mine"


def test_a_certificate_is_replaced_whole(made, tmp_path):
    target = Path(shutil.copytree(made["multiple"].path, tmp_path / "again"))
    again = certify(load(EDGE), target, get("lcg"))
    assert again.verdict.value == "unique" and not (target / "solution-1.txt").exists()
    assert check_certificate(target, "dratify").ok
    assert [p.name for p in tmp_path.iterdir()] == ["again"]  # no draft left beside it


def test_a_certificate_with_a_file_of_someone_else_beside_it_is_not_replaced(made, tmp_path):
    # Before, certifying into a certificate's folder replaced it whole, with the file a user
    # had put in it (mine.non, notes.txt): gone, and nothing said.
    target = Path(shutil.copytree(made["multiple"].path, tmp_path / "again"))
    (target / "notes.txt").write_text("mine")
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    with pytest.raises(InvalidArgument, match=r"again: holds a certificate and notes.txt, which is not of it"):
        certify(load(EDGE), target, get("lcg"))
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["again"]  # no draft left beside it


def test_a_puzzle_s_givens_are_in_its_cnf_and_its_solution(tmp_path):
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")   # 43 solutions; half of one's cells given: unique
    # (A third of them left two solutions for the one lcg finds first with its phase hints.)
    picture = get("lcg").solve(puzzle).solutions[0].to_bytes()
    given = puzzle.with_(givens={(r, c): picture[r * puzzle.width + c] for r in range(puzzle.height)
                                 for c in range(puzzle.width) if (r + c) % 2 == 0})
    for backend in ("lcg", "cnf"):
        made = certify(given, tmp_path / backend, get(backend))
        assert made.verdict.value == "unique" and check_certificate(made.path, "dratify").ok
    folder = tmp_path / "cnf"
    r, c, value = given.givens[0]
    rows = (folder / "solution.txt").read_text().splitlines()
    rows[r] = rows[r][:c] + (".#"[1 - value]) + rows[r][c + 1:]
    (folder / "solution.txt").write_text("\n".join(rows) + "\n")
    _rehash(folder)
    _rejected(folder, "solution.txt breaks the given cell")


def test_a_cnf_beyond_the_size_bound_gets_no_certificate(tmp_path, monkeypatch):
    import nonolab.certify as certifying
    monkeypatch.setattr(certifying, "MAX_CLAUSES", 100)
    made = certify(load(EDGE), tmp_path / "big", get("lcg"))
    assert made.verdict.value == "unique" and not made.certified and not (tmp_path / "big").exists()
    assert "its CNF would hold" in made.reason and "more than 100" in made.reason


# drat-trim reads the formula's literals with C's ``%i``: ``010`` is octal 8 to it and 10
# to Python's ``int``.  A formula that this checker reads as the clues' encoding must be the
# formula the proof checker reads, so every number is written one way only.
@pytest.mark.parametrize("spelling", [
    lambda t: t.replace("\n-101 ", "\n-0101 ", 1),        # a leading zero: octal 65 to drat-trim
    lambda t: t.replace("\n-101 ", "\n-1_01 ", 1),        # Python's digit separator: 1 to C, then a stray word
    lambda t: t.replace("\n-101 ", "\n-101\x1c", 1),     # a separator C does not skip (str.split does)
])
def test_a_literal_spelled_two_ways_in_the_cnf_is_rejected(copy, spelling):
    folder = copy("unique")
    before = (folder / "refute.cnf").read_text()
    _edit(folder, "refute.cnf", spelling)
    assert (folder / "refute.cnf").read_text() != before
    _rehash(folder)
    _rejected(folder, "refute.cnf", "line")


def test_a_header_spelled_with_a_leading_zero_is_rejected(copy):
    folder = copy("contradiction")
    _edit(folder, "puzzle.cnf", lambda t: t.replace("\np cnf ", "\np cnf 0", 1))
    _rehash(folder)
    _rejected(folder, "puzzle.cnf", "header")


def test_a_contradiction_forged_with_an_octal_literal_is_rejected(copy, tmp_path):
    """The forgery itself, against drat-trim: a unique puzzle's CNF with one unit clause ``[v]``
    spelled ``0v`` (Python: v; drat-trim: the octal number, a cell the solution leaves empty), and
    a proof of one line ``0``: drat-trim verifies the refutation of the formula it read, and the
    certificate said contradiction for a puzzle with a solution."""
    from nonolab.certcheck.checkers import resolve
    try:
        resolve("drat-trim")
    except BackendUnavailable:
        pytest.skip("drat-trim is not on PATH")
    unique = copy("unique")
    solution = [line for line in (unique / "solution.txt").read_text().split() if line]
    width = len(solution[0])
    lines = (unique / "refute.cnf").read_text().split("\n")
    clauses = [i for i, line in enumerate(lines) if line and line[0] not in "cp"]
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    _, _, variables, count = lines[header].split()
    lines[header] = f"p cnf {variables} {int(count) - 1}"
    del lines[clauses[-1]]                        # the exclusion clause: puzzle.cnf is the clues alone
    for i, line in enumerate(lines):
        words = line.split()
        if len(words) == 2 and words[1] == "0" and set(words[0]) <= set("01234567") and words[0] != "0":
            cell = int(words[0], 8) - 1
            if cell < width * len(solution) and solution[cell // width][cell % width] == ".":
                lines[i] = f"0{words[0]} 0"
                break
    else:
        pytest.fail("no unit clause reads as an empty cell in octal")
    forged = tmp_path / "forged"
    forged.mkdir()
    shutil.copy(unique / "puzzle.non", forged)
    (forged / "puzzle.cnf").write_text("\n".join(lines))
    (forged / "proof.drat").write_text("0\n")
    manifest = json.loads((unique / "manifest.json").read_text())
    manifest.update(verdict="contradiction", files={"puzzle.non": "", "puzzle.cnf": "", "proof.drat": ""})
    (forged / "manifest.json").write_text(json.dumps(manifest))
    _rehash(forged)
    _rejected(forged, "puzzle.cnf", "line", checker="drat-trim")
