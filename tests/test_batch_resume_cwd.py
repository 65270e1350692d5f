"""--resume matches the earlier records to the puzzles wherever the batch is run from.

A record names its file as given (``set/car.non``, relative to where that batch ran); resume
took that name relative to where the resumed batch runs, matched nothing from another folder
(``nonolab batch a11/set -o a11/r.jsonl --resume`` from the parent folder) and ran, and wrote,
every puzzle again: each record twice.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from nonolab.batch import run_batch

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def test_resume_from_another_folder_runs_nothing_again(tmp_path, monkeypatch):
    work = tmp_path / "work"
    (work / "set").mkdir(parents=True)
    for name in ("car.non", "t2.non"):
        shutil.copy(PUZZLES / "hakank" / name, work / "set" / name)
    monkeypatch.chdir(work)
    first = run_batch(["set"], "check", "r.jsonl", backend="native")
    assert first.written == 2
    monkeypatch.chdir(tmp_path)
    again = run_batch(["work/set"], "check", "work/r.jsonl", backend="native", resume=True)
    assert again.written == 0 and again.earlier == 2
    records = [json.loads(line) for line in (work / "r.jsonl").read_text().splitlines()]
    assert sorted(r["file"] for r in records) == ["set/car.non", "set/t2.non"]


def test_resume_of_a_moved_folder_from_the_same_place_in_it_runs_nothing_again(tmp_path, monkeypatch):
    """The set and its results moved (or copied to another machine) together: the names as
    given still find the puzzles from the same place in the folder, the absolute paths do not."""
    work = tmp_path / "work"
    (work / "set").mkdir(parents=True)
    shutil.copy(PUZZLES / "hakank" / "car.non", work / "set" / "car.non")
    monkeypatch.chdir(work)
    assert run_batch(["set"], "check", "r.jsonl", backend="native").written == 1
    moved = tmp_path / "moved"
    monkeypatch.chdir(tmp_path)
    work.rename(moved)
    monkeypatch.chdir(moved)
    again = run_batch(["set"], "check", "r.jsonl", backend="native", resume=True)
    assert again.written == 0 and again.earlier == 1
    assert len((moved / "r.jsonl").read_text().splitlines()) == 1


def test_resume_runs_again_a_puzzle_whose_file_changed(tmp_path, monkeypatch):
    """A record answers the file it was run on: resume matched by name alone, so a puzzle
    edited between runs kept its old verdict (a unique puzzle made multiple stayed
    "unique"). Records keep the file's digest; a changed file is run again, the others not."""
    work = tmp_path / "work"
    (work / "set").mkdir(parents=True)
    for name in ("car.non", "t2.non"):
        shutil.copy(PUZZLES / "hakank" / name, work / "set" / name)
    monkeypatch.chdir(work)
    assert run_batch(["set"], "check", "r.jsonl", backend="native").written == 2
    first = {r["file"]: r for r in map(json.loads, (work / "r.jsonl").read_text().splitlines())}
    assert all(len(r["digest"]) == 64 for r in first.values())
    shutil.copy(PUZZLES / "hakank" / "nonunique.non", work / "set" / "car.non")   # edited since
    again = run_batch(["set"], "check", "r.jsonl", backend="native", resume=True)
    assert again.written == 1 and again.earlier == 1
    last = {r["file"]: r for r in map(json.loads, (work / "r.jsonl").read_text().splitlines())}
    assert last["set/car.non"]["verdict"] == "multiple" != first["set/car.non"]["verdict"]
    assert last["set/car.non"]["digest"] != first["set/car.non"]["digest"]
    assert run_batch(["set"], "check", "r.jsonl", backend="native", resume=True).written == 0


def test_resume_keeps_a_record_written_without_a_digest(tmp_path, monkeypatch):
    """Records of an earlier nonolab have no digest: matched by name, as they always were."""
    work = tmp_path / "work"
    (work / "set").mkdir(parents=True)
    shutil.copy(PUZZLES / "hakank" / "car.non", work / "set" / "car.non")
    monkeypatch.chdir(work)
    run_batch(["set"], "check", "r.jsonl", backend="native")
    record = json.loads((work / "r.jsonl").read_text())
    del record["digest"]
    (work / "r.jsonl").write_text(json.dumps(record) + "\n")
    again = run_batch(["set"], "check", "r.jsonl", backend="native", resume=True)
    assert again.written == 0 and again.earlier == 1
