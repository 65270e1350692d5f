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
//
// Line binaries (another option, off): before the first decision, for each line, each
// open cell and each value, the line alone (its clue, the root's cells) is solved with
// that cell set, and (-cell or q) kept for every cell q it forces.  These are the cell
// form of "block j cannot start here once this cell is set": the clauses forbidding
// block starts that no completion allows, over the only variables lcg has.  They cannot
// propagate anything the line solver would not (it is complete on its line: whenever
// such a clause is unit, the line run on the same cells forces the same literal), so
// they change only which reason the search meets (a two-literal clause or the line's
// explanation) and what it learns; measured in benchmarks/log/2026-11-26-tail-5.md.
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

// At the root, black and white: each line's own implications as binary clauses.
void Engine::keep_line_binaries() {
    line_binaries_kept_ = true;
    if (values_ != 0) return;
    std::unordered_set<uint64_t> pairs;
    std::vector<int> clause(2);
    std::vector<uint8_t> s, out;
    for (size_t line = 0; line < line_cells_.size(); ++line) {
        const std::vector<int>& cells = line_cells_[line];
        const std::vector<int>& clue = line_clue_[line];
        const int n = static_cast<int>(cells.size());
        s.assign(n, 3);
        out.assign(n, 3);
        for (int i = 0; i < n; ++i) {
            const int v = value_[cells[i]];
            s[i] = v < 0 ? 3 : (v ? 2 : 1);
        }
        for (int i = 0; i < n; ++i) {
            if (s[i] != 3) continue;
            for (uint8_t set : {uint8_t(1), uint8_t(2)}) {
                s[i] = set;
                const uint8_t* got = out.data();
                const bool ok = dp_.fix(clue.data(), static_cast<int>(clue.size()), s.data(), n, out.data());
                s[i] = 3;
                if (!ok) continue;  // (not at a root the line solver has run on: it is complete)
                const int p = lit_of(cells[i], set == 2);
                for (int j = 0; j < n; ++j) {
                    if (j == i || s[j] != 3 || got[j] == 3) continue;
                    const int a = neg(p), b = lit_of(cells[j], got[j] == 2);
                    const uint64_t key = (static_cast<uint64_t>(std::min(a, b)) << 32) | static_cast<uint32_t>(std::max(a, b));
                    if (!pairs.insert(key).second) continue;  // (-q or p), from the other cell's value
                    clause[0] = b;
                    clause[1] = a;
                    if (proof_) proof_->add(clause.data(), 2);
                    add_clause(clause, false, 2);
                    ++counters_.line_binaries;
                }
            }
        }
    }
}

}  // namespace lcg
