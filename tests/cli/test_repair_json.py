"""``repair --json`` is valid against its shipped schema, ``nonolab/schemas/repair.json``
(audit 10's leftover: it was the one command whose JSON had none).

Real outputs of flips and ``--givens``: a unique puzzle, a multiple one repaired, a
contradiction, a timeout (a node limit of 1), a colour puzzle; and wrong records that the
schema rejects (a fifth verdict word, a missing field, a field of the other kind of record),
so that it cannot pass whatever the command prints.  The sets (several puzzles, a library
error, the clock run out) are in ``test_json_schema.py``, which runs every command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonolab.cli.records import SCHEMA_VERSION

pytest.importorskip("jsonschema")
from jsonschema import ValidationError  # noqa: E402
from test_json_schema import _validator  # noqa: E402  (the shipped schemas, their references resolved)

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
HEART = PUZZLES / "nonolab" / "heart.non"                    # unique
PERMUTATIONS = PUZZLES / "nonolab" / "permutations-5.non"    # multiple: 120 solutions
CONTRADICTION = PUZZLES / "nonolab" / "contradiction.non"
TIMEOUT = ["-b", "native", "-O", "node_limit=1"]            # the search of a multiple puzzle is cut at once


@pytest.fixture(scope="module")
def colour_switch(tmp_path_factory) -> Path:
    """A three-colour picture with one same-colour 2x2 switch (two solutions), as JSON."""
    from nonolab.core import Puzzle, Solution
    from nonolab.formats import dump
    picture = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [2, 2, 0, 3], [0, 2, 3, 3]])
    path = tmp_path_factory.mktemp("colour") / "switch.json"
    dump(Puzzle.from_solution(picture, "colour switch"), path)
    return path


def _repair(run, *args) -> tuple[dict, int]:
    result = run("repair", *args, "--json")
    assert "Traceback" not in result.output
    data = json.loads(result.stdout)
    _validator("repair").validate(data)
    assert data["schema_version"] == SCHEMA_VERSION and data["index"] == 1
    return data, result.exit_code


@pytest.mark.parametrize("path, extra, verdict, status, code", [
    (HEART, [], "unique", "unique", 0),
    (PERMUTATIONS, [], "unique", "repaired", 0),
    (CONTRADICTION, [], "contradiction", "contradiction", 1),
    (PERMUTATIONS, TIMEOUT, "timeout", "timeout", 1),
], ids=["unique", "multiple", "contradiction", "timeout"])
def test_flips_records_are_valid(run, path, extra, verdict, status, code):
    data, exit_code = _repair(run, path, *extra)
    assert (data["verdict"], data["status"], exit_code) == (verdict, status, code)
    if status == "repaired":
        assert data["flips"] == len(data["suggestions"][0]["flips"]) >= 1 and data["suggestions"][0]["unique"]
    else:
        assert data["flips"] is None and data["suggestions"] == []


@pytest.mark.parametrize("path, extra, verdict, code", [
    (HEART, [], "unique", 0),
    (PERMUTATIONS, [], "unique", 0),
    (CONTRADICTION, [], "contradiction", 1),
    (PERMUTATIONS, TIMEOUT, "timeout", 1),
], ids=["unique", "multiple", "contradiction", "timeout"])
def test_givens_records_are_valid(run, path, extra, verdict, code):
    data, exit_code = _repair(run, path, "--givens", *extra)
    assert (data["verdict"], exit_code) == (verdict, code)
    assert data["givens_unique"] == (verdict == "unique")
    assert bool(data["givens"]) == (path == PERMUTATIONS and verdict == "unique")   # a unique puzzle needs none


def test_a_colour_repair_is_valid(run, colour_switch):
    data, code = _repair(run, colour_switch)
    assert code == 0 and data["status"] == "repaired"
    flips = data["suggestions"][0]["flips"]
    picture = data["suggestions"][0]["picture"]
    assert all(set(row) <= set(".123") for row in picture) and any(set(row) & set("23") for row in picture)
    assert flips and all(0 <= f[2] <= 3 for f in flips)   # the background or a colour of the palette
    given, code = _repair(run, colour_switch, "--givens")
    assert code == 0 and given["verdict"] == "unique" and given["givens"]


def test_a_wrong_flips_record_is_rejected(run):
    data, _ = _repair(run, PERMUTATIONS)
    validator = _validator("repair")
    missing = {k: v for k, v in data.items() if k != "lower_bound"}
    for wrong in ({**data, "verdict": "interrupted"},       # a fifth word: an interrupted repair writes no JSON
                  {**data, "verdict": "error"},
                  {**data, "verdict": "multiple"},          # a repair proven unique leaves a unique puzzle
                  missing,
                  {**data, "givens": []},                   # a field of the --givens record
                  {**data, "status": "fixed"},
                  {**data, "schema_version": 3},
                  {**data, "suggestions": data["suggestions"] * 2},   # repair writes one: it reports one
                  {**data, "suggestions": [{**data["suggestions"][0], "flips": [[0, 1]]}]}):
        with pytest.raises(ValidationError):
            validator.validate(wrong)


def test_a_wrong_givens_record_is_rejected(run):
    data, _ = _repair(run, PERMUTATIONS, "--givens")
    validator = _validator("repair")
    for wrong in ({**data, "verdict": "interrupted"},
                  {**data, "givens_unique": False},          # unique exactly when the givens were proven so
                  {k: v for k, v in data.items() if k != "givens"},
                  {**data, "status": "repaired"},            # a field of the flips record
                  {**data, "givens": [[0, 1]]}):
        with pytest.raises(ValidationError):
            validator.validate(wrong)
