import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"

sys.path.insert(0, str(TESTS))  # the oracles in reference.py and the malformed-input table

from clocks import StillClock  # noqa: E402  (found through the path just set)
from search_puzzles import KNOTTY, write_dominoes  # noqa: E402


@pytest.fixture(autouse=True)
def _sys_path_is_left_as_found():
    """Fail a test that changes ``sys.path`` for good.

    Child processes started by ``spawn`` (Dask's workers, for one) inherit the parent's
    ``sys.path``: a source folder left at its front made them import a copy of nonolab
    without its compiled engines, many tests later.
    """
    before = list(sys.path)
    yield
    if sys.path != before:
        added = [p for p in sys.path if p not in before]
        sys.path[:] = before
        pytest.fail(f"the test changed sys.path for good (added {added}); use monkeypatch.syspath_prepend")


@pytest.fixture
def corpus() -> Path:
    if not (CORPUS / "index.csv").exists():
        pytest.skip("../shared/corpus is not beside the repository")
    return CORPUS


@pytest.fixture
def clock(monkeypatch) -> StillClock:
    """A :class:`StillClock` in place of ``time.perf_counter``."""
    import time

    made = StillClock()
    monkeypatch.setattr(time, "perf_counter", made)
    return made


@pytest.fixture(params=["dominoes", "knotty"])
def stalling(request, tmp_path):
    """A puzzle native's search alone does not finish: the dominoes everywhere, Knotty where
    ../shared is beside the repository (search_puzzles.py)."""
    if request.param == "knotty":
        if not KNOTTY.exists():
            pytest.skip("../shared/hard/knotty.non is not beside the repo")
        return KNOTTY
    return write_dominoes(tmp_path)
