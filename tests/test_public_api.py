"""The public face (issue 28, item 6): the questions at the top level, short reprs, one Cell type."""

from __future__ import annotations

from pathlib import Path

import nonolab

ROOT = Path(__file__).resolve().parents[1]
NONUNIQUE = ROOT / "puzzles" / "hakank" / "nonunique.non"     # 43 solutions


def test_the_questions_are_at_the_top_level():
    for name in ("solve", "check", "count", "grade", "explain", "report", "repair", "generate", "Cell"):
        assert name in nonolab.__all__ and getattr(nonolab, name) is not None
    found = nonolab.generate(6, 6, unique=True, seed=2)
    assert found.complete and nonolab.count(found.puzzles[0].puzzle).count == 1
    from nonolab.generate import make_puzzles                    # still the package
    assert callable(make_puzzles)
    assert "bench" in nonolab.__all__ and callable(nonolab.bench) and nonolab.bench.run is not None
    ran = nonolab.bench([str(ROOT / "puzzles" / "nonolab" / "heart.non")], ["native"], isolate="worker")
    assert [(s["solver"], s["solved"]) for s in ran.figures["solvers"]] == [("native", 1)]


def test_printing_a_count_does_not_dump_its_solutions():
    puzzle = nonolab.load(NONUNIQUE)
    counted = nonolab.count(puzzle)
    assert str(counted) == "43"
    assert len(repr(counted)) < 100 and "Solution(" not in repr(counted)
    for answer in (nonolab.check(puzzle), nonolab.solve(puzzle), puzzle, nonolab.repair(puzzle),
                   nonolab.ambiguity_report(puzzle), nonolab.grade(puzzle)):
        assert len(repr(answer)) < 200, repr(answer)


def test_cells_are_0_based_and_print_1_based():
    answer = nonolab.check(nonolab.load(ROOT / "puzzles" / "nonolab" / "switch.non"))
    first = answer.differing[0]
    assert isinstance(first, nonolab.Cell) and first == (0, 0) and str(first) == "(1,1)"
    assert nonolab.Cell.from_people(2, 3) == (1, 2)


def test_check_many_defaults_to_the_backend_every_entry_point_defaults_to(monkeypatch):
    """Issue 30: check_many defaulted to native while solve, check and count (and the CLI) take
    ``nonolab.solvers.DEFAULT`` (auto, which declares batching too): one default, one place."""
    import nonolab.api as api
    from nonolab.solvers import DEFAULT

    built: list[str] = []
    real = api._build

    def spy(spec, **options):
        built.append(spec)
        return real(spec, **options)

    monkeypatch.setattr(api, "_build", spy)
    one = nonolab.Puzzle(rows=((1,),), columns=((1,),))
    answers = list(api.check_many([one, one]))
    api.check(one)
    api.count(one)
    api.solve(one)
    assert built == [DEFAULT] * 4
    assert [a.verdict.value for a in answers] == ["unique", "unique"]
    assert {a.result.stats.backend for a in answers} == {DEFAULT}


import pytest  # noqa: E402


@pytest.mark.parametrize("name", ["solve", "check", "count", "grade", "explain", "report", "repair",
                                  "ambiguity_report", "crosscheck"])
def test_a_path_for_a_puzzle_is_a_type_error_that_says_load_it(name):
    # Audit 7: nonolab.check("cat.non") failed deep inside with
    # AttributeError: 'str' object has no attribute 'is_colour' (or 'goal', or 'width').
    with pytest.raises(TypeError) as info:
        getattr(nonolab, name)(str(NONUNIQUE))
    assert str(info.value) == f"{name}: expected a Puzzle, not str (a path: load it first, nonolab.load(path))"
    with pytest.raises(TypeError, match=f"^{name}: expected a Puzzle, not NoneType$"):
        getattr(nonolab, name)(None)


@pytest.mark.parametrize("limits, words", [({"time_limit": 0}, "time_limit must be positive"),
                                           ({"time_limit": float("nan")}, "time_limit must be positive"),
                                           ({"time_limit": -1}, "time_limit must be positive"),
                                           ({"max_solutions": 0}, "max_solutions must be a whole number of at least 1")])
def test_bad_limits_are_the_library_s_typed_error(limits, words):
    # Audit 7: a plain ValueError (not a NonolabError), and a time limit of nan was taken.
    with pytest.raises(nonolab.NonolabError, match=words):
        nonolab.Limits(**limits)
    with pytest.raises(nonolab.NonolabError, match=words):
        nonolab.solve(nonolab.load(NONUNIQUE), **limits)


