"""The native engine's choices, without the engine: line strategies and probing levels.

Kept apart from the engine so that the solver's options, the registry and the CLI can
name them without loading its extension.

>>> line_strategy("dp").complete, Probing("full").level
(True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from nonolab.errors import InvalidArgument

DP, CHAIN_RANGE, OVERLAP, ENUMERATE = 0, 1, 2, 3
N_STRATEGIES = 4
DEFAULT_ENUMERATE_CAP = 1 << 16


@dataclass(frozen=True)
class LineStrategy:
    """A line strategy as the native solver knows it.

    Attributes:
        name: what users type (``--line NAME``, ``-O line=NAME``).
        code: its number in the compiled dispatch.
        complete: fixes every forced cell and finds every contradiction of a line.
        labelled: its deductions carry human technique labels in the step log.
        summary: one line for ``--help`` and ``nonolab backends``.
    """

    name: str
    code: int
    complete: bool
    labelled: bool
    summary: str


STRATEGIES: dict[str, LineStrategy] = {s.name: s for s in (
    LineStrategy("dp", DP, True, False, "the complete dynamic programme (reference)"),
    LineStrategy("chain-range", CHAIN_RANGE, False, True,
                 "block ranges reduced by boxes and spaces, overlap, capping, exhaustion (chain rules)"),
    LineStrategy("overlap", OVERLAP, False, True,
                 "left-right overlap: the leftmost and rightmost arrangements, overlapped once"),
    LineStrategy("enumerate", ENUMERATE, False, False,
                 "every placement intersected; a line over the cap is left unchanged"),
)}


def line_strategy(name: str | LineStrategy) -> LineStrategy:
    """The strategy called ``name`` (a strategy is itself).

    Raises:
        InvalidArgument: no strategy has this name (the message lists the known ones).
    """
    if isinstance(name, LineStrategy):
        return name
    try:
        return STRATEGIES[name]
    except (KeyError, TypeError):
        raise InvalidArgument(f"unknown line strategy {name!r} (known: {', '.join(STRATEGIES)})") from None


#: The branching rules of the search (``-O branching=NAME``), by their code in the engine:
#: ``wu``, the cell maximising sqrt(max/(min+1)) + min of its two probing gains (Wu et al.
#: 2013; nonogrid's default); ``lalafrog``, LalaFrogKK's min + 1.85 ln(1 + |difference|)
#: (CGI-Lab's tournament solver); either tries the larger gain first.
BRANCHING = ("wu", "lalafrog")


class Probing(str, Enum):
    """How much probing runs between line propagation and search."""

    NONE = "none"
    CONTRADICTION = "contradiction"
    FULL = "full"
    DEPTH2 = "depth-2"

    @property
    def level(self) -> int:
        return {"none": 0, "contradiction": 1, "full": 2, "depth-2": 3}[self.value]
