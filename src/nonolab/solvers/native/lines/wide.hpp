// The complete line solver on bit sets for lines of any length: BitLineOf's passes
// (_cext/bitline.hpp) on arrays of 64-bit words, for the lines too long for one word.
//
// On a 10,000-cell line of a few long blocks the byte DP (LineDP::fix, _cext/line.hpp)
// walks every cell several times (its prefix counts, its tables, its output) and every
// position of every block's window; here a row of the table is 157 words and each pass
// over it handles 64 cells at once.  The answer is the same (a line's fixpoint is
// unique) and so are the windows written back (each block's first and last valid
// starts).  A row costs O(n / 64 * log(length)) word operations whatever the windows,
// so lines of many blocks with narrow windows stay with the byte DP: LineSolver picks
// the cheaper by an estimate of both (use()).
//
// The word arrays hold bit p of a row in word p / 64, bit p % 64; every row fits n + 1
// bits (prefix lengths 0..n), and no pass sets a bit beyond n (see forward()).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../../_cext/bitline.hpp"

namespace native {

class WideLine {
public:
    // Whether the word passes are expected to be cheaper than the byte DP for this line
    // (n cells, k blocks, blocks' windows win_lo/win_hi): the byte DP costs about
    // four steps a cell plus three a window position, the words about
    // (2 log(length) + 12) word operations a block and a word of the line.
    static bool use(const int* clue, int k, int n, const int* win_lo, const int* win_hi) {
        long long bytes = 4LL * n, words = 0;
        const long long W = n / 64 + 1;
        for (int j = 0; j < k; ++j) {
            bytes += 3LL * (win_hi[j] - win_lo[j] + 1 + clue[j]);
            words += 2 * (64 - __builtin_clzll(static_cast<unsigned long long>(clue[j]))) + 12;
        }
        return words * W < bytes;
    }

    // LineDP::fix's answer for line[0..n) (state masks) into out[0..n); false when no
    // arrangement agrees.  With win_lo / win_hi, block j's first and last valid starts
    // are written there.
    bool fix(const int* clue, const int* rclue, int k, const uint8_t* line, int n, uint8_t* out, int* win_lo,
             int* win_hi) {
        W_ = (n + 1 + 63) / 64;
        const size_t W = W_;
        e_.assign(W, 0);
        f_.assign(W, 0);
        pack(line, n, e_.data(), f_.data());
        if (k == 0) {
            for (size_t i = 0; i < W; ++i)
                if (f_[i] & ~e_[i]) return false;
            std::memset(out, 1, n);
            return true;
        }
        int need = k - 1;
        for (int j = 0; j < k; ++j) need += clue[j];
        if (need > n) return false;
        F_.resize((k + 1) * W);
        R_.resize((k + 1) * W);
        B_.resize((k + 1) * W);
        run_.resize(k * W);
        rrun_.resize(k * W);
        tmp_.resize(W);
        through_.resize(W);
        shl(through_.data(), e_.data(), 1);
        fruns_.clear();  // the maximal runs of fillable cells, [a, b) pairs
        for (int a = next_set(f_.data(), 0); a >= 0;) {
            const int b = next_clear(f_.data(), a);
            fruns_.push_back(a);
            fruns_.push_back(b);
            a = next_set(f_.data(), b);
        }
        for (int j = 0; j < k; ++j) runs(row(run_, j), f_.data(), clue[j]);
        if (!forward(clue, k, n, e_.data(), through_.data(), run_.data(), F_.data())) return false;
        // The same pass on the line read backwards (feasible too), reversed back into B.
        re_.resize(W);
        reverse(re_.data(), e_.data(), n);
        shl(through_.data(), re_.data(), 1);
        for (int j = 0; j < k; ++j) {  // block k-1-j's runs read backwards: its starts become its ends
            reverse(row(rrun_, j), row(run_, k - 1 - j), n);
            shr(row(rrun_, j), row(rrun_, j), clue[k - 1 - j] - 1);
        }
        forward(rclue, k, n, re_.data(), through_.data(), rrun_.data(), R_.data());
        for (int j = 0; j <= k; ++j) reverse(row(B_, j), row(R_, k - j), n + 1);
        uint64_t* empty = through_.data();  // (through is done with)
        std::memset(empty, 0, W * 8);
        uint64_t* b = tmp_.data();
        for (int j = 0; j <= k; ++j) {
            shr(b, row(B_, j), 1);
            const uint64_t* fj = row(F_, j);
            for (size_t i = 0; i < W; ++i) empty[i] |= fj[i] & e_[i] & b[i];
        }
        fill_.assign(W, 0);
        left_.resize(W);
        for (int j = 0; j < k; ++j) {
            const int len = clue[j];
            uint64_t* left = left_.data();
            if (j == 0) {
                std::memcpy(left, row(F_, 0), W * 8);
            } else {
                const uint64_t* fj = row(F_, j);
                for (size_t i = 0; i < W; ++i) b[i] = fj[i] & e_[i];
                shl(left, b, 1);
            }
            // right: block j may end at e (bit e - len of the starts): then cell e is empty
            // and blocks j+1.. fit from e + 1, or e = n for the last block.
            if (j == k - 1) {
                shr(b, row(B_, k), len);
            } else {
                shr(b, row(B_, j + 1), 1);
                for (size_t i = 0; i < W; ++i) b[i] &= e_[i];
                shr(b, b, len);
            }
            const uint64_t* r = row(run_, j);
            bool any = false;
            for (size_t i = 0; i < W; ++i) {
                left[i] &= r[i] & b[i];  // the valid starts (never none: the line is feasible)
                any |= left[i] != 0;
            }
            if (!any) return false;  // (cannot happen; kept so that a bug is a contradiction, not a crash)
            if (win_lo) {
                win_lo[j] = lowest(left);
                win_hi[j] = highest(left);
            }
            smear(left, len);
            for (size_t i = 0; i < W; ++i) fill_[i] |= left[i];
        }
        unpack(empty, fill_.data(), n, out);
        return true;
    }

private:
    int W_ = 0;
    std::vector<uint64_t> e_, f_, re_, through_, F_, R_, B_, run_, rrun_, tmp_, left_, fill_;
    std::vector<int> fruns_, starts_;  // maximal runs of set bits, [a, b) pairs

