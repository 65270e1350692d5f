// Depth-1 probing (see engine.hpp): try each value of each unknown cell, propagate, and
// learn from the outcome.
//
//  * contradiction: if one value of a cell leads to a contradiction, the cell takes the
//    other value;
//  * full (Wu et al. 2013, "fully probing"): as above, and when both values are
//    consistent, every cell the two trials set alike is fixed too.
//
// Both repeat until a whole sweep over the unknown cells learns nothing.  The number of
// cells each value decides is the cell's score, which the search branches by.  A probe
// that learnt nothing is not run again while none of the lines its trials solved has
// changed (ProbeMemo): it would learn nothing again, with the same gains.  Each trial
// propagates on a scratch copy of the grid and is undone from the list of cells it
// touched, so a probe costs what it changes, not the size of the grid.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine.hpp"

namespace native {

void Probes::size_for(size_t cells) {
    if (scratch0.size() == cells) return;
    scratch0.assign(cells, 0);
    scratch1.assign(cells, 0);
    score0.assign_zeros(cells);
    score1.assign_zeros(cells);
    mark.assign_zeros(cells);
    stamp = 0;
}

namespace {

// The probe memo's records, at most (ints; 16 MB): when full, it starts afresh.
constexpr size_t MEMO_POOL = size_t(1) << 22;

}  // namespace

void ProbeMemo::size_for(size_t cells, int n_lines) {
    if (at.size() == cells && changed.size() == static_cast<size_t>(n_lines)) return;
    changed.assign(n_lines, 0);
    seen.assign(n_lines, 0);
    at.assign_zeros(cells);
    when.assign_zeros(cells);
    pool.clear();
    tick = 0;
    stamp = 0;
}

void ProbeMemo::begin() {
    lines.clear();
    if (++stamp == 0) {  // wrapped: old stamps could look current
        std::fill(seen.begin(), seen.end(), 0);
        stamp = 1;
    }
    collecting = true;
}

void ProbeMemo::store(int p) {
    if (pool.size() + lines.size() + 1 > MEMO_POOL) {  // full (of records mostly superseded): afresh
        pool.clear();
        at.assign_zeros(at.size());
        if (lines.size() + 1 > MEMO_POOL) return;
    }
    at[p] = static_cast<uint32_t>(pool.size() + 1);
    when[p] = tick;
    pool.push_back(static_cast<int>(lines.size()));
    pool.insert(pool.end(), lines.begin(), lines.end());
}

bool ProbeMemo::still(int p) const {
    const uint32_t a = at.get(p);
    if (a == 0) return false;
    const long long made = when.get(p);
    const int* rec = pool.data() + (a - 1);
    for (int i = 1; i <= rec[0]; ++i)
        if (changed[rec[i]] > made) return false;
    return true;
}

// Set cell p of the scratch grid and propagate (quietly: a trial is undone), recording
// what it touches.
int Engine::trial(std::vector<uint8_t>& scratch, int p, uint8_t value, std::vector<int>& touched) {
    touched.clear();
    scratch[p] = value;
    mark_cell(p);
    ++stats[PROBES];
    return propagate(scratch, &touched, true, false, false, false);
}

// Put back in `scratch` the cells of `base` a trial of cell p touched.
void Engine::undo(const std::vector<uint8_t>& base, std::vector<uint8_t>& scratch, const std::vector<int>& touched,
                  int p) {
    for (int x : touched) scratch[x] = base[x];
    scratch[p] = base[p];
}

// The cells both trials set, to the same value, into pr.agree (as cell * 4 + value).
int Engine::agreement(Probes& pr) const {
    pr.agree.clear();
    if (++pr.stamp == 0) {  // wrapped: old marks could look current
        pr.mark.assign_zeros(pr.mark.size());
        pr.stamp = 1;
    }
    for (int x : pr.touched0) pr.mark[x] = pr.stamp;
    for (int x : pr.touched1)
        if (pr.mark.get(x) == pr.stamp && pr.scratch0[x] == pr.scratch1[x]) pr.agree.push_back(x * 4 + pr.scratch0[x]);
    return static_cast<int>(pr.agree.size());
}

// What probing cell p proved, as one step: the other value of a refuted one, or the
// cells both trials agree on (each marked for propagation).
void Engine::learn(std::vector<uint8_t>& grid, std::vector<int>& rec, int p, bool ok0, bool ok1, const Probes& pr,
                   bool log, bool deep) {
    const long long step = new_step(log);
    if (!ok0 || !ok1) {
        record(grid, &rec, p, ok0 ? 1 : 2, log, step, deep ? DEPTH2_PROBE : CONTRADICTION_PROBE, p);
        mark_cell(p);
        return;
    }
    for (int a : pr.agree) {
        record(grid, &rec, a / 4, static_cast<uint8_t>(a % 4), log, step, deep ? DEPTH2_PROBE : BOTH_BRANCHES_AGREE, p);
        mark_cell(a / 4);
    }
}

// Probe `grid` (at the line fixpoint) in place until a sweep learns nothing, at most
// max_sweeps sweeps: mode 1 contradiction, 2 full.  Returns 1, 0 when some cell has no
// consistent value, or 2 when an outer probing ran out of time (the sweep goes on from
// pr.next at the next call).  Cells it fixes go onto `rec`.
int Engine::probe(std::vector<uint8_t>& grid, std::vector<int>& rec, Probes& pr, int mode, long long max_sweeps,
                  bool outer) {
    const size_t size = grid.size();
    const bool log = outer && settings_.record_steps;
    const bool memo = outer && settings_.skip_probes;
    pr.size_for(size);
    if (memo) memo_.size_for(size, h_ + w_);
    // A paused probing's scratch grids still equal the grid (each trial was undone, each
    // cell learnt copied in): copied afresh only when a probing begins, not at every
    // slice's resumption (two copies of a 100 M-cell grid every 20 ms left the search
    // below the root of a huge grid no time to move).
    if (!pr.running) {
        pr.scratch0 = grid;
        pr.scratch1 = grid;
        pr.next = 0;
        pr.learnt = false;
        pr.sweeps = 1;
        pr.running = true;
    }
    long long probed = 0;
    while (true) {
        const long long p64 = pr.next;
        if (p64 >= static_cast<long long>(size)) {  // the end of a sweep: another only if it learnt
            if (!pr.learnt || pr.sweeps >= max_sweeps) {
                pr.running = false;
                return 1;
            }
            pr.next = 0;
            pr.learnt = false;
            ++pr.sweeps;
            continue;
        }
        const int p = static_cast<int>(p64);
        if (grid[p] != 3) {  // up to the next open cell (memchr: a huge grid's cells are nearly all decided)
            const void* open = std::memchr(grid.data() + p, 3, size - p);
            const size_t q = open ? static_cast<const uint8_t*>(open) - grid.data() : size;
            pr.score0.clear(p, q);  // a decided cell has no score (the branching skips it)
            pr.score1.clear(p, q);
            pr.next = static_cast<long long>(q);
            continue;
        }
        if (memo && memo_.still(p)) {  // it would learn nothing, its gains unchanged
            pr.next = p + 1;
            ++stats[PROBES_SKIPPED];
            continue;
        }
        if (outer && probed > 0 && clock_says_stop()) return 2;
        pr.next = p + 1;
        ++probed;
        if (memo) memo_.begin();
        const int ok0 = trial(pr.scratch0, p, 1, pr.touched0);
        const int ok1 = trial(pr.scratch1, p, 2, pr.touched1);
        memo_.collecting = false;
        if (!ok0 && !ok1) {
            undo(grid, pr.scratch0, pr.touched0, p);
            undo(grid, pr.scratch1, pr.touched1, p);
            pr.running = false;
            return 0;
        }
        int agreed = 0;
        if (ok0 && ok1) {
            pr.score0[p] = static_cast<int>(pr.touched0.size()) + 1;
            pr.score1[p] = static_cast<int>(pr.touched1.size()) + 1;
            if (mode == FULL_PROBING) agreed = agreement(pr);
        }
        undo(grid, pr.scratch0, pr.touched0, p);
        undo(grid, pr.scratch1, pr.touched1, p);
        if (ok0 && ok1 && agreed == 0) {
            if (memo) memo_.store(p);
            continue;
        }
        if (memo && memo_.at.get(p) != 0) memo_.at[p] = 0;  // (its lines change too: for clarity)
        const size_t start = rec.size();
        learn(grid, rec, p, ok0, ok1, pr, log, false);
        if (propagate(grid, &rec, true, false, false, log) == 0) {
            pr.running = false;
            return 0;
        }
        for (size_t i = start; i < rec.size(); ++i) {
            const int x = rec[i];
            pr.scratch0[x] = pr.scratch1[x] = grid[x];
        }
        pr.learnt = true;
    }
}

// The unknown cell to branch on, and the value to try first: with probing, by the
// branching rule of the settings (see Branching) over each cell's two gains (the cells
// its probe's trials decided); without, the first unknown cell, filled first.
int Engine::choose_branch(bool use_scores, uint8_t& value) const {
    int best = -1;
    double best_score = -1.0;
    value = 2;
    const bool lalafrog = settings_.branching == LALAFROG_BRANCHING;
    const int size = static_cast<int>(cells_.size());
    for (int p = 0; p < size; ++p) {
        if (cells_[p] != 3) {  // to the next open cell at once
            const void* open = std::memchr(cells_.data() + p, 3, size - p);
            if (!open) break;
            p = static_cast<int>(static_cast<const uint8_t*>(open) - cells_.data());
        }
        if (!use_scores) return p;
        const int a = probes_.score0[p], b = probes_.score1[p];
        const int low = std::min(a, b), high = std::max(a, b);
        // LalaFrogKK (CGI-Lab's tournament solver) weighs the smaller gain fully and the
        // imbalance by a log; Wu et al.'s paper, the imbalance by a square root.  (LalaFrogKK
        // tries the empty value first: measured, it lost to the larger gain first.)
        const double score = lalafrog ? low + 1.85 * std::log1p(static_cast<double>(high - low))
                                      : std::sqrt(high / (low + 1.0)) + low;
        if (score > best_score) {
            best_score = score;
            best = p;
            value = b >= a ? 2 : 1;
        }
    }
    return best;
}

std::vector<std::array<int, 4>> Engine::implications(size_t max_pairs) {
    std::vector<std::array<int, 4>> pairs;
    probes_.size_for(cells_.size());
    std::vector<uint8_t>& scratch = probes_.scratch0;
    std::vector<int>& touched = probes_.touched0;
    scratch = cells_;
    const int size = static_cast<int>(cells_.size());
    for (int p = 0; p < size; ++p) {
        if (cells_[p] != 3) continue;
        for (uint8_t value = 1; value <= 2; ++value) {
            if (!trial(scratch, p, value, touched)) {
                if (pairs.size() < max_pairs) pairs.push_back({p, value, p, 3 - value});
            } else {
                for (int q : touched) {
                    if (pairs.size() >= max_pairs) break;
                    pairs.push_back({p, value, q, scratch[q]});
                }
            }
            undo(cells_, scratch, touched, p);
            if (pairs.size() >= max_pairs) return pairs;
        }
    }
    return pairs;
}

}  // namespace native
