// The complete line solver on bit sets, for lines of at most 127 cells (a 64-bit word
// up to 63): the same answer as LineDP::fix (line.hpp), every row of its tables
// computed at once.
//
// A line is two masks over its cells: e (bit c: cell c may be empty) and f (may be
// filled).  F[j], bit p: the first p cells can hold exactly blocks 0..j-1 (the
// prefix/suffix reachability of line.hpp, one word per row).  Row j is made
// from row j-1 in a few word operations: the starts block j-1 may take (after a
// prefix of F[j-1] and an empty cell), those whose cells may all be filled (f
// shifted onto itself, doubling: log(length) steps), their ends, then each end
// spread rightwards through cells that may be empty.  That spread is one addition:
// in x = seeds | the cells it may cross, adding the seeds carries each run of x from
// its lowest seed up, so (x + seeds) ^ x marks the run above it.  The suffix table
// B is the same pass on the reversed line and clue, reversed back (one bit reversal
// per row).  A cell may be empty when some gap j covers it with F[j] on its left and
// B[j] on its right; it may be filled when some valid start of some block covers it.
// A line solve costs O(k log n) word operations against LineDP's O(k * slack) bytes.
#pragma once

#include <cstdint>

// The hot word-operation functions are compiled twice on x86-64, for the baseline and
// for x86-64-v3 (BMI1/2, LZCNT: shifts by a register without the flags, bit counts in
// one instruction), the copy chosen when the module loads: about 4 % fewer instructions
// in lcg's search, and the build still runs on any x86-64 (no -march).
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CEXT_WORD_CLONES __attribute__((target_clones("default", "arch=x86-64-v3")))
#endif
#endif
#ifndef CEXT_WORD_CLONES
#define CEXT_WORD_CLONES
#endif

