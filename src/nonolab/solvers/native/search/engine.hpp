// The native engine on black-and-white puzzles: line propagation, probing (depth 1,
// contradiction or full, and depth 2) and depth-first search with exact counting, with
// any of the line strategies of ../lines/strategy.hpp and an optional step log (the
// deductions on the current search path, each with its technique).  No learning: native
// is the reference, each node's deductions are undone from a trail on backtrack.
//
// A search runs in slices: run() returns when it finds a solution, exhausts the space,
// or its time (or node budget) is spent; the next run() goes on where it stopped, in the
// middle of a node's propagation or probing if need be.  Cells are state masks (1 empty,
// 2 filled, 3 unknown), row-major; lines are the rows, then the columns.
//
// The work is split by concern: propagate.cpp (one line, and propagation to a fixpoint),
// probe.cpp (depth-1 probing, branching, implications), depth2.cpp (depth-2 probing),
// search.cpp (the search itself, forks and remainders), cache.cpp (the line cache),
// sweep.cpp (the root's first propagation in blocks of lines, on one thread or more).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "../lines/strategy.hpp"
#include "cache.hpp"
#include "zeroed.hpp"

namespace native {

// The counters, in the order Engine::stats reports them.
enum Stat { LINE_SOLVES, CACHE_HITS, PROBES, NODES, MAX_DEPTH, ROUNDS, PROBES_SKIPPED, N_STATS };

// What run() returns.
enum RunResult { PAUSED = 0, FOUND = 1, EXHAUSTED = 2 };

// Probing levels (nonolab.solvers.native.modes.Probing.level).
enum ProbingLevel { NO_PROBING = 0, CONTRADICTION_PROBING = 1, FULL_PROBING = 2, DEPTH2_PROBING = 3 };

// Branching rules (nonolab.solvers.native.modes.BRANCHING): the cell maximising
// sqrt(max/(min+1)) + min of its two probing gains (Wu et al.'s paper, nonogrid's
// default), or LalaFrogKK's min + 1.85 ln(1 + |difference|); the larger gain first.
enum Branching { WU_BRANCHING = 0, LALAFROG_BRANCHING = 1 };

// The techniques of the step log, in the order of its Python reader (search/__init__.py).
enum Technique { LINE = 0, CONTRADICTION_PROBE = 1, BOTH_BRANCHES_AGREE = 2, GUESS = 3, DEPTH2_PROBE = 4 };

// One cell set on the search path: the step it belongs to (cells set by one line solve,
// one probe or one guess share a step), its technique, its source (a line; a cell, or
// -1 - cell for a guess's second branch), the cell and its value (1 filled, 0 empty).
struct LogRow {
    long long step;
    int technique, source, cell, value;
};

// What a search is asked to do besides its clues.
struct Settings {
    int probing = FULL_PROBING;  // a ProbingLevel
    int strategy = DP;           // a Strategy
    long long cap = 1 << 16;     // enumerate's budget per line solve
    bool record_steps = false;
    long long cache_bytes = 32 << 20;
    // Threads for the root's first propagation (sweep.cpp); the answers and the counters
    // do not depend on it.
    int threads = 1;
    // Skip the probe of a cell whose last probe learnt nothing when no line its two
    // trials solved has changed since (ProbeMemo): the same search, fewer trials.
    bool skip_probes = true;
    int branching = WU_BRANCHING;  // a Branching
};

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

// The work of one level of probing: two scratch grids, what each trial touched, the
// cells both trials set alike, the branching scores, and the sweep of a paused probing.
// The scores and marks are written for probed and touched cells only, so they take
// memory only there (zeroed.hpp).
struct Probes {
    std::vector<uint8_t> scratch0, scratch1;
    std::vector<int> touched0, touched1, agree;
    ZeroedArray<int> score0, score1;
    ZeroedArray<uint32_t> mark;
    uint32_t stamp = 0;
    long long next = 0, sweeps = 0;
    bool learnt = false, running = false;
    void size_for(size_t cells);
};

// What the outer probing remembers of the probes that learnt nothing (probe.cpp): per
// cell, the lines its two trials solved and when.  A trial's course depends only on the
// cells of the lines it solves (the windows are fixed after the root's first
// propagation, a cached answer is the solver's), so while none of them has changed the
// probe would touch the same cells, learn nothing again and score the same: it is
// skipped.  Every change of the search's grid (a set cell, an undone one) stamps its
// row and column with a new tick.
struct ProbeMemo {
    std::vector<long long> changed;   // per line, the tick of its last change
    long long tick = 0;
    ZeroedArray<uint32_t> at;         // per cell, 1 + its record's offset in pool (0: none)
    ZeroedArray<long long> when;      // per cell, the tick its record was made at
    std::vector<int> pool;            // records: a count, then that many lines
    std::vector<uint32_t> seen;       // per line, the stamp of the probe that solved it
    uint32_t stamp = 0;
    std::vector<int> lines;           // the lines the current probe's trials solved
    bool collecting = false;
    void size_for(size_t cells, int n_lines);
    void begin();                     // a probe's trials begin: collect their lines
    void note(int line) {
        if (seen[line] != stamp) { seen[line] = stamp; lines.push_back(line); }
    }
    void store(int p);                // the probe of cell p learnt nothing
    bool still(int p) const;          // cell p's record holds: no line of it changed since
    void change(int row, int column) { ++tick; changed[row] = changed[column] = tick; }
};

// One thread's tools in a block sweep (sweep.cpp): its line solver, its buffers (a
// block of columns is gathered row by row, transposed), its solves.
struct SweepLane {
    SweepLane(int strategy, long long cap) : solver(strategy, cap) {}
    LineSolver solver;
    std::vector<uint8_t> columns, out;
    long long solves = 0;
};

// What a block of lines changed, in line order: per changed line, its index and how
// many of `cells` (the changed cells' places in their lines) are its own; false ok: a
// line of the block has no arrangement.
struct SweepBlock {
    std::vector<int> cells;
    std::vector<std::pair<int, int>> lines;
    bool ok = true;
};

class Engine {
public:
    // given: the partial grid to start from.
    Engine(std::shared_ptr<const Clues> clues, std::vector<uint8_t> given, std::shared_ptr<LineCache> cache,
           const Settings& settings);

