// Search signals (a study aid, off unless asked: Engine::take_signals): sums over the
// conflicts since the last take, so a caller running the search in chunks of conflicts
// sees how it moves: the learned clauses' LBD and size, the decision level at the
// conflict and the level it jumps back to, the trail, the longest conflict-free trail,
// and how many saved phases changed.  Why: a shake (shake.cpp) helps the tail's unlucky
// runs but destroys a long search that was making progress (15-Dom); these are the
// candidates for telling the two apart (benchmarks/log/2026-11-28-signal-21.md).
#include "engine.hpp"

namespace lcg {

void Engine::note_conflict(const std::vector<int>& learnt, int back_level) {
    ++signals_.conflicts;
    ++stamp_;
    if (level_stamp_.empty()) level_stamp_.assign(static_cast<size_t>(nvars_) + 1, 0);
    int lbd = 0;
    for (int q : learnt) {
        uint64_t& mark = level_stamp_[level_[var_of(q)]];
        if (mark != stamp_) { mark = stamp_; ++lbd; }
    }
    signals_.lbd += lbd;
    signals_.learned_size += static_cast<long long>(learnt.size());
    signals_.conflict_level += level();
    signals_.back_level += back_level;
    signals_.trail += static_cast<long long>(trail_.size());
    const long long consistent = level() > 0 ? trail_lim_[level() - 1] : 0;
    if (consistent > signals_.max_consistent) signals_.max_consistent = consistent;
    if (2 * back_level < level()) ++signals_.far_jumps;
}

Signals Engine::take_signals() {
    Signals taken = signals_;
    signals_on_ = true;
    if (phase_seen_.size() != saved_phase_.size()) phase_seen_ = saved_phase_;
    for (size_t v = 0; v < saved_phase_.size(); ++v)
        if (saved_phase_[v] != phase_seen_[v]) ++taken.phase_flips;
    phase_seen_ = saved_phase_;
    taken.root = level() > 0 ? trail_lim_[0] : static_cast<long long>(trail_.size());
    signals_ = Signals{};
    return taken;
}

}  // namespace lcg
