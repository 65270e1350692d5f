"""`nonolab generate`: seeded puzzles, filtered, proven and repaired (nonolab.generate)."""

from __future__ import annotations

import sys

import click

from nonolab.solvers import DEFAULT

from nonolab.cli import clock, options
from nonolab.cli.group import EXIT_NO
from nonolab.core.words import counted

_STOPPED = {"max-candidates": "--max-candidates was reached", "time-limit": "--time-limit ran out",
            "image": "an image without --repair gives one candidate"}


def _stopped(report, recipe) -> str:
    """Why the loop ended early, in words."""
    if report.stopped == "exhausted":
        low, high = recipe.density_range
        size = f"{recipe.width}x{recipe.height}"
        if not report.pictures:
            return f"no {size} picture has a filled fraction within the density range {low:g}-{high:g}"
        return (f"every one of the {report.pictures} pictures a {size} grid holds within the density range "
                f"{low:g}-{high:g} was tried")
    return _STOPPED.get(report.stopped, report.stopped)


# Ranges are checked by the library (one-line errors, exit 2), so the numbers are plain types here.
@click.command()
@click.option("--size", required=True, metavar="WxH", help="Grid size, width x height (e.g. 30x30).")
@click.option("--density", type=float, default=0.5, show_default=True, metavar="D",
              help="Filled fraction of the picture, strictly between 0 and 1.")
@click.option("--style", type=click.Choice(["smooth", "noise"]), default="smooth", show_default=True,
              help="smooth: blurred noise thresholded at the density (image-like); noise: uniform noise.")
@click.option("--radius", type=int, default=None, metavar="R",
              help="Blur radius of the smooth style (default: about min(W, H) / 20).")
@click.option("--colours", "--colors", "colours", type=int, default=1, show_default=True, metavar="K",
              help="Foreground colours: 1 is black and white; 2 to 12 give colour puzzles (a palette of "
                   "distinct named colours; with --from-image, the image's colours quantised to K).")
@click.option("--from-image", "image", default=None, metavar="FILE",
              type=options.InputPath(dir_okay=False, path_type=str),
              help="Take the picture from an image (needs pillow): grayscale, resized, the darkest "
                   "D of the cells filled; with --colours K, its colours quantised to K plus the "
                   "background (the colour most common on its border).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="S",
              help="Master seed: the same arguments give the same puzzles.")
@click.option("--count", "-n", type=int, default=1, show_default=True, metavar="N", help="Puzzles wanted.")
@click.option("--out", "out_dir", default=None, metavar="DIR",
              help="Write one file per puzzle and index.csv here (default: print to standard output).")
@click.option("--force", is_flag=True,
              help="Replace the earlier generated set in --out (its files and index.csv) once the new one is "
                   "complete; a run that fails or is interrupted leaves it as it was (without --force, a folder "
                   "holding a set is refused).")
@click.option("--format", "-t", "fmt", default="non", show_default=True, metavar="FMT",
              help="Format of the puzzles written (any format of `nonolab convert`).")
@click.option("--unique", is_flag=True, help="Accept only puzzles proven unique by an exact count to 2.")
@click.option("--max-grade", type=click.Choice(["line", "probe", "search"]), default=None,
              help="Accept only puzzles this easy: line; probe (contradiction-probe, full-probe or "
                   "depth-2: no guess); search (any unique puzzle).  Implies uniqueness.  A colour "
                   "puzzle is graded on the colour engine's steps (no depth-2: what full probing "
                   "leaves open is search).")
@click.option("--repair", is_flag=True,
              help="Flip a cell where two solutions differ (or that line logic leaves open) and retry, "
                   "instead of discarding.")
@click.option("--max-repairs", type=int, default=20, show_default=True, metavar="N",
              help="Flips per candidate before it is discarded.")
@click.option("--min-density", type=options.FiniteRange(min=0, max=1), default=0.2, show_default=True, metavar="D",
              help="Discard candidates whose filled fraction is below this.")
@click.option("--max-density", type=options.FiniteRange(min=0, max=1), default=0.7, show_default=True, metavar="D",
              help="Discard candidates whose filled fraction is above this.")
@click.option("--allow-uniform-lines/--no-uniform-lines", default=None,
              help="Accept rows and columns (longer than 2) that are all filled or all empty (default: yes with "
                   "--from-image, whose background is often whole rows, no otherwise).")
@click.option("--backend", "-b", default=DEFAULT, show_default=True, metavar="SPEC",
              help=f"The backend that counts to 2, or a spec such as native:line=overlap (see `nonolab "
                   f"backends`; default: {DEFAULT}, the default of every command).")
@options.backend_option
@click.option("--candidate-time-limit", type=options.SECONDS, default=10.0, show_default=True, metavar="SECONDS",
              help="Wall time to judge one candidate, repairs included; a candidate cut by it is discarded.")
@options.time_limit
@click.option("--max-candidates", type=int, default=None, metavar="N",
              help="Stop after N candidates (default: 100 per puzzle wanted).")
