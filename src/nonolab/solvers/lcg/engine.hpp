// The lcg engine: CDCL over the cell literals whose propagators are the complete
// line solver of every row and column (see engine.cpp for the design notes).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "../_cext/bitline.hpp"
#include "../_cext/colour_line.hpp"
#include "../_cext/line.hpp"
#include "arena.hpp"
#include "drop.hpp"
#include "heap.hpp"
#include "policy.hpp"
#include "proof.hpp"

namespace lcg {

// The line solvers lcg shares with the native engine (solvers/_cext/).
using cext::BitLine;
using cext::BitLine64;
using cext::BitLineOf;
using cext::Bits;
using cext::ColourAutomaton;
using cext::ColourLineDP;
using cext::LineDP;

// A literal is 2 * var for "var true" and 2 * var + 1 for "var false".  In black and
// white a var is a cell (true: filled); in colour, var cell * values + v says "the
// cell holds value v" (see engine.cpp).
inline int lit_of(int var, bool filled) { return 2 * var + (filled ? 0 : 1); }
inline int var_of(int lit) { return lit >> 1; }
inline int neg(int lit) { return lit ^ 1; }

// A watched clause: its cref (~cref, negative, for a binary clause, whose other
// literal is then always the blocker) and a literal of it whose truth satisfies it.
struct Watch {
    int cref;
    int blocker;
};

struct Counters {
    long long probe_binaries = 0;  // binary clauses root probing kept (probe.cpp)
    long long probes_skipped = 0;  // probes an earlier probe implied (probe.cpp)
    long long conflicts = 0, decisions = 0, propagations = 0, line_runs = 0;
    long long learned = 0, restarts = 0, reductions = 0, explanations = 0, explained_literals = 0;
    long long explanation_checks = 0, learned_literals = 0, minimised_literals = 0, blocking = 0;
    long long cache_hits = 0, probes = 0, probe_line_runs = 0, target_updates = 0, hint_rounds = 0;
    long long explanation_hits = 0;
    long long mode_switches = 0, rephases = 0;  // (policy.hpp)
    // Vivification (vivify.cpp): rounds, clauses tried, clauses shortened, literals they lost, line runs spent.
    long long vivify_rounds = 0, vivify_tried = 0, vivify_shortened = 0, vivify_removed = 0, vivify_line_runs = 0;
    long long shakes = 0, shakes_spared = 0;  // (shake.cpp: shakes, and those shake_churn left out)
    // Lookahead decisions (lookahead.cpp): decisions chosen by probing, probes, probes that failed, their line runs.
    long long lookaheads = 0, lookahead_probes = 0, lookahead_failed = 0, lookahead_line_runs = 0;
};

// Sums over the conflicts since the last Engine::take_signals() (signals.cpp).
struct Signals {
    long long conflicts = 0, lbd = 0, learned_size = 0, conflict_level = 0, back_level = 0, trail = 0;
    long long max_consistent = 0, far_jumps = 0, phase_flips = 0, root = 0;
};

enum RunResult { BUDGET = 0, SOLUTION = 1, EXHAUSTED = 2 };

class Engine {
public:
    // minimise: learned clause minimisation, 0 none, 1 basic, 2 recursive.  The clues are
    // taken by value: the engine keeps them (a caller that moves them in copies nothing).
    Engine(int width, int height, std::vector<std::vector<int>> rows, std::vector<std::vector<int>> columns,
           int minimise = 2, int bands = 0, int restarts = 0, long long probe_budget = 0);

    // A colour puzzle: rows and columns hold the blocks' lengths, row_colours and
    // column_colours their colours (1..colours).
    Engine(int width, int height, std::vector<std::vector<int>> rows, std::vector<std::vector<int>> columns,
           const std::vector<std::vector<int>>& row_colours,
           const std::vector<std::vector<int>>& column_colours, int colours, int minimise, int bands, int restarts,
           long long probe_budget);

    // Branching phases: false, each cell's last value (phase saving); true (the
    // default), the target phases (see engine.cpp).
    void set_target_phases(bool on) { target_phases_ = on; }

