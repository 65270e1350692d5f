// The native engine on colour puzzles: the complete colour line solver
// (../../_cext/colour_line.hpp), propagation to a fixpoint, probing at the root (depth 1,
// contradiction or full) and depth-first search with exact counting, with an optional
// step log, in slices like the black-and-white engine (../search/engine.hpp).
//
// A cell's domain is a bit mask of the values it may still take (bit 0 the background,
// bit v colour v: up to 64 values).  Each node propagates its domains; the root is
// probed as well, so that a puzzle solved without guessing is solved at the root and
// `grade` can tell line from probe from search as in black and white.  The search
// branches on an open cell with the fewest values, the background first.  Cells are
// row-major; lines are the rows, then the columns.
//
// propagate.cpp holds propagation and probing, search.cpp the search.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "../../_cext/colour_line.hpp"

namespace native {

// The counters, in the order ColourEngine::stats reports them.
enum ColourStat { COLOUR_NODES, COLOUR_LINE_SOLVES, COLOUR_PROBES, N_COLOUR_STATS };

// What run() returns (as the black-and-white engine's RunResult).
enum ColourRun { PAUSED_COLOUR = 0, FOUND_COLOUR = 1, EXHAUSTED_COLOUR = 2 };

// The techniques of the colour step log (as in black and white, without depth 2).
enum ColourTechnique { COLOUR_LINE = 0, COLOUR_CONTRADICTION = 1, COLOUR_AGREE = 2, COLOUR_GUESS = 3 };

// One cell narrowed on the search path: its step, technique, source (a line, or the cell
// probed or guessed), the cell, its value when the step decided it (else -1), the depth
// of the node that narrowed it, and the values the step ruled out.  What the binding hands
// Python (40 bytes, a piece of the log at a time); the engine holds the log compact, below.
struct ColourLogRow {
    long long step;
    int technique, source, cell, value, depth;
    uint64_t removed;
};

// The log as held: a step's id, technique, source and depth once (a line step narrows up
// to a line's cells), and 16 bytes a cell narrowed.  Held as whole 40-byte rows, the log cost
// explain 30 bytes a cell more at peak on stripes (benchmarks/log/2026-11-27-follow-16.md).
struct ColourLogStep {
    long long step;
    size_t first;  // its first cell in the log's cells
    int technique, source, depth;
};
struct ColourLogCell {
    int cell, value;
    uint64_t removed;
};

// One line's blocks: lengths and colours (1..k).
struct ColourClue {
    std::vector<int> lengths, colours;
};

class ColourEngine {
public:
    // values: the background and the colours (2..64); lines: the rows' clues, then the
    // columns'; fixed: (cell, value) given cells; probing: 0 none, 1 contradiction, 2 full
    // (at the root).
    ColourEngine(int height, int width, int values, const std::vector<ColourClue>& lines,
                 const std::vector<std::pair<int, int>>& fixed, int probing, bool record_steps);

    // Search for at most `seconds` (then PAUSED), or until `node_budget` new nodes (< 0:
    // no budget).  FOUND leaves the solution in cells(); EXHAUSTED: nothing is left.
    int run(double seconds, long long node_budget);
    // The solution of the last FOUND: one value per cell.
    std::vector<uint8_t> cells() const;
    // Whether no node is left to search (after a FOUND: that solution was the last one).
    bool exhausted() const;
    // The root's domains after its propagation and probing (empty until the root is done).
    const std::vector<uint64_t>& root_domains() const { return root_; }
    // The log's cells narrowed on the current path, and rows [start, stop) of them written
    // to `out` as whole rows (stop - start of them, the caller's room; start < stop <= rows).
    size_t log_rows() const { return log_cells_.size(); }
    void log_rows(size_t start, size_t stop, ColourLogRow* out) const;
    void interrupt() { interrupted_.store(true, std::memory_order_relaxed); }

    long long stats[N_COLOUR_STATS] = {};

private:
    // A level of the search: its node's domains after propagation, the branch cell, the
    // values of that cell not yet tried, and where the node's step log ended.
    struct Level {
        std::vector<uint64_t> dom;
        int cell;
        uint64_t left;
        size_t rows;
        int depth;
    };
    enum Phase { PICK, PROPAGATE, PROBE, BRANCH };

    const int h_, w_, values_, probing_;
    const bool record_steps_;
    std::vector<cext::ColourAutomaton> autos_;
    cext::ColourLineDP dp_;
    std::vector<uint64_t> buf_, out_;

    std::vector<uint64_t> dom_, root_;  // the current node's domains; the root's once done
    int depth_ = 0;
    Phase phase_ = PICK;
    bool root_taken_ = false;
    std::vector<Level> levels_;
    // Propagation: the lines queued, as flags and as two lists (the rows, the columns),
    // solved in rounds: every queued line of one side, then of the other.  A row's solve
    // queues only columns and a column's only rows, so a line is solved once a round
    // however many of its cells the other side's round changed (popping the last line
    // queued instead solved each line ~60 times on a 500x500 picture of bands, measured).
    std::vector<uint8_t> queued_;
    std::vector<int> pending_[2];
    int side_ = 0;  // the list being solved (0 rows, 1 columns)
    // Probing: a scratch copy of the domains, what a trial changed, and per cell the run of
    // consistent trials (from the first) that changed it and the union of what they left it.
    std::vector<uint64_t> scratch_, union_;
    std::vector<int> touched_, first_;
    std::vector<long long> seen_, hits_;
    long long stamp_ = 0;
    int probe_cell_ = 0;
    bool probe_learnt_ = false;

    std::vector<ColourLogStep> log_steps_;
    std::vector<ColourLogCell> log_cells_;
    long long step_ids_ = 0;

    std::chrono::steady_clock::time_point deadline_;
    long long work_ = 0;
    std::atomic<bool> interrupted_{false};
    bool time_up();
    bool clock_says_stop() const {
        return interrupted_.load(std::memory_order_relaxed) || std::chrono::steady_clock::now() >= deadline_;
    }

    // A step's cells are logged together, so a new step id starts a new step.
    void log_cell(long long step, int technique, int source, int cell, int value, uint64_t removed) {
        if (!record_steps_) return;
        if (log_steps_.empty() || log_steps_.back().step != step)
            log_steps_.push_back({step, log_cells_.size(), technique, source, depth_});
        log_cells_.push_back({cell, value, removed});
    }
    // The log cut back to its first `rows` cells (a level's end: between two steps).
    void cut_log(size_t rows) {
        log_cells_.resize(rows);
        while (!log_steps_.empty() && log_steps_.back().first >= rows) log_steps_.pop_back();
    }
    void clear_queue();
    void queue_line(int k) {
        if (queued_[k]) return;
        queued_[k] = 1;
        pending_[k < h_ ? 0 : 1].push_back(k);
    }
    void queue_cell(int cell) {
        queue_line(cell / w_);
        queue_line(h_ + cell % w_);
    }
    // propagate.cpp
    int propagate(std::vector<uint64_t>& dom, bool log, std::vector<int>* touched, bool pausable);
    void narrow(int cell, uint64_t mask, long long step, int technique, int source);
    int probe_cell(int cell);
    int probe();
    void start_probe();
    // search.cpp
    bool pick();
    int branch_or_found();
};

// The value of a one-value mask, else -1.
inline int single_value(uint64_t mask) {
    if (mask == 0 || (mask & (mask - 1))) return -1;
    return __builtin_ctzll(mask);
}

}  // namespace native