    // Search for at most `seconds` (then PAUSED), or until `node_budget` new nodes
    // (< 0: no budget).  Nodes deeper than probe_depth only propagate; below the root a
    // depth-1 probing makes at most deep_sweeps sweeps.  FOUND leaves the solution in cells().
    int run(double seconds, long long node_budget, long long probe_depth, long long deep_sweeps);

    // A search of the same space that starts where this one's root ended (grid, windows,
    // cache and step log); call it once this search has branched.
    // branching: the fork's rule (a Branching), or -1 for this search's own.
    std::unique_ptr<Engine> fork_root(int branching = -1) const;
    bool root_done() const { return depth_ > 0 || stats[NODES] > 1; }
    size_t cache_slots() const { return cache_->slots(); }

    // What every solution the search has not yet reached agrees with.
    std::vector<uint8_t> remainder() const;
    const std::vector<uint8_t>& cells() const { return cells_; }
    size_t decided() const { return root_set_ + trail_.size(); }
    bool node_paused() const { return node_paused_; }
    // The step log of the current search path (empty unless record_steps).
    const std::vector<LogRow>& steps() const { return log_; }

    // What propagation derives from each value of each unknown cell of the current grid:
    // rows (p, a, q, b), "cell p in state a makes propagation set cell q to state b"
    // (q == p, b == 3 - a: a leads to a contradiction); at most max_pairs of them.
    std::vector<std::array<int, 4>> implications(size_t max_pairs);

    // Make the current run() pause at its next look at the clock, as if its time were up,
    // and every later one at its own next look (each does a little work first).  Safe
    // from another thread while run() goes on: a caller racing this engine against
    // another stops it at once when the other answers.
    void interrupt() { interrupted_.store(true, std::memory_order_relaxed); }

    long long stats[N_STATS] = {};

private:
    std::shared_ptr<const Clues> clues_;
    std::shared_ptr<LineCache> cache_;
    const Settings settings_;
    const int h_, w_;
    std::vector<uint8_t> cells_;
    std::vector<int> win_lo_, win_hi_;
    std::vector<uint8_t> narrowed_, dirty_;
    // Per line, the span of the cells changed since it was last solved, [span_lo_,
    // span_hi_] (span_lo_ > span_hi_: none), kept by the windows-narrowing propagation
    // only.  There a solve reads only the segment of the line between the cuts around the
    // span: the rest is as the last solve left it (see solve_line_at).
    std::vector<int> span_lo_, span_hi_;
    LineSolver lines_;
    std::vector<uint8_t> line_, out_;

    // The trail (cells set below the given ones, in order; not those of the root's first
    // propagation, which are only counted in root_set_) and the search levels.
    std::vector<int> trail_;
    size_t root_set_ = 0;
    std::vector<uint8_t> state_before(size_t trail_end) const;
    std::vector<size_t> level_trail_, level_log_;
    std::vector<int> level_cell_;
    std::vector<uint8_t> level_second_, level_tried_;
    int depth_ = 0;
    int phase_ = 0;  // ROOT, NODE, BACKTRACK
    bool node_paused_ = false;
    int resume_at_ = 0;  // the line a paused propagation goes on from

