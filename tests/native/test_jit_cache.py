"""The compiled engine's on-disk cache follows every source file of the engine.

Numba checks a cached kernel against its own file only; a kernel compiled with an
older callee from another file must never be loaded.  The cache folder is named by
a digest of all engine sources, so editing any of them starts a new one.
"""

from __future__ import annotations

import doctest
import shutil

from nonolab.solvers.native import jit as jit_module
from nonolab.solvers.native.jit import ENGINE_DIR, cache_dir, engine_digest


def test_any_engine_file_changes_the_digest(tmp_path):
    for source in ENGINE_DIR.glob("*.py"):
        shutil.copy(source, tmp_path / source.name)
    before = engine_digest(tmp_path.glob("*.py"))
    assert before == engine_digest(ENGINE_DIR.glob("*.py"))
    for name in ("line.py", "probe.py", "search.py"):  # callees and callers alike
        target = tmp_path / name
        original = target.read_text()
        target.write_text(original + "\n# edited\n")
        assert engine_digest(tmp_path.glob("*.py")) != before, name
        target.write_text(original)
    assert engine_digest(tmp_path.glob("*.py")) == before


def test_kernels_are_cached_in_the_folder_of_this_engine_version():
    from nonolab.solvers.native.search import search_run

    cache = getattr(search_run, "_cache", None)
    if cache is None or not hasattr(cache, "_cache_path"):  # NUMBA_DISABLE_JIT: nothing is cached
        return
    folder = cache_dir().name
    assert folder.startswith("nonolab-engine-")
    assert folder in str(cache._cache_path)


def test_the_user_setting_is_left_as_it_was():
    from numba.core import config

    assert not str(config.CACHE_DIR or "").endswith(cache_dir().name)


def test_doctests():
    assert doctest.testmod(jit_module).failed == 0
