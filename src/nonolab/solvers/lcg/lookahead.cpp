// Lookahead decisions (lcg's `lookahead` option, off by default): near the root, the
// decision's cell is chosen by trying each value of a few candidates, as nonosolve and
// LalaFrogKK choose theirs at every node, instead of by VSIDS alone.
//
// Why: a line-by-line propagator never sees what two crossing lines say together; a
// probe (decide a value, run every line to its fixpoint, undo) does.  Near the root a
// decision steers the whole subtree below it, so there it pays to decide the cell whose
// two values force the most (the product of the two probes' forced cells, march's and
// the lookahead solvers' score): the subtree is small on both sides.  The candidates are
// the `candidates` most active open vars (VSIDS still says where the conflicts are), only
// at decision levels below `levels`, so the cost stays a few probes a restart.
//
// A probe that fails is a failed literal: it is decided, and the main loop's propagation
// meets the same conflict and learns its negation (a clause like any other, so a DRAT
// proof stays valid and the counts exact).  The probes leave no trace: the saved phases
// they overwrite on the way back are restored, and no activity is raised.
#include "engine.hpp"

namespace lcg {

int Engine::lookahead_branch() {
    // The `candidates` most active open vars, taken out of the heap and put back (an
    // assigned var on the way is dropped, as pick_branch drops it).
    lookahead_vars_.clear();
    while (static_cast<int>(lookahead_vars_.size()) < lookahead_candidates_ && !order_.empty()) {
        const int v = order_.pop();
        if (value_[v] < 0) lookahead_vars_.push_back(v);
    }
    for (int v : lookahead_vars_) order_.insert(v);
    if (lookahead_vars_.size() < 2) return pick_branch();
    ++counters_.lookaheads;
    const long long runs_before = counters_.line_runs;
    lookahead_phases_ = saved_phase_;
    const int base = level();
    const size_t before = trail_.size();
    int best = -1, failed = -1;
    long long best_score = -1;
    for (int v : lookahead_vars_) {
        long long forced[2] = {0, 0};
        for (int value = 1; value >= 0 && failed < 0; --value) {
            const int lit = lit_of(v, value == 1);
            ++counters_.lookahead_probes;
            trail_lim_.push_back(static_cast<int>(trail_.size()));
            enqueue(lit, NONE, 0);
            const int confl = propagate();
            forced[value] = static_cast<long long>(trail_.size() - before);
            backtrack(base);
            if (confl == PAUSED) { failed = -2; break; }
            if (confl != NO_CONFLICT) failed = lit;
        }
        if (failed != -1) break;
        const long long score = (forced[0] + 1) * (forced[1] + 1);
        if (score > best_score) { best_score = score; best = v; }
    }
    saved_phase_.swap(lookahead_phases_);
    counters_.lookahead_line_runs += counters_.line_runs - runs_before;
    if (failed >= 0) {
        ++counters_.lookahead_failed;
        return failed;  // the main loop's propagation finds its conflict again and learns from it
    }
    if (failed == -2) return pick_branch();  // the clock ran out: the next propagation pauses
    const std::vector<uint8_t>& phase =
        hints_now_ ? hint_phase_ : target_phases_ && policy_.target_phases() ? target_phase_ : saved_phase_;
    return lit_of(best, phase[best] == 1);
}

}  // namespace lcg
