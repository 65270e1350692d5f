// Line propagation to a fixpoint (see engine.hpp): sweep the dirty rows, then the dirty
// columns, repeat.  Round-based sweeps need about ten times fewer line solves than
// popping one line at a time (measured; docs/algorithms.md §2): a line is solved once per
// round however many of its cells changed in the previous one.
#include <algorithm>

#include "engine.hpp"

namespace native {

namespace {

// A trimmed line is cached under its clue and its open blocks (clue id, b1, b2): lines
// of 4096 blocks or more are never trimmed (their key is the clue's alone).
constexpr long long KEY_BLOCKS = 1 << 12;
constexpr int NO_SPAN = 1 << 30;  // span_lo_ of a line with no changed cell

}  // namespace

void Engine::mark_all() {
    std::fill(dirty_.begin(), dirty_.end(), 1);
    std::fill(span_lo_.begin(), span_lo_.end(), 0);
    std::fill(span_hi_.begin(), span_hi_.end(), NO_SPAN);
}

void Engine::clear_marks() {
    std::fill(dirty_.begin(), dirty_.end(), 0);
    std::fill(span_lo_.begin(), span_lo_.end(), NO_SPAN);
    std::fill(span_hi_.begin(), span_hi_.end(), -1);
}

// Columns solved in a round may have flagged rows: then the round's fixpoint is not reached.
bool Engine::rows_dirty() const {
    for (int i = 0; i < h_; ++i)
        if (dirty_[i]) return true;
    return false;
}

bool Engine::time_up() {
    // Reading the clock costs about as much as a short cached line: every 16th call.
    if ((++work_ & 15) != 0) return false;
    return clock_says_stop();
}

// Solve line `index` of `grid` and write back what it fixes (onto `rec`, marking the
// crossing lines; into the step log with `log`, all its cells one step).  Only the
// segment of the line that can change is read and solved.  The windows hold every valid
// start of every block in this state (they were narrowed from a state this one narrows),
// so where block b-1's latest end falls before block b's earliest start, the line is cut
// in two: the cells between are empty in every arrangement (decided by the solve that
// narrowed the windows) and the blocks on either side are arranged independently.  A
// part none of whose cells changed since the line's last solve is as that solve left it,
// at its own fixpoint: the part solved is the one between the cuts around the changed
// cells, from its first block's earliest start to its last block's latest end, less the
// blocks at its ends that are pinned to one start (decided).  Lines whose windows no DP
// solve has narrowed are open whole (a static window of a line without slack is one
// start too, but nothing has decided its cells yet).  The cuts around the changed cells
// are looked for only in a windows-narrowing propagation (the root's first), where
// nearly every visit is a DP solve; in probing and search most visits are cache hits,
// whose cost the search of the cuts (a pass over the blocks) would raise by more than
// the smaller segment saves (8-25 % on probing-heavy puzzles, measured): there the part
// read is the line less its pinned ends.
// Returns the number of changed cells, or -1 on a contradiction.
bool Engine::segment_of(int index, bool update, Segment& seg) {
    const Clues& cl = *clues_;
    const int n = index < h_ ? w_ : h_;
    const int c0 = cl.start[index];
    const int k = cl.start[index + 1] - c0;
    // The spans matter only to a windows-narrowing propagation (the root's first, which
    // starts from every line marked whole and comes before any other): only it keeps them.
    const int first = span_lo_[index], last = span_hi_[index];
    if (update) {
        span_lo_[index] = NO_SPAN;
        span_hi_[index] = -1;
    }
    int b1 = 0, b2 = k, lo = 0, hi = n;
    if (narrowed_[index] && k < KEY_BLOCKS) {
        const int* len = cl.data.data() + c0;
        const int* wl = win_lo_.data() + c0;
        const int* wh = win_hi_.data() + c0;
        if (update) {  // the cuts: only where the DP's work dominates (see above)
            for (int b = 1; b < k && wl[b] <= first; ++b)  // the last cut before the first changed cell
                if (wh[b - 1] + len[b - 1] < wl[b]) b1 = b;
            for (int b = b1 + 1; b < k; ++b) {  // the first cut after the last one
                if (wh[b - 1] + len[b - 1] > last && wh[b - 1] + len[b - 1] < wl[b]) {
                    b2 = b;
                    break;
                }
            }
        }
        while (b1 < b2 && wl[b1] == wh[b1]) ++b1;
        while (b2 > b1 && wl[b2 - 1] == wh[b2 - 1]) --b2;
        if (b1 == b2) return false;  // every block there pinned: decided
        lo = wl[b1];
        hi = wh[b2 - 1] + len[b2 - 1];
    }
    seg = {b1, b2, lo, hi};
    return true;
}

bool Engine::fix_segment(LineSolver& solver, int index, const Segment& seg, const uint8_t* line, uint8_t* out,
                         bool update) {
    const Clues& cl = *clues_;
    const int c0 = cl.start[index];
    const int k = cl.start[index + 1] - c0;
    int* wlo = win_lo_.data() + c0 + seg.b1;
    int* whi = win_hi_.data() + c0 + seg.b1;
    const int open = seg.b2 - seg.b1, lo = seg.lo;
    // The open blocks' windows, relative to the part solved while it is solved (only on a
    // miss: a pass over the blocks is a good part of a cache hit's cost).
    if (lo > 0)
        for (int b = 0; b < open; ++b) { wlo[b] -= lo; whi[b] -= lo; }
    const int* clue = cl.data.data() + c0 + seg.b1;
    const int* rclue = cl.rdata.data() + c0 + (k - seg.b2);  // the open blocks reversed
    const bool ok = solver.fix(clue, rclue, open, line, seg.hi - lo, out, wlo, whi, update);
    if (lo > 0)
        for (int b = 0; b < open; ++b) { wlo[b] += lo; whi[b] += lo; }
    if (ok && update && solver.narrows_windows()) narrowed_[index] = 1;
    return ok;
}

int Engine::solve_line_at(std::vector<uint8_t>& grid, int index, std::vector<int>* rec, bool use_cache, bool update,
                          bool log) {
    const Clues& cl = *clues_;
    const bool row = index < h_;
    const int base = row ? index * w_ : index - h_;
    const int stride = row ? 1 : w_;
    const int crossing = row ? h_ : 0;
    const int position = row ? index : index - h_;  // this line's place in the crossing lines
    const int k = cl.start[index + 1] - cl.start[index];
    Segment seg;
    if (!segment_of(index, update, seg)) return 0;
    const int b1 = seg.b1, b2 = seg.b2, lo = seg.lo, hi = seg.hi;
    const int m = hi - lo;
    uint8_t* line = line_.data();
    uint8_t* out = out_.data();
    for (int i = 0; i < m; ++i) line[i] = grid[base + static_cast<size_t>(lo + i) * stride];
    const long long key = k < KEY_BLOCKS ? (cl.id[index] * KEY_BLOCKS + b1) * KEY_BLOCKS + b2 : -1 - cl.id[index];
    int ok = -1;
    size_t slot = 0;
    uint64_t hash = 0;
    const bool cached = use_cache && cache_->usable(m);
    if (cached) ok = cache_->lookup(key, line, m, out, slot, hash);
    if (ok >= 0) {
        ++stats[CACHE_HITS];
    } else {
        ++stats[LINE_SOLVES];
        ok = fix_segment(lines_, index, seg, line, out, update) ? 1 : 0;
        if (cached) cache_->store(slot, hash, key, line, m, out, ok == 1);
    }
    if (ok == 0) return -1;
    if (update && lines_.narrows_windows()) narrowed_[index] = 1;  // (a cache hit too)
    int changed = 0;
    long long step = -1;
    for (int i = 0; i < m; ++i) {
        if (out[i] == line[i]) continue;
        if (log && step < 0) step = new_step(true);
        const int cell = static_cast<int>(base + static_cast<size_t>(lo + i) * stride);
        record(grid, rec, cell, out[i], log, step, LINE, index);
        if (update)
            mark(crossing + lo + i, position);
        else
            dirty_[crossing + lo + i] = 1;
        ++changed;
    }
    return changed;
}

// Round-based propagation from the dirty lines: sweep the rows, then the columns, until
// a sweep changes nothing.  1 at the fixpoint, 0 on a contradiction (dirty cleared), 2
// when a pausable propagation ran out of time (it goes on from resume_at_ next call).
// A paused propagation goes on with the line it stopped at: starting the round again
// would re-solve the rows before the columns they wait for.
int Engine::propagate(std::vector<uint8_t>& grid, std::vector<int>* rec, bool use_cache, bool pausable, bool update,
                      bool log) {
    long long solved = 0;
    int start = resume_at_;
    resume_at_ = 0;
    const int lines = h_ + w_;
    while (true) {
        if (start == 0) ++stats[ROUNDS];
        for (int index = start; index < lines; ++index) {
            if (!dirty_[index]) continue;
            if (pausable && solved > 0 && time_up()) {
                resume_at_ = index;
                return 2;
            }
            ++solved;
            dirty_[index] = 0;
            if (memo_.collecting) memo_.note(index);  // a probe's trial: the lines its course read
            if (solve_line_at(grid, index, rec, use_cache, update, log) < 0) {
                clear_marks();
                return 0;
            }
        }
        start = 0;
        if (!rows_dirty()) return 1;
    }
}

}  // namespace native
