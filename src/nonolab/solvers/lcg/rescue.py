"""lcg's late rescue: the searches that join the default one when it is slow, and the
proof files of several searches.

``rescue=N`` lets the default search run alone for N conflicts (every puzzle it finds
sooner is searched exactly as without the option); then the searches named by
``rescue_with`` join it in the same thread, in turns of conflicts
(:func:`~nonolab.solvers.lcg.interleave.rescue_schedule`), until one of them finds the
first solution or proves there is none; that one goes on alone.  Each rescue is the
default search with a few options changed (``RESCUES``): configurations that measured
well on the puzzles the default is unlucky on (``benchmarks/log/2026-11-27-tail-7.md``,
``2026-11-26-search-4.md``).

>>> rescues("stable+binaries")
({'modes': 1000, 'first_mode': 'stable'}, {'probe_binaries': True})
>>> first_turn(50_000), first_turn(3)
(3125, 1)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["RESCUES", "rescues", "first_turn", "ProofFiles"]

# Each rescue search: the options it changes from the solver's own.  The stable mode
# first (tail-7: the ten tail puzzles 1,205,286 -> 310,022 conflicts alone, but whole sets
# +107 % alone); root probing's implications as clauses (search-4: the ten -> 468,293);
# hints for the whole search (search-4: -> 355,679); no hints at all (slices-6).
_SEARCHES: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "stable": MappingProxyType({"modes": 1000, "first_mode": "stable"}),
    "binaries": MappingProxyType({"probe_binaries": True}),
    "hints": MappingProxyType({"hint_conflicts": 1_000_000_000}),
    "nohints": MappingProxyType({"hint_rounds": 0}),
})
# The names rescue_with accepts: one search, or two joined by "+" (three searches in all).
RESCUES = tuple(_SEARCHES) + ("stable+binaries", "stable+hints", "binaries+hints")


def rescues(name: str) -> tuple[dict[str, Any], ...]:
    """The option changes of each rescue search ``name`` (one of ``RESCUES``) says."""
    return tuple(dict(_SEARCHES[part]) for part in name.split("+"))


def first_turn(solo: int) -> int:
    """The first turn of each search once the rescue has joined: a sixteenth of the
    default's solo run, so a puzzle the default finds soon after pays little for the
    rescue (the turns then double)."""
    return max(1, solo // 16)


class ProofFiles:
    """Each search writes its own DRAT proof (a proof is one engine's): the first one to
    ``path``, each later one to a temporary file beside it; at the end the winner's proof
    is moved to ``path`` and the others deleted, so ``path`` holds one search's complete
    proof and no temporary file is left behind.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> files = ProofFiles(os.path.join(folder, "p.drat"))
    >>> [os.path.basename(files.path(0))]
    ['p.drat']
    >>> files.close(0); os.listdir(folder)
    []
    """

    def __init__(self, path: str):
        self._path = path
        self._others: dict[int, str] = {}

    def path(self, search: int) -> str:
        """Where ``search`` writes its proof (search 0: the proof's own path)."""
        if search == 0:
            return self._path
        folder, name = os.path.split(os.path.abspath(self._path))
        handle, temporary = tempfile.mkstemp(prefix=f".{name}.search{search}-", dir=folder)
        os.close(handle)
        self._others[search] = temporary
        return temporary

    def close(self, winner: int | None) -> None:
        """Keep ``winner``'s proof at the proof's path (search 0's when there is none)."""
        for search, temporary in self._others.items():
            if search == winner:
                os.replace(temporary, self._path)
            else:
                try:
                    os.remove(temporary)
                except FileNotFoundError:
                    pass
        self._others.clear()
