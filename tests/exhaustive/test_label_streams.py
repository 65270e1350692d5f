"""`nonolab label` on sets and streams (issue 30): a puzzle that cannot be read or labelled is
an error record in the label schema and the rest go on (exit 1); JSON Lines and TAAI sets
are read a puzzle at a time, past NONOLAB_MAX_PUZZLES, holding at most one group."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import nonolab
from nonolab.cli.main import cli
from nonolab.errors import TooLarge
from nonolab.exhaustive import labels as labels_module
from nonolab.exhaustive.labels import GROUP, label_records
from nonolab.exhaustive.reading import read_puzzles
from nonolab.generate.grids import puzzle_from_array, random_grid

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
ONE = nonolab.Puzzle(rows=((1,),), columns=((1,),))


def _validator():
    from nonolab.cli.records import SCHEMAS, schema

    resources = [(schema(n)["$id"], referencing.Resource.from_contents(schema(n))) for n in SCHEMAS]
    registry = referencing.Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(schema("label-record"), registry=registry)


def _label(*args, **kwargs):
    result = CliRunner().invoke(cli, ["label", *map(str, args)], catch_exceptions=False, **kwargs)
    return result.exit_code, [json.loads(line) for line in result.output.splitlines()]


def _taai(puzzles) -> str:
    return "".join(f"${n}\n" + nonolab.dumps(p, "taai").split("\n", 1)[1] for n, p in enumerate(puzzles, 1))


def test_the_error_record_is_in_the_label_schema_and_the_set_goes_on(tmp_path, monkeypatch):
    """A line that is no puzzle, a file that does not parse, and a puzzle whose labelling a
    library error stops: each an error record, valid against label-record.json, as the labels are."""
    real = labels_module._label

    def refusing(puzzle, *args):
        if puzzle.width == 3:
            raise TooLarge("refused: three columns")
        return real(puzzle, *args)

    monkeypatch.setattr(labels_module, "_label", refusing)
    line = nonolab.dumps(ONE, "json").replace("\n", "")
    three = nonolab.dumps(nonolab.Puzzle(rows=((3,),), columns=((1,), (1,), (1,))), "json").replace("\n", "")
    (tmp_path / "set.jsonl").write_text(f"{line}\n{{\"rows\": 7}}\n{three}\n{line}\n")
    (tmp_path / "broken.non").write_text("width 3\n")
    code, records = _label(tmp_path / "set.jsonl", tmp_path / "broken.non", PUZZLES / "nonolab" / "heart.non")
    assert code == 1
    assert [(r["index"], r["verdict"]) for r in records] == [(1, "unique"), (2, None), (3, None), (4, "unique"),
                                                               (1, None), (1, "unique")]
    assert "line 2" in records[1]["error"] and "refused" in records[2]["error"] and "broken.non" in records[4]["error"]
    validator = _validator()
    for record in records:
        validator.validate(record)
    for wrong in ({**records[1], "verdict": "unique"},            # an error record names no verdict
                  {**records[1], "error": None},                  # verdict null says why
                  {**records[0], "error": "x"},                   # a labelled puzzle has no error
                  {**records[1], "solutions": [["#"]]}):          # nor solutions
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(wrong)


@pytest.mark.parametrize("kind", ["jsonl", "taai"])
def test_a_stream_beyond_the_puzzles_limit_is_labelled(tmp_path, monkeypatch, kind):
    """NONOLAB_MAX_PUZZLES bounds a set held whole, not a stream read a puzzle at a time."""
    monkeypatch.setenv("NONOLAB_MAX_PUZZLES", "40")
    puzzles = [puzzle_from_array(random_grid(5, 5, 0.5, seed=s)) for s in range(300)]
    path = tmp_path / f"set.{'jsonl' if kind == 'jsonl' else 'txt'}"
    if kind == "jsonl":
        path.write_text("".join(nonolab.dumps(p, "json").replace("\n", "") + "\n" for p in puzzles))
    else:
        path.write_text(_taai(puzzles))
        with pytest.raises(TooLarge):        # read whole, the set is refused at the limit
            nonolab.formats.load_all(path)
    code, records = _label(path)
    assert code == 0 and [r["index"] for r in records] == list(range(1, 301))
    expected = [nonolab.check(p, backend="native").verdict.value for p in puzzles[:60]]
    assert [r["verdict"] for r in records[:60]] == expected


def test_a_stream_is_read_at_most_one_group_ahead_of_its_labels(tmp_path):
    """The memory bound: a stream of 3,000 puzzles is never held whole; what is read ahead
    of the labels written stays within one group of the batch entry (plus the one in hand)."""
    puzzles = [puzzle_from_array(random_grid(4, 4, 0.5, seed=s)) for s in range(50)]
    path = tmp_path / "long.txt"
    path.write_text(_taai(puzzles * 60))
    read = 0

    def counted():
        nonlocal read
        for item in read_puzzles([str(path)]):
            read += 1
            yield item

    ahead = 0
    for written, record in enumerate(label_records(counted()), 1):
        ahead = max(ahead, read - written)
        assert record["error"] is None
    assert written == 3000 and 0 < ahead <= GROUP


def test_an_overlong_line_is_an_error_and_the_next_line_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("NONOLAB_MAX_INPUT_BYTES", "200")
    line = nonolab.dumps(ONE, "json").replace("\n", "")
    (tmp_path / "set.jsonl").write_text(f"{line}\n{' ' * 1000}{line}\n{line}\n")
    code, records = _label(tmp_path / "set.jsonl")
    assert code == 1 and [(r["index"], r["verdict"]) for r in records] == [(1, "unique"), (2, None), (3, "unique")]
    assert "input limit" in records[1]["error"]


def test_a_taai_set_read_as_a_stream_names_the_line_of_a_bad_puzzle(tmp_path):
    text = _taai([ONE, ONE, ONE]).replace("$2\n1\n1\n", "$2\n1\nx\n")
    (tmp_path / "set.txt").write_text(text)
    code, records = _label(tmp_path / "set.txt")
    assert code == 1 and [r["verdict"] for r in records] == ["unique", None, "unique"]
    assert records[1]["error"].startswith(f"{tmp_path / 'set.txt'}:6:")