    // The step log and the last step number given out.
    std::vector<LogRow> log_;
    long long step_id_ = 0;

    // Probing: the main grid's, and the one inside depth-2 trials.
    Probes probes_, inner_;
    ProbeMemo memo_;  // the outer probing's (with settings_.skip_probes)
    // Depth-2 probing's sweep: the next cell, the cells tried since the last deduction
    // (a whole round of them is the fixpoint), and whether full probing runs first.
    long long deep_next_ = 0, deep_quiet_ = 0;
    bool deep_full_first_ = true;

    // The clock of the current run(): checked every few line solves.
    std::chrono::steady_clock::time_point deadline_;
    long long work_ = 0;
    std::atomic<bool> interrupted_{false};
    bool time_up();
    bool clock_says_stop() const {
        return interrupted_.load(std::memory_order_relaxed) || std::chrono::steady_clock::now() >= deadline_;
    }

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
    bool rows_dirty() const;  // a row flagged since its sweep: another round

    // A cell of the search's grid was set or undone (the probe memo's stamps).
    void cell_changed(int p) {
        if (settings_.skip_probes && !memo_.changed.empty()) memo_.change(p / w_, h_ + p % w_);
    }

    // A new step number when the log records (else -1).
    long long new_step(bool log) { return log ? ++step_id_ : -1; }
    // Set a cell of `grid`, onto `rec` (a trail or a trial's touched cells) and, with
    // log, into the step log.
    void record(std::vector<uint8_t>& grid, std::vector<int>* rec, int cell, uint8_t value, bool log,
                long long step, int technique, int source) {
        grid[cell] = value;
        if (rec) rec->push_back(cell);
        if (&grid == &cells_) cell_changed(cell);
        if (log) log_.push_back({step, technique, source, cell, value == 2 ? 1 : 0});
    }

    // The part of line `index` a solve reads (see solve_line_at): its open blocks
    // [b1, b2) and its cells [lo, hi).  With update the line's span of changed cells is
    // read and reset.  false: every block is pinned (nothing to solve).
    struct Segment {
        int b1, b2, lo, hi;
    };
    bool segment_of(int index, bool update, Segment& seg);
    // Solve the segment's cells line[0..hi-lo) into out with `solver` (one thread's
    // own), the windows of its open blocks narrowed with update; false: a contradiction.
    bool fix_segment(LineSolver& solver, int index, const Segment& seg, const uint8_t* line, uint8_t* out,
                     bool update);

    // propagate.cpp
    int solve_line_at(std::vector<uint8_t>& grid, int index, std::vector<int>* rec, bool use_cache, bool update,
                      bool log);
    int propagate(std::vector<uint8_t>& grid, std::vector<int>* rec, bool use_cache, bool pausable, bool update,
                  bool log);
    // sweep.cpp: the root's first propagation (update, no cache), in blocks of lines
    // solved by settings_.threads threads; the same cells, windows, trail, step log and
    // counters as propagate() with update.
    int propagate_blocks(std::vector<uint8_t>& grid, std::vector<int>* rec, bool pausable, bool log);
    void sweep_block(SweepLane& lane, std::vector<uint8_t>& grid, int first, int end, SweepBlock& out);
    int sweep_range(std::vector<uint8_t>& grid, std::vector<int>* rec, int& from, int end, bool pausable, bool log,
                    bool& progressed);
    std::vector<std::unique_ptr<SweepLane>> lanes_;
    // probe.cpp.  `outer`: probing the search's own grid (it may pause on the clock and
    // records into the step log), not a scratch grid inside a depth-2 trial.
    int trial(std::vector<uint8_t>& scratch, int p, uint8_t value, std::vector<int>& touched);
    static void undo(const std::vector<uint8_t>& base, std::vector<uint8_t>& scratch, const std::vector<int>& touched,
                     int p);
    int agreement(Probes& pr) const;
    int probe(std::vector<uint8_t>& grid, std::vector<int>& rec, Probes& pr, int mode, long long max_sweeps,
              bool outer);
    void learn(std::vector<uint8_t>& grid, std::vector<int>& rec, int p, bool ok0, bool ok1, const Probes& pr,
               bool log, bool deep);
    int choose_branch(bool use_scores, uint8_t& value) const;
    // depth2.cpp
    int deep_trial(std::vector<uint8_t>& scratch, int p, uint8_t value, std::vector<int>& touched);
    int probe_depth2();
    // search.cpp
    void branch(int p, uint8_t value);
};

}  // namespace native
