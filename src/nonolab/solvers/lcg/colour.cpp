// The lcg engine on colour puzzles (see engine.cpp for the search, which is shared).
//
// Encoding.  One Boolean per (cell, value), value 0 the background and 1..k the
// colours: var cell * values + v is "the cell holds v" (the direct encoding).  No
// clause says "exactly one value per cell": the line propagators do it, as each
// reads a cell's domain (the values whose var is not false, or the one true value;
// two true values leave it empty) and writes back every value the colour line DP
// removes (var false) and the value of a cell it narrows to one (var true).
// Why direct and not an order or log encoding: a colour line's facts are "this cell
// cannot be v" (what the DP removes), so each removal is one literal of an
// explanation, and a fixed cell is one literal too (its true var), never the k
// removals it stands for; the values of a colour cell have no order that the
// automaton respects, so an order encoding would explain a removal with ranges.
//
// Explanations are minimised as in black and white (analysis.cpp): the line's
// facts assigned before the propagated one (vars true or false), with the
// propagated var set the other way, are infeasible; each fact is dropped greedily
// when the line stays infeasible without it (the DP's forward pass, incremental
// from the cell of the dropped fact): later decision levels first, within a level
// right to left, and within a cell its false facts before its true one (so a fixed
// cell is explained by its true var, not by its k removals); a fact whose drop leaves
// its cell's domain as it was (a removal under a true value) goes without a check.
#include <algorithm>
#include <climits>
#include <cstring>

#include "engine.hpp"

namespace lcg {

Engine::Engine(int width, int height, std::vector<std::vector<int>> rows, std::vector<std::vector<int>> columns,
               const std::vector<std::vector<int>>& row_colours,
               const std::vector<std::vector<int>>& column_colours, int colours, int minimise, int bands,
               int restarts, long long probe_budget)
    : width_(width), height_(height), nvars_(width * height * (colours + 1)), minimise_(minimise), bands_(bands),
      policy_(restarts), probing_(probe_budget > 0), probe_budget_(probe_budget) {
    values_ = colours + 1;
    full_ = values_ >= 32 ? 0xFFFFFFFFu : ((1u << values_) - 1u);
    setup(rows, columns);   // the clues are line_clue_'s now
    for (int r = 0; r < height; ++r) autos_.emplace_back(line_clue_[r], row_colours[r]);
    for (int c = 0; c < width; ++c) autos_.emplace_back(line_clue_[height + c], column_colours[c]);
    const int longest = std::max(width, height);
    dom_buf_.assign(longest, 0);
    dom_out_.assign(longest, 0);
    // Phase: the background first, as black and white tries empty first.
    for (int cell = 0; cell < width * height; ++cell) saved_phase_[cell * values_] = 1;
}

bool Engine::fix_value(int cell, int value) {
    const int lit = lit_of(cell * values_ + value, true);
    const int now = lit_value(lit);
    if (now == 1) return true;
    if (now == 0) { unsat_ = true; return false; }
    enqueue(lit, NONE, 0);
    return true;
}

void Engine::solution_from_values() {
    const int cells = width_ * height_;
    for (int cell = 0; cell < cells; ++cell)
        for (int v = 0; v < values_; ++v)
            if (value_[cell * values_ + v] == 1) solution_[cell] = static_cast<uint8_t>(v);
}

bool Engine::run_colour_line(int line) {
    const std::vector<int>& cells = line_cells_[line];
    const int n = static_cast<int>(cells.size()), K = values_;
    uint32_t* d = dom_buf_.data();
    for (int i = 0; i < n; ++i) {
        const int base = cells[i] * K;
        uint32_t truth = 0, falsity = 0;
        for (int v = 0; v < K; ++v) {
            const int x = value_[base + v];
            if (x == 1) truth |= 1u << v;
            else if (x == 0) falsity |= 1u << v;
        }
        d[i] = domain(truth, falsity);
    }
    ++counters_.line_runs;
    uint64_t hash = 1469598103934665603ULL ^ static_cast<uint64_t>(line) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; ++i) hash = (hash ^ d[i]) * 1099511628211ULL;
    CacheSlot& slot = cache_[(hash ^ (hash >> 29)) & cache_mask_];
    const size_t bytes = static_cast<size_t>(n) * sizeof(uint32_t);
    uint32_t* out = dom_out_.data();
    bool ok;
    if (slot.line == line && slot.key.size() == bytes && std::memcmp(slot.key.data(), d, bytes) == 0) {
        ++counters_.cache_hits;
        ok = slot.ok;
        std::memcpy(out, slot.out.data(), bytes);
    } else {
        ok = cdp_.fix(autos_[line], d, n, out);
        slot.line = line;
        slot.ok = ok;
        const uint8_t* key = reinterpret_cast<const uint8_t*>(d);
        const uint8_t* result = reinterpret_cast<const uint8_t*>(out);
        slot.key.assign(key, key + bytes);
        slot.out.assign(result, result + bytes);
    }
    if (!ok) {
        explain_colour(line, INT_MAX, -1, conflict_lits_);
        return false;
    }
    for (int i = 0; i < n; ++i) {
        const uint32_t o = out[i];
        const int base = cells[i] * K;
        for (int v = 0; v < K; ++v) {
            const int var = base + v;
            if (value_[var] >= 0) continue;
            if (!((o >> v) & 1u)) enqueue(lit_of(var, false), LINE, line);
            else if (o == (1u << v)) enqueue(lit_of(var, true), LINE, line);
        }
    }
    return true;
}

