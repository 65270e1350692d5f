"""Every command's --json output is valid against the JSON Schema shipped for it (issue 13, item 6).

The schemas (nonolab/schemas/*.json, draft 2020-12) forbid fields they do not
name, so a field renamed in one command (``complete`` for ``exact``, say) fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonolab.cli.records import SCHEMA_VERSION, SCHEMAS, schema
from nonolab.formats import dumps_all, load

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SHIPPED = [PUZZLES / "hakank" / "simple2.non", PUZZLES / "nonolab" / "contradiction.non",
           PUZZLES / "webpbn" / "webpbn-00023-edge.non"]

COMMANDS = {  # schema name -> the command line before the file
    "solve": ["solve"], "check": ["check"], "check-why": ["check", "--why"], "check-report": ["check", "--report"],
    "count": ["count"],
    "explain": ["explain"], "info": ["info"], "grade": ["grade"], "verify": ["verify", "--backends", "native,cnf"],
    "repair": ["repair"],   # with --json it writes no puzzle: its records only (test_repair_json.py)
}


def _validator(name: str):
    resources = [(schema(n)["$id"], referencing.Resource.from_contents(schema(n))) for n in SCHEMAS]
    registry = referencing.Registry().with_resources(resources)
    cls = jsonschema.validators.validator_for(schema(name))
    cls.check_schema(schema(name))
    return cls(schema(name), registry=registry)


def test_every_schema_is_a_valid_draft_2020_12_schema():
    for name in SCHEMAS:
        data = schema(name)
        assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(data)
    assert "0-based" in schema("common")["description"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("puzzle", SHIPPED, ids=lambda p: p.stem)
def test_a_single_puzzle_s_json_is_valid(run, name, puzzle):
    data = json.loads(run(*COMMANDS[name], puzzle, "--json").stdout)
    _validator(name).validate(data)
    assert data["schema_version"] == SCHEMA_VERSION and data["index"] == 1 and "puzzles" not in data


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_set_s_json_is_one_valid_document(run, name, two):
    data = json.loads(run(*COMMANDS[name], two, "--json").stdout)
    _validator(name).validate(data)
    assert [r["index"] for r in data["puzzles"]] == [1, 2] and data["summary"]["puzzles"] == 2


def test_a_renamed_field_is_caught(run):
    data = json.loads(run("count", SHIPPED[0], "--json").stdout)
    data["complete"] = data.pop("exact")
    with pytest.raises(jsonschema.ValidationError):
        _validator("count").validate(data)


@pytest.mark.parametrize("task", ["check", "solve", "count", "grade", "verify"])
def test_batch_records_are_valid(run, tmp_path, two, task):
    out = tmp_path / "out.jsonl"
    (tmp_path / "broken.non").write_text("width 3\n")  # an error record must be valid too
    args = ["batch", two, SHIPPED[0], tmp_path / "broken.non", "--do", task, "--out", out, "--no-progress"]
    run(*args, *(["-b", "native,cnf"] if task == "verify" else ["-b", "native"]))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4 and any(r["status"] == "error" for r in records)
    validator = _validator("batch-record")
    for record in records:
        validator.validate(record)
    failed = next(r for r in records if r["status"] == "error")
    assert failed["verdict"] is None and failed["error"]
    for wrong in ({**failed, "verdict": "error"},          # "error" is no verdict (schema_version 2 wrote it)
                  {**failed, "verdict": "timeout"},        # a record that could not be checked has none
                  {**failed, "error": None},               # and says why
                  {**next(r for r in records if r["status"] == "ok"), "error": "x"}):   # an answer has no error
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(wrong)


def test_the_usage_page_names_every_schema():
    """docs/usage.md lists one schema per command: each shipped one, and no other."""
    import re
    usage = (Path(__file__).resolve().parents[2] / "docs" / "usage.md").read_text(encoding="utf-8")
    listed = re.search(r"`nonolab/schemas/\{([a-z,-]+)\}\.json`", usage).group(1).split(",")
    assert sorted(listed) == sorted(set(SCHEMAS) - {"common"})


def test_the_schemas_are_package_data():
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"schemas/*.json"' in pyproject and "jsonschema>=4.18" in pyproject


def test_the_report_of_a_colour_puzzle_with_repairs_is_valid(run, tmp_path):
    from nonolab.core import Puzzle, Solution
    from nonolab.formats import dump
    picture = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [2, 2, 0, 3], [0, 2, 3, 3]])
    path = tmp_path / "switch.json"
    dump(Puzzle.from_solution(picture, "colour switch"), path)
    data = json.loads(run("check", "--report", path, "--json").stdout)
    assert data["repair"]["suggestions"] and any(
        f[2] > 1 for s in data["repair"]["suggestions"] for f in s["flips"])   # a change to another colour
    _validator("check-report").validate(data)


@pytest.fixture(scope="module")
def one_too_big(tmp_path_factory) -> tuple[str, list[str]]:
    """Three puzzles, the second beyond the cnf backend's max_states (set between the sizes)."""
    from nonolab.solvers.size import model_states

    small, big = load(PUZZLES / "nonolab" / "heart.non"), load(PUZZLES / "hakank" / "nonunique.non")
    path = tmp_path_factory.mktemp("refused") / "three.json"
    path.write_text(dumps_all([small, big, small], "json"), encoding="utf-8")
    return str(path), ["-b", "cnf", "-O", f"max_states={model_states(small)}"]