namespace cext {

using Bits = unsigned __int128;

// The word operations the solver needs, for a 64-bit or a 128-bit word.
inline uint64_t reverse_bits(uint64_t x) {
    x = __builtin_bswap64(x);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    return ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
}
inline Bits reverse_bits(Bits x) {
    return (static_cast<Bits>(reverse_bits(static_cast<uint64_t>(x))) << 64) |
           reverse_bits(static_cast<uint64_t>(x >> 64));
}
inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }  // x != 0
inline int lowest_bit(Bits x) {
    const uint64_t lo = static_cast<uint64_t>(x);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(x >> 64));
}
inline int highest_bit(uint64_t x) { return 63 - __builtin_clzll(x); }  // x != 0
inline int highest_bit(Bits x) {
    const uint64_t hi = static_cast<uint64_t>(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(static_cast<uint64_t>(x));
}

// Word: uint64_t (lines of up to 63 cells) or Bits (up to 127); the masks passed in
// and out are words, bit c for cell c.
template <typename Word>
class BitLineOf {
public:
    static constexpr int WIDTH = 8 * sizeof(Word);
    static constexpr int MAX_CELLS = WIDTH - 1;  // bit n (the whole line's prefix) must fit

    static Word one(int i) { return static_cast<Word>(1) << i; }
    static Word low(int n) { return n >= WIDTH ? ~static_cast<Word>(0) : one(n) - 1; }

    // Reverses the n low bits of x (bit c goes to bit n - 1 - c); 1 <= n <= WIDTH.
    static Word reverse(Word x, int n) { return reverse_bits(x) >> (WIDTH - n); }

    // may_empty / may_fill: the cells some arrangement leaves empty / fills; false when
    // no arrangement agrees with the line.  clue holds k positive lengths, rclue the
    // same reversed; e and f are the cells' masks (every cell in at least one).  With
    // win_lo and win_hi, block j's first and last valid starts are written there (the
    // windows LineDP::fix narrows with update: the native engine keeps them).
    CEXT_WORD_CLONES
    bool fix(const int* clue, const int* rclue, int k, Word e, Word f, int n, Word& may_empty, Word& may_fill,
             int* win_lo = nullptr, int* win_hi = nullptr) {
        return solve<true>(clue, rclue, k, e, f, n, may_empty, may_fill, win_lo, win_hi);
    }
    // fix() for a caller that knows the blocks fit in n cells (with a gap between each two):
    // it skips adding them up (lcg, once per line).
    CEXT_WORD_CLONES
    bool fix_fitting(const int* clue, const int* rclue, int k, Word e, Word f, int n, Word& may_empty,
                     Word& may_fill) {
        return solve<false>(clue, rclue, k, e, f, n, may_empty, may_fill, nullptr, nullptr);
    }

    // Whether the blocks with one cell between them fit in n cells.
    static bool fits(const int* clue, int k, int n) {
        int need = k - 1;
        for (int j = 0; j < k; ++j) need += clue[j];
        return need <= n;
    }

private:
    template <bool check_fit>
    __attribute__((always_inline)) bool solve(const int* clue, const int* rclue, int k, Word e, Word f, int n,
                                              Word& may_empty, Word& may_fill, int* win_lo, int* win_hi) {
        if (k == 0) {
            if (f & ~e) return false;  // a filled cell and no block
            may_empty = low(n);
            may_fill = 0;
            return true;
        }
        if (check_fit && !fits(clue, k, n)) return false;  // (and every shift below stays under 128)
        if (!forward(clue, k, e, f, n, F_, runs_)) return false;
        Word re, rf;
        if (WIDTH == 64 && n < 32) {
            // Two rows of under 32 bits reversed in one word: its halves swap, each reversed.
            const uint64_t both = reverse_bits(static_cast<uint64_t>(e) | static_cast<uint64_t>(f) << 32);
            re = static_cast<Word>((both >> 32) >> (32 - n));
            rf = static_cast<Word>((both & 0xFFFFFFFFULL) >> (32 - n));
        } else {
            re = reverse(e, n);
            rf = reverse(f, n);
        }
        Word rruns[MAX_CELLS + 1];
        forward(rclue, k, re, rf, n, R_, rruns);  // feasible too: the same line read backwards
        int j = 0;
        if (WIDTH == 64 && n < 32) {
            for (; j < k; j += 2) {
                const uint64_t both =
                    reverse_bits(static_cast<uint64_t>(R_[k - j]) | static_cast<uint64_t>(R_[k - j - 1]) << 32);
                B_[j] = static_cast<Word>((both >> 32) >> (31 - n));
                B_[j + 1] = static_cast<Word>((both & 0xFFFFFFFFULL) >> (31 - n));
            }
        }
        for (; j <= k; ++j) B_[j] = reverse(R_[k - j], n + 1);
        Word empty = 0, fill = 0;
        for (int j = 0; j <= k; ++j) empty |= F_[j] & e & (B_[j] >> 1);
        // Block j's starts: after a prefix (left), its cells fillable, before a suffix (right).
        auto block = [&](int j, Word left, Word right) {
            const int len = clue[j];
            const Word starts = left & runs_[j] & (right >> len);  // never empty: the line is feasible
            if (win_lo) {
                win_lo[j] = lowest_bit(starts);
                win_hi[j] = highest_bit(starts);
            }
            fill |= smear(starts, len);
        };
        // The first block's left and the last's right are the tables' ends.
        block(0, F_[0], k == 1 ? B_[1] : e & (B_[1] >> 1));
        for (int j = 1; j < k - 1; ++j) block(j, (F_[j] & e) << 1, e & (B_[j + 1] >> 1));
        if (k > 1) block(k - 1, (F_[k - 1] & e) << 1, B_[k]);
        may_empty = empty;
        may_fill = fill;
        return true;
    }

public:
    // Whether some arrangement of the clue agrees with the line (the forward pass only).
    bool feasible(const int* clue, int k, Word e, Word f, int n) {
        if (k == 0) return (f & ~e) == 0;
        if (!fits(clue, k, n)) return false;
        return forward(clue, k, e, f, n, F_, runs_);
    }

    // The explanation checks (Engine::explain, as DropChecker of drop.hpp): start on a
    // line, then ask whether it is feasible with cell i unknown, and drop the cells
    // that are not needed.  A check is one forward pass (O(k) word operations) whose
    // runs of fillable cells are kept from the line's: making cell i fillable adds the
    // starts of the run of fillable cells through i, a range found in O(1).
    void reset_drops(const int* clue, int k, Word e, Word f, int n) {
        clue_ = clue;
        k_ = k;
        n_ = n;
        e_ = e;
        f_ = f;
        fits_ = k == 0 || fits(clue, k, n);
        if (fits_)
            for (int j = 0; j < k; ++j) runs_[j] = runs(f, clue[j]);
        checked_ = -1;
    }

    bool feasible_without(int i) {
        if (!fits_) return false;
        const Word cell = one(i), e = e_ | cell, f = f_ | cell;
        if (k_ == 0) return (f & ~e) == 0;
        // The run of cells that may be filled through i: a..b.
        const Word blocked = ~f;  // (every bit from n on is blocked)
        const Word below = blocked & (cell - 1);
        const int a = below ? highest_bit(below) + 1 : 0;
        const int b = i + lowest_bit(blocked >> i) - 1;
        // The starts i's cell completes for a block of length len: st in a..i with its
        // last cell st + len - 1 in i..b, so from_i >> (len - 1) in two word operations.
        up_to_i_ = (cell | (cell - 1)) & ~(one(a) - 1);
        from_i_ = (one(b + 1) - 1) & ~(cell - 1);
        checked_ = i;  // up_to_i_ and from_i_ are i's
        const Word through = e << 1;
        Word row = spread(1, through);
        for (int j = 0; j < k_; ++j) {
            const int len = clue_[j];
            const Word starts = j == 0 ? row : (row & e) << 1;
            const Word ends = (starts & (runs_[j] | (up_to_i_ & (from_i_ >> (len - 1))))) << len;
            if (!ends) return false;
            row = spread(ends, through);
        }
        return ((row >> n_) & 1) != 0;
    }

    // Cell i is made unknown (after a check of i found the line infeasible without it).
    void dropped(int i) {
        e_ |= one(i);
        f_ |= one(i);
        if (!fits_ || k_ == 0) return;
        if (checked_ == i) {
            for (int j = 0; j < k_; ++j) runs_[j] |= up_to_i_ & (from_i_ >> (clue_[j] - 1));
        } else {
            for (int j = 0; j < k_; ++j) runs_[j] = runs(f_, clue_[j]);
        }
        checked_ = -1;
    }

private:
    Word F_[MAX_CELLS + 2], R_[MAX_CELLS + 2], B_[MAX_CELLS + 2], runs_[MAX_CELLS + 1];
    // The explanation checks' line, its runs (runs_) and the last check's cell's run of
    // fillable cells, a..i and i..b (the starts it adds, for dropped()).
    const int* clue_ = nullptr;
    int k_ = 0, n_ = 0, checked_ = -1;
    bool fits_ = true;
    Word e_ = 0, f_ = 0, up_to_i_ = 0, from_i_ = 0;


    // Bit p: p is a seed, or p - 1 is set and p is in m (each seed carried up its run).
    static Word spread(Word seeds, Word m) {
        const Word x = m | seeds;
        return (((x + seeds) ^ x) & x) | seeds;
    }

    // Bit st: cells st..st+len-1 may all be filled (f's bits AND-ed over len shifts).
    // Its shifts, 6 bits each from the lowest, per length: each doubles what the AND covers,
    // the last tops it up to len (a table, not the loop that finds them: fewer branches).
    struct RunPlans {
        uint64_t of[WIDTH + 1];
        constexpr RunPlans() : of() {
            for (int len = 1; len <= WIDTH; ++len) {
                int at = 0;
                for (int have = 1; have < len; at += 6) {
                    const int step = have < len - have ? have : len - have;
                    of[len] |= static_cast<uint64_t>(step) << at;
                    have += step;
                }
            }
        }
    };
    static Word runs(Word f, int len) {
        static constexpr RunPlans plans{};
        Word r = f;
        for (uint64_t plan = plans.of[len]; plan; plan >>= 6) r &= r >> (plan & 63);
        return r;
    }

    // Bit c: some bit of v lies in c-len+1..c.
    static Word smear(Word v, int len) {
        static constexpr RunPlans plans{};
        for (uint64_t plan = plans.of[len]; plan; plan >>= 6) v |= v << (plan & 63);
        return v;
    }

    // rows[0..k] (the table F of the masks' line), run[j] = runs(f, clue[j]); false
    // when the clue fits no prefix or not the whole line.
    static bool forward(const int* clue, int k, Word e, Word f, int n, Word* rows, Word* run) {
        const Word through = e << 1;  // bit p: cell p - 1 may be empty
        rows[0] = spread(1, through);
        for (int j = 1; j <= k; ++j) {
            const int len = clue[j - 1];
            const Word starts = j == 1 ? rows[0] : (rows[j - 1] & e) << 1;
            run[j - 1] = runs(f, len);
            const Word ends = (starts & run[j - 1]) << len;
            if (!ends) return false;
            rows[j] = spread(ends, through);
        }
        return ((rows[k] >> n) & 1) != 0;
    }
};

using BitLine = BitLineOf<Bits>;
using BitLine64 = BitLineOf<uint64_t>;

}  // namespace cext
