// The lcg engine: conflict-driven clause learning over the cell literals.
//
// Propagators.  Every row and column is one propagator: the complete line DP of
// line.hpp run on the line's current partial assignment.  A line is re-run only
// when one of its cells changed since its last run (the dirty queue; the line that
// forced a cell is not re-run for it, as the DP is idempotent).  Each forced cell
// is a propagation whose reason is generated lazily, only when conflict analysis
// asks for it: the line's cells assigned before it (by trail position) with the
// opposite value on the forced cell are infeasible, and the reason is minimised
// greedily (drop each cell whose removal keeps the line infeasible, checked with
// the DP's forward pass; cells of later decision levels are tried first, and
// within a level right to left, so a check recomputes only the table after the
// cell).  A line with no arrangement is a conflict explained the same way.
// Root-level cells are kept in the checks but never appear in a clause.  Explanations
// of lines up to 63 cells are remembered by their whole input (analysis.cpp).  A cache
// keyed by the exact line state saves most DP runs (states recur after
// backjumps).  Lines of at most 127 cells (nearly every puzzle's) run the same DP
// and checks on bit sets, a row of the tables per word (bitline.hpp, lines.cpp):
// the same answers, several times faster.
//
// Search.  Two watched literals for learned and blocking clauses (all kept in one
// flat arena, each clause's literals after its header: arena.hpp), first-UIP
// analysis with recursive clause minimisation, VSIDS, Luby restarts (unit 100
// conflicts; glucose-style LBD restarts as an option), learned-clause deletion by
// LBD then activity.  Target phases (as in CaDiCaL and Kissat): at a conflict, when
// the trail below the conflict's level (assigned without conflict) is longer than
// any since the last restart, every phase is copied from it (an open variable keeps
// its saved phase) and decisions take these phases, so the search returns to the
// largest consistent assignment seen, not the last one (phase saving: an option).
//
// Phase hints (optional, hints.cpp): before the first decision, belief propagation
// between the rows and the columns estimates each open cell's chance of being filled;
// decisions take those phases for a number of conflicts (then the target phases), and
// after a solution its values (the search for another one starts around it).
//
// Root probing (optional, within a budget of line runs): before the first
// decision, each open cell is tried with each value on a level of its own; a
// failed probe is a conflict like any other (its learned unit fixes the cell); a
// literal an earlier probe implied at the same root is not probed (it cannot fail);
// optionally what each successful probe implied is kept as binary clauses (probe.cpp).
//
// Vivification (optional, vivify.cpp): every N conflicts a restart, and at the root learned
// clauses are shortened by deciding their literals' negations and propagating.
//
// Counting.  After a solution, a clause blocking its decision literals is added (the
// decisions and propagation determine the picture, so it excludes that picture and
// nothing else) and the search goes on; the count is exact once the formula is
// unsatisfiable.
#include "engine.hpp"

#include <algorithm>
#include <cmath>

