"""A clock for tests of time limits (the ``clock`` fixture of conftest.py puts it in place)."""


class StillClock:
    """``time.perf_counter`` that moves only when :meth:`spend` is called: tests of a time
    limit spend the clock's time themselves, so they hold on any machine's speed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def spend(self, seconds: float) -> None:
        self.now += seconds
