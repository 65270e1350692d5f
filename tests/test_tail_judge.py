"""benchmarks/tail_judge.py: the tail judge's arithmetic on tiny synthetic runs, its cache and its
spot check; its tournament part (real scans and guards, checked against the cached scans) only
where ``../shared`` is beside the repository.  Every measure is conflicts: nothing is timed."""

from __future__ import annotations

import pytest

from benchmarks import tail_judge as tj
from benchmarks.tail import main


def _rows(*conflicts, cap=None):
    return [{"set": "s", "puzzle": str(i), "conflicts": c, "solved": int(cap is None or c < cap), "cpu": 0.0,
             "load": 1.0} for i, c in enumerate(conflicts)]


def test_a_population_is_summed_and_counted_over_each_threshold_and_at_the_cap():
    found = tj.summarise(_rows(10, 30_000, 30_001, 60_001, 100_001, 300_000, cap=300_000))
    assert found == {"puzzles": 6, "total conflicts": 520_013, "> 30k": 4, "> 60k": 3, "> 100k": 2, "at the cap": 1}


def test_specs_have_one_spelling_and_a_seed_is_added_or_refused():
    assert tj.canonical("lcg:seed=0,lookahead=8") == "lcg:lookahead=8"
    assert tj.canonical("lcg:lookahead=8,hint_after=3", 2) == "lcg:hint_after=3,lookahead=8,seed=2"
    with pytest.raises(ValueError, match="sets its own seed"):
        tj.canonical("lcg:seed=5", 1)
    assert tj.slug("lcg:lookahead=16,lookahead_levels=3,seed=1") == "lcg_lookahead16_lookahead_levels3_seed1"


def test_the_verdict_puts_the_candidate_beside_the_default_s_range_over_seeds():
    pop = [tj.summarise(_rows(*c)) for c in ((100, 70_000), (200, 40_000), (50, 90_000))]
    defaults = [tj.Side(f"lcg:seed={i}", pop[i], {"15-Dom/1": (g, False), "Lion/1": (500, False)})
                for i, g in enumerate((47_630, 128_009, 117_322))]
    candidate = tj.Side("lcg:x=1", tj.summarise(_rows(10, 20)), {"15-Dom/1": (300_000, True), "Lion/1": (900, False)})
    lines = tj.verdict(defaults, [candidate])
    table = {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1:] for line in lines[2:]}
    assert lines[0].startswith("| measure | `lcg:seed=0` | `lcg:seed=1` | `lcg:seed=2` | default min-max | `lcg:x=1`")
    assert table["total conflicts"] == ["70,100", "40,200", "90,050", "40,200-90,050", "30 (below) |"]
    assert table["> 30k"] == ["1", "1", "1", "1-1", "0 (below) |"]
    # A run stopped at the cap shows '+': a lower bound; above the default's worst seed.
    assert table["15-Dom/1"] == ["47,630", "128,009", "117,322", "47,630-128,009", "300,000+ (above) |"]
    assert "Lion/1" not in table          # under 1,000 conflicts everywhere: says nothing of the tail
    assert table["guards, sum of all 2"][-1] == "300,900+ (above) |"


def test_a_spot_check_trusts_a_cache_only_when_its_rows_come_again():
    rows = _rows(*range(0, 10_000, 10))           # 1,000 rows, 500 under 5,000 conflicts
    asked = []

    def same(sample):
        asked.extend(sample)
        return sample

    assert tj.spot_check(rows, lambda r: r["puzzle"], same, "f") == tj.SPOT_ROWS == len(asked)
    assert all(r["conflicts"] < tj.SPOT_BELOW for r in asked)

    def changed(sample):
        return [dict(r, conflicts=r["conflicts"] + (r is sample[3])) for r in sample]

    with pytest.raises(tj.StaleCache, match="f: 1 of 150 rows run again differ"):
        tj.spot_check(rows, lambda r: r["puzzle"], changed, "f")