    // Phase hints (hints.cpp): up to `rounds` rounds of belief propagation on the root's
    // cells, before the first decision, give each open cell a first phase (0: none, every
    // cell starts empty); for the first `forced_conflicts` conflicts every decision takes
    // its hinted phase (0: the hints are only the first saved and target phases); after
    // a solution, for `follow_conflicts` conflicts, its value in that solution (the
    // search for another one starts around it; 0: never).
    void set_phase_hints(int rounds, long long forced_conflicts, long long follow_conflicts) {
        hint_rounds_ = rounds;
        hint_conflicts_ = forced_conflicts;
        follow_conflicts_ = follow_conflicts;
    }

    // The hints wait until the search has had `conflicts` conflicts without them (0: before
    // the first decision); then a restart, and they are computed on that root (hints.cpp).
    void set_hint_after(long long conflicts) { hint_after_ = conflicts; }
    // The hints run only when more than `percent` of the cells are open after probing (hints.cpp).
    void set_hint_min_open(int percent) { hint_min_open_ = percent; }

    // Mode switching and rephasing (policy.hpp); before the first run.
    void set_modes(const ModeSettings& modes) { policy_.set_modes(modes); }
    void set_rephase(long long conflicts) { policy_.set_rephase(conflicts); }
    // Shakes before the first solution, on a Luby schedule of `unit` conflicts that starts
    // after `after` conflicts (shake.cpp; unit 0: never), each resetting what `reset` says.
    enum class ShakeReset { both, activities, phases };
    void set_shake(long long unit, long long after, ShakeReset reset = ShakeReset::both) {
        policy_.set_shake(unit, after);
        shake_reset_ = reset;
    }
    // A shake only when the search churns (shake.cpp): when, over the last five windows of
    // `window` conflicts, the saved phases that changed within a window were at least `percent`
    // % of the vars on average (0: every shake the schedule says).
    void set_shake_churn(int percent, long long window = 1000) { shake_churn_ = percent; churn_window_ = window; }

    // Lookahead decisions (lookahead.cpp): at decision levels below `levels`, the decision's
    // var is the one of the `candidates` most active open vars whose two values force the
    // most cells (0 candidates: never; VSIDS alone).
    void set_lookahead(int candidates, int levels) {
        lookahead_candidates_ = candidates;
        lookahead_levels_ = levels;
    }

    // Root probing keeps what each probe implied as binary clauses (probe.cpp).
    void set_probe_binaries(bool on) { probe_binaries_ = on; }
    // Root probing skips the literals an earlier probe implied at the same root (probe.cpp).
    void set_probe_skipping(bool on) { skip_implied_probes_ = on; }
    // Explanations take the root's cells from the line's masks and order their candidates
    // by band masks (analysis.cpp; off: they read every cell and sort the candidates' keys,
    // the same clauses, for the test that says so).
    void set_explain_from_root(bool on) { explain_from_root_ = on; }
    // Before the search: the var order built by inserting each var (the same order; a test's).
    void set_order_by_insertion(bool on) { if (on) order_.reset_by_insertion(nvars_); }
    // Before the search: seed 0 leaves the search as it is (the vars no conflict has raised
    // taken by number); another seed gives every var a random first activity below one
    // raise (heap.hpp), another order of those vars and so another search path, with the
    // same answers (lcg's `seed` option: its run-time distribution, luck12's log).
    void set_seed(uint64_t seed) {
        rng_ = seed;
        if (seed) order_.randomise(rng_, 1.0);
    }

    // Learned-clause vivification (vivify.cpp): a round every `interval` conflicts (0: never),
    // each spending at most `effort` % of the line runs the search made since the last one.
    // With `probe`, each round starts with root probing again (within the probing budget).
    void set_vivify(long long interval, int effort, bool probe) {
        vivify_interval_ = vivify_next_ = interval;
        vivify_effort_ = effort;
        vivify_probe_ = probe;
    }

    // Fix a cell before the search; false when it contradicts an earlier fixed cell.
    bool fix(int cell, bool filled);
    // Fix a colour puzzle's cell to a value (0 background, 1..colours).
    bool fix_value(int cell, int value);