@pytest.mark.parametrize("name", ["check", "check-why", "check-report", "count", "solve", "grade", "repair"])
def test_a_set_with_a_puzzle_a_library_error_stopped_is_valid(run, one_too_big, name):
    """A set's puzzle that the backend refuses has its own record: verdict null, error the message."""
    path, refuse = one_too_big
    data = json.loads(run(*COMMANDS[name], *refuse, path, "--json").stdout)
    _validator(name).validate(data)
    refused = data["puzzles"][1]
    assert refused["verdict"] is None and "max_states" in refused["error"] and data["summary"]["errors"] == 1
    for wrong in ({k: v for k, v in refused.items() if k != "verdict"},   # an error record names its verdict
                  {**refused, "error": None},                               # verdict null says why
                  {**refused, "verdict": "timeout"},                        # a timeout is not an error
                  {**data["puzzles"][0], "error": refused["error"]}):       # an answered puzzle has no error
        with pytest.raises(jsonschema.ValidationError):
            _validator(name).validate({**data, "puzzles": [data["puzzles"][0], wrong, data["puzzles"][2]]})


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"info", "verify"}))
def test_a_set_the_clock_ran_out_on_is_valid(run, two, name, monkeypatch):
    """The puzzles the command's --time-limit did not reach have timeout records (error null)."""
    from nonolab.cli import clock

    monkeypatch.setattr(clock, "elapsed", lambda: 10.0 ** 6)
    data = json.loads(run(*COMMANDS[name], two, "--time-limit", "5", "--json").stdout)
    _validator(name).validate(data)
    assert [(r["verdict"], r["error"]) for r in data["puzzles"]] == [("timeout", None)] * 2


def test_a_certified_set_with_a_puzzle_a_library_error_stopped_is_valid(run, one_too_big, tmp_path, monkeypatch):
    """check --certify answers through the same set loop: a puzzle whose certificate a library
    error stopped has the error record (forced here: the certifier builds its own model)."""
    import nonolab.certify
    from nonolab.errors import TooLarge

    real = nonolab.certify.certify

    def refusing(puzzle, *args, **kwargs):
        if puzzle.name == "nonunique":
            raise TooLarge("the model is beyond a limit")
        return real(puzzle, *args, **kwargs)

    monkeypatch.setattr(nonolab.certify, "certify", refusing)
    path, _ = one_too_big
    data = json.loads(run("check", "--certify", tmp_path / "certs", path, "-b", "cnf", "--json").stdout)
    _validator("check-certify").validate(data)
    assert [r["verdict"] for r in data["puzzles"]] == ["unique", None, "unique"]
    assert data["puzzles"][1]["error"] == "the model is beyond a limit" and data["summary"]["errors"] == 1


