"""External solver declarations: templates, verdict rules, grids, TOML files, and the shipped definitions
read against the real programs' output (recorded here, so no program is needed)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from nonolab.bench.externals import KNOWN, External, GridRule, load_definition, parse_external
from nonolab.errors import BenchError


def test_a_template_fills_the_converted_files_the_program_and_the_limit():
    ext = External("x", {"check": "{program} -t {limit} --in={file.nin} {file}"}, program="/bin/x")
    assert ext.suffixes("check") == {"nin"}
    assert ext.command("check", {"nin": "/w/p 1.nin"}, "/w/own.non", 2.5) == [
        "/bin/x", "-t", "3", "--in=/w/p 1.nin", "/w/own.non"]


def test_verdict_rules_expressions_in_order_then_exit_codes():
    ext = External("x", {"check": "x {file}"}, verdicts=(("multiple", "two"), ("unique", "one")),
                   exit_codes={20: "contradiction"})
    assert ext.verdict("one or two\n", 0) == "multiple"
    assert ext.verdict("", 0, stderr="only one") == "unique"
    assert ext.verdict("nothing", 20) == "contradiction"
    assert ext.verdict("nothing", 0) is None


def test_a_grid_block_of_the_puzzle_shape_is_found():
    rule = GridRule("#", ".", " ")
    text = "header\n# . #\nsolution:\n# . #\n. # .\n"
    assert rule.find(text, 3, 2) == ["#.#", ".#."]
    assert rule.find(text, 4, 2) is None


@pytest.mark.parametrize("value, message", [
    ("=x", "expected NAME"),
    ("nosuch", "no shipped definition"),
    ("mine=./solver --fast", "names no puzzle file"),
    ("mine=/no/such/solver {file.non}", "not an executable file"),
])
def test_a_bad_external_is_refused_in_one_line(value, message):
    with pytest.raises(BenchError, match=message) as caught:
        parse_external(value)
    assert "\n" not in str(caught.value)


def test_a_shipped_definition_takes_a_program_path(tmp_path):
    program = tmp_path / "pbnsolve"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    ext = parse_external(f"pbnsolve={program}")
    assert ext.program == str(program) and ext.verdicts == KNOWN["pbnsolve"].verdicts


def test_a_toml_declaration(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(f'program = "{sys.executable}"\n[commands]\nsolve = "{{program}} {{file.non}}"\n'
                    '[verdicts]\nsolved = "^FOUND"\n[exit_codes]\n20 = "contradiction"\n', encoding="utf-8")
    ext = load_definition(path, "s")
    assert ext.commands == {"solve": "{program} {file.non}"} and ext.exit_codes == {20: "contradiction"}
    assert ext.verdict("FOUND\n", 0) == "solved"
    path.write_text('[commands]\nsolve = "x {file}"\n[verdicts]\nbogus = "x"\n', encoding="utf-8")
    with pytest.raises(BenchError, match="unknown verdict 'bogus'"):
        load_definition(path, "s")
    path.write_text('[commands]\nfly = "x"\n', encoding="utf-8")
    with pytest.raises(BenchError, match="check, solve or count"):
        load_definition(path, "s")


# What the programs print (nonosolve, pbnsolve 1.10 -b, nonogrid 0.7.3), as run on the shipped puzzles.
OUTPUTS = [
    ("nonosolve", "/t/car.nin 15x10 UNIQUE time=0.0186 nodes=0 probes=0 sat=0\n...####...\n", "", 0, "unique"),
    ("nonosolve", "/t/switch.nin 2x2 MULTIPLE time=0.0099 nodes=0 probes=1 sat=0\nsolutions 1 and 2 differ in 4 "
                  "cells\n#.\n.#\n", "", 0, "multiple"),
    ("nonosolve", "/t/c.nin 3x3 NONE time=0.0167 nodes=0 probes=0 sat=0\n", "", 0, "contradiction"),
    ("nonosolve", "/t/car.nin 15x10 FOUND time=0.0137 nodes=0 probes=0 sat=0\n", "", 0, "solved"),
    ("pbnsolve", "car\nunique logical\n", "", 0, "unique"),
    ("pbnsolve", "car\ntrivial unique depth-2\n", "", 0, "unique"),
    ("pbnsolve", "switch\nmultiple\n", "", 0, "multiple"),
    ("pbnsolve", "switch\nsolvable\n", "", 0, "solved"),
    ("pbnsolve", "contradiction\ncontradiction\n", "", 0, "contradiction"),
    ("pbnsolve", "unique\ncontradition\n", "", 0, "contradiction"),  # its misspelt branch; the title says unique
    ("pbnsolve", "car\ntimeout\n", "", 1, "timeout"),
    ("nonogrid", "# 1 1\n1 ? ?\nBacktracking found 2 solutions:\n1-th solution:\n.\u25a0\n", "", 0, "multiple"),
    ("nonogrid", "# # 1 1\n# # 1 1\n      4 . . . \u25a0 \u25a0\n", "", 0, "unique"),
    ("nonogrid", "# # 1 1\n      4 . ? . \u25a0 \u25a0\n", "", 0, None),  # its search gave up: no verdict
    ("nonogrid", "Backtracking found 1 solutions:\n1-th solution:\n.\u25a0\n", "", 0, "unique"),
    ("nonogrid", "", "thread 'main' panicked at src/board.rs: index out of bounds", 101, None),
    ("nonogrid", "", "thread 'main' panicked: Bad puzzle: simple propagation failed: UnsolvableLine", 101,
     "contradiction"),
]


@pytest.mark.parametrize("name, stdout, stderr, code, verdict", OUTPUTS)
def test_the_shipped_definitions_read_the_real_words(name, stdout, stderr, code, verdict):
    assert KNOWN[name].verdict(stdout, code, stderr) == verdict


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_the_shipped_programs_agree_with_nonolab_where_they_are_installed(name, tmp_path, two_puzzles):
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not on PATH")
    from nonolab.bench import run

    result = run(two_puzzles, ["native"], [name], isolate="worker")
    assert result.ok and all(r["solved"] for r in result.records), result.records


def test_a_task_an_external_cannot_do_is_refused(tmp_path):
    from nonolab.bench import run

    program = tmp_path / "nonosolve"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    with pytest.raises(BenchError, match="nonosolve declares no command for the task count"):
        run(["ndom:3"], [], [f"nonosolve={program}"], task="count")


TOML_BAD = [   # (the declaration after `program`, what the one line says)
    ('[commands]\ncheck = "{program} {file}"\n[grid]\nfull = "#"\n', "[grid]: unknown keys full"),
    ('[commands]\ncheck = "{program} {file}"\n[grid]\nfilled = ""\nempty = "."\n', "filled"),
    ('[commands]\ncheck = "{program} {file}"\n[grid]\nfilled = "##"\n', "filled"),
    ('[commands]\ncheck = "{program} {file}"\n[grid]\nfilled = "x"\nempty = "x"\n', "differ"),
    ('[commands]\ncheck = "{program} {file}"\n[grid]\nseparator = 1\n', "separator"),
    ('grid = "#"\n[commands]\ncheck = "{program} {file}"\n', "[grid]"),
    ('[commands]\ncheck = "{program} {file}"\n[verdicts]\nunique = 5\n', "unique"),
    ('verdicts = "x"\n[commands]\ncheck = "{program} {file}"\n', "[verdicts]"),
    ('colour = "no"\n[commands]\ncheck = "{program} {file}"\n', "colour"),
    ('[commands]\ncheck = 5\n', "check"),
    ('commands = "x {file}"\n', "[commands]"),
    ('[commands]\ncheck = "{program} --count 2"\n', "names no puzzle file"),
    ('[commands]\ncheck = "{program} --time {limt} {file}"\n', "unknown field {limt}"),
    ('[commands]\ncheck = "{program} {file.xyz}"\n', "{file.xyz}"),
    ('[commands]\ncheck = "{program} \\"unbalanced {file}"\n', "quotation"),
    ('[exit_codes]\n10 = 5\n[commands]\ncheck = "{program} {file}"\n', "exit code 10"),
]


@pytest.mark.parametrize("declaration, said", TOML_BAD)
def test_a_malformed_toml_declaration_is_refused_in_one_line_before_any_run(tmp_path, declaration, said):
    path = tmp_path / "s.toml"
    path.write_text(f'program = "{sys.executable}"\n' + declaration, encoding="utf-8")
    with pytest.raises(BenchError) as caught:
        load_definition(path, "s")
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_toml_program_must_be_a_string(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('program = 5\n[commands]\ncheck = "{program} {file}"\n', encoding="utf-8")
    with pytest.raises(BenchError, match="program"):
        load_definition(path, "s")


@pytest.mark.parametrize("value, said", [
    ("mine=echo --time {limt} {file}", "unknown field {limt}"),
    ("mine=echo {file.xyz}", "{file.xyz}"),
    ("mine=echo 'unbalanced {file}", "quotation"),
    ("nonosolve=echo 'unbalanced", "quotation"),
])
def test_a_malformed_command_line_external_is_refused_in_one_line(value, said):
    with pytest.raises(BenchError) as caught:
        parse_external(value)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_the_command_refuses_a_malformed_declaration_with_exit_2(tmp_path):
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    path = tmp_path / "s.toml"
    path.write_text(f'program = "{sys.executable}"\n[commands]\ncheck = "{{program}} {{file}}"\n[grid]\nfull = "#"\n',
                    encoding="utf-8")
    puzzle = str(Path(__file__).resolve().parents[2] / "puzzles" / "nonolab" / "switch.non")
    result = CliRunner().invoke(cli, ["bench", puzzle, "-b", "native", "-e", f"s={path}", "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.output.startswith("nonolab: error: ") and result.output.count("\n") == 1
    assert not (tmp_path / "o").exists()