    // Search for at most `seconds` and, when `conflicts` > 0, at most that many more
    // conflicts (a deterministic slice: lcg's interleaved searches); a solution is in
    // solution() after SOLUTION, and is blocked before returning, so the next call looks
    // for another one.  Either budget pauses where the clock does: the next run resumes
    // the same search.
    RunResult run(double seconds, long long conflicts = 0);

    // Make the current run() (called from another thread) end at its next look at the
    // clock, as if its time were up, and every later one at its own: a race stops its
    // loser at once, not at the end of its slice.
    void interrupt() { interrupted_.store(true, std::memory_order_relaxed); }

    // One byte per cell: 0/1 in black and white, the value in colour.
    const std::vector<uint8_t>& solution() const { return solution_; }
    // What the root level (decision level 0) says of each cell, between runs: 0 empty,
    // 1 filled, 2 open (black and white; every cell open in colour).  Every solution not
    // yet found agrees with it (found ones are blocked, and what follows from that is
    // at the root too).
    std::vector<uint8_t> root_cells() const;
    const Counters& counters() const { return counters_; }
    // The search's signals since the last call, summed (the first call starts them: signals.cpp).
    Signals take_signals();
    int num_vars() const { return nvars_; }

    // Write a DRAT proof of the search to path from now on (proof.hpp; black and white
    // only, before the first run): false when the file cannot be opened.  end_proof()
    // closes it: false when a write failed.
    bool start_proof(const char* path);
    bool end_proof();
    const ProofLog* proof() const { return proof_.get(); }

private:
    enum Reason : uint8_t { NONE = 0, CLAUSE = 1, LINE = 2 };
    static constexpr int NO_CONFLICT = -1, LINE_CONFLICT = -2, PAUSED = -3;

    int width_, height_, nvars_, minimise_, bands_;
    SearchPolicy policy_;  // restarts, modes, rephasing (policy.hpp)
    bool probing_;
    long long probe_budget_, probe_start_runs_ = 0;
    int probe_next_ = 0;
    bool probe_binaries_ = false;
    std::unordered_set<uint64_t> probe_pairs_;  // the binary clauses kept, each literal pair sorted
    void keep_probe_binaries();
    // Probes implied by an earlier probe at the same root, which cannot fail (probe.cpp).
    bool skip_implied_probes_ = true;
    std::vector<int> implied_at_root_;
    void note_implied_by_probe();
    bool implied_by_probe(int lit) const {
        return !implied_at_root_.empty() && implied_at_root_[lit] == static_cast<int>(trail_.size()) + 1;
    }
    std::vector<int> to_clear_, stack_;
    std::vector<std::vector<int>> line_cells_, line_clue_;
    LineDP dp_;
    DropChecker dropper_;
    std::vector<uint8_t> state_buf_, out_buf_;
    std::vector<uint8_t> explain_state_;  // explain's line, its candidate cells and their sort keys
    std::vector<int> explain_cells_;
    std::vector<uint64_t> explain_keys_;
    // Explanations of lines of at most 63 cells, remembered (analysis.cpp): a greedy
    // drop's result depends only on the line, its cells' values before the limit, the
    // implied cell and the order the candidates are tried in, all of which are the key.
    struct ExplainSlot {
        uint64_t empty = 0, fill = 0, kept = 0;  // kept: bit i, candidate cell i stays
        int line = -1;
        int8_t implied = -1;  // the implied cell's position in the line (-1: a conflict)
        uint8_t count = 0;    // order[0..count): the candidates, in the order tried
        uint8_t order[64];
    };
    // It starts at 2^8 slots (24 KB) and grows fourfold with use, up to 2^12 (lines.cpp's
    // bit cache does the same): a 25x25 puzzle's few hundred explanations filled 2^12
    // slots (390 KB) at every solve, about 2 % of an easy puzzle's time.
    std::vector<ExplainSlot> explain_cache_;
    size_t explain_stores_ = 0;
    static constexpr size_t kFirstExplainSlots = 1u << 8, kMostExplainSlots = 1u << 12;

