// Explanations and conflict analysis of the lcg engine (see engine.cpp for the
// design): a line's reason for a forced cell or a conflict, minimised with the
// line DP; first-UIP analysis; learned clause minimisation.
#include "engine.hpp"

#include <algorithm>
#include <climits>

namespace lcg {

// The clause "implied or not(one of the line's cells)" (just the negated cells for a
// conflict, implied < 0), over the cells assigned before trail position limit_pos,
// minimised greedily with the DP.
void Engine::explain(int line, int limit_pos, int implied, std::vector<int>& clause) {
    if (values_) { explain_colour(line, limit_pos, implied, clause); return; }
    if (bit_line_[line] == 1) { explain_word(line, limit_pos, implied, clause); return; }
    const std::vector<int>& cells = line_cells_[line];
    const std::vector<int>& clue = line_clue_[line];
    const int n = static_cast<int>(cells.size()), k = static_cast<int>(clue.size());
    std::vector<uint8_t>& s = explain_state_;  // (members: an explanation allocates nothing)
    std::vector<int>& candidates = explain_cells_;
    s.assign(n, 3);
    candidates.clear();
    int implied_at = -1;
    // Right to left: the candidates come in the order of the second sort key below, so
    // the (insertion) sort has only the bands to order.
    for (int i = n - 1; i >= 0; --i) {
        const int v = cells[i];
        if (implied >= 0 && v == var_of(implied)) {
            s[i] = (implied & 1) ? 2 : 1;  // the opposite of the implied value
            implied_at = i;
        } else if (value_[v] >= 0 && trail_pos_[v] < limit_pos) {
            s[i] = value_[v] ? 2 : 1;
            if (level_[v] > 0) candidates.push_back(i);
        }
    }
    // Cells of later decision levels are dropped first (keeping the older cells,
    // which makes learned clauses assert earlier): in bands of levels, each band
    // right to left, so that each check recomputes only the part of the forward
    // table after the cell it drops.  bands_ 1: one band; 2: the highest level, then
    // the rest; 0: one band per level.
    int top = 0;
    for (int i : candidates) top = std::max(top, level_[cells[i]]);
    // Sorted on one integer each: the band, then the position from the right.
    std::vector<uint64_t>& keys = explain_keys_;
    keys.clear();
    for (int i : candidates) {
        const int l = level_[cells[i]];
        const int band = bands_ == 1 ? 0 : bands_ == 2 ? (l == top ? 0 : 1) : top - l;
        keys.push_back(static_cast<uint64_t>(band) << 32 | static_cast<uint32_t>(n - 1 - i));
    }
    std::sort(keys.begin(), keys.end());
    for (size_t c = 0; c < keys.size(); ++c) candidates[c] = n - 1 - static_cast<int>(keys[c] & 0xFFFFFFFFu);
    clause.clear();
    if (implied >= 0) clause.push_back(implied);
    // Each check joins a prefix table and a suffix table around the cell (drop.hpp),
    // both kept across the checks: right to left, a band extends each by a few columns.
    // Lines the bit sets hold are checked there (bitline.hpp): the same answers.
    if (bit_line_[line]) {
        uint64_t empty[2] = {0, 0}, fill[2] = {0, 0};
        for (int i = 0; i < n; ++i) {
            empty[i >> 6] |= static_cast<uint64_t>(s[i] & 1) << (i & 63);
            fill[i >> 6] |= static_cast<uint64_t>(s[i] >> 1) << (i & 63);
        }
        bits_.reset_drops(clue.data(), k, (static_cast<Bits>(empty[1]) << 64) | empty[0],
                          (static_cast<Bits>(fill[1]) << 64) | fill[0], n);
        for (int i : candidates) {
            ++counters_.explanation_checks;
            if (!bits_.feasible_without(i)) {  // not needed: drop it
                s[i] = 3;
                bits_.dropped(i);
            }
        }
    } else {
        dropper_.reset(clue.data(), k, s.data(), n);
        for (int i : candidates) {
            ++counters_.explanation_checks;
            if (!dropper_.feasible_without(i)) {
                s[i] = 3;
                dropper_.dropped(i);
            }
        }
    }
    for (int i : candidates)
        if (s[i] != 3) clause.push_back(lit_of(cells[i], s[i] == 1));  // the negation of the cell's value
    ++counters_.explanations;
    counters_.explained_literals += static_cast<long long>(clause.size());
}

// explain() for a line of at most 63 cells (nearly every puzzle's): the same clause,
// with the line held in two words from the start (no byte state to fill and read
// back) and the candidates, at most 63, ordered by an insertion sort on their keys
// (they arrive ordered by position: only the bands move them).
CEXT_WORD_CLONES void Engine::explain_word(int line, int limit_pos, int implied, std::vector<int>& clause) {
    const std::vector<int>& cells = line_cells_[line];
    const std::vector<int>& clue = line_clue_[line];
    const int n = static_cast<int>(cells.size()), k = static_cast<int>(clue.size());
    const int implied_var = implied >= 0 ? var_of(implied) : -1;
    // Bit i of known_empty / known_fill: cell i may be empty / filled in the line checked.
    uint64_t known_empty = BitLine64::low(n), known_fill = known_empty;
    int implied_at = -1, count = 0, top = 0;
    int arrival[64], levels[64], candidates[64];  // the candidates as they come, their levels, in order
    // The line's cells, right to left: the implied one, then those assigned before the limit.
    auto take = [&](int i) {
        const int v = cells[i];
        if (v == implied_var) {
            // The opposite of the implied value: implied & 1 says "empty", so filled.
            if (implied & 1) known_empty &= ~BitLine64::one(i); else known_fill &= ~BitLine64::one(i);
            implied_at = i;
        } else if (value_[v] >= 0 && trail_pos_[v] < limit_pos) {
            if (value_[v]) known_empty &= ~BitLine64::one(i); else known_fill &= ~BitLine64::one(i);
            const int l = level_[v];
            if (l > 0) {
                levels[count] = l;
                arrival[count++] = i;
                top = std::max(top, l);
            }
        }
    };
    // When the limit lies past the root's cells (always, but for a root cell's own reason),
    // the root's cells are all before it and none is a candidate: they come from the
    // line's masks, and only the cells assigned above the root are read one by one (on a
    // grid probing mostly solved, a few of the line's cells; a column's cells lie a row
    // apart in memory).  The same cells, in the same order, as the loop over them all.
    // The candidates' cells by level (bit l % 64 of levels_present), when read from the masks.
    uint64_t level_cells[64], levels_present = 0;
    int bottom = INT_MAX;
    bool by_level = false;
    const size_t root_end = trail_lim_.empty() ? trail_.size() : static_cast<size_t>(trail_lim_[0]);
    if (explain_from_root_ && static_cast<size_t>(limit_pos) >= root_end &&
        (implied_var < 0 || level_[implied_var] > 0)) {
        const uint64_t all = known_empty, may_empty = line_may_empty_[2 * line], may_fill = line_may_fill_[2 * line];
        const uint64_t root = line_root_[2 * line];
        known_empty &= ~(root & ~may_empty);  // the root's filled cells
        known_fill &= ~(root & ~may_fill);
        uint64_t above = all & ~(may_empty & may_fill) & ~root;
        if (implied_var >= 0 && value_[implied_var] < 0) {
            // (not met: a reason is asked for an assigned cell) the slow way.
            known_empty = known_fill = all;
            for (int i = n - 1; i >= 0; --i) take(i);
        } else {
            // take() for the cells above the root: assigned (so their values are the
            // masks') and of a level above 0, so only their trail positions are read.
            uint64_t before = 0;
            while (above) {
                const int i = BitLine64::WIDTH - 1 - __builtin_clzll(above);
                above &= ~BitLine64::one(i);
                const int v = cells[i];
                if (v == implied_var) {
                    if (implied & 1) known_empty &= ~BitLine64::one(i); else known_fill &= ~BitLine64::one(i);
                    implied_at = i;
                } else if (trail_pos_[v] < limit_pos) {
                    before |= BitLine64::one(i);
                    const int l = level_[v];
                    levels[count] = l;
                    arrival[count++] = i;
                    top = std::max(top, l);
                    bottom = std::min(bottom, l);
                    // Its level's cells (levels 64 apart share a word: then unused, below).
                    const uint64_t at = BitLine64::one(l & 63);
                    if (!(levels_present & at)) level_cells[l & 63] = 0;
                    levels_present |= at;
                    level_cells[l & 63] |= BitLine64::one(i);
                }
            }
            known_empty &= ~(before & ~may_empty);  // the filled ones
            known_fill &= ~(before & ~may_fill);
            by_level = true;
        }
    } else {
        for (int i = n - 1; i >= 0; --i) take(i);
    }
    uint64_t hash = (static_cast<uint64_t>(line) << 8 | static_cast<uint8_t>(implied_at)) * 0x9E3779B97F4A7C15ULL;
    hash = (hash ^ known_empty) * 0xBF58476D1CE4E5B9ULL;
    hash = (hash ^ (hash >> 29) ^ known_fill) * 0x94D049BB133111EBULL;
    hash ^= hash >> 32;
    if (explain_cache_.empty()) explain_cache_.resize(kFirstExplainSlots);
    ExplainSlot* slot = &explain_cache_[hash & (explain_cache_.size() - 1)];
    __builtin_prefetch(slot);
    __builtin_prefetch(reinterpret_cast<const char*>(slot) + 64);
    __builtin_prefetch(reinterpret_cast<const char*>(slot) + sizeof(ExplainSlot) - 1);
    // The order of explain(): by band, then right to left.  The candidates came right to
    // left (arrival), so each band is a mask of its cells read from the highest bit down,
    // and the bands, 64 at a time (nearly always once), are the bits of a word read from
    // the lowest up.
    if (bands_ == 0 && by_level && top - bottom < 64) {
        // One band a level, all within 64 levels (nearly always): the levels' cells, gathered
        // as they came, read from the top level down (levels_present turned so that the top
        // level is bit 63: bit b is level top - 63 + b).
        const int turn = 63 - (top & 63);
        uint64_t present = (levels_present << turn) | (levels_present >> ((64 - turn) & 63));
        int placed = 0;
        while (present) {
            const int b = BitLine64::WIDTH - 1 - __builtin_clzll(present);
            present &= ~BitLine64::one(b);
            for (uint64_t m = level_cells[(top - 63 + b) & 63]; m;) {
                const int i = BitLine64::WIDTH - 1 - __builtin_clzll(m);
                candidates[placed++] = i;
                m &= ~BitLine64::one(i);
            }
        }
    } else if (bands_ == 1) {
        std::copy(arrival, arrival + count, candidates);
    } else if (!explain_from_root_) {
        // The reference (the test that reads every cell compares the two): the keys of
        // explain(), the band, then the position from the right, sorted.
        uint64_t keys[64];
        for (int c = 0; c < count; ++c) {
            const int l = levels[c], band = bands_ == 2 ? (l == top ? 0 : 1) : top - l;
            keys[c] = static_cast<uint64_t>(band) << 32 | static_cast<uint32_t>(n - 1 - arrival[c]);
        }
        std::sort(keys, keys + count);
        for (int c = 0; c < count; ++c) candidates[c] = n - 1 - static_cast<int>(keys[c] & 0xFFFFFFFFu);
    } else {
        int lowest = top;
        for (int c = 0; c < count; ++c) lowest = std::min(lowest, levels[c]);
        const int last_band = bands_ == 2 ? (lowest == top ? 0 : 1) : top - lowest;
        int placed = 0;
        for (int base = 0; base <= last_band; base += 64) {
            uint64_t band_cells[64], present = 0;
            for (int c = 0; c < count; ++c) {
                const int l = levels[c], band = (bands_ == 2 ? (l == top ? 0 : 1) : top - l) - base;
                if (band < 0 || band >= 64) continue;
                const uint64_t bit = BitLine64::one(band);
                if (!(present & bit)) band_cells[band] = 0;
                present |= bit;
                band_cells[band] |= BitLine64::one(arrival[c]);
            }
            for (; present; present &= present - 1) {
                for (uint64_t m = band_cells[__builtin_ctzll(present)]; m;) {
                    const int i = BitLine64::WIDTH - 1 - __builtin_clzll(m);
                    candidates[placed++] = i;
                    m &= ~BitLine64::one(i);
                }
            }
        }
    }
    clause.clear();
    if (implied >= 0) clause.push_back(implied);
    // An assigned cell's literal in the clause: the negation of its value.
    auto negation = [&](int i) { return lit_of(cells[i], ((known_fill >> i) & 1) == 0); };
    bool same = slot->line == line && slot->implied == implied_at && slot->empty == known_empty &&
                slot->fill == known_fill && slot->count == count;
    for (int c = 0; same && c < count; ++c) same = slot->order[c] == candidates[c];
    if (same) {
        for (int c = 0; c < count; ++c)
            if ((slot->kept >> candidates[c]) & 1) clause.push_back(negation(candidates[c]));
        ++counters_.explanations;
        ++counters_.explanation_hits;
        counters_.explained_literals += static_cast<long long>(clause.size());
        return;
    }
    // Twice as many stores as slots: the cache grows fourfold, empty (it is a memo).
    if (++explain_stores_ > 2 * explain_cache_.size() && explain_cache_.size() < kMostExplainSlots) {
        explain_cache_.assign(explain_cache_.size() * 4, ExplainSlot());
        explain_stores_ = 0;
        slot = &explain_cache_[hash & (explain_cache_.size() - 1)];
    }
    slot->line = line;
    slot->implied = static_cast<int8_t>(implied_at);
    slot->empty = known_empty;
    slot->fill = known_fill;
    slot->count = static_cast<uint8_t>(count);
    for (int c = 0; c < count; ++c) slot->order[c] = static_cast<uint8_t>(candidates[c]);
    bits64_.reset_drops(clue.data(), k, known_empty, known_fill, n);
    uint64_t kept = 0;
    for (int c = 0; c < count; ++c) {
        const int i = candidates[c];
        ++counters_.explanation_checks;
        if (!bits64_.feasible_without(i)) bits64_.dropped(i);  // not needed: drop it
        else kept |= BitLine64::one(i);
    }
    for (int c = 0; c < count; ++c)
        if ((kept >> candidates[c]) & 1) clause.push_back(negation(candidates[c]));
    slot->kept = kept;
    ++counters_.explanations;
    counters_.explained_literals += static_cast<long long>(clause.size());
}

Lits Engine::reason(int var) {
    if (reason_kind_[var] == CLAUSE) return arena_.view(reason_idx_[var]);
    if (!reason_ready_[var]) {
        explain(reason_idx_[var], trail_pos_[var], lit_of(var, value_[var] == 1), reason_cache_[var]);
        reason_ready_[var] = 1;
    }
    const std::vector<int>& r = reason_cache_[var];
    return {r.data(), static_cast<int>(r.size())};
}

void Engine::analyze(Lits conflict, std::vector<int>& learnt, int& back_level) {
    learnt.assign(1, -1);
    int path = 0, p = -1;
    int idx = static_cast<int>(trail_.size()) - 1;
    Lits lits = conflict;
    for (;;) {
        for (int q : lits) {
            if (q == p) continue;
            const int v = var_of(q);
            if (seen_[v] || level_[v] == 0) continue;
            order_.bump(v);
            seen_[v] = 1;
            if (level_[v] >= level()) ++path;
            else learnt.push_back(q);
        }
        while (!seen_[var_of(trail_[idx])]) --idx;
        p = trail_[idx--];
        seen_[var_of(p)] = 0;
        if (--path <= 0) break;
        const int v = var_of(p);
        if (reason_kind_[v] == CLAUSE && arena_.learnt(reason_idx_[v])) bump_clause(reason_idx_[v]);
        lits = reason(v);
    }
    learnt[0] = neg(p);
    // Minimisation: drop a literal implied by the others.  Basic: its reason (a
    // clause, or a line reason already generated) lies within the clause.
    // Recursive (MiniSat's): its reason's literals are in the clause or are
    // themselves redundant, generating line reasons as needed (they stay cached
    // while their cells stay assigned, so lower levels pay once).
    const size_t before = learnt.size();
    to_clear_.assign(learnt.begin() + 1, learnt.end());
    uint32_t levels = 0;
    for (size_t i = 1; i < learnt.size(); ++i) levels |= 1u << (level_[var_of(learnt[i])] & 31);
    size_t j = 1;
    for (size_t i = 1; i < learnt.size(); ++i) {
        const bool drop = minimise_ == 2 ? reason_kind_[var_of(learnt[i])] != NONE && redundant_deep(learnt[i], levels)
                        : minimise_ == 1 ? redundant(learnt[i]) : false;
        if (!drop) learnt[j++] = learnt[i];
    }
    learnt.resize(j);
    for (int q : to_clear_) seen_[var_of(q)] = 0;
    counters_.minimised_literals += static_cast<long long>(before - learnt.size());
    back_level = 0;
    if (learnt.size() > 1) {
        size_t best = 1;
        for (size_t i = 2; i < learnt.size(); ++i)
            if (level_[var_of(learnt[i])] > level_[var_of(learnt[best])]) best = i;
        std::swap(learnt[1], learnt[best]);
        back_level = level_[var_of(learnt[1])];
    }
}

bool Engine::redundant_deep(int lit, uint32_t levels) {
    stack_.assign(1, lit);
    const size_t top = to_clear_.size();
    while (!stack_.empty()) {
        const int v = var_of(stack_.back());
        stack_.pop_back();
        const Lits r = reason(v);
        for (int q : r) {
            const int u = var_of(q);
            if (u == v || seen_[u] || level_[u] == 0) continue;
            if (reason_kind_[u] != NONE && ((1u << (level_[u] & 31)) & levels) != 0) {
                seen_[u] = 1;
                stack_.push_back(q);
                to_clear_.push_back(q);
            } else {
                for (size_t i = top; i < to_clear_.size(); ++i) seen_[var_of(to_clear_[i])] = 0;
                to_clear_.resize(top);
                return false;
            }
        }
    }
    return true;
}

bool Engine::redundant(int lit) {
    const int v = var_of(lit);
    if (reason_kind_[v] == NONE) return false;
    if (reason_kind_[v] == LINE && !reason_ready_[v]) return false;
    const Lits r = reason(v);
    for (int q : r) {
        const int u = var_of(q);
        if (u == v) continue;
        if (!seen_[u] && level_[u] > 0) return false;
    }
    return true;
}

// Clause activity (the vars' order is heap.hpp's), raised as analysis meets clauses.
void Engine::bump_clause(int cref) {
    const double a = arena_.activity(cref) + clause_inc_;
    arena_.set_activity(cref, a);
    if (a > 1e20) {
        for (int d = 0; d < arena_.end(); d = arena_.next(d)) arena_.set_activity(d, arena_.activity(d) * 1e-20);
        clause_inc_ *= 1e-20;
    }
}

}  // namespace lcg