def test_the_cache_scans_once_keeps_other_sets_and_reads_back(monkeypatch, tmp_path):
    sets = {"a": {"1": None, "2": None}, "b": {"1": None}}
    scanned = []

    def scan(spec, keys, cap=tj.CAP, say=None):
        scanned.append(list(keys))
        return [{"set": s, "puzzle": k, "conflicts": 7 * len(k + s), "solved": 1, "cpu": 0.1, "load": 1.0}
                for s, k in keys]

    monkeypatch.setattr(tj, "puzzles_of", lambda name: sets[name])
    monkeypatch.setattr(tj, "scan", scan)
    cache = tj.Cache(tmp_path, say=lambda text: None)
    assert len(cache.population("lcg:x=1", ["a"])) == 2
    assert len(cache.population("lcg:x=1", ["b"])) == 1
    again = cache.population("lcg:x=1", ["a", "b"])        # both sets now in the file: read, spot-checked
    assert [(r["set"], r["puzzle"]) for r in again] == [("a", "1"), ("a", "2"), ("b", "1")]
    assert scanned[:2] == [[("a", "1"), ("a", "2")], [("b", "1")]] and len(scanned) == 3   # the third: the spot check
    monkeypatch.setattr(tj, "scan", lambda spec, keys, cap=tj.CAP, say=None: [dict(r, conflicts=1) for r in scan(spec, keys)])
    with pytest.raises(tj.StaleCache):
        cache.population("lcg:x=1", ["a", "b"])


SHARED = pytest.mark.skipif(not (tj.TOURNAMENT.exists() and tj.SURVEY.exists()),
                            reason="../shared (the tournament sets, the survey) is not beside the repository")


@SHARED
def test_a_scan_through_solve_gives_the_cached_scans_conflicts():
    # The cached default scans were run on the engine directly (tail-13/scan.py); the judge
    # scans through lcg's solve with conflict_limit: the same search, the same conflicts.
    cached = tj.read_csv(tj.SCANS["lcg:seed=1"])[:25]
    again = tj.scan("lcg:seed=1", [(r["set"], r["puzzle"]) for r in cached])
    assert [int(r["conflicts"]) for r in again] == [int(r["conflicts"]) for r in cached]


@SHARED
def test_a_guard_over_the_cap_is_marked_as_a_lower_bound():
    lion, = tj.guards("lcg", ["Lion/1"], cap=100)          # 667 conflicts at seed 0
    assert (lion["conflicts"], lion["cap"], lion["solutions"]) == (100, 1, 0)
    lion, = tj.guards("lcg", ["Lion/1"])
    assert lion["cap"] == 0 and lion["solutions"] == 1 and 100 < lion["conflicts"] < 5_000


def test_the_command_refuses_a_bad_candidate_in_one_line(capsys, tmp_path):
    if not (tj.TOURNAMENT.exists() and tj.SURVEY.exists()):
        assert main(["judge", "lcg", "--out", str(tmp_path)]) == 2
        assert "needs" in capsys.readouterr().err
        return
    assert main(["judge", "lcg:seed=5", "--candidate-seeds", "1", "--part", "guards", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().endswith("or no --candidate-seeds")


@pytest.mark.parametrize("spec, says", [
    ("native", "judges lcg specs only, not 'native': its measure and its baseline are lcg's conflicts"),
    ("auto:race=false", "judges lcg specs only, not 'auto:race=false'"),
    ("cnf", "judges lcg specs only, not 'cnf'"),
    ("lcg:nosuch=1", "cannot build 'lcg:nosuch=1': backend 'lcg': unknown option 'nosuch'"),
    ("lcg:conflict_limit=5", "sets conflict_limit itself"),
])
def test_another_engine_s_spec_is_refused_in_one_line_before_anything_runs(spec, says, capsys, tmp_path, monkeypatch):
    # Conflicts are lcg's measure: a native spec ran the default lcg's guards for minutes, then
    # failed on native's missing conflict_limit, or not at all where ../shared was missing.
    ran = []
    monkeypatch.setattr(tj, "scan", lambda *a, **k: ran.append(a))
    monkeypatch.setattr(tj, "guards", lambda *a, **k: ran.append(a))
    assert main(["judge", spec, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tail judge: ") and says in err, err
    assert ran == [] and list(tmp_path.iterdir()) == []