@pytest.mark.parametrize("call, words", [
    (lambda p: nonolab.solve(p, "native", max_solutions=1.5), "Limits: max_solutions must be a whole number"),
    (lambda p: nonolab.solve(p, "lcg", max_solutions=2.5), "Limits: max_solutions must be a whole number"),
    (lambda p: nonolab.count(p, limit=1.5), "count: limit must be a whole number of at least 1, not 1.5"),
    (lambda p: nonolab.repair(p, max_flips=2.5), "repair: max_flips must be a whole number"),
    (lambda p: nonolab.report(p, max_flips=0), "report: max_flips must be a whole number of at least 1, not 0"),
    (lambda p: nonolab.census(2.5, 3), "census: width must be a whole number")])
def test_a_count_that_is_not_a_whole_number_is_refused_before_any_work(call, words):
    # Audit 13: max_solutions=1.5 found two solutions with lcg, cnf, cpsat, dlx, backtrack
    # and auto, and was "slice indices must be integers" from inside native; count(limit=1.5)
    # said "at least 2"; repair(max_flips=2.5) a bare TypeError; report(max_flips=0) was
    # refused only once the check and the ambiguity report had run.
    with pytest.raises(nonolab.NonolabError, match=words):
        call(nonolab.load(NONUNIQUE))


@pytest.mark.parametrize("call, words", [
    (lambda p: nonolab.solve(p, max_solutions="2"), "Limits: max_solutions must be a whole number, not str"),
    (lambda p: nonolab.count(p, limit="5"), "count: limit must be a whole number, not str"),
    (lambda p: nonolab.repair(p, max_flips="2"), "repair: max_flips must be a whole number, not str"),
    (lambda p: nonolab.census("5", 5), "census: width must be a whole number, not str")])
def test_a_count_of_the_wrong_type_says_which_argument(call, words):
    # Audit 13: "'<' not supported between instances of 'str' and 'int'", naming nothing.
    with pytest.raises(TypeError, match=f"^{words}$"):
        call(nonolab.load(NONUNIQUE))


@pytest.mark.parametrize("call, words", [
    (lambda tmp: nonolab.dumps("cat.non", "non"), "dumps: expected a Puzzle, not str"),
    (lambda tmp: nonolab.dump(None, tmp / "x.non"), "dump: expected a Puzzle, not NoneType"),
    (lambda tmp: nonolab.formats.dumps_all([None], "json"), "dumps_all: expected a Puzzle, not NoneType"),
    (lambda tmp: nonolab.formats.dump_all(nonolab.load(NONUNIQUE), tmp / "x.json"),
     "dumps_all: puzzles is a list, not one Puzzle")])
def test_writing_what_is_not_a_puzzle_is_a_type_error_that_says_so(call, words, tmp_path):
    # Audit 13: "AttributeError: 'str' object has no attribute 'givens'" from inside the writer
    # (a Puzzle for the list of puzzles: "'Puzzle' object is not iterable").
    with pytest.raises(TypeError, match=f"^{words}"):
        call(tmp_path)
    assert list(tmp_path.iterdir()) == []


_TIMED = ["solve", "check", "count", "grade", "explain", "report", "repair", "ambiguity_report", "crosscheck",
          "check_many"]


def _ask(name, **limits):
    puzzle = nonolab.load(NONUNIQUE)
    if name == "check_many":
        return list(nonolab.check_many([puzzle], **limits))
    return getattr(nonolab, name)(puzzle, **limits)


@pytest.mark.parametrize("name", _TIMED)
@pytest.mark.parametrize("value", [0, -1, float("nan")])
def test_a_time_limit_no_call_can_keep_is_the_same_typed_error_in_every_question(name, value):
    # Audit 10: solve, check, count refused time_limit=0 (InvalidArgument); grade, repair and
    # report answered "timeout" in silence; ambiguity_report raised a plain ValueError.
    with pytest.raises(nonolab.NonolabError, match="^[A-Za-z_]+: time_limit must be positive"):
        _ask(name, time_limit=value)


@pytest.mark.parametrize("name", _TIMED)
def test_a_time_limit_that_is_no_number_is_a_type_error_that_says_so(name):
    # Before: TypeError: '>' not supported between instances of 'str' and 'int' (or "unsupported
    # operand type(s) for +: 'float' and 'str'"), from deep inside.
    with pytest.raises(TypeError, match="time_limit must be a number of seconds \\(or None\\), not str"):
        _ask(name, time_limit="5")


@pytest.mark.parametrize("name", _TIMED)
@pytest.mark.parametrize("backend", [None, 3])
def test_a_backend_that_is_neither_a_spec_nor_a_solver_is_a_type_error_that_says_so(name, backend):
    # Audit 10: AttributeError: 'NoneType' object has no attribute 'strip' (or 'solve', 'name').
    key = "backends" if name == "crosscheck" else "backend"
    value = [backend] if name == "crosscheck" else backend
    with pytest.raises(TypeError, match=f"not {type(backend).__name__}$"):
        _ask(name, **{key: value})


