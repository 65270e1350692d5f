"""The exhaustive census of small nonograms (every W x H picture's clues checked), and labels.

:mod:`~nonolab.exhaustive.pictures` enumerates the pictures in chunks and gives each
one's clues as an integer key; :mod:`~nonolab.exhaustive.count` counts a chunk two
ways (grouping keys; the native engine's batch entry) and grades it;
:mod:`~nonolab.exhaustive.run` runs the chunks here or on Dask, with checkpoints
(``nonolab.census`` and ``nonolab census``); :mod:`~nonolab.exhaustive.labels` labels a
set of puzzles through the same batch entry (``nonolab label``).
"""

from nonolab.exhaustive.run import CensusResult, census, parse_size

__all__ = ["CensusResult", "census", "parse_size"]
