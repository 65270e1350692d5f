// Depth-2 probing (see engine.hpp): full probing to its fixpoint, then probes whose
// trials themselves run contradiction probing (a probe inside each probe).  A value is
// refuted when propagation plus one level of probing refutes it, and the cells both such
// trials agree on are fixed.  Far costlier than depth 1; it grades puzzles between
// probing and search.
#include "engine.hpp"

namespace native {

// A trial that propagates, then runs contradiction probing inside it (on inner_, a
// probing workspace of its own); what either sets goes onto `touched`.
int Engine::deep_trial(std::vector<uint8_t>& scratch, int p, uint8_t value, std::vector<int>& touched) {
    if (trial(scratch, p, value, touched) == 0) return 0;
    return probe(scratch, touched, inner_, CONTRADICTION_PROBING, 1LL << 30, false);
}

// Full probing, then depth-2 probing, until both learn nothing.  Returns 1, 0 on a
// contradiction, or 2 when out of time (after at least one depth-2 trial, so that it
// always progresses; the sweep goes on from deep_next_ at the next call).  Every
// deduction sends it back to the cheaper full probing before the next costly trial.
int Engine::probe_depth2() {
    const int size = static_cast<int>(cells_.size());
    const bool log = settings_.record_steps;
    long long tried = 0, unknown = -1;
    while (true) {
        if (deep_full_first_) {
            const int ok = probe(cells_, trail_, probes_, FULL_PROBING, 1LL << 30, true);
            if (ok != 1) return ok;  // a contradiction, or out of time in its sweep
            deep_quiet_ = 0;
            deep_full_first_ = false;
            unknown = -1;
        }
        if (unknown < 0) {
            unknown = 0;
            probes_.scratch0 = cells_;
            probes_.scratch1 = cells_;
            for (uint8_t v : cells_) unknown += v == 3;
        }
        if (unknown == 0 || deep_quiet_ >= unknown) return 1;
        const int p = static_cast<int>(deep_next_ % size);
        deep_next_ = p + 1;
        if (cells_[p] != 3) continue;
        if (tried > 0 && clock_says_stop()) {
            deep_next_ = p;
            return 2;
        }
        ++tried;
        const int ok0 = deep_trial(probes_.scratch0, p, 1, probes_.touched0);
        const int ok1 = deep_trial(probes_.scratch1, p, 2, probes_.touched1);
        if (!ok0 && !ok1) {
            undo(cells_, probes_.scratch0, probes_.touched0, p);
            undo(cells_, probes_.scratch1, probes_.touched1, p);
            return 0;
        }
        const int agreed = ok0 && ok1 ? agreement(probes_) : 0;
        undo(cells_, probes_.scratch0, probes_.touched0, p);
        undo(cells_, probes_.scratch1, probes_.touched1, p);
        if (ok0 && ok1 && agreed == 0) {
            ++deep_quiet_;
            continue;
        }
        learn(cells_, trail_, p, ok0, ok1, probes_, log, true);
        if (propagate(cells_, &trail_, true, false, false, log) == 0) return 0;
        deep_full_first_ = true;
    }
}

}  // namespace native
