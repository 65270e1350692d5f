// The enumerating line strategy: every placement of the line, intersected.
//
// Placements are generated block by block, leftmost first, and only those that agree
// with the known cells are kept (a block never covers a space nor touches a box; a
// stretch a block skips over holds no box).  Each complete placement widens out to the
// values it gives every cell, so after all of them out is exactly what the complete DP
// computes.  Once every unknown cell has been seen both filled and empty nothing more
// can be learnt, so enumeration stops there.
//
// The cost is bounded by cap: the block positions the enumeration may try (every
// partial placement counts, so dead ends are paid for too).  Past the cap the line is
// left as it is -- sound, not complete -- unless it is fully decided, which is checked
// against its clue directly, so contradictions there are never missed.  Under its cap
// the strategy equals the DP; the strategy as a whole is declared incomplete for that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rules.hpp"

namespace native {

class EnumerateLine {
public:
    // Narrows line[0..n) for clue[0..k) into out by enumerating placements (at most cap
    // block positions tried); false: a contradiction.
    bool fix(const uint8_t* line, int n, const int* clue, int k, uint8_t* out, long long cap) {
        boxes_.resize(n + 1);
        spaces_.resize(n + 1);
        pos_.resize(k > 0 ? k : 1);
        boxes_[0] = spaces_[0] = 0;
        int unknown = 0;
        for (int i = 0; i < n; ++i) {
            boxes_[i + 1] = boxes_[i] + (line[i] == 2);
            spaces_[i + 1] = spaces_[i] + (line[i] == 1);
            unknown += line[i] == 3;
            out[i] = 0;
        }
        if (k == 0) {
            if (boxes_[n] > 0) return false;
            std::fill(out, out + n, static_cast<uint8_t>(1));
            return true;
        }
        long long tried = 0;
        int open = unknown;  // unknown cells not yet seen both filled and empty
        bool found = false;
        int b = 0;
        pos_[0] = 0;
        while (b >= 0) {
            const int len = clue[b], s = pos_[b];
            int need = 0;  // the cells blocks b..k-1 need, with a gap after each
            for (int j = b; j < k; ++j) need += clue[j] + 1;
            const int prev_end = b == 0 ? 0 : pos_[b - 1] + clue[b - 1];
            // The stretch from the previous block to this start must hold no box: moving
            // further right only lengthens it, so a box there ends this block's choices.
            if (s + need - 1 > n || boxes_[s] - boxes_[prev_end] > 0) {
                if (--b >= 0) ++pos_[b];
                continue;
            }
            if (spaces_[s + len] != spaces_[s] || (s + len < n && line[s + len] == 2)) {
                ++pos_[b];
                continue;
            }
            if (++tried > cap) {
                std::copy(line, line + n, out);
                // A decided line is still checked: search relies on it.
                return unknown == 0 ? matches_clue(line, n, clue, k) : true;
            }
            if (b < k - 1) {
                ++b;
                pos_[b] = s + len + 1;
                continue;
            }
            if (boxes_[n] - boxes_[s + len] == 0) {  // a whole placement: widen out
                found = true;
                int cell = 0;
                for (int j = 0; j < k; ++j) {
                    for (; cell < pos_[j]; ++cell) open -= widen(out, line, cell, 1);
                    for (; cell < pos_[j] + clue[j]; ++cell) open -= widen(out, line, cell, 2);
                }
                for (; cell < n; ++cell) open -= widen(out, line, cell, 1);
                if (open == 0) {  // every unknown cell can be both: the line is unchanged
                    std::copy(line, line + n, out);
                    return true;
                }
            }
            ++pos_[b];
        }
        return found;
    }

private:
    std::vector<int> pos_, boxes_, spaces_;

    // Adds value to what cell may be; 1 if an unknown cell just became open both ways.
    static int widen(uint8_t* out, const uint8_t* line, int cell, uint8_t value) {
        const uint8_t before = out[cell], after = before | value;
        out[cell] = after;
        return after == 3 && before != 3 && line[cell] == 3 ? 1 : 0;
    }
};

}  // namespace native
