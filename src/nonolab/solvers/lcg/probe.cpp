// Root probing's extras (engine.cpp runs the probes).  Binary clauses for the search (an
// option, off by default): each probe p that propagated without conflict implied cells q, and the clauses (-p or q) are kept
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
#include "hints.hpp"

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

// At level 1 of a probe p that propagated without conflict: each literal q it implied is
// stamped with the root's size, and next_probe() skips q while the root is the same.
// Propagation (lines and clauses) is monotone and runs to its fixpoint, so q's own probe
// would find a subset of what p's found: no conflict, nothing learned.  A failed probe
// adds a unit and the root only grows, so its size names it.  What the skipped probe
// would still have left behind: the saved phases of the cells it set, which the phase
// hints overwrite before the first decision, so the skip is taken only when the hints
// will run (black and white, lines of at most HINT_MAX_CELLS) and nothing else records
// the probes (probe_binaries).  The search is then the same, with 30 % fewer probes on
// 25x25 tournament grids; only probing's budget, counted in line runs, lasts longer (it
// never ran out on taai2011 or icga2017: the same conflicts on all 2000 grids).  With
// hint_after the first decisions do take the phases the probes left, so there the skip
// is part of that (different) search.
void Engine::note_implied_by_probe() {
    if (!skip_implied_probes_ || probe_binaries_ || hint_rounds_ <= 0 || values_ != 0 ||
        std::max(width_, height_) > HINT_MAX_CELLS)
        return;
    if (implied_at_root_.empty()) implied_at_root_.assign(2 * static_cast<size_t>(nvars_), 0);
    const int root = trail_lim_[0];
    for (size_t i = root + 1; i < trail_.size(); ++i) implied_at_root_[trail_[i]] = root + 1;
}

}  // namespace lcg
