"""Questions asked of solvers: is it unique, how many solutions, which technique."""
