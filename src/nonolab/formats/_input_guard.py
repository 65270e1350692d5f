"""No output onto an input: the files a command would write into an output folder, checked
against the files it reads (as :class:`nonolab.cli.options.OutputFile` checks an output file)."""

from __future__ import annotations

import os
import stat
from typing import Iterable

from nonolab.formats._files import STDIO

__all__ = ["refuse_replacing_inputs", "refuse_replacing_tree"]


def refuse_replacing_inputs(option: str, folder: str | os.PathLike, targets: Iterable[str | os.PathLike],
                            inputs: Iterable[str | os.PathLike], *, whole: bool = False,
                            argument: str | None = None) -> None:
    """Refuse, before anything is written, when a file a command would write, replace or
    remove in the output folder ``folder`` (given as ``option``) is one of the files the
    same command reads: ``targets`` are those files (with ``whole``: folders replaced whole,
    so an input anywhere inside one counts), compared with ``inputs`` as the same regular
    file by any name (a link, another spelling).  ``-`` (standard input) is no file.  As for
    an output file, no ``--force`` lifts it: it replaces earlier output, never the input.
    ``argument``: the library parameter ``option`` stands for (``{arg}`` in it), if any.

    >>> refuse_replacing_inputs("--out", "out", ["out/index.csv"], ["/no/such/puzzle.non"])

    Raises:
        InvalidArgument: one of ``targets`` is (or, with ``whole``, holds) one of ``inputs``.
    """
    from nonolab.errors import InvalidArgument

    written = [os.fspath(t) for t in targets]
    for given in inputs:
        read = os.fspath(given)
        try:
            if read == STDIO or not stat.S_ISREG(os.stat(read).st_mode):
                continue
        except OSError:   # not there: nothing to lose (reading it names it)
            continue
        holders = [read] + _folders_holding(read) if whole else [read]
        for target in written:
            if not any(_same(target, held) for held in holders):
                continue
            if whole:
                linked = "" if os.path.realpath(read) == os.path.abspath(read) else " (where it links to)"
                what = f"{target} is replaced whole, and the input file {read} is in it{linked}"
            elif os.path.abspath(target) == os.path.abspath(read):
                what = f"writing there would replace (or remove) the input file {read}"
            else:
                what = f"{target} would be replaced (or removed), and it is the input file {read} by another name"
            raise InvalidArgument(f"{option} {os.fspath(folder)}: {what}: write to another folder",
                                  argument=argument)


def refuse_replacing_tree(option: str, folder: str | os.PathLike, targets: Iterable[str | os.PathLike],
                          tree: str | os.PathLike, tree_option: str, *, argument: str | None = None) -> None:
    """Refuse, before anything is written, when a file a command would write, replace or
    remove in the output folder ``folder`` (given as ``option``) is a file of the folder
    ``tree`` the command runs or reads from (given as ``tree_option``: bench's ``--base``, a
    version of nonolab), or a symbolic link to one: a tree's files are too many to list as
    inputs, and any of them may be read.  A file written new there replaces nothing.

    >>> refuse_replacing_tree("--out", "out", ["out/summary.md"], "/no/such/tree", "--base")

    Raises:
        InvalidArgument: one of ``targets`` is a file of ``tree``.
    """
    from nonolab.errors import InvalidArgument

    roots = {os.path.abspath(tree), os.path.realpath(tree)}
    for target in (os.fspath(t) for t in targets):
        if not os.path.isfile(target):
            continue
        # Every name the write goes through: a link in the tree may lead out of it (a venv's
        # bin/python does), so the resolved path alone would miss a file reached through one.
        names = _link_chain(target)
        if not any(os.path.commonpath([name, root]) == root for name in names for root in roots):
            continue
        linked = "" if len(names) == 1 else " (where it links to)"
        raise InvalidArgument(f"{option} {os.fspath(folder)}: {target} would be replaced (or removed), and it is "
                              f"a file of the {tree_option} tree {os.fspath(tree)}{linked}: write to another folder",
                              argument=argument)


def _link_chain(path: str) -> list[str]:
    """``path`` absolute, then each path its symbolic links lead to, link by link (the links
    of its folders too), ending with where it resolves.

    >>> _link_chain("/no/such/file")
    ['/no/such/file']
    """
    chain = [os.path.abspath(path)]
    for _ in range(40):   # (a loop of links ends somewhere)
        here, parts = "/", chain[-1].split(os.sep)[1:]
        for n, part in enumerate(parts):
            step = os.path.join(here, part)
            if os.path.islink(step):
                chain.append(os.path.normpath(os.path.join(here, os.readlink(step), *parts[n + 1:])))
                break
            here = step
        else:
            break
    real = os.path.realpath(path)
    return chain if chain[-1] == real else [*chain, real]


def _folders_holding(path: str) -> list[str]:
    """The folders ``path`` lies in, as its links resolve: its own, then each parent to the root."""
    folders, here = [], os.path.dirname(os.path.realpath(path))
    while True:
        folders.append(here)
        up = os.path.dirname(here)
        if up == here:
            return folders
        here = up


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:   # not there (yet): written new, nothing replaced
        return False
