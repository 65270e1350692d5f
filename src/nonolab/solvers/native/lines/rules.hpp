// Rule-based line strategies: simple overlap and chain ranges (the chain rules of block
// bounds), each cell labelled with the rule that decided it.
//
// Both work on per-block start bounds: lo[b] is a lower bound on where block b can start
// in any arrangement consistent with the line, and the same computation on the reversed
// line gives an upper bound.  From the bounds:
//
//  * simple overlap: the cells between block b's latest start and its earliest end are
//    filled in every arrangement;
//  * clue exhaustion: a cell that no block can reach is empty (the clue is used up on
//    both sides of it);
//  * block capping (chain range only): a run of boxes as long as the longest block that
//    could cover it is a complete block, so the cells at its two ends are empty.
//
// The bounds come from the three reductions of the chain rules -- by a box on the right,
// by neighbouring boxes and by spaces -- repeated until no bound moves.  Every reduction
// only raises bounds, so any order reaches the same fixpoint; we sweep left to right
// (order, spaces, neighbours: pushing a later chain is the chain rules' backtrack) and
// right to left (the box on the right) in turn.  At the fixpoint the bounds are the
// leftmost arrangement when one exists: each block sits off spaces and boxes, in order,
// and the box rule leaves no box in a gap or after the last block; only a box before
// the first block can be uncovered, and the mirrored pass then puts that block's upper
// bound below its lower one.
//
// overlap is the textbook left-right overlap: the leftmost and rightmost arrangements,
// overlapped once (simple overlap and clue exhaustion).  chain-range adds block capping
// and repeats everything until the line stops changing (a capped end may move a bound),
// so it decides at least what overlap does.  Both are sound (every bound holds for every
// consistent arrangement) and neither is complete (the DP fixes more), but both find
// every contradiction of a fully decided line: such a line is checked against its clue.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace native {

// What decided a cell (the step log's human techniques, see nonolab.solvers.native.modes).
enum Label : uint8_t { UNCHANGED = 0, SIMPLE_OVERLAP = 1, BLOCK_CAPPING = 2, CLUE_EXHAUSTION = 3 };

// Whether a fully decided line has exactly the runs of its clue.
inline bool matches_clue(const uint8_t* line, int n, const int* clue, int k) {
    int b = 0, run = 0;
    for (int i = 0; i <= n; ++i) {
        if (i < n && line[i] == 2) {
            ++run;
        } else if (run > 0) {
            if (b >= k || clue[b] != run) return false;
            ++b;
            run = 0;
        }
    }
    return b == k;
}

class RuleLine {
public:
    // Narrows line[0..n) for clue[0..k) into out by left-right overlap, or by chain ranges
    // (capping set), repeated until the line stops changing; labels[c] gets the rule that
    // first decided cell c.  false: a contradiction.
    bool fix(const uint8_t* line, int n, const int* clue, int k, uint8_t* out, bool capping, uint8_t* labels) {
        cur_.assign(line, line + n);
        std::fill(labels, labels + n, static_cast<uint8_t>(UNCHANGED));
        if (k == 0) {
            for (int c = 0; c < n; ++c) {
                if (line[c] == 2) return false;
                out[c] = 1;
                if (line[c] == 3) labels[c] = CLUE_EXHAUSTION;
            }
            return true;
        }
        lo_.resize(k);
        hi_.resize(k);
        last_box_.resize(n + 1);
        last_space_.resize(n + 1);
        cover_.resize(n + 1);
        while (true) {
            if (!bounds(cur_.data(), n, clue, k)) return false;
            if (!conclude(cur_.data(), n, clue, k, out, labels)) return false;
            if (capping && !cap_runs(out, n, clue, k, labels)) return false;
            bool changed = false, decided = true;
            for (int c = 0; c < n; ++c) {
                if (out[c] != cur_[c]) {
                    changed = true;
                    cur_[c] = out[c];
                }
                if (out[c] == 3) decided = false;
            }
            if (decided) return matches_clue(out, n, clue, k);
            if (!(changed && capping)) return true;
        }
    }

private:
    std::vector<uint8_t> cur_;
    std::vector<int> lo_, hi_, last_box_, last_space_, cover_;

    // Cell i and block b in scan order: with rev, the line and the clue read backwards.
    static uint8_t cell(const uint8_t* line, int n, int i, bool rev) { return rev ? line[n - 1 - i] : line[i]; }
    static int length(const int* clue, int k, int b, bool rev) { return rev ? clue[k - 1 - b] : clue[b]; }

    // The first start >= s that overlaps no space and touches no box.
    int settle(const uint8_t* line, int n, bool rev, int s, int len) const {
        while (s + len <= n) {
            const int q = last_space_[s + len];
            if (q >= s) {  // reduce by spaces: jump past the last space under the block
                s = q + 1;
            } else if (s > 0 && cell(line, n, s - 1, rev) == 2) {  // reduce by a neighbour box
                ++s;
            } else if (s + len < n && cell(line, n, s + len, rev) == 2) {
                ++s;
            } else {
                break;
            }
        }
        return s;
    }

