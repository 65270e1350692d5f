// Shakes (lcg's `shake` option, off by default): the search's own restart from a new
// random start, keeping what it learned.
//
// Why: lcg's conflicts to a first solution are heavy-tailed over its `seed` (the random
// first order of the vars): on the tournament's ten tail puzzles most seeds need a few
// thousand conflicts and a few 70,000-300,000, and the default (seed 0) is often one of
// the unlucky ones (benchmarks/log/2026-11-27-luck-12.md).  A heavy tail is what restarts
// with randomisation cut (Gomes, Selman and Kautz, 1998; Luby, Sinclair and Zuckerman's
// schedule): a run that has not found the solution within its budget is abandoned for a
// new random one.  Here the new run is the old engine's: the learned clauses stay (they
// are implied by the clues, so they only prune), while what steers the search to one
// region, the VSIDS activities and the saved and target phases, is reset to a fresh
// seed's start: random activities, the phase hints (or empty cells without hints) taken
// by the decisions for hint_conflicts again.  Only before the first solution: counting
// (and proving there is no other) is not a matter of luck in the same way.  `shake_after`
// delays the schedule (SearchPolicy::set_shake): a search that finds its solution within the
// delay is the one without shakes, conflict for conflict, so the shakes reach only the tail.
// `shake_reset` chooses what a shake resets: both (the default), the activities alone (the
// phases go on as they were) or the phases alone (the activities the search built kept).
//
// `shake_churn` spares a search that is getting somewhere.  A shake helps the tournament's
// unlucky runs and ruins 15-Dom's long first search, and the two differ in how much of their
// phases they keep: measured every 1,000 conflicts (signals.cpp), the tail's runs change
// 22-41 % of their saved phases a window (the mean of five windows, every run of the 20
// slowest at seeds 0-2), 15-Dom's 8-13 % (seeds 0-2, to its first solution), steady on
// both over the whole run (benchmarks/log/2026-11-28-signal-21.md).  A search that keeps its
// phases returns to one large consistent assignment and refines it (15-Dom's longest
// conflict-free trail is 85 % of its cells); one that churns keeps little a restart would lose.
#include "engine.hpp"

#include <algorithm>

namespace lcg {

bool Engine::shake_now() {
    if (shake_churn_ > 0 && counters_.conflicts >= churn_next_) {
        // A window's end: count the saved phases that changed since the last one.
        churn_next_ = counters_.conflicts + churn_window_;
        if (!churn_seen_.empty()) {
            long long flips = 0;
            for (size_t v = 0; v < saved_phase_.size(); ++v) flips += saved_phase_[v] != churn_seen_[v];
            churn_flips_[churn_windows_++ % 5] = flips;
        }
        churn_seen_ = saved_phase_;
    }
    if (!policy_.shake_due(counters_.conflicts)) return false;
    if (shake_churn_ == 0) return true;
    // Churning: five windows measured, and their changed phases at least shake_churn_ % of the vars.
    const long long flips = churn_flips_[0] + churn_flips_[1] + churn_flips_[2] + churn_flips_[3] + churn_flips_[4];
    const bool churning = churn_windows_ >= 5 && 100 * flips >= 5LL * shake_churn_ * nvars_;
    if (!churning) ++counters_.shakes_spared;
    return churning;
}

void Engine::shake() {
    ++counters_.shakes;
    restart();
    if (shake_reset_ != ShakeReset::phases) order_.rerandomise(rng_);
    if (shake_reset_ == ShakeReset::activities) return;
    if (!hint_phase_.empty()) {
        saved_phase_ = target_phase_ = hint_phase_;
        hint_until_ = counters_.conflicts + hint_conflicts_;
        hints_now_ = hint_conflicts_ > 0;
    } else {
        std::fill(saved_phase_.begin(), saved_phase_.end(), 0);
        std::fill(target_phase_.begin(), target_phase_.end(), 0);
    }
}

}  // namespace lcg
