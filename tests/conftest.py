import os
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


@pytest.fixture(autouse=True, scope="session")
def _reports_go_to_a_tmp_folder(tmp_path_factory):
    """Where ``crosscheck`` saves a disagreement's bug report when a test does not say:
    a tmp folder, not the current one (the CLI's default, for its users)."""
    folder = tmp_path_factory.mktemp("disagreements")
    before = os.environ.get("NONOLAB_REPORT_DIR")
    os.environ["NONOLAB_REPORT_DIR"] = str(folder)   # subprocesses of the CLI inherit it too
    yield folder
    if before is None:
        os.environ.pop("NONOLAB_REPORT_DIR", None)
    else:
        os.environ["NONOLAB_REPORT_DIR"] = before


@pytest.fixture(autouse=True)
def _no_file_left_in_the_working_folder():
    """Fail a test that leaves a new file in the folder the tests run from (a bug report,
    an output with a default name): a test writes under ``tmp_path``.  Hidden entries
    (``.hypothesis``, ``.pytest_cache``) are the tools', ``test-artifacts`` the browser
    tests' screenshots, kept on purpose (tests/web/test_browser.py, git-ignored)."""
    here = os.getcwd()
    before = set(os.listdir(here))
    yield
    left = sorted(name for name in set(os.listdir(here)) - before
                  if not name.startswith(".") and name != "test-artifacts")
    if left:
        pytest.fail(f"the test left {left} in {here}; write under tmp_path")


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