namespace lcg {

namespace {
constexpr double kClauseDecay = 0.999;
}  // namespace

Engine::Engine(int width, int height, std::vector<std::vector<int>> rows, std::vector<std::vector<int>> columns,
               int minimise, int bands, int restarts, long long probe_budget)
    : width_(width), height_(height), nvars_(width * height), minimise_(minimise), bands_(bands),
      policy_(restarts), probing_(probe_budget > 0), probe_budget_(probe_budget) {
    setup(rows, columns);
}

// The state every constructor shares, once nvars_ and values_ are set; the clues are moved
// into line_clue_ (rows and columns are left empty).
void Engine::setup(std::vector<std::vector<int>>& rows, std::vector<std::vector<int>>& columns) {
    const int width = width_, height = height_, nlines = height + width;
    line_cells_.resize(nlines);
    line_clue_.resize(nlines);
    for (int r = 0; r < height; ++r) {
        line_cells_[r].resize(width);
        for (int c = 0; c < width; ++c) line_cells_[r][c] = r * width + c;
        line_clue_[r] = std::move(rows[r]);
    }
    for (int c = 0; c < width; ++c) {
        line_cells_[height + c].resize(height);
        for (int r = 0; r < height; ++r) line_cells_[height + c][r] = r * width + c;
        line_clue_[height + c] = std::move(columns[c]);
    }
    int longest = std::max(width, height);
    state_buf_.assign(longest, 3);
    out_buf_.assign(longest, 0);
    value_.assign(nvars_, -1);
    lit_value_.assign(2 * static_cast<size_t>(nvars_), -1);
    level_.assign(nvars_, 0);
    trail_pos_.assign(nvars_, 0);
    reason_idx_.assign(nvars_, 0);
    reason_kind_.assign(nvars_, NONE);
    saved_phase_.assign(nvars_, 0);
    seen_.assign(nvars_, 0);
    reason_cache_.resize(nvars_);
    reason_ready_.assign(nvars_, 0);
    in_dirty_.assign(nlines, 0);
    dirty_.reset(nlines);
    watches_.resize(2 * static_cast<size_t>(nvars_));
    order_.reset(nvars_);
    solution_.assign(values_ ? nvars_ / values_ : nvars_, 0);
    trail_.reserve(nvars_);
    for (int l = 0; l < nlines; ++l) mark_dirty(l);
    target_phase_.assign(nvars_, 0);
    var_row_.resize(nvars_);
    var_column_.resize(nvars_);
    for (int v = 0; v < nvars_; ++v) {
        var_row_[v] = cell_of(v) / width;
        var_column_[v] = height + cell_of(v) % width;
    }
    // Black-and-white lines that fit in the bit sets are solved there (bitline.hpp).
    bit_line_.assign(nlines, 0);
    line_fits_.assign(nlines, 0);
    line_rclue_.resize(nlines);
    bool wide = values_ != 0, wide_bits = false;
    for (int l = 0; l < nlines; ++l) {
        const std::vector<int>& clue = line_clue_[l];
        line_rclue_[l].assign(clue.rbegin(), clue.rend());
        bool usable = values_ == 0 && static_cast<int>(line_cells_[l].size()) <= BitLine::MAX_CELLS;
        for (int len : clue) usable = usable && len > 0;
        bit_line_[l] = !usable ? 0 : static_cast<int>(line_cells_[l].size()) <= BitLine64::MAX_CELLS ? 1 : 2;
        line_fits_[l] = BitLine64::fits(clue.data(), static_cast<int>(clue.size()), static_cast<int>(line_cells_[l].size()));
        wide = wide || !usable;
        wide_bits = wide_bits || bit_line_[l] == 2;
    }
    if (!wide) longest = 1;  // the byte cache below is never used
    rows_kept_ = values_ == 0 && width <= BitLine::MAX_CELLS;
    columns_kept_ = values_ == 0 && height <= BitLine::MAX_CELLS;
    line_may_empty_.assign(2 * static_cast<size_t>(nlines), 0);
    for (int l = 0; l < nlines; ++l) {
        if (!(l < height ? rows_kept_ : columns_kept_)) continue;
        const Bits all = BitLine::low(l < height ? width : height);
        line_may_empty_[2 * l] = static_cast<uint64_t>(all);
        line_may_empty_[2 * l + 1] = static_cast<uint64_t>(all >> 64);
    }
    line_may_fill_ = line_may_empty_;
    line_root_.assign(line_may_empty_.size(), 0);
    // About 32 MB of cache at most (key and result per slot), 2^16 slots at most.
    const size_t line_bytes = static_cast<size_t>(longest) * (values_ ? sizeof(uint32_t) : 1);
    size_t slots = 1;
    while (slots < (1u << 16) && slots * 2 * 2 * line_bytes <= (32u << 20)) slots *= 2;
    cache_.resize(wide ? slots : 1);
    cache_mask_ = cache_.size() - 1;
    // 80 bytes a slot, 2^14 at most (1.3 MB, measured best on Gettys); it starts at 2^10
    // and grows with use (lines.cpp): filling 1.3 MB took 0.2 ms of every solve.  Only
    // lines of 64-127 cells use it (lines.cpp): a grid without one has a single slot.
    bit_cache_.resize(wide_bits ? kFirstBitSlots : 1);
    bit_cache_mask_ = bit_cache_.size() - 1;
}

bool Engine::fix(int cell, bool filled) {
    const int lit = lit_of(cell, filled);
    const int now = lit_value(lit);
    if (now == 1) return true;
    if (now == 0) { unsat_ = true; return false; }
    enqueue(lit, NONE, 0);
    return true;
}

int Engine::propagate_clauses() {
    while (qhead_ < trail_.size()) {
        const int p = trail_[qhead_++];
        const int v = var_of(p);
        const int own = reason_kind_[v] == LINE ? reason_idx_[v] : -1;
        const int row = var_row_[v], col = var_column_[v];
        if (row != own) mark_dirty(row);
        if (col != own) mark_dirty(col);
        const int false_lit = neg(p);
        std::vector<Watch>& ws = watches_[false_lit];
        // Pointers into ws (the watches a clause moves to are another literal's list).
        Watch* i = ws.data();
        Watch* j = i;
        Watch* const end = i + ws.size();
        while (i != end) {
            const Watch w = *i++;
            if (lit_value(w.blocker) == 1) { *j++ = w; continue; }
            // The next watch's clause is asked for now (most of this loop's time is
            // waiting for clauses): it arrives while this one is handled.
            if (i != end && lit_value(i->blocker) != 1) {
                const int next = i->cref;
                __builtin_prefetch(arena_.lits(next < 0 ? ~next : next));
            }
            if (w.cref < 0) {
                // A binary clause (see Watch): its other literal is the blocker, so
                // nothing is read from the arena; its literals are written in the
                // order the general case below leaves them (analysis reads them).
                const int cref = ~w.cref;
                int* c = arena_.lits(cref);
                c[0] = w.blocker;
                c[1] = false_lit;
                *j++ = w;
                if (lit_value(w.blocker) == 0) {
                    while (i != end) *j++ = *i++;
                    ws.resize(static_cast<size_t>(j - ws.data()));
                    return cref;
                }
                enqueue(w.blocker, CLAUSE, cref);
                continue;
            }
            int* c = arena_.lits(w.cref);
            const int size = arena_.size(w.cref);
            if (c[0] == false_lit) std::swap(c[0], c[1]);
            const int first = c[0];
            if (first != w.blocker && lit_value(first) == 1) { *j++ = {w.cref, first}; continue; }
            bool moved = false;
            for (int k = 2; k < size; ++k) {
                if (lit_value(c[k]) != 0) {
                    std::swap(c[1], c[k]);
                    watches_[c[1]].push_back({w.cref, first});
                    moved = true;
                    break;
                }
            }
            if (moved) continue;
            *j++ = {w.cref, first};
            if (lit_value(first) == 0) {
                while (i != end) *j++ = *i++;
                ws.resize(static_cast<size_t>(j - ws.data()));
                return w.cref;
            }
            enqueue(first, CLAUSE, w.cref);
        }
        ws.resize(static_cast<size_t>(j - ws.data()));
    }
    return NO_CONFLICT;
}

int Engine::propagate() {
    long long runs = 0;
    for (;;) {
        const int confl = propagate_clauses();
        if (confl >= 0) return confl;
        if (dirty_.empty()) return NO_CONFLICT;
        const int line = dirty_.pop();
        in_dirty_[line] = 0;
        if (!run_line(line)) return LINE_CONFLICT;
        if ((++runs & 255) == 0 && !vivifying_ && time_up()) return PAUSED;  // (vivify.cpp: never cut)
    }
}

void Engine::backtrack(int to_level) {
    if (level() <= to_level) return;
    const int stop = trail_lim_[to_level];
    for (int i = static_cast<int>(trail_.size()) - 1; i >= stop; --i) {
        const int v = var_of(trail_[i]);
        saved_phase_[v] = static_cast<uint8_t>(value_[v]);
        value_[v] = -1;
        lit_value_[2 * v] = lit_value_[2 * v + 1] = -1;
        if (rows_kept_ | columns_kept_) keep_masks(v, -1);
        reason_ready_[v] = 0;
        if (!order_.contains(v)) order_.insert(v);
    }
    trail_.resize(stop);
    trail_lim_.resize(to_level);
    qhead_ = trail_.size();
    for (size_t i = 0; i < dirty_.count; ++i) in_dirty_[dirty_.at(i)] = 0;
    dirty_.clear();
}

int Engine::add_clause(const std::vector<int>& lits, bool learnt, int lbd) {
    const int cref = arena_.add(lits, learnt, lbd, clause_inc_);
    const int tag = lits.size() == 2 ? ~cref : cref;
    watches_[lits[0]].push_back({tag, lits[1]});
    watches_[lits[1]].push_back({tag, lits[0]});
    if (learnt) ++num_learnts_;
    return cref;
}

int Engine::learn(std::vector<int>& learnt, int back_level, bool blocking) {
    if (proof_) proof_->add(learnt.data(), static_cast<int>(learnt.size()));
    backtrack(back_level);
    if (learnt.size() == 1) {
        enqueue(learnt[0], NONE, 0);  // a root-level fact
        return 1;
    }
    // LBD: the number of distinct decision levels in the clause (each level marked with
    // this clause's stamp: no vector to allocate and sort at every conflict).
    if (level_stamp_.empty()) level_stamp_.assign(static_cast<size_t>(nvars_) + 1, 0);  // (a level per var at most)
    ++stamp_;
    int lbd = 0;
    for (int q : learnt) {
        uint64_t& mark = level_stamp_[level_[var_of(q)]];
        if (mark != stamp_) { mark = stamp_; ++lbd; }
    }
    const int cref = add_clause(learnt, !blocking, lbd);
    enqueue(learnt[0], CLAUSE, cref);
    return lbd;
}

void Engine::block_solution() {
    ++counters_.blocking;
    const int d = level();
    if (d == 0) { proved_unsat(); return; }
    std::vector<int> clause;
    for (int i = d - 1; i >= 0; --i) clause.push_back(neg(trail_[trail_lim_[i]]));
    learn(clause, d >= 2 ? d - 1 : 0, true);
}

void Engine::reduce_db() {
    ++counters_.reductions;
    std::vector<int> candidates;
    for (int cref = 0; cref < arena_.end(); cref = arena_.next(cref)) {
        if (!arena_.learnt(cref) || arena_.deleted(cref) || arena_.lbd(cref) <= 2) continue;
        const int v = var_of(arena_.lits(cref)[0]);
        const bool locked = value_[v] >= 0 && reason_kind_[v] == CLAUSE && reason_idx_[v] == cref;
        if (!locked) candidates.push_back(cref);
    }
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
        if (arena_.lbd(a) != arena_.lbd(b)) return arena_.lbd(a) > arena_.lbd(b);
        return arena_.activity(a) < arena_.activity(b);
    });
    for (size_t i = 0; i < candidates.size() / 2; ++i) arena_.mark_deleted(candidates[i]);
    if (proof_) log_deleted(candidates.data(), candidates.size() / 2);
    // Compact the arena (the kept clauses in their order) and rebuild the watches
    // from positions 0 and 1.
    arena_.compact(moved_from_, moved_to_);
    num_learnts_ = 0;
    for (auto& ws : watches_) ws.clear();
    for (int cref = 0; cref < arena_.end(); cref = arena_.next(cref)) {
        if (arena_.learnt(cref)) ++num_learnts_;
        const int* c = arena_.lits(cref);
        const int tag = arena_.size(cref) == 2 ? ~cref : cref;
        watches_[c[0]].push_back({tag, c[1]});
        watches_[c[1]].push_back({tag, c[0]});
    }
    for (int lit : trail_) {
        const int v = var_of(lit);
        if (reason_kind_[v] == CLAUSE) reason_idx_[v] = ClauseArena::moved(moved_from_, moved_to_, reason_idx_[v]);
    }
    max_learnts_ *= 1.1;
}

