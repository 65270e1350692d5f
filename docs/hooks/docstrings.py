"""A griffe extension for the API reference: nonolab's docstrings as Markdown.

The docstrings are Google style with ``>>>`` examples anywhere (doctest runs them) and
Sphinx roles (``:class:`~nonolab.core.Puzzle```).  Markdown would read ``>>>`` as nested
quotes and ``s[1][1]`` as a link, so each run of example lines becomes a ``pycon`` code
block, and a role becomes the code it names.

>>> markdown_of("Sum.\\n\\n>>> 1 + 1\\n2\\n\\nSee :func:`~nonolab.check`.").splitlines()
['Sum.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'See `check`.']
"""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`~?([\w.]+?)`")


def _role(match: re.Match) -> str:
    return f"`{match.group(1).rsplit('.', 1)[-1]}`"


def markdown_of(text: str) -> str:
    """``text`` with its doctest runs fenced and its Sphinx roles made code."""
    out: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        stripped = line.lstrip()
        if fence is None and stripped.startswith(">>>"):
            fence = line[: len(line) - len(stripped)]
            out.append(f"{fence}```pycon")
        elif fence is not None and not stripped:
            out.append(f"{fence}```")
            fence = None
        out.append(line if fence is not None else _ROLE.sub(_role, line))
    if fence is not None:
        out.append(f"{fence}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Rewrites every docstring with :func:`markdown_of` as griffe loads it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)
