// The complete line solver: every forced cell and every contradiction of one line.
//
// Cells are state masks: 1 empty, 2 filled, 3 unknown (as in nonolab.core.grid).
// The dynamic programme is prefix/suffix reachability (Wu et al. 2013): F[j][i] says
// the first i cells can hold exactly blocks 0..j-1, B[j][i] that cells i..n-1 can hold
// exactly blocks j..k-1; a cell may be empty when some gap covers it with both sides
// reachable, and may be filled when some valid start of some block covers it.  Each
// block's starts are restricted to a window (O(n + k * (slack + 1)) per call).  Two
// engines use it: lcg (static windows) and the native engine (windows narrowed as a
// propagation goes: src/nonolab/solvers/native/search/propagate.cpp); both solve lines
// of at most 127 cells on bit sets instead (bitline.hpp), and native most longer ones on
// word arrays (native/lines/wide.hpp), with the same answers.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace cext {

class LineDP {
public:
    // Fills out[0..n) with the set of values some arrangement gives each cell;
    // false when no arrangement of the clue agrees with the line.
    bool fix(const int* clue, int k, const uint8_t* s, int n, uint8_t* out) {
        int need = k - 1;
        for (int j = 0; j < k; ++j) need += clue[j];
        if (k > 0 && need > n) return false;
        wlo_.resize(k > 0 ? k : 1);
        whi_.resize(k > 0 ? k : 1);
        for (int j = 0, start = 0; j < k; start += clue[j] + 1, ++j) {
            wlo_[j] = start;
            whi_[j] = start + (n - need);
        }
        return fix(clue, k, s, n, out, wlo_.data(), whi_.data(), false);
    }

