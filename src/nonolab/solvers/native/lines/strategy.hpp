// The native engine's line strategies behind one call: the complete DP (on bit sets: one
// or two words for parts of at most 127 cells, word arrays for longer ones unless their
// blocks are many and their windows narrow; in closed form for an all-unknown part) or one of the
// simpler strategies (rules.hpp, enumerate.hpp), for benchmarks and human-labelled step
// logs.  A line strategy is a pure function of (clue, partial line): every one is sound
// and checks a fully decided line against its clue, so propagation, probing and search
// stay exact with any of them; an incomplete one just leaves more to search.
//
// The numbers are those of nonolab.solvers.native.modes (LineStrategy.code).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../_cext/bitline.hpp"
#include "../../_cext/line.hpp"
#include "enumerate.hpp"
#include "rules.hpp"
#include "wide.hpp"

namespace native {

enum Strategy { DP = 0, CHAIN_RANGE = 1, OVERLAP = 2, ENUMERATE = 3, N_STRATEGIES = 4 };

// The complete answer for a line of n unknown cells without the DP: a cell is filled in
// every arrangement exactly where block j at its leftmost start (the blocks packed to
// the left) overlaps itself shifted by the slack; with no slack every other cell is
// empty.  Every start in between is valid, so with update the windows become those
// ranges (the DP's answer, cell for cell and window for window).
inline bool blank_fix(const int* clue, int k, int n, uint8_t* out, int* win_lo, int* win_hi, bool update) {
    int need = k - 1;
    for (int j = 0; j < k; ++j) need += clue[j];
    if (k == 0) need = 0;
    const int slack = n - need;
    if (slack < 0) return false;
    std::fill(out, out + n, static_cast<uint8_t>(k == 0 || slack == 0 ? 1 : 3));
    for (int j = 0, start = 0; j < k; start += clue[j] + 1, ++j) {
        for (int c = start + slack; c < start + clue[j]; ++c) out[c] = 2;
        if (update) {
            win_lo[j] = start;
            win_hi[j] = start + slack;
        }
    }
    return true;
}

// LineDP::fix on bit sets (bitline.hpp) for a part of n cells that fits the word: the
// same answer (a line's fixpoint is unique) and, with update, the same windows (each
// block's first and last valid starts).
template <typename Word>
bool bit_fix(cext::BitLineOf<Word>& solver, const int* clue, const int* rclue, int k, const uint8_t* line, int n,
             uint8_t* out, int* win_lo, int* win_hi, bool update) {
    Word e = 0, f = 0;
    for (int i = 0; i < n; ++i) {
        e |= static_cast<Word>(line[i] & 1) << i;
        f |= static_cast<Word>(line[i] >> 1) << i;
    }
    Word may_empty = 0, may_fill = 0;
    if (!solver.fix(clue, rclue, k, e, f, n, may_empty, may_fill, update ? win_lo : nullptr,
                    update ? win_hi : nullptr))
        return false;
    for (int i = 0; i < n; ++i)
        out[i] = static_cast<uint8_t>((static_cast<unsigned>(may_empty >> i) & 1) |
                                      ((static_cast<unsigned>(may_fill >> i) & 1) << 1));
    return true;
}

class LineSolver {
public:
    // strategy: a Strategy; cap: enumerate's budget of block positions per line solve.
    LineSolver(int strategy, long long cap) : strategy_(strategy), cap_(cap) {}

    // Narrows line[0..n) for the clue clue[0..k) (rclue: the same reversed) into out;
    // false on a contradiction.  Block j may only start in [win_lo[j], win_hi[j]] (a
    // superset of its valid starts); with update the DP narrows them to this solve's
    // valid starts (the other strategies neither read nor narrow them).  A rule
    // strategy leaves in labels() the rule that decided each cell.
    bool fix(const int* clue, const int* rclue, int k, const uint8_t* line, int n, uint8_t* out, int* win_lo,
             int* win_hi, bool update) {
        switch (strategy_) {
        case CHAIN_RANGE:
        case OVERLAP:
            labels_.resize(n > 0 ? n : 1);
            return rules_.fix(line, n, clue, k, out, strategy_ == CHAIN_RANGE, labels_.data());
        case ENUMERATE:
            return enumerate_.fix(line, n, clue, k, out, cap_);
        default:
            break;
        }
        int blank = 0;  // the part solved is all unknown (each line's first solve): no DP needed
        while (blank < n && line[blank] == 3) ++blank;
        if (blank == n || k == 0) return blank_or_empty(clue, k, line, n, out, win_lo, win_hi, update);
        if (words_ == BYTES) return dp_.fix(clue, k, line, n, out, win_lo, win_hi, update);
        if (words_ == AUTO && n <= cext::BitLine64::MAX_CELLS)
            return bit_fix(bits64_, clue, rclue, k, line, n, out, win_lo, win_hi, update);
        if (words_ == AUTO && n <= cext::BitLine::MAX_CELLS)
            return bit_fix(bits128_, clue, rclue, k, line, n, out, win_lo, win_hi, update);
        if (words_ == WIDE || WideLine::use(clue, k, n, win_lo, win_hi))
            return wide_.fix(clue, rclue, k, line, n, out, update ? win_lo : nullptr, update ? win_hi : nullptr);
        return dp_.fix(clue, k, line, n, out, win_lo, win_hi, update);
    }

    // Which complete solver the DP strategy uses on a part that is not all unknown: AUTO
    // (one or two words up to 127 cells, then the word arrays or the byte DP, whichever
    // WideLine::use expects to be cheaper), or always BYTES (LineDP) or WIDE (WideLine),
    // for the tests that compare them and for benchmarks.
    enum Words { AUTO = 0, BYTES = 1, WIDE = 2 };
    void use_words(int words) { words_ = words; }

    int strategy() const { return strategy_; }
    long long cap() const { return cap_; }
    // Only the DP's solves narrow the blocks' windows (the engine then trims its lines).
    bool narrows_windows() const { return strategy_ == DP; }
    bool labelled() const { return strategy_ == CHAIN_RANGE || strategy_ == OVERLAP; }
    const std::vector<uint8_t>& labels() const { return labels_; }

private:
    int strategy_;
    long long cap_;
    int words_ = AUTO;
    cext::LineDP dp_;
    cext::BitLine64 bits64_;
    cext::BitLine bits128_;
    WideLine wide_;
    RuleLine rules_;
    EnumerateLine enumerate_;
    std::vector<uint8_t> labels_;

    // An all-unknown part (closed form), or a clue of no block (every cell empty).
    static bool blank_or_empty(const int* clue, int k, const uint8_t* line, int n, uint8_t* out, int* win_lo,
                               int* win_hi, bool update) {
        if (k > 0) return blank_fix(clue, k, n, out, win_lo, win_hi, update);
        for (int i = 0; i < n; ++i)
            if (line[i] == 2) return false;
        std::fill(out, out + n, static_cast<uint8_t>(1));
        return true;
    }
};

}  // namespace native
