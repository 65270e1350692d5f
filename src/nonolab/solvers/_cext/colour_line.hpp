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
// there.  The states are bits of 64-bit words (states = sum of lengths + blocks + 1).
#pragma once

#include <cstdint>
#include <vector>

namespace cext {

// The automaton of one colour line, as bit masks over its states: every transition
// goes from state s to s (the gap's own loop), s + 1 (on in the block, into the gap
// after it, or from a gap into the next block) or s + 2 (from a block's last cell
// straight into the next block of another colour).  m0, m1, m2 hold, per value v,
// the states with a transition of that step reading v: bits v * words .. + words.
struct ColourAutomaton {
    int states = 1, words = 1, values = 1;
    std::vector<uint64_t> m0, m1, m2, accepting;

    ColourAutomaton() = default;
    ColourAutomaton(const std::vector<int>& lengths, const std::vector<int>& colours) {
        const int k = static_cast<int>(lengths.size());
        states = 1;
        values = 1;
        for (int j = 0; j < k; ++j) {
            states += lengths[j] + 1;
            if (colours[j] + 1 > values) values = colours[j] + 1;
        }
        words = (states + 63) / 64;
        const size_t size = static_cast<size_t>(values) * words;
        m0.assign(size, 0);
        m1.assign(size, 0);
        m2.assign(size, 0);
        accepting.assign(words, 0);
        auto edge = [&](int from, int v, int to) {
            std::vector<uint64_t>& m = to == from ? m0 : to == from + 1 ? m1 : m2;
            m[static_cast<size_t>(v) * words + from / 64] |= 1ULL << (from % 64);
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
        accepting[gap / 64] |= 1ULL << (gap % 64);
        if (k > 0) accepting[(gap - 1) / 64] |= 1ULL << ((gap - 1) % 64);
    }
};

// The forward and backward passes run on words of states (64 at a time): a cell's
// domain selects the union of its values' masks, and a step is an AND with each
// mask and a shift by 0, 1 or 2.  Each row of the forward pass keeps the window of
// words that may be non-zero (a step moves a state up by at most two, so row i + 1's
// window lies within row i's and one word more), and both passes work on the window
// alone: a line whose blocks have little slack, or whose cells are mostly decided,
// reaches a few states at each cell, whatever its length (a column of 2,000 cells of
// bands was 32 words a cell, about 1 in its window).  O(n * values * window) per call.
class ColourLineDP {
public:
    // Fills out[0..n) with each cell's surviving values; false when no placement fits.
    // Dom: uint32_t (lcg, up to 32 values) or uint64_t (the native engine, up to 64).
    template <typename Dom>
    bool fix(const ColourAutomaton& a, const Dom* dom, int n, Dom* out) {
        if (!forward(a, dom, n, 0)) return false;
        const int W = a.words;
        B_.assign(W, 0);
        s1_.resize(W);
        s2_.resize(W);
        next_.assign(W, 0);
        // B_: the states of row i + 1 that reach an accepting state, non-zero within
        // [blo, bhi] only (words outside it may hold stale values: never read).
        int blo = lo_[n], bhi = hi_[n];
        const uint64_t* last = F_.data() + static_cast<size_t>(n) * W;
        for (int w = blo; w <= bhi; ++w) B_[w] = last[w] & a.accepting[w];
        for (int i = n - 1; i >= 0; --i) {
            const uint64_t* row = F_.data() + static_cast<size_t>(i) * W;
            const int lo = lo_[i], hi = hi_[i];
            // s1, s2: the states one and two steps before a state of B.
            for (int w = lo; w <= hi; ++w) {
                const uint64_t here = w >= blo && w <= bhi ? B_[w] : 0;
                const uint64_t up = w + 1 >= blo && w + 1 <= bhi ? B_[w + 1] : 0;
                s1_[w] = (here >> 1) | (up << 63);
                s2_[w] = (here >> 2) | (up << 62);
            }
            const Dom d = dom[i];
            Dom seen = 0;
            for (int w = lo; w <= hi; ++w) {
                const uint64_t b = w >= blo && w <= bhi ? B_[w] : 0;
                uint64_t kept = 0;
                for (int v = 0; v < a.values; ++v) {
                    if (!((d >> v) & 1u)) continue;
                    const size_t at = static_cast<size_t>(v) * W + w;
                    const uint64_t hit = row[w] & ((a.m0[at] & b) | (a.m1[at] & s1_[w]) | (a.m2[at] & s2_[w]));
                    if (hit) seen |= static_cast<Dom>(1) << v;
                    kept |= hit;
                }
                next_[w] = kept;
            }
            out[i] = seen;
            B_.swap(next_);
            blo = lo;
            bhi = hi;
        }
        return true;
    }

    // Whether some placement fits.  With from > 0 the line may differ from the previous
    // call's (same automaton, same length) only at cells >= from: the forward rows of
    // prefix lengths <= from are kept.
    template <typename Dom>
    bool feasible_after(const ColourAutomaton& a, const Dom* dom, int n, int from) {
        return forward(a, dom, n, from);
    }

private:
    std::vector<uint64_t> F_, B_, s1_, s2_, next_;
    // Row i's window of words that may be non-zero: [lo_[i], hi_[i]] (words outside it
    // are not written, and read as zero).
    std::vector<int> lo_, hi_;

    // F[i]: the states the first i cells can lead the automaton to.  It returns false
    // at the first row that is empty (the rows below it are then left stale).
    template <typename Dom>
    bool forward(const ColourAutomaton& a, const Dom* dom, int n, int from) {
        const int W = a.words;
        if (from == 0) {
            F_.resize(static_cast<size_t>(n + 1) * W);
            lo_.resize(n + 1);
            hi_.resize(n + 1);
            F_[0] = 1;
            lo_[0] = hi_[0] = 0;
        }
        for (int i = from; i < n; ++i) {
            const uint64_t* row = F_.data() + static_cast<size_t>(i) * W;
            uint64_t* nxt = F_.data() + static_cast<size_t>(i + 1) * W;
            const int lo = lo_[i], hi = hi_[i], top = hi + 1 < W ? hi + 1 : hi;
            const Dom d = dom[i];
            uint64_t carry1 = 0, carry2 = 0;
            int first = -1, end = -1;
            for (int w = lo; w <= top; ++w) {
                const uint64_t r = w <= hi ? row[w] : 0;
                uint64_t c0 = 0, c1 = 0, c2 = 0;
                if (r)
                    for (int v = 0; v < a.values; ++v) {
                        if (!((d >> v) & 1u)) continue;
                        const size_t at = static_cast<size_t>(v) * W + w;
                        c0 |= a.m0[at];
                        c1 |= a.m1[at];
                        c2 |= a.m2[at];
                    }
                const uint64_t t1 = r & c1, t2 = r & c2;
                nxt[w] = (r & c0) | (t1 << 1) | carry1 | (t2 << 2) | carry2;
                carry1 = t1 >> 63;
                carry2 = t2 >> 62;
                if (nxt[w]) {
                    if (first < 0) first = w;
                    end = w;
                }
            }
            if (first < 0) return false;
            lo_[i + 1] = first;
            hi_[i + 1] = end;
        }
        for (int w = lo_[n]; w <= hi_[n]; ++w) {
            const uint64_t* last = F_.data() + static_cast<size_t>(n) * W;
            if (last[w] & a.accepting[w]) return true;
        }
        return false;
    }
};

}  // namespace cext