    // The same, with block j's start restricted to [win_lo[j], win_hi[j]]: any superset
    // of its valid starts gives the same answer (the static ranges [lo_j, lo_j + slack],
    // or the ranges an earlier solve of a wider state of the line found), and a solve
    // costs O(n + k * (window + 1)).  With update, the windows are narrowed to this
    // solve's valid starts, so later solves of the line, as it fills, cost less.  The
    // tables are compact: row j holds gap j's prefix lengths [glo_j, ghi_j], glo_j the
    // earliest end of block j-1 and ghi_j the latest start of block j (n for j = k).
    bool fix(const int* clue, int k, const uint8_t* s, int n, uint8_t* out, int* win_lo, int* win_hi,
             bool update) {
        kw_.resize(n + 1);
        kb_.resize(n + 1);
        kw_[0] = kb_[0] = 0;
        for (int i = 0; i < n; ++i) {
            kw_[i + 1] = kw_[i] + (s[i] == 1);
            kb_[i + 1] = kb_[i] + (s[i] == 2);
        }
        if (k == 0) {
            if (kb_[n] > 0) return false;
            for (int c = 0; c < n; ++c) out[c] = 1;
            return true;
        }
        const int* kw = kw_.data();
        glo_.resize(k + 1);
        off_.resize(k + 2);
        glo_[0] = 0;
        for (int j = 1; j <= k; ++j) glo_[j] = win_lo[j - 1] + clue[j - 1];
        off_[0] = 0;
        for (int j = 0; j <= k; ++j) {
            const int length = (j == k ? n : win_hi[j]) - glo_[j] + 1;
            if (length < 0) return false;
            off_[j + 1] = off_[j] + length;
        }
        const size_t cells = static_cast<size_t>(off_[k + 1]);
        // Every entry of both tables is written below before it is read: no clearing.
        if (FT_.size() < cells) { FT_.resize(cells); B_.resize(cells); }
        uint8_t* F = FT_.data();
        uint8_t* B = B_.data();
        const int* glo = glo_.data();
        const int* off = off_.data();
        // Forward: F(j, i) = s[0:i] holds exactly blocks 0..j-1, ending cleanly at i.
        for (int i = 0; i <= win_hi[0]; ++i) F[i] = kb_[i] == 0;
        for (int j = 1; j <= k; ++j) {
            const int len = clue[j - 1], g = glo[j], ghi = j == k ? n : win_hi[j], last_start = win_hi[j - 1];
            uint8_t* row = F + off[j];
            const uint8_t* prev = F + off[j - 1];
            const int pg = glo[j - 1];
            for (int i = g; i <= ghi; ++i) {
                uint8_t v = 0;
                if (i > g && row[i - 1 - g] && (s[i - 1] & 1)) {
                    v = 1;
                } else {
                    const int st = i - len;
                    if (st <= last_start && kw[i] == kw[st])
                        v = j == 1 ? F[st] : (st - 1 >= pg && (s[st - 1] & 1) && prev[st - 1 - pg]);
                }
                row[i - g] = v;
            }
        }
        if (!F[off[k] + n - glo[k]]) return false;
        // Backward: B(j, i) = s[i:n] holds exactly blocks j..k-1, starting cleanly at i.
        {
            uint8_t* row = B + off[k];
            const int g = glo[k];
            for (int i = n; i >= g; --i) row[i - g] = kb_[n] == kb_[i];
        }
        for (int j = k - 1; j >= 0; --j) {
            const int len = clue[j], g = glo[j], ghi = win_hi[j], first = win_lo[j];
            uint8_t* row = B + off[j];
            const uint8_t* nxt = B + off[j + 1];
            const int ng = glo[j + 1], nhi = j + 1 == k ? n : win_hi[j + 1];
            for (int i = ghi; i >= g; --i) {
                uint8_t v = 0;
                if (i < ghi && row[i + 1 - g] && (s[i] & 1)) {
                    v = 1;
                } else if (i >= first) {
                    const int e = i + len;
                    if (kw[e] == kw[i])
                        v = j == k - 1 ? nxt[e - ng] : (e < n && e + 1 <= nhi && (s[e] & 1) && nxt[e + 1 - ng]);
                }
                row[i - g] = v;
            }
        }
        for (int c = 0; c < n; ++c) out[c] = 0;
        // May be empty: some gap j covers cell c with both sides reachable.
        for (int j = 0; j <= k; ++j) {
            const int g = glo[j], ghi = j == k ? n : win_hi[j], end = ghi < n ? ghi : n;
            const uint8_t* f = F + off[j];
            const uint8_t* b = B + off[j];
            for (int c = g; c < end; ++c) out[c] |= f[c - g] & b[c + 1 - g] & s[c] & 1;  // entries are 0 or 1
        }
        // May be filled: some valid start of some block covers cell c.
        diff_.assign(n + 1, 0);
        for (int j = 0; j < k; ++j) {
            const int len = clue[j];
            int first_valid = -1, last_valid = -1;
            for (int st = win_lo[j]; st <= win_hi[j]; ++st) {
                const int e = st + len;
                if (kw[e] != kw[st]) continue;
                if (j == 0 ? !F[st]
                           : !(st - 1 >= glo[j] && (s[st - 1] & 1) && F[off[j] + st - 1 - glo[j]]))
                    continue;
                if (j == k - 1 ? !B[off[k] + e - glo[k]]
                               : !(e < n && (s[e] & 1) && B[off[j + 1] + e + 1 - glo[j + 1]]))
                    continue;
                diff_[st] += 1;
                diff_[e] -= 1;
                if (first_valid < 0) first_valid = st;
                last_valid = st;
            }
            if (first_valid < 0) return false;
            if (update) {
                win_lo[j] = first_valid;
                win_hi[j] = last_valid;
            }
        }
        int covered = 0;
        uint8_t all_possible = 1;  // no cell is left with neither value (no branch per cell)
        for (int c = 0; c < n; ++c) {
            covered += diff_[c];
            out[c] |= static_cast<uint8_t>((covered > 0) << 1);
            all_possible &= out[c] != 0;
        }
        return all_possible != 0;
    }

