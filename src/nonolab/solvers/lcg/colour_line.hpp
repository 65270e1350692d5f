// The complete colour line solver: every value some placement of a colour line's
// blocks gives each cell, within the cells' current domains.
//
// A cell's domain is a bit mask (bit v: the cell may take value v, 0 the background,
// 1..k the colours).  A line's blocks are (length, colour) pairs; blocks of the same
// colour need a background cell between them, blocks of different colours may
// touch.  The line is the automaton of nonolab.solvers.colour.colour_automaton: a
// gap state before each block and after the last, one state per block cell, and at
// most two transitions out of each state (stay in the gap or enter the next block;
// go on in the block, or leave it into the gap or, when the next block's colour
// differs, straight into the next block).  A forward pass marks the states
// reachable along the allowed values, a backward pass keeps those that still reach
// an accepting state, and a value survives at a cell when a kept transition reads it
// there.  O(n * states) per call, states = sum of lengths + blocks + 1.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace lcg {

// The automaton of one colour line: state s has edges 2s and 2s + 1 (value -1: none).
struct ColourAutomaton {
    int states = 1;
    std::vector<int> value, target;
    std::vector<uint8_t> accepting;

    ColourAutomaton() = default;
    ColourAutomaton(const std::vector<int>& lengths, const std::vector<int>& colours) {
        const int k = static_cast<int>(lengths.size());
        states = 1;
        for (int j = 0; j < k; ++j) states += lengths[j] + 1;
        value.assign(2 * static_cast<size_t>(states), -1);
        target.assign(2 * static_cast<size_t>(states), -1);
        accepting.assign(states, 0);
        auto edge = [&](int from, int v, int to) {
            const int slot = value[2 * from] < 0 ? 2 * from : 2 * from + 1;
            value[slot] = v;
            target[slot] = to;
        };
        int gap = 0;  // the gap state before block j
        for (int j = 0; j < k; ++j) {
            edge(gap, 0, gap);
            const int first = gap + 1, last = first + lengths[j] - 1;
            edge(gap, colours[j], first);
            for (int s = first; s < last; ++s) edge(s, colours[j], s + 1);
            edge(last, 0, last + 1);
            if (j + 1 < k && colours[j + 1] != colours[j]) edge(last, colours[j + 1], last + 2);
            gap = last + 1;
        }
        edge(gap, 0, gap);
        accepting[gap] = 1;
        if (k > 0) accepting[gap - 1] = 1;
    }
};

class ColourLineDP {
public:
    // Fills out[0..n) with each cell's surviving values; false when no placement fits.
    bool fix(const ColourAutomaton& a, const uint32_t* dom, int n, uint32_t* out) {
        if (!forward(a, dom, n, 0)) return false;
        const int S = a.states;
        alive_.assign(S, 0);
        next_.assign(S, 0);
        const uint8_t* last = F_.data() + static_cast<size_t>(n) * S;
        for (int s = 0; s < S; ++s) alive_[s] = last[s] && a.accepting[s];
        for (int i = n - 1; i >= 0; --i) {
            const uint8_t* row = F_.data() + static_cast<size_t>(i) * S;
            const uint32_t d = dom[i];
            uint32_t seen = 0;
            for (int s = 0; s < S; ++s) {
                uint8_t keep = 0;
                if (row[s]) {
                    for (int e = 2 * s; e < 2 * s + 2; ++e) {
                        const int v = a.value[e];
                        if (v >= 0 && ((d >> v) & 1u) && alive_[a.target[e]]) {
                            seen |= 1u << v;
                            keep = 1;
                        }
                    }
                }
                next_[s] = keep;
            }
            out[i] = seen;
            alive_.swap(next_);
        }
        return true;
    }

    // Whether some placement fits.  With from > 0 the line may differ from the previous
    // call's (same automaton, same length) only at cells >= from: the forward rows of
    // prefix lengths <= from are kept.
    bool feasible_after(const ColourAutomaton& a, const uint32_t* dom, int n, int from) {
        return forward(a, dom, n, from);
    }

private:
    std::vector<uint8_t> F_, alive_, next_;

    // F[i][s]: the first i cells can lead the automaton to state s.  It returns false
    // at the first row that is all false (the rows below it are then left stale).
    bool forward(const ColourAutomaton& a, const uint32_t* dom, int n, int from) {
        const int S = a.states;
        if (from == 0) {
            F_.resize(static_cast<size_t>(n + 1) * S);
            std::memset(F_.data(), 0, static_cast<size_t>(S));
            F_[0] = 1;
        }
        for (int i = from; i < n; ++i) {
            const uint8_t* row = F_.data() + static_cast<size_t>(i) * S;
            uint8_t* nxt = F_.data() + static_cast<size_t>(i + 1) * S;
            std::memset(nxt, 0, static_cast<size_t>(S));
            const uint32_t d = dom[i];
            uint8_t any = 0;
            for (int s = 0; s < S; ++s) {
                if (!row[s]) continue;
                for (int e = 2 * s; e < 2 * s + 2; ++e) {
                    const int v = a.value[e];
                    if (v >= 0 && ((d >> v) & 1u)) {
                        nxt[a.target[e]] = 1;
                        any = 1;
                    }
                }
            }
            if (!any) return false;
        }
        const uint8_t* last = F_.data() + static_cast<size_t>(n) * S;
        for (int s = 0; s < S; ++s)
            if (last[s] && a.accepting[s]) return true;
        return false;
    }
};

}  // namespace lcg