@pytest.fixture(scope="module")
def one_unreadable(tmp_path_factory) -> str:
    """Three puzzles in a TAAI set, the second's row clue 77 on a 1x1 grid: it cannot be read."""
    small = load(PUZZLES / "nonolab" / "heart.non")
    text = dumps_all([small], "taai") + "$2\n1\n77\n" + dumps_all([small], "taai").replace("$1", "$3")
    path = tmp_path_factory.mktemp("unreadable") / "three.taai"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"repair"}))
def test_a_set_with_a_puzzle_that_could_not_be_read_is_valid(run, one_unreadable, name):
    """Its record: verdict null, the located error, title and size null (nothing of it was read).
    (``repair`` writes the set back: it refuses such a file, test_set_with_a_bad_puzzle.py.)"""
    data = json.loads(run(*COMMANDS[name], one_unreadable, "--json").stdout)
    _validator(name).validate(data)
    unread = data["puzzles"][1]
    assert (unread["index"], unread["verdict"], unread["title"], unread["width"]) == (2, None, None, None)
    assert unread["error"].startswith(f"{one_unreadable}:") and "puzzle 2: row 1: clue 77" in unread["error"]
    assert data["summary"]["errors"] == 1 and data["summary"]["exit_code"] == 2


@pytest.mark.parametrize("name", ["check", "solve"])
def test_a_set_the_clock_ran_out_on_keeps_its_unreadable_puzzle_s_error(run, one_unreadable, name, monkeypatch):
    from nonolab.cli import clock

    monkeypatch.setattr(clock, "elapsed", lambda: 10.0 ** 6)
    data = json.loads(run(*COMMANDS[name], one_unreadable, "--time-limit", "5", "--json").stdout)
    _validator(name).validate(data)
    assert [r["verdict"] for r in data["puzzles"]] == ["timeout", None, "timeout"]
    assert "puzzle 2: row 1: clue 77" in data["puzzles"][1]["error"] and data["summary"]["exit_code"] == 2


@pytest.mark.parametrize("name", ["check", "check-why", "check-report", "solve", "explain"])
def test_a_colour_picture_past_colour_35_is_written_and_valid(run, tmp_path, name):
    """Every JSON answer of a picture using colour 36 or more was one line, exit 2 (`Solution.to_text:
    36 chars for colour values up to 48`), and `check --why` and `verify` without --json the same:
    colours 1 to 61 are written `1`-`9`, `a`-`z`, `A`-`Z`, as a `.non` goal writes them."""
    from nonolab.core import Puzzle, Solution
    from nonolab.core.grid import COLOUR_CHARS
    from nonolab.core.palette import Palette
    from nonolab.formats import dump
    values = [[(r * 8 + c) // 2 + 1 if (r + c) % 2 == 0 else 0 for c in range(8)] for r in range(12)]  # 1..48
    picture = Solution.from_values(values)
    path = tmp_path / "many.json"
    dump(Puzzle.from_solution(picture, "48 colours", palette=Palette.default_for(48)), path)
    result = run(*COMMANDS[name], path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    _validator(name).validate(data)
    rows = data.get("solutions", [None])[0] or data.get("reference") or data.get("solution")
    assert [[COLOUR_CHARS.index(ch) for ch in row] for row in rows] == values
    if name == "check-why":
        assert run("check", "--why", path).exit_code == 0


def test_a_picture_past_colour_61_says_the_limit():
    from nonolab.core import Solution
    from nonolab.errors import TooLarge
    assert Solution.from_values([[61, 0]]).to_text().endswith("Z.")
    with pytest.raises(TooLarge, match="colours 1 to 61 a character each .1-Z., and this one uses colour 62"):
        Solution.from_values([[62, 0]]).to_text()
