"""What lcg:rescue=N costs a puzzle, from each search's conflicts alone (issue 25, branch tail8).

The turns only pause each engine (Engine.run's conflict budget), so a puzzle's conflicts
with the rescue are a function of the conflicts each search needs alone to its first
solution: the default's D and each rescue's R.  This replays rescue_schedule (the default
alone for N, then turns of N/16 each, doubling every round; ``ratio`` scales the rescues'
turns) and gives the sum over all searches.  It reproduced every measured figure of the
log to the conflict (the ten at N=20,000: 730,022; taai2011 711,277; icga2017 619,735).

>>> cost([68269, 4570], 20000)   # tcga2016 #492: the default 68,269, the stable rescue 4,570
(28320, 1)
"""


def turns(solo, rescues, ratio=1.0):
    yield 0, solo
    budget = max(1, solo // 16)
    while True:
        for search in range(1, rescues + 1):
            yield search, int(budget * ratio)
        yield 0, budget
        budget *= 2


def cost(alone, solo, ratio=1.0):
    """(conflicts of all searches, the winner) for searches needing ``alone`` conflicts each."""
    spent = [0] * len(alone)
    for search, budget in turns(solo, len(alone) - 1, ratio):
        need = alone[search] - spent[search]
        if need <= budget:
            return sum(spent) + need, search
        spent[search] += budget
