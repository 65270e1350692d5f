"""Questions asked of solvers: is it unique, how many solutions, which technique."""

from typing import Any

__all__ = ["dimacs"]


def __getattr__(name: str) -> Any:
    # The DIMACS export on first use: `check` never asks for it.
    if name == "dimacs":
        from nonolab.harness.models import dimacs
        return dimacs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