    uint64_t* row(std::vector<uint64_t>& rows, int j) { return rows.data() + static_cast<size_t>(j) * W_; }

    // e: bit c when cell c may be empty (mask bit 1); f: may be filled (mask bit 2).
    // Eight cells at a time: the low bit of each byte gathered by one multiplication.
    static void pack(const uint8_t* line, int n, uint64_t* e, uint64_t* f) {
        int c = 0;
#if defined(__SSE2__)
        for (; c + 16 <= n; c += 16) {  // sixteen cells: each byte's low bits moved to its top, gathered
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line + c));
            e[c >> 6] |= static_cast<uint64_t>(_mm_movemask_epi8(_mm_slli_epi64(x, 7))) << (c & 63);
            f[c >> 6] |= static_cast<uint64_t>(_mm_movemask_epi8(_mm_slli_epi64(x, 6))) << (c & 63);
        }
#endif
        for (; c + 8 <= n; c += 8) {
            uint64_t x;
            std::memcpy(&x, line + c, 8);
            const uint64_t lo = x & 0x0101010101010101ULL, hi = (x >> 1) & 0x0101010101010101ULL;
            e[c >> 6] |= ((lo * 0x0102040810204080ULL) >> 56) << (c & 63);
            f[c >> 6] |= ((hi * 0x0102040810204080ULL) >> 56) << (c & 63);
        }
        for (; c < n; ++c) {
            e[c >> 6] |= static_cast<uint64_t>(line[c] & 1) << (c & 63);
            f[c >> 6] |= static_cast<uint64_t>(line[c] >> 1) << (c & 63);
        }
    }

    // out[c] = bit c of empty | bit c of fill << 1, eight cells at a time.
    static void unpack(const uint64_t* empty, const uint64_t* fill, int n, uint8_t* out) {
        int c = 0;
        for (; c + 8 <= n; c += 8) {
            const unsigned eb = (empty[c >> 6] >> (c & 63)) & 0xFF, fb = (fill[c >> 6] >> (c & 63)) & 0xFF;
            const uint64_t x = spread(eb) | (spread(fb) << 1);
            std::memcpy(out + c, &x, 8);
        }
        for (; c < n; ++c)
            out[c] = static_cast<uint8_t>(((empty[c >> 6] >> (c & 63)) & 1) | (((fill[c >> 6] >> (c & 63)) & 1) << 1));
    }

    // Byte i of the result is bit i of b (0 or 1): a table of the 256 bytes.
    static uint64_t spread(unsigned b) {
        static const std::array<uint64_t, 256> table = [] {
            std::array<uint64_t, 256> t{};
            for (unsigned v = 0; v < 256; ++v)
                for (int i = 0; i < 8; ++i) t[v] |= static_cast<uint64_t>((v >> i) & 1) << (8 * i);
            return t;
        }();
        return table[b];
    }

    // dst = src << s (bits shifted towards higher cells); dst may be src.
    void shl(uint64_t* dst, const uint64_t* src, int s) const {
        const int W = W_, ws = s >> 6, b = s & 63;
        for (int i = W - 1; i >= 0; --i) {
            const int from = i - ws;
            uint64_t v = from >= 0 ? src[from] << b : 0;
            if (b && from >= 1) v |= src[from - 1] >> (64 - b);
            dst[i] = v;
        }
    }

    // dst = src >> s; dst may be src.
    void shr(uint64_t* dst, const uint64_t* src, int s) const {
        const int W = W_, ws = s >> 6, b = s & 63;
        for (int i = 0; i < W; ++i) {
            const int from = i + ws;
            uint64_t v = from < W ? src[from] >> b : 0;
            if (b && from + 1 < W) v |= src[from + 1] << (64 - b);
            dst[i] = v;
        }
    }

    // dst = the m low bits of src reversed (bit c to bit m - 1 - c); dst is not src.
    void reverse(uint64_t* dst, const uint64_t* src, int m) const {
        const int W = W_;
        for (int i = 0; i < W; ++i) dst[W - 1 - i] = cext::reverse_bits(src[i]);
        shr(dst, dst, 64 * W - m);
    }

    // Bit st: cells st..st+len-1 may all be filled.  From the maximal runs of fillable
    // cells (fruns_, [a, b) pairs: the starts a..b-len) when they are few, else f AND-ed
    // over len shifts (doubling: log(len) passes over the words).
    void runs(uint64_t* r, const uint64_t* f, int len) const {
        const int W = W_;
        if (len > 8 && fruns_.size() <= static_cast<size_t>(2 * W)) {
            std::memset(r, 0, static_cast<size_t>(W) * 8);
            for (size_t i = 0; i < fruns_.size(); i += 2)
                set_range(r, fruns_[i], fruns_[i + 1] - len + 1);
            return;
        }
        std::memcpy(r, f, static_cast<size_t>(W_) * 8);
        for (int have = 1; have < len;) {
            const int step = have < len - have ? have : len - have, ws = step >> 6, b = step & 63;
            for (int i = 0; i < W; ++i) {  // r &= r >> step, in place: word i reads words >= i only
                const int from = i + ws;
                uint64_t v = from < W ? r[from] >> b : 0;
                if (b && from + 1 < W) v |= r[from + 1] << (64 - b);
                r[i] &= v;
            }
            have += step;
        }
    }

    // Bit c: some bit of v lies in c-len+1..c.  For a long block, each maximal run
    // [a, b) of v becomes [a, b + len - 1); else v |= v << step, doubling, in place.
    void smear(uint64_t* v, int len) {
        const int W = W_;
        if (len > 64) {
            starts_.clear();
            for (int a = next_set(v, 0); a >= 0;) {
                const int b = next_clear(v, a);
                starts_.push_back(a);
                starts_.push_back(b);
                a = next_set(v, b);
            }
            for (size_t i = 0; i < starts_.size(); i += 2) set_range(v, starts_[i], starts_[i + 1] + len - 1);
            return;
        }
        for (int have = 1; have < len;) {
            const int step = have < len - have ? have : len - have, ws = step >> 6, b = step & 63;
            for (int i = W - 1; i >= 0; --i) {  // word i reads words <= i only
                const int from = i - ws;
                uint64_t x = from >= 0 ? v[from] << b : 0;
                if (b && from >= 1) x |= v[from - 1] >> (64 - b);
                v[i] |= x;
            }
            have += step;
        }
    }

    // dst = bit p: p is a seed, or p - 1 is in dst and p in m; one addition carries
    // each seed up its run of m (as BitLineOf::spread, the carry rippling across words).
    void spread_into(uint64_t* dst, const uint64_t* seeds, const uint64_t* m) const {
        unsigned carry = 0;
        for (int i = 0; i < W_; ++i) {
            const uint64_t x = m[i] | seeds[i];
            const unsigned __int128 sum = static_cast<unsigned __int128>(x) + seeds[i] + carry;
            carry = static_cast<unsigned>(sum >> 64);
            dst[i] = ((static_cast<uint64_t>(sum) ^ x) & x) | seeds[i];
        }
    }

    // The first set bit at p or after (-1: none); the first clear bit at p or after.
    int next_set(const uint64_t* v, int p) const {
        int i = p >> 6;
        if (i >= W_) return -1;
        uint64_t x = v[i] & (~0ULL << (p & 63));
        while (!x) {
            if (++i >= W_) return -1;
            x = v[i];
        }
        return 64 * i + __builtin_ctzll(x);
    }
    int next_clear(const uint64_t* v, int p) const {
        int i = p >> 6;
        if (i >= W_) return 64 * W_;
        uint64_t x = ~v[i] & (~0ULL << (p & 63));
        while (!x) {
            if (++i >= W_) return 64 * W_;
            x = ~v[i];
        }
        return 64 * i + __builtin_ctzll(x);
    }

    // Bits [lo, hi) set (none when hi <= lo).
    static void set_range(uint64_t* v, int lo, int hi) {
        if (lo >= hi) return;
        const int a = lo >> 6, b = (hi - 1) >> 6;
        const uint64_t first = ~0ULL << (lo & 63), last = ~0ULL >> (63 - ((hi - 1) & 63));
        if (a == b) {
            v[a] |= first & last;
            return;
        }
        v[a] |= first;
        for (int i = a + 1; i < b; ++i) v[i] = ~0ULL;
        v[b] |= last;
    }

    int lowest(const uint64_t* v) const {
        for (int i = 0; i < W_; ++i)
            if (v[i]) return 64 * i + __builtin_ctzll(v[i]);
        return -1;
    }
    int highest(const uint64_t* v) const {
        for (int i = W_ - 1; i >= 0; --i)
            if (v[i]) return 64 * i + 63 - __builtin_clzll(v[i]);
        return -1;
    }

    // rows[0..k]: bit p of row j, the first p cells hold exactly blocks 0..j-1 (run[j]:
    // block j's fillable starts; through: bit p, cell p - 1 may be empty).  No bit beyond
    // n is set: ends are at most n (a start's cells are all below n), and the carry of a
    // spread past n is masked off.  false when the clue fits no prefix or not the line.
    bool forward(const int* clue, int k, int n, const uint64_t* e, const uint64_t* through, const uint64_t* run,
                 uint64_t* rows) {
        const size_t W = W_;
        uint64_t* t = tmp_.data();
        std::memset(t, 0, W * 8);
        t[0] = 1;
        spread_into(rows, t, through);
        for (int j = 1; j <= k; ++j) {
            const uint64_t* prev = rows + (j - 1) * W;
            const uint64_t* r = run + (j - 1) * W;
            if (j == 1) {
                for (size_t i = 0; i < W; ++i) t[i] = prev[i] & r[i];
            } else {  // a start after a prefix of blocks and one empty cell
                for (size_t i = 0; i < W; ++i) t[i] = prev[i] & e[i];
                shl(t, t, 1);
                for (size_t i = 0; i < W; ++i) t[i] &= r[i];
            }
            shl(t, t, clue[j - 1]);  // the ends
            bool any = false;
            for (size_t i = 0; i < W; ++i) any |= t[i] != 0;
            if (!any) return false;
            spread_into(rows + j * W, t, through);
        }
        return (rows[k * W + (n >> 6)] >> (n & 63)) & 1;
    }
};

}  // namespace native