int Engine::next_probe() {
    if (counters_.line_runs - probe_start_runs_ > probe_budget_) return -1;
    while (probe_next_ < 2 * nvars_) {
        const int lit = probe_next_++;
        if (value_[var_of(lit)] >= 0) continue;
        if (!implied_by_probe(lit)) return lit;
        ++counters_.probes_skipped;
    }
    return -1;
}

int Engine::pick_branch() {
    const std::vector<uint8_t>& phase =
        hints_now_ ? hint_phase_ : target_phases_ && policy_.target_phases() ? target_phase_ : saved_phase_;
    while (!order_.empty()) {
        const int v = order_.pop();
        if (value_[v] < 0) return lit_of(v, phase[v] == 1);
    }
    return -1;
}

void Engine::update_target() {
    if (level() == 0) return;
    const size_t consistent = static_cast<size_t>(trail_lim_[level() - 1]);
    if (policy_.tracks_best()) policy_.note_trail(consistent, value_, saved_phase_);  // (policy.cpp)
    if (!target_phases_ || consistent <= target_trail_) return;
    target_trail_ = consistent;
    ++counters_.target_updates;
    for (int v = 0; v < nvars_; ++v)
        target_phase_[v] = value_[v] >= 0 ? static_cast<uint8_t>(value_[v]) : saved_phase_[v];
}

