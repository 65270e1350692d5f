// lcg's restarts, modes and rephasing (policy.hpp).
//
// Why modes: on the tournament tail lcg's runs differ by restart and phase luck, not by
// work a conflict: glucose restarts found six of ten tail puzzles in 1,100-10,800
// conflicts where Luby with target phases took 68,000-164,000, and ran away on the
// other four (benchmarks/log/2026-11-26-tail-3.md).  Two engines taking turns doubled
// the unlucky half, as they share nothing; modes take the turns inside one search, so
// what one mode learns (clauses, activities, phases) the other starts from.  Measured
// (benchmarks/log/2026-11-27-tail-7.md): the ten tail puzzles fall to a quarter or a half
// of their conflicts, but whole sets rise 5-12 % and 15-Dom's first solution 4x, so the
// modes and rephasing are options, off: they reshuffle the luck rather than remove it.
#include "policy.hpp"

#include <cmath>

namespace lcg {

namespace {
// The Luby sequence's x-th term, with y^k in place of 2^k (MiniSat's).
double luby(double y, int x) {
    int size = 1, seq = 0;
    while (size < x + 1) { ++seq; size = 2 * size + 1; }
    while (size - 1 != x) { size = (size - 1) >> 1; --seq; x = x % size; }
    return std::pow(y, seq);
}
}  // namespace

void SearchPolicy::set_modes(const ModeSettings& modes) {
    modes_ = modes;
    if (!switching()) return;
    focused_ = modes_.first == 2;
    mode_length_ = static_cast<double>(modes_.conflicts);
    switch_at_ = modes_.conflicts;
}

bool SearchPolicy::luby_due(long long conflicts) {
    if (conflicts < restart_at_) return false;
    ++luby_index_;
    restart_at_ = conflicts + static_cast<long long>(kRestartUnit * luby(2.0, luby_index_));
    return conflicts > 1;
}

bool SearchPolicy::glucose_due() {
    // Restart when the recent learned clauses (a moving average of their LBD) are
    // clearly worse than all of them on average.
    ++since_restart_;
    if (since_restart_ >= 50 && lbd_fast_ * 0.8 > lbd_sum_ / static_cast<double>(learned_)) {
        since_restart_ = 0;
        return true;
    }
    return false;
}

bool SearchPolicy::restart_due(long long conflicts, int lbd) {
    ++learned_;
    lbd_sum_ += lbd;
    lbd_fast_ += (lbd - lbd_fast_) / 32.0;
    const bool glucose = switching() ? focused_ : restarts_ != 0;
    return glucose ? glucose_due() : luby_due(conflicts);
}

bool SearchPolicy::switch_due(long long conflicts) {
    if (!switching() || conflicts < switch_at_) return false;
    focused_ = !focused_;
    mode_length_ *= modes_.growth;
    switch_at_ = conflicts + static_cast<long long>(mode_length_);
    // Each mode's restarts start afresh (the Luby sequence goes on where it stopped).
    since_restart_ = 0;
    if (!focused_) restart_at_ = conflicts + static_cast<long long>(kRestartUnit * luby(2.0, luby_index_));
    return true;
}

Rephase SearchPolicy::rephase_due(long long conflicts) {
    if (rephase_base_ <= 0 || conflicts < rephase_at_) return Rephase::NONE;
    ++rephases_;
    rephase_at_ = conflicts + rephase_base_ * (rephases_ + 1);
    // Best, original, best, flipped, and again: the best trail half of the time (what
    // the search knows), the others to leave it (CaDiCaL's and Kissat's cycles are alike;
    // the inverted phase, every cell filled, is left out: no nonogram is mostly filled).
    static constexpr Rephase cycle[] = {Rephase::BEST, Rephase::ORIGINAL, Rephase::BEST, Rephase::FLIPPED};
    return cycle[(rephases_ - 1) % 4];
}

bool SearchPolicy::shake_due(long long conflicts) {
    if (shake_unit_ <= 0 || conflicts < shake_at_) return false;
    ++shake_index_;
    shake_at_ = conflicts + static_cast<long long>(static_cast<double>(shake_unit_) * luby(2.0, shake_index_ - 1));
    return true;
}

void SearchPolicy::note_trail(size_t consistent, const std::vector<int8_t>& value, const std::vector<uint8_t>& saved) {
    if (consistent <= best_trail_) return;
    best_trail_ = consistent;
    best_phase_.resize(value.size());
    for (size_t v = 0; v < value.size(); ++v) best_phase_[v] = value[v] >= 0 ? static_cast<uint8_t>(value[v]) : saved[v];
}

void SearchPolicy::rephase(Rephase kind, std::vector<uint8_t>& saved) {
    switch (kind) {
        case Rephase::BEST:
            if (!best_phase_.empty()) saved = best_phase_;
            best_trail_ = 0;  // the next best is the best since this rephase
            break;
        case Rephase::ORIGINAL:
            if (!original_.empty()) saved = original_;
            break;
        case Rephase::FLIPPED:
            for (uint8_t& p : saved) p ^= 1;
            break;
        case Rephase::NONE:
            break;
    }
}

}  // namespace lcg
