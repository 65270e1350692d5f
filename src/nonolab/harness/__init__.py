"""Questions asked of solvers: is it unique, how many solutions, which technique."""

from nonolab.harness.models import dimacs

__all__ = ["dimacs"]