RunResult Engine::run(double seconds, long long conflicts) {
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    conflict_limit_ = conflicts > 0 ? counters_.conflicts + conflicts : 0;
    if (unsat_) return EXHAUSTED;
    std::vector<int> learnt;
    for (;;) {
        const int confl = propagate();
        if (confl == PAUSED) return BUDGET;
        if (confl != NO_CONFLICT) {
            ++counters_.conflicts;
            if (confl >= 0 && arena_.learnt(confl)) bump_clause(confl);
            const Lits lits = confl == LINE_CONFLICT ? Lits{conflict_lits_.data(), static_cast<int>(conflict_lits_.size())}
                                                     : arena_.view(confl);
            int top = 0;
            for (int q : lits) top = std::max(top, level_[var_of(q)]);
            if (top == 0) { proved_unsat(); return EXHAUSTED; }
            // A conflict whose literals all lie below the current level (only possible
            // if a lower level was left unpropagated) is analysed at its own level.
            if (top < level()) backtrack(top);
            update_target();
            int back_level = 0;
            analyze(lits, learnt, back_level);
            ++counters_.learned;
            counters_.learned_literals += static_cast<long long>(learnt.size());
            if (signals_on_) note_conflict(learnt, back_level);  // (signals.cpp)
            const int lbd = learn(learnt, back_level, false);
            // Restarts, modes and rephasing: policy.cpp.
            order_.decay(policy_.var_decay());
            clause_inc_ /= kClauseDecay;
            if (policy_.restart_due(counters_.conflicts, lbd)) restart();
            if (policy_.switch_due(counters_.conflicts)) {
                ++counters_.mode_switches;
                restart();
            }
            const Rephase rephase = policy_.rephase_due(counters_.conflicts);
            if (rephase != Rephase::NONE) {
                ++counters_.rephases;
                policy_.rephase(rephase, saved_phase_);
                target_phase_ = saved_phase_;
                target_trail_ = 0;
            }
            if (counters_.blocking == 0 && shake_now()) shake();  // (shake.cpp)
            if (static_cast<double>(num_learnts_) >= max_learnts_) reduce_db();
            if (vivify_interval_ > 0 && counters_.conflicts >= vivify_next_) schedule_vivify();  // (vivify.cpp)
            if (hint_after_ > 0 && !hinted_ && !probing_ && counters_.conflicts >= hint_after_) restart();  // (hints.cpp)
            if (time_up() || (conflict_limit_ && counters_.conflicts >= conflict_limit_)) return BUDGET;
        } else {
            if (probing_) {
                // Root probing: each unassigned cell, each value, on a level of its
                // own; a failed probe is a conflict learned from as any other.
                if (probe_binaries_ && level() == 1) keep_probe_binaries();  // (probe.cpp)
                if (level() == 1) note_implied_by_probe();
                backtrack(0);
                const int probe = next_probe();
                if (probe >= 0) {
                    ++counters_.probes;
                    trail_lim_.push_back(static_cast<int>(trail_.size()));
                    enqueue(probe, NONE, 0);
                    continue;
                }
                probing_ = false;
                counters_.probe_line_runs = counters_.line_runs - probe_start_runs_;
            }
            if (vivify_due_) { vivify(); continue; }  // at the root, after a restart (vivify.cpp)
            if (!hinted_ && counters_.conflicts >= hint_after_) apply_hints();
            if (policy_.wants_original()) policy_.keep_original(saved_phase_);  // (policy.cpp)
            const int decision =
                level() < lookahead_levels_ && lookahead_candidates_ > 1 ? lookahead_branch() : pick_branch();
            if (decision < 0) {
                if (values_) solution_from_values();
                else for (int v = 0; v < nvars_; ++v) solution_[v] = static_cast<uint8_t>(value_[v]);
                if (!hint_phase_.empty()) follow_solution();
                block_solution();
                return SOLUTION;
            }
            ++counters_.decisions;
            trail_lim_.push_back(static_cast<int>(trail_.size()));
            enqueue(decision, NONE, 0);
            if ((counters_.decisions & 63) == 0 && time_up()) return BUDGET;
        }
    }
}

void Engine::restart() {
    ++counters_.restarts;
    hints_now_ = hints_now_ && counters_.conflicts < hint_until_;  // (hints.cpp)
    backtrack(0);
    target_trail_ = 0;
}

}  // namespace lcg