def test_grade_up_to_takes_a_level_by_its_name_and_refuses_another_in_one_line():
    # Audit 10: grade(p, up_to="line") was AttributeError: 'str' object has no attribute 'rank'.
    puzzle = nonolab.load(NONUNIQUE)
    by_name = nonolab.grade(puzzle, "native", up_to="line")
    assert by_name.harder_than == nonolab.grade(puzzle, "native", up_to=nonolab.Grade.LINE).harder_than
    with pytest.raises(nonolab.NonolabError, match="^grade: up_to must be one of line, contradiction-probe, "
                                                   "full-probe, depth-2, search, not 'hard'$"):
        nonolab.grade(puzzle, up_to="hard")


@pytest.mark.parametrize("call, name", [
    (lambda p, x: nonolab.violations(p, x), "violations"),
    (lambda p, x: nonolab.repair(p, picture=x), "repair"),
    (lambda p, x: nonolab.ambiguity_report(p, reference=x), "ambiguity_report"),
], ids=["violations", "repair", "ambiguity_report"])
def test_a_picture_that_is_not_a_solution_object_is_a_type_error_naming_the_call(call, name):
    # Audit 10: AttributeError: 'str' object has no attribute 'height'.
    puzzle = nonolab.load(NONUNIQUE)
    for wrong in (None, ["#.", ".."], "#."):
        if wrong is None and name != "violations":
            continue   # None is each one's own default: the goal or the first solution
        with pytest.raises(TypeError, match=f"^{name}: expected a Solution, not {type(wrong).__name__} "):
            call(puzzle, wrong)


def test_a_picture_a_solution_cannot_be_is_the_library_s_typed_error():
    # Solution's own checks were plain ValueErrors, not NonolabErrors (still ValueErrors, as before).
    for rows in ([], ["#", "##"]):
        with pytest.raises(nonolab.NonolabError, match="^Solution: "):
            nonolab.Solution.from_rows(rows)
    with pytest.raises(ValueError):
        nonolab.Solution.from_values([[]])


def test_the_contract_names_its_vocabulary_where_backends_look():
    # solvers/base.py was split by job (tidy 10): the vocabulary has homes of its own, and
    # base and the registry still name the very same objects, so no caller changed.
    import nonolab.solvers as registry
    from nonolab.solvers import base, budget, capability, given, result

    homes = {result: ("Status", "Limits", "Stats", "SolveResult"), given: ("Given", "Cell", "Implication"),
             budget: ("Budget", "left", "available_cores"), capability: ("Capability", "capabilities")}
    for home, names in homes.items():
        for name in names:
            assert getattr(base, name) is getattr(home, name), name
            if callable(getattr(home, name)) and name not in ("Cell", "Implication"):   # (those two: type aliases)
                assert getattr(home, name).__module__ == home.__name__, name   # defined there, not re-exported
    assert registry.Budget is budget.Budget and nonolab.Limits is result.Limits
    assert set(base.__all__) >= {name for names in homes.values() for name in names}


def _bench(value):
    from nonolab.bench import run
    return run(value)


def _collect(value):
    from nonolab.batch import collect
    return collect(value)


def _check_many(value):
    return list(nonolab.check_many(value))


@pytest.mark.parametrize("call, name, what", [
    (_bench, "bench", "paths"), (_collect, "collect", "paths"), (_check_many, "check_many", "puzzles"),
    (lambda v: nonolab.crosscheck(nonolab.load(NONUNIQUE), v), "crosscheck", "backends"),
], ids=["bench", "collect", "check_many", "crosscheck"])
def test_one_string_where_a_list_is_wanted_is_a_type_error_not_its_characters(call, name, what):
    # Before: nonolab.bench("cat.non") took the string's characters for paths and walked
    # "/" (the whole file system), until a PNG there overflowed; collect("puzzles") said
    # "p: no such file or directory"; crosscheck(p, "native") "unknown backend 'n'";
    # check_many("cat.non") AttributeError: 'str' object has no attribute 'is_colour'.
    with pytest.raises(TypeError, match=f"^{name}: {what} is a list, not one str: "):
        call(str(NONUNIQUE))


def test_check_many_says_which_item_is_not_a_puzzle():
    puzzle = nonolab.load(NONUNIQUE)
    with pytest.raises(TypeError, match=r"^check_many: expected a Puzzle, not str \(a path: load it first"):
        list(nonolab.check_many([puzzle, str(NONUNIQUE)]))
    with pytest.raises(TypeError, match=r"^check_many: puzzles is a list, not one Puzzle: \[puzzle\]"):
        list(nonolab.check_many(puzzle))


def test_a_notebook_s_completion_offers_the_public_names_only():
    nonolab.check                                                 # a lookup loads its module into the namespace
    offered = dir(nonolab)
    assert offered == sorted(nonolab.__all__)
    for own in ("Any", "TYPE_CHECKING", "annotations", "importlib"):
        assert own not in offered
