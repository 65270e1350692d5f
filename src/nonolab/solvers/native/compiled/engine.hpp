// The native engine's compiled core: line propagation, probing and depth-first search
// with exact counting, the algorithm of the numba kernels (../propagate.py, ../probe.py,
// ../search.py) with the complete line DP of ../../lcg/line.hpp, on bit sets
// (../../lcg/bitline.hpp) for parts of at most 127 cells.  No learning: native is
// the reference, each node's deductions are undone from a trail on backtrack.
//
// A search runs in slices: run() returns when it finds a solution, exhausts the space,
// or its time (or node budget) is spent; the next run() goes on where it stopped, in the
// middle of a node's propagation or probing if need be.  Cells are state masks (1 empty,
// 2 filled, 3 unknown), row-major; lines are the rows, then the columns.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <memory>
#include <vector>

#include "../../lcg/bitline.hpp"
#include "../../lcg/line.hpp"

namespace native {

// The counters, in the order Engine::stats reports them.
enum Stat { LINE_SOLVES, CACHE_HITS, PROBES, NODES, MAX_DEPTH, ROUNDS, N_STATS };

// What run() returns.
enum RunResult { PAUSED = 0, FOUND = 1, EXHAUSTED = 2 };

// The clues, shared by a search and its forks.
struct Clues {
    Clues(int height, int width, const std::vector<std::vector<int>>& lines);
    int h, w;
    std::vector<int> data;         // every line's blocks, rows then columns
    std::vector<int> rdata;        // the same, each line's blocks in reverse order
    std::vector<int> start;        // line i's blocks are data[start[i] .. start[i+1])
    std::vector<long long> id;     // per line, the number of its clue (equal clues share one)
    std::vector<int> lo, hi;       // every block's static start window [lo_b, lo_b + slack]
    bool fits = true;              // every clue fits its line
};

// A bounded memo of line answers, direct-mapped: a new entry overwrites its slot.
// Probing re-solves the same (clue, partial line) pairs over and over.
class LineCache {
public:
    LineCache(long long budget_bytes, int longest);
    // -1 a miss, else the cached answer (1: out filled, 0: contradiction); slot and
    // hash are where a miss is to be stored.
    int lookup(long long tag, const uint8_t* line, int n, uint8_t* out, size_t& slot, uint64_t& hash) const;
    void store(size_t slot, uint64_t hash, long long tag, const uint8_t* line, int n, const uint8_t* out, bool ok);
    // Whether a line of n cells can be cached; the tables are made on the first call
    // (a solve that never probes never asks: a line-solvable grid pays nothing for them).
    // The slots made so far (0 until a solve first asks for the cache).
    size_t slots() const { return slots_; }
    bool usable(int n) {
        if (!made_) make();
        return slots_ > 0 && n <= width_;
    }

private:
    // calloc, not std::vector: the operating system hands out zero pages as they are
    // first touched, so a 32 MB cache costs nothing until probing fills it (a vector
    // would write every byte up front: 0.04 s on a 1000x1000 grid that never probes).
    struct Free {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    using Table = std::unique_ptr<uint8_t[], Free>;
    static Table zeros(size_t bytes);

    void make();
    // Replace the tables by empty ones of `power` slots (the cache's answers are dropped:
    // they are only a memo).
    bool resize(size_t power);
    // The slot of a line whose hash is `hash`.
    size_t slot_of(uint64_t hash) const { return static_cast<size_t>((hash ^ (hash >> 20)) & (slots_ - 1)); }

    long long budget_ = 0;
    size_t most_ = 0;      // the slots the budget allows (a power of two)
    size_t stores_ = 0;    // stores since the tables were last made
    int longest_ = 0;
    bool made_ = false;
    size_t slots_ = 0;
    int width_ = 0;
    // Every table starts zeroed by calloc, the slot tables too (1.5 MB at 2**16 slots,
    // 1 ms to fill by hand on every solve of a grid that may never use the cache): an
    // empty slot is one whose stored length is 0 (lengths_ holds the length + 1).
    Table keys_, results_, ok_, tags_, lengths_, hashes_;
    long long* tag_at() const { return reinterpret_cast<long long*>(tags_.get()); }
    long long* length_at() const { return reinterpret_cast<long long*>(lengths_.get()); }
    uint64_t* hash_at() const { return reinterpret_cast<uint64_t*>(hashes_.get()); }
};

// The complete answer for a line of n unknown cells without the DP (blank_fix in
// ../line.py): a cell is filled in every arrangement exactly where block j at its
// leftmost start (the blocks packed to the left) overlaps itself shifted by the slack;
// with no slack every other cell is empty.  Every start in between is valid, so with
// update the windows become those ranges (the DP's answer, cell for cell and window for
// window).
inline bool blank_fix(const int* clue, int k, int n, uint8_t* out, int* win_lo, int* win_hi, bool update) {
    int need = k - 1;
    for (int j = 0; j < k; ++j) need += clue[j];
    if (k == 0) need = 0;
    const int slack = n - need;
    if (slack < 0) return false;
    std::fill(out, out + n, static_cast<uint8_t>(k == 0 || slack == 0 ? 1 : 3));
    for (int j = 0, start = 0; j < k; start += clue[j] + 1, ++j) {
        for (int c = start + slack; c < start + clue[j]; ++c) out[c] = 2;
        if (update) {
            win_lo[j] = start;
            win_hi[j] = start + slack;
        }
    }
    return true;
}

class Engine {
public:
    // probing: 0 none, 1 contradiction, 2 full.  given: the partial grid to start from.
    Engine(std::shared_ptr<const Clues> clues, std::vector<uint8_t> given, std::shared_ptr<LineCache> cache,
           int probing);

