"""``check --certify DIR`` (one certificate per puzzle) and ``certify-check DIR``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from nonolab.certcheck.checkers import CHECKERS
from nonolab.cli import clock, options, records, sets
from nonolab.cli.group import EXIT_NO
from nonolab.cli.interrupt import CANCEL
from nonolab.errors import InvalidArgument
from nonolab.core.words import counted

__all__ = ["COMMANDS", "answer", "folder_for", "note", "places"]


def folder_for(directory: str, number: int, puzzle, in_set: bool) -> Path:
    """The certificate's folder: ``DIR`` itself for one puzzle, ``DIR/002-title`` in a set.

    >>> from nonolab.core import Puzzle
    >>> str(folder_for("out", 2, Puzzle(rows=((1,),), columns=((1,),), name="My Cat!"), True))
    'out/002-my-cat'
    """
    if not in_set:
        return Path(directory)
    slug = re.sub(r"[^a-z0-9]+", "-", (puzzle.name or "").lower()).strip("-")[:40]
    return Path(directory) / (f"{number:03d}-{slug}" if slug else f"{number:03d}")


def note(made) -> str:
    """The line that says where a certificate is (or why there is none)."""
    if not made.certified:
        return f"not certified: {made.reason}"
    lines = counted(made.proof_lines, "line", grouped=True)
    proof = f"; proof by {made.prover}: {lines}, {made.proof_bytes:,} bytes" if made.prover else ""
    return f"certified: {made.path}{proof} (check it: nonolab certify-check {made.path})"


def answer(puzzle, folder: Path, solver, time_limit, as_json: bool) -> sets.Answer:
    """One puzzle's ``check --certify``: the verdict, and where its certificate is."""
    from nonolab.certify import certify

    made = certify(puzzle, folder, solver, time_limit, cancel=CANCEL)
    data = {"verdict": made.verdict.value, "certificate": made.as_dict()} if as_json else {}
    code = 0 if made.verdict.value == "unique" and made.certified else EXIT_NO
    return sets.Answer(made.verdict.value, code, data, made.verdict.value, [note(made)])


def places(file: str, chosen, directory: str) -> dict[int, Path]:
    """``{id(puzzle): its certificate's folder}`` for the chosen puzzles of ``file``.

    Raises:
        InvalidArgument: a colour puzzle among them, or a certificate's folder (replaced
            whole) that holds a file the command reads.
    """
    several = len(chosen) > 1
    chosen = sets.readable(chosen)   # a puzzle that could not be read has its error, not a certificate
    colour = [number for number, puzzle in chosen if puzzle.is_colour]
    if colour:
        raise InvalidArgument(f"{file}: puzzle #{colour[0]} is in colour; certificates are for black-and-white "
                              "puzzles (the DIMACS export they rest on has no colour encoding)")
    where = {id(p): folder_for(directory, n, p, several) for n, p in chosen}
    # Each certificate's folder is replaced whole (an earlier certificate there goes): an
    # input inside one (check cert/mine.non --certify cert) went with it.
    from nonolab.formats._input_guard import refuse_replacing_inputs
    refuse_replacing_inputs("--certify", directory, where.values(), options.inputs(), whole=True)
    return where


def run(file, input_format, index, solver, time_limit, as_json, directory, chosen) -> int:
    """``check --certify``: every chosen puzzle of ``file`` certified under ``directory``."""
    where = places(file, chosen, directory)
    return sets.run_set(file, input_format, index, as_json,
                        lambda p: answer(p, where[id(p)], solver, clock.left(time_limit), as_json), chosen)


@click.command("certify-check")
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.option("--checker", type=click.Choice(CHECKERS), default=CHECKERS[0],
              show_default=True,
              help="The external DRAT checker: drat-trim (on PATH, or NONOLAB_DRAT_TRIM), dratify (PyPI; its Rust "
                   "engine when cdclkit-native is installed), dratify-python (its pure Python engine); auto: "
                   "drat-trim when found, else dratify.")
@options.time_limit
@options.as_json
def certify_check(directory, checker, time_limit, as_json):
    """Check the certificates in DIRECTORY (one, or a set's sub-folders) without trusting nonolab's solvers.

    Each is re-derived and checked: its files against the manifest's SHA-256, its CNF
    against the clues (a second encoder), its solutions against the clues, and its proof
    by an external DRAT checker (in a child process, which --time-limit and Ctrl-C
    stop).  One line each: accepted; rejected and why; or timeout, when the limit
    stopped the proof's check (neither accepted nor rejected).  Exit code 0 only when
    every certificate is accepted.
    """
    from nonolab.certcheck import certificates_in, check_certificate

    folders = certificates_in(directory)
    if not folders:
        raise InvalidArgument(f"{directory}: no certificate here (no manifest.json in it or its sub-folders)")
    outcomes = []
    for folder in folders:
        outcome = check_certificate(folder, checker, clock.left(time_limit), cancel=CANCEL)
        outcomes.append(outcome)
        if not as_json:
            if outcome.ok:
                by = f"; proof checked by {outcome.checker}" if outcome.checker else ""
                click.echo(f"{folder}: accepted ({outcome.verdict}{by})")
            else:
                click.echo(f"{folder}: {outcome.outcome}: {outcome.reason}")
    counts = {word: sum(o.outcome == word for o in outcomes) for word in ("accepted", "rejected", "timeout")}
    if as_json:
        records.emit({"schema_version": records.SCHEMA_VERSION, "directory": str(directory),
                      "certificates": [o.as_dict() for o in outcomes], **counts})
    elif len(outcomes) > 1:
        timeouts = f", {counts['timeout']} timeout" if counts["timeout"] else ""
        click.echo(f"{len(outcomes)} certificates: {counts['accepted']} accepted, {counts['rejected']} rejected"
                   f"{timeouts}")
    if counts["accepted"] < len(outcomes):
        sys.exit(EXIT_NO)


COMMANDS = [certify_check]