void Engine::explain_colour(int line, int limit_pos, int implied, std::vector<int>& clause) {
    const std::vector<int>& cells = line_cells_[line];
    const ColourAutomaton& automaton = autos_[line];
    const int n = static_cast<int>(cells.size()), K = values_;
    const int implied_var = implied >= 0 ? var_of(implied) : -1;
    std::vector<uint32_t> truth(n, 0), falsity(n, 0), dom(n);
    struct Fact {
        int pos, var, band;
        bool value;
    };
    std::vector<Fact> candidates;
    for (int i = 0; i < n; ++i) {
        const int base = cells[i] * K;
        for (int v = 0; v < K; ++v) {
            const int var = base + v;
            const uint32_t bit = 1u << v;
            if (var == implied_var) {
                // The opposite of the implied literal (a false literal's opposite is true).
                if (implied & 1) truth[i] |= bit;
                else falsity[i] |= bit;
                continue;
            }
            const int x = value_[var];
            if (x < 0 || trail_pos_[var] >= limit_pos) continue;
            if (x) truth[i] |= bit;
            else falsity[i] |= bit;
            if (level_[var] > 0) candidates.push_back({i, var, level_[var], x == 1});
        }
        dom[i] = domain(truth[i], falsity[i]);
    }
    int top = 0;
    for (const Fact& f : candidates) top = std::max(top, f.band);
    for (Fact& f : candidates) f.band = bands_ == 1 ? 0 : bands_ == 2 ? (f.band == top ? 0 : 1) : top - f.band;
    std::sort(candidates.begin(), candidates.end(), [](const Fact& a, const Fact& b) {
        if (a.band != b.band) return a.band < b.band;
        if (a.pos != b.pos) return a.pos > b.pos;
        return a.value < b.value;  // a cell's removals before its fixed value
    });
    clause.clear();
    if (implied >= 0) clause.push_back(implied);
    int valid = -1;  // the forward table is right at prefix lengths <= valid (see explain)
    std::vector<uint8_t> kept(candidates.size(), 1);
    for (size_t c = 0; c < candidates.size(); ++c) {
        const Fact& f = candidates[c];
        const uint32_t bit = 1u << (f.var - cells[f.pos] * K);
        uint32_t& mask = f.value ? truth[f.pos] : falsity[f.pos];
        mask &= ~bit;
        const uint32_t before = dom[f.pos];
        dom[f.pos] = domain(truth[f.pos], falsity[f.pos]);
        if (dom[f.pos] == before) {  // the removal of a value its true value already removes
            kept[c] = 0;
            continue;
        }
        ++counters_.explanation_checks;
        const int from = std::max(0, std::min(f.pos, valid));
        if (cdp_.feasible_after(automaton, dom.data(), n, from)) {
            mask |= bit;  // needed
            dom[f.pos] = domain(truth[f.pos], falsity[f.pos]);
        } else {
            kept[c] = 0;
        }
        valid = from;
    }
    for (size_t c = 0; c < candidates.size(); ++c)
        if (kept[c]) clause.push_back(neg(lit_of(candidates[c].var, candidates[c].value)));
    ++counters_.explanations;
    counters_.explained_literals += static_cast<long long>(clause.size());
}

}  // namespace lcg
