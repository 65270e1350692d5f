import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"

sys.path.insert(0, str(TESTS))  # the oracles in reference.py and the malformed-input table


@pytest.fixture
def corpus() -> Path:
    if not (CORPUS / "index.csv").exists():
        pytest.skip("../shared/corpus is not beside the repository")
    return CORPUS
