"""The workbench's report answers part by part (issue 28, item 4): the verdict is published
as soon as it is known, the grade last, so a slow grading blocks nothing."""

from __future__ import annotations

from nonolab.web import work
from nonolab.web.jobs import Job


def test_the_verdict_comes_first_and_the_grade_last():
    job = Job("analyse")
    seen = []
    job.publish = lambda partial: seen.append((list(partial["parts"]), partial["verdict"],   # type: ignore[method-assign]
                                               partial["grade"], sorted(partial["pictures"]),
                                               len(partial["repairs"])))
    final = work.analyse(work.sample(), job, 60)
    assert [parts[-1] for parts, *_ in seen] == ["check", "ambiguity", "repair", "grade"]
    first = seen[0]
    assert first[1] == "multiple" and first[2] is None and first[3] == ["diff"]   # the verdict and its picture
    assert seen[2][4] > 0 and seen[2][2] is None              # repairs shown before the grade
    assert final["grade"]["grade"] == "search" and final["parts"] == ["check", "ambiguity", "repair", "grade"]


def test_repairs_keep_the_locked_cells():
    entry = work.sample()
    free = work.analyse(entry, Job("analyse"), 60)
    flipped = {tuple(c[:2]) for r in free["repairs"] if r["kind"] == "flip" for c in r["cells"]}
    locked = work.Entry(entry.puzzle, locked=tuple(sorted(flipped)))
    kept = work.analyse(locked, Job("analyse"), 60)
    again = {tuple(c[:2]) for r in kept["repairs"] if r["kind"] == "flip" for c in r["cells"]}
    assert flipped and not (again & flipped)