    // A direct-mapped cache of line DP results, keyed by (line, exact state).
    struct CacheSlot {
        int line = -1;
        bool ok = false;
        std::vector<uint8_t> key, out;
    };
    std::vector<CacheSlot> cache_;
    size_t cache_mask_ = 0;

    // Lines of at most BitLine::MAX_CELLS cells are solved on bit sets (bitline.hpp),
    // with their own cache keyed by the line's two masks; bit_line_[line]: 0 not, 1 on
    // 64-bit words (up to 63 cells), 2 on 128-bit words.
    struct BitSlot {
        Bits empty = 0, fill = 0, may_empty = 0, may_fill = 0;  // key: the line's masks; value: the result's
        int line = -1;
        bool ok = false;
    };
    BitLine bits_;
    BitLine64 bits64_;
    std::vector<uint8_t> bit_line_, line_fits_;  // line_fits_: its blocks fit in it (a line solve skips the sum)
    std::vector<std::vector<int>> line_rclue_;  // each clue reversed (the suffix table's pass)
    std::vector<BitSlot> bit_cache_;
    size_t bit_cache_mask_ = 0, bit_stores_ = 0;
    static constexpr size_t kFirstBitSlots = 1u << 10, kMostBitSlots = 1u << 14;
    // Each line's cells that may be empty / filled under the current assignment (bit c:
    // the line's cell c), kept by enqueue and backtrack for the rows when they have at
    // most 127 cells (rows_kept_), the same for the columns: a bit line's run reads them.
    // Two 64-bit words a line (line 2 * line + c / 64, bit c % 64): an assignment changes
    // one word of each, where a 128-bit mask took a double-word shift and two stores.
    std::vector<uint64_t> line_may_empty_, line_may_fill_;
    // The same words' cells assigned at the root (decision level 0), which stay assigned:
    // an explanation takes them from the masks without reading them cell by cell.
    std::vector<uint64_t> line_root_;
    bool explain_from_root_ = true;
    bool rows_kept_ = false, columns_kept_ = false;
    // A black-and-white cell's value (1 filled, 0 empty, -1 open) in its row's and its
    // column's masks; a root cell in line_root_ too.  (Here, not in lines.cpp: enqueue and
    // backtrack call it for every cell, and a call into another file cost more than it.)
    // An open cell is in both masks, so an assignment clears one bit (filled: may not be
    // empty) and an undo sets both.
    void keep_masks(int var, int value) {
        const int row = var_row_[var], column = var_column_[var];
        const bool root = value >= 0 && trail_lim_.empty();
        std::vector<uint64_t>& cleared = value == 1 ? line_may_empty_ : line_may_fill_;
        auto keep = [&](int line, int at) {
            const size_t word = 2 * static_cast<size_t>(line) + static_cast<size_t>(at >> 6);
            const uint64_t bit = static_cast<uint64_t>(1) << (at & 63);
            if (value < 0) {
                line_may_empty_[word] |= bit;
                line_may_fill_[word] |= bit;
            } else {
                cleared[word] &= ~bit;
                if (root) line_root_[word] |= bit;
            }
        };
        if (rows_kept_) keep(row, column - height_);
        if (columns_kept_) keep(column, row);
    }
    // keep_masks() for an assignment (enqueue's): one bit cleared in its row's and its column's words.
    __attribute__((always_inline)) void assign_masks(int var, bool filled) {
        uint64_t* cleared = (filled ? line_may_empty_ : line_may_fill_).data();
        const bool root = trail_lim_.empty();
        auto keep = [&](int line, int at) {
            const size_t word = 2 * static_cast<size_t>(line) + static_cast<size_t>(at >> 6);
            const uint64_t bit = static_cast<uint64_t>(1) << (at & 63);
            cleared[word] &= ~bit;
            if (__builtin_expect(root, 0)) line_root_[word] |= bit;
        };
        const int row = var_row_[var], column = var_column_[var];
        if (rows_kept_) keep(row, column - height_);
        if (columns_kept_) keep(column, row);
    }