    // Whether some arrangement of the clue agrees with the line (the forward pass only).
    bool feasible(const int* clue, int k, const uint8_t* s, int n) { return forward(clue, k, s, n); }

private:
    std::vector<uint8_t> F_, B_, FT_;  // FT_: fix's forward table (F_ is feasibility's)
    std::vector<int> kw_, kb_, diff_;
    // lo_/hi_: each block's earliest and latest start; flo_/fhi_: the prefix lengths
    // row j of F can be true at (the ends of block j-1; row 0: the starts of block 0).
    std::vector<int> lo_, hi_, flo_, fhi_;
    // fix's static windows, gap starts and table row offsets.
    std::vector<int> wlo_, whi_, glo_, off_;

    // The forward table F.  With from > 0 the line may differ from the previous
    // call's (same clue) only at cells >= from: the entries F[j][i <= from] are kept.
    // It returns false at the first row that is all false (the rows below it are
    // then left stale beyond from).
    bool forward(const int* clue, int k, const uint8_t* s, int n, int from = 0) {
        const int W = n + 1;
        if (from == 0) {
            kw_.resize(W);
            kb_.resize(W);
            kw_[0] = kb_[0] = 0;
        }
        for (int i = from; i < n; ++i) {
            kw_[i + 1] = kw_[i] + (s[i] == 1);
            kb_[i + 1] = kb_[i] + (s[i] == 2);
        }
        if (k == 0) return kb_[n] == 0;
        if (from == 0) {
            int need = k - 1;
            for (int j = 0; j < k; ++j) need += clue[j];
            slack_ = n - need;
            if (slack_ < 0) return false;
            lo_.resize(k);
            hi_.resize(k);
            flo_.resize(k + 1);
            fhi_.resize(k + 1);
            for (int j = 0, start = 0; j < k; start += clue[j] + 1, ++j) {
                lo_[j] = start;
                hi_[j] = start + slack_;
            }
            flo_[0] = 0;
            fhi_[0] = hi_[0];
            for (int j = 1; j <= k; ++j) {
                flo_[j] = lo_[j - 1] + clue[j - 1];
                fhi_[j] = j < k ? hi_[j - 1] + clue[j - 1] : n;
            }
            F_.resize(static_cast<size_t>(k + 1) * W);
            std::memset(F_.data(), 0, F_.size());
        } else if (slack_ < 0) {
            return false;
        }
        uint8_t* F = F_.data();
        const int redo = from == 0 ? 0 : from + 1;  // the first prefix length recomputed
        for (int i = redo; i <= hi_[0]; ++i) F[i] = kb_[i] == 0;
        for (int j = 1; j <= k; ++j) {
            const int len = clue[j - 1];
            const int first = flo_[j], last = fhi_[j];
            uint8_t* row = F + j * W;
            const uint8_t* prev = F + (j - 1) * W;
            uint8_t any = 0;
            const int begin = redo > first ? redo : first;
            for (int i = first; i < begin && i <= last && !any; ++i) any = row[i];
            for (int i = begin; i <= last; ++i) {
                uint8_t v = 0;
                if (i > first && row[i - 1] && (s[i - 1] & 1)) {
                    v = 1;
                } else {
                    const int st = i - len;
                    if (st <= hi_[j - 1] && kw_[i] == kw_[st]) {
                        if (j == 1) v = prev[st];
                        else if (st >= 1 && (s[st - 1] & 1) && prev[st - 1]) v = 1;
                    }
                }
                row[i] = v;
                any |= v;
            }
            if (!any) return false;  // blocks 0..j-1 fit nowhere: no need to go on
        }
        return F[k * W + n] != 0;
    }

public:
    // Feasibility of a line that differs only at cells >= from from the line of
    // the previous call of feasible_after (same clue, same length), whose forward
    // table is right at prefix lengths <= from; from = 0 computes it all.
    bool feasible_after(const int* clue, int k, const uint8_t* s, int n, int from) {
        return forward(clue, k, s, n, from);
    }

private:
    int slack_ = 0;
};

}  // namespace cext
