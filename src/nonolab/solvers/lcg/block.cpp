// The clause blocking a solution, over fewer decisions (optional: Engine::set_decisive_block).
//
// After a solution the engine blocks it with the negation of its decisions: given the
// decisions, propagation determines the picture.  Often a subset does too (a later
// decision fixes cells that made an earlier one unnecessary), and its negation is a
// shorter clause excluding the same picture and nothing else (no other solution extends
// the subset, since propagation from it gives the whole picture) that also prunes more.
// The subset: the decisions replayed from the root in reverse order, each taken only when
// those before it have not already implied it.  Every clause the engine holds is satisfied
// by the solution (it excludes only pictures found before), so the replay meets no
// conflict; if it ever did, the original decisions are replayed instead.  The proof
// argument of proof.hpp holds unchanged: propagating the subset gives the whole picture.
#include "engine.hpp"

namespace lcg {

bool Engine::replay(const std::vector<int>& decisions, bool skip_implied) {
    backtrack(0);
    for (int lit : decisions) {
        if (lit_value(lit) == 1 && skip_implied) continue;
        if (lit_value(lit) != -1) return false;
        trail_lim_.push_back(static_cast<int>(trail_.size()));
        enqueue(lit, NONE, 0);
        int confl;
        while ((confl = propagate()) == PAUSED) {}
        if (confl != NO_CONFLICT) return false;
    }
    return static_cast<int>(trail_.size()) == nvars_;
}

void Engine::shrink_decisions() {
    const int d = level();
    if (d <= 1) return;
    std::vector<int> decisions;
    for (int i = d - 1; i >= 0; --i) decisions.push_back(trail_[trail_lim_[i]]);  // the latest first
    if (replay(decisions, true)) return;
    std::vector<int> in_order(decisions.rbegin(), decisions.rend());
    replay(in_order, false);  // (not expected: see above)
}

}  // namespace lcg