    // Assignment: -1 unassigned, 0 empty, 1 filled; lit_value_ the same per literal
    // (-1 unassigned, 0 false, 1 true), so clause propagation reads one byte a literal.
    std::vector<int8_t> value_, lit_value_;
    std::vector<int> level_, trail_pos_, reason_idx_;
    std::vector<uint8_t> reason_kind_, saved_phase_, seen_;
    std::vector<std::vector<int>> reason_cache_;
    std::vector<uint8_t> reason_ready_;
    std::vector<int> trail_, trail_lim_;
    // Each var's row and column (the column's line index, height_ + its x): read at every
    // assignment, where a division by the width cost more than the lookup.
    std::vector<int> var_row_, var_column_;
    size_t qhead_ = 0;

    // The lines to run, first in first out; each at most once (in_dirty_), so a ring of
    // one slot a line holds them (a deque allocated and freed blocks as it went).
    struct LineQueue {
        std::vector<int> ring;
        size_t head = 0, count = 0;
        void reset(size_t lines) { ring.assign(lines, 0); head = count = 0; }
        bool empty() const { return count == 0; }
        void push(int line) {
            size_t at = head + count++;
            ring[at >= ring.size() ? at - ring.size() : at] = line;
        }
        int pop() {
            const int line = ring[head];
            if (++head == ring.size()) head = 0;
            --count;
            return line;
        }
        int at(size_t i) const { size_t j = head + i; return ring[j >= ring.size() ? j - ring.size() : j]; }
        void clear() { head = count = 0; }
    };
    LineQueue dirty_;
    std::vector<uint8_t> in_dirty_;

    ClauseArena arena_;  // every clause, crefs its offsets (arena.hpp)
    std::vector<int> moved_from_, moved_to_;  // the last compaction's crefs
    std::vector<std::vector<Watch>> watches_;
    std::vector<int> conflict_lits_;
    std::vector<uint64_t> level_stamp_;  // learn()'s count of levels: the stamp of the last clause with each
    uint64_t stamp_ = 0;
    size_t num_learnts_ = 0;
    double max_learnts_ = 4000;

    // VSIDS: the vars by activity (heap.hpp); the clauses' raise.
    VarOrder order_;
    uint64_t rng_ = 0;  // the seed's stream (splitmix64, heap.hpp)
    double clause_inc_ = 1.0;

    // Target phases: each variable's value on the longest conflict-free trail since the
    // last restart (target_trail_ its length).
    bool target_phases_ = true;
    std::vector<uint8_t> target_phase_;
    size_t target_trail_ = 0;
    void update_target();
    // Phase hints (hints.cpp): decisions take hint_phase_ while hints_now_, which a
    // restart turns off once hint_until_ conflicts have passed.
    int hint_rounds_ = 0, hint_min_open_ = 0;
    long long hint_conflicts_ = 0, follow_conflicts_ = 0, hint_until_ = 0, hint_after_ = 0;
    bool hinted_ = false, hints_now_ = false;
    std::vector<uint8_t> hint_phase_;
    void apply_hints();
    void follow_solution();
    // Lookahead decisions (lookahead.cpp): their settings, the candidates, the saved phases the probes leave alone.
    int lookahead_candidates_ = 0, lookahead_levels_ = 0;
    std::vector<int> lookahead_vars_;
    std::vector<uint8_t> lookahead_phases_;
    int lookahead_branch();
    void restart();
    void shake();
    Signals signals_;  // (signals.cpp)
    bool signals_on_ = false;
    std::vector<uint8_t> phase_seen_;
    void note_conflict(const std::vector<int>& learnt, int back_level);
    bool shake_now();
    ShakeReset shake_reset_ = ShakeReset::both;
    // shake_churn (shake.cpp): the threshold, the phases at the last window's end, the last
    // windows' changed phases (a ring), how many windows were measured, the next window's end.
    int shake_churn_ = 0;
    std::vector<uint8_t> churn_seen_;
    long long churn_flips_[5] = {0, 0, 0, 0, 0};
    long long churn_windows_ = 0, churn_next_ = 0, churn_window_ = 1000;

    bool unsat_ = false, started_ = false;
    std::vector<uint8_t> solution_;
    Counters counters_;
    std::chrono::steady_clock::time_point deadline_;
    long long conflict_limit_ = 0;  // run() pauses at this many conflicts (0: no limit)
    std::atomic<bool> interrupted_{false};

