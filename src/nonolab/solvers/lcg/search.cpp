// The lcg engine's search schedule: when it restarts, which phases its decisions take,
// and what root probing leaves behind (the rest of the search is engine.cpp's).
//
// Restarts.  Luby (unit 100 conflicts; the default) or glucose-style (restart when the
// recent learned clauses' LBD, a moving average, is clearly worse than all of them on
// average).  With modes (set_search), the two alternate as in CaDiCaL and Kissat: a
// focused mode (glucose restarts, decisions take the saved phases: quick, local moves)
// and a stable mode (Luby restarts, the target phases: long dives back to the largest
// consistent assignment seen), each pair of modes twice as long as the last, the
// learned clauses shared.  No single policy is best on the random 25x25 tournament
// grids: glucose restarts find some in a tenth of Luby's conflicts and run away on
// others (benchmarks/log/2026-11-26-tail-3.md).
//
// Rephasing.  Every rephase * k conflicts (k = 1, 2, ...) the saved and the target
// phases are reset, in turn, to the best trail's (the longest conflict-free trail since
// the last such reset), the first phases (the hints, or after a solution its values),
// the best trail's again, the first phases inverted: a search stuck near one wrong
// assignment is moved away from it.
//
// Probe binaries.  Each probe p that root probing propagates without conflict implied
// cells q; the clauses (-p or q) are kept (original, never deleted), so the search
// propagates from p without rerunning the lines.  Each is RUP over the CNF and the
// clauses written before it (the regular encoding's unit propagation finds what the
// lines found: proof.hpp), so a proof stays valid; they are written to it.
#include "engine.hpp"

#include <cmath>

namespace lcg {

namespace {
double luby(double y, int x) {
    int size = 1, seq = 0;
    while (size < x + 1) { ++seq; size = 2 * size + 1; }
    while (size - 1 != x) { size = (size - 1) >> 1; --seq; x = x % size; }
    return std::pow(y, seq);
}
constexpr int kRestartUnit = 100;
}  // namespace

void Engine::set_search(long long modes, long long rephase, bool probe_binaries, long long hint_period) {
    hint_period_ = hint_period > 0 ? hint_period : 0;
    hint_again_at_ = hint_period_;
    mode_conflicts_ = modes > 0 ? modes : 0;
    if (mode_conflicts_) {
        // The first mode is focused, as CaDiCaL's and Kissat's.
        stable_target_ = target_phases_;
        stable_ = false;
        target_phases_ = false;
        mode_length_ = mode_until_ = mode_conflicts_;
    }
    rephase_conflicts_ = rephase > 0 ? rephase : 0;
    rephase_at_ = rephase_conflicts_;
    probe_binaries_ = probe_binaries;
}

// After each conflict: restart, switch modes and rephase when their time has come.
void Engine::schedule_restart() {
    const long long now = counters_.conflicts;
    if (mode_conflicts_ && now >= mode_until_) {
        switch_mode();
    } else if (mode_conflicts_ ? stable_ : restarts_ == 0) {
        if (now >= restart_at_) {
            ++luby_index_;
            restart_at_ = now + static_cast<long long>(kRestartUnit * luby(2.0, luby_index_));
            if (now > 1) restart();
        }
    } else {
        ++since_restart_;
        if (since_restart_ >= 50 && lbd_fast_ * 0.8 > lbd_sum_ / counters_.learned) {
            since_restart_ = 0;
            restart();
        }
    }
    if (hint_period_ && now >= hint_again_at_) {
        hint_again_at_ = now + hint_period_;
        if (counters_.blocking == 0 && !hint_phase_.empty() && hint_conflicts_ > 0) {
            // No solution yet: back to the hinted phases for a while (solutions change them).
            ++counters_.hint_returns;
            hints_now_ = true;
            hint_until_ = now + hint_conflicts_;
            restart();
        }
    }
    if (rephase_conflicts_ && now >= rephase_at_) {
        rephase();
        rephase_at_ = now + rephase_conflicts_ * (rephase_count_ + 1);
    }
}

void Engine::switch_mode() {
    ++counters_.mode_switches;
    stable_ = !stable_;
    if (!stable_) mode_length_ *= 2;  // a focused and a stable mode done: the next pair is longer
    mode_until_ = counters_.conflicts + mode_length_;
    target_phases_ = stable_ && stable_target_;
    if (stable_) restart_at_ = counters_.conflicts + static_cast<long long>(kRestartUnit * luby(2.0, luby_index_));
    since_restart_ = 0;
    restart();
}

// At a conflict: the trail below its level, if the longest since the last rephase.
void Engine::update_best() {
    if (level() == 0) return;
    const size_t consistent = static_cast<size_t>(trail_lim_[level() - 1]);
    if (consistent <= best_trail_) return;
    best_trail_ = consistent;
    best_phase_.resize(nvars_);
    for (int v = 0; v < nvars_; ++v) best_phase_[v] = value_[v] >= 0 ? static_cast<uint8_t>(value_[v]) : saved_phase_[v];
}

void Engine::rephase() {
    const int kind = rephase_count_++ % 4;  // best, first, best, first inverted
    std::vector<uint8_t> phase;
    if (kind % 2 == 0) {
        if (best_phase_.empty()) return;
        phase = best_phase_;
    } else {
        phase = hint_phase_.empty() ? std::vector<uint8_t>(nvars_, 0) : hint_phase_;
        if (kind == 3)
            for (uint8_t& x : phase) x ^= 1;
    }
    ++counters_.rephases;
    saved_phase_ = phase;
    target_phase_ = phase;
    target_trail_ = 0;
    best_trail_ = 0;
}

// At level 1 of a probe that propagated without conflict: (-probe or q) for each q it implied.
void Engine::keep_probe_binaries() {
    const int start = trail_lim_[0];
    const int probe = trail_[start];
    std::vector<int> clause(2);
    for (size_t i = start + 1; i < trail_.size(); ++i) {
        const int a = neg(probe), b = trail_[i];
        const uint64_t key = (static_cast<uint64_t>(std::min(a, b)) << 32) | static_cast<uint32_t>(std::max(a, b));
        if (!probe_pairs_.insert(key).second) continue;  // (-q or p): the same clause, from -q's probe
        clause[0] = b;
        clause[1] = a;
        if (proof_) proof_->add(clause.data(), 2);
        add_clause(clause, false, 2);
        ++counters_.probe_binaries;
    }
}

}  // namespace lcg
