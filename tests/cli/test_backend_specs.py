"""-O and backend specs on every command that runs a backend, through one path into the registry
(issue 13, item 2: the CLI's part), and one default backend named in every help text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonolab.solvers import DEFAULT

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SIMPLE2 = PUZZLES / "hakank" / "simple2.non"

# Every command that runs a backend, with the arguments that name the puzzle.
COMMANDS = {
    "solve": ["solve", SIMPLE2], "check": ["check", SIMPLE2], "check --why": ["check", "--why", SIMPLE2],
    "count": ["count", SIMPLE2], "grade": ["grade", SIMPLE2], "explain": ["explain", SIMPLE2],
    "verify": ["verify", SIMPLE2, "--backends", "native"],
    "generate": ["generate", "--size", "5x5", "--unique", "--max-candidates", "3"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS) + ["batch"])
def test_an_unknown_option_reaches_the_registry_on_every_command(run, name, tmp_path):
    args = COMMANDS.get(name) or ["batch", SIMPLE2, "--out", tmp_path / "out.jsonl", "-b", "native", "--no-progress"]
    result = run(*args, "-O", "bogus_option=1")
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert "\n" not in message and "bogus_option" in message and "Traceback" not in message
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("name", ["solve", "check", "check --why", "count", "grade", "explain"])
def test_a_spec_is_accepted_on_every_command(run, name):
    result = run(*COMMANDS[name], "-b", "native:line=overlap,probing=contradiction", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code in (0, 1) and data["backend"] == "native", result.output


def test_the_spec_s_options_reach_the_backend(run):
    steps = json.loads(run("explain", SIMPLE2, "-b", "native:line=overlap", "--json").stdout)["steps"]
    assert "simple-overlap" in {s["technique"] for s in steps}   # the overlap strategy's own label
    steps = json.loads(run("explain", SIMPLE2, "-b", "native", "-O", "line=overlap", "--json").stdout)["steps"]
    assert "simple-overlap" in {s["technique"] for s in steps}


def test_explain_refuses_a_backend_that_cannot_record_steps_in_one_line(run):
    result = run("explain", SIMPLE2, "-b", "cnf")
    assert result.exit_code == 2 and "cannot record its steps" in result.stderr
    assert result.stderr.count("\n") == 1


def test_batch_passes_options_and_specs_to_its_workers(run, tmp_path):
    out = tmp_path / "out.jsonl"
    result = run("batch", SIMPLE2, "--out", out, "-b", "native:line=overlap", "-O", "probing=contradiction",
                 "--no-progress")
    record = json.loads(out.read_text())
    assert result.exit_code == 0 and record["backend"] == "native:line=overlap,probing=contradiction"
    assert record["verdict"] == "multiple"


@pytest.mark.parametrize("command", ["solve", "check", "count", "grade", "explain", "batch"])
def test_every_help_names_the_one_default_backend(run, command):
    text = " ".join(run(command, "--help").stdout.split())
    assert f"default: {DEFAULT}" in text
    for other in {"native", "auto", "cnf", "cpsat"} - {DEFAULT}:
        assert f"default: {other})" not in text and f"[default: {other}]" not in text


def test_batch_records_name_the_default_backend(run, tmp_path):
    out = tmp_path / "out.jsonl"
    run("batch", SIMPLE2, "--out", out, "--no-progress")
    assert json.loads(out.read_text())["backend"] == DEFAULT


@pytest.mark.parametrize("option", ["find_seed=-2", "find_seed=x", "count_relay=sometimes", "relay_early=soon"])
def test_a_bad_find_seed_or_count_relay_is_a_one_line_error(run, option):
    result = run("check", SIMPLE2, "-O", option)
    message = result.stderr.strip()
    assert result.exit_code == 2 and "\n" not in message and option.split("=")[0] in message
    assert "Traceback" not in message