    // Colour (after the black-and-white state, which keeps its layout): the number of
    // values (0: black and white), the mask of them all, each line's automaton, the
    // colour line DP and its domain buffers.
    int values_ = 0;
    uint32_t full_ = 0;
    std::vector<ColourAutomaton> autos_;
    ColourLineDP cdp_;
    std::vector<uint32_t> dom_buf_, dom_out_;

    // Vivification (vivify.cpp): its schedule, and its buffers (the clause tried, its new
    // literals, the round's candidates, literal occurrences, the phases it leaves untouched).
    long long vivify_interval_ = 0, vivify_next_ = 0, vivify_runs_mark_ = 0;
    int vivify_effort_ = 0;
    bool vivify_due_ = false, vivifying_ = false, vivify_probe_ = false;
    std::vector<int> vivify_lits_, vivify_kept_, vivify_candidates_, vivify_occ_;
    std::vector<uint8_t> vivify_phases_;
    void schedule_vivify();
    void vivify();
    bool vivify_clause(int cref);
    void vivify_decisions(Lits from, int skip_var);
    void detach(int cref);
    void attach(int cref);

    // The DRAT log, only when a proof was asked for (proof.hpp).
    std::unique_ptr<ProofLog> proof_;
    void proved_unsat();
    void log_deleted(const int* crefs, size_t count);

    int lit_value(int lit) const { return lit_value_[lit]; }  // 1 true, 0 false, -1 unassigned
    int level() const { return static_cast<int>(trail_lim_.size()); }
    int cell_of(int var) const { return values_ ? var / values_ : var; }
    // A colour cell's domain from the masks of its true and false values.
    uint32_t domain(uint32_t truth, uint32_t falsity) const {
        if (truth) return (truth & (truth - 1)) ? 0u : truth;  // two values true: none fits
        return full_ & ~falsity;
    }
    void setup(std::vector<std::vector<int>>& rows, std::vector<std::vector<int>>& columns);  // moved from
    void solution_from_values();
    // Inline (every assignment and every line it touches): out of line, the calls went
    // through the module's PLT.
    // (always_inline: a line run enqueues in a loop, where the call's saves and restores of
    // registers cost a fifth of the assignment.)
    __attribute__((always_inline)) void enqueue(int lit, Reason kind, int idx) {
        const int v = var_of(lit);
        value_[v] = (lit & 1) ? 0 : 1;
        lit_value_[lit] = 1;
        lit_value_[neg(lit)] = 0;
        if (rows_kept_ | columns_kept_) assign_masks(v, (lit & 1) == 0);
        level_[v] = level();
        trail_pos_[v] = static_cast<int>(trail_.size());
        reason_kind_[v] = kind;
        reason_idx_[v] = idx;
        reason_ready_[v] = 0;
        trail_.push_back(lit);
        if (kind != NONE) ++counters_.propagations;
    }
    void mark_dirty(int line) {
        if (!in_dirty_[line]) {
            in_dirty_[line] = 1;
            dirty_.push(line);
        }
    }
    int propagate();
    int propagate_clauses();
    bool run_line(int line);
    bool run_bit_line(int line);
    bool run_colour_line(int line);
    void explain(int line, int limit_pos, int implied, std::vector<int>& clause);
    void explain_word(int line, int limit_pos, int implied, std::vector<int>& clause);
    void explain_colour(int line, int limit_pos, int implied, std::vector<int>& clause);
    Lits reason(int var);
    void analyze(Lits conflict, std::vector<int>& learnt, int& back_level);
    bool redundant(int lit);
    bool redundant_deep(int lit, uint32_t levels);
    void backtrack(int to_level);
    int add_clause(const std::vector<int>& lits, bool learnt, int lbd);
    int learn(std::vector<int>& learnt, int back_level, bool blocking);
    void block_solution();
    void reduce_db();
    int pick_branch();
    int next_probe();
    bool time_up() const {
        return interrupted_.load(std::memory_order_relaxed) || std::chrono::steady_clock::now() >= deadline_;
    }

    void bump_clause(int cref);
};

}  // namespace lcg
