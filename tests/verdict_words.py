"""The verdict words and a walker that finds every ``verdict`` in a JSON document
(tests/cli/test_verdict_words.py, tests/web/test_verdict_words.py).

docs/trust.md: the verdicts are unique, multiple, contradiction and timeout (``interrupted``
when a cancel came first), or ``null`` where a command leaves uniqueness open or the puzzle
could not be checked.
"""

from __future__ import annotations

from typing import Any, Iterator

#: The verdict words (docs/trust.md), and null.
WORDS = {"unique", "multiple", "contradiction", "timeout", "interrupted", None}


def verdicts(data: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``verdict`` value in ``data`` (and every key a summary counts as a verdict), with its path.

    >>> dict(verdicts({"verdict": "agree", "answers": [{"verdict": None}], "summary": {"verdicts": {"x": 1}}}))
    {'.verdict': 'agree', '.answers[0].verdict': None, ".summary.verdicts['x']": 'x'}
    """
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "verdict":
                yield f"{where}.{key}", value
            if key == "verdicts" and isinstance(value, dict):
                yield from ((f"{where}.verdicts[{word!r}]", word) for word in value)
            yield from verdicts(value, f"{where}.{key}")
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from verdicts(value, f"{where}[{n}]")


def assert_words(data: Any) -> int:
    """Assert that every verdict in ``data`` is a word; how many verdicts it holds."""
    found = list(verdicts(data))
    wrong = {where: value for where, value in found if value not in WORDS}
    assert not wrong, wrong
    return len(found)