@click.option("--progress/--no-progress", default=None, help="A progress bar (default: on a terminal).")
def generate(size, density, style, radius, colours, image, seed, count, out_dir, force, fmt, unique, max_grade, repair,
             max_repairs, min_density, max_density, allow_uniform_lines, backend, backend_options, candidate_time_limit,
             time_limit, max_candidates, progress):
    """Generate puzzles with a goal picture, reproducibly from --seed.

    Candidates are filtered (density within --min-density..--max-density, no
    all-filled or all-empty line), judged (--unique, --max-grade) and, with
    --repair, mended.  Prints a summary line on stderr: puzzles accepted,
    candidates tried and candidates per accepted puzzle.  Exit code 1 when fewer
    than --count puzzles were found within the limits.
    """
    from nonolab.cli.backends import spec_with_options
    from nonolab.cli.progress import GeneratedPuzzles
    from nonolab.errors import InvalidArgument
    from nonolab.formats import colour_formats, dumps, dumps_all, holds_colour, holds_several, is_binary, suffix_of
    from nonolab.generate import Recipe, SetWriter, make_puzzles, parse_size

    # Options that only shape what another draws or does: typed without it, refused, not dropped.
    if image is not None and options.given_on_command_line("style"):
        raise InvalidArgument("--style draws a picture of noise, and --from-image takes the image's: give one of them")
    if not repair and options.given_on_command_line("max_repairs"):
        raise InvalidArgument("--max-repairs bounds the flips of --repair: give --repair too")
    if force and out_dir is None:
        raise InvalidArgument("--force replaces the set in --out DIR: give --out too")
    if not unique and max_grade is None:   # the backend only judges: unjudged, -b nope was taken in silence
        typed = [flag for name, flag in (("backend", "--backend"), ("backend_options", "-O"))
                 if options.given_on_command_line(name)]
        if typed:
            raise InvalidArgument(f"{' and '.join(typed)} name{'s' * (len(typed) == 1)} the backend that judges "
                                  "candidates: give --unique or --max-grade too")
    if min_density > max_density:   # (each is a number in 0..1: its type checked it)
        raise InvalidArgument(f"--min-density {min_density:g} is above --max-density {max_density:g}: no "
                              "candidate's filled fraction lies between them")
    width, height = parse_size(size)
    recipe = Recipe(width=width, height=height, density=density, style=style, radius=radius, image=image,
                    density_range=(min_density, max_density), allow_uniform_lines=allow_uniform_lines,
                    unique=unique, max_grade=max_grade, backend=spec_with_options(backend, backend_options), repair=repair,
                    max_repairs=max_repairs, candidate_time_limit=candidate_time_limit, colours=colours)
    suffix_of(fmt)  # an unknown format fails before any work
    if colours > 1 and not holds_colour(fmt):
        raise InvalidArgument(f"--format {fmt} holds black-and-white puzzles only; --colours {colours} needs "
                              f"one of: {', '.join(colour_formats())}")
    if out_dir is None and is_binary(fmt):
        raise InvalidArgument(f"--format {fmt} writes binary files: give --out DIR")
    # Several puzzles on standard output are one set document (json, webpbn, taai: written at
    # the end), as convert and repair write a set; .non holds one puzzle a file (formats.md, Sets).
    as_set = out_dir is None and count > 1 and holds_several(fmt)
    if out_dir is None and count > 1 and not as_set:
        from nonolab.formats import names
        sets = [f for f in names() if holds_several(f)]
        raise InvalidArgument(f"--format {fmt} holds one puzzle a file, and --count {count} asks for {count}: "
                              f"give --out DIR (a file each), or a format holding several: {', '.join(sets)}")
    writer = SetWriter(out_dir, fmt, force=force, inputs=options.inputs()) if out_dir is not None else None
    printed = []

    def emit(generated):
        if writer is not None:
            writer.add(generated)
        elif as_set:
            printed.append(generated.puzzle)
        else:   # the one puzzle asked for
            click.echo(dumps(generated.puzzle, fmt), nl=False)

    with GeneratedPuzzles(count, force=bool(progress)) as bar:
        on_candidate = bar if progress is not False else None
        try:
            report = make_puzzles(count, recipe, seed, max_candidates, clock.left(time_limit), on_puzzle=emit,
                                  on_candidate=on_candidate)
        except BaseException:
            if writer is not None:   # --force: the earlier set stays, the new one's staged files go
                writer.discard()
            raise
    if writer is not None:
        writer.finish()   # --force: the new set takes the earlier one's place, now that it is complete
    if as_set and printed:
        click.echo(dumps_all(printed, fmt), nl=False)
    where = f" in {out_dir} (index: {out_dir.rstrip('/')}/index.csv)" if writer is not None and writer.records else ""
    click.echo(report.summary() + where, err=True)
    if not report.complete:
        click.echo(f"nonolab: generate: found {len(report.puzzles)} of {counted(count, 'puzzle')}: "
                   f"{_stopped(report, recipe)}", err=True)
        sys.exit(EXIT_NO)


COMMANDS = (generate,)