    // Lower bounds on every block's start into lo[0..k) (in scan order); false if none fits.
    // With rev the line and the clue are read backwards, which turns them into upper bounds.
    bool left_bounds(const uint8_t* line, int n, const int* clue, int k, bool rev, int* lo) {
        last_box_[0] = -1;
        last_space_[0] = -1;
        for (int i = 0; i < n; ++i) {  // the last box / space among the first i cells, in scan order
            const uint8_t v = cell(line, n, i, rev);
            last_box_[i + 1] = v == 2 ? i : last_box_[i];
            last_space_[i + 1] = v == 1 ? i : last_space_[i];
        }
        for (int b = 0, start = 0; b < k; ++b) {
            lo[b] = start;
            start += length(clue, k, b, rev) + 1;
        }
        while (true) {
            bool changed = false;
            for (int b = 0; b < k; ++b) {  // left to right: order, spaces, neighbour boxes
                const int len = length(clue, k, b, rev);
                int s = lo[b];
                if (b > 0) s = std::max(s, lo[b - 1] + length(clue, k, b - 1, rev) + 1);
                s = settle(line, n, rev, s, len);
                if (s + len > n) return false;
                if (s != lo[b]) {
                    lo[b] = s;
                    changed = true;
                }
            }
            // Right to left: a box that no later block can reach (it lies before their
            // earliest starts) belongs to this block or an earlier one, so this block ends
            // at it or later.
            int limit = n;
            for (int b = k - 1; b >= 0; --b) {
                const int len = length(clue, k, b, rev);
                const int p = last_box_[limit];
                if (p >= 0 && p - len + 1 > lo[b]) {
                    lo[b] = p - len + 1;
                    changed = true;
                }
                limit = lo[b];
            }
            if (!changed) return true;
        }
    }

    // Both bounds of every block, in forward coordinates; false if the line is contradictory.
    bool bounds(const uint8_t* line, int n, const int* clue, int k) {
        if (!left_bounds(line, n, clue, k, false, lo_.data())) return false;
        if (!left_bounds(line, n, clue, k, true, hi_.data())) return false;
        std::reverse(hi_.begin(), hi_.begin() + k);  // reversed lower bounds: block k-1-b first
        for (int b = 0; b < k; ++b) hi_[b] = n - clue[b] - hi_[b];
        return true;
    }

    // Cells from the bounds: overlap and exhaustion into out, with the labels of the cells
    // decided; false on a contradiction (a box no block reaches, a space inside an overlap).
    bool conclude(const uint8_t* line, int n, const int* clue, int k, uint8_t* out, uint8_t* labels) {
        std::fill(cover_.begin(), cover_.begin() + n + 1, 0);
        for (int b = 0; b < k; ++b) {
            if (hi_[b] < lo_[b]) return false;
            ++cover_[lo_[b]];  // block b may cover [lo, hi + length)
            --cover_[hi_[b] + clue[b]];
        }
        std::fill(out, out + n, static_cast<uint8_t>(0));
        for (int b = 0; b < k; ++b)
            for (int c = hi_[b]; c < lo_[b] + clue[b]; ++c) out[c] = 2;  // covered wherever the block lies
        int reach = 0;
        for (int c = 0; c < n; ++c) {
            reach += cover_[c];
            const uint8_t allowed = out[c] == 2 ? 2 : (reach > 0 ? 3 : 1);
            const uint8_t v = line[c] & allowed;
            if (v == 0) return false;
            out[c] = v;
            if (v != line[c] && labels[c] == UNCHANGED) labels[c] = v == 2 ? SIMPLE_OVERLAP : CLUE_EXHAUSTION;
        }
        return true;
    }

    // Block capping on out, in place: empty both ends of a run of boxes that is a whole
    // block; false on a contradiction (a run no block can cover).
    bool cap_runs(uint8_t* out, int n, const int* clue, int k, uint8_t* labels) const {
        int a = 0;
        while (a < n) {
            if (out[a] != 2) {
                ++a;
                continue;
            }
            int e = a;
            while (e < n && out[e] == 2) ++e;
            int longest = 0;
            for (int b = 0; b < k; ++b) {  // the blocks that can cover the whole run
                const int len = clue[b];
                if (len >= e - a && lo_[b] <= a && hi_[b] + len >= e) longest = std::max(longest, len);
            }
            if (longest == 0) return false;
            if (longest == e - a) {
                for (const int c : {a - 1, e}) {
                    if (0 <= c && c < n && out[c] == 3) {
                        out[c] = 1;
                        if (labels[c] == UNCHANGED) labels[c] = BLOCK_CAPPING;
                    }
                }
            }
            a = e;
        }
        return true;
    }
};

}  // namespace native
