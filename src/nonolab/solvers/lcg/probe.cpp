// What root probing leaves behind for the search (an option, off by default): each probe
// p that propagated without conflict implied cells q, and the clauses (-p or q) are kept
// as original clauses (never deleted; about 500-800 on a 25x25 tournament grid), so the
// search propagates from p without the lines, and conflict analysis meets a two-literal
// reason where a line's explanation would stand.
//
// Proofs stay checkable: each clause is RUP over the CNF and the clauses written before
// it (assuming p and -q, the regular encoding's unit propagation finds what the lines
// found, proof.hpp), so it is written to the proof like a learned clause.
//
// Measured for the tournament tail (benchmarks/log/2026-11-26-search-4.md): fewer
// conflicts on the random 25x25 grids (-12 % over four whole sets), more on the
// survey's Thing and on 15-Dom, so it is not the default.
#include "engine.hpp"

#include <algorithm>

namespace lcg {

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