    // Search for at most `seconds` (then PAUSED), or until `node_budget` new nodes
    // (< 0: no budget).  Nodes deeper than probe_depth only propagate; below the root a
    // probing makes at most deep_sweeps sweeps.  FOUND leaves the solution in cells().
    int run(double seconds, long long node_budget, long long probe_depth, long long deep_sweeps);

    // A search of the same space that starts where this one's root ended (grid, windows
    // and cache); call it once this search has branched.
    std::unique_ptr<Engine> fork_root() const;
    bool root_done() const { return depth_ > 0 || stats[NODES] > 1; }
    size_t cache_slots() const { return cache_->slots(); }

    // What every solution the search has not yet reached agrees with.
    std::vector<uint8_t> remainder() const;
    const std::vector<uint8_t>& cells() const { return cells_; }
    size_t decided() const { return trail_.size(); }
    bool node_paused() const { return node_paused_; }

    // Make the current run() pause at its next look at the clock, as if its time were up,
    // and every later one at its own next look (each does a little work first).  Safe from another thread while run() goes on: a caller
    // racing this engine against another stops it at once when the other answers.
    void interrupt() { interrupted_.store(true, std::memory_order_relaxed); }

    long long stats[N_STATS] = {};

private:
    std::shared_ptr<const Clues> clues_;
    std::shared_ptr<LineCache> cache_;
    const int h_, w_;
    const int probing_;
    std::vector<uint8_t> given_, cells_;
    std::vector<int> win_lo_, win_hi_;
    std::vector<uint8_t> narrowed_, dirty_;
    // Per line, the span of the cells changed since it was last solved, [span_lo_,
    // span_hi_] (span_lo_ > span_hi_: none), kept by the windows-narrowing propagation
    // only.  There a solve reads only the segment of the line between the cuts around the
    // span: the rest is as the last solve left it (see solve_line_at).
    std::vector<int> span_lo_, span_hi_;
    lcg::LineDP dp_;
    // The same answers on bit sets, for parts of at most 63 / 127 cells (bitline.hpp).
    lcg::BitLine64 bits64_;
    lcg::BitLine bits128_;
    std::vector<uint8_t> line_, out_;

    // The trail (cells set below the given ones, in order) and the search levels.
    std::vector<int> trail_;
    std::vector<size_t> level_trail_;
    std::vector<int> level_cell_;
    std::vector<uint8_t> level_second_, level_tried_;
    int depth_ = 0;
    int phase_ = 0;  // ROOT, NODE, BACKTRACK
    bool node_paused_ = false;
    int resume_at_ = 0;  // the line a paused propagation goes on from

    // Probing: two scratch grids, what each trial touched, the agreement, the scores.
    std::vector<uint8_t> scratch0_, scratch1_;
    std::vector<int> touched0_, touched1_, agree_, score0_, score1_;
    std::vector<uint32_t> mark_;
    uint32_t stamp_ = 0;
    long long probe_next_ = 0, probe_sweeps_ = 0;
    bool probe_learnt_ = false, probe_running_ = false;

    // The clock of the current run(): checked every few line solves.
    std::chrono::steady_clock::time_point deadline_;
    long long work_ = 0;
    std::atomic<bool> interrupted_{false};
    bool time_up();

    // Line `line` is to be solved: its cell `pos` changed.
    void mark(int line, int pos) {
        dirty_[line] = 1;
        if (pos < span_lo_[line]) span_lo_[line] = pos;
        if (pos > span_hi_[line]) span_hi_[line] = pos;
    }
    void mark_cell(int p) {
        mark(p / w_, p % w_);
        mark(h_ + p % w_, p / w_);
    }
    void mark_all();    // every line, every cell (the root)
    void clear_marks();  // none (a contradiction)
    int solve_line_at(std::vector<uint8_t>& grid, int index, std::vector<int>* rec, bool use_cache, bool update);
    int propagate(std::vector<uint8_t>& grid, std::vector<int>* rec, bool use_cache, bool pausable, bool update);
    int trial(std::vector<uint8_t>& scratch, int p, uint8_t value, std::vector<int>& touched);
    void undo(std::vector<uint8_t>& scratch, const std::vector<int>& touched, int p);
    int probe(long long max_sweeps);
    int choose_branch(bool use_scores, uint8_t& value) const;
    void set(int cell, uint8_t value) {
        cells_[cell] = value;
        trail_.push_back(cell);
    }
};

}  // namespace native
